// The credit page in the main window, offscreen: a run's stored credits load in the background into the heatmap
// (two methods side by side by default), the per-role distribution fills, and clicking a cell opens that turn in
// the Runs page's trajectory viewer. Also the Agreement tab is there.
#include "core/store.h"
#include "ui/charts/linechart.h"
#include "ui/credit/creditpage.h"
#include "ui/heatmap/creditheatmapview.h"
#include "ui/shell/mainwindow.h"
#include "ui/runs/runbrowserpage.h"
#include "ui/shell/settings.h"
#include "ui/trees/treepage.h"
#include "ui/runs/trajectoryviewerpage.h"

#include <QListWidget>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace creditlab;
using namespace creditlab::ui;

class TestCredit : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void heatmapLoadsAndOpensTurns();
    void computesCreditsOfAnImportedRun();
    void selectedRunLoadsWhenThePageFirstShows();
};

/// The Credit and Trees pages load the run their run list shows when they first appear, without a pick or F5 (issue
/// 20, finding 3): with one run in the database there is no other run to pick.
void TestCredit::selectedRunLoadsWhenThePageFirstShows()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    qint64 runId = 0;
    {
        Store store(db.toStdString());
        runId = store.createRun({ "only run", RunKind::Import, RunStatus::Finished, {} });
        for (int i = 0; i < 2; ++i) {
            Trajectory t;
            t.id = "t" + std::to_string(i);
            t.group = "g";
            t.reward = i;
            Turn turn;
            turn.observation = "obs";
            turn.action = "act " + std::to_string(i);
            t.turns.push_back(turn);
            const auto row = store.insertTrajectory(runId, 0, t);
            const std::vector<double> credit { i ? 1.0 : -1.0 };
            store.writeCredits(row, "grpo", credit);
        }
    }
    MainWindow window(std::make_unique<Settings>(dir.filePath(QStringLiteral("settings.ini"))));
    QVERIFY(window.openDatabase(db));
    window.resize(1200, 800);
    window.show();
    window.showPage(MainWindow::Page::Credit);
    QTRY_COMPARE_WITH_TIMEOUT(window.credit()->runId(), runId, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(window.credit()->view()->data() && !window.credit()->view()->data()->methods.empty(), 10000);
    window.showPage(MainWindow::Page::Trees);
    QTRY_COMPARE_WITH_TIMEOUT(window.trees()->runId(), runId, 10000);
}

void TestCredit::heatmapLoadsAndOpensTurns()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    qint64 runId = 0;
    std::vector<std::int64_t> rows;
    {
        Store store(db.toStdString());
        runId = store.createRun({ "credits", RunKind::Import, RunStatus::Finished, {} });
        for (int i = 0; i < 4; ++i) {
            Trajectory t;
            t.id = "t" + std::to_string(i);
            t.group = "g" + std::to_string(i / 2);
            t.reward = i % 2 ? 1.0 : 0.0;
            for (int k = 0; k < 3 + i; ++k) {
                Turn turn;
                turn.observation = "obs " + std::to_string(k);
                turn.action = "act " + std::to_string(i) + "." + std::to_string(k);
                turn.role = k % 2 ? Role::E : Role::D;
                t.turns.push_back(turn);
            }
            const auto row = store.insertTrajectory(runId, i, t);
            rows.push_back(row);
            std::vector<double> a(t.turns.size()), b(t.turns.size());
            for (std::size_t k = 0; k < a.size(); ++k) {
                a[k] = (i % 2 ? 1.0 : -1.0) * 0.1 * double(k + 1);
                b[k] = -a[k]; // the second method disagrees in sign everywhere
            }
            store.writeCredits(row, "grpo", a);
            store.writeCredits(row, "triage", b);
        }
        store.setRunShape(runId, RunShape { "triage", "household", 0, 32, 1, 3 }); // it trained with triage
        QCOMPARE(store.runOfTrajectory(rows[2]), std::optional<std::int64_t>(runId));
        QCOMPARE(store.runOfTrajectory(rows.back() + 100), std::optional<std::int64_t>());
    }
    MainWindow window(std::make_unique<Settings>(dir.filePath(QStringLiteral("settings.ini"))));
    QVERIFY(window.openDatabase(db));
    window.resize(1200, 800);
    window.show();
    CreditPage* page = window.credit();
    QSignalSpy loaded(page, &CreditPage::loaded);
    window.showPage(MainWindow::Page::Credit);
    page->showRun(runId);
    QVERIFY(loaded.wait(10000));
    auto* view = page->view();
    QVERIFY(view->data());
    QCOMPARE(view->data()->rows.size(), std::size_t(4));
    QCOMPARE(view->methodBlockCount(), 2); // the first two methods, so that disagreement shows at once
    const auto& mask = view->disagreementMask();
    QVERIFY(std::count(mask.begin(), mask.end(), 1) == 3 + 4 + 5 + 6); // every turn disagrees in sign
    QVERIFY(page->distributionChart()->seriesCount() >= 2); // roles D and E of the first method
    // The method the run trained with is marked; grpo's credits are shadow credits.
    QCOMPARE(page->trainedMethod(), QStringLiteral("triage"));
    auto* methods = page->findChild<QListWidget*>();
    QVERIFY(methods);
    for (int i = 0; i < methods->count(); ++i)
        QCOMPARE(methods->item(i)->font().bold(), methods->item(i)->text() == QStringLiteral("triage"));

    page->setMethods({ QStringLiteral("triage") });
    QCOMPARE(view->methodBlockCount(), 1);

    // A click on a cell opens the turn where its text is read.
    Q_EMIT view->turnActivated(rows[3], 4);
    QCOMPARE(window.tabs()->currentIndex(), int(MainWindow::Page::Runs));
    QCOMPARE(window.runBrowser()->currentRunId(), runId);
    QCOMPARE(window.runBrowser()->currentTrajectoryRowId(), qint64(rows[3]));
    QCOMPARE(window.trajectoryViewer()->currentTurn(), 4);
    QCOMPARE(window.tabs()->count(), 9); // Runs, Launch, Monitor, Compare, Sweeps, Credit, Trees, Annotate, Agreement
}

