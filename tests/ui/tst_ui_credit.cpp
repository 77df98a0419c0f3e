// The credit page in the main window, offscreen: a run's stored credits load in the background into the heatmap
// (the run's own method and its nearest rival by default), the per-role distribution fills, and clicking a cell opens
// that turn in the Runs page's trajectory viewer; the disagreement summary lists and finds the turns two methods
// disagree on; the blocks and controls fit a 1280 × 720 window; another database replaces everything the page read.
// Also the Agreement tab is there. The distribution spans the heatmap's clipped colour range and says so (issue 38).
#include "core/storage/store.h"
#include "ui/charts/colours.h"
#include "ui/charts/linechart.h"
#include "ui/credit/creditpage.h"
#include "ui/credit/disagreementmodels.h"
#include "ui/credit/disagreementpanel.h"
#include "ui/heatmap/creditheatmapview.h"
#include "ui/heatmap/heatmaplegend.h"
#include "ui/runs/runbrowserpage.h"
#include "ui/runs/trajectoryviewerpage.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/settings.h"
#include "ui/shell/workspace.h"
#include "ui/trees/treepage.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QScrollBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

using namespace creditlab;
using namespace creditlab::ui;

namespace {

/// A method's credit of turn `turn` of trajectory `trajectory`.
struct MethodCredits {
    std::string method;
    std::function<double(int trajectory, int turn)> credit;
};

/// Adds a run of `trajectories` trajectories with `turns` turns each per iteration (iterations 1…`iterations`; 0: an
/// import without iterations), with the credits of `methods`; a training run of `trained` when that is not empty.
qint64 addRun(Store& store, const std::string& name, const std::string& trained, int iterations, int trajectories,
    int turns, const std::vector<MethodCredits>& methods)
{
    const qint64 runId
        = store.createRun({ name, trained.empty() ? RunKind::Import : RunKind::Train, RunStatus::Finished, {} });
    int ord = 0;
    for (int it = iterations == 0 ? 0 : 1; it <= iterations; ++it) {
        for (int i = 0; i < trajectories; ++i) {
            Trajectory t;
            t.id = "it" + std::to_string(it) + "-t" + std::to_string(i);
            t.group = "g" + std::to_string(i / 2);
            t.reward = i % 2;
            if (iterations > 0)
                t.iteration = it;
            for (int k = 0; k < turns; ++k) {
                Turn turn;
                turn.observation = "obs " + std::to_string(k);
                turn.action = "act " + std::to_string(k);
                t.turns.push_back(turn);
            }
            const auto row = store.insertTrajectory(runId, ord++, t);
            for (const auto& m : methods) {
                std::vector<double> values(static_cast<std::size_t>(turns));
                for (int k = 0; k < turns; ++k)
                    values[static_cast<std::size_t>(k)] = m.credit(i, k);
                store.writeCredits(row, m.method, values);
            }
        }
    }
    if (!trained.empty())
        store.setRunShape(runId, RunShape { trained, "household", 0, 32, 1, iterations });
    return runId;
}

double zero(int, int) { return 0.0; }

QStringList listedMethods(CreditPage* page)
{
    QStringList out;
    auto* list = page->findChild<QListWidget*>(QStringLiteral("creditMethods"));
    for (int i = 0; list && i < list->count(); ++i)
        out << list->item(i)->text();
    return out;
}

QStringList listedIterations(CreditPage* page)
{
    QStringList out;
    auto* combo = page->findChild<QComboBox*>(QStringLiteral("creditIteration"));
    for (int i = 0; combo && i < combo->count(); ++i)
        out << combo->itemText(i);
    return out;
}

Turn turnOf(const std::string& observation, const std::string& action)
{
    Turn turn;
    turn.observation = observation;
    turn.action = action;
    return turn;
}

QComboBox* runChooser(QWidget* page, const char* name) { return page->findChild<QComboBox*>(QLatin1String(name)); }

/// Picks `runId` in a page's run chooser as a user does (the chooser's activated signal).
void pickRun(QComboBox* combo, qint64 runId)
{
    const int index = combo->findData(QVariant::fromValue<qint64>(runId));
    QVERIFY(index >= 0);
    combo->setCurrentIndex(index);
    Q_EMIT combo->activated(index);
}

} // namespace

