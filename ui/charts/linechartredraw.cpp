// LineChart: the redraw, coalesced on the timer (STYLE rule 7): the range shown when the user has not zoomed (the
// data's, with the shared x bounds), the axes' ticks, and each series' lines decimated to the plot's pixel columns.
#include "ui/charts/linechart.h"

#include "ui/charts/linechartseries.h"
#include "ui/charts/linechartview.h"

#include <QChart>
#include <QGraphicsLayout>
#include <QLegend>
#include <QLogValueAxis>
#include <QTimer>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace creditlab::ui::charts {

void LineChart::scheduleRedraw()
{
    // Not restarted while pending, so a continuous stream of changes still redraws every ~40 ms.
    if (!m_redrawTimer->isActive())
        m_redrawTimer->start();
}

std::optional<std::pair<double, double>> LineChart::dataXRange() const
{
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0;
    for (const auto& [id, s] : m_series) {
        if (s->x.empty() || !s->visible)
            continue;
        x0 = std::min(x0, s->x.front());
        x1 = std::max(x1, s->x.back());
    }
    if (!std::isfinite(x0) || !std::isfinite(x1))
        return std::nullopt;
    return std::pair(x0, x1);
}

std::optional<std::pair<double, double>> LineChart::yExtent(double x0, double x1) const
{
    double y0 = std::numeric_limits<double>::infinity(), y1 = -y0;
    for (const auto& [id, s] : m_series) {
        if (s->x.empty() || !s->visible)
            continue;
        if (!m_logScale && s->x.front() >= x0 && s->x.back() <= x1) { // all of it: the cached bounds
            y0 = std::min(y0, s->yMin);
            y1 = std::max(y1, s->yMax);
            continue;
        }
        const auto lo = static_cast<std::size_t>(std::lower_bound(s->x.begin(), s->x.end(), x0) - s->x.begin());
        const auto hi = static_cast<std::size_t>(std::upper_bound(s->x.begin(), s->x.end(), x1) - s->x.begin());
        for (const std::vector<double>* values : { &s->y, &s->lower, &s->upper }) {
            for (std::size_t i = lo; i < std::min(hi, values->size()); ++i) {
                const double v = (*values)[i];
                if (!std::isfinite(v) || (m_logScale && v <= 0.0))
                    continue;
                y0 = std::min(y0, v);
                y1 = std::max(y1, v);
            }
        }
    }
    if (!std::isfinite(y0) || !std::isfinite(y1))
        return std::nullopt;
    return std::pair(y0, y1);
}

QRectF LineChart::autoRange() const
{
    double x0 = 0.0, x1 = 1.0;
    if (m_xZoomed) {
        x0 = m_xOnly.first;
        x1 = m_xOnly.second;
    } else {
        const auto data = dataXRange();
        x0 = data ? data->first : std::numeric_limits<double>::infinity();
        x1 = data ? data->second : -std::numeric_limits<double>::infinity();
        if (m_xBounds) {
            x0 = std::min(x0, m_xBounds->first);
            x1 = std::max(x1, m_xBounds->second);
        }
        if (!std::isfinite(x0) || !std::isfinite(x1))
            x0 = 0.0, x1 = 1.0;
        if (x1 <= x0)
            x0 -= 0.5, x1 += 0.5;
    }
    auto y = yExtent(x0, x1);
    if (!y && m_xZoomed) // nothing in the zoomed x range: keep the y of all the data
        y = yExtent(-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity());
    if (m_logScale) {
        // Whole decades, so that the log axis always has labelled ticks.
        if (!y)
            return QRectF(QPointF(x0, 1.0), QPointF(x1, 10.0));
        const double lo = std::pow(10.0, std::floor(std::log10(y->first)));
        double hi = std::pow(10.0, std::ceil(std::log10(y->second)));
        if (hi <= lo)
            hi = lo * 10.0;
        return QRectF(QPointF(x0, lo), QPointF(x1, hi));
    }
    const double y0 = y ? y->first : 0.0, y1 = y ? y->second : 1.0;
    const double pad = y1 > y0 ? (y1 - y0) * 0.05 : std::max(std::abs(y0) * 0.1, 0.5);
    // Data that is never negative (rates, losses, times) gets no negative axis: a success rate of 0 sits on the
    // bottom edge instead of in the middle of a range down to -0.5.
    const double lower = y0 >= 0.0 ? std::max(0.0, y0 - pad) : y0 - pad;
    return QRectF(QPointF(x0, lower), QPointF(x1, y1 + pad));
}

int LineChart::plotColumns() const
{
    // A hidden chart has not been resized yet (Qt delivers the resize on show); estimate from the widget's
    // width, and the resize on show redraws with the real plot width.
    const int w = static_cast<int>(m_chart->plotArea().width());
    return m_view->isVisible() && w > 10 ? w : std::max(100, width() - 80);
}

