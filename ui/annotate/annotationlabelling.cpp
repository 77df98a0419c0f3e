// The Annotate page's labelling (annotationpage.h): the annotator, their label and note (skip, flag, comment) on the
// current turn, each pushed as an undo command and written to the store at once, and the keys that drive them.
#include "ui/annotate/annotationpage.h"

#include "ui/annotate/annotationcommands.h"

#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QUndoStack>

#include <exception>
#include <map>

namespace creditlab::ui {

void AnnotationPage::setAnnotator(const QString& name) { m_annotatorEdit->setText(name); }

QString AnnotationPage::annotator() const { return m_annotatorEdit->text().trimmed(); }

std::optional<Role> AnnotationPage::ownLabel(const Loaded& loaded, int turn) const
{
    const std::string name = annotator().toStdString();
    for (const HumanLabel& h : loaded.human)
        if (h.turn == turn && h.annotator == name)
            return h.role;
    return std::nullopt;
}

const HumanNote* AnnotationPage::ownNote(const Loaded& loaded, int turn) const
{
    const std::string name = annotator().toStdString();
    for (const HumanNote& n : loaded.notes)
        if (n.turn == turn && n.annotator == name)
            return &n;
    return nullptr;
}

HumanNote AnnotationPage::currentNote() const
{
    const auto at = current();
    if (!at)
        return {};
    const HumanNote* note = ownNote(m_trajectories[m_queue[std::size_t(m_position)].trajectory], at->second);
    return note ? *note : HumanNote { at->first, at->second, annotator().toStdString(), false, false, {}, {} };
}

bool AnnotationPage::canEditCurrent()
{
    if (!current()) {
        fail(isLoading() ? tr("The run is still loading.") : tr("There is no turn to label."));
        return false;
    }
    if (annotator().isEmpty()) {
        fail(tr("Type an annotator name before labelling."));
        m_annotatorEdit->setFocus();
        return false;
    }
    return true;
}

bool AnnotationPage::changeCurrentNote(const std::function<void(HumanNote&)>& edit, const QString& text, bool advance)
{
    if (!canEditCurrent())
        return false;
    HumanNote note = currentNote();
    edit(note);
    try {
        m_undo->push(new SetHumanNoteCommand(m_workspace, note, text,
            [this, advance](std::int64_t rowId, int turn, bool undone) { onApplied(rowId, turn, undone, advance); }));
    } catch (const std::exception& e) {
        fail(tr("Could not store the note: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    m_status->clear();
    Q_EMIT errorCleared();
    return true;
}

bool AnnotationPage::skipCurrent()
{
    if (!canEditCurrent())
        return false;
    if (currentNote().skipped) {
        move(1); // nothing to write
        return true;
    }
    return changeCurrentNote(
        [](HumanNote& n) { n.skipped = true; }, tr("Skip turn %1").arg(current()->second + 1), true);
}

bool AnnotationPage::setCurrentFlagged(bool flagged)
{
    if (canEditCurrent() && currentNote().flagged == flagged)
        return true;
    return changeCurrentNote([flagged](HumanNote& n) { n.flagged = flagged; },
        (flagged ? tr("Flag turn %1") : tr("Unflag turn %1")).arg(current() ? current()->second + 1 : 0), false);
}

bool AnnotationPage::setCurrentComment(const QString& comment)
{
    const std::string text = comment.trimmed().toStdString();
    if (canEditCurrent() && currentNote().comment == text)
        return true;
    return changeCurrentNote([&text](HumanNote& n) { n.comment = text; },
        tr("Comment on turn %1").arg(current() ? current()->second + 1 : 0), false);
}

void AnnotationPage::commitComment()
{
    // Only a comment typed here, on the turn it was typed for (the card refreshes its text when the turn changes).
    if (!m_commentEdit->isModified())
        return;
    m_commentEdit->setModified(false);
    if (current() && annotator().size() > 0 && currentNote().comment != m_commentEdit->text().trimmed().toStdString())
        setCurrentComment(m_commentEdit->text());
}

bool AnnotationPage::labelCurrent(Role role)
{
    if (!canEditCurrent())
        return false;
    const auto at = current();
    try {
        m_undo->push(new SetHumanLabelCommand(m_workspace, at->first, at->second, annotator().toStdString(), role,
            [this](std::int64_t rowId, int turn, bool undone) { onApplied(rowId, turn, undone, true); }));
    } catch (const std::exception& e) {
        fail(tr("Could not store the label: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    m_status->clear();
    Q_EMIT errorCleared();
    return true;
}

void AnnotationPage::onApplied(std::int64_t rowId, int turn, bool undone, bool advance)
{
    if (isLoading())
        m_writtenWhileLoading.insert(rowId);
    rereadHumanLabels(rowId);
    const int index = queueIndexOf(rowId, turn);
    if (index >= 0 && (undone || !advance))
        setPosition(index);
    else if (index >= 0)
        setPosition(index + 1);
    else
        refreshTranscript();
}

bool AnnotationPage::handleKey(QKeyEvent* event)
{
    if (event->matches(QKeySequence::Undo)) {
        m_undo->undo();
        return true;
    }
    if (event->matches(QKeySequence::Redo)) {
        m_undo->redo();
        return true;
    }
    if (event->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
        return false;
    switch (event->key()) {
    case Qt::Key_S:
        skipCurrent();
        return true;
    case Qt::Key_F:
        setCurrentFlagged(!currentNote().flagged);
        return true;
    case Qt::Key_C:
        if (current()) {
            m_commentEdit->setFocus(Qt::ShortcutFocusReason);
            m_commentEdit->selectAll();
        }
        return true;
    default:
        break;
    }
    static const std::map<int, Role> keys { { Qt::Key_1, Role::D }, { Qt::Key_D, Role::D }, { Qt::Key_2, Role::E },
        { Qt::Key_E, Role::E }, { Qt::Key_3, Role::N }, { Qt::Key_N, Role::N }, { Qt::Key_4, Role::R },
        { Qt::Key_R, Role::R } };
    if (const auto it = keys.find(event->key()); it != keys.end()) {
        labelCurrent(it->second);
        return true;
    }
    switch (event->key()) {
    case Qt::Key_Up:
    case Qt::Key_Left:
        move(-1);
        return true;
    case Qt::Key_Down:
    case Qt::Key_Right:
        move(1);
        return true;
    default:
        return false;
    }
}

void AnnotationPage::keyPressEvent(QKeyEvent* event)
{
    if (!handleKey(event))
        QWidget::keyPressEvent(event);
}

bool AnnotationPage::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_commentEdit && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key == Qt::Key_Escape) {
            m_commentEdit->setModified(false); // drop what was typed
            setFocus();
            refreshCard();
            return true;
        }
        if (key == Qt::Key_Up || key == Qt::Key_Down) { // keep the comment on its turn, then move
            commitComment();
            setFocus();
            return handleKey(static_cast<QKeyEvent*>(event));
        }
    }
    if ((watched == m_transcript || watched == m_cardBody) && event->type() == QEvent::KeyPress
        && handleKey(static_cast<QKeyEvent*>(event)))
        return true;
    return QWidget::eventFilter(watched, event);
}

} // namespace creditlab::ui
