// The Sweeps page's editor: the shipped presets (copied out so that their relative paths resolve), sweep files
// opened and saved, the preview of the trials the editor's sweep would run with an experiment's power plan, and
// starting that sweep after confirmation.
#include "ui/sweeps/sweeppage.h"

#include "core/storage/atomicfile.h"
#include "ui/common/filedialogs.h"
#include "ui/common/textutil.h"
#include "ui/shell/workspace.h"
#include "ui/sweeps/planpanel.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QStringList>
#include <QTimer>

#include <memory>
#include <string>

namespace creditlab::ui {

void SweepPage::loadPresets()
{
    // The shipped sweeps, then the shipped experiments (the seed papers' claims, docs/reproductions.md).
    const QDir configs(QStringLiteral(":/configs"));
    for (const QString& name : configs.entryList({ QStringLiteral("sweep-*.yaml") }, QDir::Files, QDir::Name)) {
        m_presets->addItem(QFileInfo(name).completeBaseName(), configs.filePath(name));
        m_presets->setItemData(m_presets->count() - 1, QStringLiteral("configs"), kPresetFolderRole);
    }
    const QDir experiments(QStringLiteral(":/experiments"));
    for (const QString& name : experiments.entryList({ QStringLiteral("*.yaml") }, QDir::Files, QDir::Name)) {
        m_presets->addItem(tr("experiment: %1").arg(QFileInfo(name).completeBaseName()), experiments.filePath(name));
        m_presets->setItemData(m_presets->count() - 1, QStringLiteral("experiments"), kPresetFolderRole);
    }
}

QString SweepPage::presetDir()
{
    // The engine reads files, not Qt resources: the shipped configs and experiments are copied out once, in folders
    // side by side as in resources/, so that an experiment's "base: ../configs/household-grpo.yaml" resolves.
    if (!m_presetDir) {
        m_presetDir = std::make_unique<QTemporaryDir>();
        for (const QString& folder : { QStringLiteral("configs"), QStringLiteral("experiments") }) {
            const QDir dir(QStringLiteral(":/") + folder);
            QDir(m_presetDir->path()).mkpath(folder);
            for (const QString& name : dir.entryList({ QStringLiteral("*.yaml") }, QDir::Files))
                QFile::copy(dir.filePath(name), m_presetDir->filePath(folder + QLatin1Char('/') + name));
        }
    }
    return m_presetDir->filePath(m_presetFolder.isEmpty() ? QStringLiteral("configs") : m_presetFolder);
}

void SweepPage::openSweepFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        showError(tr("Cannot read %1: %2").arg(path, f.errorString()));
        return;
    }
    m_editor->setPlainText(QString::fromUtf8(f.readAll()));
    m_filePath = QFileInfo(path).absoluteFilePath();
    m_presetFolder.clear();
    m_message->clear();
}

void SweepPage::startSweep()
{
    if (!m_workspace->isOpen()) {
        showError(tr("Open a database first."));
        return;
    }
    SweepRequest request;
    request.database = m_workspace->path();
    request.sweepText = m_editor->toPlainText();
    request.source = m_filePath.isEmpty() ? QStringLiteral("sweep") : m_filePath;
    request.baseDir = m_filePath.isEmpty() ? presetDir() : QFileInfo(m_filePath).absolutePath();
    request.workers = m_workers->value();
    start(request);
}

void SweepPage::confirmAndStart()
{
    updateTrialPreview();
    if (m_workspace->isOpen() && m_previewTrials > 0
        && QMessageBox::question(this,
               m_previewSharedSft || m_previewSeedSfts > 0 ? tr("Start experiment") : tr("Start sweep"),
               (m_previewSeedSfts > 0
                       ? tr("Start this experiment: an SFT run for each of %1 seeds, then %n trial(s), each "
                            "warm-started from its seed's? Each becomes a training run in %2.",
                           nullptr, m_previewTrials)
                             .arg(m_previewSeedSfts)
                       : m_previewSharedSft
                       ? tr("Start this experiment: a shared SFT run, then %n trial(s) warm-started from it? Each "
                            "becomes a training run in %1.",
                           nullptr, m_previewTrials)
                       : tr("Start this sweep of %n trial(s)? Each trial becomes a training run in %1.", nullptr,
                           m_previewTrials))
                       .arg(m_workspace->path())
                   + (m_plan->summary().isEmpty() ? QString() : QStringLiteral("\n\n") + m_plan->summary()))
            != QMessageBox::Yes)
        return;
    startSweep(); // an invalid sweep is refused there, with the reason on the page
}

