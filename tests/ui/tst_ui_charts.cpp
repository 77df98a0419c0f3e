// The charts library: the pure helpers (debiased EMA, min/max decimation) and the three chart widgets
// (offscreen): point counts, coalesced redraws, zoom state, export to PNG/SVG, colour maps.
#include "ui/charts/chartgroup.h"
#include "ui/charts/colours.h"
#include "ui/charts/errorbarchart.h"
#include "ui/charts/heatmapchart.h"
#include "ui/charts/linechart.h"

#include <QApplication>
#include <QChartView>
#include <QFile>
#include <QImage>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <QtTest/qtestspontaneevent.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

using namespace creditlab::ui::charts;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<double> iota(std::size_t n)
{
    std::vector<double> x(n);
    for (std::size_t i = 0; i < n; ++i)
        x[i] = static_cast<double>(i);
    return x;
}

std::vector<double> noise(std::size_t n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::normal_distribution<double> d(0.0, 1.0);
    std::vector<double> y(n);
    for (double& v : y)
        v = d(rng);
    return y;
}

} // namespace

class TestCharts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void emaHandComputed_data();
    void emaHandComputed();
    void emaNaNPassesThrough();
    void decimateKeepsExtremes_data();
    void decimateKeepsExtremes();
    void decimateSpikeSurvives();
    void decimateEdgesAndEmpty();
    void lineChartDecimatesLargeSeries();
    void lineChartCoalescesAppends();
    void lineChartZoomKeepsUserView();
    void lineChartTinySpansStayFinite();
    void lineChartSmoothingAndSeries();
    void lineChartSmoothedIncrementally();
    void lineChartHoverAndInput();
    void lineChartWheelScrollsPageCtrlZooms();
    void lineChartXOnlyZoomFitsY();
    void lineChartLogScale();
    void chartGroupSharesCrosshairZoomAndXRange();
    void lineChartExport_data();
    void lineChartExport();
    void lineChartExportUnwritable();
    void heatmapColors();
    void colourLanguage();
    void errorBarExport();
};

void TestCharts::lineChartTinySpansStayFinite()
{
    // A metric that barely moves (a KL of 1e-13) after a wide one: Qt Charts would step ticks forever over a span
    // below double precision, or create billions of ticks if the tiny interval met the old range. This hangs on
    // failure (the test then times out).
    LineChart chart;
    chart.resize(600, 400);
    const int id = chart.addSeries(QStringLiteral("kl"));
    chart.setSeriesData(id, { 0, 1, 2 }, { 0, 500, 1000 });
    chart.redrawNow();
    chart.setSeriesData(id, { 0, 1, 2 }, { 0.5, 0.5 + 1e-13, 0.5 + 2e-13 });
    chart.redrawNow();
    QVERIFY(chart.visibleRange().height() >= 1e-9 * 0.99);
    chart.setSeriesData(id, { 1000, 1000 + 1e-12 }, { 1, 1 });
    chart.redrawNow();
    QVERIFY(chart.visibleRange().width() > 0);
    chart.setSeriesData(id, { 0, 1 }, { -1e6, 1e6 });
    chart.redrawNow();
    QVERIFY(chart.visibleRange().height() >= 2e6);
}

void TestCharts::emaHandComputed_data()
{
    QTest::addColumn<double>("weight");
    QTest::addColumn<std::vector<double>>("input");
    QTest::addColumn<std::vector<double>>("expected");
    // w = 0.5: ema = 0.5, 1.25, 2.125; debias 1 - 0.5^k = 0.5, 0.75, 0.875.
    QTest::newRow("w0.5") << 0.5 << std::vector<double> { 1, 2, 3 }
                          << std::vector<double> { 1.0, 1.25 / 0.75, 2.125 / 0.875 };
    QTest::newRow("w0 identity") << 0.0 << std::vector<double> { 1, -2, 7.5 } << std::vector<double> { 1, -2, 7.5 };
    // Debiasing makes a constant series stay constant, whatever the weight (TensorBoard's bias to 0 is gone).
    QTest::newRow("constant w0.9") << 0.9 << std::vector<double> { 4, 4, 4, 4 } << std::vector<double> { 4, 4, 4, 4 };
    QTest::newRow("clamped w>1") << 5.0 << std::vector<double> { 2, 2 } << std::vector<double> { 2, 2 };
}

void TestCharts::emaHandComputed()
{
    QFETCH(double, weight);
    QFETCH(std::vector<double>, input);
    QFETCH(std::vector<double>, expected);
    const std::vector<double> out = debiasedEma(input, weight);
    QCOMPARE(out.size(), expected.size());
    QCOMPARE(out.front(), input.front()); // the first value is the first data point exactly
    for (std::size_t i = 0; i < out.size(); ++i)
        QVERIFY2(std::abs(out[i] - expected[i]) < 1e-12, qPrintable(QString("i=%1 got %2").arg(i).arg(out[i])));
}

