// The per-turn credit heatmap: colour map, robust scale, sign-disagreement mask and summary, default methods, row
// orders, histograms, the loader on a temp store, and the view (blocks fitted to the width, paint of 10,000 × 50,
// disagreement marks, colour bar clip, selection, hover text with turns from 1, click, keyboard, export), and the
// legend. The outcome strip's colours stand apart from the diverging map's ends, also for colour-blind readers.
#include "core/storage/store.h"
#include "ui/charts/colours.h"
#include "ui/heatmap/creditheatmapview.h"
#include "ui/heatmap/heatmapdata.h"
#include "ui/heatmap/heatmaplegend.h"
#include "ui/heatmap/heatmapmath.h"

#include <QApplication>
#include <QHelpEvent>
#include <QImage>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QToolTip>
#include <QtTest>

#include <algorithm>
#include <array>
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
    void robustScale_data();
    void robustScale();
    void viewClipsAndSaysSo();
    void pairDisagreementMaths();
    void defaultMethodsRule_data();
    void defaultMethodsRule();
    void blocksFitTheWidth();
    void selectionScrollsToTheCell();
    void legend();
    void outcomeColoursStandApart();
    void orders_data();
    void orders();
    void histograms();
    void loader();
    void zeroCreditReasonsPerBatch();
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
    // The robust scale: the 98th percentile of |sin| and |cos| over the shown cells, a little under 1.
    QVERIFY(view.colorMap().limit() > 0.95 && view.colorMap().limit() < 1.0);
    QVERIFY(view.colorScale().clipped());
    QCOMPARE(view.disagreementMask().size(), std::size_t(500000));
    const QImage image = view.grab().toImage();
    QCOMPARE(image.size(), QSize(900, 600));
    // The first cell of block 0 shows row 0 turn 0 (value 0: white); block 1 shows cos(0) = 1: red.
    const QPoint c0 = view.viewport()->mapTo(&view, view.cellRect(0, 0, 0).center());
    const QPoint c1 = view.viewport()->mapTo(&view, view.cellRect(0, 0, 1).center());
    QCOMPARE(image.pixel(c0), DivergingColorMap::kZero);
    QCOMPARE(image.pixel(c1), DivergingColorMap::kPositive);

    // A disagreeing cell is outlined and struck through in both blocks (12 px cells), so that the mark shows on
    // every colour; filled with the outline colour when tiny.
    const auto& mask = view.disagreementMask();
    const auto hit = std::find(mask.begin(), mask.end(), std::uint8_t(1));
    QVERIFY(hit != mask.end());
    const std::size_t cellIndex = static_cast<std::size_t>(hit - mask.begin());
    const std::size_t maskRow = cellIndex / 50;
    const int maskTurn = static_cast<int>(cellIndex % 50);
    const QRgb outline = qRgb(0, 0, 0);
    view.resize(1400, 600); // both 50-turn blocks in view
    QCOMPARE(view.cellSize(), QSize(12, 12));
    view.scrollToDisplayRow(maskRow);
    const QImage outlined = view.grab().toImage();
    for (int method = 0; method < 2; ++method) {
        const QRect r = view.cellRect(maskRow, maskTurn, method);
        QCOMPARE(outlined.pixel(view.viewport()->mapTo(&view, r.topLeft())), outline);
        const QRgb fill = view.colorMap().tableRgb(view.data()->value(method, maskRow, maskTurn));
        // Inside the outline, the diagonal stroke: at least one pixel per inner column is not the cell's colour.
        int marked = 0;
        for (int x = r.left() + 1; x < r.right(); ++x)
            for (int y = r.top() + 1; y < r.bottom(); ++y)
                marked += outlined.pixel(view.viewport()->mapTo(&view, QPoint(x, y))) != fill ? 1 : 0;
        QVERIFY2(marked >= r.width() - 3, qPrintable(QString::number(marked)));
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
    QVERIFY(!view.colorScale().clipped());
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
    QVERIFY2(text.contains(QStringLiteral("Trajectory t3, turn 3")), qPrintable(text)); // turns count from 1
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

void TestHeatmap::robustScale_data()
{
    // |value| over the finite non-zero entries: 1, 2, 3, 4, 100 (n = 5); h = q·(n − 1), linear between neighbours.
    QTest::addColumn<double>("quantile");
    QTest::addColumn<double>("expected");
    QTest::newRow("median: h = 2") << 0.5 << 3.0;
    QTest::newRow("0.9: h = 3.6, 4 + 0.6·96") << 0.9 << 61.6;
    QTest::newRow("0.98: h = 3.92, 4 + 0.92·96") << 0.98 << 92.32;
    QTest::newRow("1: the largest") << 1.0 << 100.0;
    QTest::newRow("0: the smallest non-zero") << 0.0 << 1.0;
    QTest::newRow("0.25: h = 1") << 0.25 << 2.0;
}

void TestHeatmap::robustScale()
{
    QFETCH(double, quantile);
    QFETCH(double, expected);
    const std::vector<double> a { 0.0, 1.0, -2.0, kNaN };
    const std::vector<double> b { 3.0, 0.0, 4.0, -100.0 };
    const std::vector<const std::vector<double>*> both { &a, &b };
    QVERIFY(std::abs(absQuantile(both, quantile) - expected) < 1e-9);
    const ColorScale scale = robustColorScale(both, quantile);
    QVERIFY(std::abs(scale.limit - expected) < 1e-9);
    QCOMPARE(scale.maxAbs, 100.0);
    QCOMPARE(scale.clipped(), expected < 100.0);

    // No non-zero value: the scale is the largest |value| (0 here), not clipped.
    const std::vector<double> zeros { 0.0, kNaN, 0.0 };
    const std::vector<const std::vector<double>*> none { &zeros };
    QCOMPARE(absQuantile(none, quantile), 0.0);
    QCOMPARE(robustColorScale(none, quantile).limit, 0.0);
    QVERIFY(!robustColorScale(none, quantile).clipped());
    QCOMPARE(absQuantile({}, quantile), 0.0);
}

void TestHeatmap::viewClipsAndSaysSo()
{
    // 200 cells of ±0.5 and 2 outliers of 10: the colours span ±0.5, not ±10 (where every cell would be near
    // white), and the colour bar says that it clips.
    auto data = std::make_shared<HeatmapData>();
    data->columns = 10;
    data->methods = { "grpo", "triage" };
    data->values.assign(2, std::vector<double>(200, 0.5));
    data->roles.assign(200, HeatmapData::kNoRole);
    for (int r = 0; r < 20; ++r)
        data->rows.push_back(HeatmapRow { r, "t" + std::to_string(r), "g", r % 2 == 0, 10 });
    for (std::size_t i = 0; i < 200; i += 2)
        data->values[1][i] = -0.5;
    data->values[0][3] = 10.0;
    data->values[1][7] = -10.0;
    CreditHeatmapView view;
    view.resize(600, 400);
    view.setData(data);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QCOMPARE(view.colorScale().limit, 0.5);
    QCOMPARE(view.colorScale().maxAbs, 10.0);
    QVERIFY(view.colorScale().clipped());
    QCOMPARE(view.colorMap().tableRgb(0.5), DivergingColorMap::kPositive); // the bulk is saturated, not pale
    const QStringList labels = view.colorBarLabels();
    QCOMPARE(labels.size(), 3);
    QVERIFY2(labels.at(0).startsWith(QChar(0x2265)) && labels.at(0).contains(QStringLiteral("0.5")),
        qPrintable(labels.at(0)));
    QVERIFY2(labels.at(2).startsWith(QChar(0x2264)), qPrintable(labels.at(2)));
    const QString tip = view.colorBarToolTip();
    QVERIFY2(tip.contains(QStringLiteral("98th percentile")) && tip.contains(QStringLiteral("is 10")), qPrintable(tip));
    // The clip arrows: blue above the bar, red below it.
    const QImage image = view.grab().toImage();
    const QRect bar = view.colorBarRect();
    QCOMPARE(image.pixel(view.viewport()->mapTo(&view, QPoint(bar.center().x(), bar.top() - 3))),
        DivergingColorMap::kPositive);
    QCOMPARE(image.pixel(view.viewport()->mapTo(&view, QPoint(bar.center().x(), bar.bottom() + 3))),
        DivergingColorMap::kNegative);

    // Without outliers nothing is clipped and the labels say plain ±limit.
    data->values[0][3] = 0.5;
    data->values[1][7] = -0.5;
    view.setData(data);
    QVERIFY(!view.colorScale().clipped());
    QCOMPARE(view.colorBarLabels().at(0), QStringLiteral("+0.5"));
    QVERIFY(!view.colorBarToolTip().contains(QStringLiteral("percentile")));
}

void TestHeatmap::pairDisagreementMaths()
{
    // 2 rows × 3 turns. a vs b: turn by turn (1, −1) opposite; (−2, −1) same; (0, 3) a is zero; (0.5, −0.5)
    // opposite; (NaN, 2) missing; (−1, 2) opposite. Compared 4, disagreeing 3.
    HeatmapData data;
    data.columns = 3;
    data.methods = { "a", "b", "zero" };
    data.rows.push_back(HeatmapRow { 10, "x", "g", true, 3 });
    data.rows.push_back(HeatmapRow { 11, "y", "g", false, 3 });
    data.values = { { 1.0, -2.0, 0.0, 0.5, kNaN, -1.0 }, { -1.0, -1.0, 3.0, -0.5, 2.0, 2.0 },
        { 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 } };
    data.roles.assign(6, HeatmapData::kNoRole);
    const PairDisagreement ab = pairDisagreement(data, 0, 1);
    QCOMPARE(ab.compared, std::size_t(4));
    QCOMPARE(ab.disagreeing, std::size_t(3));
    QCOMPARE(ab.share(), 0.75);
    const PairDisagreement az = pairDisagreement(data, 0, 2);
    QCOMPARE(az.compared, std::size_t(0));
    QVERIFY(std::isnan(az.share()));
    const std::vector<int> methods { 0, 1, 2, 7 }; // 7 is no method
    const auto pairs = pairDisagreements(data, methods);
    QCOMPARE(pairs.size(), std::size_t(3));
    QVERIFY(pairs[0].a == 0 && pairs[0].b == 1);
    QVERIFY(pairs[1].a == 0 && pairs[1].b == 2);
    QVERIFY(pairs[2].a == 1 && pairs[2].b == 2);

    // Gaps of the opposite-sign turns: (1, −1) → 2 at row 0 turn 0; (0.5, −0.5) → 1 at row 1 turn 0; (−1, 2) → 3
    // at row 1 turn 2. Largest first.
    const auto top = topDisagreements(data, 0, 1, 10);
    QCOMPARE(top.size(), std::size_t(3));
    QCOMPARE(top[0].row, std::size_t(1));
    QCOMPARE(top[0].turn, 2);
    QCOMPARE(top[0].gap(), 3.0);
    QCOMPARE(top[1].row, std::size_t(0));
    QCOMPARE(top[1].turn, 0);
    QCOMPARE(top[1].a, 1.0);
    QCOMPARE(top[1].b, -1.0);
    QCOMPARE(top[2].gap(), 1.0);
    QCOMPARE(topDisagreements(data, 0, 1, 1).size(), std::size_t(1));
    QVERIFY(topDisagreements(data, 0, 2, 10).empty());
    // Equal gaps keep data order.
    data.values[1][5] = 1.0; // (−1, 1) → 2, like row 0 turn 0
    const auto tied = topDisagreements(data, 0, 1, 10);
    QCOMPARE(tied[0].row, std::size_t(0));
    QCOMPARE(tied[1].row, std::size_t(1));
    QCOMPARE(tied[1].turn, 2);
    QCOMPARE(nonZeroCount(data.values[0]), std::size_t(4));
}

void TestHeatmap::defaultMethodsRule_data()
{
    QTest::addColumn<QStringList>("methods");
    QTest::addColumn<QString>("allZero"); // comma-separated methods whose credits are all zero
    QTest::addColumn<QString>("trained");
    QTest::addColumn<QStringList>("expected");
    const QStringList household { "gigpo", "grpo", "pair", "scalar_judge", "triage" };
    // No successes: GiGPO and GRPO are all zero; scalar_judge equals TRIAGE (never disagrees), PAIR disagrees.
    QTest::newRow("own method, the rival that disagrees") << household << "gigpo,grpo"
                                                          << "triage" << QStringList { "triage", "pair" };
    QTest::newRow("own method, the standard rival GRPO") << household << ""
                                                         << "triage" << QStringList { "triage", "grpo" };
    QTest::newRow("GRPO's standard rival is TRIAGE") << household << ""
                                                     << "grpo" << QStringList { "grpo", "triage" };
    QTest::newRow("then GiGPO") << household << "triage"
                                << "grpo" << QStringList { "grpo", "gigpo" };
    QTest::newRow("an all-zero own method is skipped") << household << "gigpo,grpo,scalar_judge"
                                                       << "grpo" << QStringList { "pair", "triage" };
    QTest::newRow("an import: the most non-zero") << household << "gigpo,grpo,scalar_judge"
                                                  << "" << QStringList { "pair", "triage" };
    QTest::newRow("one method") << QStringList { "triage" } << ""
                                << "" << QStringList { "triage" };
    QTest::newRow("all zero: nothing skipped") << QStringList { "gigpo", "grpo" } << "gigpo,grpo"
                                               << "grpo" << QStringList { "grpo", "gigpo" };
}

void TestHeatmap::defaultMethodsRule()
{
    QFETCH(QStringList, methods);
    QFETCH(QString, allZero);
    QFETCH(QString, trained);
    QFETCH(QStringList, expected);
    HeatmapData data;
    data.columns = 4;
    for (int r = 0; r < 3; ++r)
        data.rows.push_back(HeatmapRow { r, std::to_string(r), "g", false, 4 });
    data.roles.assign(12, HeatmapData::kNoRole);
    const QStringList zero = allZero.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString& m : methods) {
        data.methods.push_back(m.toStdString());
        std::vector<double> v(12);
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (zero.contains(m))
                v[i] = 0.0;
            else if (m == QLatin1String("pair"))
                v[i] = i % 2 ? 1.0 : -1.0; // disagrees with triage on half the turns; 12 non-zero
            else if (m == QLatin1String("triage") || m == QLatin1String("scalar_judge"))
                v[i] = i < 10 ? 0.5 : 0.0; // 10 non-zero
            else
                v[i] = i < 3 ? -0.2 : 0.0; // 3 non-zero
        }
        data.values.push_back(std::move(v));
    }
    QStringList got;
    for (const int m : defaultMethods(data, trained.toStdString()))
        got << QString::fromStdString(data.methods[static_cast<std::size_t>(m)]);
    QCOMPARE(got, expected);
}

