#pragma once

// PAIR's matched clean / contaminated probe data (pair.md §2.7) built from household ground truth instead of an
// LLM rewriter. Torch-free (creditlab_learn_api): the CLI, the GUI and the tests use it without LibTorch.
//
// Household has no thought text, so the paper's four contamination types become rules over actions (a turn here
// is observation + action):
//   tool_misuse                    the paper's wrong tool / malformed argument: a wrong verb for the object
//                                  ("heat" for "clean", "close" for "open"), a receptacle or object number that
//                                  does not exist, or a command missing its argument;
//   observation_misinterpretation  an action contradicting the observation it answers: taking an object from the
//                                  current receptacle that the observation did not list there, opening a
//                                  receptacle the observation said is open;
//   stale_memory                   acting on earlier information that later evidence changed: repeating an
//                                  earlier take (the object has moved since), re-opening something opened before,
//                                  going back to a place already searched;
//   redundant (R)                  stands in for reasoning_error, which needs thoughts: repeating the previous
//                                  command or looking around again, a step that gains nothing.
// Every injected action is replayed in the environment from the true (gold) state and kept only when the
// simulator says it is wrong: invalid ("Nothing happens.") or oracle role R. Every gold turn is checked too:
// valid and not R, and the episode succeeds.

#include "core/model/trajectory.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace creditlab::learn {

/// The household versions of PAIR's contamination types (see the file comment for the mapping).
enum class ContaminationType { ToolMisuse, ObservationMisinterpretation, StaleMemory, Redundant };

/// "tool_misuse", "observation_misinterpretation", "stale_memory", "redundant".
const char* contaminationTypeName(ContaminationType type);
/// All four, in that order.
std::vector<ContaminationType> allContaminationTypes();

/// How buildContaminatedDataset() draws and corrupts episodes. Defaults: pair.md §2.7 adapted to household.
struct ContaminationOptions {
    std::string env = "household";
    std::vector<std::pair<std::string, std::string>> envAssignments;
    std::int64_t episodes = 200; ///< source episodes to keep after the filters
    /// Train-split task seeds firstTaskSeed, firstTaskSeed + 1, …; far from the SFT demonstrations' 0…n and
    /// 1'000'000…, so probe data are unseen tasks of the seen split.
    std::uint64_t firstTaskSeed = 2'000'000;
    std::uint64_t seed = 42; ///< which turns are corrupted, and how
    std::uint64_t splitSeed = 42; ///< 80:20 split by episode (pair.md §2.7: seed 42)
    double testFraction = 0.2;
    /// §2.7 keeps 3…8 turns for a 4,096-token context. Our prompt shows only the last policy.history turns, so
    /// context never limits; 12 keeps short episodes where every corruption is at most a few turns back.
    int minTurns = 3;
    int maxTurns = 12;
    double twoCorruptedFraction = 0.3; ///< chance of a second corrupted turn (GTA test: 16 of 53 episodes)
    bool searchExpert = true; ///< gold turns from the searching expert (what sft.demonstrator imitates by default)
};

/// Which prefix a record's earlier turns come from.
enum class PrefixType { Clean, Contaminated };

/// One source episode and its contaminated twin: same observations, the actions at `corrupted` replaced.
struct ContaminatedEpisode {
    std::string taskKey;
    std::uint64_t taskSeed = 0;
    std::string goal;
    std::vector<Turn> clean; ///< gold turns with the simulator's valid, role, progress
    std::vector<Turn> contaminated; ///< downstream preserved: only the corrupted turns' actions (and labels) differ
    std::vector<int> corrupted; ///< ascending turn indices
    std::vector<ContaminationType> types; ///< per corrupted index
    bool test = false;
};

/// One evaluation point (pair.md §2.7 "label semantics"): the turn `turn` of the contaminated episode, its
/// earlier turns from the clean or the contaminated episode. label 1 = the gold turn, 0 = an injected one.
struct ProbeRecord {
    std::size_t episode = 0; ///< index into ContaminatedDataset::episodes
    int turn = 0;
    int label = 1;
    PrefixType prefix = PrefixType::Clean;
    bool hasContaminatedPrefix = false; ///< the prefix holds a corrupted turn (contaminated prefixes only)
    int distance = 0; ///< turn − nearest corrupted earlier turn in the prefix; 0 when none
    bool test = false;
};

/// The episodes, their records (clean-prefix and contaminated-prefix versions of every turn) and counts.
struct ContaminatedDataset {
    std::vector<ContaminatedEpisode> episodes;
    std::vector<ProbeRecord> records;
    std::int64_t sourceEpisodes = 0; ///< episodes rolled out, before the filters
    std::int64_t rejectedLength = 0; ///< outside [minTurns, maxTurns]
    std::int64_t rejectedGold = 0; ///< failed, or a gold turn was invalid or R
    std::int64_t rejectedCorruption = 0; ///< no verified-wrong action could be injected
};

/// The earlier turns of `record`, from the episode its prefix type names.
std::vector<Turn> recordPrefix(const ContaminatedDataset& data, const ProbeRecord& record);
/// The evaluation turn of `record` (identical in both prefix versions).
const Turn& recordTurn(const ContaminatedDataset& data, const ProbeRecord& record);

/// Rolls out the demonstrator on train-split tasks until `episodes` pass the filters, corrupts 1 or 2 turns of
/// each (types tried in a seeded order until one yields an action the simulator confirms wrong), builds the
/// records and the split. Deterministic in the options. `progress(done, total)` is called after each kept
/// episode; returning false cancels (throws creditlab::Cancelled). Calling thread; throws std::invalid_argument
/// for bad options or an environment without an expert, std::runtime_error when too few episodes pass.
ContaminatedDataset buildContaminatedDataset(
    const ContaminationOptions& options, const std::function<bool(std::int64_t, std::int64_t)>& progress = {});

} // namespace creditlab::learn
