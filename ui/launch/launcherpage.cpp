// The launcher's set-up (launcherpage.h): its widgets, layout, wiring and shortcuts, and the form built from the
// config document, with the built-in sizes and the combos' keys. Starting a run is in launcherstart.cpp, the policy
// choice in launcherpolicy.cpp, the config files in launcherfiles.cpp, the notes in launchernotes.cpp and what
// earlier runs tell it in launcherhistory.cpp.
#include "ui/launch/launcherpage.h"

#include "core/credit/estimator.h"
#include "core/env/environment.h"
#include "core/judge/judge.h"
#include "ui/common/textutil.h"
#include "ui/launch/clirun.h"
#include "ui/launch/modelpanel.h"
#include "ui/launch/paramform.h"
#include "ui/launch/runcontroller.h"
#include "ui/shell/workspace.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QShortcut>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <map>
#include <utility>

namespace creditlab::ui {

namespace {

struct PolicySize {
    const char* name;
    int width, layers, heads;
};
/// Default is the trainer's own (policy.* defaults); Base is the shipped configs' policy; Large is the TARGETS.md benchmark's width with twice its heads' dimension.
constexpr std::array<PolicySize, 5> kSizes { { { QT_TRANSLATE_NOOP("creditlab::ui::LauncherPage", "Tiny"), 32, 1, 2 },
    { QT_TRANSLATE_NOOP("creditlab::ui::LauncherPage", "Small"), 64, 2, 2 },
    { QT_TRANSLATE_NOOP("creditlab::ui::LauncherPage", "Base"), 128, 2, 4 },
    { QT_TRANSLATE_NOOP("creditlab::ui::LauncherPage", "Default"), 128, 4, 4 },
    { QT_TRANSLATE_NOOP("creditlab::ui::LauncherPage", "Large"), 256, 4, 8 } } };

/// Title of the form section a trainer key belongs to.
QString sectionTitle(const std::string& prefix)
{
    static const std::map<std::string, const char*> titles { { "", QT_TRANSLATE_NOOP("creditlab::ui::LauncherPage", "General") },
        { "policy", QT_TRANSLATE_NOOP("creditlab::ui::LauncherPage", "Policy") },
        { "tokenizer", QT_TRANSLATE_NOOP("creditlab::ui::LauncherPage", "Tokenizer") },
        { "sft", QT_TRANSLATE_NOOP("creditlab::ui::LauncherPage", "SFT warm start") },
        { "rl", QT_TRANSLATE_NOOP("creditlab::ui::LauncherPage", "RL update") },
        { "kl", QT_TRANSLATE_NOOP("creditlab::ui::LauncherPage", "KL to the reference policy") },
        { "critic", QT_TRANSLATE_NOOP("creditlab::ui::LauncherPage", "Critic") },
        { "eval", QT_TRANSLATE_NOOP("creditlab::ui::LauncherPage", "Evaluation") },
        { "checkpoint", QT_TRANSLATE_NOOP("creditlab::ui::LauncherPage", "Checkpoints") } };
    const auto it = titles.find(prefix);
    return it == titles.end() ? toQString(prefix) : LauncherPage::tr(it->second);
}

} // namespace

LauncherPage::LauncherPage(Workspace* workspace, RunController* controller, QWidget* parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_controller(controller)
    , m_presets(new QComboBox(this))
    , m_env(new QComboBox(this))
    , m_method(new QComboBox(this))
    , m_judge(new QComboBox(this))
    , m_size(new QComboBox(this))
    , m_builtin(new QRadioButton(tr("Built-in si&ze:"), this))
    , m_huggingFace(new QRadioButton(tr("Hu&gging Face model:"), this))
    , m_pretrained(new QLineEdit(this))
    , m_browse(new QPushButton(tr("&Browse…"), this))
    , m_modelPanel(new ModelPanel(this))
    , m_device(new QComboBox(this))
    , m_processes(new QSpinBox(this))
    , m_filter(new QLineEdit(this))
    , m_form(new ParamForm(this))
    , m_preview(new QPlainTextEdit(this))
    , m_summary(new QLabel(this))
    , m_start(new QPushButton(tr("&Start run"), this))
    , m_check(new QPushButton(tr("Check servers"), this))
    , m_checkResult(new QLabel(this))
    , m_presetNote(new QLabel(this))
    , m_methodNote(new QLabel(this))
    , m_sftOffer(new QLabel(this))
{
    setObjectName(QStringLiteral("launcherPage"));
    m_summary->setObjectName(QStringLiteral("launchSummary"));
    m_presets->addItem(tr("(defaults)"));
    m_presets->addItems(presetNames());
    m_presets->setToolTip(tr("Ready-made configs shipped in resources/configs/"));
    auto* open = new QPushButton(tr("&Open…"), this);
    open->setToolTip(tr("Load a YAML config (Ctrl+Shift+O)"));
    auto* save = new QPushButton(tr("&Save…"), this);
    save->setToolTip(tr("Save the config as YAML for creditlab-cli train --config (Ctrl+S)"));
    auto* reset = new QPushButton(tr("Reset all"), this);

    for (const auto& env : env::environments())
        m_env->addItem(toQString(env.name), toQString(env.summary));
    for (const auto* estimator : credit::estimators()) {
        m_method->addItem(toQString(std::string(estimator->name())));
        m_method->setItemData(
            m_method->count() - 1, toQString(std::string(estimator->summary())), Qt::ToolTipRole);
    }
    for (const auto& judge : judge::judgeNames())
        m_judge->addItem(toQString(judge));
    for (const auto& size : kSizes)
        m_size->addItem(tr("%1 (%2×%3, %4 heads)").arg(tr(size.name)).arg(size.width).arg(size.layers).arg(size.heads));
    m_size->addItem(tr("Custom"));
    m_device->addItem(tr("auto (CUDA when present)"), QString());
    m_device->addItem(QStringLiteral("cpu"), QStringLiteral("cpu"));
    m_processes->setObjectName(QStringLiteral("processes"));
    m_processes->setRange(1, 64);
    m_processes->setValue(1);
    m_processes->setMinimumWidth(m_processes->fontMetrics().horizontalAdvance(QStringLiteral("0000")) + 48);
    if (CliRun::program().isEmpty()) {
        m_processes->setEnabled(false);
        m_processes->setToolTip(tr("Runs of several processes need creditlab-cli beside the workbench or on PATH"));
    } else {
        m_processes->setToolTip(tr("Data-parallel ranks on this machine (creditlab-cli train --nproc N); the cores are "
                                   "shared among them; the run's results are the same up to floating-point order"));
    }
    m_filter->setPlaceholderText(tr("Filter keys… (Ctrl+F)"));
    m_filter->setClearButtonEnabled(true);
    m_preview->setReadOnly(true);
    m_preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_preview->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_start->setDefault(true);
    m_start->setToolTip(tr("Start training in the background (Ctrl+Return)"));
    m_check->setToolTip(tr("Check that the remote environment server and the http judge answer (Ctrl+K)"));
    m_checkResult->setObjectName(QStringLiteral("serverCheck"));
    m_checkResult->setTextFormat(Qt::PlainText);
    m_checkResult->setWordWrap(true);
    m_checkResult->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_presetNote->setObjectName(QStringLiteral("presetNote"));
    m_presetNote->setTextFormat(Qt::PlainText);
    m_presetNote->setWordWrap(true);
    m_methodNote->setObjectName(QStringLiteral("methodNote"));
    m_methodNote->setTextFormat(Qt::PlainText);
    m_methodNote->setWordWrap(true);
    m_sftOffer->setObjectName(QStringLiteral("sftOffer"));
    m_sftOffer->setTextFormat(Qt::RichText);
    m_sftOffer->setWordWrap(true);
    m_sftOffer->hide();
    connect(m_sftOffer, &QLabel::linkActivated, this, [this] {
        if (m_sftOfferRun != 0)
            setValue(QStringLiteral("sft.from_run"), QString::number(m_sftOfferRun));
    });
    for (QLabel* note : { m_presetNote, m_methodNote }) {
        QFont small = note->font();
        small.setPointSizeF(small.pointSizeF() * 0.92);
        note->setFont(small);
        note->setForegroundRole(QPalette::PlaceholderText);
    }

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Preset:"), this));
    top->addWidget(m_presets, 1);
    top->addWidget(open);
    top->addWidget(save);
    top->addWidget(reset);
    auto* choices = new QFormLayout;
    choices->addRow(tr("&Environment:"), m_env);
    choices->addRow(tr("Policy:"), buildPolicyChooser());
    choices->addRow(tr("Credit &method:"), m_method);
    choices->addRow(QString(), m_methodNote);
    choices->addRow(tr("&Judge:"), m_judge);
    choices->addRow(tr("De&vice:"), m_device);
    auto* processesRow = new QHBoxLayout;
    processesRow->addWidget(m_processes);
    auto* processesNote
        = new QLabel(tr("data-parallel ranks on this machine (more than 1: creditlab-cli train --nproc)"), this);
    processesNote->setForegroundRole(QPalette::PlaceholderText);
    processesRow->addWidget(processesNote, 1);
    choices->addRow(tr("Pro&cesses:"), processesRow);
    static_cast<QLabel*>(choices->labelForField(processesRow))->setBuddy(m_processes);

    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setWidget(m_form);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addLayout(choices);
    leftLayout->addWidget(m_filter);
    leftLayout->addWidget(scroll, 1);
    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(new QLabel(tr("Config (YAML, as creditlab-cli train reads it):"), this));
    rightLayout->addWidget(m_preview, 1);
    rightLayout->addWidget(m_summary);
    rightLayout->addWidget(m_sftOffer);
    rightLayout->addWidget(m_checkResult);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_check);
    buttons->addWidget(m_start, 1);
    rightLayout->addLayout(buttons);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_presetNote);
    layout->addWidget(splitter, 1);

