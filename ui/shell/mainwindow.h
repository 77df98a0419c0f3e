#pragma once

#include "core/interchange/importformats.h"
#include "ui/shell/settings.h"

#include <QMainWindow>
#include <QStringList>

#include <memory>

class QAction;
class QFileDialog;
class QMenu;
class QTabWidget;
class QUndoStack;

namespace creditlab::ui {

class AgreementPage;
class AnnotationPage;
class ComparePage;
class CreditPage;
class ImportJob;
class ImportOptionsDialog;
class ImportStatusWidget;
class LauncherPage;
class MonitorPage;
class RunActions;
class RunBrowserPage;
class RunController;
class SweepPage;
class TreePage;
class TrajectoryViewerPage;
class Workspace;

/// The CreditLab main window: assembles the pages as tabs (Runs: the run browser beside the trajectory viewer;
/// Launch; Monitor; Compare; Sweeps), the menus, and the import status in the status bar. The pages wire
/// themselves; this class connects them to each other, to the workspace and to the run controller.
/// Lives on the GUI thread.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    /// `settings` defaults to the per-user CreditLab settings; tests pass an INI file.
    explicit MainWindow(std::unique_ptr<Settings> settings = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens (creating when missing) the database at `path`. On failure the previous database stays
    /// open and the reason goes to `errorMessage` when given, else into a message box.
    /// Refused while an import runs.
    bool openDatabase(const QString& path, QString* errorMessage = nullptr);
    /// Imports JSONL files into the open database in the background, one after another; each file's format is
    /// detected unless `options` name it (or a mapping file).
    void importFiles(const QStringList& files, const ImportOptions& options = {});
    /// File → Import with Options…'s dialog (the caller owns it), starting in the last import folder.
    ImportOptionsDialog* createImportOptionsDialog();
    /// Cancels a running import; importCancelled() follows.
    void cancelImport();
    /// File → Open Database's dialog (the caller owns it): an Open dialog that also accepts a new file name.
    QFileDialog* createOpenDatabaseDialog();

    Workspace* workspace() const { return m_workspace; }
    ImportJob* importJob() const { return m_importJob; }
    RunBrowserPage* runBrowser() const { return m_browser; }
    TrajectoryViewerPage* trajectoryViewer() const { return m_viewer; }
    ImportStatusWidget* importStatus() const { return m_importStatus; }
    Settings& settings() const { return *m_settings; }
    RunController* runController() const { return m_controller; }
    LauncherPage* launcher() const { return m_launcher; }
    MonitorPage* monitor() const { return m_monitor; }
    ComparePage* compare() const { return m_compare; }
    SweepPage* sweeps() const { return m_sweeps; }
    CreditPage* credit() const { return m_credit; }
    AgreementPage* agreement() const { return m_agreement; }
    AnnotationPage* annotation() const { return m_annotation; }
    TreePage* trees() const { return m_trees; }
    RunActions* runActions() const { return m_runActions; }
    QUndoStack* undoStack() const { return m_undoStack; }
    QTabWidget* tabs() const { return m_tabs; }
    /// Sets the launcher to learn from `annotator`'s human labels on `env` (TRIAGE, judge human, labelled task
    /// pool) and shows it.
    void prepareLabelRun(const QString& annotator, const QString& env);

    /// The tabs, in order (Ctrl+1 … Ctrl+9).
    enum class Page { Runs, Launch, Monitor, Compare, Sweeps, Credit, Trees, Annotate, Agreement };
    /// Shows a turn in the Runs page's trajectory viewer (from the credit heatmap or the agreement page).
    void openTurn(qint64 trajectoryRowId, int turn);
    void showPage(Page page);
    /// The first-start way in (Runs page, empty database): imports the bundled sample rollouts, then computes
    /// their credits for grpo, gigpo, triage and rtmc in the background (sampleReady follows). False with the
    /// reason when the sample cannot be written out or an import is running.
    bool importSample(QString* error = nullptr);
    /// Starts the household-quick preset from the launcher and shows Monitor.
    bool startQuickDemo(QString* error = nullptr);
    /// Continues a stopped run from its last checkpoint on the run controller and shows the monitor.
    bool resumeRun(qint64 runId, QString* error = nullptr);

Q_SIGNALS:
    void databaseOpened(const QString& path);
    void databaseOpenFailed(const QString& message);
    /// One file was imported as the run `runId`, which is now listed and selected.
    void importFinished(qint64 runId);
    /// The sample run `runId` is imported and its credits are stored (or `error` says why not).
    void sampleReady(qint64 runId, const QString& error);
    /// An import failed; `message` names file, line and field where known. Nothing of it was kept.
    void importFailed(const QString& message);
    void importCancelled();

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void createMenus();
    void rebuildRecentMenu();
    void updateTitle();
    void updateActions();
    void saveLayout();
    void restoreLayout();
    /// Shrinks and moves a restored window into the screen it is on (the layout may come from a larger screen).
    void fitToScreen();
    void chooseDatabase();
    void chooseImportFiles();
    void chooseImportWithOptions();
    void showAbout();
    void showError(const QString& title, const QString& text, const QString& detail);
    void onFileImported(qint64 runId, const QString& file, quint64 trajectories, quint64 turns, double seconds);
    void computeSampleCredits(qint64 runId);

    std::unique_ptr<Settings> m_settings;
    Workspace* m_workspace;
    RunController* m_controller;
    QUndoStack* m_undoStack;
    ImportJob* m_importJob;
    RunBrowserPage* m_browser;
    TrajectoryViewerPage* m_viewer;
    ImportStatusWidget* m_importStatus;
    LauncherPage* m_launcher;
    MonitorPage* m_monitor;
    ComparePage* m_compare;
    SweepPage* m_sweeps;
    CreditPage* m_credit;
    TreePage* m_trees;
    AnnotationPage* m_annotation;
    AgreementPage* m_agreement;
    RunActions* m_runActions;
    QTabWidget* m_tabs;
    bool m_shownOnce = false;
    QString m_samplePath; ///< the sample file being imported by importSample(); empty otherwise
    QString m_annotationError; ///< the Annotate page's last message in the status bar, until a label clears it
    QMenu* m_recentMenu = nullptr;
    QAction* m_openAction = nullptr;
    QAction* m_importAction = nullptr;
    QAction* m_importOptionsAction = nullptr;
    QAction* m_refreshAction = nullptr;
};

} // namespace creditlab::ui
