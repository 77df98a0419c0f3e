// The Agreement page: a temp store with hand-made labels (an oracle judge and two human annotators); the page's
// numbers equal the core functions `creditlab-cli agreement` uses and hand-computed values; clicking a matrix
// cell lists exactly its turns; CSV export; both models under QAbstractItemModelTester; stale loads dropped; the
// matrix as counts or row shares; the bootstrap interval on kappa next to kappa, the core's numbers, off the GUI
// thread. The page opens on the run `creditlab-cli agreement` picks without --run (issue 38).
#include "core/judge/agreement.h"
#include "core/judge/labelsources.h"
#include "core/storage/store.h"
#include "ui/agreement/agreementmodel.h"
#include "ui/agreement/agreementpage.h"
#include "ui/annotate/annotationpage.h"
#include "ui/charts/heatmapchart.h"
#include "ui/common/itemroles.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/settings.h"
#include "ui/shell/workspace.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QFile>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace creditlab;
using namespace creditlab::ui;

namespace {

/// Run 1: t1 (success) and t2 (failure), 4 turns each, actions "t1-a0".. ; labels:
///   human:alice  D E N R | D E N R
///   human:bob    D E N N | D D N R
///   judge:oracle D E R R | D E N -
/// Run 2: one failed trajectory of 2 turns labelled by judge:oracle only.
struct Fixture {
    QTemporaryDir dir;
    QString path;
    qint64 run1 = 0;
    qint64 run2 = 0;
    std::int64_t t1 = 0;
    std::int64_t t2 = 0;

    Fixture()
    {
        path = dir.filePath(QStringLiteral("labels.db"));
        Store store(path.toStdString());
        const auto trajectory = [](const std::string& id, bool success, int turns) {
            Trajectory t;
            t.id = id;
            t.group = "g";
            t.reward = success ? 1.0 : 0.0;
            t.success = success;
            for (int k = 0; k < turns; ++k) {
                Turn turn;
                turn.observation = "obs";
                turn.action = id + "-a" + std::to_string(k);
                t.turns.push_back(turn);
            }
            return t;
        };
        run1 = store.createRun(NewRun { "labelled", RunKind::Import, RunStatus::Finished, {} });
        t1 = store.insertTrajectory(run1, 0, trajectory("t1", true, 4));
        t2 = store.insertTrajectory(run1, 1, trajectory("t2", false, 4));
        run2 = store.createRun(NewRun { "second", RunKind::Import, RunStatus::Finished, {} });
        const std::int64_t t3 = store.insertTrajectory(run2, 0, trajectory("t3", false, 2));
        const auto human = [&](const std::string& who, std::int64_t row, const std::string& roles) {
            for (std::size_t k = 0; k < roles.size(); ++k)
                if (roles[k] != '-')
                    store.setHumanLabel(row, int(k), who, *parseRole(std::string(1, roles[k])));
        };
        const auto judge = [&](std::int64_t row, const std::string& roles) {
            for (std::size_t k = 0; k < roles.size(); ++k)
                if (roles[k] != '-')
                    store.setJudgeLabel(JudgeLabel { row, int(k), "oracle", *parseRole(std::string(1, roles[k])),
                        std::nullopt, std::nullopt, currentTimestamp() });
        };
        human("alice", t1, "DENR");
        human("alice", t2, "DENR");
        human("bob", t1, "DENN");
        human("bob", t2, "DDNR");
        judge(t1, "DERR");
        judge(t2, "DEN-");
        judge(t3, "NE");
    }
};

int columnOf(AgreementTableModel::Column c) { return int(c); }

QString cell(const QAbstractItemModel& m, int row, int column) { return m.index(row, column).data().toString(); }

int rowOf(const QAbstractItemModel& m, const QString& source)
{
    for (int r = 0; r < m.rowCount(); ++r)
        if (cell(m, r, 0) == source)
            return r;
    return -1;
}

} // namespace

class TestUiAgreement : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void modelsUnderTester();
    void ownLabelsReachAgreement();
    void pageMatchesCoreAndHand();
    void clickingCellListsItsTurns();
    void csvExport();
    void allRunsAndStaleDrop();
    void rowNormalisedMatrix();
    void kappaIntervalBesideKappa();
    void opensOnTheRunTheCliPicks();
};

