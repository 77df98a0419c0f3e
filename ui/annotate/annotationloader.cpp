#include "ui/annotate/annotationloader.h"

#include "ui/common/textutil.h"

#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <exception>

namespace creditlab::ui {

AnnotationLoader::AnnotationLoader(QObject* parent)
    : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &AnnotationLoader::onWorkerFinished);
}

AnnotationLoader::~AnnotationLoader()
{
    cancel();
    waitForWorker();
}

void AnnotationLoader::load(const QString& databasePath, qint64 runId)
{
    m_path = databasePath;
    m_runId = runId;
    ++m_generation;
    m_pending = true;
    m_awaiting = true;
    if (m_cancel)
        m_cancel->store(true); // the running worker's result is stale now: let it stop early
    if (!m_watcher.isRunning())
        startWorker();
}

void AnnotationLoader::cancel()
{
    m_pending = false;
    m_awaiting = false;
    ++m_generation;
    if (m_cancel)
        m_cancel->store(true);
}

void AnnotationLoader::waitForWorker()
{
    if (m_watcher.isRunning())
        m_watcher.waitForFinished();
}

void addImportedJudgeRoles(AnnotationTrajectory& t)
{
    for (std::size_t i = 0; i < t.trajectory.turns.size(); ++i) {
        const Turn& turn = t.trajectory.turns[i];
        if (!turn.role || !turn.roleSource || turn.roleSource->rfind("judge:", 0) != 0)
            continue;
        const std::string judge = turn.roleSource->substr(6);
        const bool stored = std::any_of(t.judge.begin(), t.judge.end(),
            [&](const JudgeLabel& l) { return l.turn == static_cast<int>(i) && l.judge == judge; });
        if (!stored)
            t.judge.push_back(JudgeLabel { t.info.rowId, static_cast<int>(i), judge, *turn.role, turn.score,
                std::nullopt, std::string() });
    }
}

void AnnotationLoader::startWorker()
{
    m_pending = false;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    // Runs on a pool thread: its own Store, values only.
    const auto work = [path = m_path, runId = m_runId, generation = m_generation, cancel = m_cancel]() {
        auto data = std::make_shared<AnnotationData>();
        data->runId = runId;
        try {
            Store store(path.toStdString(), Store::Access::ReadOnly);
            for (const TrajectoryInfo& info : store.trajectories(runId)) {
                if (cancel->load())
                    break; // stale: nobody will look at this result
                AnnotationTrajectory t { info, store.loadTrajectory(info.rowId), store.judgeLabels(info.rowId),
                    store.humanLabels(info.rowId), humanNotes(store, info.rowId) };
                addImportedJudgeRoles(t);
                data->trajectories.push_back(std::move(t));
            }
        } catch (const std::exception& error) {
            data->trajectories.clear();
            data->error = toQString(error.what());
        }
        return Outcome { generation, std::move(data) };
    };
    m_watcher.setFuture(QtConcurrent::run(work));
}

void AnnotationLoader::onWorkerFinished()
{
    const Outcome outcome = m_watcher.result();
    if (outcome.generation == m_generation) {
        m_awaiting = false;
        Q_EMIT loaded(outcome.data);
        return;
    }
    if (m_pending)
        startWorker(); // a newer request came in meanwhile; this result is stale
}

} // namespace creditlab::ui
