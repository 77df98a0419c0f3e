// RolloutTreeView: zoom, pan, fit, mouse and keyboard, tooltips and export.
#include "ui/treeview/rollouttreeview.h"

#include "ui/charts/chartexport.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace creditlab::ui::treeview {

namespace {

constexpr double kMinZoom = 0.01;
constexpr double kMaxZoom = 8.0;

QString qs(const std::string& text) { return QString::fromStdString(text); }

QString clip(const std::string& text, int length = 200)
{
    const QString s = qs(text);
    return s.size() > length ? s.left(length) + QChar(0x2026) : s;
}

} // namespace

void RolloutTreeView::setZoom(double zoom, QPointF anchor)
{
    zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    if (anchor.x() < 0)
        anchor = QRectF(treeArea()).center();
    // Keep the layout point under `anchor` in place.
    const QPointF origin = toView(0, 0);
    const double lx = (anchor.x() - origin.x()) / (kUnitX * m_zoom);
    const double ly = (anchor.y() - origin.y()) / (kUnitY * m_zoom);
    m_zoom = zoom;
    updateScrollBars();
    horizontalScrollBar()->setValue(int(std::lround(lx * kUnitX * m_zoom - anchor.x())));
    verticalScrollBar()->setValue(int(std::lround(ly * kUnitY * m_zoom - anchor.y())));
    viewport()->update();
}

void RolloutTreeView::fitToView()
{
    const QSize view = treeArea().size(); // beside the legend, not under it
    if (m_layout.width <= 0 || m_layout.levels <= 0) {
        m_zoom = 1.0;
    } else {
        const double zx = view.width() / (m_layout.width * kUnitX);
        const double zy = view.height() / (m_layout.levels * kUnitY);
        m_zoom = std::clamp(std::min({ zx, zy, 2.5 }), kMinZoom, kMaxZoom);
    }
    updateScrollBars();
    horizontalScrollBar()->setValue(0);
    verticalScrollBar()->setValue(0);
    viewport()->update();
}

void RolloutTreeView::centerOn(tree::NodeId node)
{
    if (node >= m_layout.x.size() || !m_layout.visible[node])
        return;
    const QRect area = treeArea();
    horizontalScrollBar()->setValue(int((m_layout.x[node] + 0.5) * kUnitX * m_zoom - area.width() / 2.0));
    verticalScrollBar()->setValue(int((m_layout.depth[node] + 0.5) * kUnitY * m_zoom - area.height() / 2.0));
    viewport()->update();
}

void RolloutTreeView::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBars();
}

void RolloutTreeView::wheelEvent(QWheelEvent* event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0)
        return;
    setZoom(m_zoom * std::pow(1.25, steps), event->position());
    event->accept();
}

void RolloutTreeView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return QAbstractScrollArea::mousePressEvent(event);
    m_pressPos = m_lastDragPos = event->position().toPoint();
    m_dragging = false;
}

void RolloutTreeView::mouseMoveEvent(QMouseEvent* event)
{
    if (!(event->buttons() & Qt::LeftButton))
        return;
    const QPoint pos = event->position().toPoint();
    if (!m_dragging && (pos - m_pressPos).manhattanLength() < 4)
        return;
    m_dragging = true;
    viewport()->setCursor(Qt::ClosedHandCursor);
    const QPoint delta = pos - m_lastDragPos;
    m_lastDragPos = pos;
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() - delta.x());
    verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y());
    viewport()->update();
}

void RolloutTreeView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return QAbstractScrollArea::mouseReleaseEvent(event);
    if (m_dragging) {
        m_dragging = false;
        viewport()->unsetCursor();
        return;
    }
    const QPointF p = event->position();
    if (const tree::NodeId n = nodeAt(p); n != tree::kNone) {
        setSelectedNode(n);
        Q_EMIT nodeClicked(n);
    } else if (const tree::EdgeId e = edgeAt(p); e != tree::kNone) {
        setSelectedEdge(e);
        Q_EMIT edgeClicked(e);
    }
}

