#include "ui/treeview/rollouttreeview.h"

#include "ui/charts/colours.h"
#include "ui/heatmap/heatmapmath.h"

#include <QElapsedTimer>
#include <QPainter>
#include <QScrollBar>

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace creditlab::ui::treeview {

namespace {

constexpr double kEdgeHitPixels = 4.0;
constexpr double kLabelOffset = 4.0; ///< between an edge's midpoint and its label
constexpr double kLabelGap = 6.0; ///< at least this between a label and the next one on its level
constexpr double kLabelMaxWidth = 260.0;

QString qs(const std::string& text) { return QString::fromStdString(text); }

double segmentDistance(QPointF p, QPointF a, QPointF b)
{
    const QPointF ab = b - a;
    const double len2 = QPointF::dotProduct(ab, ab);
    const double t = len2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / len2, 0.0, 1.0) : 0.0;
    const QPointF d = p - (a + t * ab);
    return std::sqrt(QPointF::dotProduct(d, d));
}

} // namespace

RolloutTreeView::RolloutTreeView(QWidget* parent)
    : QAbstractScrollArea(parent)
{
    setObjectName(QStringLiteral("rolloutTreeView"));
    setMouseTracking(true);
    viewport()->setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(200, 150);
}

RolloutTreeView::~RolloutTreeView() = default;

void RolloutTreeView::setTree(TreePtr tree)
{
    m_tree = std::move(tree);
    m_collapsed.clear();
    m_followed = -1;
    m_matches.clear();
    m_selectedNode = tree::kNone;
    m_selectedEdge = tree::kNone;
    const std::size_t nodes = m_tree ? m_tree->nodes().size() : 0;
    const std::size_t edges = m_tree ? m_tree->edges().size() : 0;
    m_onPath.assign(nodes, 0);
    m_matched.assign(nodes, 0);
    m_edgeOnPath.assign(edges, 0);
    // Each self-loop's place among its node's, so that several loops on one node are drawn apart.
    m_loopIndex.assign(edges, 0);
    if (m_tree) {
        std::unordered_map<tree::NodeId, std::uint32_t> loops;
        for (tree::EdgeId e = 0; e < edges; ++e)
            if (const tree::Edge& edge = m_tree->edge(e); edge.source == edge.target)
                m_loopIndex[e] = loops[edge.source]++;
    }
    m_maxVisits = 1.0;
    if (m_tree)
        for (const auto& n : m_tree->nodes())
            m_maxVisits = std::max(m_maxVisits, n.visits);
    updateColorScale();
    relayout();
    fitToView();
}

void RolloutTreeView::setColorBy(ColorBy quantity, const QString& method)
{
    m_colorBy = quantity;
    m_method = method.toStdString();
    updateColorScale();
    updateScrollBars(); // the legend's title may widen its strip
    viewport()->update();
}

void RolloutTreeView::setLegendVisible(bool visible)
{
    m_legendVisible = visible;
    updateScrollBars(); // the tree gets the legend's strip, or gives it back
    viewport()->update();
}

void RolloutTreeView::updateColorScale()
{
    m_advantageLimit = 0.0;
    if (!m_tree || m_colorBy != ColorBy::MeanAdvantage)
        return;
    for (tree::NodeId n = 0; n < m_tree->nodes().size(); ++n)
        if (const auto a = m_tree->nodeMeanAdvantage(n, m_method); a && std::isfinite(*a))
            m_advantageLimit = std::max(m_advantageLimit, std::abs(*a));
}

void RolloutTreeView::setFollowedRollout(int trajectory)
{
    std::fill(m_onPath.begin(), m_onPath.end(), 0);
    std::fill(m_edgeOnPath.begin(), m_edgeOnPath.end(), 0);
    m_followed = -1;
    if (m_tree && trajectory >= 0 && static_cast<std::size_t>(trajectory) < m_tree->trajectoryCount()) {
        m_followed = trajectory;
        for (const tree::NodeId n : m_tree->path(static_cast<std::uint32_t>(trajectory)))
            m_onPath[n] = 1;
        for (const tree::EdgeId e : m_tree->edgePath(static_cast<std::uint32_t>(trajectory)))
            m_edgeOnPath[e] = 1;
    }
    viewport()->update();
}