void TestHeatmap::blocksFitTheWidth()
{
    // Two 50-turn blocks in a 1000 px view: at 12 px they would need 1,200 px; the cells narrow so that both fit.
    CreditHeatmapView view;
    view.resize(1000, 400);
    view.setData(makeData(100, 50));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(view.cellSize().width() < 12);
    QVERIFY(view.cellSize().width() >= CreditHeatmapView::kMinCellWidth);
    const QRect viewport = view.viewport()->rect();
    for (int method = 0; method < 2; ++method) {
        QVERIFY(viewport.contains(view.cellRect(0, 0, method)));
        QVERIFY2(viewport.contains(view.cellRect(0, 49, method)), qPrintable(QString::number(method)));
    }
    QCOMPARE(view.horizontalScrollBar()->maximum(), 0);
    // Too many turns for the minimum width: the cells stop at it and the view scrolls sideways.
    view.setData(makeData(10, 400));
    QCOMPARE(view.cellSize().width(), CreditHeatmapView::kMinCellWidth);
    QVERIFY(view.horizontalScrollBar()->maximum() > 0);
    // A wide view keeps the full cell size.
    view.setData(makeData(10, 5));
    QCOMPARE(view.cellSize(), QSize(12, 12));
}

void TestHeatmap::selectionScrollsToTheCell()
{
    CreditHeatmapView view;
    view.resize(700, 300);
    view.setData(makeData(1000, 6));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.selectCell(900, 2);
    QVERIFY(view.selectedCell() && view.selectedCell()->first == 900 && view.selectedCell()->second == 2);
    const QRect cell = view.cellRect(900, 2, 0); // stored order: display row = data row
    QVERIFY(view.viewport()->rect().contains(cell));
    const QImage image = view.grab().toImage();
    QCOMPARE(image.pixel(view.viewport()->mapTo(&view, cell.topLeft())), creditlab::ui::colours::kHighlight);
    view.clearSelection();
    QVERIFY(!view.selectedCell());
}

