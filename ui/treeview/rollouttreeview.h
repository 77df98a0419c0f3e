#pragma once

#include "core/tree/rollouttree.h"
#include "core/tree/treelayout.h"
#include "ui/treeview/treeviewindex.h"

#include <QAbstractScrollArea>
#include <QColor>
#include <QRectF>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <unordered_set>
#include <utility>
#include <vector>

namespace creditlab::ui::treeview {

using TreePtr = std::shared_ptr<const tree::RolloutTree>;

/// What colours the nodes.
enum class ColorBy {
    Value, ///< RTMC's V (sequential, 0 red … 1 green)
    SuccessRate, ///< share of the rollouts through the node that succeeded (same map)
    MeanAdvantage, ///< mean advantage of the node's turns under one method (diverging, centred at 0)
};

/// What the colour legend shows for the current quantity: the bar runs from `minimum` through `middle` to
/// `maximum`; `labels` are the three numbers written under it (minimum, middle, maximum).
struct ColorLegend {
    QString title; ///< the quantity's name
    double minimum = 0.0;
    double middle = 0.5;
    double maximum = 1.0;
    bool diverging = false; ///< blue–white–red centred at 0, else red–yellow–green
    QStringList labels;
};

/// The colour the view paints a node of `value` with under `legend` (NaN: grey). Any thread.
QColor legendColor(const ColorLegend& legend, double value);

/// "turn 2 of R1": a turn as every page names it, numbered from 1 (TurnRef::turn 0 is "turn 1"), with the id of its
/// rollout in `tree`. GUI thread (translated).
QString turnLabel(const tree::RolloutTree& tree, tree::TurnRef turn);

/// An action text drawn on a spanning edge: where (viewport coordinates) and what, elided to its room.
struct EdgeLabel {
    tree::EdgeId edge = tree::kNone;
    QRectF rect;
    QString text;
};

/// The rollout tree of one group, custom-painted: circles sized by visits (sqrt scale) and coloured by a quantity,
/// anchors with a black outline, singletons hollow, terminal nodes square; spanning edges straight, re-convergence
/// edges dashed, self-loops (an action that left the state unchanged) as a loop on the node's upper right, with the
/// action text when zoomed in (labels of neighbouring edges elided or left out so that none overlap). The clicked
/// node or edge is highlighted (a ring in colours::kHighlight), as is a followed rollout's path. Draws only what
/// intersects the viewport (nodes found through a per-level sorted index), so it stays interactive at 10⁴–10⁵ nodes.
/// Wheel zooms, drag pans, Home fits, double-click collapses/expands a subtree. A legend (the quantity's name, its
/// colour bar with minimum, middle and maximum, and every marker style drawn) is painted in a strip of its own at
/// the viewport's right edge, which the tree is never drawn into (treeArea()), so it covers no node at any zoom or
/// scroll and is in every grab and PNG/SVG export. Lives on the GUI thread.
class RolloutTreeView : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit RolloutTreeView(QWidget* parent = nullptr);
    ~RolloutTreeView() override;

    /// Shows `tree` (nullptr: nothing), expanded, fitted to the view; clears follow, search and collapse state.
    void setTree(TreePtr tree);
    const TreePtr& tree() const { return m_tree; }
    /// Colours by `quantity`; `method` names the credit method for MeanAdvantage.
    void setColorBy(ColorBy quantity, const QString& method = {});
    ColorBy colorBy() const { return m_colorBy; }
    /// The legend of the current quantity (follows setColorBy and setTree).
    ColorLegend colorLegend() const;
    /// Shows or hides the legend overlay (shown by default).
    void setLegendVisible(bool visible);
    bool isLegendVisible() const { return m_legendVisible; }
    /// Where the legend was painted last, in viewport coordinates; empty when it was not.
    QRect legendRect() const { return m_legendRect; }
    /// Where the colour bar was painted last (inside legendRect()), in viewport coordinates.
    QRect legendBarRect() const { return m_legendBarRect; }
    /// The legend's marker explanations as painted last ("hollow: singleton …"), top to bottom.
    const QStringList& legendEntries() const { return m_legendEntries; }
    /// Where the tree is drawn and fitted, in viewport coordinates: the viewport less the legend's strip at its right
    /// edge while the legend shows (the whole viewport when it is hidden, or the viewport too narrow for both).
    QRect treeArea() const;
    /// Where the self-loop `edge` (from a node back to itself) is drawn: the bounding box of its loop, in viewport
    /// coordinates; empty for any other edge and for one not shown.
    QRectF selfLoopRect(tree::EdgeId edge) const;

    /// The selected (clicked) node or edge, highlighted; kNone when none. A click selects; setTree clears.
    void setSelectedNode(tree::NodeId node);
    void setSelectedEdge(tree::EdgeId edge);
    tree::NodeId selectedNode() const { return m_selectedNode; }
    tree::EdgeId selectedEdge() const { return m_selectedEdge; }
    /// Radius of the selection ring around a node, in pixels (outside the node and its search ring).
    double selectionRingRadius(tree::NodeId node) const;

