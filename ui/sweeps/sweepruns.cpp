// The Sweeps page's sweeps: starting, resuming and stopping one through the controller, its live progress (the
// trial table, the bar and the elapsed/ETA line, coalesced on the redraw timer) and how it ended, the list of the
// sweeps stored in the database with the selected one's trials, and an experiment's report.
#include "ui/sweeps/sweeppage.h"

#include "core/storage/store.h"
#include "ui/common/itemroles.h"
#include "ui/common/textutil.h"
#include "ui/runs/runmodel.h"
#include "ui/shell/workspace.h"
#include "ui/sweeps/reportdialog.h"
#include "ui/sweeps/trialmodel.h"

#include <QFileInfo>
#include <QLabel>
#include <QListView>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTimer>

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>

namespace creditlab::ui {

void SweepPage::resumeSelected()
{
    const QModelIndex current = m_sweepView->currentIndex();
    if (!current.isValid() || !m_workspace->isOpen())
        return;
    SweepRequest request;
    request.database = m_workspace->path();
    request.resumeSweepId = current.data(IdRole).toLongLong();
    request.workers = m_workers->value();
    start(request);
}

void SweepPage::start(const SweepRequest& request)
{
    QString error;
    if (!m_controller->start(request, &error)) {
        showError(error);
        return;
    }
    if (request.resumeSweepId == 0) {
        // The controller has validated the text; the objective is what the result view starts from.
        const auto spec = learn::SweepSpec::parse(
            request.sweepText.toStdString(), request.source.toStdString(), request.baseDir.toStdString());
        m_objective = toQString(spec.objective);
        m_objectiveMode = toQString(spec.objectiveMode);
    }
    m_runningDatabase = request.database;
    m_message->setText(runningMessage());
    m_progress->setValue(0);
    m_eta->clear();
}

void SweepPage::requestStop()
{
    m_controller->requestStop();
    if (m_controller->isRunning())
        m_message->setText(tr("Stopping after the running trials' current iteration…"));
}

void SweepPage::showError(const QString& message) { m_message->setText(message); }

void SweepPage::onProgress(const SweepSnapshot& snapshot)
{
    m_pending = snapshot;
    if (!m_redrawTimer->isActive())
        m_redrawTimer->start();
}

void SweepPage::applyProgress()
{
    if (!m_pending)
        return;
    const SweepSnapshot p = std::exchange(m_pending, nullptr);
    const int doneBefore = m_trialModel->sweepId() == p->sweepId
        ? static_cast<int>(std::count_if(m_trialModel->trials().begin(), m_trialModel->trials().end(),
            [](const learn::TrialProgress& t) { return t.status == TrialStatus::Finished; }))
        : -1;
    m_trialModel->setSnapshot(*p);
    if (p->sftFraction >= 0.0) {
        // An experiment's SFT starts, before its trials: the bar and the line follow them (per_seed: all of them, the
        // line naming the seed whose start trains).
        m_progress->setValue(static_cast<int>(1000.0 * p->sftFraction));
        const QString eta = p->etaSeconds >= 0 ? tr(" · ETA %1").arg(formatDuration(p->etaSeconds)) : QString();
        if (p->sftSeed.empty())
            m_eta->setText(tr("Shared SFT %1% · %2 elapsed%3 · then %4 trials")
                               .arg(static_cast<int>(100.0 * p->sftFraction))
                               .arg(formatDuration(p->elapsedSeconds))
                               .arg(eta)
                               .arg(p->total));
        else
            m_eta->setText(tr("SFT starts %1%, seed %2's training · %3 elapsed%4 · then %5 trials")
                               .arg(static_cast<int>(100.0 * p->sftFraction))
                               .arg(toQString(p->sftSeed), formatDuration(p->elapsedSeconds), eta)
                               .arg(p->total));
        return;
    }
    double fraction = 0.0;
    int finished = 0;
    for (const auto& t : p->trials) {
        fraction += hasEnded(t.status) ? 1.0 : t.fraction;
        finished += t.status == TrialStatus::Finished;
    }
    m_progress->setValue(p->total > 0 ? static_cast<int>(1000.0 * fraction / p->total) : 0);
    // While it runs: elapsed and ETA; once every trial has ended: how long it took (nothing when unknown).
    const bool ended = p->total > 0 && p->done >= p->total;
    const QString time = ended
        ? (p->elapsedSeconds >= 1.0 ? tr(" · took %1").arg(formatDuration(p->elapsedSeconds)) : QString())
        : tr(" · %1 elapsed%2")
              .arg(formatDuration(p->elapsedSeconds))
              .arg(p->etaSeconds >= 0 ? tr(" · ETA %1").arg(formatDuration(p->etaSeconds)) : QString());
    m_eta->setText(tr("%1 of %2 trials%3").arg(p->done).arg(p->total).arg(time)
        + (p->probeTablesTotal > 0 && (p->probeTablesDone > 0 || !p->probeActivity.empty())
                ? tr(" · probe tables %1 of %2%3")
                      .arg(p->probeTablesDone)
                      .arg(p->probeTablesTotal)
                      .arg(p->probeActivity.empty() ? QString() : QStringLiteral(" · ") + toQString(p->probeActivity))
                : QString()));
    if (finished != doneBefore) {
        if (doneBefore >= 0)
            m_workspace->notifyRunsChanged();
        updateChoices();
        updateResult();
    }
}

QString SweepPage::runningMessage() const
{
    if (m_runningDatabase.isEmpty() || m_runningDatabase == m_workspace->path())
        return tr("Running…");
    return tr("Running in %1, the database open when it started; the list below is this database's. Stop (Ctrl+.) "
              "stops it there.")
        .arg(QFileInfo(m_runningDatabase).fileName());
}

void SweepPage::onFinished(TrialStatus status)
{
    applyProgress();
    if (status == TrialStatus::Cancelled && m_controller->stoppedInSft())
        m_message->setText(tr("Experiment %1 stopped during its shared SFT, before any trial; Resume continues it.")
                               .arg(m_controller->sweepId()));
    else
        m_message->setText(tr("Sweep %1: %2.").arg(m_controller->sweepId()).arg(RunModel::displayStatus(status)));
    if (!m_runningDatabase.isEmpty() && m_runningDatabase != m_workspace->path())
        m_message->setText(m_message->text() + QLatin1Char(' ')
            + tr("It ran in %1, not in the database open now.").arg(QFileInfo(m_runningDatabase).fileName()));
    m_workspace->notifyRunsChanged();
    reloadSweeps();
    m_planFor.clear(); // the finished seeds are the pilot now
    updateTrialPreview();
    // The ended sweep stays selected (without a selection signal): its Resume and Report buttons follow its stored
    // status now that nothing runs.
    if (Store* store = m_workspace->store(); store && m_controller->sweepId() > 0
        && m_sweepView->currentIndex().data(IdRole).toLongLong() == m_controller->sweepId())
        if (const auto info = store->sweep(m_controller->sweepId()))
            updateStoredButtons(*info);
    updateChoices();
    updateResult();
}

void SweepPage::reloadSweeps()
{
    // The running sweep stays selected while it runs; otherwise the user's choice is kept.
    const qint64 selected = m_controller->isRunning() && m_controller->sweepId() > 0
        ? m_controller->sweepId()
        : m_sweepView->currentIndex().data(IdRole).toLongLong();
    m_sweepList->clear();
    Store* store = m_workspace->store();
    if (!store)
        return;
    const auto sweeps = store->sweeps();
    for (auto it = sweeps.rbegin(); it != sweeps.rend(); ++it) {
        auto* item = new QStandardItem(
            tr("#%1 %2 — %3").arg(it->id).arg(toQString(it->name), RunModel::displayStatus(it->status)));
        item->setData(static_cast<qlonglong>(it->id), IdRole);
        item->setToolTip(toQString(it->createdAt));
        m_sweepList->appendRow(item);
        if (it->id == selected) {
            const QSignalBlocker block(m_sweepView->selectionModel());
            m_sweepView->setCurrentIndex(item->index());
        }
    }
}

void SweepPage::updateStoredButtons(const SweepInfo& info)
{
    m_resumeButton->setEnabled(
        !m_controller->isRunning() && (info.status == TrialStatus::Cancelled || info.status == TrialStatus::Running));
    m_reportButton->setEnabled(info.config.find("\narms:") != std::string::npos); // an experiment (partial or whole)
}

void SweepPage::showStoredSweep(qint64 sweepId)
{
    Store* store = m_workspace->store();
    const auto info = store ? store->sweep(sweepId) : std::nullopt;
    if (!info)
        return;
    if (m_controller->isRunning() && sweepId == m_controller->sweepId()) {
        updateStoredButtons(*info); // Resume off while it runs; Report gives a partial report
        return; // the live snapshots show it
    }
    updateStoredButtons(*info);
    m_reportButton->setEnabled(false); // until its stored text reads as an experiment (below)
    try {
        const auto spec = learn::SweepSpec::parse(info->config, "sweep", {});
        m_objective = toQString(spec.objective);
        m_objectiveMode = toQString(spec.objectiveMode);
        m_reportButton->setEnabled(spec.isExperiment());
    } catch (const std::exception&) {
        // A sweep written by another version: its trials still show, with the default objective.
    }
    const auto trials = store->trials(sweepId);
    std::map<std::int64_t, RunInfo> runs; // for the iterations of trials that another process is running
    for (const auto& trial : trials)
        if (trial.runId && trial.status == TrialStatus::Running)
            if (auto run = store->run(*trial.runId))
                runs.emplace(*trial.runId, std::move(*run));
    m_trialModel->setStoredTrials(sweepId, trials, runs);
    m_progress->setValue(info->status == TrialStatus::Finished ? 1000 : 0);
    m_eta->clear();
    updateChoices();
    updateResult();
}

ReportDialog* SweepPage::openReport()
{
    Store* store = m_workspace->store();
    const qint64 sweepId = m_sweepView->currentIndex().data(IdRole).toLongLong();
    if (!store || sweepId <= 0)
        return nullptr;
    const auto info = store->sweep(sweepId);
    if (!info || info->config.find("arms:") == std::string::npos)
        return nullptr;
    auto* dialog = new ReportDialog(store, m_workspace->path(), sweepId, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // The dialog reads the store of the database open now: close it when another one opens.
    connect(m_workspace, &Workspace::aboutToReplace, dialog, &QDialog::close);
    dialog->show();
    return dialog;
}

} // namespace creditlab::ui
