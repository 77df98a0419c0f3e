// The launcher's policy choice: a built-in size, or a Hugging Face model (policy.pretrained) read into the model
// panel; the form's keys that only one of them uses are disabled, and Start waits for a model that can be used.
#include "ui/launch/launcherpage.h"

#include "ui/common/filedialogs.h"
#include "ui/launch/modelpanel.h"
#include "ui/launch/paramform.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>

#include <array>

namespace creditlab::ui {

namespace {

const QString kPretrainedKey = QStringLiteral("policy.pretrained");
/// The built-in policy's shape: a model's own applies instead.
constexpr std::array kBuiltinKeys { "policy.width", "policy.layers", "policy.heads", "policy.positions" };
/// What only a pretrained model uses.
constexpr std::array kPretrainedKeys { "policy.finetune", "policy.dtype", "policy.activation_checkpointing",
    "policy.system_prompt" };
constexpr std::array kLoraKeys { "policy.lora.rank", "policy.lora.alpha", "policy.lora.dropout",
    "policy.lora.targets" };

} // namespace

QWidget* LauncherPage::buildPolicyChooser()
{
    m_builtin->setObjectName(QStringLiteral("builtinPolicy"));
    m_builtin->setToolTip(tr("A policy trained from scratch, of this width × layers (policy.width, .layers, .heads)"));
    m_builtin->setChecked(true);
    m_huggingFace->setObjectName(QStringLiteral("pretrainedPolicy"));
    m_huggingFace->setToolTip(tr("Start from a pretrained Llama, Qwen2 or Qwen3 model in safetensors, with its "
                                 "tokenizer and chat template (policy.pretrained)"));
    m_pretrained->setObjectName(QStringLiteral("pretrainedEdit"));
    m_pretrained->setPlaceholderText(tr("model folder, or ORG/NAME in the Hugging Face cache"));
    m_pretrained->setClearButtonEnabled(true);
    m_pretrained->setToolTip(tr("A Hugging Face model folder, or a repository id already in the local Hugging Face "
                                "cache (nothing is downloaded)"));
    m_browse->setObjectName(QStringLiteral("browseModel"));
    m_browse->setToolTip(tr("Choose a Hugging Face model folder (Alt+B)"));

    auto* chooser = new QWidget(this);
    auto* grid = new QGridLayout(chooser);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(m_builtin, 0, 0);
    grid->addWidget(m_size, 0, 1);
    grid->addWidget(m_huggingFace, 1, 0);
    auto* modelLine = new QHBoxLayout;
    modelLine->addWidget(m_pretrained, 1);
    modelLine->addWidget(m_browse);
    grid->addLayout(modelLine, 1, 1);
    grid->addWidget(m_modelPanel, 2, 0, 1, 2);
    grid->setColumnStretch(1, 1);

    connect(m_builtin, &QRadioButton::toggled, this, [this](bool checked) {
        if (checked)
            choosePolicy(false, QString(), false); // the typed model stays in its field for switching back
    });
    connect(m_huggingFace, &QRadioButton::toggled, this, [this](bool checked) {
        if (!checked)
            return;
        choosePolicy(true, m_pretrained->text(), false);
        if (m_pretrained->text().trimmed().isEmpty())
            m_pretrained->setFocus();
    });
    connect(
        m_pretrained, &QLineEdit::textEdited, this, [this](const QString& text) { choosePolicy(true, text, true); });
    connect(m_pretrained, &QLineEdit::returnPressed, this, [this] { m_modelPanel->setSpec(m_pretrained->text()); });
    connect(m_browse, &QPushButton::clicked, this, &LauncherPage::chooseModelFolder);
    connect(m_modelPanel, &ModelPanel::stateChanged, this, &LauncherPage::updateStartButton);
    return chooser;
}

void LauncherPage::setPretrained(const QString& spec)
{
    if (!spec.trimmed().isEmpty())
        m_pretrained->setText(spec.trimmed());
    choosePolicy(!spec.trimmed().isEmpty(), spec, false);
}

void LauncherPage::choosePolicy(bool pretrained, const QString& text, bool typing)
{
    const QString spec = pretrained ? text.trimmed() : QString();
    {
        const QSignalBlocker blockBuiltin(m_builtin), blockPretrained(m_huggingFace);
        (pretrained ? m_huggingFace : m_builtin)->setChecked(true);
    }
    m_applyingPolicy = true;
    m_form->setValue(kPretrainedKey, spec); // valueChanged puts it in the document and updates the preview
    m_applyingPolicy = false;
    m_modelPanel->setSpec(spec, !typing);
    applyPolicySource();
}

void LauncherPage::syncPolicySource(bool loaded)
{
    const QString spec = m_form->value(kPretrainedKey);
    {
        const QSignalBlocker blockBuiltin(m_builtin), blockPretrained(m_huggingFace);
        if (!spec.isEmpty()) {
            m_huggingFace->setChecked(true);
            if (m_pretrained->text().trimmed() != spec)
                m_pretrained->setText(spec);
        } else if (loaded || !m_pretrained->text().trimmed().isEmpty()) {
            // A config without a model, or the model's key cleared: the built-in size. A model chosen but not typed
            // yet stays chosen while other keys change.
            m_builtin->setChecked(true);
        }
    }
    // Typing in the form's own row waits like typing in the chooser's field.
    m_modelPanel->setSpec(m_huggingFace->isChecked() ? spec : QString(), loaded);
    applyPolicySource();
}

void LauncherPage::applyPolicySource()
{
    const bool pretrained = m_huggingFace->isChecked();
    m_size->setEnabled(!pretrained);
    m_modelPanel->setVisible(pretrained);
    const QString modelShape = tr("A Hugging Face model is chosen (policy.pretrained): its own shape applies.");
    for (const char* key : kBuiltinKeys)
        m_form->setKeyEnabled(QString::fromLatin1(key), !pretrained, modelShape);
    const QString onlyPretrained = tr("Only for a Hugging Face model (policy.pretrained).");
    for (const char* key : kPretrainedKeys)
        m_form->setKeyEnabled(QString::fromLatin1(key), pretrained, onlyPretrained);
    const bool lora = pretrained && m_form->value(QStringLiteral("policy.finetune")) != QLatin1String("full");
    for (const char* key : kLoraKeys)
        m_form->setKeyEnabled(QString::fromLatin1(key), lora,
            pretrained ? tr("Only with LoRA fine-tuning (policy.finetune lora).") : onlyPretrained);
    updateStartButton();
}

void LauncherPage::updateModelRun()
{
    const auto number = [this](const char* key) {
        return m_doc.value(key).empty() ? 0 : QString::fromStdString(m_doc.value(key)).toLongLong();
    };
    ModelPanel::Run run;
    run.rows = std::max<qint64>(1, number("rl.tasks") * number("rl.group_size"));
    run.context = std::max<qint64>(1, number("policy.context"));
    run.finetune = QString::fromStdString(m_doc.value("policy.finetune"));
    run.loraRank = std::max<qint64>(1, number("policy.lora.rank"));
    run.dtype = QString::fromStdString(m_doc.value("policy.dtype"));
    run.activationCheckpointing = m_doc.value("policy.activation_checkpointing") == "true";
    const QString device = m_device->currentData().toString();
    if (device == QLatin1String("cpu")) {
        run.cuda = false;
    } else if (device.startsWith(QLatin1String("cuda"))) {
        run.cuda = true;
    } else if (m_devicesListed) { // auto: CUDA when the training module found a GPU
        bool cuda = false;
        for (int i = 0; i < m_device->count(); ++i)
            cuda = cuda || m_device->itemData(i).toString().startsWith(QLatin1String("cuda"));
        run.cuda = cuda;
    }
    m_modelPanel->setRun(run);
}

void LauncherPage::chooseModelFolder()
{
    const QString current = m_pretrained->text().trimmed();
    const QString dir = filedialogs::getExistingDirectory(
        this, tr("Choose a Hugging Face Model Folder"), QFileInfo(current).isDir() ? current : QString());
    if (dir.isEmpty())
        return;
    setPretrained(dir);
}

bool LauncherPage::policyReady(QString* reason) const
{
    if (!m_huggingFace->isChecked())
        return true;
    QString why;
    switch (m_modelPanel->state()) {
    case ModelPanel::State::Ready:
        return true;
    case ModelPanel::State::Empty:
        why = tr("Choose a Hugging Face model folder or repository id, or a built-in size.");
        break;
    case ModelPanel::State::Reading:
        why = tr("The model is still being read.");
        break;
    case ModelPanel::State::Failed:
        why = tr("Cannot use this model: %1").arg(m_modelPanel->errorText());
        break;
    }
    if (reason)
        *reason = why;
    return false;
}

} // namespace creditlab::ui
