// RolloutTreeView's colour legend: what the colours mean and how it is painted in its strip at the view's right edge.
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
constexpr int kMinTreeWidth = 160; ///< narrower than this beside the legend, the tree gets the whole viewport

// Every marker style paintEvent draws, each with what it means.
enum class Marker { Anchor, Singleton, Terminal, Size, Reconvergence, SelfLoop, Followed, Selected, Search, Collapsed };

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

std::vector<std::pair<int, QString>> RolloutTreeView::legendMarkers(bool all) const
{
    // The situational entries only while they are drawn (all: every one, for the legend's width).
    std::vector<std::pair<int, QString>> entries {
        { int(Marker::Anchor), tr("black outline: anchor (state recurs)") },
        { int(Marker::Singleton), tr("hollow: singleton (one rollout)") },
        { int(Marker::Terminal), tr("square: terminal (rollout ended)") },
        { int(Marker::Size), tr("size: visits N(s)") },
    };
    const bool reconverges = all
        || std::any_of(m_tree->edges().begin(), m_tree->edges().end(),
            [this](const tree::Edge& e) { return !e.spanning && e.source != e.target && edgeShown(e); });
    if (reconverges)
        entries.push_back({ int(Marker::Reconvergence), tr("dashed edge: re-convergence") });
    const bool loops = all || std::any_of(m_tree->edges().begin(), m_tree->edges().end(), [this](const tree::Edge& e) {
        return e.source == e.target && edgeShown(e);
    });
    if (loops)
        entries.push_back({ int(Marker::SelfLoop), tr("loop: action left the state unchanged") });
    if (all || m_followed >= 0)
        entries.push_back({ int(Marker::Followed), tr("orange outline: followed rollout") });
    if (all || m_selectedNode != tree::kNone || m_selectedEdge != tree::kNone)
        entries.push_back({ int(Marker::Selected), tr("orange ring: selected") });
    if (all || !m_matches.empty())
        entries.push_back({ int(Marker::Search), tr("magenta ring: search match") });
    if (all || !m_collapsed.empty())
        entries.push_back({ int(Marker::Collapsed), tr("+N: nodes collapsed below") });
    return entries;
}

int RolloutTreeView::legendContentWidth() const
{
    const QFontMetrics metrics(font());
    int textWidth = 0;
    for (const auto& entry : legendMarkers(true))
        textWidth = std::max(textWidth, metrics.horizontalAdvance(entry.second));
    const int markerWidth = 2 * kMarkerRadius + 8;
    return std::max({ kBarWidth, metrics.horizontalAdvance(colorLegend().title), markerWidth + 4 + textWidth });
}

int RolloutTreeView::legendStripWidth() const
{
    if (!m_legendVisible || !m_tree || m_layout.visibleCount == 0)
        return 0;
    // The legend's frame and a margin on either side. Its width counts every entry it may show, so that the tree does
    // not shift when a click, a follow or a search adds one.
    const int strip = legendContentWidth() + 2 * kPadding + 2 * kMargin;
    return viewport()->width() - strip >= kMinTreeWidth ? strip : 0;
}

void RolloutTreeView::paintLegend(QPainter& painter)
{
    m_legendRect = m_legendBarRect = QRect();
    m_legendEntries.clear();
    const int strip = m_legendStrip;
    if (strip == 0) // hidden, or no room beside the tree: drawn over it, it would cover nodes
        return;
    const ColorLegend legend = colorLegend();
    const QFontMetrics metrics(font());
    const int line = metrics.height();
    const QColor highlight = QColor::fromRgb(colours::kHighlight);

    const std::vector<std::pair<int, QString>> entries = legendMarkers(false);
    const int markerWidth = 2 * kMarkerRadius + 8;
    const int rowHeight = std::max(line, 2 * kMarkerRadius + 4);
    const int contentWidth = strip - 2 * kPadding - 2 * kMargin;
    const int textWidth = contentWidth - markerWidth - 4;
    const int height = 2 * kPadding + line + 2 + kBarHeight + 2 + line + 4 + int(entries.size()) * rowHeight;
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

    // The markers, drawn as paintEvent draws them, one per row.
    const QColor sample = legendColor(legend, legend.middle);
    const QPen plain(sample.darker(150), 1.0);
    const double r = kMarkerRadius;
    for (const auto& [marker, text] : entries) {
        const QPointF c(left + markerWidth / 2.0, y + rowHeight / 2.0);
        painter.setBrush(QBrush(sample));
        painter.setPen(plain);
        switch (Marker(marker)) {
        case Marker::Anchor:
            painter.setPen(QPen(QColor(20, 20, 20), 2.0));
            painter.drawEllipse(c, r, r);
            break;
        case Marker::Singleton:
            painter.setBrush(Qt::NoBrush);
            painter.drawEllipse(c, r, r);
            break;
        case Marker::Terminal:
            painter.drawRect(QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r));
            break;
        case Marker::Size:
            painter.drawEllipse(c + QPointF(-r, 2), 2.0, 2.0);
            painter.drawEllipse(c + QPointF(2, 0), r - 1, r - 1);
            break;
        case Marker::Reconvergence:
            painter.setPen(QPen(QColor(120, 120, 200), 1.0, Qt::DashLine));
            painter.drawLine(c + QPointF(-markerWidth / 2.0 + 1, 0), c + QPointF(markerWidth / 2.0 - 1, 0));
            break;
        case Marker::SelfLoop:
            painter.drawEllipse(c + QPointF(-2, 2), r - 2, r - 2);
            painter.setPen(QPen(QColor(120, 120, 200), 1.5));
            painter.setBrush(Qt::NoBrush);
            painter.drawEllipse(c + QPointF(2, -2), r - 1.5, r - 1.5);
            break;
        case Marker::Followed:
            painter.setPen(QPen(highlight, 3.0));
            painter.drawEllipse(c, r - 1, r - 1);
            break;
        case Marker::Selected:
            painter.drawEllipse(c, 2.5, 2.5);
            painter.setPen(QPen(highlight, 2.0));
            painter.setBrush(Qt::NoBrush);
            painter.drawEllipse(c, r + 1, r + 1);
            break;
        case Marker::Search:
            painter.drawEllipse(c, 2.5, 2.5);
            painter.setPen(QPen(QColor(200, 0, 200), 2.0));
            painter.setBrush(Qt::NoBrush);
            painter.drawEllipse(c, r + 1, r + 1);
            break;
        case Marker::Collapsed:
            painter.setPen(palette().color(QPalette::Text));
            painter.drawText(QRectF(left, y, markerWidth, rowHeight), Qt::AlignCenter, QStringLiteral("+N"));
            break;
        }
        painter.setPen(palette().color(QPalette::Text));
        painter.drawText(
            QRect(left + markerWidth + 4, y, textWidth, rowHeight), Qt::AlignLeft | Qt::AlignVCenter, text);
        m_legendEntries << text;
        y += rowHeight;
    }
    painter.restore();
    m_legendRect = frame;
    m_legendBarRect = bar;
}

} // namespace creditlab::ui::treeview
