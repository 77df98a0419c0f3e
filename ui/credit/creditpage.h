#pragma once

#include "ui/heatmap/heatmapdata.h"

#include "ui/common/runcombo.h"

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
class HeatmapLegend;
} // namespace heatmap
class DisagreementPanel;
class Workspace;

/// Per-turn credit of one run (or one of its iterations) as a heatmap: trajectories as rows, turns as columns, one
/// block per chosen method side by side with sign disagreements between the first two marked, rows ordered by group,
/// outcome or disagreement, and a legend of the marks; below, the distribution of each method's advantages per role
/// (over the heatmap's colour range: values beyond it fall into the end bins, and the chart's title says so) and the
/// sign-disagreement summary of every pair of methods. Until the user picks methods it shows the run's own
/// method and its nearest rival (heatmap::defaultMethods). Works on trained runs (which store every method's shadow
/// credits) and on imported JSONL with computed credits. Loads in the background with its own store connection and
/// drops stale results; a database change clears it. Lives on the GUI thread.
class CreditPage : public QWidget {
    Q_OBJECT
public:
    explicit CreditPage(Workspace* workspace, QWidget* parent = nullptr);
    ~CreditPage() override;

    /// Shows run `runId` (all iterations when `iteration` is negative).
    void showRun(qint64 runId, qint64 iteration = -1);
    qint64 runId() const { return m_runId; }
    /// The run selected elsewhere (the Runs page): shown at once when the page is visible, else when it next appears
    /// (or when the run is listed, for one just imported). The most recent choice wins: a run picked here afterwards
    /// stays until another is selected; a database change forgets it.
    void followRun(qint64 runId);
    /// Shows these methods side by side (the first two are compared for sign); unknown ones are skipped. The choice
    /// is kept across runs and iterations (as a pick in the method list is) until the database changes.
    void setMethods(const QStringList& methods);
    /// The methods shown, left to right.
    QStringList shownMethods() const;
    /// Computes these methods' credits (default parameters) for the shown run or iteration in the background and
    /// stores them, then reloads; creditsComputed() or errorOccurred() follows. For imported runs, which have no
    /// credits until something computes them.
    void computeCredits(const QStringList& methods);
    heatmap::CreditHeatmapView* view() const { return m_view; }
    /// The method the shown run trained with (its credits moved the policy; the others are shadow credits computed on
    /// its rollouts), marked in bold in the method list; empty for an import.
    QString trainedMethod() const { return m_trainedMethod; }
    charts::LineChart* distributionChart() const { return m_distribution; }
    heatmap::HeatmapLegend* legend() const { return m_legend; }
    DisagreementPanel* disagreementPanel() const { return m_disagreement; }
    /// The line above the heatmap that says why a method's credits here are all 0 and what would change it (hidden
    /// when every method has a non-zero credit).
    QLabel* zeroCreditBanner() const { return m_zeroBanner; }

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
    /// Shows the run followRun() left pending, when it is listed; false when there is none to show.
    bool showFollowedRun();
    /// Forgets everything read from the database (run, iterations, methods, data, status): it is being replaced.
    void clear();
    void checkMethods(const QStringList& methods);
    void reloadIterations();
    void load();
    void onLoaded(const heatmap::HeatmapDataPtr& data, quint64 generation);
    void applyMethods();
    void updateDistribution();
    /// Shows why the methods whose credits are all 0 have none (HeatmapData::zeroReasons), the shown ones first.
    void updateZeroBanner();

    Workspace* m_workspace;
    qint64 m_runId = 0;
    FollowedRun m_follow; ///< the run selected in Runs, until it shows or the user picks another
    quint64 m_generation = 0;
    heatmap::HeatmapDataPtr m_data;
    QComboBox* m_run;
    QComboBox* m_iteration;
    QComboBox* m_order;
    QListWidget* m_methods;
    QLabel* m_status;
    QLabel* m_zeroBanner;
    QString m_trainedMethod;
    QStringList m_shown; ///< the checked methods in the order they show, left to right
    bool m_methodsChosen = false; ///< the user picked the methods: keep them instead of the defaults
    heatmap::CreditHeatmapView* m_view;
    heatmap::HeatmapLegend* m_legend;
    DisagreementPanel* m_disagreement;
    charts::LineChart* m_distribution;
    QComboBox* m_distributionMethod;
    QToolButton* m_compute;
};

} // namespace creditlab::ui