void RolloutTreeView::setSelectedNode(tree::NodeId node)
{
    m_selectedNode = m_tree && node < m_tree->nodes().size() ? node : tree::kNone;
    m_selectedEdge = tree::kNone;
    viewport()->update();
}

void RolloutTreeView::setSelectedEdge(tree::EdgeId edge)
{
    m_selectedEdge = m_tree && edge < m_tree->edges().size() ? edge : tree::kNone;
    m_selectedNode = tree::kNone;
    viewport()->update();
}

double RolloutTreeView::selectionRingRadius(tree::NodeId node) const { return radius(node) + 7.0; }

std::vector<tree::NodeId> RolloutTreeView::followedNodes() const
{
    std::vector<tree::NodeId> out;
    for (std::size_t n = 0; n < m_onPath.size(); ++n)
        if (m_onPath[n])
            out.push_back(static_cast<tree::NodeId>(n));
    return out;
}

int RolloutTreeView::setSearchText(const QString& text)
{
    std::fill(m_matched.begin(), m_matched.end(), 0);
    m_matches.clear();
    if (m_tree && !text.trimmed().isEmpty())
        m_matches = m_tree->search(text.trimmed().toStdString());
    for (const tree::NodeId n : m_matches)
        m_matched[n] = 1;
    viewport()->update();
    return static_cast<int>(m_matches.size());
}

void RolloutTreeView::setCollapsed(tree::NodeId node, bool collapsed)
{
    if (!m_tree || node >= m_tree->nodes().size())
        return;
    if (collapsed ? !m_collapsed.insert(node).second : m_collapsed.erase(node) == 0)
        return;
    relayout();
}

void RolloutTreeView::relayout()
{
    if (m_tree) {
        const std::vector<tree::NodeId> collapsed(m_collapsed.begin(), m_collapsed.end());
        m_layout = tree::layoutTree(*m_tree, collapsed);
    } else {
        m_layout = {};
    }
    m_index = TreeViewIndex(m_layout);
    updateScrollBars();
    viewport()->update();
    Q_EMIT layoutChanged();
}

void RolloutTreeView::updateScrollBars()
{
    m_legendStrip = legendStripWidth();
    const QSize view = treeArea().size();
    const double w = m_layout.width * kUnitX * m_zoom;
    const double h = m_layout.levels * kUnitY * m_zoom;
    horizontalScrollBar()->setPageStep(view.width());
    verticalScrollBar()->setPageStep(view.height());
    horizontalScrollBar()->setSingleStep(std::max(1, int(kUnitX * m_zoom)));
    verticalScrollBar()->setSingleStep(std::max(1, int(kUnitY * m_zoom)));
    horizontalScrollBar()->setRange(0, std::max(0, int(std::ceil(w)) - view.width()));
    verticalScrollBar()->setRange(0, std::max(0, int(std::ceil(h)) - view.height()));
}

QRect RolloutTreeView::treeArea() const
{
    QRect area = viewport()->rect();
    area.setWidth(area.width() - m_legendStrip);
    return area;
}

QPointF RolloutTreeView::toView(double x, int depth) const
{
    const QSize view = treeArea().size();
    const double w = m_layout.width * kUnitX * m_zoom;
    const double h = m_layout.levels * kUnitY * m_zoom;
    // Centre the tree when it is smaller than its area.
    const double ox = w < view.width() ? (view.width() - w) / 2 : -horizontalScrollBar()->value();
    const double oy = h < view.height() ? (view.height() - h) / 2 : -verticalScrollBar()->value();
    return { ox + (x + 0.5) * kUnitX * m_zoom, oy + (depth + 0.5) * kUnitY * m_zoom };
}

QPointF RolloutTreeView::nodeCenter(tree::NodeId node) const
{
    if (node >= m_layout.x.size())
        return {};
    return toView(m_layout.x[node], m_layout.depth[node]);
}

