// Benchmark: LineChart redraw with 10 series x 100,000 points (random walks), smoothing 0.6, 1200x700,
// offscreen. One redraw = redrawNow() (smoothing cache, min/max decimation of the visible x range per pixel
// column, QLineSeries::replace) plus the real paint of the widget into a QImage. Target: < 50 ms.
//
// Usage: bench_chart [points=100000] [series=10] [redraws=20] [--demo PATH]
//   --demo PATH also writes a screenshot of a 3-curve smoothed chart to PATH (and PATH's stem + "_heatmap.png"
//   and "_errorbars.png"), for looking at the charts.
#include "ui/charts/errorbarchart.h"
#include "ui/charts/heatmapchart.h"
#include "ui/charts/linechart.h"

#include <QApplication>
#include <QChartView>
#include <QFileInfo>
#include <QImage>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <time.h>
#include <vector>

using namespace creditlab::ui::charts;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

/// CPU time of this thread in ms: on a shared, loaded machine it shows the work apart from waiting for a core.
double threadCpuMs()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void writeDemo(const QString& path)
{
    std::mt19937 rng(5);
    std::normal_distribution<double> noise(0.0, 1.0);
    LineChart chart;
    chart.resize(900, 520);
    chart.setTitle(QStringLiteral("Success rate (ALFWorld-like household, 3 seeds)"));
    chart.setAxisTitles(QStringLiteral("Iteration"), QStringLiteral("Success rate"));
    chart.setSmoothing(0.95);
    const char* names[] = { "GRPO", "TRIAGE", "HAS (alpha 0.5)" };
    const double tau[] = { 900.0, 500.0, 650.0 };
    const double ceiling[] = { 0.55, 0.78, 0.7 };
    for (int s = 0; s < 3; ++s) {
        const int id = chart.addSeries(QString::fromLatin1(names[s]));
        std::vector<double> x, y, lo, hi;
        for (int i = 0; i < 3000; ++i) {
            const double mean = ceiling[s] * (1.0 - std::exp(-i / tau[s]));
            x.push_back(i);
            y.push_back(std::clamp(mean + 0.06 * noise(rng), 0.0, 1.0));
            lo.push_back(mean - 0.04);
            hi.push_back(mean + 0.04);
        }
        y[1700] = std::min(1.0, y[1700] + 0.35); // a spike that decimation must keep
        chart.setSeriesData(id, std::move(x), std::move(y));
        if (s == 1)
            chart.setSeriesBand(id, std::move(lo), std::move(hi));
    }
    chart.show();
    chart.redrawNow();
    chart.grab().save(path);
    // The hover read-out, as a user sees it.
    if (auto* view = chart.findChild<QChartView*>()) {
        const QPoint at = view->mapFromScene(view->chart()->plotArea().center()) + QPoint(120, 0);
        QMouseEvent move(QEvent::MouseMove, QPointF(at), QPointF(view->viewport()->mapToGlobal(at)), Qt::NoButton,
            Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(view->viewport(), &move);
    }

    const QString stem = QFileInfo(path).path() + QLatin1Char('/') + QFileInfo(path).completeBaseName();
    chart.grab().save(stem + QStringLiteral("_hover.png"));
    HeatmapChart heat;
    heat.resize(620, 420);
    heat.setTitle(QStringLiteral("Final success, HAS"));
    heat.setAxisTitles(QStringLiteral("lambda"), QStringLiteral("alpha"));
    QStringList rows, cols;
    std::vector<double> values;
    for (int r = 0; r < 5; ++r)
        rows << QString::number(0.1 + 0.2 * r);
    for (int c = 0; c < 6; ++c)
        cols << QString::number(0.2 * c);
    for (int r = 0; r < 5; ++r)
        for (int c = 0; c < 6; ++c)
            values.push_back(r == 4 && c == 5 ? std::nan("") : 0.3 + 0.1 * r - 0.02 * (c - 3) * (c - 3));
    heat.setData(rows, cols, values);
    heat.show();
    heat.grab().save(stem + QStringLiteral("_heatmap.png"));

    ErrorBarChart bars;
    bars.resize(620, 420);
    bars.setTitle(QStringLiteral("Final success vs group size"));
    bars.setAxisTitles(QStringLiteral("group size"), QStringLiteral("success"));
    bars.setCategories({ QStringLiteral("2"), QStringLiteral("4"), QStringLiteral("8"), QStringLiteral("16") });
    bars.addSeries(QStringLiteral("GRPO"),
        { { 0, 0.31, 0.05, 3 }, { 1, 0.42, 0.04, 3 }, { 2, 0.5, 0.06, 3 }, { 3, 0.53, 0.03, 3 } });
    bars.addSeries(QStringLiteral("TRIAGE"),
        { { 0, 0.4, 0.07, 3 }, { 1, 0.55, 0.05, 3 }, { 2, 0.71, 0.04, 3 }, { 3, 0.74, 0.02, 3 } });
    bars.show();
    bars.grab().save(stem + QStringLiteral("_errorbars.png"));
    std::printf(
        "demo: wrote %s, %s_heatmap.png, %s_errorbars.png\n", qPrintable(path), qPrintable(stem), qPrintable(stem));
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    std::vector<std::string> positional;
    QString demoPath;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--demo" && i + 1 < argc)
            demoPath = QString::fromLocal8Bit(argv[++i]);
        else
            positional.push_back(arg);
    }
    const std::size_t points = positional.size() > 0 ? std::stoul(positional[0]) : 100000;
    const int seriesCount = positional.size() > 1 ? std::stoi(positional[1]) : 10;
    const int redraws = positional.size() > 2 ? std::stoi(positional[2]) : 20;
    if (!demoPath.isEmpty())
        writeDemo(demoPath);

    std::mt19937 rng(3);
    std::normal_distribution<double> step(0.0, 1.0);
    std::vector<std::vector<double>> xs, ys;
    for (int s = 0; s < seriesCount; ++s) {
        std::vector<double> x(points), y(points);
        double v = 0.0;
        for (std::size_t i = 0; i < points; ++i) {
            x[i] = static_cast<double>(i);
            v += step(rng);
            y[i] = v;
        }
        xs.push_back(std::move(x));
        ys.push_back(std::move(y));
    }

    LineChart chart;
    chart.resize(1200, 700);
    chart.setTitle(QStringLiteral("bench"));
    chart.setAxisTitles(QStringLiteral("Iteration"), QStringLiteral("Value"));
    chart.setSmoothing(0.6);
    chart.show();
    QApplication::processEvents();
    QImage image(chart.size(), QImage::Format_ARGB32_Premultiplied);

    auto t0 = Clock::now();
    for (int s = 0; s < seriesCount; ++s)
        chart.setSeriesData(chart.addSeries(QStringLiteral("series %1").arg(s)), xs[s], ys[s]);
    const double setDataMs = msSince(t0);
    t0 = Clock::now();
    chart.redrawNow();
    {
        QPainter painter(&image);
        chart.render(&painter);
    }
    const double firstMs = msSince(t0);

    // Different zoom ranges: full view, halves, quarters and narrow windows across the data.
    std::vector<double> times, redrawTimes, cpuTimes;
    const double n = static_cast<double>(points);
    const QRectF full = chart.visibleRange();
    for (int r = 0; r < redraws; ++r) {
        if (r % 5 == 0) {
            chart.resetZoom();
        } else {
            const double span = n / (1 << (r % 5));
            const double left = std::fmod(r * 0.137 * n, std::max(1.0, n - span));
            chart.setVisibleRange(QRectF(QPointF(left, full.top()), QPointF(left + span, full.bottom())));
        }
        image.fill(Qt::white);
        t0 = Clock::now();
        const double cpu0 = threadCpuMs();
        chart.redrawNow();
        redrawTimes.push_back(msSince(t0));
        QPainter painter(&image);
        chart.render(&painter);
        painter.end();
        times.push_back(msSince(t0));
        cpuTimes.push_back(threadCpuMs() - cpu0);
    }
    std::sort(times.begin(), times.end());
    std::sort(redrawTimes.begin(), redrawTimes.end());
    std::sort(cpuTimes.begin(), cpuTimes.end());
    const double median = times[times.size() / 2];
    const double p90 = times[std::min(times.size() - 1, static_cast<std::size_t>(std::ceil(0.9 * times.size())) - 1)];
    std::printf("bench_chart: %d series x %zu points, %dx%d, smoothing 0.6, %d redraws (redrawNow + render): "
                "median %.1f ms, p90 %.1f ms, max %.1f ms (target < 50 ms: %s); setSeriesData %.1f ms, first redraw "
                "(smoothing + decimation + paint) %.1f ms; redrawNow alone median %.1f ms; thread CPU median %.1f ms; "
                "drawn points of series 0: %lld\n",
        seriesCount, points, chart.width(), chart.height(), redraws, median, p90, times.back(),
        median < 50.0 ? "met" : "MISSED", setDataMs, firstMs, redrawTimes[redrawTimes.size() / 2],
        cpuTimes[cpuTimes.size() / 2], static_cast<long long>(chart.drawnPointCount(0)));
    return median < 50.0 ? 0 : 1;
}
