#pragma once

#include "core/learn/api/sweep.h"

#include <QMetaType>
#include <QObject>
#include <QString>

#include <memory>

class QThread;

namespace creditlab::ui {

class SweepWorker;

/// What to sweep: a sweep file's text, or the continuation of a stored sweep.
struct SweepRequest {
    QString database; ///< the store the sweep and its trial runs are written to
    QString sweepText; ///< YAML, as `creditlab-cli sweep --config` reads it (new sweeps)
    QString source = QStringLiteral("sweep"); ///< named in errors (the file path when there is one)
    QString baseDir; ///< where a relative `base:` is looked for first
    QString device; ///< as TrainOptions::device; empty: CUDA when present
    int workers = 0; ///< overrides the file's `workers` when > 0
    qint64 resumeSweepId = 0; ///< non-zero: run this stored sweep's pending and stopped trials instead
};

/// An immutable progress snapshot, shared rather than copied between the threads.
using SweepSnapshot = std::shared_ptr<const learn::SweepProgress>;

/// Runs one sweep at a time on its own QThread (STYLE rules 5–8): the worker takes the request through a
/// queued call and blocks in learn::runSweep, whose trials run on their own threads; stop is an atomic flag
/// read by every trial between iterations; progress snapshots are throttled to ~10 per second at the source
/// (plus every change of a trial's status) and arrive through queued signals. Lives on the GUI thread;
/// destroying it stops a running sweep after the trials' current iterations and waits for the thread.
class SweepController : public QObject {
    Q_OBJECT
public:
    explicit SweepController(QObject* parent = nullptr);
    ~SweepController() override;

    bool isRunning() const { return m_running; }
    /// The sweep being run (or the last one run); 0 before its row exists.
    qint64 sweepId() const { return m_sweepId; }

    /// Validates the request (the sweep file, every trial's config, workers × threads against the cores) and
    /// starts it on the worker thread. Returns false with the reason in `error` (naming the file, line and key
    /// or the trial) when a sweep is already running or the request is invalid; nothing is written then.
    bool start(const SweepRequest& request, QString* error = nullptr);
    /// Stops the running trials after their current iteration (resumable); pending trials stay pending.
    void requestStop();
    /// The last sweep ended Cancelled during an experiment's shared SFT, before any trial (resumable).
    bool stoppedInSft() const { return m_stoppedInSft; }

Q_SIGNALS:
    /// The sweep's row exists; emitted once per start.
    void sweepStarted(qint64 sweepId);
    void progressed(const creditlab::ui::SweepSnapshot& snapshot);
    /// The sweep ended: Finished (every trial), Cancelled (stopped; resumable) or Failed (some trial failed).
    void sweepFinished(creditlab::TrialStatus status);
    /// The sweep could not run at all (e.g. the database could not be written).
    void sweepFailed(const QString& message);
    void runningChanged(bool running);

private:
    void onWorkerEnded(creditlab::TrialStatus status, bool stoppedInSft, const QString& error);

    QThread* m_thread;
    SweepWorker* m_worker;
    bool m_running = false;
    qint64 m_sweepId = 0;
    bool m_stoppedInSft = false;
};

} // namespace creditlab::ui

Q_DECLARE_METATYPE(creditlab::ui::SweepSnapshot)
