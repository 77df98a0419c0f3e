#pragma once

// Shared by the credit estimator tests: run a method by name with `--set`-style assignments, compare per-turn
// values, whiten expectations.

#include "core/credit/estimator.h"

#include <QList>
#include <QStringList>
#include <QtTest/QTest>

#include <cmath>
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

/// Fails the test (naming the turn) unless `actual` and `expected` agree within `tol` everywhere.
inline void compareValues(const std::vector<double>& actual, const QList<double>& expected, double tol = 1e-9)
{
    QCOMPARE(actual.size(), static_cast<std::size_t>(expected.size()));
    for (std::size_t n = 0; n < actual.size(); ++n)
        QVERIFY2(std::abs(actual[n] - expected[static_cast<qsizetype>(n)]) < tol,
            qPrintable(QStringLiteral("turn %1: got %2, expected %3")
                           .arg(n)
                           .arg(actual[n], 0, 'g', 17)
                           .arg(expected[static_cast<qsizetype>(n)], 0, 'g', 17)));
}

/// (x - mean) / (sample std + eps), written out again for the expectations (TRIAGE Eq. 4).
inline QList<double> whitened(const QList<double>& raw)
{
    double m = 0.0;
    for (double v : raw)
        m += v;
    m /= static_cast<double>(raw.size());
    double ss = 0.0;
    for (double v : raw)
        ss += (v - m) * (v - m);
    const double sd = raw.size() > 1 ? std::sqrt(ss / static_cast<double>(raw.size() - 1)) : 0.0;
    QList<double> out;
    for (double v : raw)
        out << (v - m) / (sd + 1e-6);
    return out;
}

} // namespace creditlab::test