void TestUiAgreement::modelsUnderTester()
{
    Fixture f;
    Store store(f.path.toStdString(), Store::Access::ReadOnly);
    const judge::RunLabels labels = judge::loadRunLabels(store, f.run1);
    AgreementTableModel table;
    QAbstractItemModelTester tableTester(&table, QAbstractItemModelTester::FailureReportingMode::QtTest);
    table.setRows(computeAgreement(labels, "human:alice", { "judge:oracle", "human:bob", "human:alice" }));
    QCOMPARE(table.rowCount(), 2); // the reference itself is skipped
    QCOMPARE(table.columnCount(), int(AgreementTableModel::Column::Count));
    QCOMPARE(table.headerData(AgreementTableModel::roleColumn(3, AgreementTableModel::RoleMetric::F1), Qt::Horizontal)
                 .toString(),
        QStringLiteral("R F1"));
    table.setRows({});
    QCOMPARE(table.rowCount(), 0);

    CellTurnsModel turns;
    QAbstractItemModelTester turnsTester(&turns, QAbstractItemModelTester::FailureReportingMode::QtTest);
    turns.setEntries(
        { { judge::TurnRef { f.t1, 2, true }, QStringLiteral("t1"), QStringLiteral("go"), Role::N, Role::R } },
        QStringLiteral("human:alice"), QStringLiteral("judge:oracle"));
    QCOMPARE(turns.rowCount(), 1);
    QCOMPARE(turns.index(0, 0).data(IdRole).toLongLong(), f.t1);
    QCOMPARE(turns.headerData(int(CellTurnsModel::Column::Other), Qt::Horizontal).toString(),
        QStringLiteral("judge:oracle"));
    turns.setEntries({}, {}, {});
    QCOMPARE(turns.rowCount(), 0);
}

/// Labels this window gives on Annotate reach the Agreement page without F5 (issue 20, finding 4): the window's own
/// commits are not seen by the poll for other connections' commits.
void TestUiAgreement::ownLabelsReachAgreement()
{
    Fixture f;
    MainWindow window(std::make_unique<Settings>(f.dir.filePath(QStringLiteral("settings.ini"))));
    QVERIFY(window.openDatabase(f.path));
    window.resize(1200, 800);
    window.show();
    AgreementPage* page = window.agreement();
    QSignalSpy loaded(page, &AgreementPage::loaded);
    window.showPage(MainWindow::Page::Agreement);
    page->setRun(f.run1);
    QVERIFY(loaded.wait(10000));
    QVERIFY(!page->sources().contains(QStringLiteral("human:carol")));

    AnnotationPage* annotate = window.annotation();
    window.showPage(MainWindow::Page::Annotate);
    annotate->setRun(f.run1);
    QTRY_VERIFY_WITH_TIMEOUT(!annotate->isLoading(), 10000);
    annotate->setAnnotator(QStringLiteral("carol"));
    QVERIFY(annotate->labelCurrent(Role::D));
    window.showPage(MainWindow::Page::Agreement);
    QTRY_VERIFY_WITH_TIMEOUT(page->sources().contains(QStringLiteral("human:carol")), 10000);
}

