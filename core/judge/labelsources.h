#pragma once

#include "core/judge/agreement.h"
#include "core/model/trajectory.h"
#include "core/storage/store.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace creditlab::judge {

/// One turn of a run, as label sources are aligned on it.
struct TurnRef {
    std::int64_t trajectoryRowId = 0;
    int turn = 0;
    bool success = false; ///< the trajectory's success (its `success`, else reward > 0)
};

/// The labels of several sources on every turn of one run, aligned: `labels[s][i]` is source s's role for
/// `turns[i]` (nullopt = unlabelled). A plain value; any thread.
struct RunLabels {
    std::int64_t runId = 0;
    std::vector<TurnRef> turns; ///< every turn of the run, trajectories in run order, turns in order
    std::vector<std::string> sources;
    std::vector<std::vector<std::optional<Role>>> labels;

    /// The labels of `source`, or nullptr when it was not loaded.
    const std::vector<std::optional<Role>>* find(const std::string& source) const;
    /// success per turn, aligned with `turns`.
    std::vector<bool> successFlags() const;
    /// How many turns `source` labels (0 when not loaded).
    std::int64_t labelledCount(const std::string& source) const;
};

/// Source names:
/// - `human:<annotator>`: the human_label table;
/// - `judge:<judge>`: the judge_label table, e.g. "judge:noisy:accuracy=0.8,seed=0";
/// - `turn:<role_source>`: roles stored on the turns themselves (imported with the trajectories), grouped by
///   their `role_source`; roles without one are `turn:unspecified`.
/// Returns the run's sources that hold at least one label, human first, then judge, then turn, each sorted.
/// Reads in one read transaction. Throws StoreError when there is no such run.
std::vector<std::string> labelSources(Store& store, std::int64_t runId);

/// Loads the given sources (all of the run's sources when `sources` is empty) aligned on the run's turns.
/// Labels on turn indices past a trajectory's end are ignored. Throws StoreError for a missing run and
/// std::invalid_argument naming the known sources for an unknown source.
RunLabels loadRunLabels(Store& store, std::int64_t runId, const std::vector<std::string>& sources = {});

/// Resolves what a user typed to one of `sources` (restricted to kind `prefix`, "human", "judge" or "turn",
/// when not empty): an exact name; else `prefix:wanted`; else the one source of which a ':'-delimited tail
/// equals `wanted` or starts with it followed by ':' or ',' ("alice" → "human:alice", "oracle" →
/// "turn:judge:oracle", "noisy" → "judge:noisy:accuracy=0.8,seed=0"); the match after the fewest ':' wins,
/// so "noisy" picks judge:noisy:... over turn:judge:noisy:.... Throws std::invalid_argument listing the
/// sources when none or several match.
std::string resolveSource(
    const std::vector<std::string>& sources, const std::string& wanted, const std::string& prefix = {});

/// Writes `roles` (aligned with `turns`) as judge labels named `judge`, in one transaction; skips nullopt.
/// Replaces earlier labels of the same judge on those turns. Returns the number written.
std::int64_t storeJudgeLabels(Store& store, const std::string& judge, const std::vector<TurnRef>& turns,
    const std::vector<std::optional<Role>>& roles);

/// Concatenates the labels of several runs (e.g. "all runs"): turns in the given order, sources the union in
/// the labelSources order (human, judge, turn; each sorted); a source a run lacks is unlabelled there.
/// `runId` of the result is 0. Pure; any thread.
RunLabels mergeRunLabels(const std::vector<RunLabels>& runs);

/// True for "turn:judge:X" / "turn:human:X" when "judge:X" / "human:X" is a source too: turn roles written
/// by `env rollout` copy the judge's stored labels, so comparing them says nothing and inflates alpha.
bool mirrorsStoredSource(const std::string& source, const std::vector<std::string>& sources);

/// Whether a run with these label sources (labelSources) has two to compare, not counting a source that mirrors
/// another (mirrorsStoredSource): a run of judge labels and the turn roles `env rollout` copied from them has one.
/// Pure; any thread.
bool hasTwoSources(const std::vector<std::string>& sources);

/// A run that has labels, with its label sources.
struct LabelledRun {
    RunInfo run;
    std::vector<std::string> sources; ///< labelSources(run): never empty
};
/// The runs with at least one label source, newest (highest id) first. Store's thread.
std::vector<LabelledRun> labelledRuns(Store& store);

/// The run `creditlab-cli agreement` reads without --run and the Agreement page opens on: the newest of `runs`
/// (labelledRuns' order) with two sources to compare (hasTwoSources), else the newest with any label; nullopt when
/// `runs` is empty. Pure; any thread.
std::optional<std::int64_t> defaultAgreementRun(const std::vector<LabelledRun>& runs);

/// Krippendorff's alpha across label sources, as `creditlab-cli agreement` reports it.
struct SourcesAlpha {
    std::vector<std::string> coders; ///< the sources it was computed over
    bool overHumans = false; ///< true: across the human annotators; false: across all non-mirroring sources
    std::optional<AlphaResult> result; ///< nullopt when fewer than two coders
};
/// Alpha across the human annotators when there are two or more, else across every source that does not
/// mirror a stored one. Pure; any thread.
SourcesAlpha alphaAcrossSources(const RunLabels& labels);

/// What a turn list shows of one turn.
struct TurnText {
    std::string trajectoryId; ///< the JSONL id
    std::string action;
};
/// The trajectory ids and actions of `turns`, aligned with them (empty strings for turns the store lacks).
/// Store's thread.
std::vector<TurnText> turnTexts(Store& store, const std::vector<TurnRef>& turns);

} // namespace creditlab::judge
