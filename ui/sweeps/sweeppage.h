#pragma once

#include "ui/sweeps/sweepcontroller.h"

#include <QTemporaryDir>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QListView;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QStandardItemModel;
class QTableView;
class QTimer;

namespace creditlab {
struct SweepInfo;
}

namespace creditlab::ui {

namespace charts {
class ErrorBarChart;
class HeatmapChart;
} // namespace charts

class PlanPanel;
class ReportDialog;
class SortFilterProxyModel;
class TrialModel;
class Workspace;

/// Hyperparameter sweeps: a sweep-file editor (open, save, shipped presets, workers), start and stop, the
/// trials' live progress table with an overall progress bar and ETA, the sweeps stored in the database, and the
/// result chart of the shown sweep (objective vs one swept key with error bars over seeds, or a heatmap over two
/// keys), exportable as an image, the table as CSV. Lives on the GUI thread.
class SweepPage : public QWidget {
    Q_OBJECT
public:
    explicit SweepPage(Workspace* workspace, QWidget* parent = nullptr);
    ~SweepPage() override;

    /// Loads a sweep file into the editor; its folder is where a relative `base:` is looked for first.
    void openSweepFile(const QString& path);
    /// Starts the editor's sweep on the open database (no confirmation; the Start button asks first). Errors
    /// are shown on the page.
    void startSweep();
    /// Stops the running trials after their current iteration.
    void requestStop();

    SweepController* controller() const { return m_controller; }
    TrialModel* trialModel() const { return m_trialModel; }
    /// Under the editor: the trials the editor's sweep would run (their count and grid), or why it is not valid.
    QLabel* trialPreview() const { return m_trialPreview; }
    /// Under the preview, for an experiment: its power plan from the database's pilot (learn::planExperiment).
    PlanPanel* planPanel() const { return m_plan; }
    QLabel* etaLabel() const { return m_eta; }
    QLabel* messageLabel() const { return m_message; }
    /// The preview's text for a parsed sweep: "12 trials: credit.alpha ∈ {0.1, 0.5} × seed ∈ {0, 1, 2}".
    static QString describeTrials(const learn::SweepSpec& spec);

private:
    void buildUi();
    void loadPresets();
    void reloadSweeps();
    void showStoredSweep(qint64 sweepId);
    /// Resume (a stopped or interrupted sweep, when nothing runs) and Report (an experiment) for a stored sweep.
    void updateStoredButtons(const SweepInfo& info);
    void confirmAndStart();
    void resumeSelected();
    void start(const SweepRequest& request);
    void showError(const QString& message);
    void onProgress(const SweepSnapshot& snapshot);
    void applyProgress();
    void onFinished(creditlab::TrialStatus status);
    /// "Running…", or which database the running sweep writes to when another one is open now.
    QString runningMessage() const;
    void updateChoices();
    void updateResult();
    std::vector<std::optional<double>> objectiveValues() const;
    void openFileDialog();
    void saveFileDialog();
    void exportChart();
    void exportCsv();
    /// The folder a preset's relative paths resolve in: the copy of its shipped folder.
    QString presetDir();
    void updateTrialPreview();
public:
    /// Opens the selected experiment's report (Report…, Ctrl+R); returns the dialog (owned by the page), or nullptr
    /// when the selected sweep is not an experiment.
    ReportDialog* openReport();

private:

    Workspace* m_workspace;
    SweepController* m_controller;
    TrialModel* m_trialModel;
    SortFilterProxyModel* m_trialProxy;
    QStandardItemModel* m_sweepList;
    QTimer* m_redrawTimer;
    SweepSnapshot m_pending;
    QString m_filePath;
    QString m_runningDatabase; ///< the database the running (or last) sweep writes to
    std::unique_ptr<QTemporaryDir> m_presetDir;
    /// The folder of the shipped preset in the editor ("configs" or "experiments"; empty: configs), whose copy in
    /// m_presetDir holds the files its relative paths name.
    QString m_presetFolder;
    PlanPanel* m_plan = nullptr; ///< the editor's experiment's power plan, under the trial preview
    QString m_planFor; ///< the database and experiment name the plan is for
    static constexpr int kPresetFolderRole = Qt::UserRole + 1;
    QString m_objective = QString::fromLatin1(metricnames::kEvalSuccess.data(), static_cast<qsizetype>(metricnames::kEvalSuccess.size()));
    QString m_objectiveMode = QStringLiteral("best");
    qint64 m_choicesFor = -1; ///< the sweep the key and metric choices were made for

    QComboBox* m_presets = nullptr;
    QPlainTextEdit* m_editor = nullptr;
    QSpinBox* m_workers = nullptr;
    QPushButton* m_startButton = nullptr;
    QPushButton* m_stopButton = nullptr;
    QPushButton* m_resumeButton = nullptr;
    QPushButton* m_reportButton = nullptr; ///< enabled when the selected sweep is an experiment
    QLabel* m_message = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_eta = nullptr;
    QLabel* m_trialPreview = nullptr;
    QTimer* m_previewTimer = nullptr;
    int m_previewTrials = 0; ///< trials of the editor's sweep at the last preview; 0 when it did not parse
    bool m_previewSharedSft = false; ///< the editor's sweep is an experiment that trains a shared SFT first
    int m_previewSeedSfts = 0; ///< sft: per_seed: the SFT starts it trains first, one per seed; 0 otherwise
    QTableView* m_trialView = nullptr;
    QListView* m_sweepView = nullptr;
    QComboBox* m_metric = nullptr;
    QComboBox* m_mode = nullptr;
    QComboBox* m_xKey = nullptr;
    QComboBox* m_yKey = nullptr;
    QStackedWidget* m_charts = nullptr;
    charts::ErrorBarChart* m_errorBars = nullptr;
    charts::HeatmapChart* m_heatmap = nullptr;
};

} // namespace creditlab::ui