class TestCredit : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void heatmapLoadsAndOpensTurns();
    void computesCreditsOfAnImportedRun();
    void selectedRunLoadsWhenThePageFirstShows();
    void defaultsToTheRunsOwnMethodAndItsRival();
    void fitsA1280By720Window();
    void disagreementSummaryFindsTurns();
    void anotherDatabaseReplacesEverything();
    void creditAndTreesFollowTheRunSelectedInRuns();
    void anotherDatabaseForgetsTheFollowedRun();
    void zeroCreditIsExplained();
    void distributionClippedAsTheHeatmap();
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
    QTRY_VERIFY_WITH_TIMEOUT(
        window.credit()->view()->data() && !window.credit()->view()->data()->methods.empty(), 10000);
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
    QCOMPARE(view->methodBlockCount(), 2); // the run's own method and its rival, so that disagreement shows at once
    QCOMPARE(page->shownMethods(), (QStringList { QStringLiteral("triage"), QStringLiteral("grpo") }));
    const auto& mask = view->disagreementMask();
    QVERIFY(std::count(mask.begin(), mask.end(), 1) == 3 + 4 + 5 + 6); // every turn disagrees in sign
    QVERIFY(page->distributionChart()->seriesCount() >= 2); // roles D and E of the first method
    // Each role keeps its fixed colour, redraw after redraw (series ids grow; colours once followed them).
    const auto roleColours = [page] {
        QSet<QRgb> out;
        for (int id = 0; id < 1000; ++id)
            if (const QColor c = page->distributionChart()->seriesColor(id); c.isValid())
                out.insert(c.rgb());
        return out;
    };
    const QSet<QRgb> fixed { ui::colours::role('D').rgb(), ui::colours::role('E').rgb() };
    QCOMPARE(roleColours(), fixed);
    auto* distributionMethod = page->findChild<QComboBox*>(QStringLiteral("distributionMethod"));
    QVERIFY(distributionMethod);
    for (int i = 0; i < distributionMethod->count() * 2; ++i)
        distributionMethod->setCurrentIndex((distributionMethod->currentIndex() + 1) % distributionMethod->count());
    QVERIFY(roleColours().size() >= 1);
    for (const QRgb c : roleColours())
        QVERIFY(c == ui::colours::role('D').rgb() || c == ui::colours::role('E').rgb()
            || c == ui::colours::role('N').rgb() || c == ui::colours::role('R').rgb()
            || c == ui::colours::role('?').rgb());
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

/// Until the user picks, the heatmap shows the run's own method and its nearest rival, skipping all-zero credits (issue
/// 20): not the first two alphabetically (gigpo, grpo), which are all zero on a run without successes.
void TestCredit::defaultsToTheRunsOwnMethodAndItsRival()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    qint64 runId = 0;
    {
        Store store(db.toStdString());
        runId = addRun(store, "no successes", "triage", 1, 6, 4,
            { { "gigpo", zero }, { "grpo", zero }, { "pair", [](int, int k) { return k % 2 ? 0.8 : -0.8; } },
                { "triage", [](int i, int k) { return 0.1 * (i + k + 1); } } });
    }
    MainWindow window(std::make_unique<Settings>(dir.filePath(QStringLiteral("settings.ini"))));
    QVERIFY(window.openDatabase(db));
    window.resize(1280, 720);
    window.show();
    CreditPage* page = window.credit();
    window.showPage(MainWindow::Page::Credit);
    QTRY_VERIFY_WITH_TIMEOUT(page->view()->data() && page->view()->data()->methods.size() == 4, 10000);
    QCOMPARE(page->runId(), runId);
    QCOMPARE(page->trainedMethod(), QStringLiteral("triage"));
    QCOMPARE(page->shownMethods(), (QStringList { QStringLiteral("triage"), QStringLiteral("pair") }));
    QVERIFY(page->view()->colorScale().limit > 0.0); // not the ±0 of two all-zero methods
    QCOMPARE(page->legend()->entries().filter(QStringLiteral("signs disagree")),
        QStringList { QStringLiteral("signs disagree (triage vs pair)") });

    // A pick of the user's own outlives a reload.
    page->setMethods({ QStringLiteral("grpo"), QStringLiteral("triage") });
    QSignalSpy loaded(page, &CreditPage::loaded);
    page->showRun(runId);
    QVERIFY(loaded.wait(10000));
    QCOMPARE(page->shownMethods(), (QStringList { QStringLiteral("grpo"), QStringLiteral("triage") }));
}

