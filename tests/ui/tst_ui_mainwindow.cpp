// The main window end to end, offscreen: import in the background, browse, read a turn in full as
// plain text, refuse bad input and newer databases, cancel.
#include "core/learn/api/backend.h"
#include "core/storage/database.h"
#include "core/storage/store.h"
#include "tests/ui/sweeptestdata.h"
#include "ui/annotate/annotationpage.h"
#include "ui/common/filedialogs.h"
#include "ui/common/itemroles.h"
#include "ui/common/sortfilterproxymodel.h"
#include "ui/runs/runbrowserpage.h"
#include "ui/runs/runmodel.h"
#include "ui/runs/tokenmodel.h"
#include "ui/runs/tokenview.h"
#include "ui/runs/trajectorymodel.h"
#include "ui/runs/trajectoryviewerpage.h"
#include "ui/runs/turnmodel.h"
#include "ui/shell/importjob.h"
#include "ui/shell/importstatuswidget.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/settings.h"
#include "ui/shell/workspace.h"
#include "ui/sweeps/sweepcontroller.h"
#include "ui/sweeps/sweeppage.h"

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using namespace creditlab::ui;

namespace {

constexpr int kWaitMs = 60000;

const char* const kGoodLines[] = {
    R"({"id":"t1","group":"g1","task":"household:seed=1","goal":"put a clean mug in coffeemachine.","reward":1.0,)"
    R"("turns":[{"observation":"You see a <b>mug</b> 1.\nAnd a sink 1.","action":"take mug 1 from countertop 1",)"
    R"("feedback":"You pick up the mug 1.","reward":0.0,"valid":true,"state":"loc=countertop1|holding=mug1",)"
    R"("progress":0.5,"role":"D","role_source":"human:alice","score":0.81},)"
    R"({"observation":"You hold the mug 1.","action":"dance","feedback":"Nothing happens.","valid":false,"role":"N",)"
    R"("role_source":"judge:oracle"}]})",
    R"({"id":"t2","group":"g1","task":"household:seed=1","reward":0.0,)"
    R"("turns":[{"observation":"You are in the middle of a room.","action":"look"}]})",
};

bool writeFile(const QString& path, const QByteArray& contents)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(contents) == contents.size();
}

/// Clicks the button of `role` in the next message box that opens (a modal one: its exec() runs its own loop).
void answerNextQuestion(QMessageBox::ButtonRole role)
{
    auto* timer = new QTimer;
    QObject::connect(timer, &QTimer::timeout, timer, [timer, role] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box)
            return;
        for (QAbstractButton* button : box->buttons())
            if (box->buttonRole(button) == role) {
                timer->deleteLater();
                timer->stop();
                button->click();
                return;
            }
    });
    timer->start(20);
}

QByteArray goodJsonl()
{
    QByteArray out;
    for (const char* line : kGoodLines)
        out += QByteArray(line) + '\n';
    return out;
}

/// The non-blocking message box the window opened for an error; closes it and returns its text.
QString takeErrorBox(MainWindow& window)
{
    const auto boxes = window.findChildren<QMessageBox*>(QStringLiteral("errorBox"));
    if (boxes.isEmpty() || !boxes.last()->isVisible())
        return {};
    if (boxes.last()->textFormat() != Qt::PlainText)
        return QStringLiteral("(not plain text)");
    const QString text = boxes.last()->text();
    for (QMessageBox* box : boxes)
        box->close();
    return text;
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void importBrowseAndRead();
    void tokensViewShowsTheTrainingSequence();
    void badImportNamesLineAndImportsNothing();
    void importsSeveralFilesInOrder();
    void newerDatabaseIsRefused();
    void reopeningShowsNewestRun();
    void cancelImportsNothing();
    void layoutFromALargerScreenFits();
    void quitAsksBeforeStoppingASweep();
    void openDatabaseDialogSaysOpen();
    void firstStartOffersTheSample();
    void everyPageFitsA1280By720Screen();
    void annotationErrorGoesWithTheNextLabel();

private:
    QString path(const QString& name) const { return m_dir->filePath(name); }
    int runCount() const { return m_window->runBrowser()->runModel()->rowCount(); }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<MainWindow> m_window;
};

