#pragma once

#include "core/learn/api/backend.h"
#include "ui/probe/probejob.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;

namespace creditlab::ui {

class ProbeTableModel;
class Workspace;
namespace charts {
class ErrorBarChart;
}

/// "PAIR probes": PAIR's AUROC table (pair.md Table 1) for one training run of the open database. The user picks
/// the run, the number of episodes, the contamination seed and whether to probe the SFT policy; Start computes the
/// table on a worker thread through the training module (progress with phase and ETA, Cancel), then shows it with
/// the best value of each column bold, the policy and split counts, a clean vs contaminated AUROC chart and CSV
/// export. Enter starts; Esc cancels a running computation, else closes. Lives on the GUI thread.
class ProbeDialog : public QDialog {
    Q_OBJECT
public:
    /// `runId` is preselected when it is a training run of `workspace`'s database (0: the newest one).
    explicit ProbeDialog(Workspace* workspace, qint64 runId = 0, QWidget* parent = nullptr);
    ~ProbeDialog() override;

    /// Selects a training run; false when the database has none with that id.
    bool setRunId(qint64 runId);
    qint64 runId() const;
    void setEpisodes(int episodes);
    void setSeed(int seed);
    void setSftPolicy(bool sft);
    /// What Start would compute, from the controls.
    learn::ProbeSource source() const;
    learn::ProbeDataOptions options() const;

    /// Starts the computation (what Start does); false with the reason in `error` (also shown) when it cannot.
    bool start(QString* error = nullptr);
    /// Cancels a running computation (what Cancel and Esc do); computationFinished("cancelled") follows.
    void cancel();
    bool isRunning() const;

    ProbeTableModel* model() const { return m_model; }
    /// The last finished computation's table (empty before one and after a cancelled or failed one).
    const learn::ProbeTable& table() const { return m_table; }
    /// The policy and split-count line under the table.
    QString summaryText() const;
    /// The error shown in the dialog; empty when none.
    QString errorText() const;
    /// Writes the table as CSV (full precision) to `path` atomically; false with the reason in `error`.
    bool exportCsv(const QString& path, QString* error = nullptr) const;

public Q_SLOTS:
    /// Esc: cancels a running computation, else closes.
    void reject() override;

Q_SIGNALS:
    /// A computation ended: `status` is "finished", "cancelled" or "failed" (with `error`).
    void computationFinished(const QString& status, const QString& error);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void reloadRuns();
    void showProgress(const ProbeJobProgress& progress);
    void showResult(const ProbeJobResult& result);
    void showError(const QString& message);
    void showChart();
    void updateControls();
    void chooseCsvFile();

    Workspace* m_workspace;
    ProbeJob* m_job;
    ProbeTableModel* m_model;
    learn::ProbeTable m_table;
    qint64 m_wantedRun;
    qint64 m_tableRun = 0; ///< the run of the computation started last
    QComboBox* m_run;
    QSpinBox* m_episodes;
    QSpinBox* m_seed;
    QCheckBox* m_sft;
    QPushButton* m_start;
    QPushButton* m_cancel;
    QPushButton* m_export;
    QProgressBar* m_progress;
    QLabel* m_phase;
    QLabel* m_error;
    QLabel* m_summary;
    QTableView* m_view;
    charts::ErrorBarChart* m_chart;
};

} // namespace creditlab::ui
