#pragma once

// The trainer's internals: rollouts, SFT, the PPO update and checkpoints. Learn-internal (torch).

#include "core/env/environment.h"
#include "core/learn/generation.h"
#include "core/learn/ppo.h"
#include "core/learn/prompt.h"
#include "core/learn/tokenizer.h"
#include "core/learn/trainconfig.h"
#include "core/model.h"

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
};

/// One policy decision: the prompt it saw and the tokens it wrote. Index into the batch's trajectories.
struct TurnSample {
    std::vector<std::int32_t> prompt;
    std::vector<std::int32_t> action;
    std::size_t trajectory = 0;
    std::size_t turn = 0;
};

/// The result of rolling out a set of episodes, all at once.
struct RolloutBatch {
    std::vector<Trajectory> trajectories;
    std::vector<std::vector<std::optional<Role>>> oracleRoles; ///< per trajectory and turn
    std::vector<TurnSample> samples;
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
    PromptOptions prompt;
    SamplingOptions sampling;
};

/// Runs every episode of `episodes` to its end, batching the policy over all active episodes at every
/// step. Trajectories are filled as env::runEpisode fills them (oracle roles in `oracleRoles`, not in the
/// turns). Does not cancel (one iteration's rollouts).
RolloutBatch collectRollouts(Transformer& policy, const Tokenizer& tokenizer, const RolloutSetup& setup,
    const std::vector<EpisodeSpec>& episodes, Rng& rng);

/// One demonstration: a prompt and the expert's action tokens (stop token included).
struct Demonstration {
    std::vector<std::int32_t> prompt;
    std::vector<std::int32_t> action;
};

/// Expert episodes plus noisy-expert episodes relabelled with the expert's action in every state they
/// reach (train split, seeds 0..n-1 and 1'000'000 + 0..m-1). With `search` the labels (and the expert
/// episodes) come from the searching expert, which decides only from what the agent has seen.
std::vector<Demonstration> collectDemonstrations(const Tokenizer& tokenizer, const RolloutSetup& setup,
    std::int64_t expertEpisodes, std::int64_t noisyEpisodes, double epsilon, bool search = false);

/// sft.demonstrations: the successful trajectories (Trajectory::successOrDefault) of a JSONL file in the interchange
/// format, in file order. Throws JsonlError naming the file, line and field, or std::runtime_error naming the file
/// when it cannot be read or holds no successful trajectory with a turn.
std::vector<Trajectory> readDemonstrationFile(const std::string& path);

/// Every turn of `trajectories` as a demonstration: the prompt the policy would see there (goal, earlier turns,
/// observation) and the trajectory's action.
std::vector<Demonstration> demonstrationsOf(
    const Tokenizer& tokenizer, const RolloutSetup& setup, std::span<const Trajectory> trajectories);

/// Sequences of prompt + action as a right-padded batch with the positions whose next token is an
/// action token: `targets` (B, A) int64 token ids, `positions` (B, A) int64, `mask` (B, A) float.
struct ActionBatch {
    torch::Tensor tokens;
    torch::Tensor valid;
    torch::Tensor positions;
    torch::Tensor targets;
    torch::Tensor mask;
};
ActionBatch makeActionBatch(const std::vector<const std::vector<std::int32_t>*>& prompts,
    const std::vector<const std::vector<std::int32_t>*>& actions, const torch::Device& device);

/// Per-token log-probabilities (B, A) of the action tokens at `temperature`, and the entropy of each
/// token's distribution when `entropy` is given.
torch::Tensor actionLogProbs(Transformer& model, const ActionBatch& batch, double temperature,
    torch::Tensor* entropy = nullptr, torch::Tensor* hiddenAtActions = nullptr);

/// SFT statistics of one epoch.
struct SftEpoch {
    double loss = 0.0; ///< mean token cross-entropy on action tokens
    double tokenAccuracy = 0.0;
};

/// One SFT epoch over `demos` in a random order (from `rng`): cross-entropy on action tokens only.
/// `onStep(done, total)` is called after every step; returning false stops the epoch early.
SftEpoch sftEpoch(Transformer& policy, torch::optim::Optimizer& optimizer, const std::vector<Demonstration>& demos,
    int batchSize, Rng& rng, const std::function<bool(std::int64_t, std::int64_t)>& onStep = {});

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

struct UpdateSettings {
    int epochs = 2;
    int minibatches = 4;
    int microBatch = 32; ///< rows per forward pass; gradients accumulate over a minibatch's micro-batches
    double temperature = 1.0;
    double maxGradNorm = 1.0;
    PpoLossOptions loss;
    bool critic = false;
    double gamma = 1.0;
    double lambda = 1.0;
    bool trajectoryGae = false;
};

/// The PPO-clip update on action tokens: `advantages[i]` is broadcast onto the tokens of sample i (or, with
/// a critic, is the reward on its last token for GAE). Old and reference log-probs are computed first, without
/// gradients.
UpdateStats ppoUpdate(Transformer& policy, Transformer& reference, torch::optim::Optimizer& optimizer,
    Transformer* critic, torch::optim::Optimizer* criticOptimizer, const std::vector<TurnSample>& samples,
    const std::vector<double>& advantages, const UpdateSettings& settings, Rng& rng);

} // namespace creditlab::learn