void TestMainWindow::initTestCase()
{
    // Each window loads the training module (LibTorch) in the background 500 ms after it shows
    // (LauncherPage::loadTrainingModule). dlopen holds glibc's loader lock through LibTorch's relocation, which takes
    // seconds under load, and every thread start needs that lock: the GUI thread stalled in QThreadPool::start and an
    // import's parser thread in std::thread, so what a test timed (an import, its progress, a cancel) moved with the
    // load. Loaded once here, before any window, the windows find it loaded (learn::trainingBackend() keeps it).
    try {
        creditlab::learn::trainingBackend();
    } catch (const std::exception& e) {
        qWarning("the training module did not load: %s", e.what()); // the windows report it; no test here trains
    }
}

void TestMainWindow::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_window = std::make_unique<MainWindow>(std::make_unique<Settings>(path(QStringLiteral("settings.ini"))));
    m_window->show();
    QSignalSpy opened(m_window.get(), &MainWindow::databaseOpened);
    QVERIFY(m_window->openDatabase(path(QStringLiteral("runs.db"))));
    QCOMPARE(opened.count(), 1);
    QVERIFY(m_window->windowTitle().contains(QStringLiteral("runs.db")));
    QCOMPARE(runCount(), 0);
}

void TestMainWindow::cleanup()
{
    m_window.reset();
    m_dir.reset();
}

void TestMainWindow::importBrowseAndRead()
{
    QVERIFY(writeFile(path(QStringLiteral("good.jsonl")), goodJsonl()));
    QSignalSpy finished(m_window.get(), &MainWindow::importFinished);
    QSignalSpy failed(m_window.get(), &MainWindow::importFailed);
    m_window->importFiles({ path(QStringLiteral("good.jsonl")) });
    QVERIFY(m_window->importJob()->isRunning());
    QVERIFY(finished.wait(kWaitMs));
    QCOMPARE(failed.count(), 0);
    const qint64 runId = finished.first().first().toLongLong();
    QVERIFY(runId > 0);

    // The run is listed, selected, and its trajectories are shown.
    RunBrowserPage* browser = m_window->runBrowser();
    QCOMPARE(runCount(), 1);
    const auto& run = browser->runModel()->runs().front();
    QCOMPARE(run.id, runId);
    QCOMPARE(run.trajectoryCount, 2);
    QCOMPARE(run.turnCount, 3);
    QCOMPARE(browser->currentRunId(), runId);
    QCOMPARE(browser->trajectoryModel()->rowCount(), 2);

    // Select trajectory t1: the viewer shows its turns.
    const auto& infos = browser->trajectoryModel()->trajectories();
    const auto it = std::find_if(infos.begin(), infos.end(), [](const auto& i) { return i.id == "t1"; });
    QVERIFY(it != infos.end());
    const qint64 t1 = it->rowId; // the model's snapshot is replaced on reload
    QVERIFY(browser->selectTrajectory(t1));
    TrajectoryViewerPage* viewer = m_window->trajectoryViewer();
    QCOMPARE(viewer->trajectoryRowId(), t1);
    QCOMPARE(viewer->turnModel()->rowCount(), 2);
    const QModelIndex observation = viewer->turnProxy()->index(0, int(TurnModel::Column::Observation));
    QCOMPARE(observation.data().toString(), QString::fromUtf8("You see a <b>mug</b> 1. \u23CE And a sink 1."));
    QCOMPARE(viewer->summaryLabel()->textFormat(), Qt::PlainText);
    QVERIFY(viewer->summaryLabel()->text().contains(QStringLiteral("put a clean mug in coffeemachine.")));

    // The first turn is selected; the detail pane holds the full text, markup and newline verbatim.
    QCOMPARE(viewer->currentTurn(), 0);
    const QString detail = viewer->detailView()->toPlainText();
    QVERIFY2(detail.contains(QStringLiteral("You see a <b>mug</b> 1.\nAnd a sink 1.")), qPrintable(detail));
    QVERIFY(detail.contains(QStringLiteral("take mug 1 from countertop 1")));
    QVERIFY(detail.contains(QStringLiteral("You pick up the mug 1.")));
    QVERIFY(detail.contains(QStringLiteral("loc=countertop1|holding=mug1")));
    QVERIFY(detail.contains(QStringLiteral("human:alice")));
    QVERIFY(detail.contains(QStringLiteral("0.81")));
    QVERIFY(detail.contains(QStringLiteral("0.5")));
    QVERIFY(viewer->detailView()->isReadOnly());

    // The invalid turn.
    QVERIFY(viewer->selectTurn(1));
    const QString invalid = viewer->detailView()->toPlainText();
    QVERIFY(invalid.contains(QStringLiteral("Nothing happens.")));
    QVERIFY(invalid.contains(QStringLiteral("Valid: no")));
    QVERIFY(invalid.contains(QStringLiteral("judge:oracle")));

    // The filter narrows the list; the viewer no longer shows the filtered-out trajectory.
    browser->filterEdit()->setText(QStringLiteral("t2"));
    QCOMPARE(browser->trajectoryProxy()->rowCount(), 1);
    QVERIFY(viewer->trajectoryRowId() != t1);
    QCOMPARE(viewer->trajectoryRowId(), browser->currentTrajectoryRowId());
    browser->filterEdit()->clear();
    QCOMPARE(browser->trajectoryProxy()->rowCount(), 2);

    // Refresh keeps the selection.
    QVERIFY(browser->selectTrajectory(t1));
    m_window->workspace()->notifyRunsChanged();
    QCOMPARE(browser->currentRunId(), runId);
    QCOMPARE(browser->currentTrajectoryRowId(), t1);
    QCOMPARE(viewer->trajectoryRowId(), t1);
}

