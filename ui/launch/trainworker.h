#pragma once

#include "ui/launch/runcontroller.h"

#include <QObject>

#include <atomic>
#include <condition_variable>
#include <mutex>

namespace creditlab::ui {

/// The worker half of RunController: lives on the controller's thread and trains there (the Trainer is
/// constructed and run on that thread: LibTorch's thread-local state and the store connection belong to it).
/// Its flags are set from the GUI thread.
class TrainWorker : public QObject {
    Q_OBJECT
public:
    explicit TrainWorker(QObject* parent = nullptr);

    /// Worker thread (queued from the controller). Returns when the run ends.
    void train(const creditlab::ui::RunRequest& request);

    /// Any thread.
    void setPaused(bool paused);
    bool isPaused() const { return m_paused.load(); }
    void requestStop();
    /// Clears the stop and pause flags before a new run. GUI thread, while idle.
    void reset();

Q_SIGNALS:
    void started(qint64 runId, const QString& name);
    void progressed(const creditlab::ui::RunProgress& progress);
    void pausedChanged(bool paused);
    /// `status` is "finished", "cancelled" or "failed" (with `error`).
    void ended(qint64 runId, creditlab::RunStatus status, const QString& error);

private:
    /// Blocks while paused (worker thread), marking the run "paused" in the store meanwhile.
    void waitWhilePaused(const std::string& database, qint64 runId);

    std::atomic<bool> m_stop { false };
    std::atomic<bool> m_paused { false };
    std::mutex m_mutex;
    std::condition_variable m_wake;
};

} // namespace creditlab::ui
