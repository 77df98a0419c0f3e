#pragma once

// Computing a method's credits for a stored run and writing them back: what `creditlab-cli credit --run` and the
// workbench's Credit page do. Qt-free.

#include "core/credit/estimator.h"
#include "core/storage/store.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace creditlab::credit {

/// What computeRunCredits stored.
struct RunCreditsResult {
    std::size_t turns = 0; ///< turns that got a credit
    std::string label; ///< the method name they are stored under
    std::string tag; ///< "method:key=value,..." (the parameters)
    /// When every advantage of every batch is 0: why, for the first batch (credit::zeroCreditReason).
    std::optional<std::string> zeroReason;
};

/// Computes `method`'s credits with `params` for run `runId` (only `iteration` when given), one batch per iteration
/// as the trainer does, and stores them under `label` (the method's name when empty) in one transaction. Every batch
/// is validated before anything is written. `perTrajectory`, when given, is called after each trajectory's credits
/// are computed, with the trajectory, the result and its index in the batch (the CLI prints lines from it); it runs
/// before the commit. `beforeCommit`, when given, runs last before the commit: when it throws, nothing is stored (the
/// CLI writes its output file there). Throws StoreError for a missing run or a run without trajectories, ParamError/
/// std::invalid_argument for a batch the method cannot score. Any thread (with its own Store).
RunCreditsResult computeRunCredits(Store& store, std::int64_t runId, std::optional<std::int64_t> iteration,
    const Estimator& method, const Params& params, const std::string& label = {},
    const std::function<void(const Trajectory&, const CreditResult&, std::size_t)>& perTrajectory = {},
    const std::function<void()>& beforeCommit = {});

} // namespace creditlab::credit