void TestHeatmap::legend()
{
    HeatmapLegend legend;
    QStringList entries = legend.entries();
    QVERIFY(entries.contains(QStringLiteral("success")));
    QVERIFY(entries.contains(QStringLiteral("failure")));
    QVERIFY(!entries.join(QLatin1Char(' ')).contains(QStringLiteral("signs disagree")));
    legend.setComparedMethods(QStringLiteral("triage"), QStringLiteral("grpo"));
    entries = legend.entries();
    QVERIFY2(entries.contains(QStringLiteral("signs disagree (triage vs grpo)")),
        qPrintable(entries.join(QLatin1Char(';'))));
    legend.resize(legend.sizeHint());
    QVERIFY(!legend.grab().isNull());
    QCOMPARE(CreditHeatmapView::outcomeColor(true), QColor(46, 160, 67));
}

namespace {

/// sRGB to CIELAB (D65), for colour differences as the eye sees them (CIE76 ΔE).
std::array<double, 3> lab(std::array<double, 3> rgb)
{
    for (double& c : rgb) {
        c /= 255.0;
        c = c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    }
    const double x = (0.4124 * rgb[0] + 0.3576 * rgb[1] + 0.1805 * rgb[2]) / 0.95047;
    const double y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
    const double z = (0.0193 * rgb[0] + 0.1192 * rgb[1] + 0.9505 * rgb[2]) / 1.08883;
    const auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0; };
    return { 116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z)) };
}

