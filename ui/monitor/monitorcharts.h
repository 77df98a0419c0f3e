#pragma once

#include "core/storage/store.h"

#include <QHash>
#include <QStringList>
#include <QWidget>

#include <utility>
#include <vector>

class QGridLayout;
class QGroupBox;
class QLabel;
class QScrollArea;
class QVBoxLayout;

namespace creditlab::ui {

namespace charts {
class ChartGroup;
class LineChart;
} // namespace charts

/// The Monitor's view of one run's numbers, in a page that scrolls (the wheel scrolls it; Ctrl+wheel zooms a chart):
/// the metrics written once or so far once (time/sft_s, sft/demonstrations, eval/success after SFT) as numbers in a
/// "Single values" panel rather than empty axes; SFT's per-step curves (x: the SFT step) while SFT trains; and a
/// chart per metric with two or more iterations. The charts of each x axis form a ChartGroup: one crosshair, one x
/// zoom and one x range (the eval curve, which starts at iteration 0, and the rollout curves, which start at 1, span
/// the same axis). Lives on the GUI thread.
class MonitorCharts : public QWidget {
    Q_OBJECT
public:
    explicit MonitorCharts(QWidget* parent = nullptr);
    ~MonitorCharts() override;

    void clear();
    /// Adds one iteration's values (iteration 0: SFT's summary and the first evaluation).
    void appendIteration(qint64 iteration, const std::vector<std::pair<QString, double>>& metrics);
    /// Adds SFT's per-step points (MetricPoint::iteration is the step), in Store::sftMetrics order.
    void appendSftPoints(const std::vector<MetricPoint>& points);
    /// The last SFT step shown (0: none).
    qint64 lastSftStep() const { return m_lastSftStep; }

    void setFilter(const QString& text);
    void setSmoothing(double weight);

    /// The chart of a per-iteration metric, or nullptr (no such metric, or one value so far: a number).
    charts::LineChart* chart(const QString& metric) const;
    /// The chart of one of SFT's per-step curves (sft/loss, sft/token_accuracy), or nullptr.
    charts::LineChart* sftChart(const QString& metric) const;
    /// The per-iteration metrics, charted or shown as numbers, in the Monitor's order.
    QStringList metricNames() const;
    qsizetype pointCount(const QString& metric) const;
    qsizetype sftPointCount(const QString& metric) const;
    /// The text of a metric in the "Single values" panel; empty when it is charted or absent.
    QString numberText(const QString& metric) const;
    QScrollArea* scrollArea() const { return m_scroll; }

private:
    struct Curve {
        std::vector<double> x;
        std::vector<double> y;
    };
    charts::LineChart* makeChart(const QString& metric, const QString& xTitle, bool sft);
    void relayout();

    QScrollArea* m_scroll;
    QVBoxLayout* m_column; ///< numbers, SFT's charts and the iterations' charts, in the scroll area
    QGroupBox* m_numbersBox;
    QGridLayout* m_numbersGrid;
    QLabel* m_sftTitle;
    QWidget* m_sftArea;
    QGridLayout* m_sftGrid;
    QWidget* m_rlArea;
    QGridLayout* m_rlGrid;
    charts::ChartGroup* m_rlGroup;
    charts::ChartGroup* m_sftGroup;
    QHash<QString, Curve> m_data; ///< per-iteration values
    QHash<QString, Curve> m_sftData; ///< per SFT step
    QHash<QString, charts::LineChart*> m_charts;
    QHash<QString, charts::LineChart*> m_sftCharts;
    QHash<QString, QLabel*> m_numbers; ///< value labels of the panel
    QStringList m_order; ///< m_data's names, by metricnames::rank
    QString m_filter;
    double m_smoothing;
    qint64 m_lastSftStep = 0;
};

} // namespace creditlab::ui
