#pragma once

// Learned credit models in the RL loop, behind one interface: TurnRD (has with credit.decomposer=turnrd), TRIAGE's
// shared-backbone value baseline (value_baseline) and PAIR's probe (pair). The trainer calls the hooks at fixed points
// of an iteration (stages.h) and never asks which method it runs. Learn-internal (torch).

#include "core/learn/api/trainconfig.h"
#include "core/learn/torch/engine/trainsteps.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace creditlab::learn {

using Metrics = std::vector<std::pair<std::string, double>>;

/// The acting policy's final-layer hidden states per turn of a rollout batch (no gradients), on the CPU:
/// `actionLast` (samples, width) at the last token of each turn's action (TurnRD's h_t, has_turnrd.md §2.5),
/// `promptLast` (samples, width) at the last prompt token (the state before the action), `goal`
/// (trajectories, width) mean-pooled over the goal's tokens (TurnRD's g). Rows follow rollouts.samples and
/// rollouts.trajectories.
/// With a communicator of several ranks (a data-parallel run, where every rank holds the whole gathered batch), the
/// passes are shared out: each rank runs a contiguous share of the one-process plan's micro-batches (and of the goals),
/// and the rows are gathered as their float bytes, so that every rank returns what one process returns, bit for bit.
/// Every rank must call it (a collective).
struct TurnStates {
    torch::Tensor actionLast;
    torch::Tensor promptLast;
    torch::Tensor goal;
    torch::Tensor final; ///< (trajectories, width) at the last token after each trajectory's last turn; with `finals`
};
/// How much one pass of extractTurnStates may hold: at most `rows` sequences and `tokens` padded tokens (rows times the
/// longest), as the update's micro-batches (rl.micro_batch, rl.micro_tokens). A sequence longer than `tokens` is a
/// pass of its own. The attention of a pass is rows x heads x longest² floats, so `tokens` bounds its memory.
struct PassLimit {
    std::int64_t rows = 32;
    std::int64_t tokens = 16384;
};
/// The passes extractTurnStates makes over items of lengths `lengths`: consecutive [begin, end) ranges within `limit`.
std::vector<std::pair<std::size_t, std::size_t>> turnStatePasses(
    const std::vector<std::int64_t>& lengths, PassLimit limit);
TurnStates extractTurnStates(Transformer& policy, const TokenFormat& format, const RolloutBatch& rollouts,
    PassLimit limit, const torch::Device& device, bool finals = false, dist::Communicator* comm = nullptr);

/// What a learned credit model may read from the run. References into the trainer, which outlives the model.
struct LearnedCreditContext {
    const TrainConfig& config;
    Transformer& policy; ///< the acting policy (the trainer's member: it sees a rebuilt policy)
    const RolloutSetup& setup;
    torch::Device device;
    std::string database;
    std::int64_t runId = 0;
    std::string filesDir; ///< the run's side files: database.files/run-N
    /// The ranks of a data-parallel run (null: one process). Every rank builds the model and calls every hook, in the
    /// same order; the hooks share the model's passes out over the ranks and only rank 0 writes side files.
    dist::Communicator* comm = nullptr;
};

/// Which hidden states annotate() reads (extracted once per iteration by the trainer, from one pass).
enum class TurnStateNeed { None, Turns, TurnsAndFinals };

/// One learned credit model. Hooks, in the order the trainer calls them:
///   validate()            when the run is created, before SFT: refuses a setting that would fail minutes later;
///   restore(dir, it)      on resume (dir: the checkpoint's folder, empty when the run restarts from scratch);
///   afterSft(metrics)     once, before the first RL iteration this process runs (after SFT or after a resume);
///                         its metrics belong to that iteration;
///   annotate(...)         each iteration after judging and before credit: per-turn credit entries or scores; `shard`
///                         names the trajectories this rank rolled out (all of them in one process);
///   trainAfterUpdate(...) each iteration after the policy update;
///   save(dir)             with every checkpoint.
class LearnedCredit {
public:
    virtual ~LearnedCredit() = default;
    virtual std::string_view name() const = 0;
    virtual TurnStateNeed needs() const { return TurnStateNeed::None; }
    virtual void validate() const { }
    virtual void restore(const std::string& checkpointDir, std::int64_t iteration)
    {
        static_cast<void>(checkpointDir);
        static_cast<void>(iteration);
    }
    virtual void afterSft(Metrics& metrics) { static_cast<void>(metrics); }
    /// `states` is null when needs() is None.
    virtual void annotate(
        RolloutBatch& rollouts, const TurnStates* states, const UpdateShard& shard, std::int64_t it, Metrics& metrics)
        = 0;
    virtual void trainAfterUpdate(std::int64_t it, Metrics& metrics)
    {
        static_cast<void>(it);
        static_cast<void>(metrics);
    }
    virtual void save(const std::string& checkpointDir) const { static_cast<void>(checkpointDir); }
};

/// The learned credit model the configured method trains with, or null (grpo, triage, ... need none).
std::unique_ptr<LearnedCredit> makeLearnedCredit(const LearnedCreditContext& context);

} // namespace creditlab::learn