/// `colour` as a viewer with a full colour-vision deficiency sees it: Machado, Oliveira & Fernandes (2009), severity
/// 1.0, applied in linear RGB. `deficiency` 0: none, 1: protanopia, 2: deuteranopia, 3: tritanopia.
std::array<double, 3> simulated(QRgb colour, int deficiency)
{
    static const double matrices[4][3][3] = {
        { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } },
        { { 0.152286, 1.052583, -0.204868 }, { 0.114503, 0.786281, 0.099216 }, { -0.003882, -0.048116, 1.051998 } },
        { { 0.367322, 0.860646, -0.227968 }, { 0.280085, 0.672501, 0.047413 }, { -0.011820, 0.042940, 0.968881 } },
        { { 1.255528, -0.076749, -0.178779 }, { -0.078411, 0.930809, 0.147602 }, { 0.004733, 0.691367, 0.303900 } },
    };
    const auto linear = [](int c) {
        const double v = c / 255.0;
        return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    const double in[3] = { linear(qRed(colour)), linear(qGreen(colour)), linear(qBlue(colour)) };
    std::array<double, 3> out {};
    for (int i = 0; i < 3; ++i) {
        double v = 0;
        for (int j = 0; j < 3; ++j)
            v += matrices[deficiency][i][j] * in[j];
        v = std::clamp(v, 0.0, 1.0);
        out[std::size_t(i)] = 255.0 * (v <= 0.0031308 ? 12.92 * v : 1.055 * std::pow(v, 1.0 / 2.4) - 0.055);
    }
    return out;
}

