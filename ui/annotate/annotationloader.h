#pragma once

#include "core/storage/humannote.h"
#include "core/storage/store.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <vector>

namespace creditlab::ui {

/// One trajectory of the annotated run as the Annotate page shows it: its turns (with credits), the judge labels and
/// every annotator's human labels and notes (flag, skip, comment).
struct AnnotationTrajectory {
    TrajectoryInfo info;
    Trajectory trajectory;
    std::vector<JudgeLabel> judge;
    std::vector<HumanLabel> human;
    std::vector<HumanNote> notes;
};

/// What one background load hands back: an immutable value snapshot of one run.
struct AnnotationData {
    qint64 runId = 0;
    std::vector<AnnotationTrajectory> trajectories; ///< in the store's order
    QString error; ///< set when the run could not be read (trajectories is then empty)
};

/// Adds the roles a judge gave in the imported file (turns with role_source "judge:<name>") to `t.judge` as that
/// judge's labels, where the store holds none of that judge for the turn: an imported run shows its judge too.
void addImportedJudgeRoles(AnnotationTrajectory& t);

/// Reads every trajectory of a run with its judge and human labels and notes in QtConcurrent's pool, with its own
/// read-only Store on the database path (one SQLite connection per thread, STYLE rule 9). A request made while a worker
/// runs tells it to stop, waits for it and then starts; a result older than the newest request is dropped (generation
/// counter), so only the newest request is ever reported. Lives on the GUI thread; emits there.
class AnnotationLoader : public QObject {
    Q_OBJECT
public:
    explicit AnnotationLoader(QObject* parent = nullptr);
    /// Cancels and waits for the running worker.
    ~AnnotationLoader() override;

    /// Requests run `runId` of the database at `databasePath`; replaces any earlier request.
    void load(const QString& databasePath, qint64 runId);
    /// Drops the pending request and any result still to come.
    void cancel();
    /// True from a request until its answer is emitted (or it is cancelled).
    bool isBusy() const { return m_awaiting; }
    /// Blocks until the running worker ends (shutdown); does not process events.
    void waitForWorker();

Q_SIGNALS:
    /// The newest request finished (also with an error, see AnnotationData::error).
    void loaded(std::shared_ptr<const creditlab::ui::AnnotationData> data);

private:
    struct Outcome {
        quint64 generation = 0;
        std::shared_ptr<const AnnotationData> data;
    };

    void startWorker();
    void onWorkerFinished();

    QFutureWatcher<Outcome> m_watcher;
    QString m_path;
    qint64 m_runId = 0;
    bool m_pending = false; ///< a request waits for the running worker to end
    bool m_awaiting = false; ///< the newest request is not answered yet
    quint64 m_generation = 0; ///< of the newest request; a worker's outcome carries the one it started with
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

} // namespace creditlab::ui
