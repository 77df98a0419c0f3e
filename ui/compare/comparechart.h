#pragma once

#include "ui/compare/compareseries.h"

#include <QColor>

#include <functional>
#include <string>
#include <vector>

namespace creditlab::ui {

namespace charts {
class LineChart;
}

/// What the Compare page's chart shows.
struct CompareChartOptions {
    std::string metric;
    compare::Alignment alignment = compare::Alignment::Iteration;
    bool groupSeeds = false; ///< one line per seed group (compare::groupBySeed) with a mean ± std band
    qint64 baseline = 0; ///< the pinned run (or its group) is drawn thicker; 0: none
};

/// Replaces the series of `chart` with one per run (or per seed group) of `runs`, coloured by `colorOf`
/// (a group takes its first member's colour). GUI thread.
void fillCompareChart(charts::LineChart& chart, const std::vector<const compare::RunSeries*>& runs,
    const CompareChartOptions& options, const std::function<QColor(qint64 runId)>& colorOf);

/// The colour of the `index`-th compared run: Tableau 10 (the chart's default palette), then the same
/// ten darker, lighter, darker… so that any number of runs gets distinct-enough colours. Any thread.
QColor comparePaletteColor(int index);

} // namespace creditlab::ui