void TestMainWindow::tokensViewShowsTheTrainingSequence()
{
    QVERIFY(writeFile(path(QStringLiteral("good.jsonl")), goodJsonl()));
    QSignalSpy finished(m_window.get(), &MainWindow::importFinished);
    m_window->importFiles({ path(QStringLiteral("good.jsonl")) });
    QVERIFY(finished.wait(kWaitMs));
    RunBrowserPage* browser = m_window->runBrowser();
    const auto& infos = browser->trajectoryModel()->trajectories();
    const auto find = [&](const char* id) {
        return std::find_if(infos.begin(), infos.end(), [&](const auto& i) { return i.id == id; })->rowId;
    };
    const qint64 t1 = find("t1"), t2 = find("t2");
    // t1's training sequence as a trainer stores it: 3 context tokens, turn 0's action (2 tokens), 2 context tokens,
    // turn 1's action (2 tokens), whose first token drifted by 0.25 nats.
    {
        creditlab::Store store(path(QStringLiteral("runs.db")).toStdString());
        creditlab::TokenSegment s;
        const float none = std::numeric_limits<float>::quiet_NaN();
        const std::vector<std::pair<std::string, int>> tokens { { "<goal>", -1 }, { " put\na", -1 }, { "<obs>", -1 },
            { " take", 0 }, { "</act>", 0 }, { "<obs>", -1 }, { " sink", -1 }, { " go", 1 }, { "</act>", 1 } };
        for (std::size_t i = 0; i < tokens.size(); ++i) {
            const bool action = tokens[i].second >= 0;
            s.tokens.push_back(static_cast<std::int32_t>(100 + i));
            s.pieces.push_back(tokens[i].first);
            s.turns.push_back(tokens[i].second);
            s.mask.push_back(action ? 1 : 0);
            s.behaviour.push_back(action ? -1.0F : none);
            s.current.push_back(action ? (i == 7 ? -0.75F : -1.0F) : none);
            s.advantage.push_back(action ? 0.5F : none);
        }
        store.writeTokenSegments(t1, std::vector<creditlab::TokenSegment> { s });
    }
    TrajectoryViewerPage* viewer = m_window->trajectoryViewer();
    QVERIFY(browser->selectTrajectory(t2));
    TokenView* tokens = viewer->tokenView();
    QCOMPARE(tokens->model()->rowCount(), 0);
    QVERIFY(tokens->summaryLabel()->text().contains(QStringLiteral("rl.store_tokens")));
    QVERIFY(browser->selectTrajectory(t1));
    viewer->detailTabs()->setCurrentWidget(tokens);
    QCOMPARE(tokens->model()->rowCount(), 9);
    const QString summary = tokens->summaryLabel()->text();
    QVERIFY2(summary.contains(QStringLiteral("9 token(s)")) && summary.contains(QStringLiteral("4 in the loss"))
            && summary.contains(QStringLiteral("1 token(s) past")),
        qPrintable(summary));
    // The cells: whitespace made visible, the mask, the difference; the drifted token marked.
    const auto cell = [&](int row, TokenModel::Column column, int role = Qt::DisplayRole) {
        return tokens->tableView()->model()->index(row, int(column)).data(role);
    };
    QCOMPARE(cell(1, TokenModel::Column::Text).toString(), QString::fromUtf8("\u00B7put\u21B5a"));
    QCOMPARE(cell(1, TokenModel::Column::Loss).toString(), QString());
    QCOMPARE(cell(3, TokenModel::Column::Loss).toString(), QString::fromUtf8("\u2713"));
    QCOMPARE(cell(7, TokenModel::Column::Drift).toString(), QStringLiteral("0.25"));
    QCOMPARE(cell(3, TokenModel::Column::Drift).toString(), QStringLiteral("0"));
    QVERIFY(cell(7, TokenModel::Column::Drift, Qt::BackgroundRole).isValid());
    QVERIFY(!cell(3, TokenModel::Column::Drift, Qt::BackgroundRole).isValid());
    QCOMPARE(cell(3, TokenModel::Column::Turn).toString(), QStringLiteral("1")); // counted from 1, as the turn table
    // Selecting a turn scrolls the tokens to its action; Ctrl+D finds the largest drift.
    QVERIFY(viewer->selectTurn(1));
    QCOMPARE(tokens->tableView()->currentIndex().row(), 7);
    QVERIFY(viewer->selectTurn(0));
    QCOMPARE(tokens->tableView()->currentIndex().row(), 3);
    tokens->tableView()->setFocus();
    QTest::keyClick(tokens->tableView(), Qt::Key_D, Qt::ControlModifier);
    QCOMPARE(tokens->tableView()->currentIndex().row(), 7);
    // Trained tokens only: the 4 action tokens.
    tokens->trainedOnlyBox()->setChecked(true);
    QCOMPARE(tokens->model()->rowCount(), 4);
    QCOMPARE(cell(2, TokenModel::Column::Text).toString(), QString::fromUtf8("\u00B7go"));
    QVERIFY(tokens->showLargestDrift());
    QCOMPARE(tokens->tableView()->currentIndex().row(), 2);
    // Another database: nothing of this one stays.
    QVERIFY(m_window->openDatabase(path(QStringLiteral("other.db"))));
    QCOMPARE(tokens->model()->rowCount(), 0);
}

