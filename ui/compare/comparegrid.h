#pragma once

#include "ui/compare/comparechart.h"

#include <QStringList>
#include <QWidget>

class QGridLayout;

namespace creditlab::ui {

namespace charts {
class ChartGroup;
class LineChart;
} // namespace charts

/// The Compare page's charts: the chosen metric, and beside it the further metrics ticked under "Grid", two to a
/// row, each a line chart of every compared run. They form one ChartGroup: a shared crosshair, a shared x zoom
/// and one x range; each chart has its own y axis (and log scale, from its context menu). The page scrolls with the
/// wheel; Ctrl+wheel zooms. Lives on the GUI thread.
class CompareGrid : public QWidget {
    Q_OBJECT
public:
    explicit CompareGrid(QWidget* parent = nullptr);

    /// Shows `metrics` (the first in the main chart); charts of metrics no longer listed go, those kept keep
    /// their zoom and scale.
    void setMetrics(const QStringList& metrics);
    QStringList metrics() const { return m_metrics; }
    /// Fills every chart from `runs` (the options' metric is each chart's own).
    void fill(const std::vector<const compare::RunSeries*>& runs, CompareChartOptions options,
        const std::function<QColor(qint64 runId)>& colorOf);
    void setSmoothing(double weight);
    void resetZoom();
    /// The main chart (always there, also with no metric).
    charts::LineChart* mainChart() const { return m_main; }
    /// The chart of `metric`, or nullptr.
    charts::LineChart* chart(const QString& metric) const;

private:
    void relayout();

    QGridLayout* m_grid;
    charts::ChartGroup* m_group;
    charts::LineChart* m_main;
    QList<charts::LineChart*> m_extra; ///< one per m_metrics after the first
    QStringList m_metrics;
    double m_smoothing;
};

} // namespace creditlab::ui
