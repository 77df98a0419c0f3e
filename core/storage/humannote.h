#pragma once

// What an annotator notes on a turn besides its role (the Annotate page): a flag, a skip and a free comment, in the
// human_note table (schema version 7). A turn without notes has no row: writing an empty note deletes it.

#include <cstdint>
#include <string>
#include <vector>

namespace creditlab {

class Store;

struct HumanNote {
    std::int64_t trajectoryRowId = 0;
    int turn = 0;
    std::string annotator;
    bool flagged = false; ///< "look at this turn again"
    bool skipped = false; ///< the annotator passed on the turn without a label
    std::string comment;
    std::string updatedAt;

    /// No flag, no skip, no comment: nothing to keep.
    bool isEmpty() const { return !flagged && !skipped && comment.empty(); }
};

/// Writes (replaces) `note`'s flag, skip and comment for its turn and annotator; an empty note deletes the row.
/// Stamps updatedAt with the current time. Store's thread.
void setHumanNote(Store& store, const HumanNote& note);
/// The notes on the turns of one trajectory, every annotator's, by turn then annotator. Store's thread.
std::vector<HumanNote> humanNotes(Store& store, std::int64_t trajectoryRowId);

} // namespace creditlab
