#pragma once

#include "core/learn/api/launchconfig.h"
#include "core/learn/api/trainconfig.h"

#include <QString>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QRadioButton;
class QSpinBox;

namespace creditlab::learn {
class TrainConfig;
}

namespace creditlab::ui {

class ModelPanel;
class ParamForm;
class RunController;
class Workspace;

/// The launcher: environment, policy (a built-in size or a Hugging Face model, policy.pretrained, with what the
/// model folder holds), credit method, judge and device at the top; below, every config key in a form generated from
/// the parameter metadata; beside it the YAML exactly as `creditlab-cli train --config` reads it. Loads and saves YAML
/// configs and the shipped presets, and starts the run on the run controller. Lives on the GUI thread.
class LauncherPage : public QWidget {
    Q_OBJECT
public:
    LauncherPage(Workspace* workspace, RunController* controller, QWidget* parent = nullptr);

    /// Replaces the form with the config in `yamlText` (unknown keys and bad values are refused with the
    /// source, line and key in `error`; the form is then left as it was).
    bool loadConfigText(const QString& yamlText, const QString& source, QString* error = nullptr);
    bool loadConfigFile(const QString& path, QString* error = nullptr);
    /// The labels under the preset and method choices, and the SFT-reuse offer (its link sets sft.from_run).
    QLabel* presetNote() const { return m_presetNote; }
    QLabel* methodNote() const { return m_methodNote; }
    QLabel* sftOffer() const { return m_sftOffer; }
    QComboBox* sizeCombo() const { return m_size; }
    /// The policy choice: a built-in size, or a Hugging Face model (a folder or a repository id in the local cache).
    QRadioButton* builtinPolicyButton() const { return m_builtin; }
    QRadioButton* pretrainedPolicyButton() const { return m_huggingFace; }
    QLineEdit* pretrainedEdit() const { return m_pretrained; }
    QPushButton* browseButton() const { return m_browse; }
    ModelPanel* modelPanel() const { return m_modelPanel; }
    QPushButton* startButton() const { return m_start; }
    /// Data-parallel ranks on this machine (1: in this process; more: `creditlab-cli train --nproc N`).
    QSpinBox* processesSpin() const { return m_processes; }
    /// How often the page has read the run list for its preset note and SFT offer (a test hook: a hidden page waits).
    int runRereads() const { return m_runRereads; }
    /// Chooses the policy: a Hugging Face model folder or repository id (policy.pretrained), or the built-in size when
    /// `spec` is empty. The model is read in the background (modelPanel()).
    void setPretrained(const QString& spec);
    /// Loads a shipped preset by file name ("household-triage.yaml").
    bool loadPreset(const QString& name, QString* error = nullptr);
    /// The names of the shipped presets.
    static QStringList presetNames();
    /// The config as YAML: the environment, method and judge, then every key that differs from its default.
    QString configText() const;
    bool saveConfigFile(const QString& path, QString* error = nullptr) const;
    /// Sets a key (the combos for env.name, credit.method and judge.name); false with a reason when refused.
    bool setValue(const QString& key, const QString& text, QString* error = nullptr);
    QString value(const QString& key) const;
    ParamForm* form() const { return m_form; }

    /// Loads the training module (LibTorch) in the background and then lists its devices; trainingModuleLoaded()
    /// follows. The main window calls it once its first frame is up: the loader's lock, held through LibTorch's
    /// second of static initialisation, would otherwise stall the GUI thread's own plugin loading at start.
    void loadTrainingModule();

