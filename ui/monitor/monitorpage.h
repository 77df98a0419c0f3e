#pragma once

#include "core/storage/store.h"
#include "ui/launch/runcontroller.h"

#include <QElapsedTimer>
#include <QHash>
#include <QStringList>
#include <QWidget>

#include <optional>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSlider;
class QTimer;

namespace creditlab::ui {

namespace charts {
class LineChart;
}
class MonitorCharts;
class Workspace;

/// The live monitor of one run: SFT's loss and token accuracy per step while SFT trains, every per-iteration metric
/// as a learning curve (debiased EMA with the faded raw curve, a shared crosshair and x zoom, log scale), metrics
/// with one value as numbers (MonitorCharts), a progress bar with the phase (SFT, RL, evaluating, finished), an ETA
/// that leaves paused time out, pause/resume and stop for the run this window trains, iteration timing and
/// throughput, the ranks of a data-parallel run (dist/ranks) and the log. Follows the controller's run, or any run of
/// the database (runs trained by `creditlab-cli train` grow live as they commit). Lives on the GUI thread.
class MonitorPage : public QWidget {
    Q_OBJECT
public:
    MonitorPage(Workspace* workspace, RunController* controller, QWidget* parent = nullptr);

    /// Shows run `runId` (0: none) from the store; follows it as it grows.
    void showRun(qint64 runId);
    qint64 runId() const { return m_runId; }
    /// The chart of a metric, or nullptr when the run has no such metric (yet) or one value of it (a number).
    charts::LineChart* chart(const QString& metric) const;
    QStringList metricNames() const;
    /// Points of `metric` shown so far (charted or as a number).
    qsizetype pointCount(const QString& metric) const;
    /// The charts, the numbers panel and SFT's curves.
    MonitorCharts* sections() const { return m_charts; }
    /// The phase line ("SFT", "RL", "Evaluating", "Finished", ...).
    QString phaseText() const;
    /// The data-parallel label beside the title ("2 ranks"); empty for a run of one process.
    QString ranksText() const;
    /// Why the shown run failed (the run's notes, or the message of the process that trained it); empty otherwise.
    QString failureText() const;
    void setSmoothing(double weight);

Q_SIGNALS:
    /// New points were added to the curves (after the coalesced redraw is scheduled).
    void curvesUpdated(qint64 runId, qint64 iteration);
    /// The user asked to resume the shown (stopped) run.
    void resumeRequested(qint64 runId);

private:
    void reloadFromStore(bool incremental);
    void appendIteration(qint64 iteration, const std::vector<std::pair<QString, double>>& metrics);
    /// Reads SFT's per-step points after the last one shown.
    void reloadSft();
    void onProgress(const RunProgress& progress);
    void onLog(int level, const QString& loggerName, const QString& text);
    void flushLog();
    void updateButtons();
    void updateButtons(const std::optional<RunInfo>& run);
    /// Reads the shown run's row; nullopt when there is none (or it cannot be read).
    std::optional<RunInfo> readRun() const;
    void updateHeader();
    void updateStoredProgress(const std::optional<RunInfo>& run);
    /// Whether the shown run is the controller's in-process run, whose progress arrives through progressed().
    bool reportsProgress() const;
    void setRanks(int ranks);
    void showFailure(const QString& message);

    Workspace* m_workspace;
    RunController* m_controller;
    qint64 m_runId = 0;
    qint64 m_lastIteration = -1;
    double m_iterationSeconds = 0.0; ///< sum of time/total_s over the iterations shown, for the ETA
    QLabel* m_title;
    QLabel* m_ranks;
    QLabel* m_failure;
    QLabel* m_phase;
    QProgressBar* m_progress;
    QLabel* m_eta;
    QLabel* m_throughput;
    QPushButton* m_pause;
    QPushButton* m_stop;
    QPushButton* m_resume;
    QLineEdit* m_filter;
    QSlider* m_smoothing;
    QLabel* m_smoothingValue;
    MonitorCharts* m_charts;
    QPlainTextEdit* m_log;
    QStringList m_pendingLog;
    QTimer* m_logTimer;
};

} // namespace creditlab::ui