void TestCharts::emaNaNPassesThrough()
{
    const std::vector<double> out = debiasedEma({ 1, kNaN, 2, 3 }, 0.5);
    QCOMPARE(out.size(), std::size_t(4));
    QCOMPARE(out[0], 1.0);
    QVERIFY(std::isnan(out[1]));
    // The NaN neither updated nor reset the average: same as smoothing [1, 2, 3].
    QVERIFY(std::abs(out[2] - 1.25 / 0.75) < 1e-12);
    QVERIFY(std::abs(out[3] - 2.125 / 0.875) < 1e-12);
    const std::vector<double> leading = debiasedEma({ kNaN, 5 }, 0.9);
    QVERIFY(std::isnan(leading[0]));
    QCOMPARE(leading[1], 5.0);
}

void TestCharts::decimateKeepsExtremes_data()
{
    QTest::addColumn<int>("points");
    QTest::addColumn<int>("columns");
    QTest::addColumn<bool>("minMaxOnly");
    for (bool minMaxOnly : { false, true }) {
        const char* mode = minMaxOnly ? " min/max" : " first/min/max/last";
        QTest::addRow("100k into 300%s", mode) << 100000 << 300 << minMaxOnly;
        QTest::addRow("10k into 1%s", mode) << 10000 << 1 << minMaxOnly;
        QTest::addRow("5k into 999%s", mode) << 5000 << 999 << minMaxOnly;
        QTest::addRow("fewer points than budget%s", mode) << 50 << 100 << minMaxOnly;
    }
}

void TestCharts::decimateKeepsExtremes()
{
    QFETCH(int, points);
    QFETCH(int, columns);
    QFETCH(bool, minMaxOnly);
    const std::vector<double> x = iota(static_cast<std::size_t>(points));
    const std::vector<double> y = noise(x.size(), 7);
    const QList<QPointF> out = minMaxOnly ? decimateMinMax(x, y, x.front(), x.back(), columns, Decimation::MinMax)
                                          : decimateMinMax(x, y, x.front(), x.back(), columns);
    QVERIFY(out.size() <= (minMaxOnly ? 2 : 4) * columns + 2);
    QVERIFY(!out.isEmpty());
    if (!minMaxOnly || points <= 2 * columns) {
        QCOMPARE(out.front(), QPointF(x.front(), y.front()));
        QCOMPARE(out.back(), QPointF(x.back(), y.back()));
    }
    for (qsizetype i = 1; i < out.size(); ++i)
        QVERIFY2(out[i - 1].x() < out[i].x(), "x order preserved, no duplicates");
    const auto [mn, mx] = std::minmax_element(y.begin(), y.end());
    const auto has
        = [&](double v) { return std::any_of(out.begin(), out.end(), [v](const QPointF& p) { return p.y() == v; }); };
    QVERIFY2(has(*mn), "global minimum kept");
    QVERIFY2(has(*mx), "global maximum kept");
}

void TestCharts::decimateSpikeSurvives()
{
    std::vector<double> x = iota(100000);
    std::vector<double> y(x.size(), 0.0);
    y[61234] = 1000.0;
    const QList<QPointF> out = decimateMinMax(x, y, 0.0, 99999.0, 200);
    QVERIFY(out.size() <= 4 * 200 + 2);
    QVERIFY(std::any_of(out.begin(), out.end(), [](const QPointF& p) { return p.y() == 1000.0 && p.x() == 61234.0; }));
}

void TestCharts::decimateEdgesAndEmpty()
{
    const std::vector<double> x = iota(1000);
    const std::vector<double> y = noise(1000, 3);
    // The neighbour just outside each end is included so the line reaches the plot edges.
    const QList<QPointF> out = decimateMinMax(x, y, 100.5, 899.5, 50);
    QCOMPARE(out.front().x(), 100.0);
    QCOMPARE(out.back().x(), 900.0);
    QVERIFY(out.size() <= 4 * 50 + 2);
    QVERIFY(decimateMinMax({}, {}, 0, 1, 10).isEmpty());
    QVERIFY(decimateMinMax(x, y, 0, 10, 0).isEmpty());
    // Non-finite y values are skipped, not drawn.
    const QList<QPointF> nan = decimateMinMax({ 0, 1, 2 }, { 1, kNaN, 3 }, 0, 2, 10);
    QCOMPARE(nan.size(), 2);
}

