#include "ui/annotate/annotationcommands.h"

#include "ui/common/textutil.h"
#include "ui/shell/workspace.h"

#include <QCoreApplication>

#include <utility>

namespace creditlab::ui {

SetHumanLabelCommand::SetHumanLabelCommand(Workspace* workspace, std::int64_t trajectoryRowId, int turn,
    std::string annotator, std::optional<Role> role, Applied applied, QUndoCommand* parent)
    : QUndoCommand(parent)
    , m_workspace(workspace)
    , m_path(workspace->path())
    , m_rowId(trajectoryRowId)
    , m_turn(turn)
    , m_annotator(std::move(annotator))
    , m_role(role)
    , m_applied(std::move(applied))
{
    if (Store* store = workspace->store()) {
        for (const HumanLabel& label : store->humanLabels(trajectoryRowId))
            if (label.turn == turn && label.annotator == m_annotator)
                m_previous = label.role;
    }
    const QString what = role ? toQString(std::string(roleName(*role)))
                              : QCoreApplication::translate("creditlab::ui::AnnotationPage", "no label");
    setText(
        QCoreApplication::translate("creditlab::ui::AnnotationPage", "Label turn %1 as %2").arg(turn + 1).arg(what));
}

void SetHumanLabelCommand::redo() { write(m_role, false); }

void SetHumanLabelCommand::undo() { write(m_previous, true); }

void SetHumanLabelCommand::write(std::optional<Role> role, bool undone)
{
    Store* store = m_workspace->store();
    if (!store || m_workspace->path() != m_path) {
        setObsolete(true);
        return;
    }
    if (role)
        store->setHumanLabel(m_rowId, m_turn, m_annotator, *role);
    else
        store->clearHumanLabel(m_rowId, m_turn, m_annotator);
    m_workspace->notifyLabelsChanged();
    if (m_applied)
        m_applied(m_rowId, m_turn, undone);
}

SetHumanNoteCommand::SetHumanNoteCommand(
    Workspace* workspace, HumanNote note, const QString& text, Applied applied, QUndoCommand* parent)
    : QUndoCommand(text, parent)
    , m_workspace(workspace)
    , m_path(workspace->path())
    , m_note(std::move(note))
    , m_applied(std::move(applied))
{
    m_previous = HumanNote { m_note.trajectoryRowId, m_note.turn, m_note.annotator, false, false, {}, {} };
    if (Store* store = workspace->store())
        for (const HumanNote& n : humanNotes(*store, m_note.trajectoryRowId))
            if (n.turn == m_note.turn && n.annotator == m_note.annotator)
                m_previous = n;
}

void SetHumanNoteCommand::redo() { write(m_note, false); }

void SetHumanNoteCommand::undo() { write(m_previous, true); }

void SetHumanNoteCommand::write(const HumanNote& note, bool undone)
{
    Store* store = m_workspace->store();
    if (!store || m_workspace->path() != m_path) {
        setObsolete(true);
        return;
    }
    setHumanNote(*store, note);
    if (m_applied)
        m_applied(note.trajectoryRowId, note.turn, undone);
}

} // namespace creditlab::ui