void TestMainWindow::badImportNamesLineAndImportsNothing()
{
    // Line 3 lacks the required "reward".
    QByteArray bad = goodJsonl();
    bad += R"({"id":"t3","group":"g1","turns":[]})"
           "\n";
    QVERIFY(writeFile(path(QStringLiteral("bad.jsonl")), bad));
    QSignalSpy failed(m_window.get(), &MainWindow::importFailed);
    QSignalSpy finished(m_window.get(), &MainWindow::importFinished);
    QSignalSpy idle(m_window->importJob(), &ImportJob::finished);
    m_window->importFiles({ path(QStringLiteral("bad.jsonl")) });
    QVERIFY(failed.wait(kWaitMs));
    const QString message = failed.first().first().toString();
    QVERIFY2(message.contains(QStringLiteral("bad.jsonl:3")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("reward")), qPrintable(message));
    const QString shown = takeErrorBox(*m_window);
    QVERIFY2(shown.startsWith(QStringLiteral("Nothing of bad.jsonl was imported.")), qPrintable(shown));
    QVERIFY2(shown.endsWith(message), qPrintable(shown));
    QVERIFY(idle.count() == 1 || idle.wait(kWaitMs));
    QCOMPARE(finished.count(), 0);
    QCOMPARE(runCount(), 0);
    creditlab::Store check(path(QStringLiteral("runs.db")).toStdString());
    QVERIFY(check.runs().empty());
    QVERIFY(!m_window->importJob()->isRunning());
}

