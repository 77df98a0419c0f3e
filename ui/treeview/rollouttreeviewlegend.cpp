// RolloutTreeView's colour legend: what the colours mean and how it is painted over the view's top-right corner.
#include "ui/treeview/rollouttreeview.h"

#include "ui/charts/colours.h"
#include "ui/heatmap/heatmapmath.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace creditlab::ui::treeview {

namespace {

constexpr int kMargin = 8; ///< between the legend and the viewport's edge
constexpr int kPadding = 6; ///< inside the legend's frame
constexpr int kBarWidth = 150;
constexpr int kBarHeight = 10;
constexpr int kMarkerRadius = 5;

QString number(double value) { return QString::number(value, 'g', 3); }

} // namespace

QColor legendColor(const ColorLegend& legend, double value)
{
    if (!std::isfinite(value))
        return QColor::fromRgb(heatmap::DivergingColorMap::kMissing);
    if (legend.diverging)
        return heatmap::DivergingColorMap(legend.maximum).color(value);
    // Sequential (values in [0, 1]): viridis, the colour-blind-safe map every page uses; clamped.
    const double span = legend.maximum - legend.minimum;
    const double t = span > 0 ? std::clamp((value - legend.minimum) / span, 0.0, 1.0) : 0.5;
    return colours::sequential(t);
}

ColorLegend RolloutTreeView::colorLegend() const
{
    ColorLegend legend;
    switch (m_colorBy) {
    case ColorBy::Value:
        legend.title = tr("Value V (RTMC)");
        break;
    case ColorBy::SuccessRate:
        legend.title = tr("Success rate below");
        break;
    case ColorBy::MeanAdvantage:
        legend.title
            = m_method.empty() ? tr("Mean advantage") : tr("Mean advantage (%1)").arg(QString::fromStdString(m_method));
        legend.diverging = true;
        legend.minimum = -m_advantageLimit;
        legend.middle = 0.0;
        legend.maximum = m_advantageLimit;
        break;
    }
    legend.labels = QStringList { number(legend.minimum), number(legend.middle), number(legend.maximum) };
    return legend;
}

void RolloutTreeView::paintLegend(QPainter& painter)
{
    m_legendRect = m_legendBarRect = QRect();
    if (!m_legendVisible)
        return;
    const ColorLegend legend = colorLegend();
    const QFontMetrics metrics(font());
    const int line = metrics.height();
    const QString anchor = tr("anchor"), singleton = tr("singleton"), terminal = tr("terminal");
    const int markerStep = 2 * kMarkerRadius + 4;
    const int markersWidth = 3 * markerStep + metrics.horizontalAdvance(anchor) + metrics.horizontalAdvance(singleton)
        + metrics.horizontalAdvance(terminal) + 2 * 10;
    const int contentWidth = std::max({ kBarWidth, metrics.horizontalAdvance(legend.title), markersWidth });
    const int height = 2 * kPadding + line + 2 + kBarHeight + 2 + line + 4 + std::max(line, 2 * kMarkerRadius);
    const QRect frame(
        viewport()->width() - kMargin - contentWidth - 2 * kPadding, kMargin, contentWidth + 2 * kPadding, height);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    QColor background = palette().color(QPalette::Base);
    background.setAlpha(225);
    painter.setPen(QPen(palette().color(QPalette::Mid), 1.0));
    painter.setBrush(background);
    painter.drawRect(frame);

    int y = frame.top() + kPadding;
    const int left = frame.left() + kPadding;
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(QRect(left, y, contentWidth, line), Qt::AlignLeft | Qt::AlignVCenter, legend.title);
    y += line + 2;

    // The colour bar, one-pixel columns from minimum to maximum.
    const QRect bar(left, y, contentWidth, kBarHeight);
    for (int x = 0; x < bar.width(); ++x) {
        const double f = bar.width() > 1 ? double(x) / (bar.width() - 1) : 0.5;
        painter.fillRect(QRect(bar.left() + x, bar.top(), 1, bar.height()),
            legendColor(legend, legend.minimum + f * (legend.maximum - legend.minimum)));
    }
    painter.setPen(QPen(palette().color(QPalette::Mid), 1.0));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(bar.adjusted(0, 0, -1, -1));
    y += kBarHeight + 2;

    painter.setPen(palette().color(QPalette::Text));
    const QRect labels(left, y, contentWidth, line);
    painter.drawText(labels, Qt::AlignLeft | Qt::AlignVCenter, legend.labels.value(0));
    painter.drawText(labels, Qt::AlignHCenter | Qt::AlignVCenter, legend.labels.value(1));
    painter.drawText(labels, Qt::AlignRight | Qt::AlignVCenter, legend.labels.value(2));
    y += line + 4;

    // The node markers, drawn as paintEvent draws the nodes.
    const QColor sample = legendColor(legend, legend.middle);
    const int cy = y + std::max(line, 2 * kMarkerRadius) / 2;
    int x = left;
    const auto marker = [&](const QPen& pen, const QBrush& brush, bool square, const QString& text) {
        const QPointF c(x + kMarkerRadius, cy);
        painter.setPen(pen);
        painter.setBrush(brush);
        if (square)
            painter.drawRect(
                QRectF(c.x() - kMarkerRadius, c.y() - kMarkerRadius, 2 * kMarkerRadius, 2 * kMarkerRadius));
        else
            painter.drawEllipse(c, kMarkerRadius, kMarkerRadius);
        x += markerStep;
        painter.setPen(palette().color(QPalette::Text));
        const int width = metrics.horizontalAdvance(text);
        painter.drawText(QRect(x, cy - line / 2, width, line), Qt::AlignLeft | Qt::AlignVCenter, text);
        x += width + 10;
    };
    marker(QPen(QColor(20, 20, 20), 2.0), QBrush(sample), false, anchor);
    marker(QPen(sample.darker(150), 1.0), QBrush(Qt::NoBrush), false, singleton);
    marker(QPen(sample.darker(150), 1.0), QBrush(sample), true, terminal);
    painter.restore();
    m_legendRect = frame;
    m_legendBarRect = bar;
}

} // namespace creditlab::ui::treeview