void LineChart::applyAxes()
{
    // A tiny interval applied while the old, wide range is still set would create millions of ticks: change range
    // and interval in the order that never pairs a small interval with a wide range (see widenedRange()).
    const double x0 = m_range.left(), x1 = m_range.right(), y0 = m_range.top(), y1 = m_range.bottom();
    const QRectF plot = m_chart->plotArea();
    const double stepX = niceTickStep(x1 - x0, std::max(2, static_cast<int>(plot.width() / 110)));
    const double stepY = niceTickStep(y1 - y0, std::max(2, static_cast<int>(plot.height() / 55)));
    const auto apply = [](QValueAxis* axis, double lo, double hi, double step) {
        if (step < axis->tickInterval()) {
            axis->setRange(lo, hi);
            axis->setTickInterval(step);
        } else {
            axis->setTickInterval(step);
            axis->setRange(lo, hi);
        }
    };
    m_axisX->setLabelFormat(axisLabelFormat(stepX, x0, x1));
    apply(m_axisX, x0, x1, stepX);
    if (m_logScale) {
        // A range set by the caller (setVisibleRange) may reach 0 or below, which a log axis cannot show.
        const double lo = y0 > 0.0 ? y0 : y1 > 0.0 ? y1 * 1e-3 : 1.0;
        m_axisYLog->setRange(lo, y1 > lo ? y1 : lo * 10.0);
        return;
    }
    m_axisY->setLabelFormat(axisLabelFormat(stepY, y0, y1));
    apply(m_axisY, y0, y1, stepY);
}

void LineChart::redrawNow()
{
    m_redrawTimer->stop();
    if (m_layersDirty)
        relayer();
    // Qt Charts lays out the legend and plot area on a posted event; do it now so that the decimation below
    // uses the real plot width and an immediate grab()/export shows the legend complete.
    m_chart->legend()->layout()->activate();
    m_chart->layout()->activate();
    if (!m_userZoomed)
        m_range = autoRange();
    m_range = widenedRange(m_range);
    // Qt Charts recomputes every series' geometry (path and hit-test stroke) when an axis range changes and
    // again on replace(); empty the lines first so that the range change costs nothing.
    const int columns = plotColumns();
    const bool viewChanged = m_range != m_appliedRange || columns != m_appliedColumns;
    if (viewChanged) {
        for (auto& [id, s] : m_series) {
            s->main->clear();
            s->raw->clear();
            s->band->upperSeries()->clear();
            s->band->lowerSeries()->clear();
        }
        m_appliedRange = m_range;
        m_appliedColumns = columns;
    }
    applyAxes();
    const double x0 = m_range.left(), x1 = m_range.right();
    // A log axis cannot place values <= 0: they become gaps (decimateMinMax skips non-finite y).
    std::vector<double> positive;
    const auto drawable = [&](const std::vector<double>& v) -> const std::vector<double>& {
        if (!m_logScale)
            return v;
        positive = v;
        for (double& d : positive) {
            if (!(d > 0.0))
                d = std::numeric_limits<double>::quiet_NaN();
        }
        return positive;
    };
    qsizetype total = 0;
    for (auto& [id, s] : m_series) {
        total += static_cast<qsizetype>(s->x.size());
        // Same view and same data: what Qt Charts holds is still right (e.g. a zoomed view while another
        // series receives points).
        if (!viewChanged && !s->dirty)
            continue;
        s->dirty = false;
        if (!s->visible) {
            s->main->clear();
            s->raw->clear();
            s->drawn = 0;
            continue;
        }
        if (m_smoothing > 0.0) {
            s->ensureSmoothed(m_smoothing);
            s->main->replace(decimateMinMax(s->x, drawable(s->smoothed), x0, x1, columns, Decimation::MinMax));
            s->raw->replace(s->style.showRaw ? decimateMinMax(s->x, drawable(s->y), x0, x1, columns, Decimation::MinMax)
                                             : QList<QPointF>());
        } else {
            s->main->replace(decimateMinMax(s->x, drawable(s->y), x0, x1, columns, Decimation::MinMax));
            s->raw->clear();
        }
        s->drawn = s->main->count();
        s->main->setPointsVisible(s->drawn == 1); // a lone point draws no line: a dot instead
        if (!s->lower.empty()) {
            s->band->upperSeries()->replace(
                decimateMinMax(s->x, drawable(s->upper), x0, x1, columns, Decimation::MinMax));
            s->band->lowerSeries()->replace(
                decimateMinMax(s->x, drawable(s->lower), x0, x1, columns, Decimation::MinMax));
        } else {
            s->band->upperSeries()->clear();
            s->band->lowerSeries()->clear();
        }
    }
    if (m_cursorX && viewChanged) { // the axes moved under the cursor: put it back on its data x
        QStringList readout;
        placeCursor(*m_cursorX, readout);
    }
    const bool nothingPositive = m_logScale && total > 0
        && !yExtent(-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity());
    m_view->setPlaceholder(total == 0 ? tr("No data")
            : nothingPositive         ? tr("No value above 0 to show on a log scale")
                                      : QString());
    Q_EMIT redrawn();
}

qsizetype LineChart::drawnPointCount(int id) const
{
    const Series* s = find(id);
    return s ? s->drawn : 0;
}

} // namespace creditlab::ui::charts
