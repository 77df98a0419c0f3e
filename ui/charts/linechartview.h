#pragma once

#include <QChartView>
#include <QColor>
#include <QList>
#include <QStringList>

class QRubberBand;

namespace creditlab::ui::charts {

/// The interactive QChartView inside LineChart (internal to ui/charts). It turns mouse, Ctrl+wheel and key input
/// into zoom/pan/reset requests (the plain wheel is ignored, so that it scrolls the page) in pixel terms (LineChart
/// maps them to data ranges) and paints the overlays Qt Charts lacks: the hover cursor with its read-out box and the
/// "No data" text. GUI thread only.
class LineChartView : public QChartView {
    Q_OBJECT
public:
    explicit LineChartView(QChart* chart, QWidget* parent = nullptr);

    /// One line of the hover read-out box, drawn with a colour swatch.
    struct ReadoutLine {
        QString text;
        QColor color;
    };
    /// Shows the vertical cursor at scene x `sceneX` with `lines` in a box beside it.
    void showCursor(qreal sceneX, const QList<ReadoutLine>& lines);
    void hideCursor();
    /// Text centred on the plot area (empty: none), e.g. "No data".
    void setPlaceholder(const QString& text);

Q_SIGNALS:
    /// Zoom to the rectangle `pixels` (viewport coordinates) the user dragged.
    void zoomRectRequested(const QRectF& pixels);
    /// Zoom by `fx`, `fy` (< 1 zooms in) keeping the data under viewport point `anchor` in place.
    void zoomRequested(const QPointF& anchor, double fx, double fy);
    /// Move the view by `pixels` (the content follows the mouse).
    void panRequested(const QPointF& pixels);
    void resetRequested();
    void hoverMoved(const QPointF& viewportPos);
    void hoverLeft();
    void contextMenuRequested(const QPoint& globalPos);
    void resized();

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void drawForeground(QPainter* painter, const QRectF& rect) override;

private:
    enum class Drag { None, Zoom, Pan };

    Drag m_drag = Drag::None;
    Qt::MouseButton m_dragButton = Qt::NoButton;
    QPoint m_pressPos;
    QPoint m_lastPos;
    bool m_moved = false;
    QRubberBand* m_rubberBand = nullptr;
    bool m_cursorShown = false;
    qreal m_cursorX = 0;
    QList<ReadoutLine> m_readout;
    QString m_placeholder;
};

} // namespace creditlab::ui::charts