/// In a 1280 × 720 window (the page gets about 1280 × 620 of it) both method blocks fit the heatmap without scrolling
/// (the cells narrow) and no control is cut off. The page alone: the main window as a whole is held wider by another
/// page's minimum width.
void TestCredit::fitsA1280By720Window()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    {
        Store store(db.toStdString());
        addRun(store, "a run with a rather long name that could push the controls out of the window", "triage", 1, 40,
            50, { { "grpo", [](int i, int) { return i % 2 ? 0.5 : -0.5; } }, { "triage", [](int i, int k) {
                                                                                  return 0.01 * (k + 1) * (i % 3 - 1);
                                                                              } } });
    }
    Workspace workspace;
    QVERIFY(workspace.open(db));
    CreditPage credit(&workspace);
    CreditPage* page = &credit;
    page->resize(1280, 620);
    page->show();
    QVERIFY(QTest::qWaitForWindowExposed(page));
    QCOMPARE(page->size(), QSize(1280, 620));
    QTRY_VERIFY_WITH_TIMEOUT(page->view()->data() && page->view()->methodBlockCount() == 2, 10000);
    auto* view = page->view();
    const QRect viewport = view->viewport()->rect();
    for (const int method : view->shownMethods()) {
        QVERIFY(viewport.contains(view->cellRect(0, 0, method)));
        QVERIFY2(viewport.contains(view->cellRect(0, 49, method)),
            qPrintable(QStringLiteral("method %1: last cell at x %2, viewport %3 wide")
                           .arg(method)
                           .arg(view->cellRect(0, 49, method).right())
                           .arg(viewport.width())));
    }
    QCOMPARE(view->horizontalScrollBar()->maximum(), 0);
    // Every control lies inside the page, with at least its minimum size.
    QVERIFY2(page->minimumSizeHint().width() <= page->width(),
        qPrintable(QStringLiteral("%1 > %2").arg(page->minimumSizeHint().width()).arg(page->width())));
    QList<QWidget*> controls;
    for (auto* w : page->findChildren<QComboBox*>())
        controls << w;
    for (auto* w : page->findChildren<QToolButton*>())
        controls << w;
    controls << page->legend() << page->disagreementPanel() << view;
    for (QWidget* w : controls) {
        if (!w->isVisible())
            continue;
        const QRect r(w->mapTo(page, QPoint(0, 0)), w->size());
        QVERIFY2(page->rect().contains(r) && w->width() >= w->minimumSizeHint().width() && w->height() > 0,
            qPrintable(w->objectName() + QStringLiteral(" ") + QString::fromLatin1(w->metaObject()->className())));
    }
    QVERIFY(page->disagreementPanel()->turnView()->height() > 0);
}

