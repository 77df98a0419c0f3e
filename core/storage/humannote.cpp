#include "core/storage/humannote.h"

#include "core/storage/store.h"

namespace creditlab {

void setHumanNote(Store& store, const HumanNote& note)
{
    if (note.isEmpty()) {
        store.database()
            .prepare("DELETE FROM human_note WHERE trajectory_id = ? AND idx = ? AND annotator = ?")
            .bind(1, note.trajectoryRowId)
            .bind(2, note.turn)
            .bind(3, note.annotator)
            .exec();
        return;
    }
    store.database()
        .prepare("INSERT OR REPLACE INTO human_note (trajectory_id, idx, annotator, flagged, skipped, comment, "
                 "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
        .bind(1, note.trajectoryRowId)
        .bind(2, note.turn)
        .bind(3, note.annotator)
        .bind(4, note.flagged ? 1 : 0)
        .bind(5, note.skipped ? 1 : 0)
        .bind(6, note.comment)
        .bind(7, currentTimestamp())
        .exec();
}

std::vector<HumanNote> humanNotes(Store& store, std::int64_t trajectoryRowId)
{
    Statement st = store.database().prepare("SELECT idx, annotator, flagged, skipped, comment, updated_at "
                                            "FROM human_note WHERE trajectory_id = ? ORDER BY idx, annotator");
    st.bind(1, trajectoryRowId);
    std::vector<HumanNote> out;
    while (st.step())
        out.push_back(HumanNote { trajectoryRowId, static_cast<int>(st.columnInt(0)), st.columnText(1),
            st.columnInt(2) != 0, st.columnInt(3) != 0, st.columnText(4), st.columnText(5) });
    return out;
}

} // namespace creditlab
