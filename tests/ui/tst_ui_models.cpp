// The item models and their proxies: contents of every column, the custom roles, sorting by
// value and filtering, all under QAbstractItemModelTester.
#include "ui/common/itemroles.h"
#include "ui/common/runcombo.h"
#include "ui/common/sortfilterproxymodel.h"
#include "ui/common/tableviewsetup.h"
#include "ui/common/textutil.h"
#include "ui/runs/runmodel.h"
#include "ui/runs/tokenmodel.h"
#include "ui/runs/trajectorymodel.h"
#include "ui/runs/turnmodel.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QHeaderView>
#include <QStandardItemModel>
#include <QTableView>
#include <QtTest>

#include <cmath>
#include <limits>

using namespace creditlab;
using namespace creditlab::ui;

namespace {

RunInfo makeRun(qint64 id, const std::string& name, qint64 trajectories, qint64 turns)
{
    RunInfo run;
    run.id = id;
    run.name = name;
    run.kind = RunKind::Import;
    run.status = RunStatus::Finished;
    run.source = "/data/rollouts/" + name;
    run.createdAt = "2026-01-0" + std::to_string(id % 9 + 1) + "T10:00:00Z";
    run.trajectoryCount = trajectories;
    run.turnCount = turns;
    return run;
}

TrajectoryInfo makeInfo(qint64 rowId, const std::string& id, double reward, qint64 turns)
{
    TrajectoryInfo info;
    info.rowId = rowId;
    info.id = id;
    info.group = "it3-task17";
    info.iteration = 3;
    info.task.key = "household:seed=17";
    info.task.goal = "put a clean mug in coffeemachine.";
    info.reward = reward;
    info.turnCount = turns;
    return info;
}

Trajectory makeTrajectory()
{
    Trajectory t;
    t.id = "it3-task17-r2";
    t.group = "it3-task17";
    t.reward = 1.0;
    Turn a;
    a.observation = "You are in the middle of a room.\nLooking around you, you see a <b>mug</b> 1.";
    a.action = "go to countertop 1";
    a.feedback = "On the countertop 1, you see a mug 1.";
    a.reward = 0.5;
    a.valid = true;
    a.role = Role::E;
    a.roleSource = "human:alice";
    Turn b;
    b.observation = "On the countertop 1, you see a mug 1.";
    b.action = "fly to the moon";
    b.feedback = "Nothing happens.";
    b.valid = false;
    b.reward = -0.25;
    Turn c;
    c.observation = "You pick up the mug 1.";
    c.action = "put mug 1 in/on coffeemachine 1";
    c.reward = 10.0;
    c.role = Role::D;
    t.turns = { a, b, c };
    return t;
}

QStringList column(const QAbstractItemModel& model, int col, int role = Qt::DisplayRole)
{
    QStringList out;
    for (int row = 0; row < model.rowCount(); ++row)
        out << model.index(row, col).data(role).toString();
    return out;
}

} // namespace

class TestModels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void runModelCells_data();
    void runModelCells();
    void runModelSorting();
    void sortArrowMatchesRowOrder();
    void runPickerTellsAlikeNamesApart();
    void trajectoryModelCells_data();
    void trajectoryModelCells();
    void trajectoryProxySortAndFilter();
    void turnModelCells_data();
    void turnModelCells();
    void turnModelPlainTextRoles();
    void turnModelCreditColumns();
    void turnProxySortsNumbers();
    void resetsKeepTesterHappy();
    void tokenModelSegmentsAndSorting();
    void previewText_data();
    void previewText();
    void naturalCompare_data();
    void naturalCompare();
};