    connect(m_presets, &QComboBox::activated, this, [this](int index) {
        QString error;
        const bool ok = index == 0 ? loadConfigText(QStringLiteral("{}"), tr("defaults"), &error)
                                   : loadPreset(m_presets->itemText(index), &error);
        if (!ok)
            QMessageBox::warning(this, tr("Cannot load the preset"), error);
        updatePresetNote();
    });
    connect(open, &QPushButton::clicked, this, &LauncherPage::chooseOpen);
    connect(save, &QPushButton::clicked, this, &LauncherPage::chooseSave);
    connect(reset, &QPushButton::clicked, this, [this] {
        m_doc.resetValues();
        rebuildForm();
        syncPolicySource(true);
    });
    const std::array<std::pair<QComboBox*, const char*>, 3> choiceCombos {
        { { m_env, "env.name" }, { m_method, "credit.method" }, { m_judge, "judge.name" } }
    };
    for (const auto& [combo, key] : choiceCombos)
        connect(combo, &QComboBox::currentTextChanged, this, [this, key = key](const QString& text) {
            if (!m_syncing && m_doc.set(key, text.toStdString()).empty())
                rebuildForm();
        });
    connect(m_size, &QComboBox::activated, this, &LauncherPage::applySize);
    connect(m_device, &QComboBox::currentIndexChanged, this, &LauncherPage::updatePreview);
    connect(m_processes, &QSpinBox::valueChanged, this, &LauncherPage::updatePreview);
    connect(m_filter, &QLineEdit::textChanged, m_form, &ParamForm::setFilter);
    connect(m_form, &ParamForm::valueChanged, this, [this](const QString& key) {
        if (m_syncing)
            return;
        m_doc.set(key.toStdString(), m_form->value(key).toStdString()); // an invalid text stays in the form only
        if (key.startsWith(QLatin1String("policy."))) {
            syncSizeCombo();
            if (key == QLatin1String("policy.pretrained") && !m_applyingPolicy)
                syncPolicySource(false);
            applyPolicySource();
        }
        updatePreview();
    });
    connect(m_start, &QPushButton::clicked, this, [this] { startRun(); });
    connect(m_check, &QPushButton::clicked, this, &LauncherPage::checkServers);
    auto* checkShortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_K), this);
    connect(checkShortcut, &QShortcut::activated, this, &LauncherPage::checkServers);
    connect(m_controller, &RunController::runningChanged, this, &LauncherPage::updateStartButton);
    connect(m_controller, &RunController::queueChanged, this, &LauncherPage::updateStartButton);
    connect(m_controller, &RunController::runStarted, this, &LauncherPage::updateStartButton);
    connect(m_workspace, &Workspace::opened, this, &LauncherPage::updateStartButton);
    // Earlier runs of this database: the preset's time estimate and the SFT policies on offer.
    // Only finished training runs matter to them (their compute times, their SFT policies). The workspace reports
    // every write of any connection (each iteration of a run training, each batch posted to `serve`), and parsing
    // every run's config again on each of those polls cost CPU for nothing: recompute when that set changes.
    connect(m_workspace, &Workspace::opened, this, &LauncherPage::rereadRuns);
    connect(m_workspace, &Workspace::runsChanged, this, &LauncherPage::rereadRuns);

    auto* startShortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this);
    connect(startShortcut, &QShortcut::activated, this, [this] { startRun(); });
    auto* saveShortcut = new QShortcut(QKeySequence::Save, this);
    connect(saveShortcut, &QShortcut::activated, this, &LauncherPage::chooseSave);
    auto* openShortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this);
    connect(openShortcut, &QShortcut::activated, this, &LauncherPage::chooseOpen);
    auto* findShortcut = new QShortcut(QKeySequence::Find, this);
    connect(findShortcut, &QShortcut::activated, this, [this] {
        m_filter->setFocus();
        m_filter->selectAll();
    });

    rebuildForm();
    syncSizeCombo();
    updateStartButton();
}

