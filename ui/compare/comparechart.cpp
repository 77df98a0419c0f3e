#include "ui/compare/comparechart.h"

#include "ui/charts/linechart.h"
#include "ui/common/textutil.h"

#include <QCoreApplication>

#include <iterator>

namespace creditlab::ui {

namespace {
constexpr QRgb kPalette[]
    = { 0x4E79A7, 0xF28E2B, 0xE15759, 0x76B7B2, 0x59A14F, 0xEDC948, 0xB07AA1, 0xFF9DA7, 0x9C755F, 0xBAB0AC };
constexpr int kPaletteSize = int(std::size(kPalette));
constexpr qreal kBaselineWidth = 3.0;

charts::SeriesStyle styleFor(bool baseline)
{
    charts::SeriesStyle style;
    if (baseline)
        style.width = kBaselineWidth; // solid like every line, but thicker
    return style;
}
} // namespace

QColor comparePaletteColor(int index)
{
    const QColor base = QColor::fromRgb(kPalette[index % kPaletteSize]);
    const int cycle = index / kPaletteSize;
    if (cycle == 0)
        return base;
    return cycle % 2 == 1 ? base.darker(100 + 35 * ((cycle + 1) / 2)) : base.lighter(100 + 25 * (cycle / 2));
}

void fillCompareChart(charts::LineChart& chart, const std::vector<const compare::RunSeries*>& runs,
    const CompareChartOptions& options, const std::function<QColor(qint64 runId)>& colorOf)
{
    chart.clear();
    if (!options.groupSeeds) {
        for (const compare::RunSeries* run : runs) {
            compare::Curve curve = compare::curveOf(*run, options.metric, options.alignment);
            const int id = chart.addSeries(toQString(run->name), colorOf(run->runId));
            chart.setSeriesStyle(id, styleFor(run->runId == options.baseline));
            chart.setSeriesData(id, std::move(curve.x), std::move(curve.y));
        }
        return;
    }
    for (const auto& group : compare::groupBySeed(runs)) {
        std::vector<const compare::RunSeries*> members;
        bool baseline = false;
        for (const std::size_t i : group) {
            members.push_back(runs[i]);
            baseline = baseline || runs[i]->runId == options.baseline;
        }
        compare::BandCurve band = compare::groupCurve(members, options.metric, options.alignment);
        QString name = toQString(members.front()->name);
        if (members.size() > 1) {
            name = QCoreApplication::translate(
                "creditlab::ui::ComparePage", "%1 (mean ± std of %n seeds)", nullptr, int(members.size()))
                       .arg(name);
        }
        const int id = chart.addSeries(name, colorOf(members.front()->runId));
        chart.setSeriesStyle(id, styleFor(baseline));
        std::vector<double> lower;
        std::vector<double> upper;
        if (members.size() > 1) {
            lower.resize(band.mean.size());
            upper.resize(band.mean.size());
            for (std::size_t i = 0; i < band.mean.size(); ++i) {
                lower[i] = band.mean[i] - band.stdev[i];
                upper[i] = band.mean[i] + band.stdev[i];
            }
        }
        chart.setSeriesData(id, std::move(band.x), std::move(band.mean));
        if (!lower.empty())
            chart.setSeriesBand(id, std::move(lower), std::move(upper));
    }
}

} // namespace creditlab::ui
