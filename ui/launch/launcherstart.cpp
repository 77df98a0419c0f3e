// Starting a run from the launcher (launcherpage.h): the training module loaded in the background with its devices,
// the config parsed on every change into the preview and the summary (what Start sends), the server check, the
// Start button and startRun().
#include "ui/launch/launcherpage.h"

#include "core/credit/estimator.h"
#include "core/learn/api/backend.h"
#include "core/learn/api/trainconfig.h"
#include "ui/common/textutil.h"
#include "ui/launch/paramform.h"
#include "ui/launch/runcontroller.h"
#include "ui/launch/servercheck.h"
#include "ui/shell/workspace.h"

#include <QComboBox>
#include <QFutureWatcher>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>

namespace creditlab::ui {

void LauncherPage::loadTrainingModule()
{
    // LibTorch takes about a second to initialise: load the training module in the background while the window
    // shows, then list the GPUs it sees. A failure is shown; starting a run reports it again.
    auto* watcher = new QFutureWatcher<QStringList>(this);
    connect(watcher, &QFutureWatcher<QStringList>::finished, this, [this, watcher] {
        watcher->deleteLater();
        const QStringList devices = watcher->result();
        if (!devices.isEmpty() && devices.first().startsWith(QLatin1Char('!'))) {
            m_moduleError = devices.first().mid(1);
            updatePreview();
            return;
        }
        for (const QString& device : devices)
            if (m_device->findData(device) < 0)
                m_device->addItem(device, device);
        m_devicesListed = true;
        updateModelRun();
        Q_EMIT trainingModuleLoaded();
    });
    watcher->setFuture(QtConcurrent::run([] {
        QStringList out;
        try {
            for (const auto& device : learn::trainingBackend().availableDevices())
                out.append(toQString(device));
        } catch (const std::exception& e) {
            out = QStringList { QLatin1Char('!') + toQString(e.what()) };
        }
        return out;
    }));
}

void LauncherPage::checkServers()
{
    ServerCheckRequest request;
    if (!m_config) {
        m_checkResult->setText(m_configError);
        Q_EMIT serverCheckFinished(false);
        return;
    }
    request.remoteEnv = m_config->envName() == "remote";
    request.envAssignments = m_config->envAssignments();
    request.httpJudge = m_config->judgeName() == "http";
    request.judgeAssignments = m_config->judgeAssignments();
    if (!request.remoteEnv && !request.httpJudge) {
        m_checkResult->setText(tr("Nothing to check: this config calls no server (env remote or judge http)."));
        Q_EMIT serverCheckFinished(true);
        return;
    }
    m_check->setEnabled(false);
    m_checkResult->setText(tr("Checking…"));
    auto* watcher = new QFutureWatcher<ServerCheckResult>(this);
    connect(watcher, &QFutureWatcher<ServerCheckResult>::finished, this, [this, watcher] {
        watcher->deleteLater();
        const ServerCheckResult result = watcher->result();
        m_checkResult->setText(result.lines.join(QLatin1Char('\n')));
        m_check->setEnabled(true);
        Q_EMIT serverCheckFinished(result.ok);
    });
    watcher->setFuture(QtConcurrent::run([request] { return ui::checkServers(request); }));
}

void LauncherPage::updatePreview()
{
    if (const auto* estimator = credit::findEstimator(m_doc.method()))
        m_methodNote->setText(toQString(std::string(estimator->summary())));
    const QString text = configText();
    m_preview->setPlainText(text);
    updateModelRun();
    // Parsed once per change: the summary below and Start (startRun) use this.
    m_config.reset();
    m_configError.clear();
    QStringList invalid;
    m_form->invalidKeys(&invalid);
    if (!invalid.isEmpty()) {
        m_configError = invalid.join(QLatin1Char('\n'));
    } else {
        try {
            m_config = m_doc.toRunConfig();
        } catch (const std::exception& e) {
            m_configError = toQString(e.what());
        }
    }
    updateSftOffer();
    // The check button is for configs that call a server; an earlier check's outcome is about another config.
    const bool callsServer
        = m_env->currentText() == QLatin1String("remote") || m_judge->currentText() == QLatin1String("http");
    m_check->setVisible(callsServer);
    if (m_check->isEnabled())
        m_checkResult->clear();
    m_checkResult->setVisible(callsServer);
    if (!m_moduleError.isEmpty()) {
        m_summary->setText(tr("Training is not available: %1").arg(m_moduleError));
        return;
    }
    if (!invalid.isEmpty()) {
        m_summary->setText(tr("Fix first: %1").arg(invalid.join(QStringLiteral("; "))));
        return;
    }
    if (!m_config) {
        m_summary->setText(m_configError);
        return;
    }
    try {
        const learn::TrainConfig& config = *m_config;
        const qint64 episodes
            = config.getInt("rl.iterations") * config.getInt("rl.tasks") * config.getInt("rl.group_size");
        QString summary;
        if (config.envName() == "remote") { // no expert there (no SFT episodes to play), and no oracle roles
            summary = tr("Run \"%1\": %2 iterations × %3 tasks × %4 rollouts = %5 training episodes on the remote "
                         "server, on %6.")
                          .arg(toQString(config.runName()))
                          .arg(config.getInt("rl.iterations"))
                          .arg(config.getInt("rl.tasks"))
                          .arg(config.getInt("rl.group_size"))
                          .arg(episodes)
                          .arg(m_device->currentText());
            summary += QLatin1Char('\n') + remoteSummary(config);
        } else {
            summary = tr("Run \"%1\": %2 SFT episodes, then %3 iterations × %4 tasks × %5 rollouts = %6 "
                         "training episodes, on %7.")
                          .arg(toQString(config.runName()))
                          .arg(config.getInt("sft.expert_episodes") + config.getInt("sft.noisy_episodes"))
                          .arg(config.getInt("rl.iterations"))
                          .arg(config.getInt("rl.tasks"))
                          .arg(config.getInt("rl.group_size"))
                          .arg(episodes)
                          .arg(m_device->currentText());
        }
        if (m_processes->value() > 1)
            summary += QLatin1Char('\n')
                + tr("Data-parallel: %n processes (creditlab-cli train --nproc), each rolling out its share of the "
                     "tasks; the Monitor follows the run from the database.",
                    nullptr, m_processes->value());
        const QString labels = humanLabelSummary(config);
        if (!labels.isEmpty())
            summary += QLatin1Char('\n') + labels;
        m_summary->setText(summary);
    } catch (const std::exception& e) {
        m_summary->setText(toQString(e.what()));
    }
}

void LauncherPage::updateStartButton()
{
    const bool busy = m_controller->isRunning();
    QString why;
    const bool ready = policyReady(&why);
    m_start->setEnabled(m_workspace->isOpen() && ready);
    m_start->setToolTip(ready ? tr("Start training in the background (Ctrl+Return)") : why);
    if (!busy)
        m_start->setText(tr("&Start run"));
    else if (m_controller->queuedCount() == 0)
        m_start->setText(tr("&Queue run (starts when run %1 ends)").arg(m_controller->runId()));
    else
        m_start->setText(tr("&Queue run (%n waiting)", nullptr, m_controller->queuedCount()));
}

bool LauncherPage::startRun(QString* error)
{
    QString reason = m_configError;
    if (reason.isEmpty())
        policyReady(&reason);
    RunRequest request;
    request.database = m_workspace->path();
    request.config = m_config;
    request.device = m_device->currentData().toString();
    request.processes = m_processes->isEnabled() ? m_processes->value() : 1;
    const bool queued = m_controller->isRunning();
    if (reason.isEmpty() && m_controller->start(request, &reason)) {
        if (!queued)
            Q_EMIT runLaunched();
        return true;
    }
    if (error)
        *error = reason;
    else
        QMessageBox::warning(this, tr("Cannot start the run"), reason);
    return false;
}

} // namespace creditlab::ui