void LauncherPage::rebuildForm()
{
    const QSignalBlocker blockEnv(m_env), blockMethod(m_method), blockJudge(m_judge);
    m_env->setCurrentText(toQString(m_doc.env()));
    m_method->setCurrentText(toQString(m_doc.method()));
    m_judge->setCurrentText(toQString(m_doc.judge()));
    std::vector<ParamForm::Section> sections;
    for (auto& section : m_doc.sections()) {
        const QString title = section.group == "credit" ? tr("Credit: %1").arg(m_method->currentText())
            : section.group == "env"                    ? tr("Environment: %1").arg(m_env->currentText())
            : section.group == "judge"                  ? tr("Judge: %1").arg(m_judge->currentText())
                                                        : sectionTitle(section.group);
        sections.push_back({ title, section.prefix, std::move(section.specs) });
    }
    m_syncing = true;
    m_form->setSections(std::move(sections));
    m_form->resetAll();
    for (const auto& [key, value] : m_doc.changedValues())
        m_form->setValue(toQString(key), toQString(value));
    m_syncing = false;
    syncSizeCombo();
    syncPolicySource(false);
    applyPolicySource();
    updatePreview();
}

void LauncherPage::applySize(int index)
{
    if (index < 0 || index >= static_cast<int>(kSizes.size()))
        return;
    m_applyingSize = true;
    m_form->setValue(QStringLiteral("policy.width"), QString::number(kSizes[index].width));
    m_form->setValue(QStringLiteral("policy.layers"), QString::number(kSizes[index].layers));
    m_form->setValue(QStringLiteral("policy.heads"), QString::number(kSizes[index].heads));
    m_applyingSize = false;
    syncSizeCombo();
}

