#pragma once

#include "ui/compare/compareseries.h"

#include <QList>
#include <QSet>
#include <QWidget>

#include <map>
#include <memory>

class QLabel;
class QSlider;
class QSpinBox;
class QTableView;

namespace creditlab::ui {

namespace charts {
class LineChart;
}
class CompareControls;
class CompareGrid;
class CompareLoader;
class CompareRunsModel;
class CompareTableModel;
class SortFilterProxyModel;
struct CompareData;
class Workspace;

/// Compares training runs, as many as wanted (W&B stops at 10): the runs on the left (checkable,
/// colour, config keys that differ, a pinned baseline), one metric of all of them on a line chart
/// aligned by iteration or wall time (opening on a metric that is not all zeros, compare::defaultMetric), more
/// metrics beside it in a grid with a shared crosshair and x zoom (CompareGrid), optionally seeds grouped as
/// mean ± std bands, and below the
/// table of every metric at a chosen iteration with deltas against the baseline. Metrics load in the
/// background (CompareLoader) and reload when the workspace's runs change, so runs still training grow
/// live. Lives on the GUI thread.
class ComparePage : public QWidget {
    Q_OBJECT
public:
    explicit ComparePage(Workspace* workspace, QWidget* parent = nullptr);
    ~ComparePage() override;

    /// Compares exactly these runs (duplicates dropped, order kept) and loads them.
    void setRuns(const QList<qint64>& runIds);
    /// Adds runs not yet compared and loads them.
    void addRuns(const QList<qint64>& runIds);
    /// Takes runs out of the comparison (no reload); unpins a removed baseline.
    void removeRuns(const QList<qint64>& runIds);
    /// The compared runs, in list order.
    QList<qint64> runs() const { return m_runIds; }
    /// Shows this metric on the chart (kept when the compared runs do not have it yet). Until this is called
    /// (or the user picks one), the page shows compare::defaultMetric of the loaded runs.
    void setMetric(const QString& name);
    QString metric() const { return m_metric; }
    /// Further metrics, each in a chart of its own beside the main one (the Grid menu).
    void setGridMetrics(const QStringList& metrics);
    QStringList gridMetrics() const { return m_gridMetrics; }
    /// Pins the baseline run (drawn thicker, deltas in the table against it); 0 = none.
    void setBaseline(qint64 runId);
    qint64 baseline() const { return m_baseline; }
    /// x = cumulative seconds (SFT plus iterations) instead of the iteration.
    void setAlignment(bool wallTime);
    /// One line per group of runs that differ only in seed, with a mean ± std band.
    void setGroupSeeds(bool group);
    /// The iteration of the table; clamped to the loaded iterations. Follows the latest one while it
    /// is at the maximum.
    void setTableIteration(qint64 iteration);
    qint64 tableIteration() const;

    /// Writes the chart as PNG or SVG (by suffix); false with a message on failure.
    bool exportChart(const QString& path, QString* error = nullptr);
    /// Writes the table at the chosen iteration as CSV (compare::tableToCsv); false with a message.
    bool exportTableCsv(const QString& path, QString* error = nullptr);

    /// The main chart (the metric's).
    charts::LineChart* chart() const;
    CompareGrid* grid() const { return m_grid; }
    CompareRunsModel* runsModel() const { return m_runsModel; }
    CompareTableModel* tableModel() const { return m_tableModel; }
    QTableView* runsView() const { return m_runsView; }
    QTableView* tableView() const { return m_tableView; }
    CompareControls* controls() const { return m_controls; }

Q_SIGNALS:
    /// A load finished and the list, chart and table show its outcome (after setRuns, addRuns or a reload;
    /// also after a failed one, which errorOccurred() reported first).
    void loaded();
    /// Reading the database failed; the message names it.
    void errorOccurred(const QString& message);

private:
    void requestLoad();
    void onLoaded(const std::shared_ptr<const CompareData>& data);
    /// The loaded runs that are compared, in list order; `visibleOnly` also drops unchecked ones.
    std::vector<const compare::RunSeries*> comparedRuns(bool visibleOnly) const;
    void refreshAll();
    void refreshRunsList();
    void refreshMetricCombo();
    void refreshIterationRange();
    void rebuildChart();
    void rebuildTable();
    QColor colorOf(qint64 runId);
    void showRunsMenu(const QPoint& pos);
    void addRunsInteractive();
    void exportChartInteractive();
    void exportTableInteractive();
    void showError(const QString& message);

    Workspace* m_workspace;
    CompareLoader* m_loader;
    CompareRunsModel* m_runsModel;
    CompareTableModel* m_tableModel;
    SortFilterProxyModel* m_tableProxy;
    CompareGrid* m_grid;
    QTableView* m_runsView;
    QTableView* m_tableView;
    CompareControls* m_controls;
    QSpinBox* m_iterationSpin;
    QSlider* m_iterationSlider;
    QLabel* m_status;

    QList<qint64> m_runIds;
    QSet<qint64> m_hidden;
    std::shared_ptr<const CompareData> m_data;
    std::map<qint64, QColor> m_colors;
    int m_nextColor = 0;
    QString m_metric;
    bool m_metricChosen = false; ///< setMetric was called: no more default metric
    QStringList m_gridMetrics;
    qint64 m_baseline = 0;
    bool m_wallTime = false;
    bool m_groupSeeds = false;
    bool m_followLatest = true;
};

} // namespace creditlab::ui
