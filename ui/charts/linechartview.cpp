#include "ui/charts/linechartview.h"

#include <QChart>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QRubberBand>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace creditlab::ui::charts {

namespace {
constexpr int kDragThreshold = 4; // pixels before a press becomes a drag (a click opens the menu)
constexpr double kWheelStep = 0.85; // zoom factor per wheel notch
constexpr double kKeyStep = 0.8;
} // namespace

LineChartView::LineChartView(QChart* chart, QWidget* parent)
    : QChartView(chart, parent)
{
    setRenderHint(QPainter::Antialiasing);
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setRubberBand(QChartView::NoRubberBand);
    setDragMode(QGraphicsView::NoDrag);
    // Right button events reach mouse*Event: a right drag pans, a right click opens the menu ourselves.
    setContextMenuPolicy(Qt::PreventContextMenu);
    // The overlays are painted in drawForeground, which needs a full repaint to move the cursor cleanly.
    setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
}

void LineChartView::showCursor(qreal sceneX, const QList<ReadoutLine>& lines)
{
    m_cursorShown = true;
    m_cursorX = sceneX;
    m_readout = lines;
    viewport()->update();
}

void LineChartView::hideCursor()
{
    if (!m_cursorShown)
        return;
    m_cursorShown = false;
    m_readout.clear();
    viewport()->update();
}

void LineChartView::setPlaceholder(const QString& text)
{
    if (text == m_placeholder)
        return;
    m_placeholder = text;
    viewport()->update();
}

void LineChartView::mousePressEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    const bool inPlot = chart()->plotArea().contains(mapToScene(pos));
    if (m_drag != Drag::None || !inPlot) {
        // Clicks outside the plot (legend markers) go to Qt Charts.
        QChartView::mousePressEvent(event);
        return;
    }
    m_pressPos = m_lastPos = pos;
    m_moved = false;
    m_dragButton = event->button();
    if (event->button() == Qt::LeftButton && !(event->modifiers() & Qt::ShiftModifier))
        m_drag = Drag::Zoom;
    else if (event->button() == Qt::LeftButton || event->button() == Qt::RightButton
        || event->button() == Qt::MiddleButton)
        m_drag = Drag::Pan;
    else {
        QChartView::mousePressEvent(event);
        return;
    }
    hideCursor();
    event->accept();
}

void LineChartView::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    if (m_drag == Drag::None) {
        if (chart()->plotArea().contains(mapToScene(pos)))
            Q_EMIT hoverMoved(pos);
        else if (m_cursorShown) {
            hideCursor();
            Q_EMIT hoverLeft();
        }
        QChartView::mouseMoveEvent(event);
        return;
    }
    if ((pos - m_pressPos).manhattanLength() >= kDragThreshold)
        m_moved = true;
    if (m_drag == Drag::Zoom && m_moved) {
        if (!m_rubberBand)
            m_rubberBand = new QRubberBand(QRubberBand::Rectangle, viewport());
        m_rubberBand->setGeometry(QRect(m_pressPos, pos).normalized());
        m_rubberBand->show();
    } else if (m_drag == Drag::Pan && m_moved) {
        Q_EMIT panRequested(QPointF(pos - m_lastPos));
    }
    m_lastPos = pos;
    event->accept();
}

void LineChartView::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_drag == Drag::None || event->button() != m_dragButton) {
        QChartView::mouseReleaseEvent(event);
        return;
    }
    const Drag drag = m_drag;
    m_drag = Drag::None;
    if (m_rubberBand)
        m_rubberBand->hide();
    const QPoint pos = event->position().toPoint();
    if (drag == Drag::Zoom && m_moved) {
        const QRect r = QRect(m_pressPos, pos).normalized();
        if (r.width() >= kDragThreshold && r.height() >= kDragThreshold)
            Q_EMIT zoomRectRequested(QRectF(r));
    } else if (!m_moved && m_dragButton == Qt::RightButton) {
        Q_EMIT contextMenuRequested(event->globalPosition().toPoint());
    }
    event->accept();
}

void LineChartView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton) {
        Q_EMIT resetRequested();
        event->accept();
        return;
    }
    QChartView::mouseDoubleClickEvent(event);
}