void LauncherPage::syncSizeCombo()
{
    if (m_applyingSize)
        return;
    const int width = m_form->value(QStringLiteral("policy.width")).toInt();
    const int layers = m_form->value(QStringLiteral("policy.layers")).toInt();
    const int heads = m_form->value(QStringLiteral("policy.heads")).toInt();
    int index = static_cast<int>(kSizes.size());
    for (std::size_t i = 0; i < kSizes.size(); ++i)
        if (kSizes[i].width == width && kSizes[i].layers == layers && kSizes[i].heads == heads)
            index = static_cast<int>(i);
    m_size->setCurrentIndex(index);
}

bool LauncherPage::setValue(const QString& key, const QString& text, QString* error)
{
    QComboBox* combo = key == QLatin1String("env.name") ? m_env
        : key == QLatin1String("credit.method")        ? m_method
        : key == QLatin1String("judge.name")           ? m_judge
                                                       : nullptr;
    if (!combo) { // the form validates and shows a bad text; valueChanged puts a good one in the document
        if (!m_form->setValue(key, text, error))
            return false;
        m_doc.set(key.toStdString(), text.toStdString());
        return true;
    }
    if (combo->findText(text) < 0) {
        if (error)
            *error = tr("%1: unknown value '%2'").arg(key, text);
        return false;
    }
    combo->setCurrentText(text);
    return true;
}

QString LauncherPage::value(const QString& key) const
{
    if (key == QLatin1String("env.name"))
        return m_env->currentText();
    if (key == QLatin1String("credit.method"))
        return m_method->currentText();
    if (key == QLatin1String("judge.name"))
        return m_judge->currentText();
    return m_form->value(key);
}

} // namespace creditlab::ui
