#pragma once

// One RL iteration as a pipeline of stages that return values (Trainer::Impl::runIteration strings them together):
//   sample  -> the iteration's task seeds and episodes, rolled out by collectRollouts (trainsteps.h)
//   judge   -> every turn's role and score from the judge's verdicts
//   (learned credit models annotate the batch here: learnedcredit.h)
//   credit  -> the trained method's credits, then every other method's on the same batch (shadow credits)
//   select  -> which rollouts train, each turn's advantage on its action's span, optional whitening
//   update  -> ppoUpdate (trainsteps.h) with the settings the config gives
//   record  -> trajectories, judge labels and credits in the store
// Each stage is a free function of its inputs, tested on its own (tests/learn/tst_learn_stages.cpp).
// Learn-internal (torch).

#include "core/credit/estimator.h"
#include "core/judge/judge.h"
#include "core/learn/api/rng.h"
#include "core/learn/api/trainconfig.h"
#include "core/learn/torch/engine/trainsteps.h"
#include "core/model/trajectory.h"
#include "core/storage/store.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace creditlab {
class Store;
}

namespace creditlab::learn {

// ---- sample --------------------------------------------------------------------------------------------------------

/// The task seeds of one iteration: `count` distinct random seeds below 2^31, or (from a non-empty `pool`) the pool
/// shuffled, cycled when the pool is smaller than `count`.
std::vector<std::uint64_t> sampleTaskSeeds(std::int64_t count, std::vector<std::uint64_t> pool, Rng& rng);

/// `group` train-split rollouts of each task seed. As DESIGN.md's example, a group is one task at one policy version:
/// group id "it<it>-t<j>", rollout id "it<it>-t<j>-r<k>".
std::vector<EpisodeSpec> iterationEpisodes(
    std::int64_t it, const std::vector<std::uint64_t>& taskSeeds, std::int64_t group);

/// rl.task_pool=labelled: the train seeds of the tasks that carry human labels in `store` for environment `env`.
/// Task keys are "<env>:seed=<N>"; eval-split keys ("...:split=eval") and other keys are skipped.
std::vector<std::uint64_t> labelledTrainSeeds(Store& store, const std::string& env);

// ---- judge ---------------------------------------------------------------------------------------------------------

/// Writes each turn's verdict into the trajectories: role, score, and where the role came from (the verdict's own
/// source, else `roleSource`, "judge:<tag>"); a turn without a role gets no source. Also sets every trajectory's
/// iteration to `it`.
void applyVerdicts(std::vector<Trajectory>& trajectories, const std::vector<std::vector<judge::Verdict>>& verdicts,
    const std::string& roleSource, std::int64_t it);

// ---- credit --------------------------------------------------------------------------------------------------------

/// The credits of one method on the batch, ready to store.
struct MethodCredits {
    std::string name;
    std::string params; ///< the resolved parameters, canonical text
    credit::CreditResult result;
};

/// The trained `method` with `assignments` first (its errors propagate), then, with `shadow`, every other registered
/// method at its defaults; a shadow method that refuses the batch is skipped.
std::vector<MethodCredits> computeCredits(const Batch& batch, const std::string& method,
    const std::vector<std::pair<std::string, std::string>>& assignments, bool shadow);

// ---- select --------------------------------------------------------------------------------------------------------

struct SelectOptions {
    bool filterUniformGroups = false; ///< rl.filter_uniform_groups: drop groups whose rewards are all equal
    bool whiten = false; ///< rl.whiten_advantages: over the kept turns, (a - mean) / (std + 1e-8)
};

/// What goes into the update.
struct Selection {
    std::vector<TrainSequence> sequences; ///< of the kept rollouts, each span carrying its turn's advantage
    std::size_t samples = 0; ///< kept turns
    std::int64_t filteredGroups = 0;
    std::int64_t failedRollouts = 0; ///< broken off by the environment (env::isFailed): stored, not trained
    double nonZeroShare = 0.0; ///< share of the method's per-turn advantages that are not 0
};

/// Puts `result`'s advantage of every kept turn onto its span and moves the kept rollouts' sequences out of
/// `rollouts`. `batch` holds the same trajectories as `rollouts` did, in the same order.
Selection selectForUpdate(
    const Batch& batch, RolloutBatch& rollouts, const credit::CreditResult& result, const SelectOptions& options);

// ---- update --------------------------------------------------------------------------------------------------------

/// ppoUpdate's settings from the config's rl.* and critic.* keys, at the KL controller's current `klCoef`.
UpdateSettings updateSettings(const TrainConfig& config, double klCoef, bool critic);

// ---- token segments ------------------------------------------------------------------------------------------------

/// The sequences of the first `limit` trajectories (all when negative) as token segments, per trajectory index: the
/// trained ones (`trained`, with the update's `trace` in the same order) with their loss mask, current log-probs and
/// advantages; those the selection left out (`untrained`: the rollouts' sequences whose trajectory has none in
/// `trained`) with behaviour log-probs only. Segments are in stream order (segment, then first turn).
std::vector<std::vector<TokenSegment>> tokenSegments(const TokenFormat& format, std::size_t trajectories,
    std::int64_t limit, const std::vector<TrainSequence>& trained, const UpdateTrace& trace,
    const std::vector<TrainSequence>& untrained);

/// The mean and largest |behaviour - current| log-prob over the trained action tokens (0 and 0 when none): how far
/// the trainer's forward pass is from the one that sampled (token drift; 0 up to float error when both see the same
/// tokens with the same weights).
std::pair<double, double> logProbDrift(const std::vector<TrainSequence>& trained, const UpdateTrace& trace);

// ---- record --------------------------------------------------------------------------------------------------------

/// Metrics of the batch's rollouts: rollout/success, return, turns, invalid_rate, and role/D..R (oracle role shares).
std::vector<std::pair<std::string, double>> rolloutMetrics(
    const Batch& batch, const std::vector<std::vector<std::optional<Role>>>& oracleRoles);

/// One iteration's rows, as recordIteration writes them.
struct IterationRecord {
    std::int64_t runId = 0;
    std::int64_t iteration = 0;
    std::int64_t ordinalBase = 0; ///< the first trajectory's ordinal in the run
    const Batch* batch = nullptr;
    const std::vector<std::vector<std::optional<Role>>>* oracleRoles = nullptr;
    const std::vector<std::vector<judge::Verdict>>* verdicts = nullptr;
    std::string judgeTag; ///< the judge's labels are stored under this name unless it is "oracle"
    const std::vector<MethodCredits>* credits = nullptr;
    const std::vector<std::vector<TokenSegment>>* tokens = nullptr; ///< per trajectory (tokenSegments), may be short
};

/// Writes the trajectories, the oracle's and the judge's labels (with the judge's rationale and confidence), every
/// method's credits and the token segments, inside the caller's transaction.
void recordIteration(Store& store, const IterationRecord& record);

} // namespace creditlab::learn
