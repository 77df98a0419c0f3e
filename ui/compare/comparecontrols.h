#pragma once

#include <QStringList>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace creditlab::ui {

/// The Compare page's bar above the charts: metric, "Grid" (more metrics, each in a chart of its own beside it), x
/// axis (Iteration | Wall time), "Group seeds (mean ± std)", the smoothing slider (0–0.99, its value in the label;
/// the Monitor's default) and the two export buttons. It only reports what the user chose; the setters do not emit.
/// Lives on the GUI thread.
class CompareControls : public QWidget {
    Q_OBJECT
public:
    explicit CompareControls(QWidget* parent = nullptr);

    /// Lists `metrics` (kept as is when unchanged) and shows `current` (none when it is not listed); `grid` are the
    /// metrics ticked in the Grid menu.
    void setMetrics(const QStringList& metrics, const QString& current, const QStringList& grid = {});
    void setWallTime(bool wallTime);
    void setGroupSeeds(bool group);
    /// The smoothing weight in [0, 0.99], in steps of 0.01.
    void setSmoothing(double weight);
    double smoothing() const;
    QComboBox* metricCombo() const { return m_metric; }
    QToolButton* gridButton() const { return m_grid; }

Q_SIGNALS:
    void metricChosen(const QString& metric);
    /// The metrics ticked in the Grid menu, in the list's order.
    void gridMetricsChosen(const QStringList& metrics);
    void wallTimeChosen(bool wallTime);
    void groupSeedsChosen(bool group);
    void smoothingChosen(double weight);
    void exportChartRequested();
    void exportTableRequested();

private:
    void showSmoothing(int value);

    QComboBox* m_metric;
    QToolButton* m_grid;
    QStringList m_gridState; ///< what the Grid menu was last built from
    QComboBox* m_align;
    QCheckBox* m_group;
    QLabel* m_smoothLabel;
    QSlider* m_smooth;
};

} // namespace creditlab::ui