void RolloutTreeView::mouseDoubleClickEvent(QMouseEvent* event)
{
    const tree::NodeId n = nodeAt(event->position());
    if (n == tree::kNone)
        return;
    setCollapsed(n, !isCollapsed(n));
}

void RolloutTreeView::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Home:
        fitToView();
        break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        setZoom(m_zoom * 1.25);
        break;
    case Qt::Key_Minus:
        setZoom(m_zoom / 1.25);
        break;
    default:
        QAbstractScrollArea::keyPressEvent(event);
    }
}

bool RolloutTreeView::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::ToolTip && m_tree) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, viewport());
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

QString turnLabel(const tree::RolloutTree& tree, tree::TurnRef turn)
{
    const QString id = turn.trajectory < tree.trajectoryCount() ? qs(tree.trajectoryId(turn.trajectory))
                                                                : QString::number(turn.trajectory);
    return RolloutTreeView::tr("turn %1 of %2").arg(qulonglong(turn.turn) + 1).arg(id);
}

QString RolloutTreeView::toolTipAt(QPointF p) const
{
    if (!m_tree)
        return {};
    if (const tree::NodeId n = nodeAt(p); n != tree::kNone)
        return nodeToolTip(n);
    if (const tree::EdgeId e = edgeAt(p); e != tree::kNone)
        return edgeToolTip(e);
    return {};
}

QString RolloutTreeView::nodeToolTip(tree::NodeId node) const
{
    const tree::Node& n = m_tree->node(node);
    const QLocale locale;
    QString text = n.kind == tree::NodeKind::Terminal
        ? tr("End of %n rollout(s), mean outcome %1", nullptr, int(n.rollouts.size())).arg(locale.toString(n.v, 'g', 3))
        : tr("State %1\nvisits %2, V %3, V' %4, success %5%\nrollouts through it: %6")
              .arg(clip(n.key, 120))
              .arg(locale.toString(n.visits, 'g', 4))
              .arg(locale.toString(n.v, 'g', 3))
              .arg(locale.toString(n.vPrime, 'g', 3))
              .arg(locale.toString(100.0 * n.successRate, 'f', 0))
              .arg(n.rollouts.size());
    if (!n.turns.empty())
        text += QLatin1Char('\n')
            + (n.kind == tree::NodeKind::Terminal ? tr("after %1") : tr("first reached at %1"))
                  .arg(turnLabel(*m_tree, n.turns.front()));
    if (n.anchor)
        text += QLatin1Char('\n') + tr("anchor state (repeats in the group)");
    if (m_colorBy == ColorBy::MeanAdvantage)
        if (const auto a = m_tree->nodeMeanAdvantage(node, m_method))
            text
                += QLatin1Char('\n') + tr("mean advantage (%1): %2").arg(qs(m_method)).arg(locale.toString(*a, 'g', 4));
    if (m_layout.hiddenBelow[node] > 0)
        text += QLatin1Char('\n') + tr("%n node(s) collapsed below", nullptr, int(m_layout.hiddenBelow[node]));
    return text;
}

QString RolloutTreeView::edgeToolTip(tree::EdgeId edge) const
{
    const tree::Edge& e = m_tree->edge(edge);
    const QLocale locale;
    QString text = tr("Action %1\nQ %2, N(s,a) %3, taken %n time(s)%4", nullptr, static_cast<int>(e.turns.size()))
                       .arg(clip(e.action, 160))
                       .arg(locale.toString(e.q, 'g', 3))
                       .arg(locale.toString(e.pairVisits, 'g', 4))
                       .arg(e.source == e.target ? tr(" (state unchanged)")
                               : e.spanning      ? QString()
                                                 : tr(" (re-convergence)"));
    if (!e.turns.empty())
        text += QLatin1Char('\n') + tr("first taken at %1").arg(turnLabel(*m_tree, e.turns.front()));
    return text;
}

bool RolloutTreeView::exportImage(const QString& path, QString* error)
{
    QString message;
    const bool ok = charts::exportWidgetImage(viewport(), path, &message);
    if (error)
        *error = message;
    return ok;
}

} // namespace creditlab::ui::treeview