void TestUiAgreement::pageMatchesCoreAndHand()
{
    Fixture f;
    Workspace workspace;
    workspace.setPollInterval(0);
    QVERIFY(workspace.open(f.path));
    AgreementPage page(&workspace);
    QSignalSpy loaded(&page, &AgreementPage::loaded);
    page.setRun(f.run1);
    QVERIFY(loaded.wait(10000));
    QCOMPARE(page.run(), f.run1);
    QCOMPARE(page.sources(), QStringList({ "human:alice", "human:bob", "judge:oracle" }));
    QCOMPARE(page.reference(), QStringLiteral("human:alice")); // a human is the default reference
    QCOMPARE(page.compared(), page.sources());

    // The numbers the CLI computes: the same core calls on a fresh Store.
    Store store(f.path.toStdString(), Store::Access::ReadOnly);
    const judge::RunLabels labels = judge::loadRunLabels(store, f.run1);
    const auto flags = labels.successFlags();
    const judge::PairAgreement oracle
        = judge::comparePair(*labels.find("human:alice"), *labels.find("judge:oracle"), flags);
    const judge::PairAgreement bob = judge::comparePair(*labels.find("human:alice"), *labels.find("human:bob"), flags);

    const AgreementTableModel& m = *page.tableModel();
    QCOMPARE(m.rowCount(), 2);
    const auto& rows = m.rows();
    const auto find = [&](const std::string& s) {
        return *std::find_if(rows.begin(), rows.end(), [&](const AgreementRow& r) { return r.source == s; });
    };
    const judge::PairAgreement& pageOracle = find("judge:oracle").result;
    QCOMPARE(pageOracle.count, oracle.count);
    QCOMPARE(*pageOracle.kappa, *oracle.kappa);
    QCOMPARE(pageOracle.confusion, oracle.confusion);
    QCOMPARE(*find("human:bob").result.accuracy, *bob.accuracy);

    // By hand (alice as truth): 7 shared turns, 6 agree; p_e = (2·2 + 2·2 + 2·1 + 1·2)/49 = 12/49, so
    // kappa = (42 − 12)/(49 − 12) = 30/37; R: P 1/2, R 1, F1 2/3; N: P 1, R 1/2; macro F1 (1 + 1 + 2/3 + 2/3)/4.
    QCOMPARE(pageOracle.count, 7);
    QCOMPARE(pageOracle.onlyReference, 1);
    QVERIFY(qFuzzyCompare(*pageOracle.accuracy, 6.0 / 7.0));
    QVERIFY(qFuzzyCompare(*pageOracle.kappa, 30.0 / 37.0));
    QVERIFY(qFuzzyCompare(*pageOracle.macroF1, 10.0 / 12.0));
    const int r = rowOf(m, QStringLiteral("judge:oracle"));
    QCOMPARE(cell(m, r, columnOf(AgreementTableModel::Column::Turns)), QStringLiteral("7"));
    QCOMPARE(cell(m, r, columnOf(AgreementTableModel::Column::Accuracy)), QStringLiteral("0.857"));
    QCOMPARE(cell(m, r, columnOf(AgreementTableModel::Column::Kappa)), QStringLiteral("0.811"));
    QCOMPARE(cell(m, r, AgreementTableModel::roleColumn(3, AgreementTableModel::RoleMetric::Precision)),
        QStringLiteral("0.500"));
    QCOMPARE(cell(m, r, AgreementTableModel::roleColumn(2, AgreementTableModel::RoleMetric::Recall)),
        QStringLiteral("0.500"));
    // bob misses the R in the successful rollout and the E in the failed one: both conflict cells at 100 %.
    const int b = rowOf(m, QStringLiteral("human:bob"));
    QCOMPARE(cell(m, b, columnOf(AgreementTableModel::Column::Accuracy)), QStringLiteral("0.750"));
    QCOMPARE(cell(m, b, columnOf(AgreementTableModel::Column::RegressionSuccessMissed)), QStringLiteral("1.000"));
    QCOMPARE(cell(m, b, columnOf(AgreementTableModel::Column::ExplorationFailureMissed)), QStringLiteral("1.000"));

    // Alpha across the two annotators, as the CLI: 16 values, Σo_cc = 12, Σn_c(n_c − 1) = 52:
    // (15·12 − 52)/(16·15 − 52) = 128/188.
    QVERIFY(page.alpha().overHumans);
    QCOMPARE(*page.alpha().result->alpha, *judge::alphaAcrossSources(labels).result->alpha);
    QVERIFY(qFuzzyCompare(*page.alpha().result->alpha, 128.0 / 188.0));

    // The matrix shows the selected pair's counts.
    page.showPair(QStringLiteral("judge:oracle"));
    QCOMPARE(page.matrix()->value(2, 3), 1.0); // alice N, oracle R
    QCOMPARE(page.matrix()->value(0, 0), 2.0);
    page.setReference(QStringLiteral("judge:oracle"));
    QCOMPARE(page.tableModel()->rowCount(), 2); // alice and bob against the oracle
    page.setCompared({ QStringLiteral("human:bob") });
    QCOMPARE(page.tableModel()->rowCount(), 1);
    QCOMPARE(page.shownSource(), QStringLiteral("human:bob"));
}

