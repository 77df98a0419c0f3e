#pragma once

// The SFT starts of an experiment (sft: shared or per_seed), trained one after another before its trials and
// recorded in the sweep's stored config as soon as each run exists: what runExperiment() and resumeExperiment()
// (sweeprunner.cpp) do before handing the trials to the sweep runner. Internal to the engine.

#include "core/learn/api/sweep.h"
#include "core/learn/torch/engine/trainer.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace creditlab {
class Store;
}

namespace creditlab::learn {

/// One SFT start an experiment trains before its trials: the shared one (`seed` empty) or a seed's (per_seed), new or
/// continued (`existing`, a run stopped or killed before it finished).
struct SftJob {
    std::string seed;
    std::optional<std::int64_t> existing;
};

/// The SFT starts `spec` still has to train, in seed order. A recorded run is continued when it is this experiment's
/// own (a train run of the start's name) and has not finished; any other recorded run (finished, or one the file or
/// --sft names) is used as it is.
std::vector<SftJob> sftJobs(const SweepSpec& spec, Store& store);

/// Trains `jobs`, one after another with every core, before the trials. A new SFT run is recorded in the sweep's
/// stored config (`sft: RUN`, or per_seed's `sft: {SEED: RUN, ...}`) in the transaction that creates it, so that a kill
/// at any point leaves it to resumeExperiment(), and a finished start is never trained again. Returns the spec with
/// the runs recorded, or nullopt when stopped (the sweep is then cancelled, resumable); an error marks the sweep failed
/// and is rethrown.
std::optional<SweepSpec> trainSftStarts(SweepSpec spec, const std::vector<SftJob>& jobs, std::int64_t sweepId,
    const SweepOptions& options, const TrainCallback& sftCallback, const SweepCallback& callback,
    const std::vector<TrialProgress>& trials, const std::atomic<bool>* stop);

/// The result of an experiment stopped while an SFT start trained: cancelled, resumable, its trials still pending.
SweepResult stoppedDuringSft(std::int64_t sweepId, std::vector<TrialProgress> trials);

} // namespace creditlab::learn