    /// Highlights the path of trajectory `trajectory` (index into the tree's group); -1 clears.
    void setFollowedRollout(int trajectory);
    int followedRollout() const { return m_followed; }
    /// The nodes highlighted by follow, ascending.
    std::vector<tree::NodeId> followedNodes() const;
    /// Highlights the nodes RolloutTree::search finds; empty text clears. Returns the number of matches.
    int setSearchText(const QString& text);
    const std::vector<tree::NodeId>& searchMatches() const { return m_matches; }

    /// Collapses (hides the subtree below) or expands `node`, recomputing the layout.
    void setCollapsed(tree::NodeId node, bool collapsed);
    bool isCollapsed(tree::NodeId node) const { return m_collapsed.count(node) != 0; }
    const tree::TreeLayout& layout() const { return m_layout; }
    std::size_t visibleNodeCount() const { return m_layout.visibleCount; }

    /// Zoom (pixels per layout unit = kUnit × zoom) and fitting.
    double zoom() const { return m_zoom; }
    void setZoom(double zoom, QPointF anchor = QPointF(-1, -1));
    void fitToView();
    /// Where a node's centre is drawn, in viewport coordinates; scrolls nothing.
    QPointF nodeCenter(tree::NodeId node) const;
    /// Makes the node visible (scrolls to centre it).
    void centerOn(tree::NodeId node);
    /// The visible node under a viewport point, or kNone. edgeAt: the visible edge within a few pixels, or kNone.
    tree::NodeId nodeAt(QPointF viewportPoint) const;
    tree::EdgeId edgeAt(QPointF viewportPoint) const;
    /// The tooltip at a viewport point (a node's or an edge's; empty over nothing). Turns are numbered from 1.
    QString toolTipAt(QPointF viewportPoint) const;
    /// The action labels the view draws at the current zoom and scroll, none overlapping another: from
    /// kLabelZoom on, each spanning edge in view gets its action at its midpoint, elided to the room before the
    /// next label on its level, or none when too little room is left.
    std::vector<EdgeLabel> edgeLabels() const;

    /// Nodes drawn by the last paint, and its duration in milliseconds (for the log and tests).
    std::size_t lastPaintedNodes() const { return m_lastPainted; }
    double lastPaintMilliseconds() const { return m_lastPaintMs; }
    /// Writes the view as PNG (or SVG by suffix); false with `error` set on failure.
    bool exportImage(const QString& path, QString* error = nullptr);

    static constexpr double kUnitX = 28.0; ///< pixels between neighbouring leaves at zoom 1
    static constexpr double kUnitY = 64.0; ///< pixels between levels at zoom 1
    static constexpr double kLabelZoom = 2.0; ///< edge action texts from this zoom on

Q_SIGNALS:
    void nodeClicked(quint32 node);
    void edgeClicked(quint32 edge);
    /// The layout changed (collapse/expand or a new tree).
    void layoutChanged();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    void relayout();
    void updateScrollBars();
    void updateColorScale();
    QPointF toView(double x, int depth) const;
    double radius(tree::NodeId node) const;
    QColor nodeColor(tree::NodeId node) const;
    QString nodeToolTip(tree::NodeId node) const;
    QString edgeToolTip(tree::EdgeId edge) const;
    bool edgeShown(const tree::Edge& edge) const;
    /// A self-loop's circle (centre and radius, viewport coordinates); the radius is 0 for other edges.
    std::pair<QPointF, double> selfLoop(tree::EdgeId edge) const;
    /// The legend's entries: the marker (an index into the legend file's Marker) and its text. `all`: every entry the
    /// legend can show, for its width, which then does not change with a click or a search.
    std::vector<std::pair<int, QString>> legendMarkers(bool all) const;
    /// The width of the legend's content (inside its frame).
    int legendContentWidth() const;
    /// The width of the strip the legend takes at the viewport's right edge; 0 when none is reserved. Measures text:
    /// updateScrollBars() keeps it in m_legendStrip for the per-node geometry.
    int legendStripWidth() const;
    void paintLegend(QPainter& painter);

    TreePtr m_tree;
    tree::TreeLayout m_layout;
    TreeViewIndex m_index;
    std::unordered_set<tree::NodeId> m_collapsed;
    ColorBy m_colorBy = ColorBy::Value;
    std::string m_method;
    double m_advantageLimit = 1.0;
    double m_maxVisits = 1.0;
    int m_followed = -1;
    std::vector<char> m_onPath; ///< per node
    std::vector<char> m_edgeOnPath; ///< per edge
    std::vector<std::uint32_t> m_loopIndex; ///< per edge: its place among its node's self-loops (0 for other edges)
    std::vector<tree::NodeId> m_matches;
    std::vector<char> m_matched; ///< per node
    double m_zoom = 1.0;
    QPoint m_pressPos;
    QPoint m_lastDragPos;
    bool m_dragging = false;
    std::size_t m_lastPainted = 0;
    double m_lastPaintMs = 0;
    bool m_legendVisible = true;
    int m_legendStrip = 0; ///< legendStripWidth() as of the last updateScrollBars()
    QRect m_legendRect;
    QRect m_legendBarRect;
    QStringList m_legendEntries;
    tree::NodeId m_selectedNode = tree::kNone;
    tree::EdgeId m_selectedEdge = tree::kNone;
};

} // namespace creditlab::ui::treeview