void TestCharts::lineChartDecimatesLargeSeries()
{
    LineChart chart;
    chart.resize(800, 500);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    const int id = chart.addSeries(QStringLiteral("success"));
    QVERIFY(id >= 0);
    chart.setSeriesData(id, iota(100000), noise(100000, 1));
    chart.redrawNow();
    QCOMPARE(chart.pointCount(id), 100000);
    QVERIFY(chart.drawnPointCount(id) > 0);
    QVERIFY2(
        chart.drawnPointCount(id) <= 4 * chart.width() + 4, qPrintable(QString::number(chart.drawnPointCount(id))));
    // Zoomed in to 100 points: every one is drawn (plus the neighbours just outside).
    chart.setVisibleRange(QRectF(QPointF(1000, -5), QPointF(1099, 5)));
    chart.redrawNow();
    QCOMPARE(chart.drawnPointCount(id), 102);
}

void TestCharts::lineChartCoalescesAppends()
{
    LineChart chart;
    chart.resize(600, 400);
    const int id = chart.addSeries(QStringLiteral("loss"));
    chart.redrawNow();
    QSignalSpy redrawn(&chart, &LineChart::redrawn);
    for (int batch = 0; batch < 5; ++batch) {
        std::vector<double> x, y;
        for (int i = 0; i < 20; ++i) {
            x.push_back(batch * 20 + i);
            y.push_back(std::sin((batch * 20 + i) * 0.1));
        }
        chart.appendPoints(id, x, y);
    }
    QCOMPARE(chart.pointCount(id), 100);
    QCOMPARE(redrawn.count(), 0); // nothing drawn synchronously
    QVERIFY(redrawn.wait(2000));
    QCOMPARE(redrawn.count(), 1); // five batches, one redraw
    QCOMPARE(chart.drawnPointCount(id), 100);
    // Not zoomed: the view followed the data.
    QCOMPARE(chart.visibleRange().right(), 99.0);
}

void TestCharts::lineChartZoomKeepsUserView()
{
    LineChart chart;
    chart.resize(600, 400);
    const int id = chart.addSeries(QStringLiteral("return"));
    chart.setSeriesData(id, iota(1000), noise(1000, 2));
    chart.redrawNow();
    QCOMPARE(chart.visibleRange().left(), 0.0);
    QCOMPARE(chart.visibleRange().right(), 999.0);
    QVERIFY(!chart.isZoomed());

    const QRectF view(QPointF(100, -1), QPointF(200, 1));
    chart.setVisibleRange(view);
    QVERIFY(chart.isZoomed());
    QSignalSpy redrawn(&chart, &LineChart::redrawn);
    chart.appendPoints(id, { 1000, 1001, 1002 }, { 50, 60, 70 });
    QVERIFY(redrawn.wait(2000));
    QCOMPARE(chart.visibleRange(), view); // the user's view is kept
    QCOMPARE(chart.pointCount(id), 1003);

    chart.resetZoom();
    QVERIFY(!chart.isZoomed());
    const QRectF fitted = chart.visibleRange();
    QCOMPARE(fitted.left(), 0.0);
    QCOMPARE(fitted.right(), 1002.0);
    QVERIFY(fitted.bottom() >= 70.0); // the appended maximum is inside
    QVERIFY(fitted.top() <= -2.0);
}

void TestCharts::lineChartSmoothingAndSeries()
{
    LineChart chart;
    chart.resize(600, 400);
    QCOMPARE(chart.smoothing(), 0.0);
    chart.setSmoothing(2.0);
    QCOMPARE(chart.smoothing(), 0.999);
    chart.setSmoothing(0.6);
    const int a = chart.addSeries(QStringLiteral("a"));
    const int b = chart.addSeries(QStringLiteral("b"), Qt::black);
    QVERIFY(a != b);
    QCOMPARE(chart.seriesCount(), 2);
    QCOMPARE(chart.seriesColor(b), QColor(Qt::black));
    QVERIFY(chart.seriesColor(a).isValid());
    QVERIFY(chart.seriesColor(a) != chart.seriesColor(chart.addSeries(QStringLiteral("c"))));
    chart.setSeriesData(a, { 0, 1, 2 }, { 1, 2, 3 });
    chart.setSeriesBand(a, { 0, 1, 2 }, { 2, 3, 4 });
    chart.setSeriesStyle(b, SeriesStyle { true, 2.0, false });
    chart.redrawNow();
    QCOMPARE(chart.drawnPointCount(a), 3);
    // The legend lists each series once (raw curves and bands have no entry); clicking an entry toggles it.
    auto* view = chart.findChild<QChartView*>();
    QVERIFY(view);
    QList<QLegendMarker*> shown;
    for (QLegendMarker* m : view->chart()->legend()->markers())
        if (m->isVisible())
            shown.append(m);
    QCOMPARE(shown.size(), 3);
    QCOMPARE(shown.first()->label(), QStringLiteral("a"));
    Q_EMIT shown.first()->clicked();
    QVERIFY(!chart.isSeriesVisible(a));
    QVERIFY(shown.first()->isVisible()); // still there (dimmed) to click it back on
    Q_EMIT shown.first()->clicked();
    QVERIFY(chart.isSeriesVisible(a));
    chart.setSeriesVisible(a, false);
    QVERIFY(!chart.isSeriesVisible(a));
    chart.redrawNow();
    QCOMPARE(chart.drawnPointCount(a), 0);
    chart.removeSeries(a);
    QCOMPARE(chart.seriesCount(), 2);
    QCOMPARE(chart.pointCount(a), 0);
    chart.clear();
    QCOMPARE(chart.seriesCount(), 0);
    chart.redrawNow();
}