void TestMainWindow::importsSeveralFilesInOrder()
{
    QVERIFY(writeFile(path(QStringLiteral("a.jsonl")), goodJsonl()));
    QVERIFY(writeFile(path(QStringLiteral("b.jsonl")), QByteArray(kGoodLines[1]) + '\n'));
    QSignalSpy finished(m_window.get(), &MainWindow::importFinished);
    QSignalSpy idle(m_window->importJob(), &ImportJob::finished);
    m_window->importFiles({ path(QStringLiteral("a.jsonl")), path(QStringLiteral("b.jsonl")) });
    QVERIFY(idle.wait(kWaitMs));
    QCOMPARE(finished.count(), 2);
    QCOMPARE(runCount(), 2);
    // The last imported run is the selected one.
    const qint64 last = finished.at(1).first().toLongLong();
    QCOMPARE(m_window->runBrowser()->currentRunId(), last);
    QCOMPARE(m_window->runBrowser()->trajectoryModel()->rowCount(), 1);
    QCOMPARE(m_window->settings().lastImportDirectory(), m_dir->path());
}

/// File → Open Database offers an Open dialog (its button said Save) that still takes a new file name.
void TestMainWindow::openDatabaseDialogSaysOpen()
{
    const std::unique_ptr<QFileDialog> dialog(m_window->createOpenDatabaseDialog());
    QCOMPARE(dialog->acceptMode(), QFileDialog::AcceptOpen);
    QCOMPARE(dialog->fileMode(), QFileDialog::AnyFile);
    QCOMPARE(dialog->windowTitle(), QStringLiteral("Open Database"));
    // It lists the database's folder by names only (tst_ui_filedialogs).
    QVERIFY(dynamic_cast<NameOnlyIconProvider*>(dialog->iconProvider()));
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    dialog->show();
    bool hasOpen = false, hasSave = false;
    for (const QPushButton* button : dialog->findChildren<QPushButton*>()) {
        hasOpen = hasOpen || button->text().remove(QLatin1Char('&')) == QLatin1String("Open");
        hasSave = hasSave || button->text().remove(QLatin1Char('&')) == QLatin1String("Save");
    }
    QVERIFY(hasOpen);
    QVERIFY(!hasSave);
}

/// An empty database shows one line and a way in; the bundled sample imports with credits for four methods, and
/// the way in goes once there are runs.
void TestMainWindow::firstStartOffersTheSample()
{
    QStandardPaths::setTestModeEnabled(true); // the sample is written under the test data location
    QWidget* welcome = m_window->runBrowser()->welcome();
    QTRY_VERIFY(welcome->isVisible());
    QVERIFY(welcome->findChild<QPushButton*>(QStringLiteral("quickDemo")));
    auto* sample = welcome->findChild<QPushButton*>(QStringLiteral("sampleImport"));
    QVERIFY(sample);
    QSignalSpy ready(m_window.get(), &MainWindow::sampleReady);
    sample->click();
    QVERIFY(ready.wait(kWaitMs));
    QCOMPARE(ready.first().at(1).toString(), QString());
    const qint64 runId = ready.first().at(0).toLongLong();
    QCOMPARE(runCount(), 1);
    QVERIFY(!welcome->isVisible());
    creditlab::Store store(path(QStringLiteral("runs.db")).toStdString());
    QCOMPARE(store.run(runId)->trajectoryCount, 24);
    auto methods = store.creditMethods(runId);
    std::sort(methods.begin(), methods.end());
    QCOMPARE(methods, (std::vector<std::string> { "gigpo", "grpo", "rtmc", "triage" }));
}