void TestModels::runModelCells_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<QVariant>("display");
    QTest::newRow("id") << int(RunModel::Column::Id) << QVariant::fromValue<qint64>(7);
    QTest::newRow("name") << int(RunModel::Column::Name) << QVariant(QStringLiteral("alfworld.jsonl"));
    QTest::newRow("kind") << int(RunModel::Column::Kind) << QVariant(QStringLiteral("import"));
    QTest::newRow("status") << int(RunModel::Column::Status) << QVariant(QStringLiteral("finished"));
    QTest::newRow("trajectories") << int(RunModel::Column::Trajectories) << QVariant::fromValue<qint64>(40);
    QTest::newRow("turns") << int(RunModel::Column::Turns) << QVariant::fromValue<qint64>(321);
    QTest::newRow("created") << int(RunModel::Column::Created)
                             << QVariant(RunModel::displayTime(QStringLiteral("2026-01-08T10:00:00Z")));
    QTest::newRow("source") << int(RunModel::Column::Source) << QVariant(QStringLiteral("alfworld.jsonl"));
}

void TestModels::runModelCells()
{
    QFETCH(int, column);
    QFETCH(QVariant, display);
    RunModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRuns({ makeRun(7, "alfworld.jsonl", 40, 321) });
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.columnCount(), int(RunModel::Column::Count));
    const QModelIndex index = model.index(0, column);
    QCOMPARE(index.data().toString(), display.toString());
    QCOMPARE(index.data(Qt::UserRole).toLongLong(), 7);
    QVERIFY(!model.headerData(column, Qt::Horizontal).toString().isEmpty());
}

/// The header's sort arrow: ▲ when the rows ascend, ▼ when they descend (Fusion drew ▲ over a table sorted by
/// descending id). The arrow's widest pixel row is at its bottom for ▲ and at its top for ▼.
void TestModels::sortArrowMatchesRowOrder()
{
    QStandardItemModel model(3, 1);
    model.setHorizontalHeaderLabels({ QString() });
    for (int i = 0; i < 3; ++i)
        model.setItem(i, 0, new QStandardItem(QString::number(i)));
    QTableView view;
    view.setModel(&model);
    setUpTableView(&view);
    view.resize(300, 200);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const auto widestRowAtTop = [&view](Qt::SortOrder order) {
        view.sortByColumn(0, order);
        const QImage image = view.horizontalHeader()->grab().toImage();
        int widest = -1, widestCount = 0, first = -1, last = -1;
        for (int y = 0; y < image.height(); ++y) {
            int count = 0;
            for (int x = 0; x < image.width(); ++x)
                if (qGray(image.pixel(x, y)) < 110)
                    ++count;
            if (count > 0 && count < image.width() / 2) { // arrow pixels, not a frame line
                if (first < 0)
                    first = y;
                last = y;
                if (count > widestCount) {
                    widestCount = count;
                    widest = y;
                }
            }
        }
        [&] { QVERIFY2(widest >= 0 && last > first, "no sort arrow drawn"); }();
        return widest - first < last - widest;
    };
    QVERIFY(!widestRowAtTop(Qt::AscendingOrder)); // ▲
    QCOMPARE(view.model()->index(0, 0).data().toString(), QStringLiteral("0"));
    QVERIFY(widestRowAtTop(Qt::DescendingOrder)); // ▼
    QCOMPARE(view.model()->index(0, 0).data().toString(), QStringLiteral("2"));
}

/// Two runs named alike (older versions named runs after their preset) differ in every run picker by their summary.
void TestModels::runPickerTellsAlikeNamesApart()
{
    RunInfo triage = makeRun(1, "household-quick", 10, 100);
    triage.kind = RunKind::Train;
    triage.environment = "household";
    triage.method = "triage";
    triage.seed = 0;
    RunInfo grpo = triage;
    grpo.id = 2;
    grpo.method = "grpo";
    const RunInfo other = makeRun(3, "imported", 5, 50);
    QComboBox combo;
    QVERIFY(fillRunCombo(&combo, { triage, grpo, other }, 2));
    QCOMPARE(combo.count(), 3);
    QVERIFY2(combo.itemText(0).contains(QStringLiteral("triage")), qPrintable(combo.itemText(0)));
    QVERIFY2(combo.itemText(1).contains(QStringLiteral("grpo")), qPrintable(combo.itemText(1)));
    QCOMPARE(combo.itemText(2), QStringLiteral("3: imported")); // a name of its own stays short
    QCOMPARE(combo.currentData().toLongLong(), 2);
}