void TestUiAgreement::clickingCellListsItsTurns()
{
    Fixture f;
    Workspace workspace;
    workspace.setPollInterval(0);
    QVERIFY(workspace.open(f.path));
    AgreementPage page(&workspace);
    QSignalSpy loaded(&page, &AgreementPage::loaded);
    page.setRun(f.run1);
    QVERIFY(loaded.wait(10000));
    page.resize(1200, 800);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    page.showPair(QStringLiteral("judge:oracle"));

    // Find a point of cell (N, R) by hovering, then click there.
    charts::HeatmapChart* chart = page.matrix();
    QSignalSpy hovered(chart, &charts::HeatmapChart::cellHovered);
    QPoint target(-1, -1);
    for (int y = 0; y < chart->height() && target.x() < 0; y += 4)
        for (int x = 0; x < chart->width() && target.x() < 0; x += 4) {
            QTest::mouseMove(chart, QPoint(x, y));
            if (!hovered.isEmpty() && hovered.last().at(0).toInt() == 2 && hovered.last().at(1).toInt() == 3)
                target = QPoint(x, y);
        }
    QVERIFY(target.x() >= 0);
    QTest::mouseClick(chart, Qt::LeftButton, {}, target);
    const CellTurnsModel& turns = *page.turnsModel();
    QCOMPARE(turns.rowCount(), 1);
    QCOMPARE(turns.entries()[0].turn.trajectoryRowId, f.t1);
    QCOMPARE(turns.entries()[0].turn.turn, 2);
    QCOMPARE(cell(turns, 0, int(CellTurnsModel::Column::Trajectory)), QStringLiteral("t1"));
    QCOMPARE(cell(turns, 0, int(CellTurnsModel::Column::Action)), QStringLiteral("t1-a2"));
    QCOMPARE(cell(turns, 0, int(CellTurnsModel::Column::Reference)), QStringLiteral("N"));
    QCOMPARE(cell(turns, 0, int(CellTurnsModel::Column::Other)), QStringLiteral("R"));

    // A click outside the grid (the title) leaves the list; the diagonal D/D has one turn of each trajectory.
    QTest::mouseClick(chart, Qt::LeftButton, {}, QPoint(1, 1));
    QCOMPARE(turns.rowCount(), 1);
    page.selectCell(Role::D, Role::D);
    QCOMPARE(turns.rowCount(), 2);
    QCOMPARE(cell(turns, 0, 0), QStringLiteral("t1"));
    QCOMPARE(cell(turns, 1, 0), QStringLiteral("t2"));
    QCOMPARE(cell(turns, 1, int(CellTurnsModel::Column::Action)), QStringLiteral("t2-a0"));

    QSignalSpy activated(&page, &AgreementPage::turnActivated);
    page.turnsView()->setCurrentIndex(turns.index(1, 0));
    QTest::keyClick(page.turnsView(), Qt::Key_Return);
    QCOMPARE(activated.size(), 1);
    QCOMPARE(activated[0].at(0).toLongLong(), f.t2);
    QCOMPARE(activated[0].at(1).toInt(), 0);
}

