#pragma once

#include "ui/compare/compareseries.h"

#include <QFutureWatcher>
#include <QList>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <vector>

namespace creditlab::ui {

/// What one background load hands back: an immutable value snapshot.
struct CompareData {
    std::vector<compare::RunSeries> runs; ///< in the requested order, without the missing ones
    QList<qint64> missing; ///< requested runs the database no longer has
    QString error; ///< set when the database could not be read at all (runs is then empty)
};

/// Loads the metrics and configs of the compared runs in QtConcurrent's pool, with its own read-only
/// Store on the database path (one SQLite connection per thread, STYLE rule 9). A load requested while
/// one runs waits for it and then starts; a result older than the latest request is dropped (generation
/// counter), so only the newest request is ever reported. Reloads are incremental: a run already delivered from the
/// same database is read from its last iteration on (compare::readRunSeries). Lives on the GUI thread; emits there.
class CompareLoader : public QObject {
    Q_OBJECT
public:
    explicit CompareLoader(QObject* parent = nullptr);
    /// Cancels and waits for the running worker.
    ~CompareLoader() override;

    /// Requests the runs `runIds` of the database at `databasePath`; replaces any earlier request.
    void load(const QString& databasePath, const QList<qint64>& runIds);
    /// Drops the pending request and any result still to come.
    void cancel();
    /// True while a worker runs.
    bool isRunning() const { return m_watcher.isRunning(); }
    /// Blocks until the running worker ends (tests, shutdown); does not process events.
    void waitForWorker();

Q_SIGNALS:
    /// The newest request finished.
    void loaded(std::shared_ptr<const creditlab::ui::CompareData> data);

private:
    struct Request {
        QString databasePath;
        QList<qint64> runIds;
        std::shared_ptr<const CompareData> previous; ///< the last delivered result on this database, if any
    };
    struct Outcome {
        quint64 generation = 0;
        std::shared_ptr<const CompareData> data;
    };

    void startWorker();
    void onWorkerFinished();

    QFutureWatcher<Outcome> m_watcher;
    Request m_request;
    bool m_pending = false;
    quint64 m_generation = 0; ///< of the newest request; a worker's outcome carries the one it started with
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::shared_ptr<const CompareData> m_last; ///< the last result delivered, from m_lastPath
    QString m_lastPath;
};

} // namespace creditlab::ui
