#include "ui/shell/mainwindow.h"

#include "core/credit/estimator.h"
#include "core/credit/runcredits.h"
#include "core/storage/paths.h"
#include "core/storage/store.h"
#include "core/version.h"
#include "ui/agreement/agreementpage.h"
#include "ui/annotate/annotationpage.h"
#include "ui/common/filedialogs.h"
#include "ui/common/textutil.h"
#include "ui/compare/comparepage.h"
#include "ui/credit/creditpage.h"
#include "ui/launch/launcherpage.h"
#include "ui/launch/runcontroller.h"
#include "ui/monitor/monitorpage.h"
#include "ui/probe/probedialog.h"
#include "ui/runs/runactions.h"
#include "ui/runs/runbrowserpage.h"
#include "ui/runs/trajectoryviewerpage.h"
#include "ui/shell/importjob.h"
#include "ui/shell/importoptionsdialog.h"
#include "ui/shell/importstatuswidget.h"
#include "ui/shell/logbridge.h"
#include "ui/shell/settings.h"
#include "ui/shell/workspace.h"
#include "ui/sweeps/sweepcontroller.h"
#include "ui/sweeps/sweeppage.h"
#include "ui/trees/treepage.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QGuiApplication>
#include <QKeySequence>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSaveFile>
#include <QScreen>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QUndoStack>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace creditlab::ui {

namespace {
constexpr int kStatusTimeoutMs = 10000;
constexpr int kTrainingModuleDelayMs = 500;
const QString kMainSplitter = QStringLiteral("mainSplitter");
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

bool MainWindow::openDatabase(const QString& path, QString* errorMessage)
{
    QString error;
    if (m_importJob->isRunning())
        error = tr("An import is running. Wait for it to finish or cancel it, then open another database.");
    else if (!m_workspace->open(path, &error) && error.isEmpty())
        error = tr("%1: cannot open the database").arg(path);

    if (!error.isEmpty()) {
        if (errorMessage)
            *errorMessage = error;
        else
            showError(tr("Cannot open database"),
                m_workspace->isOpen()
                    ? tr("The database was not opened; %1 stays open.").arg(QFileInfo(m_workspace->path()).fileName())
                    : tr("The database was not opened."),
                error);
        Q_EMIT databaseOpenFailed(error);
        return false;
    }
    m_settings->setLastDatabasePath(m_workspace->path());
    m_settings->addRecentDatabase(m_workspace->path());
    rebuildRecentMenu();
    updateTitle();
    updateActions();
    statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(m_workspace->path())), kStatusTimeoutMs);
    Q_EMIT databaseOpened(m_workspace->path());
    return true;
}

void MainWindow::importFiles(const QStringList& files, const ImportOptions& options)
{
    if (files.isEmpty())
        return;
    if (!m_workspace->isOpen()) {
        const QString message = tr("Open a database before importing.");
        showError(tr("Import failed"), message, {});
        Q_EMIT importFailed(message);
        return;
    }
    m_settings->setLastImportDirectory(QFileInfo(files.constLast()).absolutePath());
    m_importJob->start(m_workspace->path(), files, options);
}

void MainWindow::cancelImport() { m_importJob->cancel(); }

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

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_openAction = file->addAction(tr("&Open Database…"), this, &MainWindow::chooseDatabase);
    m_openAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_O));
    m_importAction = file->addAction(tr("&Import JSONL…"), this, &MainWindow::chooseImportFiles);
    m_importAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    m_importOptionsAction = file->addAction(tr("Import with O&ptions…"), this, &MainWindow::chooseImportWithOptions);
    m_importOptionsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I));
    m_importOptionsAction->setStatusTip(tr("Name the format of the files, or describe another layout with a mapping file"));
    m_recentMenu = file->addMenu(tr("&Recent Databases"));
    rebuildRecentMenu();
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit->setMenuRole(QAction::QuitRole);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_undoStack->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    edit->addAction(undo);
    QAction* redo = m_undoStack->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(redo);

    QMenu* run = menuBar()->addMenu(tr("R&un"));
    run->addActions(m_runActions->actions());
    run->addSeparator();
    QAction* probes = run->addAction(tr("PAIR &Probe Table…"), this, [this] {
        if (!m_workspace->isOpen()) {
            statusBar()->showMessage(tr("Open a database before computing a probe table."), kStatusTimeoutMs);
            return;
        }
        auto* dialog = new ProbeDialog(m_workspace, m_browser->currentRunId(), this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    });
    probes->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    probes->setToolTip(tr("PAIR's AUROC table for a training run's policy (Ctrl+Shift+P)"));

    QMenu* view = menuBar()->addMenu(tr("&View"));
    const QStringList pages { tr("&Runs"), tr("&Launch"), tr("&Monitor"), tr("&Compare"), tr("S&weeps"),
        tr("Cre&dit"), tr("&Trees"), tr("A&nnotate"), tr("&Agreement") };
    for (int i = 0; i < pages.size(); ++i) {
        QAction* page = view->addAction(pages[i], this, [this, i] { showPage(static_cast<Page>(i)); });
        page->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)));
    }
    view->addSeparator();
    m_refreshAction = view->addAction(tr("&Refresh"), m_workspace, &Workspace::notifyRunsChanged);
    m_refreshAction->setShortcut(QKeySequence(Qt::Key_F5));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* about = help->addAction(tr("&About CreditLab"), this, &MainWindow::showAbout);
    about->setMenuRole(QAction::AboutRole);
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = m_settings->recentDatabases();
    for (int i = 0; i < recent.size(); ++i) {
        const QString path = recent.at(i);
        // '&' in a path would otherwise become a mnemonic.
        QString label = QDir::toNativeSeparators(path).replace(u'&', QStringLiteral("&&"));
        if (i < 9)
            label = QStringLiteral("&%1 %2").arg(i + 1).arg(label);
        m_recentMenu->addAction(label, this, [this, path] { openDatabase(path); });
    }
    if (!recent.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("&Clear Menu"), this, [this] {
            m_settings->clearRecentDatabases();
            rebuildRecentMenu();
        });
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::updateTitle()
{
    if (m_workspace->isOpen())
        setWindowTitle(tr("%1 – CreditLab").arg(QFileInfo(m_workspace->path()).fileName()));
    else
        setWindowTitle(tr("CreditLab"));
}

