#pragma once

// The training engine behind a loadable module. Torch-free: the GUI includes this and never links LibTorch, whose
// static initialisation alone takes about a second; the module (libcreditlab_training.so, which links LibTorch) is
// opened on first use, typically in the background right after the window shows. The CLI and the tests link the
// engine directly (trainer.h, sweep.h) and do not need this.

#include "core/learn/torch/pair/probepipeline.h"
#include "core/learn/api/sweep.h"
#include "core/learn/torch/engine/trainer.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace creditlab::learn {

/// One training run made by the module: the Trainer's API as virtual calls. Construct and run on one thread.
class TrainingRun {
public:
    virtual ~TrainingRun() = default;
    virtual std::int64_t runId() const = 0;
    virtual std::string runName() const = 0;
    /// "cpu", "cuda:0".
    virtual std::string device() const = 0;
    virtual std::int64_t parameterCount() const = 0;
    /// Trainer::run: the callback and stop flag behave the same; errors throw.
    virtual TrainResult run(const TrainCallback& callback, const std::atomic<bool>* stop) = 0;
};

/// PAIR's AUROC table for one policy (pair.md Table 1 on our environment), as probeTable() returns it. A value
/// type; any thread.
struct ProbeTable {
    std::vector<ProbeRow> rows; ///< one per probeNames() entry, in that order
    ProbeSplitCounts counts;
    std::string policy; ///< ProbeData::policy, e.g. "run 3 checkpoint after iteration 40"
    std::int64_t records = 0; ///< clean and contaminated records built
    double dataSeconds = 0.0; ///< building the records (rollouts and contamination)
    double featureSeconds = 0.0; ///< teacher-forced forward passes and statistics, all records
};

/// What the module offers. Every call may throw what the engine throws (ConfigError, std::invalid_argument, ...).
class TrainingBackend {
public:
    virtual ~TrainingBackend() = default;
    /// A new run (Trainer's constructor).
    virtual std::unique_ptr<TrainingRun> create(const TrainConfig& config, const TrainOptions& options) const = 0;
    /// Trainer::resume.
    virtual std::unique_ptr<TrainingRun> resume(std::int64_t runId, const TrainOptions& options,
        const std::vector<std::pair<std::string, std::string>>& overrides) const = 0;
    /// runSweep and resumeSweep of sweep.h; runSweep runs an experiment (a sweep with arms) as runExperiment().
    virtual SweepResult runSweep(const SweepSpec& spec, const SweepOptions& options, const SweepCallback& callback,
        const std::atomic<bool>* stop) const = 0;
    virtual SweepResult resumeSweep(std::int64_t sweepId, const SweepOptions& options, const SweepCallback& callback,
        const std::atomic<bool>* stop) const = 0;
    /// PAIR's probe table: buildProbeData, fitProbes with every probeNames() entry (default ProbeFitOptions), then
    /// evaluateProbes. Calling thread (LibTorch's thread-local state is set there); cancels through `callback`
    /// (then throws creditlab::Cancelled). Throws std::invalid_argument naming the run, file or field.
    virtual ProbeTable probeTable(
        const ProbeSource& source, const ProbeDataOptions& options, const ProbeCallback& callback) const = 0;
    /// doctor.h's availableDevices().
    virtual std::vector<std::string> availableDevices() const = 0;
};

/// Opens the training module once (thread-safe; later calls return at once) and returns its backend. Looks at
/// $CREDITLAB_TRAINING_MODULE, then beside the executable, then in ../lib/creditlab/ and ../lib/ relative to it.
/// Throws std::runtime_error naming every place it tried and the loader's message.
const TrainingBackend& trainingBackend();

/// The file name of the module ("libcreditlab_training.so").
const char* trainingModuleName();

} // namespace creditlab::learn

/// The module's one export: its backend, alive until the process ends.
extern "C" const creditlab::learn::TrainingBackend* creditlab_training_backend();
