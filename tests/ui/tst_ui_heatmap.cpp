// The per-turn credit heatmap: colour map, sign-disagreement mask, row orders, histograms, the loader on a
// temp store, and the view (blocks, paint of 10,000 × 50, hover text, click, keyboard, export).
#include "core/store.h"
#include "ui/heatmap/creditheatmapview.h"
#include "ui/heatmap/heatmapdata.h"
#include "ui/heatmap/heatmapmath.h"

#include <QApplication>
#include <QHelpEvent>
#include <QImage>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QToolTip>
#include <QtTest>

#include <cmath>
#include <limits>
#include <memory>

using namespace creditlab;
using namespace creditlab::ui::heatmap;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// rows × columns of two methods; rows have groups, outcomes and turn counts given.
std::shared_ptr<HeatmapData> makeData(int rows, int columns)
{
    auto data = std::make_shared<HeatmapData>();
    data->columns = columns;
    data->methods = { "grpo", "triage" };
    const std::size_t cells = static_cast<std::size_t>(rows) * columns;
    data->values.assign(2, std::vector<double>(cells, kNaN));
    data->roles.assign(cells, HeatmapData::kNoRole);
    for (int r = 0; r < rows; ++r) {
        const int turns = columns - r % 3;
        data->rows.push_back(
            HeatmapRow { 100 + r, "t" + std::to_string(r), "g" + std::to_string(r % 4), r % 2 == 0, turns });
        for (int c = 0; c < turns; ++c) {
            const std::size_t i = data->index(r, c);
            data->values[0][i] = std::sin(0.1 * (r * columns + c));
            data->values[1][i] = std::cos(0.07 * (r * columns + c));
            data->roles[i] = static_cast<std::int8_t>((r + c) % 5 == 4 ? HeatmapData::kNoRole : (r + c) % 5);
        }
    }
    return data;
}

} // namespace

class TestHeatmap : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void colorMap_data();
    void colorMap();
    void colorMapTableMatches();
    void mask();
    void orders_data();
    void orders();
    void histograms();
    void loader();
    void viewBlocksAndPaint();
    void hoverAndClick();
    void keyboardScrolls();
    void exportImage();
};

void TestHeatmap::colorMap_data()
{
    QTest::addColumn<double>("limit");
    QTest::addColumn<double>("value");
    QTest::addColumn<QRgb>("expected");
    QTest::newRow("zero is white") << 2.0 << 0.0 << DivergingColorMap::kZero;
    QTest::newRow("+max is blue") << 2.0 << 2.0 << DivergingColorMap::kPositive;
    QTest::newRow("-max is red") << 2.0 << -2.0 << DivergingColorMap::kNegative;
    QTest::newRow("beyond +max clamps") << 2.0 << 7.0 << DivergingColorMap::kPositive;
    QTest::newRow("beyond -max clamps") << 2.0 << -7.0 << DivergingColorMap::kNegative;
    QTest::newRow("NaN is grey") << 2.0 << kNaN << DivergingColorMap::kMissing;
    QTest::newRow("zero limit gives white") << 0.0 << 3.0 << DivergingColorMap::kZero;
    QTest::newRow("half way to blue") << 2.0 << 1.0 << qRgb(144, 179, 214);
    QTest::newRow("half way to red") << 2.0 << -1.0 << qRgb(217, 140, 149);
}

void TestHeatmap::colorMap()
{
    QFETCH(double, limit);
    QFETCH(double, value);
    QFETCH(QRgb, expected);
    const DivergingColorMap map(limit);
    QCOMPARE(map.rgb(value), expected);
    QCOMPARE(map.color(value), QColor::fromRgb(expected));
    QCOMPARE(map.tableRgb(value), expected);
}

void TestHeatmap::colorMapTableMatches()
{
    const DivergingColorMap map(1.5);
    for (int i = -300; i <= 300; ++i) {
        const double v = 1.5 * i / 300.0;
        const QColor exact = map.color(v);
        const QColor table = QColor::fromRgb(map.tableRgb(v));
        QVERIFY2(std::abs(exact.red() - table.red()) <= 1 && std::abs(exact.green() - table.green()) <= 1
                && std::abs(exact.blue() - table.blue()) <= 1,
            qPrintable(QString::number(v)));
    }
    QCOMPARE(maxAbsValue({ { 0.5, kNaN, -3.0 }, { 2.0 } }), 3.0);
    QCOMPARE(maxAbsValue({}), 0.0);
}

void TestHeatmap::mask()
{
    const std::vector<double> a { 1.0, -1.0, 0.0, 2.0, kNaN, -0.5, 3.0 };
    const std::vector<double> b { -1.0, 2.0, -1.0, 0.0, -1.0, -0.1, 1.0 };
    const std::vector<std::uint8_t> expected { 1, 1, 0, 0, 0, 0, 0 };
    QCOMPARE(signDisagreementMask(a, b), expected);
}

