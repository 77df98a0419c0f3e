#pragma once

// Shared by the credit estimator tests: run a method by name with `--set`-style assignments.

#include "core/credit/estimator.h"

#include <QStringList>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace creditlab::test {

/// "key=value" strings as the pairs Estimator::resolve takes.
inline std::vector<std::pair<std::string, std::string>> assignments(const QStringList& sets)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const QString& s : sets)
        out.push_back(credit::splitAssignment(s.toStdString()));
    return out;
}

/// Resolves, validates and computes, as `creditlab-cli credit` does.
inline credit::CreditResult runMethod(
    std::string_view method, const Batch& batch, const std::vector<std::pair<std::string, std::string>>& sets = {})
{
    const credit::Estimator& e = credit::requireEstimator(method);
    const credit::Params p = e.resolve(sets);
    e.validate(batch, p);
    return e.compute(batch, p);
}

inline credit::CreditResult runMethod(std::string_view method, const Batch& batch, const QStringList& sets)
{
    return runMethod(method, batch, assignments(sets));
}

} // namespace creditlab::test
