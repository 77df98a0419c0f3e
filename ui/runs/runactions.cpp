#include "ui/runs/runactions.h"

#include "core/storage/paths.h"
#include "ui/common/textutil.h"
#include "ui/launch/runcontroller.h"
#include "ui/runs/runbrowserpage.h"
#include "ui/shell/workspace.h"

#include <QAction>
#include <QDir>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QMessageBox>
#include <QTableView>
#include <QUndoCommand>
#include <QUndoStack>

#include <exception>

namespace creditlab::ui {

namespace {

/// One edit of a run's name or tags, applied through the GUI thread's store. Undo writes the old text back.
class RunTextCommand : public QUndoCommand {
public:
    enum class Field { Name, Tags };
    RunTextCommand(Workspace* workspace, Field field, qint64 runId, QString before, QString after)
        : m_workspace(workspace)
        , m_field(field)
        , m_runId(runId)
        , m_before(std::move(before))
        , m_after(std::move(after))
    {
        setText(field == Field::Name ? RunActions::tr("Rename run %1").arg(runId)
                                     : RunActions::tr("Edit tags of run %1").arg(runId));
    }
    void redo() override { apply(m_after); }
    void undo() override { apply(m_before); }

private:
    void apply(const QString& text)
    {
        Store* store = m_workspace->store();
        if (!store)
            return;
        try {
            if (m_field == Field::Name)
                store->renameRun(m_runId, text.toStdString());
            else
                store->setRunTags(m_runId, text.toStdString());
        } catch (const std::exception&) {
            setObsolete(true); // the run is gone; nothing to redo or undo
        }
        m_workspace->notifyRunsChanged();
    }

    Workspace* m_workspace;
    Field m_field;
    qint64 m_runId;
    QString m_before;
    QString m_after;
};

/// Normalises a tag list: comma-separated, trimmed, no empties or repeats.
QString normaliseTags(const QString& text)
{
    QStringList out;
    for (const QString& part : text.split(QLatin1Char(','))) {
        const QString tag = part.trimmed();
        if (!tag.isEmpty() && !out.contains(tag))
            out.append(tag);
    }
    return out.join(QStringLiteral(", "));
}

} // namespace

RunActions::RunActions(
    Workspace* workspace, RunBrowserPage* browser, RunController* controller, QUndoStack* undoStack, QWidget* parent)
    : QObject(parent)
    , m_workspace(workspace)
    , m_browser(browser)
    , m_controller(controller)
    , m_undo(undoStack)
    , m_dialogParent(parent)
    , m_monitor(new QAction(tr("&Monitor"), this))
    , m_compare(new QAction(tr("&Compare Selected"), this))
    , m_resume(new QAction(tr("Res&ume from Checkpoint"), this))
    , m_rename(new QAction(tr("&Rename…"), this))
    , m_tags(new QAction(tr("Edit &Tags…"), this))
    , m_delete(new QAction(tr("&Delete…"), this))
{
    m_monitor->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
    m_monitor->setToolTip(tr("Show the run's learning curves, live while it trains (Ctrl+M)"));
    m_compare->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    m_compare->setToolTip(tr("Overlay the selected runs' curves (Ctrl+Shift+C)"));
    m_resume->setToolTip(tr("Continue a stopped run from its last checkpoint"));
    m_rename->setShortcut(QKeySequence(Qt::Key_F2));
    m_tags->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
    m_delete->setShortcut(QKeySequence::Delete);
    for (QAction* action : actions())
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);

    connect(m_monitor, &QAction::triggered, this, [this] {
        if (const qint64 id = m_browser->currentRunId())
            Q_EMIT monitorRequested(id);
    });
    connect(m_compare, &QAction::triggered, this, [this] { Q_EMIT compareRequested(m_browser->selectedRunIds()); });
    connect(m_resume, &QAction::triggered, this, [this] {
        if (const qint64 id = m_browser->currentRunId())
            Q_EMIT resumeRequested(id);
    });
    connect(m_rename, &QAction::triggered, this, &RunActions::askRename);
    connect(m_tags, &QAction::triggered, this, &RunActions::askTags);
    connect(m_delete, &QAction::triggered, this, &RunActions::askDelete);
    connect(m_browser, &RunBrowserPage::runSelected, this, &RunActions::updateEnabled);
    connect(m_browser->runView()->selectionModel(), &QItemSelectionModel::selectionChanged, this,
        &RunActions::updateEnabled);
    connect(m_controller, &RunController::runningChanged, this, &RunActions::updateEnabled);
    updateEnabled();
}

QList<QAction*> RunActions::actions() const { return { m_monitor, m_compare, m_resume, m_rename, m_tags, m_delete }; }

