#pragma once

#include <QFrame>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>

class QFormLayout;
class QLabel;
class QTimer;

namespace creditlab::hf {
struct ModelSummary;
}

namespace creditlab::ui {

/// The Launch page's view of a Hugging Face model (policy.pretrained), as `creditlab-cli model inspect` shows it:
/// architecture, parameters, shape, context, tokenizer, chat template, and a memory estimate for the run being
/// configured. Reading a folder (hf::ModelFolder::open maps the safetensors and checks every weight; the tokenizer and
/// the template's episode format take a second for a large vocabulary) runs on the global thread pool while the panel
/// says "reading…"; a result for a model that is no longer asked for is dropped. A folder that does not open shows the
/// error, which names the file and field. Lives on the GUI thread.
class ModelPanel : public QFrame {
    Q_OBJECT
public:
    enum class State {
        Empty, ///< no model asked for
        Reading,
        Ready,
        Failed,
    };

    /// What the memory estimate is for: the run's shape and device (policy.*, rl.tasks × rl.group_size).
    struct Run {
        std::int64_t rows = 8; ///< sequences generated at once
        std::int64_t context = 2048; ///< tokens per sequence
        QString finetune = QStringLiteral("lora");
        std::int64_t loraRank = 16;
        QString dtype = QStringLiteral("auto");
        bool activationCheckpointing = true;
        std::optional<bool> cuda; ///< nullopt: not known yet (device auto before the devices are listed): both
        bool operator==(const Run&) const = default;
    };

    explicit ModelPanel(QWidget* parent = nullptr);
    ~ModelPanel() override;

    /// Reads `spec` (a folder, or a repository id in the local Hugging Face cache) unless it is the one shown or being
    /// read (one that failed is read again when asked for `immediately`); empty clears the panel. A change while
    /// typing waits a moment before reading (`immediately` false).
    void setSpec(const QString& spec, bool immediately = true);
    QString spec() const { return m_spec; }
    State state() const { return m_state; }
    /// Why the model cannot be used (Failed); empty otherwise.
    QString errorText() const { return m_error; }
    /// The model read (Ready); nullptr otherwise.
    std::shared_ptr<const hf::ModelSummary> summary() const { return m_summary; }
    /// Updates the memory estimate for this run.
    void setRun(const Run& run);
    /// The panel's text, one "label: value" per line (tests, accessibility).
    QString text() const;

Q_SIGNALS:
    /// The state changed (reading began, the model was read, or it failed).
    void stateChanged(ModelPanel::State state);

private:
    void startReading();
    void setState(State state);
    void showSummary();
    void updateMemory();

    QString m_spec;
    State m_state = State::Empty;
    QString m_error;
    std::shared_ptr<const hf::ModelSummary> m_summary;
    Run m_run;
    quint64 m_generation = 0; ///< bumped per read: a finished read of an older spec is dropped
    QTimer* m_delay;
    QFormLayout* m_form;
    QLabel* m_status;
    QLabel* m_architecture;
    QLabel* m_parameters;
    QLabel* m_shape;
    QLabel* m_context;
    QLabel* m_tokenizer;
    QLabel* m_template;
    QLabel* m_memory;
};

} // namespace creditlab::ui