void TestCharts::lineChartSmoothedIncrementally()
{
    // What Qt Charts draws for the main line equals debiasedEma over all the data, also when the data came in
    // batches (the cache continues the EMA) and after the weight changed (the cache is rebuilt).
    LineChart chart;
    chart.resize(600, 400);
    chart.setSmoothing(0.5);
    const int id = chart.addSeries(QStringLiteral("main"));
    const std::vector<double> y = { 1, 2, kNaN, 3, 10, -4, 2 };
    chart.setSeriesData(id, { 0, 1, 2 }, { y[0], y[1], y[2] });
    chart.redrawNow();
    chart.appendPoints(id, { 3, 4 }, { y[3], y[4] });
    chart.redrawNow();
    chart.appendPoints(id, { 5, 6 }, { y[5], y[6] });
    chart.redrawNow();
    auto* view = chart.findChild<QChartView*>();
    QVERIFY(view);
    const auto mainLine = [&]() -> QLineSeries* {
        for (QAbstractSeries* s : view->chart()->series())
            if (s->name() == QLatin1String("main"))
                return qobject_cast<QLineSeries*>(s);
        return nullptr;
    };
    QVERIFY(mainLine());
    for (double w : { 0.5, 0.9 }) {
        chart.setSmoothing(w);
        chart.redrawNow();
        const std::vector<double> expected = debiasedEma(y, w);
        const QList<QPointF> drawn = mainLine()->points();
        QCOMPARE(drawn.size(), 6); // the NaN point is not drawn
        qsizetype k = 0;
        for (std::size_t i = 0; i < y.size(); ++i) {
            if (std::isnan(y[i]))
                continue;
            QCOMPARE(drawn[k].x(), double(i));
            QVERIFY2(std::abs(drawn[k].y() - expected[i]) < 1e-12, qPrintable(QString("w=%1 i=%2").arg(w).arg(i)));
            ++k;
        }
    }
}

