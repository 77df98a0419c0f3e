#pragma once

#include <QList>
#include <QObject>

class QAction;
class QUndoStack;
class QWidget;

namespace creditlab::ui {

class RunBrowserPage;
class RunController;
class Workspace;

/// The actions on the runs selected in the run browser: monitor, compare, resume from the last checkpoint,
/// rename and edit tags (undoable through the shared QUndoStack), and delete (with confirmation, not undoable,
/// also removing the run's checkpoint folder). Enables them by selection. Lives on the GUI thread.
class RunActions : public QObject {
    Q_OBJECT
public:
    RunActions(Workspace* workspace, RunBrowserPage* browser, RunController* controller, QUndoStack* undoStack,
        QWidget* dialogParent);

    QList<QAction*> actions() const;
    QAction* monitorAction() const { return m_monitor; }
    QAction* compareAction() const { return m_compare; }
    QAction* resumeAction() const { return m_resume; }
    QAction* renameAction() const { return m_rename; }
    QAction* tagsAction() const { return m_tags; }
    QAction* deleteAction() const { return m_delete; }

    /// Renames run `runId` through the undo stack. GUI thread.
    void renameRun(qint64 runId, const QString& name);
    void setRunTags(qint64 runId, const QString& tags);
    /// Deletes runs without asking (the delete action asks first); false with the reason when one is training.
    bool deleteRuns(const QList<qint64>& runIds, QString* error = nullptr);

Q_SIGNALS:
    void monitorRequested(qint64 runId);
    void compareRequested(const QList<qint64>& runIds);
    void resumeRequested(qint64 runId);
    void errorOccurred(const QString& message);

private:
    void updateEnabled();
    void askRename();
    void askTags();
    /// Asks for the current run's new name or tags, then applies them through the undo stack.
    void askRunText(bool tags);
    void askDelete();

    Workspace* m_workspace;
    RunBrowserPage* m_browser;
    RunController* m_controller;
    QUndoStack* m_undo;
    QWidget* m_dialogParent;
    QAction* m_monitor;
    QAction* m_compare;
    QAction* m_resume;
    QAction* m_rename;
    QAction* m_tags;
    QAction* m_delete;
};

} // namespace creditlab::ui
