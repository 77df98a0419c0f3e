#pragma once

#include "core/judge/labelsources.h"
#include "core/model/trajectory.h"
#include "ui/agreement/agreementmodel.h"

#include <QFutureWatcher>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QListView;
class QStandardItemModel;
class QTableView;

namespace creditlab::ui {

namespace charts {
class HeatmapChart;
}
class SortFilterProxyModel;
class Workspace;

/// Judge–human agreement (issue 7 §4): pick a run (or all runs), a reference (a human annotator, or the oracle)
/// and the sources to compare with it (judges, imported roles, other annotators). Shows the metrics table
/// (turns, accuracy, Cohen's kappa with its bootstrap 95 % interval, macro F1, per-role P/R/F1, TRIAGE conflict
/// cells), Krippendorff's alpha across the human annotators, and the confusion matrix of the selected row, as counts
/// or as row-normalised shares (each reference role's row sums to 1); clicking a matrix cell lists its turns. The
/// kappa intervals (judge::bootstrapKappa: 1000 resamples of the turns, fixed seed) are computed in QtConcurrent's
/// pool whenever the table changes; the table shows "…" meanwhile and a stale result is dropped. The numbers come from
/// the same core code as `creditlab-cli agreement` (judge::loadRunLabels, judge::comparePair,
/// judge::alphaAcrossSources). Labels load in QtConcurrent's pool with their own Store; stale results are dropped;
/// reloads on Workspace::runsChanged. Lives on the GUI thread.
class AgreementPage : public QWidget {
    Q_OBJECT
public:
    explicit AgreementPage(Workspace* workspace, QWidget* parent = nullptr);
    /// Waits for a running load.
    ~AgreementPage() override;

    /// Loads run `runId` (0 = all runs with labels merged; -1 = the run `creditlab-cli agreement` picks without --run:
    /// the newest with two label sources to compare, else the newest with labels) in the background.
    void setRun(qint64 runId);
    /// The run shown (0 = all runs), once loaded.
    qint64 run() const;
    /// Reloads the current run (also done on Workspace::runsChanged).
    void reload();
    /// The loaded label sources (human, judge, turn; each sorted).
    QStringList sources() const;
    /// Makes `source` the reference (truth for precision, recall, conflict cells); ignored when not loaded.
    void setReference(const QString& source);
    QString reference() const;
    /// Compares exactly these sources with the reference (unknown ones are ignored).
    void setCompared(const QStringList& sources);
    QStringList compared() const;
    /// Shows the confusion matrix of the table's source `source`.
    void showPair(const QString& source);
    QString shownSource() const { return m_shown; }
    /// Lists the turns of one confusion cell (as a click on it does).
    void selectCell(Role reference, Role other);
    /// Shows the confusion matrix as row-normalised shares (true) or as counts (false, the default).
    void setRowShares(bool shares);
    bool rowShares() const;
    /// True while the kappa intervals of the table are being computed.
    bool isComputingIntervals() const { return m_intervalWatcher.isRunning() || m_intervalPending; }
    /// The loaded labels; nullptr before the first load.
    const judge::RunLabels* labels() const { return m_data ? &m_data->labels : nullptr; }
    /// Alpha across the human annotators (else across all sources), as the CLI reports it.
    const judge::SourcesAlpha& alpha() const { return m_alpha; }

    /// Writes the metrics table (as sorted) as CSV; false with a message on failure.
    bool exportTableCsv(const QString& path, QString* error = nullptr);
    /// Writes the confusion matrix as PNG or SVG (by suffix); false with a message on failure.
    bool exportMatrix(const QString& path, QString* error = nullptr);

    AgreementTableModel* tableModel() const { return m_tableModel; }
    CellTurnsModel* turnsModel() const { return m_turnsModel; }
    charts::HeatmapChart* matrix() const { return m_matrix; }
    QTableView* tableView() const { return m_tableView; }
    QTableView* turnsView() const { return m_turnsView; }

Q_SIGNALS:
    /// A load finished and the page shows it (also after a failed one, which errorOccurred() reported first).
    void loaded();
    /// Reading the database failed; the message names it.
    void errorOccurred(const QString& message);
    /// A listed turn was activated (double click, Enter): open trajectory `trajectoryRowId` at `turn`.
    void turnActivated(qint64 trajectoryRowId, int turn);
    /// The table's kappa intervals are in (AgreementRow::kappaInterval).
    void kappaIntervalsReady();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

protected:
    /// Reloads when this window changed labels while the page was hidden.
    void showEvent(QShowEvent* event) override;

private:
    struct Outcome {
        quint64 generation = 0;
        std::shared_ptr<const AgreementLoad> data;
    };
    struct Intervals {
        quint64 generation = 0;
        std::vector<judge::KappaInterval> intervals;
    };
    void startIntervals();
    void onIntervalsFinished();
    QString matrixTitle() const;
    void startWorker();
    void onWorkerFinished();
    void onLoaded(std::shared_ptr<const AgreementLoad> data);
    void refreshSourceControls();
    void recompute();
    void rebuildMatrix();
    void exportTableInteractive();
    void exportMatrixInteractive();

    Workspace* m_workspace;
    QComboBox* m_runCombo;
    QComboBox* m_referenceCombo;
    QStandardItemModel* m_sourcesModel;
    QListView* m_sourcesView;
    AgreementTableModel* m_tableModel;
    SortFilterProxyModel* m_tableProxy;
    QTableView* m_tableView;
    charts::HeatmapChart* m_matrix;
    CellTurnsModel* m_turnsModel;
    QTableView* m_turnsView;
    QLabel* m_alphaLabel;
    QLabel* m_status;
    QCheckBox* m_rowShares;

    QFutureWatcher<Outcome> m_watcher;
    quint64 m_generation = 0;
    bool m_pending = false;
    qint64 m_requestedRun = -1;
    std::shared_ptr<const AgreementLoad> m_data;
    judge::SourcesAlpha m_alpha;
    QString m_reference;
    QString m_shown;
    int m_hoverRow = -1;
    int m_hoverColumn = -1;
    bool m_updating = false;
    bool m_labelsStale = false; ///< labels changed (Workspace::labelsChanged) while the page was hidden
    QFutureWatcher<Intervals> m_intervalWatcher;
    quint64 m_intervalGeneration = 0; ///< of the newest table; a result for an older one is dropped
    bool m_intervalPending = false; ///< a newer table waits for the running job to end
};

} // namespace creditlab::ui
