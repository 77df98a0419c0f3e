#pragma once

#include "core/model/trajectory.h"
#include "core/storage/humannote.h"

#include <QString>
#include <QUndoCommand>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace creditlab::ui {

class Workspace;

/// Sets (or clears, with nullopt) the human label of one turn for one annotator, writing to the workspace's store
/// at once (each write is its own transaction). Remembers the label the turn had before, and restores or clears it
/// on undo. After every redo and undo it calls `applied(trajectoryRowId, turn, undone)` so that the page refreshes
/// and moves its current turn. Does nothing (and marks itself obsolete) once the workspace has another database
/// open. Store errors propagate from redo()/undo(). GUI thread.
class SetHumanLabelCommand : public QUndoCommand {
public:
    using Applied = std::function<void(std::int64_t trajectoryRowId, int turn, bool undone)>;

    /// Reads the turn's current label from the store, so construct it just before pushing.
    SetHumanLabelCommand(Workspace* workspace, std::int64_t trajectoryRowId, int turn, std::string annotator,
        std::optional<Role> role, Applied applied, QUndoCommand* parent = nullptr);

    void redo() override;
    void undo() override;

    std::optional<Role> previousRole() const { return m_previous; }
    std::optional<Role> role() const { return m_role; }

private:
    void write(std::optional<Role> role, bool undone);

    Workspace* m_workspace;
    QString m_path;
    std::int64_t m_rowId;
    int m_turn;
    std::string m_annotator;
    std::optional<Role> m_role;
    std::optional<Role> m_previous;
    Applied m_applied;
};

/// Sets one annotator's note on one turn (flag, skip, comment; core/storage/humannote.h), writing to the workspace's
/// store at once; an empty note deletes it. Remembers the note the turn had before and restores it on undo. After every
/// redo and undo it calls `applied(trajectoryRowId, turn, undone)`, as SetHumanLabelCommand does. Obsolete once the
/// workspace has another database open. Store errors propagate from redo()/undo(). GUI thread.
class SetHumanNoteCommand : public QUndoCommand {
public:
    using Applied = SetHumanLabelCommand::Applied;

    /// Reads the turn's current note from the store, so construct it just before pushing. `text` names the edit.
    SetHumanNoteCommand(
        Workspace* workspace, HumanNote note, const QString& text, Applied applied, QUndoCommand* parent = nullptr);

    void redo() override;
    void undo() override;

    const HumanNote& note() const { return m_note; }
    const HumanNote& previous() const { return m_previous; }

private:
    void write(const HumanNote& note, bool undone);

    Workspace* m_workspace;
    QString m_path;
    HumanNote m_note;
    HumanNote m_previous;
    Applied m_applied;
};

} // namespace creditlab::ui
