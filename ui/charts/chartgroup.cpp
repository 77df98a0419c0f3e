#include "ui/charts/chartgroup.h"

#include "ui/charts/linechart.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace creditlab::ui::charts {

ChartGroup::ChartGroup(QObject* parent)
    : QObject(parent)
{
}

void ChartGroup::add(LineChart* chart)
{
    if (!chart || m_charts.contains(chart))
        return;
    m_charts.append(chart);
    connect(chart, &LineChart::hovered, this, [this, chart](double x, const QStringList&) { onHovered(chart, x); });
    connect(chart, &LineChart::hoverLeft, this, [this, chart] { onHoverLeft(chart); });
    connect(chart, &LineChart::xRangeChanged, this, [this, chart](double x0, double x1) { onXRange(chart, x0, x1); });
    connect(chart, &LineChart::zoomReset, this, [this, chart] { onReset(chart); });
    connect(chart, &QObject::destroyed, this, [this] { m_charts.removeIf([](const auto& c) { return c.isNull(); }); });
    // A chart that joins a zoomed group shows the group's x range.
    for (LineChart* other : charts()) {
        if (other != chart && other->isZoomed()) {
            const QRectF r = other->visibleRange();
            chart->setXRange(r.left(), r.right());
            break;
        }
    }
}

void ChartGroup::remove(LineChart* chart)
{
    if (!chart)
        return;
    m_charts.removeAll(chart);
    disconnect(chart, nullptr, this, nullptr);
    chart->setXBounds(std::nan(""), std::nan(""));
}

void ChartGroup::clear()
{
    for (LineChart* chart : charts())
        remove(chart);
    m_charts.clear();
}

QList<LineChart*> ChartGroup::charts() const
{
    QList<LineChart*> out;
    for (const auto& chart : m_charts) {
        if (chart)
            out.append(chart);
    }
    return out;
}

void ChartGroup::syncXBounds()
{
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0;
    for (LineChart* chart : charts()) {
        if (const auto range = chart->dataXRange()) {
            x0 = std::min(x0, range->first);
            x1 = std::max(x1, range->second);
        }
    }
    for (LineChart* chart : charts())
        chart->setXBounds(x0, x1); // infinite (no data anywhere): cleared
}

void ChartGroup::onHovered(LineChart* source, double x)
{
    for (LineChart* chart : charts()) {
        if (chart != source && chart->isVisible())
            chart->showCursorAt(x);
    }
}

void ChartGroup::onHoverLeft(LineChart* source)
{
    for (LineChart* chart : charts()) {
        if (chart != source)
            chart->hideCursor();
    }
}

void ChartGroup::onXRange(LineChart* source, double x0, double x1)
{
    for (LineChart* chart : charts()) {
        if (chart != source)
            chart->setXRange(x0, x1);
    }
}

void ChartGroup::onReset(LineChart* source)
{
    for (LineChart* chart : charts()) {
        if (chart != source)
            chart->resetZoom();
    }
}

} // namespace creditlab::ui::charts
