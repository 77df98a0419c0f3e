#include "ui/compare/compareloader.h"

#include "core/storage/store.h"
#include "ui/common/textutil.h"

#include <QtConcurrent/QtConcurrentRun>

#include <exception>

namespace creditlab::ui {

CompareLoader::CompareLoader(QObject* parent)
    : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &CompareLoader::onWorkerFinished);
}

CompareLoader::~CompareLoader()
{
    cancel();
    waitForWorker();
}

void CompareLoader::load(const QString& databasePath, const QList<qint64>& runIds)
{
    m_request = { databasePath, runIds, databasePath == m_lastPath ? m_last : nullptr };
    ++m_generation;
    m_pending = true;
    if (m_cancel)
        m_cancel->store(true); // the running worker's result is stale now: let it stop early
    if (!m_watcher.isRunning())
        startWorker();
}

void CompareLoader::cancel()
{
    m_pending = false;
    m_last.reset(); // the database may be replaced next: read everything again
    m_lastPath.clear();
    ++m_generation;
    if (m_cancel)
        m_cancel->store(true);
}

void CompareLoader::waitForWorker()
{
    if (m_watcher.isRunning())
        m_watcher.waitForFinished();
}

void CompareLoader::startWorker()
{
    m_pending = false;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    // Runs on a pool thread: its own Store, values only.
    const auto work = [request = m_request, generation = m_generation, cancel = m_cancel]() {
        auto data = std::make_shared<CompareData>();
        try {
            Store store(request.databasePath.toStdString(), Store::Access::ReadOnly);
            for (const qint64 runId : request.runIds) {
                if (cancel->load())
                    break;
                const compare::RunSeries* previous = nullptr;
                if (request.previous)
                    for (const auto& run : request.previous->runs)
                        if (run.runId == runId)
                            previous = &run;
                if (auto series = compare::readRunSeries(store, runId, previous))
                    data->runs.push_back(std::move(*series));
                else
                    data->missing << runId;
            }
        } catch (const std::exception& error) {
            data->runs.clear();
            data->error = toQString(error.what());
        }
        return Outcome { generation, std::move(data) };
    };
    m_watcher.setFuture(QtConcurrent::run(work));
}

void CompareLoader::onWorkerFinished()
{
    const Outcome outcome = m_watcher.result();
    if (outcome.generation == m_generation) {
        if (outcome.data->error.isEmpty()) {
            m_last = outcome.data;
            m_lastPath = m_request.databasePath;
        }
        Q_EMIT loaded(outcome.data);
        return;
    }
    if (m_pending)
        startWorker(); // a newer request came in meanwhile; this result is stale
}

} // namespace creditlab::ui