/// The summary gives each pair's share of disagreeing turns and the turns they disagree on most, numbered from 1; a
/// click finds the turn in the heatmap, a double click opens it (issue 20).
void TestCredit::disagreementSummaryFindsTurns()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    qint64 runId = 0;
    {
        Store store(db.toStdString());
        // 8 trajectories × 5 turns. grpo: +1 on successes (odd i), −1 on failures. triage: 0.1·(k + 1)·(i + 1), always
        // positive: it disagrees on the 20 failure turns; the largest gap is |−1 − 0.1·5·7| = 4.5 at i = 6, k = 4.
        runId = addRun(store, "summary", "grpo", 1, 8, 5,
            { { "grpo", [](int i, int) { return i % 2 ? 1.0 : -1.0; } },
                { "triage", [](int i, int k) { return 0.1 * (k + 1) * (i + 1); } }, { "rtmc", zero } });
    }
    MainWindow window(std::make_unique<Settings>(dir.filePath(QStringLiteral("settings.ini"))));
    QVERIFY(window.openDatabase(db));
    window.resize(1280, 720);
    window.show();
    CreditPage* page = window.credit();
    window.showPage(MainWindow::Page::Credit);
    QTRY_VERIFY_WITH_TIMEOUT(page->view()->data() && page->view()->data()->methods.size() == 3, 10000);
    DisagreementPanel* panel = page->disagreementPanel();
    QAbstractItemModelTester pairTester(panel->pairModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester turnTester(panel->turnModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    PairDisagreementModel* pairs = panel->pairModel();
    // Methods grpo, rtmc, triage; rtmc is all zero, so only grpo–triage has turns to compare.
    QCOMPARE(pairs->rowCount(), 1);
    QCOMPARE(pairs->rowOf(0, 1), -1);
    const int gt = pairs->rowOf(0, 2);
    QVERIFY(gt >= 0);
    const auto cell
        = [pairs, gt](PairDisagreementModel::Column c) { return pairs->index(gt, int(c)).data().toString(); };
    QCOMPARE(cell(PairDisagreementModel::Column::Methods), QStringLiteral("grpo vs triage"));
    QCOMPARE(cell(PairDisagreementModel::Column::Disagreeing), QStringLiteral("20 of 40"));
    QCOMPARE(cell(PairDisagreementModel::Column::Share), QStringLiteral("50.0 %"));

    // The shown pair (grpo and its standard rival triage) is the one whose top turns are listed.
    QCOMPARE(page->shownMethods(), (QStringList { QStringLiteral("grpo"), QStringLiteral("triage") }));
    QTableView* turns = panel->turnView();
    QCOMPARE(turns->model()->rowCount(), 20);
    const auto top
        = [turns](DisagreeingTurnModel::Column c) { return turns->model()->index(0, int(c)).data().toString(); };
    QCOMPARE(top(DisagreeingTurnModel::Column::Trajectory), QStringLiteral("it1-t6"));
    QCOMPARE(top(DisagreeingTurnModel::Column::Turn), QStringLiteral("5")); // turn index 4, numbered from 1
    QCOMPARE(top(DisagreeingTurnModel::Column::First), QStringLiteral("-1"));
    QCOMPARE(top(DisagreeingTurnModel::Column::Gap), QStringLiteral("4.5"));
    QCOMPARE(turns->model()->headerData(int(DisagreeingTurnModel::Column::First), Qt::Horizontal).toString(),
        QStringLiteral("grpo"));

    // A click finds the cell in the heatmap; the tooltip numbers the turn from 1 too.
    const QModelIndex first = turns->model()->index(0, 0);
    turns->scrollTo(first);
    QTest::mouseClick(turns->viewport(), Qt::LeftButton, {}, turns->visualRect(first).center());
    const auto selected = page->view()->selectedCell();
    QVERIFY(selected && selected->first == 6 && selected->second == 4);
    QVERIFY(page->view()->toolTipText(6, 4).contains(QStringLiteral("Trajectory it1-t6, turn 5")));
    // A double click opens it.
    QTest::mouseDClick(turns->viewport(), Qt::LeftButton, {}, turns->visualRect(first).center());
    QCOMPARE(window.tabs()->currentIndex(), int(MainWindow::Page::Runs));
    QCOMPARE(window.runBrowser()->currentRunId(), runId);
    QCOMPARE(window.trajectoryViewer()->currentTurn(), 4);
}

/// File → Open Database replaces all the page read from the old database, visible or not, without F5 (issue 20).
void TestCredit::anotherDatabaseReplacesEverything()
{
    QTemporaryDir dir;
    const QString first = dir.filePath(QStringLiteral("first.db"));
    const QString second = dir.filePath(QStringLiteral("second.db"));
    qint64 firstRun = 0, secondRun = 0;
    std::vector<std::int64_t> secondIterations;
    {
        Store store(first.toStdString());
        firstRun = addRun(store, "first", "triage", 3, 4, 3,
            { { "grpo", [](int i, int) { return i % 2 ? 1.0 : -1.0; } },
                { "triage", [](int, int k) { return 0.1 * (k + 1); } } });
    }
    {
        Store store(second.toStdString());
        addRun(store, "second, older", "", 0, 2, 2, { { "rtmc", zero } });
        secondRun = addRun(store, "second", "", 0, 5, 4,
            { { "pair", [](int, int k) { return k % 2 ? 0.3 : -0.3; } },
                { "rtmc", [](int i, int) { return 0.2 * (i + 1); } } });
        secondIterations = store.iterations(secondRun);
    }
    QStringList expectedIterations { QStringLiteral("all") };
    for (const auto it : secondIterations)
        expectedIterations << QString::number(it);

    MainWindow window(std::make_unique<Settings>(dir.filePath(QStringLiteral("settings.ini"))));
    QVERIFY(window.openDatabase(first));
    window.resize(1280, 720);
    window.show();
    CreditPage* page = window.credit();
    window.showPage(MainWindow::Page::Credit);
    QTRY_COMPARE_WITH_TIMEOUT(
        listedMethods(page), (QStringList { QStringLiteral("grpo"), QStringLiteral("triage") }), 10000);
    QCOMPARE(page->runId(), firstRun);
    QCOMPARE(listedIterations(page), (QStringList { "all", "1", "2", "3" }));
    page->setMethods({ QStringLiteral("grpo") });

    // Not shown: nothing of the first database is left behind for the page to show.
    window.showPage(MainWindow::Page::Runs);
    QVERIFY(window.openDatabase(second));
    QVERIFY(listedMethods(page).isEmpty());
    QCOMPARE(listedIterations(page), QStringList { QStringLiteral("all") });
    QVERIFY(!page->view()->data());
    QVERIFY(page->trainedMethod().isEmpty());
    window.showPage(MainWindow::Page::Credit);
    QTRY_COMPARE_WITH_TIMEOUT(
        listedMethods(page), (QStringList { QStringLiteral("pair"), QStringLiteral("rtmc") }), 10000);
    QCOMPARE(page->runId(), secondRun);
    QCOMPARE(listedIterations(page), expectedIterations);
    QCOMPARE(page->view()->data()->rows.size(), std::size_t(5));
    QCOMPARE(page->view()->methodBlockCount(), 2); // the defaults again: the pick in the first database is gone

    // Shown: the first database comes back by itself.
    QVERIFY(window.openDatabase(first));
    QTRY_COMPARE_WITH_TIMEOUT(
        listedMethods(page), (QStringList { QStringLiteral("grpo"), QStringLiteral("triage") }), 10000);
    QCOMPARE(page->runId(), firstRun);
    QCOMPARE(listedIterations(page), (QStringList { "all", "1", "2", "3" }));
    QTRY_COMPARE_WITH_TIMEOUT(page->view()->data()->rows.size(), std::size_t(4), 10000); // the last iteration
}

/// Credit and Trees show the run selected in Runs (item 6 of issue 35): a hidden page when it next appears, a visible
/// one at once; a run picked on the page afterwards stays until Runs selects another.
void TestCredit::creditAndTreesFollowTheRunSelectedInRuns()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    qint64 a = 0, b = 0, c = 0;
    {
        Store store(db.toStdString());
        const auto credit = [](int i, int) { return i % 2 ? 1.0 : -1.0; };
        a = addRun(store, "a", "", 0, 4, 2, { { "grpo", credit } });
        b = addRun(store, "b", "", 0, 6, 2, { { "grpo", credit } });
        c = addRun(store, "c", "", 0, 8, 2, { { "grpo", credit } });
    }
    MainWindow window(std::make_unique<Settings>(dir.filePath(QStringLiteral("settings.ini"))));
    QVERIFY(window.openDatabase(db));
    window.resize(1280, 720);
    window.show();
    CreditPage* credit = window.credit();
    TreePage* trees = window.trees();
    QCOMPARE(window.runBrowser()->currentRunId(), c); // the newest

    // Hidden pages: the chooser names the run at once, and it loads when the page appears.
    QVERIFY(window.runBrowser()->selectRun(a));
    QCOMPARE(runChooser(credit, "creditRun")->currentData().toLongLong(), a);
    window.showPage(MainWindow::Page::Credit);
    QCOMPARE(credit->runId(), a);
    QTRY_VERIFY_WITH_TIMEOUT(credit->view()->data() && credit->view()->data()->rows.size() == 4, 10000);
    window.showPage(MainWindow::Page::Trees);
    QCOMPARE(trees->runId(), a);

    // A visible page follows at once.
    QVERIFY(window.runBrowser()->selectRun(b));
    QCOMPARE(trees->runId(), b);
    window.showPage(MainWindow::Page::Credit);
    QCOMPARE(credit->runId(), b);
    QTRY_VERIFY_WITH_TIMEOUT(credit->view()->data() && credit->view()->data()->rows.size() == 6, 10000);

    // The user's own pick on a page wins over the older selection in Runs, across page changes and reloads.
    pickRun(runChooser(credit, "creditRun"), c);
    QCOMPARE(credit->runId(), c);
    window.showPage(MainWindow::Page::Runs);
    window.workspace()->notifyRunsChanged();
    window.showPage(MainWindow::Page::Credit);
    QCOMPARE(credit->runId(), c);
    QTRY_VERIFY_WITH_TIMEOUT(credit->view()->data() && credit->view()->data()->rows.size() == 8, 10000);
    window.showPage(MainWindow::Page::Trees);
    QCOMPARE(trees->runId(), b); // Trees was not touched

    // Until Runs selects another run: that is the latest choice again.
    window.showPage(MainWindow::Page::Runs);
    QVERIFY(window.runBrowser()->selectRun(a));
    window.showPage(MainWindow::Page::Credit);
    QCOMPARE(credit->runId(), a);
    window.showPage(MainWindow::Page::Trees);
    QCOMPARE(trees->runId(), a);
}

