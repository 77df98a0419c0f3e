#pragma once

#include "core/interchange/importformats.h"

#include <QFutureWatcher>
#include <QMetaType>
#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <deque>
#include <memory>

namespace creditlab::ui {

/// Progress of an import, as a value the GUI can show.
struct ImportProgress {
    int fileIndex = 0; ///< 0-based position of the current file in this batch
    int fileCount = 0;
    QString file;
    double fraction = 0.0; ///< of the current file, in [0, 1]
    double etaSeconds = -1.0; ///< for the current file; negative when unknown
    quint64 trajectories = 0;
    quint64 turns = 0;
};

/// What a worker hands back for one file: an immutable value snapshot.
struct ImportOutcome {
    enum class Status { Imported, Failed, Cancelled };
    Status status = Status::Failed;
    QString file;
    qint64 runId = 0;
    quint64 trajectories = 0;
    quint64 turns = 0;
    double seconds = 0.0;
    QString message; ///< for Failed: the error, naming file, line and field where core knows them
};

/// Imports JSONL files into a database in the background, one file after another, each in the format
/// detected from its first record (core/interchange/importformats.h: native, chat, ShareGPT/AgentGym, verl dumps, step
/// rows). Each file runs in QtConcurrent's pool with its own Store on the database path (one SQLite connection per
/// thread) and lands as one new run, or not at all. Progress arrives at most about every 100 ms.
/// Lives on the GUI thread; its signals are emitted there.
class ImportJob : public QObject {
    Q_OBJECT
public:
    explicit ImportJob(QObject* parent = nullptr);
    /// Cancels the running file and waits for its worker to end.
    ~ImportJob() override;

    /// Queues `files` for import into the database at `databasePath` and starts when idle. `options` name the
    /// format, a mapping file or template markers (File → Import with Options…); by default each file's format is
    /// detected. Each file is a run, except files of a format with one trajectory per file (SWE-agent's .traj,
    /// WebShop's sessions), which are one run named after their directory, as `creditlab-cli import` does.
    void start(const QString& databasePath, const QStringList& files, const ImportOptions& options = {});
    /// True from start() until finished().
    bool isRunning() const { return m_running; }
    /// Cancels the current file (rolled back) and drops the queued ones. Returns at once;
    /// cancelled() and finished() follow.
    void cancel();
    /// Blocks until the running worker ends (tests, shutdown). Does not process events.
    void waitForWorker();

Q_SIGNALS:
    void started(int fileCount);
    void progressChanged(const creditlab::ui::ImportProgress& progress);
    void fileImported(qint64 runId, const QString& file, quint64 trajectories, quint64 turns, double seconds);
    void failed(const QString& file, const QString& message);
    void cancelled(const QString& file);
    /// The queue is empty and nothing runs any more.
    void finished();

private:
    struct Pending {
        QString database;
        QString file; ///< the file, or what `together` are ("12 files in DIR")
        ImportOptions options;
        QStringList together; ///< files imported as one run (one trajectory each: SWE-agent .traj, WebShop sessions)
    };

    void startNext();
    void onWorkerFinished();

    std::deque<Pending> m_queue;
    QFutureWatcher<ImportOutcome> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    bool m_running = false;
    int m_fileIndex = 0;
    int m_fileCount = 0;
    quint64 m_generation = 0; ///< drops progress that a previous worker posted late
};

} // namespace creditlab::ui

Q_DECLARE_METATYPE(creditlab::ui::ImportProgress)