    /// Starts the run; on failure the reason is shown (or returned in `error` when given).
    bool startRun(QString* error = nullptr);
    /// With env.name remote or judge.name http: checks in the background that those servers answer (Ctrl+K);
    /// serverCheckFinished() follows, and the outcome shows under the summary.
    void checkServers();

Q_SIGNALS:
    /// A run was handed to the controller.
    void runLaunched();
    /// The training module (LibTorch) is loaded and its devices are listed.
    void trainingModuleLoaded();
    /// checkServers() is done; `ok` when every server answered.
    void serverCheckFinished(bool ok);

protected:
    void showEvent(QShowEvent* event) override;

private:
    /// Where the shipped presets are (Qt resources).
    static QString presetFolder() { return QStringLiteral(":/configs"); }
    /// The preset note's time estimate and the SFT offer from the database's finished runs, when that set changed.
    void rereadRuns();
    void rebuildForm();
    void applySize(int index);
    void syncSizeCombo();
    void updatePreview();
    /// With the human judge or the labelled task pool: what the open database holds for them; else empty.
    QString humanLabelSummary(const learn::TrainConfig& config) const;
    /// With env.name remote: where the policy's start comes from, and a judge that cannot label it.
    QString remoteSummary(const learn::TrainConfig& config) const;
    void updateStartButton();
    /// The preset's one-line description and how long its earlier runs in this database took.
    void updatePresetNote();
    /// Offers an earlier run's SFT policy when one in the database trained the same SFT (findSftSource).
    void updateSftOffer();
    void chooseOpen();
    void chooseSave();
    // The policy choice (launcherpolicy.cpp).
    QWidget* buildPolicyChooser();
    /// Sets policy.pretrained from the chooser: `text` with a model chosen, else empty (the built-in size); `typing`:
    /// the model is read once the typing pauses.
    void choosePolicy(bool pretrained, const QString& text, bool typing);
    /// The chooser from policy.pretrained (a config loaded, the form's own row edited); `loaded`: a whole config was
    /// loaded, so an empty value means the built-in size.
    void syncPolicySource(bool loaded);
    /// The size combo and the form's policy keys enabled as the choice implies; the panel shown with a model.
    void applyPolicySource();
    /// The memory estimate's run: rows, context, fine-tuning, dtype and device from the document.
    void updateModelRun();
    void chooseModelFolder();
    /// Whether the policy can start: a built-in size, or a model read without error; else why not.
    bool policyReady(QString* reason = nullptr) const;

    Workspace* m_workspace;
    RunController* m_controller;
    QComboBox* m_presets;
    QComboBox* m_env;
    QComboBox* m_method;
    QComboBox* m_judge;
    QComboBox* m_size;
    QRadioButton* m_builtin;
    QRadioButton* m_huggingFace;
    QLineEdit* m_pretrained;
    QPushButton* m_browse;
    ModelPanel* m_modelPanel;
    bool m_applyingPolicy = false; ///< the chooser is setting policy.pretrained
    bool m_devicesListed = false; ///< the training module listed its devices (device auto is then known)
    QComboBox* m_device;
    QSpinBox* m_processes;
    QLineEdit* m_filter;
    ParamForm* m_form;
    QPlainTextEdit* m_preview;
    QLabel* m_summary;
    QPushButton* m_start;
    QPushButton* m_check;
    QLabel* m_checkResult;
    QLabel* m_presetNote;
    QLabel* m_methodNote;
    QLabel* m_sftOffer;
    qint64 m_sftOfferRun = 0; ///< the run m_sftOffer names; 0 when hidden
    QString m_sftOfferFor; ///< the SFT signature and database m_sftOffer was looked up for
    QString m_finishedRuns; ///< the database and its finished training runs when the note and the offer were made
    bool m_runsStale = false; ///< the runs changed while the page was hidden
    int m_runRereads = 0;
    bool m_applyingSize = false;
    /// What the form shows, and what Start, Save and the preview read; the combos and the form edit it.
    learn::LaunchConfig m_doc;
    bool m_syncing = false; ///< the form is being filled from m_doc
    QString m_moduleError; ///< why the training module could not be loaded; empty when it could
    /// The form's config as updatePreview() last parsed it (on every change): what Start sends; empty when invalid,
    /// with the reason in m_configError.
    std::optional<learn::TrainConfig> m_config;
    QString m_configError;
};

} // namespace creditlab::ui