double RolloutTreeView::radius(tree::NodeId node) const
{
    const double visits = m_tree->node(node).visits;
    const double unit = std::min(kUnitX, kUnitY) * m_zoom;
    return std::max(1.5, unit * (0.12 + 0.33 * std::sqrt(std::max(0.0, visits) / m_maxVisits)));
}

QColor RolloutTreeView::nodeColor(tree::NodeId node) const
{
    const tree::Node& n = m_tree->node(node);
    switch (m_colorBy) {
    case ColorBy::Value:
        return legendColor(ColorLegend {}, n.vPrime);
    case ColorBy::SuccessRate:
        return legendColor(ColorLegend {}, n.successRate);
    case ColorBy::MeanAdvantage: {
        const auto a = m_tree->nodeMeanAdvantage(node, m_method);
        return heatmap::DivergingColorMap(m_advantageLimit).color(a ? *a : std::nan(""));
    }
    }
    return Qt::gray;
}

bool RolloutTreeView::edgeShown(const tree::Edge& edge) const
{
    return m_layout.visible[edge.source] && m_layout.visible[edge.target];
}

std::pair<QPointF, double> RolloutTreeView::selfLoop(tree::EdgeId edge) const
{
    const tree::Edge& e = m_tree->edge(edge);
    if (e.source != e.target)
        return { {}, 0.0 };
    // A circle on the node's upper right that overlaps its outline, so that it reads as leaving and re-entering the
    // node (a straight line from a node to itself is a point: such edges were not drawn at all). Further loops of the
    // same node are larger, so that they stay apart.
    const double r = radius(e.source);
    const double loop = std::max(4.0, 0.6 * r) * (1.0 + 0.6 * m_loopIndex[edge]);
    const QPointF direction(std::sqrt(0.5), -std::sqrt(0.5));
    return { nodeCenter(e.source) + direction * (r + 0.6 * loop), loop };
}

QRectF RolloutTreeView::selfLoopRect(tree::EdgeId edge) const
{
    if (!m_tree || edge >= m_tree->edges().size() || !edgeShown(m_tree->edge(edge)))
        return {};
    const auto [centre, loop] = selfLoop(edge);
    return loop > 0 ? QRectF(centre - QPointF(loop, loop), QSizeF(2 * loop, 2 * loop)) : QRectF();
}