void TestHeatmap::orders_data()
{
    QTest::addColumn<int>("order");
    QTest::addColumn<std::vector<std::size_t>>("expected");
    QTest::newRow("stored") << int(RowOrder::Stored) << std::vector<std::size_t> { 0, 1, 2, 3, 4 };
    QTest::newRow("group") << int(RowOrder::Group) << std::vector<std::size_t> { 1, 3, 0, 2, 4 };
    QTest::newRow("outcome") << int(RowOrder::Outcome) << std::vector<std::size_t> { 1, 2, 4, 0, 3 };
    QTest::newRow("disagreement") << int(RowOrder::Disagreement) << std::vector<std::size_t> { 3, 1, 4, 0, 2 };
}

void TestHeatmap::orders()
{
    QFETCH(int, order);
    QFETCH(std::vector<std::size_t>, expected);
    HeatmapData data;
    data.columns = 2;
    const char* groups[] = { "b", "a", "b", "a", "c" };
    const bool success[] = { false, true, true, false, true };
    for (int r = 0; r < 5; ++r)
        data.rows.push_back(HeatmapRow { r, std::to_string(r), groups[r], success[r], 2 });
    // Disagreeing cells per row: 0, 1, 0, 2, 1.
    const std::vector<std::uint8_t> mask { 0, 0, 1, 0, 0, 0, 1, 1, 0, 1 };
    QCOMPARE(orderRows(data, static_cast<RowOrder>(order), mask), expected);
}

void TestHeatmap::histograms()
{
    HeatmapData data;
    data.columns = 3;
    data.methods = { "m" };
    data.rows.push_back(HeatmapRow { 1, "a", "g", true, 3 });
    data.rows.push_back(HeatmapRow { 2, "b", "g", false, 2 });
    data.values = { { -2.0, 0.5, 2.0, 1.0, -0.1, kNaN } };
    data.roles = { std::int8_t(Role::D), std::int8_t(Role::D), std::int8_t(Role::R), HeatmapData::kNoRole,
        std::int8_t(Role::D), HeatmapData::kNoRole };
    const auto hs = advantageHistograms(data, 4);
    QCOMPARE(hs.size(), std::size_t(5));
    QCOMPARE(hs[0].role, std::optional<Role>(Role::D));
    QCOMPARE(hs[0].lo, -2.0);
    QCOMPARE(hs[0].hi, 2.0);
    QCOMPARE(hs[0].binWidth(), 1.0);
    QCOMPARE(hs[0].counts, (std::vector<int> { 1, 1, 1, 0 })); // -2 → 0, -0.1 → 1, 0.5 → 2
    QCOMPARE(hs[0].total, 3);
    QCOMPARE(hs[1].total, 0); // E
    QCOMPARE(hs[3].counts, (std::vector<int> { 0, 0, 0, 1 })); // R: +2 goes in the closed last bin
    QCOMPARE(hs[4].role, std::nullopt);
    QCOMPARE(hs[4].counts, (std::vector<int> { 0, 0, 0, 1 })); // unlabelled 1.0; the NaN is skipped
    const auto clamped = advantageHistograms(data, 2, 1.0);
    QCOMPARE(clamped[0].counts, (std::vector<int> { 2, 1 }));
    QVERIFY(advantageHistograms(data, 0).empty());
}