void TestModels::runModelSorting()
{
    RunModel model;
    SortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRuns({ makeRun(2, "b", 9, 90), makeRun(10, "a", 100, 1000), makeRun(9, "c", 20, 200) });

    // Ids compare as numbers: 2 < 9 < 10, not "10" < "2" < "9".
    proxy.sort(int(RunModel::Column::Id), Qt::AscendingOrder);
    QCOMPARE(column(proxy, int(RunModel::Column::Id)), (QStringList { "2", "9", "10" }));
    proxy.sort(int(RunModel::Column::Trajectories), Qt::DescendingOrder);
    QCOMPARE(column(proxy, int(RunModel::Column::Trajectories)), (QStringList { "100", "20", "9" }));
    // Counts sort by value even where the display groups digits.
    proxy.sort(int(RunModel::Column::Turns), Qt::AscendingOrder);
    QCOMPARE(column(proxy, int(RunModel::Column::Turns), SortRole), (QStringList { "90", "200", "1000" }));
    proxy.sort(int(RunModel::Column::Name), Qt::AscendingOrder);
    QCOMPARE(column(proxy, int(RunModel::Column::Name)), (QStringList { "a", "b", "c" }));
    QCOMPARE(model.rowOfRun(9), 2);
    QCOMPARE(model.rowOfRun(99), -1);
}

void TestModels::trajectoryModelCells_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("display");
    QTest::addColumn<QString>("fullText");
    QTest::newRow("id") << int(TrajectoryModel::Column::Id) << "it3-task17-r2"
                        << "it3-task17-r2";
    QTest::newRow("group") << int(TrajectoryModel::Column::Group) << "it3-task17"
                           << "it3-task17";
    QTest::newRow("task") << int(TrajectoryModel::Column::Task) << "household:seed=17"
                          << "household:seed=17";
    QTest::newRow("iteration") << int(TrajectoryModel::Column::Iteration) << "3"
                               << "3";
    QTest::newRow("reward") << int(TrajectoryModel::Column::Reward) << "0.75"
                            << "0.75";
    QTest::newRow("success") << int(TrajectoryModel::Column::Success) << "yes"
                             << "yes";
    QTest::newRow("turns") << int(TrajectoryModel::Column::Turns) << "12"
                           << "12";
}

void TestModels::trajectoryModelCells()
{
    QFETCH(int, column);
    QFETCH(QString, display);
    QFETCH(QString, fullText);
    TrajectoryModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTrajectories({ makeInfo(41, "it3-task17-r2", 0.75, 12) });
    const QModelIndex index = model.index(0, column);
    QCOMPARE(index.data().toString(), display);
    QCOMPARE(index.data(FullTextRole).toString(), fullText);
    QCOMPARE(index.data(Qt::UserRole).toLongLong(), 41);
    QVERIFY(!model.headerData(column, Qt::Horizontal).toString().isEmpty());
}