/// With a long run name in every run picker, each page and the window fit a 1280 × 720 screen (the Annotate page
/// once held the window at 1441 px).
void TestMainWindow::everyPageFitsA1280By720Screen()
{
    const QString file = path(QStringLiteral("a-rather-long-run-name-as-trainers-write-them-step-000123-of-a-sweep.jsonl"));
    QVERIFY(writeFile(file, goodJsonl()));
    QSignalSpy finished(m_window.get(), &MainWindow::importFinished);
    m_window->importFiles({ file });
    QVERIFY(finished.wait(kWaitMs));
    auto* tabs = m_window->findChild<QTabWidget*>();
    QVERIFY(tabs);
    for (int i = 0; i < tabs->count(); ++i) {
        tabs->setCurrentIndex(i);
        QCoreApplication::processEvents();
        const QSize page = tabs->widget(i)->minimumSizeHint();
        QVERIFY2(page.width() <= 1240 && page.height() <= 600,
            qPrintable(QStringLiteral("%1: %2 x %3").arg(tabs->tabText(i)).arg(page.width()).arg(page.height())));
    }
    const QSize window = m_window->minimumSizeHint();
    QVERIFY2(window.width() <= 1280 && window.height() <= 720,
        qPrintable(QStringLiteral("%1 x %2").arg(window.width()).arg(window.height())));
}

void TestMainWindow::newerDatabaseIsRefused()
{
    QVERIFY(writeFile(path(QStringLiteral("good.jsonl")), goodJsonl()));
    QSignalSpy finished(m_window.get(), &MainWindow::importFinished);
    m_window->importFiles({ path(QStringLiteral("good.jsonl")) });
    QVERIFY(finished.wait(kWaitMs));

    const QString newer = path(QStringLiteral("newer.db"));
    {
        creditlab::Database db(newer.toStdString(), creditlab::Database::Access::ReadWrite);
        db.exec("PRAGMA user_version = 99");
    }
    QSignalSpy refused(m_window.get(), &MainWindow::databaseOpenFailed);
    QSignalSpy opened(m_window.get(), &MainWindow::databaseOpened);
    QString error;
    QVERIFY(!m_window->openDatabase(newer, &error));
    QVERIFY2(error.contains(QStringLiteral("newer.db")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("newer")), qPrintable(error));
    QCOMPARE(refused.count(), 1);
    QCOMPARE(opened.count(), 0);

    // Without an out-parameter the window says so in a message box.
    QVERIFY(!m_window->openDatabase(newer));
    const QString shown = takeErrorBox(*m_window);
    QVERIFY2(shown.contains(QStringLiteral("runs.db stays open")), qPrintable(shown));
    QVERIFY2(shown.endsWith(error), qPrintable(shown));

    // The previous database stays open and listed.
    QCOMPARE(m_window->workspace()->path(), path(QStringLiteral("runs.db")));
    QVERIFY(m_window->windowTitle().contains(QStringLiteral("runs.db")));
    QCOMPARE(runCount(), 1);
    QVERIFY(m_window->workspace()->store() != nullptr);
    QCOMPARE(m_window->workspace()->store()->runs().size(), std::size_t(1));
    QVERIFY(!m_window->settings().recentDatabases().contains(newer));

    // The refused file was not modified.
    creditlab::Database check(newer.toStdString(), creditlab::Database::Access::ReadOnly);
    QCOMPARE(check.scalarInt("PRAGMA user_version"), 99);
}