void RolloutTreeView::paintEvent(QPaintEvent*)
{
    QElapsedTimer timer;
    timer.start();
    QPainter painter(viewport());
    painter.fillRect(viewport()->rect(), palette().base());
    m_lastPainted = 0;
    if (!m_tree || m_layout.visibleCount == 0) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(viewport()->rect(), Qt::AlignCenter, tr("No rollout tree to show"));
        m_legendRect = m_legendBarRect = QRect();
        m_lastPaintMs = double(timer.nsecsElapsed()) / 1e6;
        return;
    }
    painter.setRenderHint(QPainter::Antialiasing, m_zoom >= 0.3);
    // The tree stays out of the legend's strip, at any zoom and scroll.
    const QRect area = treeArea();
    painter.setClipRect(area);
    const QRectF view = QRectF(area).adjusted(-4, -4, 4, 4);
    const QColor highlight = QColor::fromRgb(colours::kHighlight);
    const QPen spanning(QColor(150, 150, 150), 1.0);
    QPen reconverging(QColor(120, 120, 200), 1.0, Qt::DashLine);
    const QPen loop(QColor(120, 120, 200), 1.5); // solid: a small dashed circle would not read as a line
    const QPen followed(highlight, 3.0);
    const QFontMetrics metrics(font());
    // Edges: a cheap bounding-box cull over all of them; only intersecting ones are drawn.
    for (tree::EdgeId e = 0; e < m_tree->edges().size(); ++e) {
        const tree::Edge& edge = m_tree->edge(e);
        if (!edgeShown(edge))
            continue;
        if (edge.source == edge.target) {
            const auto [centre, size] = selfLoop(e);
            if (!QRectF(centre - QPointF(size, size), QSizeF(2 * size, 2 * size)).intersects(view))
                continue;
            painter.setBrush(Qt::NoBrush);
            if (e == m_selectedEdge) {
                painter.setPen(QPen(highlight, 6.0));
                painter.drawEllipse(centre, size, size);
            }
            painter.setPen(m_edgeOnPath[e] ? followed : loop);
            painter.drawEllipse(centre, size, size);
            continue;
        }
        const QPointF a = nodeCenter(edge.source), b = nodeCenter(edge.target);
        if (!QRectF(a, b).normalized().adjusted(-1, -1, 1, 1).intersects(view))
            continue;
        if (e == m_selectedEdge) {
            painter.setPen(QPen(highlight, 6.0, Qt::SolidLine, Qt::RoundCap));
            painter.drawLine(a, b);
        }
        painter.setPen(m_edgeOnPath[e] ? followed : edge.spanning ? spanning : reconverging);
        painter.drawLine(a, b);
    }
    painter.setPen(palette().color(QPalette::Text));
    for (const EdgeLabel& label : edgeLabels())
        painter.drawText(label.rect, Qt::AlignLeft | Qt::AlignVCenter, label.text);
    // Nodes: per level, only the x range in view (the index is sorted by x).
    const double unitX = kUnitX * m_zoom, unitY = kUnitY * m_zoom;
    const QPointF origin = toView(0, 0);
    const double x0 = (view.left() - origin.x()) / unitX - 1, x1 = (view.right() - origin.x()) / unitX + 1;
    const int d0 = int(std::floor((view.top() - origin.y()) / unitY)) - 1;
    const int d1 = int(std::ceil((view.bottom() - origin.y()) / unitY)) + 1;
    m_index.forEachIn(x0, x1, d0, d1, [&](tree::NodeId id) {
        const tree::Node& n = m_tree->node(id);
        const QPointF c = nodeCenter(id);
        const double r = radius(id);
        const QColor colour = nodeColor(id);
        QPen outline(n.anchor ? QColor(20, 20, 20) : colour.darker(150), n.anchor ? 2.0 : 1.0);
        if (m_onPath[id])
            outline = followed;
        painter.setPen(outline);
        painter.setBrush(n.singleton ? QBrush(Qt::NoBrush) : QBrush(colour));
        if (n.kind == tree::NodeKind::Terminal)
            painter.drawRect(QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r));
        else
            painter.drawEllipse(c, r, r);
        if (m_matched[id]) {
            painter.setPen(QPen(QColor(200, 0, 200), 2.0));
            painter.setBrush(Qt::NoBrush);
            painter.drawEllipse(c, r + 4, r + 4);
        }
        if (id == m_selectedNode) {
            // A ring apart from the node, so that it reads as "selected" on any fill, outline or follow.
            const double ring = selectionRingRadius(id);
            painter.setPen(QPen(highlight, 3.0));
            painter.setBrush(Qt::NoBrush);
            if (n.kind == tree::NodeKind::Terminal)
                painter.drawRect(QRectF(c.x() - ring, c.y() - ring, 2 * ring, 2 * ring));
            else
                painter.drawEllipse(c, ring, ring);
        }
        if (m_layout.hiddenBelow[id] > 0) {
            painter.setPen(palette().color(QPalette::Text));
            painter.drawText(
                c + QPointF(r + 2, r + metrics.ascent()), QStringLiteral("+%1").arg(m_layout.hiddenBelow[id]));
        }
        ++m_lastPainted;
    });
    painter.setClipping(false);
    paintLegend(painter);
    m_lastPaintMs = double(timer.nsecsElapsed()) / 1e6;
}