void LineChartView::wheelEvent(QWheelEvent* event)
{
    const double notches = event->angleDelta().y() / 120.0;
    const Qt::KeyboardModifiers mods = event->modifiers();
    // The plain wheel belongs to the page (a grid of charts scrolls); Ctrl+wheel zooms around the cursor, with
    // Shift the x axis only.
    if (notches == 0.0 || !(mods & Qt::ControlModifier)) {
        event->ignore();
        return;
    }
    const double f = std::pow(kWheelStep, notches);
    const double fy = (mods & Qt::ShiftModifier) ? 1.0 : f;
    Q_EMIT zoomRequested(event->position(), f, fy);
    event->accept();
}

void LineChartView::keyPressEvent(QKeyEvent* event)
{
    const QRectF plot = chart()->plotArea();
    const QPointF centre = mapFromScene(plot.center());
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        Q_EMIT zoomRequested(centre, kKeyStep, kKeyStep);
        break;
    case Qt::Key_Minus:
        Q_EMIT zoomRequested(centre, 1.0 / kKeyStep, 1.0 / kKeyStep);
        break;
    case Qt::Key_Left:
        Q_EMIT panRequested(QPointF(plot.width() * 0.1, 0));
        break;
    case Qt::Key_Right:
        Q_EMIT panRequested(QPointF(-plot.width() * 0.1, 0));
        break;
    case Qt::Key_Up:
        Q_EMIT panRequested(QPointF(0, plot.height() * 0.1));
        break;
    case Qt::Key_Down:
        Q_EMIT panRequested(QPointF(0, -plot.height() * 0.1));
        break;
    case Qt::Key_Home:
        Q_EMIT resetRequested();
        break;
    default:
        QChartView::keyPressEvent(event);
        return;
    }
    event->accept();
}

void LineChartView::leaveEvent(QEvent* event)
{
    hideCursor();
    Q_EMIT hoverLeft();
    QChartView::leaveEvent(event);
}

void LineChartView::resizeEvent(QResizeEvent* event)
{
    QChartView::resizeEvent(event);
    Q_EMIT resized();
}

void LineChartView::drawForeground(QPainter* painter, const QRectF& rect)
{
    QChartView::drawForeground(painter, rect);
    const QRectF plot = chart()->plotArea();
    painter->save();
    if (!m_placeholder.isEmpty()) {
        QFont f = font();
        f.setPointSizeF(f.pointSizeF() * 1.3);
        painter->setFont(f);
        painter->setPen(palette().color(QPalette::Disabled, QPalette::WindowText));
        painter->drawText(plot, Qt::AlignCenter, m_placeholder);
    }
    if (m_cursorShown && m_cursorX >= plot.left() && m_cursorX <= plot.right()) {
        painter->setRenderHint(QPainter::Antialiasing, false);
        painter->setPen(QPen(QColor(0, 0, 0, 110), 1, Qt::DashLine));
        painter->drawLine(QPointF(m_cursorX, plot.top()), QPointF(m_cursorX, plot.bottom()));
        if (!m_readout.isEmpty()) {
            const QFontMetricsF fm(font());
            const qreal swatch = fm.height() * 0.8;
            const qreal pad = 6;
            qreal textWidth = 0;
            for (const ReadoutLine& l : m_readout)
                textWidth = std::max(textWidth, fm.horizontalAdvance(l.text));
            const QSizeF boxSize(textWidth + swatch + 3 * pad, m_readout.size() * fm.height() + 2 * pad);
            // Beside the cursor, on the side with room, never outside the plot.
            qreal left = m_cursorX + 12;
            if (left + boxSize.width() > plot.right())
                left = m_cursorX - 12 - boxSize.width();
            left = std::max(left, plot.left());
            const QRectF box(QPointF(left, plot.top() + 8), boxSize);
            painter->setRenderHint(QPainter::Antialiasing, true);
            painter->setPen(QColor(0, 0, 0, 60));
            painter->setBrush(QColor(255, 255, 255, 235));
            painter->drawRoundedRect(box, 3, 3);
            painter->setFont(font());
            qreal y = box.top() + pad;
            for (const ReadoutLine& l : m_readout) {
                const QRectF sw(box.left() + pad, y + (fm.height() - swatch) / 2, swatch, swatch);
                painter->setPen(Qt::NoPen);
                painter->setBrush(l.color.isValid() ? l.color : QColor(Qt::transparent));
                painter->drawRect(sw);
                painter->setPen(palette().color(QPalette::Text));
                painter->drawText(QRectF(sw.right() + pad, y, textWidth + pad, fm.height()),
                    Qt::AlignLeft | Qt::AlignVCenter, l.text);
                y += fm.height();
            }
        }
    }
    painter->restore();
}

} // namespace creditlab::ui::charts
