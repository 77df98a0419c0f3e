#pragma once

// Human role labels and notes as a JSONL file: what the Annotate page's "Export labels…" / "Import labels…" and
// `creditlab-cli labels export|import` read and write. One line per turn and annotator:
//   {"annotator":"NAME","role":"D","trajectory":"<JSONL id of the trajectory>","turn":N}
// `turn` is the 0-based turn index, `role` one of D, E, N, R. The annotator's note on the turn
// (core/storage/humannote.h) rides on the same line: "comment" (a string), "flagged" and "skipped" (true or false),
// e.g.
//   {"annotator":"NAME","comment":"looks redundant","flagged":true,"role":"D","trajectory":"t1","turn":2}
// A line has a role, a note, or both: a turn skipped without a label is {"annotator":…,"skipped":true,…}. Export
// writes the keys in alphabetical order and a note's members only when set (true, or a non-empty comment); import
// reads them in any order, ignores unknown keys, skips blank lines and a UTF-8 byte-order mark on line 1.

#include "core/interchange/jsonl.h"
#include "core/model/trajectory.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace creditlab {

class Store;
struct HumanLabel;

/// The note part of a label file's line: the annotator's flag, skip and comment on the turn (HumanNote).
struct LabelNote {
    bool flagged = false;
    bool skipped = false;
    std::string comment;
    bool operator==(const LabelNote&) const = default;
};

/// One checked line of a label file, resolved to the store's trajectory: a role, a note, or both.
struct LabelLine {
    std::int64_t trajectoryRowId = 0;
    std::string trajectory; ///< the JSONL id, as in the file
    int turn = 0;
    std::string annotator; ///< trimmed of surrounding ASCII whitespace
    std::optional<Role> role; ///< nullopt: the line carries a note only
    /// Set when the line has any of "comment", "flagged", "skipped": it replaces the annotator's note on the turn
    /// (all three unset or empty remove it). nullopt: the stored note is left as it is.
    std::optional<LabelNote> note;
};

/// A refused line of a label file. what() reads `FILE:LINE: field "FIELD": MESSAGE`, or `FILE:LINE: not a JSON
/// object (DETAIL)` for a line that is not one JSON object. problem() and the numbers let a caller word the
/// message itself (the workbench translates it).
class LabelFileError : public JsonlError {
public:
    enum class Problem {
        NotAnObject, ///< detail(): the parser's complaint
        UnknownTrajectory, ///< not a string, or no such trajectory where the import looks
        AmbiguousTrajectory, ///< database-wide import: the id names trajectories of several runs (detail(): them)
        BadTurn, ///< not an integer from 0 to lastTurn()
        EmptyAnnotator, ///< missing, not a string, or blank
        BadRole, ///< not one of D, E, N, R; or missing from a line without a note
        BadNote, ///< field(): "flagged" or "skipped" not true or false, or "comment" not a string
    };
    LabelFileError(std::string file, std::size_t line, Problem problem, std::string field, std::string message,
        std::string detail = {}, std::int64_t lastTurn = -1);

    Problem problem() const { return m_problem; }
    const std::string& detail() const { return m_detail; }
    /// BadTurn: the largest valid turn index of the trajectory (-1 when it has no turns).
    std::int64_t lastTurn() const { return m_lastTurn; }

private:
    Problem m_problem;
    std::string m_detail;
    std::int64_t m_lastTurn;
};

/// One label as a line of the file (without the newline), appended to `out`. Any thread.
void appendLabelLine(std::string& out, const std::string& trajectoryId, const HumanLabel& label);
/// One line of the file (without the newline) for `annotator`'s `role` and `note` on `turn`, appended to `out`: the
/// note's members only when set. At least one of `role` and `note` should be given. Any thread.
void appendLabelLine(std::string& out, const std::string& trajectoryId, int turn, const std::string& annotator,
    std::optional<Role> role, const LabelNote* note);

struct LabelExportResult {
    std::uint64_t labels = 0;
    std::uint64_t notes = 0; ///< lines with a note (flag, skip or comment), with a label or without
    std::uint64_t trajectories = 0; ///< those with at least one label or note
};

/// Writes every human label and note (all annotators) of run `runId`, or of every run when nullopt, to `path`: the
/// run's trajectories in order (runs by id), each trajectory's lines by turn then annotator, one line per turn and
/// annotator with the label, the note or both. Evaluation episodes of a
/// trained run are not labelled and not read. The file is written through AtomicFile: it appears only complete, and
/// a failure leaves no half-written file; "-" writes to standard output. Throws StoreError (no such run, a read
/// failure) or std::runtime_error naming the file. Called on the Store's thread.
LabelExportResult exportLabelFile(Store& store, std::optional<std::int64_t> runId, const std::string& path);

/// Reads and checks every line of a label file against the store, writing nothing. A trajectory id is looked up
/// among the trajectories of run `runId` (the first in the run's order when several share it), or, when nullopt,
/// of the whole database, where an id found in more than one run is refused. Checks, in this order: the line is a
/// JSON object; "trajectory" is a known id; "turn" an integer index of one of its turns; "annotator" a non-blank
/// string; "flagged" and "skipped" true or false and "comment" a string where present; "role" one of D, E, N, R,
/// which a line with a note may leave out. The first bad line throws LabelFileError naming the file, line and field; an
/// unreadable file throws std::runtime_error naming it; no such run a StoreError. Called on the Store's thread.
std::vector<LabelLine> readLabelFile(Store& store, std::optional<std::int64_t> runId, const std::string& path);

/// Writes checked labels and notes in one transaction: all or none. A label replaces the one the same annotator gave
/// the same turn before (its time becomes now), a note the same annotator's note on the turn; a later line for the
/// same turn and annotator wins over an earlier one; other stored labels and notes are kept, as is the note of a line
/// without one. Throws StoreError (then nothing was written). Called on the Store's thread.
void storeLabels(Store& store, const std::vector<LabelLine>& labels);

/// readLabelFile, then storeLabels: a file with any bad line imports nothing. Returns the lines written (duplicates
/// included, in file order).
std::vector<LabelLine> importLabelFile(Store& store, std::optional<std::int64_t> runId, const std::string& path);

} // namespace creditlab