std::vector<EdgeLabel> RolloutTreeView::edgeLabels() const
{
    std::vector<EdgeLabel> out;
    if (!m_tree || m_layout.visibleCount == 0 || m_zoom < kLabelZoom)
        return out;
    const QFontMetricsF metrics(font());
    const QRectF view = QRectF(treeArea());
    // Candidates: spanning edges whose midpoint's row is in view. Every spanning edge into a level has its
    // midpoint on one row, so labels can only collide with the others of their row.
    struct Candidate {
        int level;
        double x;
        double y;
        tree::EdgeId edge;
    };
    std::vector<Candidate> candidates;
    for (tree::EdgeId e = 0; e < m_tree->edges().size(); ++e) {
        const tree::Edge& edge = m_tree->edge(e);
        if (!edge.spanning || !edgeShown(edge))
            continue;
        const QPointF mid = (nodeCenter(edge.source) + nodeCenter(edge.target)) / 2;
        if (mid.y() < view.top() - metrics.height() || mid.y() > view.bottom() + metrics.height()
            || mid.x() > view.right())
            continue;
        candidates.push_back({ m_layout.depth[edge.target], mid.x() + kLabelOffset, mid.y(), e });
    }
    std::sort(candidates.begin(), candidates.end(),
        [](const Candidate& a, const Candidate& b) { return a.level != b.level ? a.level < b.level : a.x < b.x; });
    const double minimum = metrics.horizontalAdvance(QStringLiteral("ab…"));
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const Candidate& c = candidates[i];
        const bool last = i + 1 == candidates.size() || candidates[i + 1].level != c.level;
        // The room up to the next label's start (its edge line passes just left of it).
        const double room
            = std::min(kLabelMaxWidth, last ? kLabelMaxWidth : candidates[i + 1].x - kLabelOffset - kLabelGap - c.x);
        if (room < minimum || c.x + room < view.left())
            continue;
        const QString text = metrics.elidedText(qs(m_tree->edge(c.edge).action), Qt::ElideRight, room);
        const double width = metrics.horizontalAdvance(text);
        if (text.isEmpty() || width < 1)
            continue;
        out.push_back({ c.edge, QRectF(c.x, c.y - metrics.height() / 2, std::ceil(width), metrics.height()), text });
    }
    return out;
}

tree::NodeId RolloutTreeView::nodeAt(QPointF p) const
{
    if (!m_tree || m_layout.visibleCount == 0 || !QRectF(treeArea()).contains(p)) // the legend's strip has none
        return tree::kNone;
    const QPointF origin = toView(0, 0);
    const double unitX = kUnitX * m_zoom, unitY = kUnitY * m_zoom;
    const int depth = int(std::lround((p.y() - origin.y()) / unitY));
    const double x = (p.x() - origin.x()) / unitX;
    const tree::NodeId n = m_index.nearest(depth, x, 0.5);
    if (n == tree::kNone)
        return n;
    const QPointF d = p - nodeCenter(n);
    const double r = std::max(radius(n), 4.0);
    return QPointF::dotProduct(d, d) <= r * r ? n : tree::kNone;
}

tree::EdgeId RolloutTreeView::edgeAt(QPointF p) const
{
    if (!m_tree || !QRectF(treeArea()).contains(p))
        return tree::kNone;
    tree::EdgeId best = tree::kNone;
    double bestDistance = kEdgeHitPixels;
    for (tree::EdgeId e = 0; e < m_tree->edges().size(); ++e) {
        const tree::Edge& edge = m_tree->edge(e);
        if (!edgeShown(edge))
            continue;
        if (edge.source == edge.target) { // on the loop's circle
            const auto [centre, size] = selfLoop(e);
            const QPointF d = p - centre;
            const double distance = std::abs(std::sqrt(QPointF::dotProduct(d, d)) - size);
            if (distance <= bestDistance) {
                bestDistance = distance;
                best = e;
            }
            continue;
        }
        const QPointF a = nodeCenter(edge.source), b = nodeCenter(edge.target);
        if (!QRectF(a, b)
                 .normalized()
                 .adjusted(-kEdgeHitPixels, -kEdgeHitPixels, kEdgeHitPixels, kEdgeHitPixels)
                 .contains(p))
            continue;
        const double d = segmentDistance(p, a, b);
        if (d <= bestDistance) {
            bestDistance = d;
            best = e;
        }
    }
    return best;
}

} // namespace creditlab::ui::treeview
