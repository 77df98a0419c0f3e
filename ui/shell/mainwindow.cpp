// The main window (mainwindow.h): assembles the pages as tabs and wires them to each other, to the workspace and to
// the run controller; moves between pages (a turn, a label run, a resumed run); asks before closing over a running
// run or sweep. Databases and imports are in mainwindowfiles.cpp, the menus and the saved layout in
// mainwindowmenus.cpp.
#include "ui/shell/mainwindow.h"

#include "core/storage/store.h"
#include "ui/agreement/agreementpage.h"
#include "ui/annotate/annotationpage.h"
#include "ui/common/textutil.h"
#include "ui/compare/comparepage.h"
#include "ui/credit/creditpage.h"
#include "ui/launch/launcherpage.h"
#include "ui/launch/runcontroller.h"
#include "ui/monitor/monitorpage.h"
#include "ui/runs/runactions.h"
#include "ui/runs/runbrowserpage.h"
#include "ui/runs/trajectoryviewerpage.h"
#include "ui/shell/importjob.h"
#include "ui/shell/importstatuswidget.h"
#include "ui/shell/logbridge.h"
#include "ui/shell/mainwindow_p.h"
#include "ui/shell/settings.h"
#include "ui/shell/workspace.h"
#include "ui/sweeps/sweepcontroller.h"
#include "ui/sweeps/sweeppage.h"
#include "ui/trees/treepage.h"

#include <QCloseEvent>
#include <QFileInfo>
#include <QMessageBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QUndoStack>

