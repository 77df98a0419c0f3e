#pragma once

#include <QList>
#include <QObject>
#include <QPointer>

namespace creditlab::ui::charts {

class LineChart;

/// Links line charts that share an x axis (a page's grid of metrics): one crosshair (hovering one chart shows the
/// cursor and read-out at the same x in all), one x zoom (zooming or panning one shows the same x range in all,
/// each fitting its own y; a reset resets all), and one x range (each chart spans the x extent of all of them, so
/// a curve that starts later still starts where the others do). It does not own the charts. GUI thread only.
class ChartGroup : public QObject {
    Q_OBJECT
public:
    explicit ChartGroup(QObject* parent = nullptr);

    void add(LineChart* chart);
    void remove(LineChart* chart);
    void clear();
    QList<LineChart*> charts() const;
    /// Gives every chart the x extent of all the charts' data (call after the data changed).
    void syncXBounds();

private:
    void onHovered(LineChart* source, double x);
    void onHoverLeft(LineChart* source);
    void onXRange(LineChart* source, double x0, double x1);
    void onReset(LineChart* source);

    QList<QPointer<LineChart>> m_charts;
};

} // namespace creditlab::ui::charts