void TestHeatmap::loader()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    Store store(dir.filePath(QStringLiteral("runs.db")).toStdString());
    NewRun run;
    run.name = "r";
    const std::int64_t runId = store.createRun(run);
    std::vector<std::int64_t> ids;
    for (int i = 0; i < 3; ++i) {
        Trajectory t;
        t.id = "traj" + std::to_string(i);
        t.group = i == 1 ? "g1" : "g0";
        t.reward = i == 2 ? 0.0 : 1.0;
        t.iteration = i == 2 ? 1 : 0;
        for (int k = 0; k <= i + 1; ++k) {
            Turn turn;
            turn.observation = "o";
            turn.action = "a" + std::to_string(k);
            if (k == 0)
                turn.role = Role::E;
            t.turns.push_back(turn);
        }
        ids.push_back(store.insertTrajectory(runId, i, t));
    }
    store.writeCredits(ids[0], "grpo", std::vector<double> { 1.0, -1.0 });
    store.writeCredits(ids[0], "triage", std::vector<double> { -0.5, -1.0 });
    store.writeCredits(ids[1], "grpo", std::vector<double> { 0.25, 0.5, 0.75 });
    store.writeCredits(ids[2], "triage", std::vector<double> { 2.0, 0.0, 0.0, 1.0 });

    const HeatmapDataPtr all = loadHeatmapData(store, runId, std::nullopt, {});
    QVERIFY(all);
    QCOMPARE(all->rows.size(), std::size_t(3));
    QCOMPARE(all->columns, 4);
    QCOMPARE(all->methods, (std::vector<std::string> { "grpo", "triage" }));
    QCOMPARE(all->rows[1].rowId, ids[1]);
    QCOMPARE(all->rows[1].group, std::string("g1"));
    QCOMPARE(all->rows[2].success, false);
    QCOMPARE(all->rows[2].turnCount, 4);
    QCOMPARE(all->value(0, 0, 1), -1.0);
    QCOMPARE(all->value(1, 0, 0), -0.5);
    QVERIFY(std::isnan(all->value(0, 0, 2))); // no such turn
    QVERIFY(std::isnan(all->value(1, 1, 0))); // no triage credit on trajectory 1
    QCOMPARE(all->value(1, 2, 3), 1.0);
    QCOMPARE(all->role(0, 0), std::optional<Role>(Role::E));
    QCOMPARE(all->role(0, 1), std::nullopt);
    const auto mask = signDisagreementMask(all->values[0], all->values[1]);
    QCOMPARE(mask[all->index(0, 0)], std::uint8_t(1));
    QCOMPARE(mask[all->index(0, 1)], std::uint8_t(0));

    const HeatmapDataPtr one = loadHeatmapData(store, runId, 1, { "triage" });
    QVERIFY(one);
    QCOMPARE(one->rows.size(), std::size_t(1));
    QCOMPARE(one->methods, std::vector<std::string> { "triage" });
    QCOMPARE(one->value(0, 0, 0), 2.0);

    QVERIFY(!loadHeatmapData(store, runId, std::nullopt, {}, [] { return true; }));
}

void TestHeatmap::viewBlocksAndPaint()
{
    CreditHeatmapView view;
    view.resize(900, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QImage empty = view.grab().toImage();
    QVERIFY(!empty.isNull());

    view.setData(makeData(10000, 50));
    QCOMPARE(view.methodBlockCount(), 2);
    QCOMPARE(view.colorMap().limit(), 1.0);
    QCOMPARE(view.disagreementMask().size(), std::size_t(500000));
    const QImage image = view.grab().toImage();
    QCOMPARE(image.size(), QSize(900, 600));
    // The first cell of block 0 shows row 0 turn 0 (value 0: white); block 1 shows cos(0) = 1: red.
    const QPoint c0 = view.viewport()->mapTo(&view, view.cellRect(0, 0, 0).center());
    const QPoint c1 = view.viewport()->mapTo(&view, view.cellRect(0, 0, 1).center());
    QCOMPARE(image.pixel(c0), DivergingColorMap::kZero);
    QCOMPARE(image.pixel(c1), DivergingColorMap::kPositive);

    // A disagreeing cell is outlined in both blocks (12 px cells), filled with the outline colour when tiny.
    const auto& mask = view.disagreementMask();
    const auto hit = std::find(mask.begin(), mask.end(), std::uint8_t(1));
    QVERIFY(hit != mask.end());
    const std::size_t cellIndex = static_cast<std::size_t>(hit - mask.begin());
    const std::size_t maskRow = cellIndex / 50;
    const int maskTurn = static_cast<int>(cellIndex % 50);
    const QRgb outline = view.palette().color(QPalette::Text).rgb();
    view.resize(1400, 600); // both 50-turn blocks in view
    view.scrollToDisplayRow(maskRow);
    const QImage outlined = view.grab().toImage();
    for (int method = 0; method < 2; ++method) {
        const QRect r = view.cellRect(maskRow, maskTurn, method);
        QCOMPARE(outlined.pixel(view.viewport()->mapTo(&view, r.topLeft())), outline);
        QVERIFY(outlined.pixel(view.viewport()->mapTo(&view, r.center())) != outline);
    }
    view.setCellSize(QSize(2, 2));
    view.scrollToDisplayRow(maskRow);
    const QImage tiny = view.grab().toImage();
    QCOMPARE(tiny.pixel(view.viewport()->mapTo(&view, view.cellRect(maskRow, maskTurn, 1).center())), outline);
    view.setCellSize(QSize(12, 12));
    view.verticalScrollBar()->setValue(0);

    view.setShownMethods({ QStringLiteral("triage"), QStringLiteral("nope") });
    QCOMPARE(view.methodBlockCount(), 1);
    QCOMPARE(view.shownMethods(), std::vector<int> { 1 });
    QVERIFY(view.disagreementMask().empty());
    QVERIFY(!view.grab().isNull());
    view.setShownMethods({});
    QCOMPARE(view.methodBlockCount(), 2);

    view.setRowOrder(RowOrder::Outcome);
    QVERIFY(view.data()->rows[view.displayedRows().front()].success);
    QVERIFY(!view.data()->rows[view.displayedRows().back()].success);
    view.setColorLimit(4.0);
    QCOMPARE(view.colorMap().limit(), 4.0);
    view.verticalScrollBar()->setValue(view.verticalScrollBar()->maximum());
    QVERIFY(!view.grab().isNull());
}

void TestHeatmap::hoverAndClick()
{
    CreditHeatmapView view;
    view.resize(700, 400);
    view.setData(makeData(20, 6));
    view.setActionTextProvider(
        [](qint64 rowId, int turn) { return QStringLiteral("act<%1,%2>").arg(rowId).arg(turn); });
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));

    const QPoint pos = view.cellRect(3, 2, 1).center();
    const auto cell = view.cellAt(pos);
    QVERIFY(cell);
    QCOMPARE(cell->row, std::size_t(3));
    QCOMPARE(cell->turn, 2);
    QCOMPARE(cell->method, 1);
    const QString text = view.toolTipText(cell->row, cell->turn);
    QVERIFY2(text.contains(QStringLiteral("Trajectory t3, turn 2")), qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("grpo: ") + QString::number(std::sin(0.1 * (3 * 6 + 2)), 'g', 4)));
    QVERIFY(text.contains(QStringLiteral("triage: ") + QString::number(std::cos(0.07 * (3 * 6 + 2)), 'g', 4)));
    QVERIFY(text.contains(QStringLiteral("Action: act<103,2>")));
    QVERIFY(text.contains(QStringLiteral("Outcome: failure")));
    // Row 1 has 5 turns: its 6th column is no cell.
    QVERIFY(!view.cellAt(view.cellRect(1, 5, 0).center()));
    QVERIFY(!view.cellAt(QPoint(2, 2))); // header

    // The real tooltip path: the text is shown escaped (plain text from data).
    QHelpEvent help(QEvent::ToolTip, pos, view.viewport()->mapToGlobal(pos));
    QApplication::sendEvent(view.viewport(), &help);
    QVERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().contains(QStringLiteral("act&lt;103,2&gt;")), qPrintable(QToolTip::text()));

    QSignalSpy spy(&view, &CreditHeatmapView::turnActivated);
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, pos);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toLongLong(), 103);
    QCOMPARE(spy.at(0).at(1).toInt(), 2);
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, QPoint(2, 2));
    QCOMPARE(spy.count(), 1);
}

