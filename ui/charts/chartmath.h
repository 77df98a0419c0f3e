#pragma once

#include <QColor>
#include <QList>
#include <QPointF>
#include <QRectF>
#include <QString>

#include <vector>

namespace creditlab::ui::charts {

/// Debiased exponential moving average (TensorBoard's smoothing fix): ema_i = w*ema_{i-1} + (1-w)*y_i with
/// ema_{-1} = 0, smoothed_i = ema_i / (1 - w^k) where k counts the finite values so far. Non-finite values
/// pass through unchanged and neither update nor reset the average. `weight` is clamped to [0, 0.999];
/// 0 returns `y` unchanged. Pure; any thread.
std::vector<double> debiasedEma(const std::vector<double>& y, double weight);

/// Min/max decimation of the points with x in [x0, x1] (x ascending) into `columns` equal buckets: each
/// bucket keeps its first, last, minimum and maximum point in x order, so no extreme is ever lost. The one
/// point just outside each end is added so that lines reach the plot edges. Points whose y is not finite
/// are skipped. Returns at most 4*columns + 2 points; when the range holds no more than that, it returns
/// them all. Pure; any thread.
QList<QPointF> decimateMinMax(
    const std::vector<double>& x, const std::vector<double>& y, double x0, double x1, int columns);

/// What decimateMinMax keeps of each bucket.
enum class Decimation {
    FirstMinMaxLast, ///< first, min, max and last (at most 4 per bucket): exact connections between buckets
    MinMax, ///< min and max only (at most 2 per bucket): the same pixels when a bucket is one pixel wide
};

/// decimateMinMax with a choice of what each bucket keeps; with Decimation::MinMax the output holds at most
/// 2*columns + 2 points (all points when the range holds no more than that). LineChart draws with MinMax at
/// one bucket per pixel column: the line still covers each column from its min to its max, so no extreme is
/// lost, and Qt Charts strokes half the points. Pure; any thread.
QList<QPointF> decimateMinMax(
    const std::vector<double>& x, const std::vector<double>& y, double x0, double x1, int columns, Decimation mode);

/// Qt Charts steps from tick to tick (value += interval) over an axis range: a span below the precision of its
/// values never ends. Returns `r` with each span widened, around its centre, to well above double precision.
QRectF widenedRange(const QRectF& r);

/// A "nice" tick step (1, 2 or 5 times a power of ten) so that `span` holds about `targetTicks` ticks.
/// Pure; any thread.
double niceTickStep(double span, int targetTicks);

/// A printf format for QValueAxis labels with tick step `step` over [lo, hi]: just enough decimals for the
/// step ("%.0f" for 20000, "%.2f" for 0.05), "%.3g" for huge or tiny values. Pure; any thread.
QString axisLabelFormat(double step, double lo, double hi);

/// Colour `index` (modulo 10) of the Tableau 10 qualitative palette. Pure; any thread.
QColor tableau10(int index);

/// The viridis sequential colour map at t in [0, 1] (clamped); matplotlib's table, linearly interpolated.
/// Pure; any thread.
QColor viridis(double t);

} // namespace creditlab::ui::charts
