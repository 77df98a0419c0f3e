#include "ui/sweeps/sweepcontroller.h"

#include "core/learn/api/backend.h"

#include <QThread>

#include <atomic>
#include <chrono>
#include <optional>

namespace creditlab::ui {

/// Lives on the controller's thread; its only state is the stop flag, which any thread may set.
class SweepWorker : public QObject {
public:
    std::atomic<bool> stop { false };
};

namespace {

/// The snapshot of a finished sweep, from its result.
SweepSnapshot finalSnapshot(const learn::SweepResult& result, double elapsedSeconds)
{
    auto p = std::make_shared<learn::SweepProgress>();
    p->sweepId = result.sweepId;
    p->trials = result.trials;
    p->total = static_cast<int>(result.trials.size());
    for (const auto& t : result.trials)
        p->done += hasEnded(t.status);
    p->elapsedSeconds = elapsedSeconds;
    p->etaSeconds = result.status == TrialStatus::Finished ? 0.0 : -1.0; // a stopped sweep's rest: unknown
    p->probeTablesDone = result.probeTablesDone;
    p->probeTablesTotal = result.probeTablesTotal;
    return p;
}

} // namespace

SweepController::SweepController(QObject* parent)
    : QObject(parent)
    , m_thread(new QThread(this))
    , m_worker(new SweepWorker)
{
    qRegisterMetaType<SweepSnapshot>();
    m_thread->setObjectName(QStringLiteral("sweep"));
    m_worker->moveToThread(m_thread);
    m_thread->start();
}

SweepController::~SweepController()
{
    m_worker->stop = true;
    m_thread->quit();
    m_thread->wait();
    delete m_worker;
}

bool SweepController::start(const SweepRequest& request, QString* error)
{
    const auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    if (m_running)
        return fail(tr("A sweep is already running."));
    if (request.database.isEmpty())
        return fail(tr("No database is open."));
    std::optional<learn::SweepSpec> spec;
    try {
        if (request.resumeSweepId == 0) {
            spec = learn::SweepSpec::parse(
                request.sweepText.toStdString(), request.source.toStdString(), request.baseDir.toStdString());
            if (request.workers > 0)
                spec->workers = request.workers;
            spec->checkResources();
        }
    } catch (const std::exception& e) {
        return fail(QString::fromStdString(e.what()));
    }
    learn::SweepOptions options;
    options.database = request.database.toStdString();
    options.device = request.device.toStdString();
    options.workers = request.workers;
    const qint64 resumeId = request.resumeSweepId;

    m_running = true;
    m_sweepId = resumeId;
    m_worker->stop = false;
    Q_EMIT runningChanged(true);
    // Runs on the worker thread; everything it reports is posted back to this (GUI-thread) object.
    QMetaObject::invokeMethod(
        m_worker,
        [this, spec, options, resumeId] {
            using Clock = std::chrono::steady_clock;
            const auto start = Clock::now();
            auto lastEmit = Clock::time_point {};
            std::vector<std::pair<TrialStatus, bool>> lastStatus;
            bool announced = false;
            // Serialized by the engine: one call at a time, so this state needs no lock.
            const auto callback = [&](const learn::SweepProgress& p) {
                if (!announced) {
                    announced = true;
                    QMetaObject::invokeMethod(
                        this,
                        [this, id = p.sweepId] {
                            m_sweepId = id;
                            Q_EMIT sweepStarted(id);
                        },
                        Qt::QueuedConnection);
                }
                std::vector<std::pair<TrialStatus, bool>> status;
                for (const auto& t : p.trials)
                    status.emplace_back(t.status, t.runId > 0);
                status.emplace_back(TrialStatus::Finished, p.probeTablesDone > 0); // a stored probe table shows too
                status.emplace_back(TrialStatus::Running, !p.probeActivity.empty());
                const auto now = Clock::now();
                if (status == lastStatus && now - lastEmit < std::chrono::milliseconds(100))
                    return;
                lastStatus = std::move(status);
                lastEmit = now;
                SweepSnapshot snapshot = std::make_shared<const learn::SweepProgress>(p);
                QMetaObject::invokeMethod(
                    this, [this, snapshot] { Q_EMIT progressed(snapshot); }, Qt::QueuedConnection);
            };
            TrialStatus status = TrialStatus::Failed;
            bool stoppedInSft = false;
            QString error;
            try {
                const learn::TrainingBackend& backend = learn::trainingBackend(); // opened on first use
                const auto result = resumeId > 0 ? backend.resumeSweep(resumeId, options, callback, &m_worker->stop)
                                                 : backend.runSweep(*spec, options, callback, &m_worker->stop);
                const auto snapshot
                    = finalSnapshot(result, std::chrono::duration<double>(Clock::now() - start).count());
                QMetaObject::invokeMethod(
                    this, [this, snapshot] { Q_EMIT progressed(snapshot); }, Qt::QueuedConnection);
                status = result.status;
                stoppedInSft = result.stoppedInSft;
            } catch (const std::exception& e) {
                error = QString::fromStdString(e.what());
            }
            QMetaObject::invokeMethod(
                this, [this, status, stoppedInSft, error] { onWorkerEnded(status, stoppedInSft, error); },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
    return true;
}

void SweepController::requestStop() { m_worker->stop = true; }

void SweepController::onWorkerEnded(TrialStatus status, bool stoppedInSft, const QString& error)
{
    m_running = false;
    m_stoppedInSft = stoppedInSft;
    Q_EMIT runningChanged(false);
    if (!error.isEmpty())
        Q_EMIT sweepFailed(error);
    else
        Q_EMIT sweepFinished(status);
}

} // namespace creditlab::ui