void TestUiAgreement::csvExport()
{
    Fixture f;
    Workspace workspace;
    workspace.setPollInterval(0);
    QVERIFY(workspace.open(f.path));
    AgreementPage page(&workspace);
    QSignalSpy loaded(&page, &AgreementPage::loaded);
    page.setRun(f.run1);
    QVERIFY(loaded.wait(10000));
    QSignalSpy intervals(&page, &AgreementPage::kappaIntervalsReady);
    page.setCompared({ QStringLiteral("judge:oracle") });
    QVERIFY(intervals.wait(10000));
    const QString path = f.dir.filePath(QStringLiteral("agreement.csv"));
    QString error;
    QVERIFY2(page.exportTableCsv(path, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 2);
    QVERIFY2(lines[0].startsWith(
                 QStringLiteral("Source,Turns,Accuracy,Cohen's κ,κ 95% CI low,κ 95% CI high,Macro F1,D precision")),
        qPrintable(lines[0]));
    const auto& row = page.tableModel()->rows().front();
    QVERIFY(row.kappaInterval && row.kappaInterval->low);
    QVERIFY2(lines[1].startsWith(QStringLiteral("judge:oracle,7,0.857,0.811,%1,%2,0.833,1.000,1.000,1.000")
                                     .arg(*row.kappaInterval->low, 0, 'f', 3)
                                     .arg(*row.kappaInterval->high, 0, 'f', 3)),
        qPrintable(lines[1]));
    const QString png = f.dir.filePath(QStringLiteral("matrix.png"));
    QVERIFY2(page.exportMatrix(png, &error), qPrintable(error));
    QVERIFY(!QImage(png).isNull());
}

void TestUiAgreement::allRunsAndStaleDrop()
{
    Fixture f;
    Workspace workspace;
    workspace.setPollInterval(0);
    QVERIFY(workspace.open(f.path));
    AgreementPage page(&workspace);
    QSignalSpy loaded(&page, &AgreementPage::loaded);
    QVERIFY(loaded.wait(10000)); // the newest run with two label sources, as the CLI picks without --run
    QCOMPARE(page.run(), f.run1);
    QCOMPARE(page.labels()->turns.size(), std::size_t(8));

    // Two requests in a row: only the newest is reported.
    loaded.clear();
    page.setRun(f.run1);
    page.setRun(0);
    QVERIFY(loaded.wait(10000));
    QVERIFY(!loaded.wait(300)); // the stale one never arrives
    QCOMPARE(loaded.size(), 1);
    QCOMPARE(page.run(), 0);
    QCOMPARE(page.labels()->turns.size(), std::size_t(10));
    // Across both runs the oracle labels 9 turns; alice labels only run 1's, so 7 in common as before.
    QCOMPARE(page.labels()->labelledCount("judge:oracle"), 9);
    QCOMPARE(page.reference(), QStringLiteral("human:alice")); // kept from run 1, which the page opened on
    const auto& rows = page.tableModel()->rows();
    const auto oracle
        = std::find_if(rows.begin(), rows.end(), [](const AgreementRow& r) { return r.source == "judge:oracle"; });
    QVERIFY(oracle != rows.end());
    QCOMPARE(oracle->result.count, 7);
}

void TestUiAgreement::rowNormalisedMatrix()
{
    // Pure: each reference row divided by its turns; a row without turns is "no data".
    judge::RoleCounts counts {};
    counts[0] = { 3, 1, 0, 0 };
    counts[2] = { 0, 0, 1, 1 };
    const std::vector<double> shares = rowShares(counts);
    QCOMPARE(shares.size(), std::size_t(16));
    QCOMPARE(shares[0], 0.75);
    QCOMPARE(shares[1], 0.25);
    QVERIFY(std::isnan(shares[4]) && std::isnan(shares[7])); // E: no turns
    QCOMPARE(shares[10], 0.5);
    QCOMPARE(shares[11], 0.5);

    Fixture f;
    Workspace workspace;
    workspace.setPollInterval(0);
    QVERIFY(workspace.open(f.path));
    AgreementPage page(&workspace);
    QSignalSpy loaded(&page, &AgreementPage::loaded);
    page.setRun(f.run1);
    QVERIFY(loaded.wait(10000));
    page.showPair(QStringLiteral("judge:oracle"));
    QVERIFY(!page.rowShares()); // counts by default
    QCOMPARE(page.matrix()->value(2, 2), 1.0);
    QCOMPARE(page.matrix()->value(2, 3), 1.0);
    QCOMPARE(page.matrix()->value(3, 3), 1.0);
    // alice's N row (t1 N → oracle R, t2 N → oracle N) splits in halves; her R row (t1, with the oracle) is whole;
    // t2's R has no oracle label, so it is in no row.
    auto* toggle = page.findChild<QCheckBox*>(QStringLiteral("agreementRowShares"));
    QVERIFY(toggle);
    toggle->click();
    QVERIFY(page.rowShares());
    QCOMPARE(page.matrix()->value(2, 2), 0.5);
    QCOMPARE(page.matrix()->value(2, 3), 0.5);
    QCOMPARE(page.matrix()->value(3, 3), 1.0);
    QCOMPARE(page.matrix()->value(0, 0), 1.0);
    QCOMPARE(page.matrix()->value(0, 1), 0.0);
    QCOMPARE(page.matrix()->valueMin(), 0.0); // shares on a fixed 0..1 scale
    QCOMPARE(page.matrix()->valueMax(), 1.0);
    for (int r = 0; r < 4; ++r) {
        double sum = 0.0;
        for (int c = 0; c < 4; ++c)
            sum += page.matrix()->value(r, c);
        QVERIFY(qFuzzyCompare(sum, 1.0));
    }
    // Another pair keeps the mode; back to counts.
    page.showPair(QStringLiteral("human:bob"));
    QCOMPARE(page.matrix()->value(0, 0), 1.0); // alice D: bob D twice
    QCOMPARE(page.matrix()->value(1, 1), 0.5); // alice E: bob E, D
    page.setRowShares(false);
    QVERIFY(!toggle->isChecked());
    QCOMPARE(page.matrix()->value(0, 0), 2.0);
    QCOMPARE(page.matrix()->valueMax(), 2.0);
}

void TestUiAgreement::kappaIntervalBesideKappa()
{
    Fixture f;
    Workspace workspace;
    workspace.setPollInterval(0);
    QVERIFY(workspace.open(f.path));
    AgreementPage page(&workspace);
    QSignalSpy loaded(&page, &AgreementPage::loaded);
    QSignalSpy ready(&page, &AgreementPage::kappaIntervalsReady);
    page.setRun(f.run1);
    QVERIFY(loaded.wait(10000));
    QTRY_VERIFY_WITH_TIMEOUT(!page.isComputingIntervals() && ready.count() > 0, 10000);

    // The core's bootstrap on the same labels, the columns right after kappa, and the matrix title.
    Store store(f.path.toStdString(), Store::Access::ReadOnly);
    const judge::RunLabels labels = judge::loadRunLabels(store, f.run1);
    const judge::KappaInterval expected
        = judge::bootstrapKappa(*labels.find("human:alice"), *labels.find("judge:oracle"));
    QCOMPARE(expected.resamples, 1000);
    QVERIFY(expected.low && expected.high && *expected.low <= 30.0 / 37.0 && 30.0 / 37.0 <= *expected.high);
    const AgreementTableModel& m = *page.tableModel();
    const int r = rowOf(m, QStringLiteral("judge:oracle"));
    QCOMPARE(columnOf(AgreementTableModel::Column::KappaLow), columnOf(AgreementTableModel::Column::Kappa) + 1);
    QCOMPARE(m.rows()[std::size_t(r)].kappaInterval->low, expected.low);
    QCOMPARE(m.rows()[std::size_t(r)].kappaInterval->high, expected.high);
    QCOMPARE(cell(m, r, columnOf(AgreementTableModel::Column::KappaLow)), QString::number(*expected.low, 'f', 3));
    QCOMPARE(cell(m, r, columnOf(AgreementTableModel::Column::KappaHigh)), QString::number(*expected.high, 'f', 3));
    QCOMPARE(m.headerData(columnOf(AgreementTableModel::Column::KappaLow), Qt::Horizontal).toString(),
        QStringLiteral("κ 95% CI low"));
    // Kappa itself is the CLI's, exactly.
    QCOMPARE(*m.rows()[std::size_t(r)].result.kappa,
        *judge::comparePair(*labels.find("human:alice"), *labels.find("judge:oracle"), labels.successFlags()).kappa);
    page.showPair(QStringLiteral("judge:oracle"));
    // Reproducible: a reload gives the very same interval.
    ready.clear();
    page.reload();
    QVERIFY(loaded.wait(10000));
    QTRY_VERIFY_WITH_TIMEOUT(!page.isComputingIntervals() && ready.count() > 0, 10000);
    QCOMPARE(page.tableModel()->rows()[std::size_t(rowOf(m, QStringLiteral("judge:oracle")))].kappaInterval->low,
        expected.low);
    // A new reference computes the intervals again, for the new pairs.
    ready.clear();
    page.setReference(QStringLiteral("judge:oracle"));
    QTRY_VERIFY_WITH_TIMEOUT(!page.isComputingIntervals() && ready.count() > 0, 10000);
    const int a = rowOf(m, QStringLiteral("human:alice"));
    QCOMPARE(m.rows()[std::size_t(a)].kappaInterval->low,
        judge::bootstrapKappa(*labels.find("judge:oracle"), *labels.find("human:alice")).low);
}

/// Issue 38: the page opened on the newest run with any label, here run 3, where the oracle's labels and the turn
/// roles copied from them have nothing to compare, while an older run holds the human labels. It opens where
/// `creditlab-cli agreement` without --run reads: the newest run with two label sources, else the newest labelled.
void TestUiAgreement::opensOnTheRunTheCliPicks()
{
    Fixture f;
    qint64 run3 = 0;
    std::int64_t t4 = 0;
    {
        Store store(f.path.toStdString());
        run3 = store.createRun(NewRun { "judged rollouts", RunKind::Import, RunStatus::Finished, {} });
        Trajectory t;
        t.id = "t4";
        t.group = "g";
        t.reward = 1.0;
        for (int k = 0; k < 2; ++k) {
            Turn turn;
            turn.observation = "obs";
            turn.action = "t4-a" + std::to_string(k);
            turn.role = Role::D;
            turn.roleSource = "judge:oracle"; // as `env rollout --judge` copies the judge's labels onto the turns
            t.turns.push_back(turn);
        }
        t4 = store.insertTrajectory(run3, 0, t);
        for (int k = 0; k < 2; ++k)
            store.setJudgeLabel(
                JudgeLabel { t4, k, "oracle", Role::D, std::nullopt, std::nullopt, currentTimestamp() });
    }
    {
        Store store(f.path.toStdString(), Store::Access::ReadOnly);
        const std::vector<judge::LabelledRun> labelled = judge::labelledRuns(store);
        QCOMPARE(labelled.size(), std::size_t(3));
        QCOMPARE(labelled.front().run.id, run3); // the newest labelled run...
        QCOMPARE(labelled.front().sources,
            (std::vector<std::string> { "judge:oracle", "turn:judge:oracle" })); // ...has one source to compare
        QVERIFY(!judge::hasTwoSources(labelled.front().sources));
        QCOMPARE(judge::defaultAgreementRun(labelled), std::optional<std::int64_t>(f.run1));
    }
    Workspace workspace;
    workspace.setPollInterval(0);
    QVERIFY(workspace.open(f.path));
    AgreementPage page(&workspace);
    QSignalSpy loaded(&page, &AgreementPage::loaded);
    QVERIFY(loaded.wait(10000));
    QCOMPARE(page.run(), f.run1);
    QVERIFY(page.sources().contains(QStringLiteral("human:alice")));

    // A human labels run 3 too: now the newest run with two sources, it is where the page opens.
    {
        Store store(f.path.toStdString());
        store.setHumanLabel(t4, 0, "dana", Role::E);
    }
    loaded.clear();
    QVERIFY(workspace.open(f.path));
    QVERIFY(loaded.wait(10000));
    QCOMPARE(page.run(), run3);

    // No run with two sources: the newest labelled one, as before.
    Fixture single;
    {
        Store store(single.path.toStdString());
        for (const std::int64_t row : { single.t1, single.t2 })
            for (const HumanLabel& h : store.humanLabels(row))
                store.clearHumanLabel(row, h.turn, h.annotator);
    }
    loaded.clear();
    QVERIFY(workspace.open(single.path));
    QVERIFY(loaded.wait(10000));
    QCOMPARE(page.run(), single.run2);
}

QTEST_MAIN(TestUiAgreement)
#include "tst_ui_agreement.moc"
