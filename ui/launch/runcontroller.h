#pragma once

#include "core/learn/api/trainconfig.h"
#include "core/model/vocabulary.h"

#include <QMetaType>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QThread;

namespace creditlab::ui {

class CliRun;
class TrainWorker;

/// What to train: a new run from a config, or the continuation of a stored run.
struct RunRequest {
    QString database; ///< the store the run is written to
    /// A new run's config, parsed and validated once by whoever built the request (the launcher's preview); the
    /// controller and the worker use it as it is.
    std::optional<learn::TrainConfig> config;
    QString device; ///< "cpu", "cuda", "cuda:N"; empty: CUDA when present
    qint64 resumeRunId = 0; ///< non-zero: continue this run from its last checkpoint instead
    std::vector<std::pair<std::string, std::string>> overrides; ///< `--set` pairs (for resume: resumable keys only)
    /// Data-parallel ranks on this machine. 1: in this process, on the training thread; more (a new run only):
    /// `creditlab-cli train --nproc N` as a child process, followed through the database (CliRun).
    int processes = 1;
};

/// A snapshot of a run's progress (a value; crosses threads through queued signals).
struct RunProgress {
    qint64 runId = 0;
    Phase phase = Phase::Sft; ///< Sft, Eval, Rl or Waiting (the trainer's); each new phase is reported once
    qint64 iteration = 0; ///< the RL iteration just finished (0 during and right after SFT)
    qint64 iterations = 0;
    qint64 step = 0; ///< within the phase
    qint64 steps = 0;
    double elapsedSeconds = 0.0; ///< in this phase
    double etaSeconds = -1.0; ///< for this phase; negative when unknown
    std::vector<std::pair<QString, double>> metrics; ///< of the iteration just finished, else empty
    QString message;
};

/// Runs one training run at a time on its own QThread (STYLE rules 5–8): the worker takes the request through
/// a queued call, pause and stop are atomic flags read between SFT steps and iterations (the worker's event
/// loop is busy while it trains), progress arrives throttled to ~10 per second at the source plus every report that
/// changes the Monitor's phase line (a new phase, a finished iteration, SFT's summary: ProgressThrottle). A request
/// with more than one process runs as `creditlab-cli train --nproc N` instead (CliRun): no progress reports and no
/// pause; the Monitor reads that run from the database. Lives on the GUI thread; destroying it stops a running run
/// after its current step and waits for the thread (or the process).
class RunController : public QObject {
    Q_OBJECT
public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;

    bool isRunning() const { return m_running; }
    bool isPaused() const;
    /// The running run's processes: 1 in this process (or none running), N for `creditlab-cli train --nproc N`.
    int processes() const { return m_running ? m_processes : 1; }
    /// Whether the running run is a child process, which reports through the database rather than progressed().
    bool isExternal() const { return processes() > 1; }
    /// How many times Stop was asked of the running run (a child process: the second one terminates it).
    int stopRequests() const { return m_stopRequests; }
    /// The run being trained; 0 before its row exists.
    qint64 runId() const { return m_runId; }

    /// Starts `request` on the worker thread, or queues it behind the run that is training (runs take the machine's
    /// cores one after another). Returns false with the reason in `error` when the config does not validate (the
    /// message names the source, line and key) or there is no database.
    bool start(const RunRequest& request, QString* error = nullptr);
    /// Runs waiting for the current one to end.
    int queuedCount() const { return static_cast<int>(m_queue.size()); }
    /// The waiting runs' names in start order: a new run's name, or "resume run N".
    QStringList queuedNames() const;
    /// Drops the waiting runs (the training one goes on).
    void clearQueue();
    /// Pauses after the current SFT step or iteration (the run's status becomes "paused"); resume() continues.
    void pause();
    void resume();
    /// Stops after the current SFT step or iteration, with a checkpoint to resume from. Also ends a pause. A child
    /// process gets SIGINT (its ranks stop after the current iteration); asked again, SIGTERM (they quit at once).
    void requestStop();

Q_SIGNALS:
    /// The run's row exists (its id and name); emitted once per start.
    void runStarted(qint64 runId, const QString& name);
    void progressed(const creditlab::ui::RunProgress& progress);
    void pausedChanged(bool paused);
    /// The run ended: Finished or Cancelled (stopped; resumable).
    void runFinished(qint64 runId, creditlab::RunStatus status);
    /// The run could not start or failed; `runId` is 0 when no row was created.
    void runFailed(qint64 runId, const QString& message);
    void runningChanged(bool running);
    /// The number of waiting runs changed.
    void queueChanged(int count);

private:
    void onWorkerStarted(qint64 runId, const QString& name);
    void onWorkerEnded(qint64 runId, creditlab::RunStatus status, const QString& error);
    void launch(const RunRequest& request);

    QThread* m_thread;
    TrainWorker* m_worker;
    CliRun* m_cli;
    bool m_running = false;
    int m_processes = 1; ///< of the running run
    int m_stopRequests = 0;
    qint64 m_runId = 0;
    std::vector<RunRequest> m_queue;
};

} // namespace creditlab::ui

Q_DECLARE_METATYPE(creditlab::ui::RunRequest)
Q_DECLARE_METATYPE(creditlab::ui::RunProgress)