/// A run selected in Runs for a hidden page is a run id of that database: another database never shows it.
void TestCredit::anotherDatabaseForgetsTheFollowedRun()
{
    QTemporaryDir dir;
    const QString first = dir.filePath(QStringLiteral("first.db"));
    const QString second = dir.filePath(QStringLiteral("second.db"));
    {
        Store store(first.toStdString());
        for (const char* name : { "one", "two", "three" })
            addRun(store, name, "", 0, 2, 1, { { "grpo", [](int i, int) { return i ? 1.0 : -1.0; } } });
    }
    {
        Store store(second.toStdString());
    } // empty
    MainWindow window(std::make_unique<Settings>(dir.filePath(QStringLiteral("settings.ini"))));
    QVERIFY(window.openDatabase(first));
    window.resize(1280, 720);
    window.show();
    QVERIFY(window.runBrowser()->selectRun(1)); // Credit and Trees are hidden: both keep run 1 for later
    QVERIFY(window.openDatabase(second));
    QCOMPARE(window.credit()->runId(), 0);
    QCOMPARE(runChooser(window.credit(), "creditRun")->count(), 0);
    // The second database gets two runs (ids 1 and 2) while nothing is selected in Runs: the pages show its newest
    // run, as with any database, not the first database's run 1.
    qint64 newest = 0;
    {
        Store* store = window.workspace()->store();
        addRun(*store, "first of second", "", 0, 2, 1, { { "grpo", zero } });
        newest = addRun(*store, "second of second", "", 0, 2, 1, { { "grpo", zero } });
    }
    window.workspace()->notifyRunsChanged();
    QCOMPARE(window.runBrowser()->currentRunId(), 0);
    window.showPage(MainWindow::Page::Credit);
    QCOMPARE(window.credit()->runId(), newest);
    window.showPage(MainWindow::Page::Trees);
    QCOMPARE(window.trees()->runId(), newest);
}

