#pragma once

#include <QWidget>

class QAction;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QSplitter;
class QTableView;

namespace creditlab::ui {

class RunModel;
class SortFilterProxyModel;
class TrajectoryModel;
class Workspace;

/// The run and import browser: the runs of the open database on top, the trajectories of the
/// selected run below, with a filter field over the trajectories. Reloads itself when the
/// workspace opens a database or its runs change. Lives on the GUI thread.
class RunBrowserPage : public QWidget {
    Q_OBJECT
public:
    explicit RunBrowserPage(Workspace* workspace, QWidget* parent = nullptr);

    RunModel* runModel() const { return m_runModel; }
    TrajectoryModel* trajectoryModel() const { return m_trajectoryModel; }
    SortFilterProxyModel* runProxy() const { return m_runProxy; }
    SortFilterProxyModel* trajectoryProxy() const { return m_trajectoryProxy; }
    QTableView* runView() const { return m_runView; }
    QTableView* trajectoryView() const { return m_trajectoryView; }
    QLineEdit* filterEdit() const { return m_filter; }

    QLineEdit* runFilterEdit() const { return m_runFilter; }

    /// The selected run's id; 0 when none.
    qint64 currentRunId() const;
    /// Every selected run (the runs table allows several), in view order.
    QList<qint64> selectedRunIds() const;
    /// Puts `actions` in a tool row above the runs and in their context menu; the first one is also what a
    /// double-click or Return does.
    void setRunActions(const QList<QAction*>& actions);
    /// The selected trajectory's store row id; 0 when none.
    qint64 currentTrajectoryRowId() const;
    /// Selects the run and lists its trajectories; false when the run is not listed.
    bool selectRun(qint64 runId);
    /// Selects a trajectory of the current run; false when it is not listed (or filtered out).
    bool selectTrajectory(qint64 rowId);

    /// Shows the runs the launcher has queued (names, in start order) and the run they wait for, above the runs;
    /// an empty list hides the line.
    void setQueuedRuns(const QStringList& names, qint64 waitingFor);
    QLabel* queueLabel() const { return m_queueLabel; }
    /// The way in on an empty database: a quick demo run and the bundled sample rollouts. Shown while the open
    /// database has no runs.
    QWidget* welcome() const { return m_welcome; }

    QByteArray saveSplitterState() const;
    void restoreSplitterState(const QByteArray& state);

public Q_SLOTS:
    /// Reloads the runs from the store, keeping the selected run when it still exists.
    void reload();

Q_SIGNALS:
    /// The selected run changed; 0 when none is selected.
    void runSelected(qint64 runId);
    /// The selected trajectory changed; 0 when none is selected.
    void trajectorySelected(qint64 rowId);
    /// Reading the store failed; the message names the database.
    void errorOccurred(const QString& message);
    /// The queue line's "Clear queue" link.
    void clearQueueRequested();
    /// The welcome's buttons: start the quick demo preset; import the bundled sample rollouts.
    void quickDemoRequested();
    void sampleImportRequested();

private:
    void onCurrentRunChanged();
    void loadTrajectories(qint64 runId, qint64 keepTrajectory);
    void updateTrajectoryTitle();

    Workspace* m_workspace;
    RunModel* m_runModel;
    TrajectoryModel* m_trajectoryModel;
    SortFilterProxyModel* m_runProxy;
    SortFilterProxyModel* m_trajectoryProxy;
    QSplitter* m_splitter;
    QTableView* m_runView;
    QTableView* m_trajectoryView;
    QLabel* m_runTitle;
    QLabel* m_trajectoryTitle;
    QLineEdit* m_filter;
    QLineEdit* m_runFilter;
    QHBoxLayout* m_runTools;
    QLabel* m_queueLabel;
    QWidget* m_welcome;
    QList<QAction*> m_runActions;
    qint64 m_loadedRunId = 0;
    bool m_resetting = false; ///< set while a model reset moves the selection
};

} // namespace creditlab::ui