void MainWindow::updateActions()
{
    const bool importing = m_importJob->isRunning();
    m_openAction->setEnabled(!importing);
    m_recentMenu->setEnabled(!importing && !m_settings->recentDatabases().isEmpty());
    m_importAction->setEnabled(m_workspace->isOpen());
    m_importOptionsAction->setEnabled(m_workspace->isOpen());
    m_refreshAction->setEnabled(m_workspace->isOpen());
}

void MainWindow::saveLayout()
{
    m_settings->setMainWindowGeometry(saveGeometry());
    m_settings->setMainWindowState(saveState());
    if (auto* splitter = findChild<QSplitter*>(kMainSplitter))
        m_settings->setSplitterState(Settings::Splitter::Main, splitter->saveState());
    m_settings->setSplitterState(Settings::Splitter::Browser, m_browser->saveSplitterState());
    m_settings->setSplitterState(Settings::Splitter::Viewer, m_viewer->saveSplitterState());
    m_settings->sync();
}

void MainWindow::restoreLayout()
{
    if (!restoreGeometry(m_settings->mainWindowGeometry())) {
        // First start: a comfortable size that still fits small screens.
        QSize size(1360, 860);
        if (const QScreen* screen = QGuiApplication::primaryScreen())
            size = size.boundedTo(screen->availableGeometry().size() * 0.9);
        resize(size);
    } else if (!isMaximized() && !isFullScreen()) {
        fitToScreen();
    }
    restoreState(m_settings->mainWindowState());
    if (auto* splitter = findChild<QSplitter*>(kMainSplitter);
        !splitter->restoreState(m_settings->splitterState(Settings::Splitter::Main)))
        splitter->setSizes({ 820, 680 });
    m_browser->restoreSplitterState(m_settings->splitterState(Settings::Splitter::Browser));
    m_viewer->restoreSplitterState(m_settings->splitterState(Settings::Splitter::Viewer));
}

void MainWindow::fitToScreen()
{
    // A layout saved on a larger screen (1360 × 860 there, then a 1280 × 720 laptop) came back as it was: Qt keeps a
    // restored window that is partly on screen, so its bottom and right edge, the status bar included, were cut off.
    const QScreen* screen = QGuiApplication::screenAt(geometry().center());
    if (!screen)
        screen = QGuiApplication::primaryScreen();
    if (!screen)
        return;
    const QRect available = screen->availableGeometry();
    // Room for the window manager's frame, which is not known before the window is shown.
    const QSize frame(16, 48);
    const QSize size = this->size().boundedTo(available.size() - frame).expandedTo(minimumSizeHint());
    if (size != this->size())
        resize(size);
    const QPoint topLeft(
        std::clamp(x(), available.left(), std::max(available.left(), available.right() + 1 - size.width() - frame.width())),
        std::clamp(
            y(), available.top(), std::max(available.top(), available.bottom() + 1 - size.height() - frame.height())));
    if (topLeft != pos())
        move(topLeft);
}

void MainWindow::chooseDatabase()
{
    const std::unique_ptr<QFileDialog> dialog(createOpenDatabaseDialog());
    if (dialog->exec() == QDialog::Accepted && !dialog->selectedFiles().isEmpty())
        openDatabase(dialog->selectedFiles().constFirst());
}

QFileDialog* MainWindow::createOpenDatabaseDialog()
{
    const QString start = m_workspace->isOpen() ? QFileInfo(m_workspace->path()).absolutePath() : QDir::homePath();
    // Lists the folder of the open database: names only, never its files (ui/common/filedialogs.h).
    auto* dialog
        = createFileDialog(this, tr("Open Database"), start, tr("CreditLab databases (*.db *.sqlite);;All files (*)"));
    // An Open dialog (its button says Open) that also takes a new file name: opening one creates the database.
    dialog->setAcceptMode(QFileDialog::AcceptOpen);
    dialog->setFileMode(QFileDialog::AnyFile);
    dialog->setLabelText(QFileDialog::Accept, tr("&Open"));
    return dialog;
}

