#pragma once

// The training engine: SFT warm start, then RL with any credit method. Torch-free header: the CLI and
// the GUI's run controller include it; the torch state lives behind a private implementation.

#include "core/learn/api/trainconfig.h"
#include "core/learn/torch/dist/launchenv.h"
#include "core/model/vocabulary.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace creditlab {
class Store;
}

namespace creditlab::learn {

/// A snapshot of a run's progress, passed to the callback (a value: safe to copy across threads).
struct TrainProgress {
    Phase phase = Phase::Sft; ///< Sft, Rl, Eval (an evaluation begins), or Waiting (an outage: `message` says what
                              ///< and for how long)
    std::int64_t iteration = 0; ///< the RL iteration just finished (0 = after SFT); for Eval, the one evaluated
    std::int64_t iterations = 0; ///< RL iterations in all
    std::int64_t step = 0; ///< steps done in this phase (SFT steps, or iterations)
    std::int64_t steps = 0; ///< steps in this phase
    double elapsedSeconds = 0.0; ///< since this phase started, less the time the callback held the run (paused)
    double etaSeconds = -1.0; ///< for this phase; negative when unknown
    std::vector<std::pair<std::string, double>> metrics; ///< of the iteration just finished, else empty
    std::string message;
};

/// Called on the trainer's thread after every SFT step and every iteration, and as each evaluation begins.
/// Returning false asks the trainer to stop at the next safe point, exactly like the stop flag.
using TrainCallback = std::function<bool(const TrainProgress&)>;

struct TrainOptions {
    std::string database; ///< the store; checkpoints go to paths::runFiles(database, run)
    std::string device; ///< "cpu", "cuda", "cuda:N"; empty: CUDA when present
    RunKind kind = RunKind::Train; ///< the new run's kind: Train, or Trial for a sweep's trial
    /// A sweep's trial: the new run is linked to it in the transaction that creates the run, so that no kill can
    /// leave a trial's run unlinked (a resumed sweep would start a second run and strand the first).
    std::optional<std::int64_t> trialId {};
    /// Called with the store and the new run's id inside the transaction that creates the run (the constructor
    /// only, not resume()): an experiment records its shared SFT run in its sweep there, so that no kill can leave
    /// the SFT run unknown to the experiment.
    std::function<void(Store&, std::int64_t)> onCreated {};
    /// A data-parallel run (issue 36): this process's rank among `launch.world` (LaunchEnv::fromEnvironment reads
    /// torchrun's or Slurm's variables; one process by default). Rank 0 alone opens the store: it creates the run,
    /// records every iteration and writes the checkpoints; the other ranks read the checkpoint files it names.
    dist::LaunchEnv launch {};
    /// How long a rank waits for the others at a collective before the run fails, naming the rank that is missing.
    double rankTimeoutSeconds = 300.0;
};

struct TrainResult {
    std::int64_t runId = 0;
    RunStatus status = RunStatus::Finished; ///< Finished, or Cancelled (stopped; resumable)
    std::int64_t iterationsDone = 0;
    std::optional<double> evalSuccess; ///< the last evaluation
};

/// One training run. Construct and run() on the same thread (LibTorch's thread-local state, the store
/// connection); the stop flag may be set from any thread and is checked after every SFT epoch and RL
/// iteration, so a stop ends the run after the current iteration with a checkpoint to resume from.
/// Errors throw std::exception; the run is then marked "failed".
class Trainer {
public:
    /// Creates a new run in the store. With policy.pretrained, the model's generation_config.json temperature and top_p
    /// become rl.temperature and rl.top_p where `config` does not set them (withGenerationDefaults()); the stored
    /// config holds the values the run samples with.
    Trainer(const TrainConfig& config, const TrainOptions& options);
    /// Continues run `runId` from its last checkpoint, with the config it was started with; a run stopped
    /// before its first checkpoint (during SFT) starts again from its seed. Throws std::invalid_argument when
    /// the run does not exist or is not a training run (kind "train" or "trial").
    /// `overrides` may change only what leaves the finished iterations valid (resumableKeys(): more iterations,
    /// evaluation and checkpoint cadence, threads); the stored config is updated. Throws ConfigError for
    /// another key or a bad value.
    static std::unique_ptr<Trainer> resume(std::int64_t runId, const TrainOptions& options,
        const std::vector<std::pair<std::string, std::string>>& overrides = {});
    /// The keys `resume` accepts overrides for.
    static const std::vector<std::string>& resumableKeys();
    ~Trainer();
    Trainer(const Trainer&) = delete;
    Trainer& operator=(const Trainer&) = delete;

    std::int64_t runId() const;
    const TrainConfig& config() const;
    /// The device the run uses ("cpu", "cuda:0").
    std::string device() const;
    /// Whether the run has a checkpoint (false until SFT has finished).
    bool hasCheckpoint() const;
    /// Parameters of the policy.
    std::int64_t parameterCount() const;
    /// This process's rank and the run's ranks (0 and 1 unless data-parallel).
    int rank() const;
    int world() const;

    TrainResult run(const TrainCallback& callback = {}, const std::atomic<bool>* stop = nullptr);

    struct Impl;

private:
    explicit Trainer(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> d;
};

} // namespace creditlab::learn
