#pragma once

// Why a method gave every turn of a batch zero credit, in words a user can act on (issue 35: "credit that explains
// itself"). Read by `credit` on the command line.

#include "core/credit/estimator.h"

#include <optional>
#include <string>

namespace creditlab::credit {

/// When every advantage of `result` is 0 (and the batch has turns): the batch's shape that explains it (one rollout
/// per group, identical rewards within every group) and what would change it. nullopt when some advantage is not 0.
std::optional<std::string> zeroCreditReason(const Batch& batch, const CreditResult& result, std::string_view method);

} // namespace creditlab::credit