void RunActions::updateEnabled()
{
    const qint64 current = m_browser->currentRunId();
    const QList<qint64> selected = m_browser->selectedRunIds();
    std::optional<RunStatus> status;
    std::optional<RunKind> kind;
    if (Store* store = m_workspace->store(); store && current != 0) {
        try {
            if (const auto run = store->run(current)) {
                status = run->status;
                kind = run->kind;
            }
        } catch (const std::exception&) {
        }
    }
    m_monitor->setEnabled(current != 0);
    m_compare->setEnabled(!selected.isEmpty());
    // The controller keeps naming its last run after it ends: only a run it is training now is not resumable.
    const bool training = m_controller->isRunning() && m_controller->runId() == current;
    m_resume->setEnabled(current != 0 && kind && kind != RunKind::Import && !training
        && (status == RunStatus::Cancelled || status == RunStatus::Failed));
    m_rename->setEnabled(current != 0);
    m_tags->setEnabled(current != 0);
    m_delete->setEnabled(!selected.isEmpty());
}

void RunActions::renameRun(qint64 runId, const QString& name)
{
    Store* store = m_workspace->store();
    if (!store || name.trimmed().isEmpty())
        return;
    const auto run = store->run(runId);
    if (!run || toQString(run->name) == name.trimmed())
        return;
    m_undo->push(new RunTextCommand(
        m_workspace, RunTextCommand::Field::Name, runId, toQString(run->name), name.trimmed()));
}

void RunActions::setRunTags(qint64 runId, const QString& tags)
{
    Store* store = m_workspace->store();
    if (!store)
        return;
    const auto run = store->run(runId);
    const QString normalised = normaliseTags(tags);
    if (!run || toQString(run->tags) == normalised)
        return;
    m_undo->push(new RunTextCommand(m_workspace, RunTextCommand::Field::Tags, runId, toQString(run->tags), normalised));
}

bool RunActions::deleteRuns(const QList<qint64>& runIds, QString* error)
{
    Store* store = m_workspace->store();
    if (!store)
        return false;
    if (m_controller->isRunning() && runIds.contains(m_controller->runId())) {
        if (error)
            *error = tr("Run %1 is training; stop it before deleting it.").arg(m_controller->runId());
        return false;
    }
    try {
        for (const qint64 id : runIds) {
            store->deleteRun(id);
            // Checkpoints and the run's other side files live beside the database.
            QDir(QString::fromStdString(paths::runFiles(m_workspace->path().toStdString(), id))).removeRecursively();
        }
    } catch (const std::exception& e) {
        if (error)
            *error = toQString(e.what());
        m_workspace->notifyRunsChanged();
        return false;
    }
    // Undo entries about deleted runs would act on nothing.
    m_undo->clear();
    m_workspace->notifyRunsChanged();
    return true;
}

void RunActions::askRename() { askRunText(false); }

void RunActions::askTags() { askRunText(true); }

void RunActions::askRunText(bool tags)
{
    const qint64 id = m_browser->currentRunId();
    Store* store = m_workspace->store();
    if (id == 0 || !store)
        return;
    const auto run = store->run(id);
    if (!run)
        return;
    bool ok = false;
    const QString text = QInputDialog::getText(m_dialogParent, tags ? tr("Edit Tags") : tr("Rename Run"),
        tags ? tr("Tags of run %1, separated by commas:").arg(id) : tr("New name of run %1:").arg(id),
        QLineEdit::Normal, toQString(tags ? run->tags : run->name), &ok);
    if (!ok)
        return;
    if (tags)
        setRunTags(id, text);
    else
        renameRun(id, text);
}

void RunActions::askDelete()
{
    const QList<qint64> ids = m_browser->selectedRunIds();
    if (ids.isEmpty())
        return;
    QStringList names;
    for (const qint64 id : ids)
        names.append(QString::number(id));
    QMessageBox box(QMessageBox::Warning, tr("Delete Runs"),
        tr("Delete %n run(s) (%1) with their metrics, trajectories, credits, labels and checkpoints? This cannot be "
           "undone.",
            nullptr, static_cast<int>(ids.size()))
            .arg(names.join(QStringLiteral(", "))),
        QMessageBox::Cancel, m_dialogParent);
    box.setTextFormat(Qt::PlainText);
    box.addButton(tr("Delete"), QMessageBox::DestructiveRole);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    if (box.buttonRole(box.clickedButton()) != QMessageBox::DestructiveRole)
        return;
    QString error;
    if (!deleteRuns(ids, &error))
        Q_EMIT errorOccurred(error);
}

} // namespace creditlab::ui
