#include "ui/launch/runcontroller.h"

#include "core/learn/api/trainconfig.h"
#include "ui/common/textutil.h"
#include "ui/launch/clirun.h"
#include "ui/launch/trainworker.h"

#include <QThread>

#include <algorithm>
#include <exception>

namespace creditlab::ui {

RunController::RunController(QObject* parent)
    : QObject(parent)
    , m_thread(new QThread(this))
    , m_worker(new TrainWorker)
    , m_cli(new CliRun(this))
{
    qRegisterMetaType<RunRequest>();
    qRegisterMetaType<RunProgress>();
    m_thread->setObjectName(QStringLiteral("training"));
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &TrainWorker::started, this, &RunController::onWorkerStarted);
    connect(m_worker, &TrainWorker::progressed, this, &RunController::progressed);
    connect(m_worker, &TrainWorker::pausedChanged, this, &RunController::pausedChanged);
    connect(m_worker, &TrainWorker::ended, this, &RunController::onWorkerEnded);
    connect(m_cli, &CliRun::started, this, &RunController::onWorkerStarted);
    connect(m_cli, &CliRun::ended, this, &RunController::onWorkerEnded);
    m_thread->start();
}

RunController::~RunController()
{
    m_queue.clear();
    m_worker->requestStop();
    m_thread->quit();
    m_thread->wait();
}

bool RunController::isPaused() const { return !isExternal() && m_worker->isPaused(); }

bool RunController::start(const RunRequest& request, QString* error)
{
    const auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    if (request.database.isEmpty())
        return fail(tr("Open a database first."));
    if (request.resumeRunId == 0 && !request.config)
        return fail(tr("There is no valid config to start a run from."));
    if (request.processes > 1 && request.resumeRunId != 0)
        return fail(tr("A run resumes in this process; start a new run to train it with several processes."));
    if (request.processes > 1 && CliRun::program().isEmpty())
        return fail(tr("Cannot run %1 processes: creditlab-cli is neither beside the workbench nor on PATH (or set "
                       "CREDITLAB_CLI).")
                        .arg(request.processes));
    if (m_running) {
        m_queue.push_back(request);
        Q_EMIT queueChanged(queuedCount());
        return true;
    }
    launch(request);
    return true;
}

void RunController::launch(const RunRequest& request)
{
    m_worker->reset();
    m_running = true;
    m_runId = 0;
    m_processes = std::max(1, request.processes);
    m_stopRequests = 0;
    Q_EMIT runningChanged(true);
    if (m_processes > 1) {
        QString error;
        if (!m_cli->start(request, &error))
            onWorkerEnded(0, RunStatus::Failed, error);
        return;
    }
    QMetaObject::invokeMethod(m_worker, [worker = m_worker, request] { worker->train(request); }, Qt::QueuedConnection);
}

QStringList RunController::queuedNames() const
{
    QStringList names;
    for (const RunRequest& request : m_queue)
        names.append(request.resumeRunId != 0 ? tr("resume run %1").arg(request.resumeRunId)
                : request.config                ? QString::fromStdString(request.config->runName())
                                                : QString());
    return names;
}

void RunController::clearQueue()
{
    if (m_queue.empty())
        return;
    m_queue.clear();
    Q_EMIT queueChanged(0);
}

void RunController::pause()
{
    if (m_running && !isExternal())
        m_worker->setPaused(true);
}

void RunController::resume() { m_worker->setPaused(false); }

void RunController::requestStop()
{
    if (!m_running)
        return;
    ++m_stopRequests;
    if (isExternal())
        m_cli->requestStop();
    else
        m_worker->requestStop();
}

void RunController::onWorkerStarted(qint64 runId, const QString& name)
{
    m_runId = runId;
    Q_EMIT runStarted(runId, name);
}

void RunController::onWorkerEnded(qint64 runId, RunStatus status, const QString& error)
{
    m_running = false;
    m_processes = 1;
    if (m_worker->isPaused())
        m_worker->setPaused(false);
    Q_EMIT runningChanged(false);
    if (status == RunStatus::Failed)
        Q_EMIT runFailed(runId, error);
    else
        Q_EMIT runFinished(runId, status);
    // A stopped run stops the queue too: the user asked for the machine back.
    if (status == RunStatus::Cancelled)
        clearQueue();
    if (!m_running && !m_queue.empty()) {
        const RunRequest next = m_queue.front();
        m_queue.erase(m_queue.begin());
        Q_EMIT queueChanged(queuedCount());
        launch(next);
    }
}

} // namespace creditlab::ui
