#pragma once

// Merging CreditLab databases (issue 36): the sweeps, trials and runs of several databases, with everything that hangs
// off a run (configs, metrics, checkpoint rows, SFT curves, trajectories with their turns, credits, labels, notes and
// token segments, probe tables), copied into one, keyed by their uids (schema version 11), so that merging the same
// input twice, or two inputs that hold the same trial, gives each run, sweep and trial once. Row ids are renumbered.

#include "core/model/progress.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace creditlab {

class Database;

struct MergeOptions {
    /// Only this trial (by uid), its sweep and its run, nothing else (what `sweep trial --post` sends).
    std::optional<std::string> trialUid;
};

struct MergeCounts {
    std::int64_t runsAdded = 0; ///< runs new to the target
    std::int64_t runsReplaced = 0; ///< runs the target had less far along (unfinished, fewer iterations), replaced
    std::int64_t runsKept = 0; ///< runs the target had already, as far along or further
    std::int64_t sweepsAdded = 0;
    std::int64_t trialsAdded = 0;
    std::int64_t trialsUpdated = 0; ///< trials the target had, now on the input's (further along) run
    std::int64_t rows = 0; ///< rows copied in all

    MergeCounts& operator+=(const MergeCounts& o);
};

/// Merges `inputs` into `target` (a Store's connection, at the current schema), all in one transaction: on any error,
/// or when `progress` returns false (Cancelled), nothing is written. A run the target already has (same uid) is kept
/// unless the input's is further along: finished where the target's is not, else more iterations, trajectories or
/// SFT steps; then it replaces the target's, under the target's row id. Checkpoint rows keep their paths (the files
/// stay beside the database that wrote them). Progress counts runs (done/total), over all inputs. Throws StoreError
/// naming the input for a file that is not a CreditLab database at the current schema version, or that is the
/// target itself. Same thread as `target`; the inputs are opened read-only on it.
MergeCounts mergeDatabases(Database& target, const std::vector<std::string>& inputs, const MergeOptions& options = {},
    const ProgressCallback& progress = {});

} // namespace creditlab