/// When every credit of a method is 0, the page says why and what would change it (issue 35, item 7), in a line above
/// the heatmap; a run with mixed outcomes in its groups has none.
void TestCredit::zeroCreditIsExplained()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    qint64 single = 0, uniform = 0, varied = 0;
    {
        Store store(db.toStdString());
        // One rollout per group (group-relative credit is 0 everywhere).
        single = store.createRun({ "single", RunKind::Import, RunStatus::Finished, {} });
        for (int i = 0; i < 3; ++i) {
            Trajectory t;
            t.id = "s" + std::to_string(i);
            t.group = "task-" + std::to_string(i);
            t.reward = i % 2;
            t.turns.push_back(turnOf("obs", "act"));
            t.turns.push_back(turnOf("obs 2", "act 2"));
            store.writeCredits(store.insertTrajectory(single, i, t), "grpo", std::vector<double> { 0.0, 0.0 });
        }
        // Groups of two with the same reward in each: grpo is 0, rtmc is not.
        uniform = store.createRun({ "uniform", RunKind::Import, RunStatus::Finished, {} });
        for (int i = 0; i < 4; ++i) {
            Trajectory t;
            t.id = "u" + std::to_string(i);
            t.group = "g" + std::to_string(i / 2);
            t.reward = i / 2;
            t.turns.push_back(turnOf("obs", "act"));
            const auto row = store.insertTrajectory(uniform, i, t);
            store.writeCredits(row, "grpo", std::vector<double> { 0.0 });
            store.writeCredits(row, "rtmc", std::vector<double> { 0.5 * (i + 1) });
        }
        varied = addRun(store, "varied", "", 0, 4, 2, { { "grpo", [](int i, int) { return i % 2 ? 1.0 : -1.0; } } });
    }
    MainWindow window(std::make_unique<Settings>(dir.filePath(QStringLiteral("settings.ini"))));
    QVERIFY(window.openDatabase(db));
    window.resize(1280, 720);
    window.show();
    window.showPage(MainWindow::Page::Credit);
    CreditPage* page = window.credit();
    QLabel* banner = page->zeroCreditBanner();
    QVERIFY(banner);

    page->showRun(single);
    QTRY_VERIFY_WITH_TIMEOUT(page->view()->data() && page->view()->data()->rows.size() == 3, 10000);
    QVERIFY(banner->isVisible());
    QCOMPARE(banner->textFormat(), Qt::PlainText);
    const QString text = banner->text();
    QVERIFY2(text.startsWith(QStringLiteral("Every grpo advantage is 0 (6 turns of 3 trajectories in 3 groups)")),
        qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("every group holds one rollout")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("one group id")), qPrintable(text)); // what would change it

    page->showRun(varied);
    QTRY_VERIFY_WITH_TIMEOUT(page->view()->data() && page->view()->data()->rows.size() == 4
            && page->view()->data()->methods == std::vector<std::string> { "grpo" },
        10000);
    QVERIFY(!banner->isVisible());
    QVERIFY(banner->text().isEmpty());

    // Only grpo is all zero: the banner says why, though the default view shows rtmc (the non-zero method).
    page->showRun(uniform);
    QTRY_VERIFY_WITH_TIMEOUT(page->view()->data() && page->view()->data()->methods.size() == 2, 10000);
    QVERIFY(banner->isVisible());
    QVERIFY2(banner->text().contains(QStringLiteral("same reward")), qPrintable(banner->text()));
    QVERIFY2(!banner->text().contains(QStringLiteral("rtmc")), qPrintable(banner->text()));
}