void MainWindow::chooseImportFiles()
{
    QString start = m_settings->lastImportDirectory();
    if (start.isEmpty())
        start = QDir::homePath();
    const QStringList files = filedialogs::getOpenFileNames(
        this, tr("Import Trajectories"), start, tr("JSON Lines (*.jsonl *.json);;All files (*)"));
    importFiles(files);
}

ImportOptionsDialog* MainWindow::createImportOptionsDialog()
{
    QString start = m_settings->lastImportDirectory();
    if (start.isEmpty())
        start = QDir::homePath();
    return new ImportOptionsDialog(start, this);
}

void MainWindow::chooseImportWithOptions()
{
    std::unique_ptr<ImportOptionsDialog> dialog(createImportOptionsDialog());
    if (dialog->exec() == QDialog::Accepted)
        importFiles(dialog->files(), dialog->options());
}

void MainWindow::showAbout()
{
    const QString database = m_workspace->isOpen() ? QDir::toNativeSeparators(m_workspace->path()) : tr("none");
    const QString text = tr("CreditLab %1\n"
                            "A workbench for credit assignment in agentic reinforcement learning.\n\n"
                            "Qt %2 (built with %3)\n"
                            "Database: %4\n"
                            "Schema version: %5")
                             .arg(QString::fromLatin1(kVersion), QString::fromLatin1(qVersion()),
                                 QStringLiteral(QT_VERSION_STR), database)
                             .arg(m_workspace->schemaVersion());
    auto* box = new QMessageBox(QMessageBox::Information, tr("About CreditLab"), text, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("aboutBox"));
    box->setTextFormat(Qt::PlainText); // the path is data
    box->setIconPixmap(windowIcon().pixmap(64, 64));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
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

void MainWindow::onFileImported(qint64 runId, const QString& file, quint64 trajectories, quint64 turns, double seconds)
{
    m_workspace->notifyRunsChanged();
    m_browser->selectRun(runId);
    if (!m_samplePath.isEmpty() && file == m_samplePath) {
        m_samplePath.clear();
        computeSampleCredits(runId);
    }
    const QLocale locale;
    statusBar()->showMessage(tr("Imported %1: %2 trajectories, %3 turns in %4 s")
                                 .arg(QFileInfo(file).fileName(), locale.toString(trajectories), locale.toString(turns),
                                     locale.toString(seconds, 'f', 1)),
        kStatusTimeoutMs);
    Q_EMIT importFinished(runId);
}

bool MainWindow::startQuickDemo(QString* error)
{
    if (!m_launcher->loadPreset(QStringLiteral("household-quick.yaml"), error))
        return false;
    return m_launcher->startRun(error); // runLaunched shows Monitor
}

bool MainWindow::importSample(QString* error)
{
    const auto fail = [error](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    if (!m_workspace->isOpen())
        return fail(tr("No database is open."));
    if (m_importJob->isRunning())
        return fail(tr("An import is running; try again when it ends."));
    // The importer reads files: write the bundled sample out next to the user's data, once.
    // In the data folder the default database lives in (core/storage/paths.h), not Qt's per-application one beside it.
    const QString dir = toQString(dataDirectory()) + QStringLiteral("/samples");
    const QString target = dir + QStringLiteral("/household-sample.jsonl");
    QFile bundled(QStringLiteral(":/samples/household-sample.jsonl"));
    if (!bundled.open(QIODevice::ReadOnly))
        return fail(tr("The bundled sample is missing from this build."));
    const QByteArray content = bundled.readAll();
    QFile existing(target);
    if (!existing.open(QIODevice::ReadOnly) || existing.readAll() != content) {
        existing.close();
        QSaveFile out(target);
        if (!QDir().mkpath(dir) || !out.open(QIODevice::WriteOnly) || out.write(content) != content.size()
            || !out.commit())
            return fail(tr("Cannot write %1: %2").arg(target, out.errorString()));
    }
    m_samplePath = target;
    importFiles({ target });
    return true;
}

void MainWindow::computeSampleCredits(qint64 runId)
{
    const std::string path = m_workspace->path().toStdString();
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, runId] {
        watcher->deleteLater();
        Q_EMIT sampleReady(runId, watcher->result());
    });
    statusBar()->showMessage(tr("Computing the sample's credits (grpo, gigpo, triage, rtmc)…"));
    watcher->setFuture(QtConcurrent::run([path, runId]() -> QString {
        try {
            Store store(path); // this thread's own connection
            for (const char* name : { "grpo", "gigpo", "triage", "rtmc" }) {
                const auto& method = credit::requireEstimator(name);
                credit::computeRunCredits(store, runId, std::nullopt, method, method.resolve({}));
            }
            return {};
        } catch (const std::exception& e) {
            return toQString(e.what());
        }
    }));
}

} // namespace creditlab::ui
