#pragma once

// One trial of a sweep, run on its own (`creditlab-cli sweep trial`, issue 36): the entry point a Slurm job array,
// submitit or any scheduler calls once per trial, instead of a controller. Stateless and safe to retry: the trial's
// identity is derived from the sweep file's content and the trial number, so every machine agrees on it, and a
// second run of the same trial into the same database finds the first one's rows. Torch-free header.

#include "core/learn/api/sweep.h"
#include "core/learn/torch/engine/trainer.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

namespace creditlab::learn {

/// The uid of a sweep: "sweep-" and the first 24 hex digits of SHA-256 over the sweep file as written and its base
/// config's text. Two machines with the same file (and base) agree on it; any edit makes another sweep.
std::string sweepUid(const SweepSpec& spec);
/// The uid of trial `index` (from 0) of a sweep: sweepUid() + "/trial-" + index. Its run's uid is this + "/run".
std::string trialUid(const SweepSpec& spec, int index);

struct SingleTrialResult {
    std::int64_t sweepId = 0;
    std::int64_t trialId = 0;
    std::int64_t runId = 0; ///< 0 when the trial failed before its run existed
    std::string trialUid;
    TrialStatus status = TrialStatus::Pending; ///< Finished, Cancelled (stopped; run it again to continue) or Failed
    std::optional<double> objective;
    bool alreadyFinished = false; ///< the database had it finished: nothing was trained
    bool resumed = false; ///< an unfinished run of the trial was continued from its last checkpoint
    std::string error; ///< why it failed
};

/// Runs trial `index` (0 ≤ index < spec.trials.size()) of sweep `spec` (not an experiment) into options.database:
/// creates the sweep and the trial there when missing (found by uid otherwise), then trains the trial's run, or
/// continues it when a previous attempt stopped or was killed, or does nothing when it has finished. `callback` and
/// `stop` as for Trainer::run. Blocks the calling thread; the trainer's threads are the sweep's `threads` (cores when
/// 0). Throws ConfigError for a bad index or an experiment, StoreError for a database that cannot be opened; a failing
/// run is recorded failed and returned with its error.
SingleTrialResult runSingleTrial(const SweepSpec& spec, int index, const SweepOptions& options,
    const TrainCallback& callback = {}, const std::atomic<bool>* stop = nullptr);

} // namespace creditlab::learn