void TestModels::trajectoryProxySortAndFilter()
{
    TrajectoryModel model;
    SortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto other = makeInfo(4, "it3-task9-r0", 10.0, 3);
    other.group = "it3-task9";
    other.task.key = "household:seed=9";
    other.success = false; // explicit, although the reward is positive
    model.setTrajectories({ makeInfo(1, "it3-task17-r10", -0.5, 8), makeInfo(2, "it3-task17-r2", 1.0, 20),
        makeInfo(3, "it3-task17-r1", 0.25, 5), other });

    proxy.sort(int(TrajectoryModel::Column::Id), Qt::AscendingOrder);
    QCOMPARE(column(proxy, int(TrajectoryModel::Column::Id)),
        (QStringList { "it3-task9-r0", "it3-task17-r1", "it3-task17-r2", "it3-task17-r10" }));
    // Rewards by value: -0.5 < 0.25 < 1 < 10 (as text "10" would sort before "1").
    proxy.sort(int(TrajectoryModel::Column::Reward), Qt::AscendingOrder);
    QCOMPARE(column(proxy, int(TrajectoryModel::Column::Reward)), (QStringList { "-0.5", "0.25", "1", "10" }));
    proxy.sort(int(TrajectoryModel::Column::Turns), Qt::DescendingOrder);
    QCOMPARE(column(proxy, int(TrajectoryModel::Column::Turns)), (QStringList { "20", "8", "5", "3" }));
    QCOMPARE(column(proxy, int(TrajectoryModel::Column::Success)), (QStringList { "yes", "no", "yes", "no" }));

    proxy.setFilterText(QStringLiteral("SEED=9"));
    QCOMPARE(proxy.rowCount(), 1);
    QCOMPARE(proxy.index(0, 0).data(Qt::UserRole).toLongLong(), 4);
    proxy.setFilterText(QStringLiteral("task17-r1"));
    QCOMPARE(proxy.rowCount(), 2); // r1 and r10
    proxy.setFilterText(QString());
    QCOMPARE(proxy.rowCount(), 4);
    QCOMPARE(model.rowOfTrajectory(3), 2);
}

void TestModels::turnModelCells_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("display");
    using C = TurnModel::Column;
    QTest::newRow("index counts from 1") << 0 << int(C::Index) << "1";
    QTest::newRow("observation preview")
        << 0 << int(C::Observation)
        << QString::fromUtf8("You are in the middle of a room. \u23CE Looking around you, you see a <b>mug</b> 1.");
    QTest::newRow("action") << 1 << int(C::Action) << "fly to the moon";
    QTest::newRow("feedback") << 1 << int(C::Feedback) << "Nothing happens.";
    QTest::newRow("no feedback") << 2 << int(C::Feedback) << "";
    QTest::newRow("reward") << 1 << int(C::Reward) << "-0.25";
    QTest::newRow("default reward") << 2 << int(C::Reward) << "10";
    QTest::newRow("valid") << 0 << int(C::Valid) << "yes";
    QTest::newRow("invalid") << 1 << int(C::Valid) << "no";
    QTest::newRow("validity unknown") << 2 << int(C::Valid) << "";
    QTest::newRow("role") << 0 << int(C::Role) << "E";
    QTest::newRow("no role") << 1 << int(C::Role) << "";
}

void TestModels::turnModelCells()
{
    QFETCH(int, row);
    QFETCH(int, column);
    QFETCH(QString, display);
    TurnModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTrajectory(makeTrajectory());
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.index(row, column).data().toString(), display);
    QCOMPARE(model.index(row, column).data(Qt::UserRole).toLongLong(), row);
}

