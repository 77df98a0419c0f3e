#pragma once

#include <QStringList>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QSlider;

namespace creditlab::ui {

/// The Compare page's bar above the chart: metric, x axis (Iteration | Wall time), "Group seeds
/// (mean ± std)", the smoothing slider (0–0.99, its value in the label) and the two export buttons. It
/// only reports what the user chose; the setters do not emit. Lives on the GUI thread.
class CompareControls : public QWidget {
    Q_OBJECT
public:
    explicit CompareControls(QWidget* parent = nullptr);

    /// Lists `metrics` (kept as is when unchanged) and shows `current` (none when it is not listed).
    void setMetrics(const QStringList& metrics, const QString& current);
    void setWallTime(bool wallTime);
    void setGroupSeeds(bool group);
    /// The smoothing weight in [0, 0.99], in steps of 0.01.
    void setSmoothing(double weight);
    double smoothing() const;
    QComboBox* metricCombo() const { return m_metric; }

Q_SIGNALS:
    void metricChosen(const QString& metric);
    void wallTimeChosen(bool wallTime);
    void groupSeedsChosen(bool group);
    void smoothingChosen(double weight);
    void exportChartRequested();
    void exportTableRequested();

private:
    void showSmoothing(int value);

    QComboBox* m_metric;
    QComboBox* m_align;
    QCheckBox* m_group;
    QLabel* m_smoothLabel;
    QSlider* m_smooth;
};

} // namespace creditlab::ui
