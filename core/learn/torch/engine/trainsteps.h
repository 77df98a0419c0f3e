#pragma once

// The steps a training run is made of: rollouts, SFT epochs, the PPO update and demonstrations; trainer.cpp,
// warmstart.cpp, evaluation.cpp and iteration.cpp (through trainerstate.h) and the stages call them. Learn-internal
// (torch).

#include "core/env/environment.h"
#include "core/learn/api/trainconfig.h"
#include "core/learn/torch/dist/communicator.h"
#include "core/learn/torch/engine/ppo.h"
#include "core/learn/torch/lm/generation.h"
#include "core/learn/torch/lm/prompt.h"
#include "core/learn/torch/lm/sequence.h"
#include "core/learn/torch/lm/tokenformat.h"
#include "core/model/trajectory.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace creditlab::learn {

/// One environment to run: a task seed, its split and the ids the trajectory gets.
struct EpisodeSpec {
    std::uint64_t seed = 0;
    env::Split split = env::Split::Train;
    std::string id;
    std::string group; ///< empty: the task key
    /// The episode's place in its whole iteration: its sampling stream (collectRollouts). Unset: its index in the call.
    std::optional<std::uint64_t> stream {};
};

/// One policy decision: where its action sits among the batch's sequences (sequences[sequence].spans[span]), and
/// which trajectory and turn it belongs to.
struct TurnSample {
    std::size_t trajectory = 0;
    std::size_t turn = 0;
    std::size_t sequence = 0;
    std::size_t span = 0;
    double logProb = 0.0; ///< the action's log-probability when it was sampled (at the sampling temperature)
};

/// The result of rolling out a set of episodes, all at once.
struct RolloutBatch {
    std::vector<Trajectory> trajectories;
    std::vector<std::vector<std::optional<Role>>> oracleRoles; ///< per trajectory and turn
    std::vector<TrainSequence> sequences; ///< episode segments (episode mode) or one per turn (window mode)
    std::vector<TurnSample> samples; ///< one per turn taken, trajectory by trajectory in turn order
    /// Per trajectory: the tokens the policy would read after its last turn (the state after it)
    std::vector<std::vector<std::int32_t>> finalContexts;
    std::int64_t overflows = 0; ///< episode mode: restarts of a stream that would have passed the context
    std::int64_t generatedTokens = 0;
    std::int64_t envSteps = 0;
    double generationSeconds = 0.0; ///< policy time (prompt building, forward passes, sampling)
    double envSeconds = 0.0;
    std::int64_t failed = 0; ///< rollouts the environment broke off (env::isFailed)
    std::int64_t unavailable = 0; ///< of those, rollouts lost because the server stopped answering
    std::string lastError; ///< the last of those failures
};

/// What the rollout needs to know about the environment and the prompt.
struct RolloutSetup {
    std::string env;
    std::vector<std::pair<std::string, std::string>> envAssignments;
    bool episodeMemory = true; ///< policy.memory: one token stream per episode (else a window prompt per turn)
    std::int32_t context = 384; ///< policy.context
    PromptOptions prompt; ///< window mode's prompt (its budget is context minus the action budget)
    SamplingOptions sampling;
};

/// Runs every episode of `episodes` to its end, batching the policy over all active episodes at every
/// step. Episode mode keeps each episode's KV cache across turns: every turn prefills the new observation as a
/// chunk and samples the action from there; an episode that would pass the context restarts (a new segment).
/// Trajectories are filled as env::runEpisode fills them (oracle roles in `oracleRoles`, not in the turns). Does not
/// cancel (one iteration's rollouts). Each episode samples from its own stream, seeded from one draw of `rng` and the
/// episode's `stream`: an episode's actions do not depend on the others in the call, so that a data-parallel run's
/// ranks, each rolling out a share, sample what one process would.
RolloutBatch collectRollouts(Transformer& policy, const TokenFormat& format, const RolloutSetup& setup,
    const std::vector<EpisodeSpec>& episodes, Rng& rng);

/// A one-turn sequence: `prompt` followed by `action`, the action trained (window mode's sample).
TrainSequence windowSequence(const std::vector<std::int32_t>& prompt, const std::vector<std::int32_t>& action,
    std::size_t trajectory = 0, std::size_t turn = 0);