void TestCredit::computesCreditsOfAnImportedRun()
{
    // An imported run has no credits until something computes them: the page does, in the background.
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    qint64 runId = 0, empty = 0;
    {
        Store store(db.toStdString());
        runId = store.createRun({ "imported", RunKind::Import, RunStatus::Finished, {} });
        for (int i = 0; i < 4; ++i) {
            Trajectory t;
            t.id = "t" + std::to_string(i);
            t.group = "g";
            t.reward = i < 2 ? 1.0 : 0.0;
            for (int k = 0; k < 3; ++k) {
                Turn turn;
                turn.observation = "room " + std::to_string(k + (i % 2));
                turn.action = "go " + std::to_string(k);
                t.turns.push_back(turn);
            }
            store.insertTrajectory(runId, i, t);
        }
        empty = store.createRun({ "empty", RunKind::Import, RunStatus::Finished, {} });
    }
    MainWindow window(std::make_unique<Settings>(dir.filePath(QStringLiteral("settings.ini"))));
    QVERIFY(window.openDatabase(db));
    CreditPage* page = window.credit();
    QSignalSpy loaded(page, &CreditPage::loaded);
    QSignalSpy computed(page, &CreditPage::creditsComputed);
    QSignalSpy failed(page, &CreditPage::errorOccurred);
    page->showRun(runId);
    QVERIFY(loaded.wait(10000));
    QVERIFY(!page->view()->data() || page->view()->data()->methods.empty());
    page->computeCredits({ QStringLiteral("grpo"), QStringLiteral("rtmc") });
    QVERIFY(computed.wait(10000));
    QCOMPARE(computed.first().at(1).toLongLong(), 2 * 12); // two methods × 12 turns
    QTRY_VERIFY_WITH_TIMEOUT(page->view()->data() && page->view()->data()->methods.size() == 2, 10000);
    Store store(db.toStdString());
    QCOMPARE(store.creditMethods(runId), (std::vector<std::string> { "grpo", "rtmc" }));

    // A run without trajectories: a clear error, nothing stored.
    page->showRun(empty);
    page->computeCredits({ QStringLiteral("grpo") });
    QVERIFY(failed.wait(10000));
    QVERIFY2(failed.last().first().toString().contains(QLatin1String("no trajectories")),
        qPrintable(failed.last().first().toString()));
    QVERIFY(store.creditMethods(empty).empty());
}

QTEST_MAIN(TestCredit)
#include "tst_ui_credit.moc"