double deltaE(QRgb a, QRgb b, int deficiency)
{
    const auto x = lab(simulated(a, deficiency));
    const auto y = lab(simulated(b, deficiency));
    return std::hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]);
}

} // namespace

/// Issue 38: the failure strip's red (207, 34, 46) was the diverging map's negative end to the eye (ΔE 12), and for
/// deuteranopes the success green too. Failure now stands apart from both ends of the map, from success, white and
/// the missing grey, in normal vision and under the three full colour-vision deficiencies; the strip and the legend
/// paint it.
void TestHeatmap::outcomeColoursStandApart()
{
    constexpr double kApart = 30.0; // CIE76: about 2.3 is just noticeable; 30 is a different colour
    const QRgb failure = CreditHeatmapView::outcomeColor(false).rgb();
    const QRgb success = CreditHeatmapView::outcomeColor(true).rgb();
    QCOMPARE(failure, creditlab::ui::colours::kFailure);
    QCOMPARE(success, creditlab::ui::colours::kSuccess);
    const DivergingColorMap map(1.0);
    const std::pair<const char*, QRgb> others[] = { { "negative end", map.color(-1.0).rgb() },
        { "positive end", map.color(1.0).rgb() }, { "zero", creditlab::ui::colours::kZero },
        { "missing", creditlab::ui::colours::kMissing }, { "success", success } };
    for (int deficiency = 0; deficiency < 4; ++deficiency)
        for (const auto& [name, other] : others) {
            const double d = deltaE(failure, other, deficiency);
            QVERIFY2(d >= kApart,
                qPrintable(QStringLiteral("failure vs %1 (vision %2): ΔE %3").arg(name).arg(deficiency).arg(d)));
        }
    // The strip of a failed row is painted in it.
    CreditHeatmapView view;
    view.resize(500, 300);
    view.setData(makeData(4, 3));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const QImage image = view.viewport()->grab().toImage();
    bool painted = false;
    for (std::size_t d = 0; d < view.displayedRows().size(); ++d) {
        const std::size_t row = view.displayedRows()[d];
        if (view.data()->rows[row].success)
            continue;
        const QRect cell = view.cellRect(d, 0, 0);
        QCOMPARE(image.pixel(1, cell.center().y()), failure);
        painted = true;
    }
    QVERIFY(painted);
}