void TestHeatmap::keyboardScrolls()
{
    CreditHeatmapView view;
    view.resize(600, 300);
    view.setData(makeData(1000, 10));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QScrollBar* bar = view.verticalScrollBar();
    QVERIFY(bar->maximum() > 0);
    QCOMPARE(bar->value(), 0);
    QTest::keyClick(&view, Qt::Key_Down);
    QCOMPARE(bar->value(), view.cellSize().height());
    QTest::keyClick(&view, Qt::Key_PageDown);
    QVERIFY(bar->value() > view.cellSize().height());
    QTest::keyClick(&view, Qt::Key_End);
    QCOMPARE(bar->value(), bar->maximum());
    // The last row is at the bottom now.
    QVERIFY(view.cellAt(view.cellRect(999, 0, 0).center()));
    QTest::keyClick(&view, Qt::Key_Home);
    QCOMPARE(bar->value(), 0);
    view.scrollToDisplayRow(500);
    QVERIFY(view.cellAt(view.cellRect(500, 0, 0).center()));
}

void TestHeatmap::exportImage()
{
    CreditHeatmapView view;
    view.resize(500, 300);
    view.setData(makeData(100, 8));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("h.png"));
    const QString svg = dir.filePath(QStringLiteral("h.svg"));
    QString error;
    QVERIFY2(view.exportImage(png, &error), qPrintable(error));
    QVERIFY2(view.exportImage(svg, &error), qPrintable(error));
    const QImage image(png);
    QCOMPARE(image.size(), view.viewport()->size() * 2);
    // Row 0 turn 0 of the second block: cos(0) = 1 = the range, red.
    QCOMPARE(image.pixel(view.cellRect(0, 0, 1).center() * 2), DivergingColorMap::kPositive);
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll().contains("<svg"));
    QVERIFY(!view.exportImage(dir.filePath(QStringLiteral("missing/h.png")), &error));
    QVERIFY(!error.isEmpty());
}

QTEST_MAIN(TestHeatmap)
#include "tst_ui_heatmap.moc"