namespace creditlab::ui {

namespace {
constexpr int kTrainingModuleDelayMs = 500;
} // namespace

MainWindow::MainWindow(std::unique_ptr<Settings> settings, QWidget* parent)
    : QMainWindow(parent)
    , m_settings(settings ? std::move(settings) : std::make_unique<Settings>())
    , m_workspace(new Workspace(this))
    , m_controller(new RunController(this))
    , m_undoStack(new QUndoStack(this))
    , m_importJob(new ImportJob(this))
    , m_browser(new RunBrowserPage(m_workspace, this))
    , m_viewer(new TrajectoryViewerPage(m_workspace, this))
    , m_importStatus(new ImportStatusWidget(m_importJob, this))
    , m_launcher(new LauncherPage(m_workspace, m_controller, this))
    , m_monitor(new MonitorPage(m_workspace, m_controller, this))
    , m_compare(new ComparePage(m_workspace, this))
    , m_sweeps(new SweepPage(m_workspace, this))
    , m_credit(new CreditPage(m_workspace, this))
    , m_trees(new TreePage(m_workspace, this))
    , m_annotation(new AnnotationPage(m_workspace, this, m_undoStack))
    , m_agreement(new AgreementPage(m_workspace, this))
    , m_runActions(new RunActions(m_workspace, m_browser, m_controller, m_undoStack, this))
    , m_tabs(new QTabWidget(this))
{
    LogBridge::install(); // the monitor's log pane shows spdlog's messages (idempotent)
    setObjectName(QStringLiteral("mainWindow"));
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setObjectName(kMainSplitter);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(m_browser);
    splitter->addWidget(m_viewer);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    splitter->setContentsMargins(6, 6, 6, 0);
    m_tabs->setObjectName(QStringLiteral("pages"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(splitter, tr("&Runs"));
    m_tabs->addTab(m_launcher, tr("&Launch"));
    m_tabs->addTab(m_monitor, tr("&Monitor"));
    m_tabs->addTab(m_compare, tr("&Compare"));
    m_tabs->addTab(m_sweeps, tr("S&weeps"));
    m_tabs->addTab(m_credit, tr("Cre&dit"));
    m_tabs->addTab(m_trees, tr("&Trees"));
    m_tabs->addTab(m_annotation, tr("A&nnotate"));
    m_tabs->addTab(m_agreement, tr("&Agreement"));
    for (int i = 0; i < m_tabs->count(); ++i)
        m_tabs->setTabToolTip(i, tr("Ctrl+%1").arg(i + 1));
    setCentralWidget(m_tabs);
    m_browser->setRunActions(m_runActions->actions());
    statusBar()->addPermanentWidget(m_importStatus);

    createMenus();

    connect(m_browser, &RunBrowserPage::trajectorySelected, m_viewer, &TrajectoryViewerPage::showTrajectory);
    // Credit and Trees show the run selected here (now when visible, else when they appear); a run picked on them
    // afterwards stays theirs until the next selection here.
    connect(m_browser, &RunBrowserPage::runSelected, m_credit, &CreditPage::followRun);
    connect(m_browser, &RunBrowserPage::runSelected, m_trees, &TreePage::followRun);
    const auto showReadError = [this](const QString& message) {
        statusBar()->showMessage(tr("Could not read the database: %1").arg(message), kStatusTimeoutMs);
    };
    connect(m_browser, &RunBrowserPage::errorOccurred, this, showReadError);
    connect(m_viewer, &TrajectoryViewerPage::errorOccurred, this, showReadError);
    connect(m_runActions, &RunActions::errorOccurred, this,
        [this](const QString& message) { showError(tr("Run action failed"), message, {}); });
    connect(m_runActions, &RunActions::monitorRequested, this, [this](qint64 runId) {
        m_monitor->showRun(runId);
        showPage(Page::Monitor);
    });
    connect(m_runActions, &RunActions::compareRequested, this, [this](const QList<qint64>& runIds) {
        m_compare->setRuns(runIds);
        showPage(Page::Compare);
    });
    connect(m_runActions, &RunActions::resumeRequested, this, [this](qint64 runId) { resumeRun(runId); });
    connect(m_monitor, &MonitorPage::resumeRequested, this, [this](qint64 runId) { resumeRun(runId); });
    connect(m_launcher, &LauncherPage::runLaunched, this, [this] { showPage(Page::Monitor); });
    connect(m_credit, &CreditPage::turnActivated, this, &MainWindow::openTurn);
    connect(m_agreement, &AgreementPage::turnActivated, this, &MainWindow::openTurn);
    connect(m_trees, &TreePage::turnActivated, this, &MainWindow::openTurn);
    connect(m_trees, &TreePage::errorOccurred, this, showReadError);
    connect(m_credit, &CreditPage::errorOccurred, this, showReadError);
    connect(m_agreement, &AgreementPage::errorOccurred, this, showReadError);
    connect(m_annotation, &AnnotationPage::errorOccurred, this, [this](const QString& message) {
        m_annotationError = message;
        statusBar()->showMessage(message, kStatusTimeoutMs);
    });
    // A label stored after the error: "Type an annotator name…" stayed in the status bar for its ten seconds, as if
    // the label had been refused too. Another page's message is left alone.
    connect(m_annotation, &AnnotationPage::errorCleared, this, [this] {
        if (!m_annotationError.isEmpty() && statusBar()->currentMessage() == m_annotationError)
            statusBar()->clearMessage();
        m_annotationError.clear();
    });
    connect(m_annotation, &AnnotationPage::trainOnLabelsRequested, this, &MainWindow::prepareLabelRun);
    connect(m_controller, &RunController::runStarted, this, [this](qint64 runId, const QString& name) {
        m_workspace->notifyRunsChanged();
        statusBar()->showMessage(tr("Started run %1 (%2)").arg(runId).arg(name), kStatusTimeoutMs);
    });
    connect(m_controller, &RunController::runFinished, this, [this](qint64 runId, RunStatus status) {
        m_workspace->notifyRunsChanged();
        statusBar()->showMessage(status == RunStatus::Finished
                ? tr("Run %1 finished").arg(runId)
                : tr("Run %1 stopped; resume it from its checkpoint in Runs or Monitor").arg(runId),
            kStatusTimeoutMs);
    });
    connect(m_controller, &RunController::runFailed, this, [this](qint64 runId, const QString& message) {
        m_workspace->notifyRunsChanged();
        showError(tr("Training failed"),
            runId ? tr("Run %1 failed; its last checkpoint is kept.").arg(runId) : tr("The run did not start."),
            message);
    });

    const auto showQueue = [this] { m_browser->setQueuedRuns(m_controller->queuedNames(), m_controller->runId()); };
    connect(m_controller, &RunController::queueChanged, this, showQueue);
    connect(m_controller, &RunController::runStarted, this, showQueue);
    connect(m_browser, &RunBrowserPage::clearQueueRequested, m_controller, &RunController::clearQueue);
    connect(m_browser, &RunBrowserPage::quickDemoRequested, this, [this] {
        QString error;
        if (!startQuickDemo(&error))
            showError(tr("Quick demo"), tr("The demo run did not start."), error);
    });
    connect(m_browser, &RunBrowserPage::sampleImportRequested, this, [this] {
        QString error;
        if (!importSample(&error))
            showError(tr("Sample rollouts"), tr("The sample could not be opened."), error);
    });
    connect(this, &MainWindow::sampleReady, this, [this](qint64 runId, const QString& error) {
        if (!error.isEmpty()) {
            showError(tr("Sample rollouts"), tr("The sample's credits could not be computed."), error);
            return;
        }
        statusBar()->showMessage(
            tr("Sample run %1 is ready: its credits are on Credit (Ctrl+6), its trees on Trees (Ctrl+7)").arg(runId),
            kStatusTimeoutMs);
        showPage(Page::Credit);
    });
    connect(m_importJob, &ImportJob::fileImported, this, &MainWindow::onFileImported);
    connect(m_importJob, &ImportJob::failed, this, [this](const QString& file, const QString& message) {
        statusBar()->showMessage(tr("Import of %1 failed").arg(QFileInfo(file).fileName()), kStatusTimeoutMs);
        QString text = tr("Nothing of %1 was imported.").arg(QFileInfo(file).fileName());
        if (message.contains(QLatin1String("cannot tell the format")))
            text += QLatin1Char(' ')
                + tr("Name its format, or describe its layout with a mapping file, in File → Import with Options… "
                     "(Ctrl+Shift+I).");
        showError(tr("Import failed"), text, message);
        Q_EMIT importFailed(message);
    });
    connect(m_importJob, &ImportJob::cancelled, this, [this](const QString& file) {
        statusBar()->showMessage(
            tr("Import of %1 cancelled; nothing of it was kept.").arg(QFileInfo(file).fileName()), kStatusTimeoutMs);
        Q_EMIT importCancelled();
    });
    connect(m_importJob, &ImportJob::started, this, &MainWindow::updateActions);
    connect(m_importJob, &ImportJob::finished, this, &MainWindow::updateActions);

    restoreLayout();
    updateTitle();
    updateActions();
}

MainWindow::~MainWindow()
{
    // The job's destructor waits for its worker; cancel first so that it ends soon.
    m_importJob->cancel();
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (m_shownOnce)
        return;
    m_shownOnce = true;
    // LibTorch loads in the background once the window is up (see LauncherPage::loadTrainingModule).
    QTimer::singleShot(kTrainingModuleDelayMs, m_launcher, &LauncherPage::loadTrainingModule);
}

void MainWindow::prepareLabelRun(const QString& annotator, const QString& env)
{
    // Learn from labels (issue 7 §5): TRIAGE, whose judge is the human labels where they match, on the labelled
    // tasks. Every value goes through the launcher, which refuses (and says) what it cannot take.
    QStringList refused;
    auto set = [&](const QString& key, const QString& value) {
        QString error;
        if (!m_launcher->setValue(key, value, &error))
            refused << error;
    };
    if (!env.isEmpty())
        set(QStringLiteral("env.name"), env);
    set(QStringLiteral("credit.method"), QStringLiteral("triage"));
    set(QStringLiteral("judge.name"), QStringLiteral("human"));
    set(QStringLiteral("judge.annotator"), annotator);
    set(QStringLiteral("rl.task_pool"), QStringLiteral("labelled"));
    m_tabs->setCurrentWidget(m_launcher);
    statusBar()->showMessage(refused.isEmpty()
            ? tr("The launcher is set to learn from %1's labels; check the settings and start the run")
                  .arg(annotator.isEmpty() ? tr("every annotator") : annotator)
            : refused.join(QStringLiteral("; ")),
        kStatusTimeoutMs);
}

void MainWindow::openTurn(qint64 trajectoryRowId, int turn)
{
    Store* store = m_workspace->store();
    if (!store)
        return;
    std::optional<std::int64_t> runId;
    try {
        runId = store->runOfTrajectory(trajectoryRowId);
    } catch (const std::exception& e) {
        statusBar()->showMessage(tr("Could not read the database: %1").arg(toQString(e.what())), kStatusTimeoutMs);
        return;
    }
    if (!runId)
        return;
    showPage(Page::Runs);
    m_browser->selectRun(*runId);
    if (!m_browser->selectTrajectory(trajectoryRowId))
        m_viewer->showTrajectory(trajectoryRowId); // filtered out of the list: show it anyway
    m_viewer->selectTurn(turn);
}

void MainWindow::showPage(Page page) { m_tabs->setCurrentIndex(static_cast<int>(page)); }

bool MainWindow::resumeRun(qint64 runId, QString* errorMessage)
{
    RunRequest request;
    request.database = m_workspace->path();
    request.resumeRunId = runId;
    QString error;
    const bool queued = m_controller->isRunning();
    if (!m_controller->start(request, &error)) {
        if (errorMessage)
            *errorMessage = error;
        else
            showError(tr("Cannot resume run %1").arg(runId), error, {});
        return false;
    }
    if (queued) {
        statusBar()->showMessage(
            tr("Run %1 resumes when run %2 ends").arg(runId).arg(m_controller->runId()), kStatusTimeoutMs);
        return true;
    }
    m_monitor->showRun(runId);
    showPage(Page::Monitor);
    return true;
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    // Asks before stopping a training run or a sweep (both resumable); nothing is stopped unless every answer is yes.
    const auto confirmStop = [this](const QString& title, const QString& text) {
        QMessageBox box(QMessageBox::Question, title, text, QMessageBox::Cancel, this);
        box.addButton(tr("Stop and Quit"), QMessageBox::AcceptRole);
        box.setDefaultButton(QMessageBox::Cancel);
        box.exec();
        return box.buttonRole(box.clickedButton()) == QMessageBox::AcceptRole;
    };
    SweepController* sweep = m_sweeps->controller();
    if (m_controller->isRunning()
        && !confirmStop(tr("A Run Is Training"),
            tr("Run %1 is training. Stop it after the current step (it can be resumed from its checkpoint) and "
               "quit?")
                .arg(m_controller->runId()))) {
        event->ignore();
        return;
    }
    if (sweep->isRunning()
        && !confirmStop(tr("A Sweep Is Running"),
            tr("Sweep %1 is running. Stop its trials after their current iteration (Resume on the Sweeps page "
               "continues it) and quit?")
                .arg(sweep->sweepId()))) {
        event->ignore();
        return;
    }
    if (m_controller->isRunning())
        m_controller->requestStop();
    if (sweep->isRunning())
        sweep->requestStop();
    m_importJob->cancel();
    saveLayout();
    QMainWindow::closeEvent(event);
}

void MainWindow::showError(const QString& title, const QString& text, const QString& detail)
{
    // Window-modal and non-blocking: the event loop (and tests) keep running. One plain-text label,
    // because the detail quotes file contents.
    auto* box = new QMessageBox(QMessageBox::Warning, title,
        detail.isEmpty() ? text : text + QStringLiteral("\n\n") + detail, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("errorBox"));
    box->setTextFormat(Qt::PlainText);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

bool MainWindow::startQuickDemo(QString* error)
{
    if (!m_launcher->loadPreset(QStringLiteral("household-quick.yaml"), error))
        return false;
    return m_launcher->startRun(error); // runLaunched shows Monitor
}

} // namespace creditlab::ui