void TestModels::turnModelPlainTextRoles()
{
    TurnModel model;
    model.setTrajectory(makeTrajectory());
    const QModelIndex observation = model.index(0, int(TurnModel::Column::Observation));
    const QString full
        = QStringLiteral("You are in the middle of a room.\nLooking around you, you see a <b>mug</b> 1.");
    QCOMPARE(observation.data(FullTextRole).toString(), full);
    QVERIFY(!observation.data().toString().contains(u'\n'));
    // The tooltip escapes markup, so "<b>" shows as text and is not rendered bold.
    const QString tip = observation.data(Qt::ToolTipRole).toString();
    QVERIFY(tip.contains(QStringLiteral("&lt;b&gt;mug&lt;/b&gt;")));
    QVERIFY(!tip.contains(QStringLiteral("<b>")));
    QVERIFY(model.index(0, int(TurnModel::Column::Role)).data(Qt::ToolTipRole).toString().contains("human:alice"));
    QVERIFY(model.index(1, int(TurnModel::Column::Valid)).data(Qt::ForegroundRole).isValid());
    QCOMPARE(model.turn(1)->action, std::string("fly to the moon"));
    QCOMPARE(model.turn(3), nullptr);
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestModels::turnModelCreditColumns()
{
    TurnModel model;
    SortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTrajectory(makeTrajectory());
    QCOMPARE(model.columnCount(), int(TurnModel::Column::Count)); // no credits stored: no credit columns

    Trajectory t = makeTrajectory();
    t.turns[0].credits = { { "grpo", 0.5 }, { "triage", 1.25 } };
    t.turns[1].credits = { { "grpo", 0.5 }, { "triage", -2.0 } };
    t.turns[2].credits = { { "triage", 0.125 } }; // grpo missing on this turn: an empty cell
    model.setTrajectory(t);
    QCOMPARE(model.columnCount(), int(TurnModel::Column::Count) + 2);
    const int grpo = model.creditColumn("grpo");
    const int triage = model.creditColumn("triage");
    QCOMPARE(grpo, int(TurnModel::Column::Count));
    QCOMPARE(triage, int(TurnModel::Column::Count) + 1);
    QCOMPARE(model.creditColumn("gigpo"), -1);
    QCOMPARE(model.headerData(triage, Qt::Horizontal).toString(), QStringLiteral("triage"));
    QCOMPARE(column(model, grpo), (QStringList { "0.5", "0.5", "" }));
    QVERIFY(model.index(1, triage).data(Qt::ForegroundRole).isValid()); // negative credit stands out
    proxy.sort(triage, Qt::AscendingOrder);
    QCOMPARE(column(proxy, triage), (QStringList { "-2", "0.125", "1.25" }));
    model.clear();
    QCOMPARE(model.columnCount(), int(TurnModel::Column::Count));
}

void TestModels::turnProxySortsNumbers()
{
    TurnModel model;
    SortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTrajectory(makeTrajectory());
    proxy.sort(int(TurnModel::Column::Reward), Qt::DescendingOrder);
    QCOMPARE(column(proxy, int(TurnModel::Column::Reward)), (QStringList { "10", "0.5", "-0.25" }));
    QCOMPARE(column(proxy, int(TurnModel::Column::Index), Qt::UserRole), (QStringList { "2", "0", "1" }));
    proxy.sort(int(TurnModel::Column::Role), Qt::AscendingOrder); // D, E, then unlabelled
    QCOMPARE(column(proxy, int(TurnModel::Column::Role)), (QStringList { "D", "E", "" }));
    proxy.sort(int(TurnModel::Column::Valid), Qt::AscendingOrder);
    // No, unknown (the third turn's source says nothing: an empty cell, never "yes"), yes.
    QCOMPARE(column(proxy, int(TurnModel::Column::Valid)), (QStringList { "no", "", "yes" }));
    proxy.setFilterText(QStringLiteral("nothing happens"));
    QCOMPARE(proxy.rowCount(), 1);
}

void TestModels::resetsKeepTesterHappy()
{
    // Setting a new snapshot, an empty one and a bigger one again is a clean reset each time.
    RunModel runs;
    TurnModel turns;
    QAbstractItemModelTester a(&runs, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester b(&turns, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy reset(&runs, &QAbstractItemModel::modelReset);
    runs.setRuns({ makeRun(1, "x", 1, 1) });
    runs.setRuns({});
    runs.setRuns({ makeRun(1, "x", 1, 1), makeRun(2, "y", 2, 2) });
    QCOMPARE(reset.count(), 3);
    QCOMPARE(runs.rowCount(), 2);
    turns.setTrajectory(makeTrajectory());
    turns.clear();
    turns.setTrajectory(makeTrajectory());
    QCOMPARE(turns.rowCount(), 3);
}

void TestModels::tokenModelSegmentsAndSorting()
{
    // Two segments (the stream restarted): positions read "segment:index"; the tester sees clean resets when the
    // snapshot and the trained-only switch change; sorting by the difference puts tokens without one last.
    TokenModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const float none = std::numeric_limits<float>::quiet_NaN();
    std::vector<TokenSegment> segments(2);
    for (int k = 0; k < 2; ++k) {
        TokenSegment& s = segments[static_cast<std::size_t>(k)];
        s.segment = k;
        for (int i = 0; i < 3; ++i) {
            const bool action = i == 2;
            s.tokens.push_back(10 * k + i);
            s.pieces.push_back("p");
            s.turns.push_back(action ? k : -1);
            s.mask.push_back(action ? 1 : 0);
            s.behaviour.push_back(action ? -2.0F : none);
            s.current.push_back(action ? -2.0F + 0.01F * static_cast<float>(k + 1) : none);
            s.advantage.push_back(action ? 1.0F : none);
        }
    }
    model.setSegments(segments);
    QCOMPARE(model.rowCount(), 6);
    QCOMPARE(model.index(4, int(TokenModel::Column::Position)).data().toString(), QStringLiteral("2:1"));
    QCOMPARE(model.trainedCount(), std::int64_t(2));
    QVERIFY(std::abs(model.maxDrift() - 0.02) < 1e-6);
    QVERIFY(std::abs(model.meanDrift() - 0.015) < 1e-6);
    QCOMPARE(model.driftedCount(), std::int64_t(2)); // both past the default 1e-3
    model.setDriftThreshold(0.015);
    QCOMPARE(model.driftedCount(), std::int64_t(1));
    QCOMPARE(model.rowOfMaxDrift(), 5);
    QCOMPARE(model.firstRowOfTurn(1), 5);
    model.setTrainedOnly(true);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.rowOfMaxDrift(), 1);
    model.setTrainedOnly(false);
    SortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.sort(int(TokenModel::Column::Drift), Qt::DescendingOrder);
    QCOMPARE(proxy.index(0, int(TokenModel::Column::Drift)).data().toString().isEmpty(), true); // NaN sorts as +inf
    proxy.sort(int(TokenModel::Column::Drift), Qt::AscendingOrder);
    QCOMPARE(proxy.index(0, int(TokenModel::Column::Id)).data().toString(), QStringLiteral("2"));
    QCOMPARE(proxy.index(1, int(TokenModel::Column::Id)).data().toString(), QStringLiteral("12"));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.rowOfMaxDrift(), -1);
}

void TestModels::previewText_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<int>("maxChars");
    QTest::addColumn<QString>("expected");
    QTest::newRow("short") << "go to sink 1" << 50 << "go to sink 1";
    QTest::newRow("newline") << "a\nb" << 50 << QString::fromUtf8("a \u23CE b");
    QTest::newRow("crlf") << "a\r\nb" << 50 << QString::fromUtf8("a \u23CE b");
    QTest::newRow("tab") << "a\tb" << 50 << "a b";
    QTest::newRow("cut") << "abcdefghij" << 4 << QString::fromUtf8("abcd\u2026");
    QTest::newRow("exact") << "abcd" << 4 << "abcd";
    QTest::newRow("markup kept") << "<i>x</i>" << 50 << "<i>x</i>";
}

void TestModels::previewText()
{
    QFETCH(QString, input);
    QFETCH(int, maxChars);
    QFETCH(QString, expected);
    QCOMPARE(creditlab::ui::previewText(input, maxChars), expected);
}

void TestModels::naturalCompare_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::addColumn<int>("sign");
    QTest::newRow("equal") << "r2"
                           << "r2" << 0;
    QTest::newRow("numbers by value") << "r2"
                                      << "r10" << -1;
    QTest::newRow("reversed") << "r10"
                              << "r2" << 1;
    QTest::newRow("leading zeros") << "r007"
                                   << "r7" << 0;
    QTest::newRow("case-insensitive") << "Alpha"
                                      << "alpha" << 0;
    QTest::newRow("prefix first") << "run"
                                  << "run1" << -1;
    QTest::newRow("text") << "apple"
                          << "banana" << -1;
    QTest::newRow("several runs") << "it3-task17-r2"
                                  << "it3-task9-r5" << 1;
}

void TestModels::naturalCompare()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    QFETCH(int, sign);
    const int result = creditlab::ui::naturalCompare(a, b);
    QCOMPARE((result > 0) - (result < 0), sign);
}

QTEST_MAIN(TestModels)
#include "tst_ui_models.moc"