/// Demonstrations as training sequences. Episode mode: one sequence per episode (split at overflows), whose stream
/// holds the actions taken; a turn whose label differs from the action taken (noisy-expert episodes) trains the label
/// on a branch from that turn's observation. Window mode: one sequence per turn.
class DemonstrationBuilder {
public:
    DemonstrationBuilder(const TokenFormat& format, const RolloutSetup& setup);
    void beginEpisode(const std::string& goal);
    /// A turn: the observation, the action the episode took, and the action to train there (the label).
    void addTurn(const std::string& observation, const std::string& taken, const std::string& label);
    void endEpisode();
    std::vector<TrainSequence> take() { return std::move(m_out); }
    std::int64_t turns() const { return m_turns; }

private:
    const TokenFormat& m_format;
    const RolloutSetup& m_setup;
    std::string m_goal;
    std::vector<Turn> m_history; ///< window mode
    std::optional<EpisodeStream> m_stream; ///< episode mode
    struct PendingBranch {
        std::int32_t segment = 0;
        std::int32_t forkAt = 0;
        std::size_t turn = 0;
        std::vector<std::int32_t> label;
    };
    std::vector<PendingBranch> m_branches; ///< episode mode: labels that differ from the action taken
    std::size_t m_episode = 0;
    std::int64_t m_turns = 0;
    std::vector<TrainSequence> m_out;
};

/// Expert episodes plus noisy-expert episodes relabelled with the expert's action in every state they
/// reach (train split, seeds 0..n-1 and 1'000'000 + 0..m-1). With `search` the labels (and the expert
/// episodes) come from the searching expert, which decides only from what the agent has seen.
std::vector<TrainSequence> collectDemonstrations(const TokenFormat& format, const RolloutSetup& setup,
    std::int64_t expertEpisodes, std::int64_t noisyEpisodes, double epsilon, bool search = false);

/// DAgger: each trajectory replayed from its task (`specs`, same order) with the demonstrator's action as the label of
/// every state the trajectory visited (the searching expert with `search`, else the privileged one); the stream keeps
/// the actions the trajectory took. Stops an episode where the demonstrator has no action.
std::vector<TrainSequence> relabelWithDemonstrator(const TokenFormat& format, const RolloutSetup& setup,
    const std::vector<Trajectory>& trajectories, const std::vector<EpisodeSpec>& specs, bool search);

/// sft.demonstrations: the successful trajectories (Trajectory::successOrDefault) of a JSONL file in the interchange
/// format, in file order. Throws JsonlError naming the file, line and field, or std::runtime_error naming the file
/// when it cannot be read or holds no successful trajectory with a turn.
std::vector<Trajectory> readDemonstrationFile(const std::string& path);

/// Every turn of `trajectories` as a demonstration of its own action.
std::vector<TrainSequence> demonstrationsOf(
    const TokenFormat& format, const RolloutSetup& setup, std::span<const Trajectory> trajectories);

/// Training sequences as a right-padded batch: `tokens` (B, T) int64, `valid` (B, T) bool, and where every action
/// token is predicted: `from` (B, A) int64 (the output position), `targets` (B, A) int64, `mask` (B, A) float (1 on
/// action tokens, 0 on padding), A the most action tokens of a row. Rows with branches also get `positions` (B, T)
/// and `allowed` (B, T, T); without any branch both stay undefined and the causal forward applies.
struct SequenceBatch {
    torch::Tensor tokens;
    torch::Tensor valid;
    torch::Tensor positions;
    torch::Tensor allowed;
    torch::Tensor from;
    torch::Tensor targets;
    torch::Tensor mask;
    std::int64_t actionWidth = 0;
};
SequenceBatch makeSequenceBatch(const std::vector<const TrainSequence*>& rows, const torch::Device& device);
/// The model's final hidden states (B, T, width) over a batch (with its layout).
TransformerOutput forwardBatch(Transformer& model, const SequenceBatch& batch, bool keepInternals = false);

/// Per-token log-probabilities (B, A) of the action tokens at `temperature`, and the entropy of each
/// token's distribution when `entropy` is given.
torch::Tensor actionLogProbs(Transformer& model, const SequenceBatch& batch, double temperature,
    torch::Tensor* entropy = nullptr, torch::Tensor* hiddenAtActions = nullptr);

/// Data parallelism inside ppoUpdate (issue 36). Every rank holds the whole batch's sequences and plans the same
/// minibatches (the same Rng), with each minibatch's loss normalised over all of it; a rank computes the passes of its
/// own trajectories' sequences only, [begin, end). The gradients are summed over the ranks before clipping, every rank
/// steps, and the statistics and the trace are summed, so that every rank returns what one process would.
struct UpdateShard {
    dist::Communicator* comm = nullptr; ///< null or world 1: one process, every trajectory
    std::size_t begin = 0;
    std::size_t end = static_cast<std::size_t>(-1);
    bool owns(std::size_t trajectory) const { return trajectory >= begin && trajectory < end; }
    bool distributed() const { return comm != nullptr && comm->world() > 1; }
};