/// A method whose every credit here is 0 gets core's reason for the first iteration's batch (groups are per
/// iteration, as the credits were computed); one with a non-zero credit, or with no credit at all, gets none.
void TestHeatmap::zeroCreditReasonsPerBatch()
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    HeatmapData data;
    data.columns = 2;
    data.methods = { "grpo", "rtmc", "none" };
    // Iteration 1: groups a and b, two rollouts each, the same reward within each; iteration 2: group a again, with
    // one rollout.
    data.rows.push_back(HeatmapRow { 1, "t1", "a", true, 2, 1.0, 1 });
    data.rows.push_back(HeatmapRow { 2, "t2", "a", true, 1, 1.0, 1 });
    data.rows.push_back(HeatmapRow { 3, "t3", "b", false, 2, 0.0, 1 });
    data.rows.push_back(HeatmapRow { 4, "t4", "b", false, 2, 0.0, 1 });
    data.rows.push_back(HeatmapRow { 5, "t5", "a", false, 1, 0.0, 2 });
    data.values = { { 0, 0, 0, nan, 0, 0, 0, 0, 0, nan }, { 0, 0, 0, nan, 0, 0.5, 0, 0, 0, nan },
        std::vector<double>(10, nan) };
    const auto reasons = zeroCreditReasons(data);
    QCOMPARE(reasons.size(), std::size_t(3));
    QVERIFY(reasons[0]);
    const QString why = QString::fromStdString(*reasons[0]);
    QVERIFY2(why.startsWith("every grpo advantage is 0 (7 turns of 4 trajectories in 2 groups)"), qPrintable(why));
    QVERIFY2(why.contains("same reward"), qPrintable(why));
    QVERIFY(!reasons[1]);
    QVERIFY(!reasons[2]);
}

QTEST_MAIN(TestHeatmap)
#include "tst_ui_heatmap.moc"