void TestCharts::lineChartHoverAndInput()
{
    LineChart chart;
    chart.resize(700, 450);
    chart.setSmoothing(0.5);
    const int id = chart.addSeries(QStringLiteral("success"));
    chart.setSeriesData(id, iota(1001), std::vector<double>(1001, 0.25));
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.redrawNow();
    auto* view = chart.findChild<QChartView*>();
    QVERIFY(view);
    QWidget* viewport = view->viewport();
    const QPoint centre = view->mapFromScene(view->chart()->plotArea().center());

    QSignalSpy hovered(&chart, &LineChart::hovered);
    QTest::mouseMove(viewport, centre);
    QTRY_VERIFY(hovered.count() > 0);
    const double x = hovered.last().at(0).toDouble();
    QVERIFY2(x > 400 && x < 600, qPrintable(QString::number(x))); // the middle of 0..1000
    const QStringList readout = hovered.last().at(1).toStringList();
    QCOMPARE(readout.size(), 1);
    QCOMPARE(readout.first(), QStringLiteral("success: 0.25 (raw 0.25)"));

    // Ctrl+wheel up at the centre zooms in around it; Home resets.
    QWheelEvent wheel(QPointF(centre), QPointF(viewport->mapToGlobal(centre)), QPoint(), QPoint(0, 240), Qt::NoButton,
        Qt::ControlModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(viewport, &wheel);
    QVERIFY(chart.isZoomed());
    const QRectF zoomed = chart.visibleRange();
    QVERIFY(zoomed.width() < 1000 * 0.8);
    QVERIFY(zoomed.left() > 0 && zoomed.right() < 1000);
    QTest::keyClick(view, Qt::Key_Right);
    QVERIFY(chart.visibleRange().left() > zoomed.left()); // arrows pan
    QTest::keyClick(view, Qt::Key_Home);
    QVERIFY(!chart.isZoomed());
    QCOMPARE(chart.visibleRange().left(), 0.0);
    QCOMPARE(chart.visibleRange().right(), 1000.0);

    // A left drag zooms to the dragged rectangle.
    QTest::mousePress(viewport, Qt::LeftButton, Qt::NoModifier, centre);
    QTest::mouseMove(viewport, centre + QPoint(100, 60));
    QTest::mouseRelease(viewport, Qt::LeftButton, Qt::NoModifier, centre + QPoint(100, 60));
    QVERIFY(chart.isZoomed());
    QVERIFY(chart.visibleRange().left() > 400 && chart.visibleRange().right() < 1000);
}

namespace {

/// A wheel turn (two notches up) over `widget` at `pos`, with `mods`, delivered like one from the window system:
/// spontaneous, so that while ignored it propagates to the parents (Qt does not propagate synthesized wheel events).
void wheelAt(QWidget* widget, QPoint pos, Qt::KeyboardModifiers mods, int delta = 240)
{
    QWheelEvent wheel(QPointF(pos), QPointF(widget->mapToGlobal(pos)), QPoint(), QPoint(0, delta), Qt::NoButton, mods,
        Qt::NoScrollPhase, false);
    QSpontaneKeyEvent::setSpontaneous(&wheel);
    qApp->notify(widget, &wheel);
}

QWidget* plotViewport(LineChart& chart, QPoint* centre)
{
    auto* view = chart.findChild<QChartView*>();
    *centre = view->mapFromScene(view->chart()->plotArea().center());
    return view->viewport();
}

} // namespace

void TestCharts::lineChartWheelScrollsPageCtrlZooms()
{
    // Issue 20 §9: charts stacked in a page that scrolls. The plain wheel over a chart scrolls the page (it zoomed the
    // chart, and the page could not be scrolled from a chart); Ctrl+wheel zooms, Ctrl+Shift+wheel the x axis only.
    QScrollArea page;
    page.resize(700, 400);
    auto* content = new QWidget;
    auto* column = new QVBoxLayout(content);
    QList<LineChart*> charts;
    for (int i = 0; i < 4; ++i) {
        auto* chart = new LineChart;
        chart->setMinimumHeight(300);
        const int id = chart->addSeries(QStringLiteral("m%1").arg(i));
        chart->setSeriesData(id, iota(101), noise(101, unsigned(i)));
        column->addWidget(chart);
        charts << chart;
    }
    page.setWidget(content);
    page.setWidgetResizable(true);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    LineChart& first = *charts.first();
    first.redrawNow();
    QPoint centre;
    QWidget* viewport = plotViewport(first, &centre);
    QScrollBar* bar = page.verticalScrollBar();
    QVERIFY(bar->maximum() > 0);
    QCOMPARE(bar->value(), 0);
    wheelAt(viewport, centre, Qt::NoModifier, -240); // down
    QVERIFY(!first.isZoomed());
    QVERIFY2(bar->value() > 0, "the plain wheel over a chart scrolls the page");
    const int scrolled = bar->value();
    wheelAt(viewport, centre, Qt::ControlModifier);
    QVERIFY(first.isZoomed());
    QCOMPARE(bar->value(), scrolled);
    const QRectF both = first.visibleRange();
    QVERIFY(both.width() < 100 * 0.8);
    first.resetZoom();
    first.redrawNow();
    const QRectF full = first.visibleRange();
    wheelAt(viewport, centre, Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY(first.visibleRange().width() < full.width() * 0.8);
    QVERIFY(first.visibleRange().height() <= full.height()); // x only; y fits the data in view (issue 38)
}

void TestCharts::lineChartXOnlyZoomFitsY()
{
    // Issue 38: Ctrl+Shift+wheel zoomed x and kept the y range of before, so the data in view, or points appended
    // while zoomed (the Monitor of a running run), could lie outside it: the line ran off the plot. y now follows
    // the data in the x range shown, as it does on the charts a ChartGroup links to this one.
    LineChart chart;
    chart.resize(700, 400);
    const int id = chart.addSeries(QStringLiteral("rising"));
    chart.setSeriesData(id, iota(101), iota(101)); // y = x on [0, 100]
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.redrawNow();
    QSignalSpy xRange(&chart, &LineChart::xRangeChanged);
    QPoint centre;
    QWidget* viewport = plotViewport(chart, &centre);
    wheelAt(viewport, centre, Qt::ControlModifier | Qt::ShiftModifier, 480); // four notches in: x about [30, 70]
    chart.redrawNow();
    QVERIFY(chart.isZoomed());
    QCOMPARE(xRange.count(), 1);
    QRectF r = chart.visibleRange();
    QVERIFY2(r.left() > 20 && r.right() < 80, qPrintable(QStringLiteral("%1 .. %2").arg(r.left()).arg(r.right())));
    // y spans the data in view (y = x there), with a little padding, not [0, 100].
    QVERIFY2(r.top() > r.left() - 5 && r.top() <= r.left(), qPrintable(QString::number(r.top())));
    QVERIFY2(r.bottom() >= r.right() && r.bottom() < r.right() + 5, qPrintable(QString::number(r.bottom())));
    // A point that arrives inside the x range shown, far above: the y axis grows to it; x stays.
    const double x0 = r.left(), x1 = r.right();
    chart.setSeriesData(id, { 0, 50, 50.5, 100 }, { 0, 50, 1000, 100 });
    chart.redrawNow();
    r = chart.visibleRange();
    QCOMPARE(r.left(), x0);
    QCOMPARE(r.right(), x1);
    QVERIFY2(r.bottom() >= 1000, qPrintable(QString::number(r.bottom())));
    // The arrow keys move it sideways, y still fitted.
    chart.setSeriesData(id, iota(101), iota(101));
    QTest::keyClick(chart.findChild<QChartView*>(), Qt::Key_Right);
    chart.redrawNow();
    r = chart.visibleRange();
    QVERIFY(r.left() > x0);
    QVERIFY2(r.top() <= r.left() && r.bottom() >= r.right() && r.bottom() < r.right() + 5,
        qPrintable(
            QStringLiteral("%1 .. %2 over x %3 .. %4").arg(r.top()).arg(r.bottom()).arg(r.left()).arg(r.right())));
    QCOMPARE(xRange.count(), 2);
}

void TestCharts::lineChartLogScale()
{
    // A log y axis leaves values <= 0 out (a gap, not a crash or an axis down to -inf) and spans whole decades.
    LineChart chart;
    chart.resize(600, 400);
    QSignalSpy toggled(&chart, &LineChart::logScaleChanged);
    const int id = chart.addSeries(QStringLiteral("loss"));
    chart.setSeriesData(id, { 0, 1, 2, 3, 4, 5 }, { -1.0, 0.0, 0.02, 1.0, 50.0, kNaN });
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.redrawNow();
    QVERIFY(chart.visibleRange().top() < 0); // linear: the negative value is on the axis
    chart.setLogScale(true);
    QVERIFY(chart.isLogScale());
    QCOMPARE(toggled.count(), 1);
    chart.redrawNow();
    QCOMPARE(chart.visibleRange().top(), 0.01);
    QCOMPARE(chart.visibleRange().bottom(), 100.0);
    QCOMPARE(chart.drawnPointCount(id), 3); // 0.02, 1 and 50
    // A zoom on a log axis stays positive.
    QPoint centre;
    QWidget* viewport = plotViewport(chart, &centre);
    wheelAt(viewport, centre, Qt::ControlModifier, -480);
    chart.redrawNow();
    QVERIFY(chart.visibleRange().top() > 0.0);
    QVERIFY(std::isfinite(chart.visibleRange().bottom()));
    // Nothing above 0: an axis of one decade, no line.
    chart.resetZoom();
    chart.setSeriesData(id, { 0, 1 }, { 0.0, -3.0 });
    chart.redrawNow();
    QCOMPARE(chart.visibleRange().top(), 1.0);
    QCOMPARE(chart.visibleRange().bottom(), 10.0);
    QCOMPARE(chart.drawnPointCount(id), 0);
    chart.setLogScale(false);
    chart.redrawNow();
    QVERIFY(chart.visibleRange().top() <= -3.0);
    QCOMPARE(chart.drawnPointCount(id), 2);
}

void TestCharts::chartGroupSharesCrosshairZoomAndXRange()
{
    // Issue 20 §9: the eval chart (from iteration 0) and a rollout chart (from iteration 1) share one x range; hovering
    // one shows the cursor in the other; a zoom of one zooms the other's x (its y fitted to its own data); a reset of
    // one resets both.
    QWidget page;
    page.resize(700, 800);
    auto* column = new QVBoxLayout(&page);
    auto* eval = new LineChart;
    auto* rollout = new LineChart;
    column->addWidget(eval);
    column->addWidget(rollout);
    eval->setSeriesData(eval->addSeries(QStringLiteral("eval/success")), iota(11), std::vector<double>(11, 0.5));
    std::vector<double> late = iota(11);
    late.erase(late.begin()); // 1..10
    std::vector<double> ramp = late; // y = x
    rollout->setSeriesData(rollout->addSeries(QStringLiteral("rollout/success")), late, ramp);
    ChartGroup group;
    group.add(eval);
    group.add(rollout);
    group.syncXBounds();
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    eval->redrawNow();
    rollout->redrawNow();
    QCOMPARE(rollout->visibleRange().left(), 0.0);
    QCOMPARE(rollout->visibleRange().right(), 10.0);
    QCOMPARE(eval->visibleRange().left(), 0.0);

    QPoint centre;
    QWidget* viewport = plotViewport(*eval, &centre);
    QTest::mouseMove(viewport, centre);
    QTRY_VERIFY(eval->cursorX().has_value());
    QVERIFY(rollout->cursorX().has_value());
    QCOMPARE(*rollout->cursorX(), *eval->cursorX());

    wheelAt(viewport, centre, Qt::ControlModifier, 480);
    QVERIFY(eval->isZoomed());
    QVERIFY(rollout->isZoomed());
    rollout->redrawNow();
    const QRectF e = eval->visibleRange();
    const QRectF r = rollout->visibleRange();
    QCOMPARE(r.left(), e.left());
    QCOMPARE(r.right(), e.right());
    QVERIFY(r.width() < 10.0 * 0.8);
    QVERIFY2(r.top() >= e.left() - 1.0 && r.bottom() <= e.right() * 1.1 + 0.5, "y fitted to the data shown");
    QTest::keyClick(eval->findChild<QChartView*>(), Qt::Key_Home);
    QVERIFY(!eval->isZoomed());
    QVERIFY(!rollout->isZoomed());
}

void TestCharts::lineChartExport_data()
{
    QTest::addColumn<QString>("fileName");
    QTest::addColumn<double>("smoothing");
    QTest::newRow("png smoothed") << QStringLiteral("chart.png") << 0.8;
    QTest::newRow("png raw") << QStringLiteral("chart-raw.png") << 0.0;
    QTest::newRow("svg") << QStringLiteral("chart.svg") << 0.8;
}

void TestCharts::lineChartExport()
{
    QFETCH(QString, fileName);
    QFETCH(double, smoothing);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    LineChart chart;
    chart.resize(640, 400);
    chart.setTitle(QStringLiteral("Success rate"));
    chart.setAxisTitles(QStringLiteral("Iteration"), QStringLiteral("Success"));
    chart.setSmoothing(smoothing);
    const int id = chart.addSeries(QStringLiteral("GRPO"));
    chart.setSeriesData(id, iota(5000), noise(5000, 4));
    const QString path = dir.filePath(fileName);
    QString error;
    QVERIFY2(chart.exportImage(path, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    QVERIFY(bytes.size() > 1000);
    if (fileName.endsWith(QLatin1String(".svg"))) {
        QVERIFY(bytes.contains("<svg"));
    } else {
        QImage image;
        QVERIFY(image.load(path));
        QCOMPARE(image.size(), QSize(1280, 800)); // device-pixel ratio 2
        // Not blank: the series colour appears somewhere.
        bool coloured = false;
        for (int y = 0; y < image.height() && !coloured; y += 2)
            for (int x = 0; x < image.width() && !coloured; x += 2)
                coloured = image.pixelColor(x, y) == chart.seriesColor(id);
        QVERIFY(coloured);
    }
}

void TestCharts::lineChartExportUnwritable()
{
    LineChart chart;
    chart.resize(300, 200);
    const QString path = QStringLiteral("/nonexistent-dir/sub/chart.png");
    QString error;
    QVERIFY(!chart.exportImage(path, &error));
    QVERIFY2(error.contains(path), qPrintable(error));
    QVERIFY(!chart.exportImage(QStringLiteral("/nonexistent-dir/chart.svg"), &error));
    QVERIFY(error.contains(QStringLiteral("/nonexistent-dir/chart.svg")));
}

void TestCharts::colourLanguage()
{
    namespace colours = creditlab::ui::colours;
    // Signed credit: red is negative, blue positive, white zero, on every page.
    QCOMPARE(colours::signedRgb(-1.0, 1.0), colours::kNegative);
    QCOMPARE(colours::signedRgb(3.0, 1.0), colours::kPositive);
    QCOMPARE(colours::signedRgb(0.0, 1.0), colours::kZero);
    QVERIFY(qRed(colours::kNegative) > qBlue(colours::kNegative));
    QVERIFY(qBlue(colours::kPositive) > qRed(colours::kPositive));
    QCOMPARE(colours::signedRgb(kNaN, 1.0), colours::kMissing);
    // Values in [0, 1]: viridis, monotone in luminance (readable without hue).
    QCOMPARE(colours::sequential(0.0), QColor(0x440154));
    QCOMPARE(colours::sequential(1.0), QColor(0xfde724));
    double previous = -1.0;
    for (int i = 0; i <= 20; ++i) {
        const QColor c = colours::sequential(i / 20.0);
        const double lightness = 0.2126 * c.redF() + 0.7152 * c.greenF() + 0.0722 * c.blueF();
        QVERIFY2(lightness > previous - 0.02, qPrintable(QString::number(i)));
        previous = lightness;
    }
    QCOMPARE(colours::sequential(kNaN).rgb(), colours::kMissing);
    // Roles: fixed and distinct; unlabelled differs from all four.
    const QList<QColor> roles { colours::role('D'), colours::role('E'), colours::role('N'), colours::role('R'),
        colours::role('?') };
    for (int i = 0; i < roles.size(); ++i)
        for (int j = i + 1; j < roles.size(); ++j)
            QVERIFY2(roles[i] != roles[j], qPrintable(QStringLiteral("%1 vs %2").arg(i).arg(j)));
    QCOMPARE(colours::role('D'), colours::role('D'));
    QCOMPARE(colours::textOn(QColor(Qt::white)), QColor(Qt::black));
    QCOMPARE(colours::textOn(QColor::fromRgb(colours::kNegative)), QColor(Qt::white));
}

void TestCharts::heatmapColors()
{
    HeatmapChart heat;
    heat.resize(400, 300);
    heat.setData({ QStringLiteral("α=0.1"), QStringLiteral("α=0.5") }, { QStringLiteral("λ=0"), QStringLiteral("λ=1") },
        { 0.2, 0.4, kNaN, 0.9 });
    QCOMPARE(heat.valueMin(), 0.2);
    QCOMPARE(heat.valueMax(), 0.9);
    const QColor lo = heat.colorAt(0.2), mid = heat.colorAt(0.55), hi = heat.colorAt(0.9);
    QVERIFY(lo != hi && lo != mid && mid != hi);
    QCOMPARE(lo, QColor(0x440154)); // viridis ends
    QCOMPARE(hi, QColor(0xfde724));
    QCOMPARE(heat.colorAt(-5.0), lo); // clamped
    QVERIFY(heat.colorAt(kNaN).isValid()); // "no data" grey, no crash
    QVERIFY(heat.colorAt(kNaN) != lo);
    QVERIFY(std::isnan(heat.value(1, 0)));
    QVERIFY(std::isnan(heat.value(5, 5)));
    heat.setValueRange(0.0, 1.0);
    QCOMPARE(heat.colorAt(0.0), QColor(0x440154));
    QImage image(heat.size(), QImage::Format_ARGB32);
    heat.render(&image); // paints NaN cells without crashing
    QTemporaryDir dir;
    QString error;
    QVERIFY2(heat.exportImage(dir.filePath(QStringLiteral("heat.png")), &error), qPrintable(error));
    QVERIFY(QImage(dir.filePath(QStringLiteral("heat.png"))).width() == 800);
}

void TestCharts::errorBarExport()
{
    ErrorBarChart chart;
    chart.resize(500, 350);
    chart.setTitle(QStringLiteral("Final success vs lambda"));
    chart.setAxisTitles(QStringLiteral("lambda"), QStringLiteral("success"));
    chart.addSeries(QStringLiteral("HAS"), { { 0, 0.5, 0.1, 3 }, { 1, 0.7, 0.05, 3 }, { 2, 0.65, kNaN, 1 } });
    chart.addSeries(QStringLiteral("GRPO"), { { 0, 0.4, 0.1, 3 }, { 1, 0.45, 0.2, 3 } });
    QCOMPARE(chart.seriesCount(), 2);
    QTemporaryDir dir;
    QString error;
    QVERIFY2(chart.exportImage(dir.filePath(QStringLiteral("bars.png")), &error), qPrintable(error));
    QVERIFY(!QImage(dir.filePath(QStringLiteral("bars.png"))).isNull());
    chart.setCategories({ QStringLiteral("0.0"), QStringLiteral("0.5"), QStringLiteral("1.0") });
    QVERIFY2(chart.exportImage(dir.filePath(QStringLiteral("bars.svg")), &error), qPrintable(error));
    QFile svg(dir.filePath(QStringLiteral("bars.svg")));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QVERIFY(svg.readAll().contains("<svg"));
    QVERIFY(!chart.exportImage(QStringLiteral("/nonexistent-dir/bars.png"), &error));
    QVERIFY(error.contains(QStringLiteral("/nonexistent-dir/bars.png")));
    chart.clear();
    QCOMPARE(chart.seriesCount(), 0);
}

QTEST_MAIN(TestCharts)
#include "tst_ui_charts.moc"
