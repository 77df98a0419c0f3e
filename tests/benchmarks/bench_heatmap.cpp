// Benchmark: CreditHeatmapView paint of a 10,000-trajectory × 50-turn run with two credit methods side by
// side (sign-disagreement outlines on), 1200×800, offscreen. One paint = viewport()->render() into a QImage,
// what a repaint of the widget costs. Reported: the median over the paints, at the default 12 px cells
// (scrolled to the middle), at dense 2×1 px cells (about 750 rows visible) and with every cell visible
// (1×1 px cells, a view as tall as the run). Target: < 50 ms.
//
// Usage: bench_heatmap [rows=10000] [turns=50] [paints=20]
#include "ui/heatmap/creditheatmapview.h"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QScrollBar>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <vector>

using namespace creditlab::ui::heatmap;

namespace {

using Clock = std::chrono::steady_clock;

HeatmapDataPtr makeData(int rows, int turns)
{
    auto data = std::make_shared<HeatmapData>();
    data->columns = turns;
    data->methods = { "grpo", "triage" };
    const std::size_t cells = static_cast<std::size_t>(rows) * turns;
    data->values.assign(2, std::vector<double>(cells, std::numeric_limits<double>::quiet_NaN()));
    data->roles.assign(cells, HeatmapData::kNoRole);
    std::mt19937 rng(7);
    std::normal_distribution<double> normal;
    std::uniform_int_distribution<int> length(turns / 2, turns);
    for (int r = 0; r < rows; ++r) {
        const int count = length(rng);
        data->rows.push_back(
            HeatmapRow { r + 1, "traj-" + std::to_string(r), "g" + std::to_string(r / 8), r % 3 != 0, count });
        for (int c = 0; c < count; ++c) {
            const double base = normal(rng);
            data->values[0][data->index(r, c)] = base;
            data->values[1][data->index(r, c)] = 0.6 * base + 0.8 * normal(rng);
        }
    }
    return data;
}

double medianPaintMs(CreditHeatmapView& view, int paints)
{
    QImage image(view.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    std::vector<double> times;
    for (int i = 0; i < paints; ++i) {
        image.fill(Qt::white);
        const auto t0 = Clock::now();
        {
            QPainter painter(&image);
            view.viewport()->render(&painter);
        }
        times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int rows = argc > 1 ? std::atoi(argv[1]) : 10000;
    const int turns = argc > 2 ? std::atoi(argv[2]) : 50;
    const int paints = argc > 3 ? std::max(1, std::atoi(argv[3])) : 20;

    CreditHeatmapView view;
    view.resize(1200, 800);
    view.show(); // on the offscreen platform: lays the viewport out now (a hidden widget defers its resizes)
    QCoreApplication::processEvents();
    HeatmapDataPtr data = makeData(rows, turns);
    const auto t0 = Clock::now();
    view.setData(std::move(data));
    view.setRowOrder(RowOrder::Disagreement);
    const double setupMs = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();

    view.verticalScrollBar()->setValue(view.verticalScrollBar()->maximum() / 2);
    const QSize viewportSize = view.viewport()->size();
    const double defaultMs = medianPaintMs(view, paints);
    view.setCellSize(QSize(2, 1));
    view.verticalScrollBar()->setValue(view.verticalScrollBar()->maximum() / 2);
    const double denseMs = medianPaintMs(view, paints);

    // Every cell on screen at once: 1×1 px cells in a view as tall as the run.
    view.setCellSize(QSize(1, 1));
    view.resize(1200, rows + 100);
    QCoreApplication::processEvents();
    view.verticalScrollBar()->setValue(0);
    const double wholeMs = medianPaintMs(view, paints);
    const QSize wholeSize = view.viewport()->size();

    std::printf("heatmap %d rows x %d turns x 2 methods, viewport %dx%d, %d paints\n", rows, turns,
        viewportSize.width(), viewportSize.height(), paints);
    std::printf("  setData (mask + ordering + colour range): %.1f ms\n", setupMs);
    std::printf("  paint median, 12x12 px cells: %.2f ms (target < 50 ms)\n", defaultMs);
    std::printf("  paint median,  2x1 px cells: %.2f ms (target < 50 ms)\n", denseMs);
    std::printf("  paint median, all %d rows at 1x1 px, viewport %dx%d: %.2f ms (target < 50 ms)\n", rows,
        wholeSize.width(), wholeSize.height(), wholeMs);
    return defaultMs < 50.0 && denseMs < 50.0 && wholeMs < 50.0 ? 0 : 1;
}