/// SFT statistics of one epoch (or of one step, for sftEpoch's onStep).
struct SftEpoch {
    double loss = 0.0; ///< mean token cross-entropy on action tokens
    double tokenAccuracy = 0.0;
};

/// One SFT epoch over `demos` in a random order (from `rng`): cross-entropy on action tokens only, the token mean of
/// each step. A step takes sequences until they hold `turnsPerStep` actions (at least one sequence).
/// `onStep(done, total, step)` is called after every step with that step's loss and token accuracy; returning false
/// stops the epoch early.
/// With a distributed `shard`, each rank computes its share of every step's sequences and the gradients are summed
/// (UpdateShard); every rank returns the same.
SftEpoch sftEpoch(Transformer& policy, torch::optim::Optimizer& optimizer, const std::vector<TrainSequence>& demos,
    int turnsPerStep, Rng& rng, const std::function<bool(std::int64_t, std::int64_t, const SftEpoch&)>& onStep = {},
    const UpdateShard& shard = {});
/// How many steps sftEpoch makes over `demos` (whatever the order).
std::int64_t sftSteps(const std::vector<TrainSequence>& demos, int turnsPerStep);
/// sft.lr_schedule: the learning rate after `done` of `total` steps; cosine decays from `base` to 5% of it, constant
/// keeps `base`.
double sftLearningRate(double base, std::int64_t done, std::int64_t total, bool cosine);

struct UpdateStats {
    double policyLoss = 0.0;
    double kl = 0.0;
    double entropy = 0.0;
    double clipFraction = 0.0;
    double gradNorm = 0.0;
    double approxKl = 0.0;
    double valueLoss = 0.0;
    std::int64_t trainedTokens = 0;
};

/// How token losses are averaged (rl.loss_norm).
enum class LossNorm {
    Trajectory, ///< the token mean within each trajectory, then the mean over the minibatch's trajectories
    Token, ///< the token mean over the minibatch
    Sequence, ///< the token mean within each sequence, then the mean over sequences
};

struct UpdateSettings {
    int epochs = 2;
    int minibatches = 4; ///< a minibatch is a share of the trajectories, with all their sequences
    int microBatch = 32; ///< most rows per forward pass; gradients accumulate over a minibatch's micro-batches
    std::int64_t microTokens = 16384; ///< most padded tokens (rows times the longest) per forward pass
    LossNorm norm = LossNorm::Trajectory;
    double temperature = 1.0;
    double maxGradNorm = 1.0;
    PpoLossOptions loss;
    bool critic = false;
    double gamma = 1.0;
    double lambda = 1.0;
    bool trajectoryGae = false;
    UpdateShard shard;
};

/// What the update saw of each of its sequences, token by token in span order (the Tokens view and the drift metric).
struct UpdateTrace {
    std::vector<std::vector<float>> current; ///< the policy's log-probs before the first step: the ratio's denominator
    std::vector<std::vector<float>> advantage; ///< the advantages in the loss (GAE's with a critic)
};

/// The PPO-clip update on action tokens: each span's advantage is broadcast onto its tokens (or, with a critic, is
/// the reward on its last token for GAE). Old and reference log-probs are computed first, without gradients, in eval
/// mode, on the very micro-batches of the first epoch, except the policy's own on the first minibatch when its passes
/// are deterministic (no LoRA dropout): its first forward pass, detached, is its old log-probs (the weights have not
/// moved yet), so its ratio is exactly 1.
/// With `trace`, fills it for every sequence.
UpdateStats ppoUpdate(Transformer& policy, Transformer& reference, torch::optim::Optimizer& optimizer,
    Transformer* critic, torch::optim::Optimizer* criticOptimizer, const std::vector<TrainSequence>& sequences,
    const UpdateSettings& settings, Rng& rng, UpdateTrace* trace = nullptr);

/// A test hook that ppoUpdate fills when given: the first minibatch's ratio exp(logp - old) over its action tokens
/// (min and max), and the old log-probs of every sequence as the update used them.
struct UpdateProbe {
    double min = 1e300;
    double max = -1e300;
    std::vector<std::vector<float>> oldLogProbs;
};
void setUpdateProbe(UpdateProbe* probe);

} // namespace creditlab::learn