/// Issue 38: the heatmap clips its colours at the 98th percentile of |advantage|, but the distribution below spanned
/// the largest |advantage|: one outlier of 50 put every other turn (|a| ≤ 0.1) into the middle bins. It spans the
/// heatmap's range, the turns beyond fall into the end bins, and its title says it is clipped.
void TestCredit::distributionClippedAsTheHeatmap()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    qint64 runId = 0;
    {
        Store store(db.toStdString());
        const auto credit
            = [](int i, int k) { return i == 0 && k == 0 ? 50.0 : (i % 2 ? 1.0 : -1.0) * 0.01 * (k + 1); };
        runId = addRun(store, "outlier", "", 0, 8, 10, { { "grpo", credit } });
    }
    Workspace workspace;
    workspace.setPollInterval(0);
    QVERIFY(workspace.open(db));
    CreditPage page(&workspace);
    page.resize(1200, 800);
    page.show();
    QSignalSpy loaded(&page, &CreditPage::loaded);
    page.showRun(runId);
    QVERIFY(loaded.count() > 0 || loaded.wait(10000));
    const heatmap::ColorScale& scale = page.view()->colorScale();
    QVERIFY(scale.clipped());
    QCOMPARE(scale.maxAbs, 50.0);
    QVERIFY2(scale.limit < 0.2, qPrintable(QString::number(scale.limit)));
    charts::LineChart* chart = page.distributionChart();
    QVERIFY(chart->seriesCount() > 0);
    const auto range = chart->dataXRange();
    QVERIFY(range);
    // Bin centres: within the heatmap's range, not out to ±50.
    QVERIFY2(range->first >= -scale.limit && range->second <= scale.limit,
        qPrintable(QStringLiteral("%1 .. %2, limit %3").arg(range->first).arg(range->second).arg(scale.limit)));
    QVERIFY2(range->second > 0.9 * scale.limit, qPrintable(QString::number(range->second)));
    const QString title = chart->title();
    QVERIFY2(title.contains(QStringLiteral("clipped")) && title.contains(QStringLiteral("1 turn(s) beyond")),
        qPrintable(title));
    QVERIFY2(title.contains(QString::number(scale.limit, 'g', 3)), qPrintable(title));
    QVERIFY2(chart->toolTip().contains(QStringLiteral("colour range")), qPrintable(chart->toolTip()));

    // A limit set on the heatmap applies too; none reached: no clip to speak of.
    page.view()->setColorLimit(100.0);
    page.setMethods({ QStringLiteral("grpo") });
    QVERIFY2(!chart->title().contains(QStringLiteral("clipped")), qPrintable(chart->title()));
    QVERIFY(chart->dataXRange()->second > 90.0);

    // Another database, with no runs: nothing of this one's distribution is left, its title neither.
    page.view()->setColorLimit(std::nullopt); // the 98th percentile again: clipped
    page.setMethods({ QStringLiteral("grpo") });
    QVERIFY2(chart->title().contains(QStringLiteral("clipped")), qPrintable(chart->title()));
    QVERIFY(workspace.open(dir.filePath(QStringLiteral("empty.db"))));
    QCOMPARE(chart->seriesCount(), 0);
    QCOMPARE(chart->title(), QStringLiteral("Advantages per role"));
    QVERIFY(chart->toolTip().isEmpty());
}

QTEST_MAIN(TestCredit)
#include "tst_ui_credit.moc"
