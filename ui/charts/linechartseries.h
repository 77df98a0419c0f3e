#pragma once

#include "ui/charts/linechart.h"

#include <QAreaSeries>
#include <QLineSeries>

#include <algorithm>
#include <cmath>
#include <limits>

namespace creditlab::ui::charts {

/// One series of a LineChart: the raw data (never dropped), the cached smoothed curve and the Qt Charts
/// items that show it. Internal to ui/charts; GUI thread only.
struct LineChart::Series {
    QString name;
    QColor color;
    SeriesStyle style;
    bool visible = true;
    std::vector<double> x;
    std::vector<double> y;
    std::vector<double> lower;
    std::vector<double> upper;
    double yMin = std::numeric_limits<double>::infinity(); ///< over y, lower and upper (finite values)
    double yMax = -std::numeric_limits<double>::infinity();

    // Smoothed y, valid for `smoothWeight` and the first smoothed.size() points; extended on append from the
    // EMA state so live updates cost O(new points).
    std::vector<double> smoothed;
    double smoothWeight = -1.0;
    double emaState = 0.0;
    double emaPow = 1.0;

    bool dirty = true; ///< data, style or visibility changed since the last redraw
    qsizetype drawn = 0;
    // Attached to the chart by LineChart::relayer(); LineChart deletes them when the series goes.
    QLineSeries* main = nullptr;
    QLineSeries* raw = nullptr;
    QAreaSeries* band = nullptr; ///< owns its upper and lower QLineSeries (QObject children)

    void extendBounds(const std::vector<double>& v, std::size_t from)
    {
        for (std::size_t i = from; i < v.size(); ++i) {
            if (std::isfinite(v[i])) {
                yMin = std::min(yMin, v[i]);
                yMax = std::max(yMax, v[i]);
            }
        }
    }
    /// Brings `smoothed` up to date for EMA weight `w` (> 0): recomputed when the weight changed, otherwise
    /// continued over the points appended since (the debiased EMA of debiasedEma, state kept in emaState and
    /// emaPow), so live updates cost O(new points).
    void ensureSmoothed(double w)
    {
        if (smoothWeight != w) {
            smoothed.clear();
            smoothWeight = w;
            emaState = 0.0;
            emaPow = 1.0;
        }
        smoothed.reserve(y.size());
        for (std::size_t i = smoothed.size(); i < y.size(); ++i) {
            const double v = y[i];
            if (!std::isfinite(v)) {
                smoothed.push_back(v);
                continue;
            }
            emaState = w * emaState + (1.0 - w) * v;
            emaPow *= w;
            smoothed.push_back(emaState / (1.0 - emaPow));
        }
    }
    void recomputeBounds()
    {
        yMin = std::numeric_limits<double>::infinity();
        yMax = -yMin;
        extendBounds(y, 0);
        extendBounds(lower, 0);
        extendBounds(upper, 0);
    }
};

} // namespace creditlab::ui::charts
