// What the open database's earlier runs tell the launcher: the preset's time estimate from the compute time of its
// finished runs, and an earlier run's SFT policy on offer when this config would train the same one. Both follow
// the run list while the page is in view (rereadRuns).
#include "ui/launch/launcherpage.h"

#include "core/learn/api/sftreuse.h"
#include "core/storage/store.h"
#include "ui/common/textutil.h"
#include "ui/launch/paramform.h"
#include "ui/shell/workspace.h"

#include <QComboBox>
#include <QFile>
#include <QLabel>

#include <algorithm>
#include <exception>
#include <string>
#include <vector>

namespace creditlab::ui {

void LauncherPage::updatePresetNote()
{
    const int index = m_presets->currentIndex();
    if (index <= 0) {
        m_presetNote->setText(tr("The trainer's defaults: the full household world and a 128×4 policy."));
        return;
    }
    // The description is the preset's first comment sentence.
    QString description;
    QFile file(presetFolder() + QLatin1Char('/') + m_presets->itemText(index));
    if (file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        QString comment;
        while (!file.atEnd()) {
            const QString line = QString::fromUtf8(file.readLine()).trimmed();
            if (!line.startsWith(QLatin1Char('#')))
                break;
            comment += line.mid(1).trimmed() + QLatin1Char(' ');
        }
        const qsizetype end = comment.indexOf(QLatin1String(". "));
        description = (end > 0 ? comment.left(end + 1) : comment).trimmed();
    }
    // The time estimate is measured: the compute time of this preset's finished runs in the open database.
    QString estimate = tr("No earlier run of this preset in this database to estimate its time from.");
    if (m_workspace->store()) {
        const std::string preset = m_doc.value("name");
        std::vector<double> seconds;
        try {
            for (const RunInfo& run : m_workspace->runs())
                if (run.status == RunStatus::Finished && run.kind == RunKind::Train && !preset.empty()
                    && run.name.rfind(preset, 0) == 0 && run.trainSeconds > 0)
                    seconds.push_back(run.trainSeconds);
        } catch (const std::exception&) {
        }
        if (!seconds.empty()) {
            const auto [lo, hi] = std::minmax_element(seconds.begin(), seconds.end());
            estimate = seconds.size() == 1
                ? tr("Its earlier run here took %1 of compute.").arg(formatDuration(*lo))
                : tr("Its %n earlier runs here took %1–%2 of compute.", nullptr, int(seconds.size()))
                      .arg(formatDuration(*lo), formatDuration(*hi));
        }
    }
    m_presetNote->setText(description.isEmpty() ? estimate : description + QLatin1Char(' ') + estimate);
}

void LauncherPage::updateSftOffer()
{
    Store* store = m_workspace->store();
    const QString key = m_config && store
        ? m_workspace->path() + QLatin1Char('\n') + toQString(learn::sftSignature(*m_config))
            + QString::number(m_config->getInt("sft.from_run")) + QString::number(m_config->getInt("sft.epochs"))
        : QString();
    if (key == m_sftOfferFor)
        return;
    m_sftOfferFor = key;
    m_sftOfferRun = 0;
    std::optional<learn::SftSource> source;
    if (!key.isEmpty()) {
        try {
            source = learn::findSftSource(*store, m_workspace->path().toStdString(), *m_config);
        } catch (const std::exception&) {
        }
    }
    m_sftOffer->setVisible(source.has_value());
    if (!source)
        return m_sftOffer->clear();
    m_sftOfferRun = source->runId;
    const QString took = source->sftSeconds > 0 ? tr(" in %1").arg(formatDuration(source->sftSeconds)) : QString();
    m_sftOffer->setText(tr("Run %1 (%2) trained this same SFT%3. <a href=\"reuse\">Start from its SFT policy</a> "
                           "instead of training it again (sft.from_run = %1).")
                            .arg(source->runId)
                            .arg(toQString(source->name).toHtmlEscaped())
                            .arg(took));
}

void LauncherPage::rereadRuns()
{
    // A hidden page only notes that the runs changed: the workspace reports about once a second while any run trains,
    // and nobody reads this page's notes meanwhile. showEvent() catches up.
    if (!isVisible()) {
        m_runsStale = true;
        return;
    }
    m_runsStale = false;
    ++m_runRereads;
    QString finished = m_workspace->path() + QLatin1Char('|');
    try {
        for (const RunInfo& run : m_workspace->runs()) // the workspace's cached list: one read per change for all pages
            if (run.status == RunStatus::Finished && run.kind != RunKind::Import)
                finished += QString::number(run.id) + QLatin1Char(',');
    } catch (const std::exception&) {
    }
    if (finished == m_finishedRuns)
        return;
    m_finishedRuns = finished;
    m_sftOfferFor.clear();
    updatePresetNote();
    updateSftOffer();
}

void LauncherPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_runsStale)
        rereadRuns();
}

} // namespace creditlab::ui
