#pragma once

#include "ui/heatmap/heatmapdata.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QListWidget;
class QToolButton;

namespace creditlab::ui {

namespace charts {
class LineChart;
}
namespace heatmap {
class CreditHeatmapView;
}
class Workspace;

/// Per-turn credit of one run (or one of its iterations) as a heatmap: trajectories as rows, turns as columns, one
/// block per chosen method side by side with sign disagreements between the first two marked, rows ordered by group,
/// outcome or disagreement; below, the distribution of each method's advantages per role. Works on trained runs
/// (which store every method's shadow credits) and on imported JSONL with computed credits. Loads in the background
/// with its own store connection and drops stale results. Lives on the GUI thread.
class CreditPage : public QWidget {
    Q_OBJECT
public:
    explicit CreditPage(Workspace* workspace, QWidget* parent = nullptr);
    ~CreditPage() override;

    /// Shows run `runId` (all iterations when `iteration` is negative).
    void showRun(qint64 runId, qint64 iteration = -1);
    qint64 runId() const { return m_runId; }
    /// Shows these methods side by side (the first two are compared for sign); unknown ones are skipped.
    void setMethods(const QStringList& methods);
    /// Computes these methods' credits (default parameters) for the shown run or iteration in the background and
    /// stores them, then reloads; creditsComputed() or errorOccurred() follows. For imported runs, which have no
    /// credits until something computes them.
    void computeCredits(const QStringList& methods);
    heatmap::CreditHeatmapView* view() const { return m_view; }
    /// The method the shown run trained with (its credits moved the policy; the others are shadow credits computed on
    /// its rollouts), marked in bold in the method list; empty for an import.
    QString trainedMethod() const { return m_trainedMethod; }
    charts::LineChart* distributionChart() const { return m_distribution; }

Q_SIGNALS:
    /// A load finished (its data is shown) or failed (errorOccurred came first).
    void loaded();
    void errorOccurred(const QString& message);
    /// computeCredits() stored `turns` credits in all.
    void creditsComputed(const QStringList& methods, qint64 turns);
    /// The user clicked a cell: open that turn.
    void turnActivated(qint64 trajectoryRowId, int turn);

protected:
    /// Loads the run the run list shows when the page appears with none loaded (first show, a database change).
    void showEvent(QShowEvent* event) override;

private:
    void reloadRuns();
    void reloadIterations();
    void load();
    void onLoaded(const heatmap::HeatmapDataPtr& data, quint64 generation);
    void applyMethods();
    void updateDistribution();

    Workspace* m_workspace;
    qint64 m_runId = 0;
    quint64 m_generation = 0;
    heatmap::HeatmapDataPtr m_data;
    QComboBox* m_run;
    QComboBox* m_iteration;
    QComboBox* m_order;
    QListWidget* m_methods;
    QLabel* m_status;
    QString m_trainedMethod;
    heatmap::CreditHeatmapView* m_view;
    charts::LineChart* m_distribution;
    QComboBox* m_distributionMethod;
    QToolButton* m_compute;
};

} // namespace creditlab::ui
