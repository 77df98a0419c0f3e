#pragma once

#include "core/learn/api/backend.h"

#include <QFutureWatcher>
#include <QMetaType>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

namespace creditlab::ui {

/// Where a probe computation is, as a snapshot for the GUI thread.
struct ProbeJobProgress {
    QString phase; ///< "data", "features" or "fit"
    qint64 done = 0; ///< of `total` in the phase
    qint64 total = 0;
    double fraction = 0.0; ///< of the whole computation, 0..1
    double elapsedSeconds = 0.0;
    double etaSeconds = -1.0; ///< negative while unknown
};

/// How a probe computation ended.
struct ProbeJobResult {
    enum class Status { Finished, Cancelled, Failed };
    Status status = Status::Failed;
    QString error; ///< the engine's message, when Failed
    learn::ProbeTable table; ///< empty unless Finished
};

/// Computes PAIR's AUROC table (TrainingBackend::probeTable) on a thread-pool thread: opens the training module
/// when needed, sends progress at most every 100 ms, and cancels through an atomic flag that the engine's callback
/// reads. One computation at a time. The object lives on the GUI thread; its destructor cancels and waits.
class ProbeJob : public QObject {
    Q_OBJECT
public:
    explicit ProbeJob(QObject* parent = nullptr);
    ~ProbeJob() override;

    /// Starts a computation; false when one is running. GUI thread.
    bool start(const learn::ProbeSource& source, const learn::ProbeDataOptions& options);
    /// Asks the running computation to stop; finished() follows with Status::Cancelled. GUI thread.
    void cancel();
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    /// GUI thread.
    void progressed(const creditlab::ui::ProbeJobProgress& progress);
    /// GUI thread; once per start().
    void finished(const creditlab::ui::ProbeJobResult& result);

private:
    void onFinished();

    /// Shared with the worker, which may outlive nothing: the destructor waits for it.
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QFutureWatcher<ProbeJobResult>* m_watcher;
    bool m_running = false;
};

/// Status names for logs and tests: "finished", "cancelled", "failed". Any thread.
QString probeJobStatusName(ProbeJobResult::Status status);

} // namespace creditlab::ui

Q_DECLARE_METATYPE(creditlab::ui::ProbeJobProgress)
Q_DECLARE_METATYPE(creditlab::ui::ProbeJobResult)