void TestMainWindow::reopeningShowsNewestRun()
{
    QVERIFY(writeFile(path(QStringLiteral("good.jsonl")), goodJsonl()));
    QSignalSpy finished(m_window.get(), &MainWindow::importFinished);
    m_window->importFiles({ path(QStringLiteral("good.jsonl")) });
    QVERIFY(finished.wait(kWaitMs));
    const qint64 runId = finished.first().first().toLongLong();
    TrajectoryViewerPage* viewer = m_window->trajectoryViewer();
    QVERIFY(viewer->trajectoryRowId() != 0);

    // Another database: nothing of the first one stays on screen.
    QVERIFY(m_window->openDatabase(path(QStringLiteral("other.db"))));
    QCOMPARE(runCount(), 0);
    QCOMPARE(m_window->runBrowser()->trajectoryModel()->rowCount(), 0);
    QCOMPARE(viewer->trajectoryRowId(), 0);
    QCOMPARE(viewer->turnModel()->rowCount(), 0);
    QVERIFY(viewer->detailView()->toPlainText().isEmpty());
    QVERIFY(m_window->windowTitle().contains(QStringLiteral("other.db")));

    // Back to the first: its newest run and first trajectory are shown at once.
    QVERIFY(m_window->openDatabase(path(QStringLiteral("runs.db"))));
    QCOMPARE(m_window->runBrowser()->currentRunId(), runId);
    const qint64 first = m_window->runBrowser()->trajectoryProxy()->index(0, 0).data(IdRole).toLongLong();
    QCOMPARE(m_window->runBrowser()->currentTrajectoryRowId(), first);
    QCOMPARE(viewer->trajectoryRowId(), first);
    QVERIFY(viewer->detailView()->toPlainText().contains(QStringLiteral("Observation")));
    QCOMPARE(m_window->settings().recentDatabases().first(), path(QStringLiteral("runs.db")));
}

void TestMainWindow::cancelImportsNothing()
{
    // Big enough that an import takes well over one progress interval.
    QByteArray big;
    const QByteArray turn = R"({"observation":"You are in the middle of a room. Looking quickly around you, you see )"
                            R"(a cabinet 1, a countertop 1, a drawer 2, a fridge 1.","action":"go to fridge 1",)"
                            R"("feedback":"The fridge 1 is closed.","reward":0.0,"valid":true})";
    for (int i = 0; i < 40000; ++i) {
        big += R"({"id":"big-)" + QByteArray::number(i) + R"(","group":"g)" + QByteArray::number(i / 8)
            + R"(","reward":0.0,"turns":[)" + turn + ',' + turn + ',' + turn + "]}\n";
    }
    QVERIFY(writeFile(path(QStringLiteral("big.jsonl")), big));

    QSignalSpy cancelled(m_window.get(), &MainWindow::importCancelled);
    QSignalSpy finished(m_window.get(), &MainWindow::importFinished);
    QSignalSpy idle(m_window->importJob(), &ImportJob::finished);
    m_window->importFiles({ path(QStringLiteral("big.jsonl")) });
    QVERIFY(m_window->importStatus()->isVisible());
    // Cancel through the status bar's button, as a user would. The worker sees the flag at its next report at the
    // latest, the last one included (core's progress throttle always reports the end), so the import never lands.
    QTest::mouseClick(m_window->importStatus()->cancelButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(idle.count(), 1, kWaitMs);
    QCOMPARE(cancelled.count(), 1);
    QCOMPARE(finished.count(), 0);
    QVERIFY(!m_window->importStatus()->isVisible());
    QCOMPARE(runCount(), 0);
    creditlab::Store check(path(QStringLiteral("runs.db")).toStdString());
    QVERIFY(check.runs().empty());

    // Cancel after progress has been shown: still nothing lands, and the next import works. Waits on that state, not
    // for one more progress signal: none comes after the job's last report, so such a wait could run out its 60 s.
    m_window->importFiles({ path(QStringLiteral("big.jsonl")) });
    QTRY_VERIFY_WITH_TIMEOUT(
        m_window->importStatus()->progressBar()->value() > 0 || !m_window->importJob()->isRunning(), kWaitMs);
    m_window->cancelImport();
    // The job may have ended already (the last progress report can come with the end): count, do not wait blindly.
    QTRY_COMPARE_WITH_TIMEOUT(idle.count(), 2, kWaitMs);
    QCOMPARE(cancelled.count() + finished.count(), 2); // a very fast machine may finish first
    QCOMPARE(runCount(), finished.count());
}

