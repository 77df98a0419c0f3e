#include "ui/launch/trainworker.h"

#include "core/learn/api/backend.h"
#include "core/storage/store.h"
#include "ui/common/textutil.h"
#include "ui/launch/progressthrottle.h"

#include <spdlog/spdlog.h>

#include <exception>

namespace creditlab::ui {

namespace {

std::shared_ptr<spdlog::logger> logger()
{
    static auto log = [] {
        auto existing = spdlog::get("run");
        return existing ? existing : spdlog::default_logger()->clone("run");
    }();
    return log;
}

RunProgress toSnapshot(qint64 runId, const learn::TrainProgress& p)
{
    RunProgress out;
    out.runId = runId;
    out.phase = p.phase;
    out.iteration = p.iteration;
    out.iterations = p.iterations;
    out.step = p.step;
    out.steps = p.steps;
    out.elapsedSeconds = p.elapsedSeconds;
    out.etaSeconds = p.etaSeconds;
    out.metrics.reserve(p.metrics.size());
    for (const auto& [name, value] : p.metrics)
        out.metrics.emplace_back(toQString(name), value);
    out.message = toQString(p.message);
    return out;
}

double metricOr(const learn::TrainProgress& p, std::string_view name, double fallback)
{
    for (const auto& [key, value] : p.metrics)
        if (key == name)
            return value;
    return fallback;
}

} // namespace

TrainWorker::TrainWorker(QObject* parent)
    : QObject(parent)
{
}

void TrainWorker::setPaused(bool paused)
{
    {
        std::lock_guard lock(m_mutex);
        m_paused = paused;
    }
    m_wake.notify_all();
}

void TrainWorker::requestStop()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
}

void TrainWorker::reset()
{
    std::lock_guard lock(m_mutex);
    m_stop = false;
    m_paused = false;
}

void TrainWorker::waitWhilePaused(const std::string& database, qint64 runId)
{
    std::unique_lock lock(m_mutex);
    if (!m_paused || m_stop)
        return;
    lock.unlock();
    // A second connection on this thread: the trainer's own is idle between iterations.
    const auto mark = [&](RunStatus status) {
        try {
            Store(database).setRunStatus(runId, status);
        } catch (const std::exception& e) {
            logger()->warn("run {}: could not mark it {}: {}", runId, runStatusName(status), e.what());
        }
    };
    mark(RunStatus::Paused);
    logger()->info("run {} paused", runId);
    Q_EMIT pausedChanged(true);
    lock.lock();
    m_wake.wait(lock, [this] { return !m_paused || m_stop; });
    lock.unlock();
    mark(RunStatus::Running);
    logger()->info("run {} {}", runId, m_stop ? "stopping" : "resumed");
    Q_EMIT pausedChanged(false);
}

void TrainWorker::train(const RunRequest& request)
{
    qint64 runId = request.resumeRunId;
    const std::string database = request.database.toStdString();
    try {
        learn::TrainOptions options { database, request.device.toStdString() };
        // The training module (LibTorch) is opened on first use; usually it is loaded already.
        const learn::TrainingBackend& backend = learn::trainingBackend();
        std::unique_ptr<learn::TrainingRun> trainer;
        if (request.resumeRunId != 0) {
            trainer = backend.resume(request.resumeRunId, options, request.overrides);
        } else {
            trainer = backend.create(*request.config, options); // parsed and validated by the request's maker
        }
        runId = trainer->runId();
        const QString name = toQString(trainer->runName());
        logger()->info("run {} ({}) {} on {}: {} parameters", runId, trainer->runName(),
            request.resumeRunId ? "resumed" : "started", trainer->device(), trainer->parameterCount());
        Q_EMIT started(runId, name);

        // At most about every 100 ms within a phase, but never a report that changes the Monitor's phase line.
        ProgressThrottle throttle;
        const auto callback = [&](const learn::TrainProgress& p) {
            const bool iterationDone = p.phase == Phase::Rl && !p.metrics.empty();
            if (throttle.admit(p.phase, !p.metrics.empty(), ProgressThrottle::Clock::now()))
                Q_EMIT progressed(toSnapshot(runId, p));
            if (iterationDone)
                logger()->info("run {} iteration {}/{}: success {:.3f}, eval {}, kl {:.4f}, {:.1f} s", runId,
                    p.iteration, p.iterations, metricOr(p, metricnames::kRolloutSuccess, 0.0),
                    metricOr(p, metricnames::kEvalSuccess, -1.0) < 0 ? std::string("–")
                                                          : fmt::format("{:.3f}", metricOr(p, metricnames::kEvalSuccess, 0.0)),
                    metricOr(p, metricnames::kTrainKl, 0.0), metricOr(p, metricnames::kTimeTotal, 0.0));
            waitWhilePaused(database, runId);
            return !m_stop.load();
        };
        const learn::TrainResult result = trainer->run(callback, &m_stop);
        logger()->info("run {} {} after {} iterations", runId, runStatusName(result.status), result.iterationsDone);
        Q_EMIT ended(runId, result.status, {});
    } catch (const std::exception& e) {
        logger()->error("run {} failed: {}", runId, e.what());
        Q_EMIT ended(runId, RunStatus::Failed, toQString(e.what()));
    }
}

} // namespace creditlab::ui