QString SweepPage::describeTrials(const learn::SweepSpec& spec)
{
    // The values each swept key takes, in the order the trials first use them.
    QStringList axes;
    for (const auto& key : spec.keys) {
        QStringList values;
        for (const auto& trial : spec.trials)
            for (const auto& [k, v] : trial.point)
                if (k == key && !values.contains(toQString(v)))
                    values.append(toQString(v));
        constexpr int kShown = 6;
        QString list = values.mid(0, kShown).join(QStringLiteral(", "));
        if (values.size() > kShown)
            list += tr(", … (%1 values)").arg(values.size());
        axes.append(QStringLiteral("%1 \u2208 {%2}").arg(toQString(key), list));
    }
    QString text = spec.trials.size() == 1 ? tr("1 trial") : tr("%1 trials").arg(spec.trials.size());
    if (!axes.isEmpty())
        text += QStringLiteral(": ") + axes.join(QStringLiteral(" \u00d7 "));
    text += tr(" · %1 at a time").arg(spec.workers);
    return text;
}

void SweepPage::updateTrialPreview()
{
    m_previewTimer->stop();
    m_previewTrials = 0;
    m_previewSharedSft = false;
    m_previewSeedSfts = 0;
    const QString text = m_editor->toPlainText();
    if (text.trimmed().isEmpty()) {
        m_trialPreview->setText(tr("Write a sweep or pick a preset above."));
        m_planFor.clear();
        m_plan->showPlanFor({}, {});
        return;
    }
    try {
        const auto spec = learn::SweepSpec::parse(text.toStdString(),
            (m_filePath.isEmpty() ? QStringLiteral("sweep") : m_filePath).toStdString(),
            (m_filePath.isEmpty() ? presetDir() : QFileInfo(m_filePath).absolutePath()).toStdString());
        m_previewTrials = static_cast<int>(spec.trials.size());
        m_previewSharedSft = spec.isExperiment() && spec.sft == "shared";
        if (spec.isExperiment() && spec.sft == "per_seed")
            for (const auto& seed : spec.seeds())
                m_previewSeedSfts += spec.sftRuns.count(std::stoll(seed)) == 0; // a start the file gives is not trained
        m_trialPreview->setText(describeTrials(spec));
        // An experiment's power plan from the pilot this database holds for it, read again only when the experiment
        // or the database changes (the preview runs on every pause in typing).
        const QString planFor = spec.isExperiment() && m_workspace->isOpen()
            ? m_workspace->path() + QLatin1Char('\n') + toQString(spec.name)
            : QString();
        if (planFor != m_planFor) {
            m_planFor = planFor;
            m_plan->showPlanFor(planFor.isEmpty() ? QString() : m_workspace->path(), spec.name);
        }
    } catch (const std::exception& e) {
        m_trialPreview->setText(tr("Not a valid sweep yet: %1").arg(toQString(e.what())));
    }
}

void SweepPage::openFileDialog()
{
    const QString path = filedialogs::getOpenFileName(
        this, tr("Open sweep"), QFileInfo(m_filePath).absolutePath(), tr("Sweep files (*.yaml *.yml);;All files (*)"));
    if (!path.isEmpty())
        openSweepFile(path);
}

void SweepPage::saveFileDialog()
{
    const QString path
        = filedialogs::getSaveFileName(this, tr("Save sweep"), m_filePath, tr("Sweep files (*.yaml *.yml)"));
    if (path.isEmpty())
        return;
    try {
        writeFileAtomically(path.toStdString(), m_editor->toPlainText().toStdString());
        m_filePath = QFileInfo(path).absoluteFilePath();
    } catch (const std::exception& e) {
        showError(QString::fromStdString(e.what()));
    }
}

} // namespace creditlab::ui