void TestMainWindow::quitAsksBeforeStoppingASweep()
{
    // Quitting while a sweep runs asks first (it stopped the sweep without a word): Cancel keeps the window and the
    // sweep; Stop and Quit closes the window and stops the sweep, which stays resumable.
    // A longer shared SFT than the sweep tests' (three epochs of small batches): still running when the window closes.
    QVERIFY(writeFile(path(QStringLiteral("tiny-exp.yaml")),
        QByteArray(testing::kTinyExperiment).replace("epochs: 1, batch_size: 32", "epochs: 3, batch_size: 8")));
    SweepPage* page = m_window->sweeps();
    page->openSweepFile(path(QStringLiteral("tiny-exp.yaml")));
    QSignalSpy finished(page->controller(), &SweepController::sweepFinished);
    page->startSweep();
    QVERIFY(page->controller()->isRunning());

    answerNextQuestion(QMessageBox::RejectRole);
    QVERIFY(!m_window->close());
    QVERIFY(m_window->isVisible());
    QVERIFY(page->controller()->isRunning());

    answerNextQuestion(QMessageBox::AcceptRole);
    QVERIFY(m_window->close());
    QVERIFY(finished.count() > 0 || finished.wait(120000));
    QCOMPARE(finished.at(0).at(0).value<creditlab::TrialStatus>(), creditlab::TrialStatus::Cancelled);
}

void TestMainWindow::layoutFromALargerScreenFits()
{
    // A layout saved on a larger screen: the window comes back inside this screen, not cut off at its edges.
    const QRect available = QGuiApplication::primaryScreen()->availableGeometry();
    const QString settings = path(QStringLiteral("big.ini"));
    {
        MainWindow big(std::make_unique<Settings>(settings));
        big.show();
        big.setGeometry(available.x() + 120, available.y() + 80, available.width() + 400, available.height() + 300);
        QVERIFY(big.width() > available.width()); // the larger screen's size is what gets saved
        big.close();
    }
    MainWindow window(std::make_unique<Settings>(settings));
    const QSize least = window.minimumSizeHint();
    QVERIFY2(window.width() <= std::max(available.width(), least.width()),
        qPrintable(QStringLiteral("%1 wide on a %2-wide screen").arg(window.width()).arg(available.width())));
    QVERIFY2(window.height() <= std::max(available.height(), least.height()),
        qPrintable(QStringLiteral("%1 high on a %2-high screen").arg(window.height()).arg(available.height())));
    QVERIFY(available.contains(window.geometry().topLeft()));
    if (least.width() <= available.width() && least.height() <= available.height())
        QVERIFY(available.contains(window.geometry()));
}

/// Issue 38: a label refused for want of an annotator name put "Type an annotator name before labelling." in the
/// status bar for ten seconds; it stayed there after the name was typed and labels were stored, as if they had been
/// refused too. The next stored label takes it down; a message of another page stays.
void TestMainWindow::annotationErrorGoesWithTheNextLabel()
{
    QVERIFY(writeFile(path(QStringLiteral("good.jsonl")), goodJsonl()));
    QSignalSpy finished(m_window.get(), &MainWindow::importFinished);
    m_window->importFiles({ path(QStringLiteral("good.jsonl")) });
    QVERIFY(finished.wait(kWaitMs));
    AnnotationPage* page = m_window->annotation();
    m_window->showPage(MainWindow::Page::Annotate);
    page->setRun(finished.first().first().toLongLong());
    QTRY_VERIFY_WITH_TIMEOUT(!page->isLoading() && page->current(), kWaitMs);
    QStatusBar* bar = m_window->statusBar();
    page->setAnnotator(QString());
    QVERIFY(!page->labelCurrent(creditlab::Role::D));
    QVERIFY2(
        bar->currentMessage().startsWith(QStringLiteral("Type an annotator name")), qPrintable(bar->currentMessage()));
    page->setAnnotator(QStringLiteral("ann"));
    QVERIFY(page->labelCurrent(creditlab::Role::D));
    QCOMPARE(bar->currentMessage(), QString());
    // Someone else's message is not the page's to take down.
    bar->showMessage(QStringLiteral("Imported something"), 10000);
    QVERIFY(page->labelCurrent(creditlab::Role::E));
    QCOMPARE(bar->currentMessage(), QStringLiteral("Imported something"));
}

QTEST_MAIN(TestMainWindow)
#include "tst_ui_mainwindow.moc"
