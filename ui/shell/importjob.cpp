#include "ui/shell/importjob.h"

#include "core/interchange/jsonltransfer.h"
#include "core/model/progress.h"
#include "core/storage/store.h"
#include "ui/common/textutil.h"

#include <QDir>
#include <QFileInfo>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>

namespace creditlab::ui {

namespace {

/// Runs on a pool thread: opens its own Store, imports, and returns a value.
ImportOutcome importOne(const QString& database, const QString& file, const QStringList& together,
    const ImportOptions& options, const ProgressCallback& progress)
{
    ImportOutcome outcome;
    outcome.file = file;
    try {
        Store store(database.toStdString());
        // The format (native, chat, ShareGPT/AgentGym, verl dump, step rows, a public log) is detected from the first
        // record unless the options name it or a mapping file.
        ImportResult result;
        if (together.isEmpty()) {
            result = importFile(store, file.toStdString(), options, progress);
        } else {
            std::vector<std::string> paths;
            for (const QString& f : together)
                paths.push_back(f.toStdString());
            const auto source = openTrajectorySources(paths, options);
            const QFileInfo first(together.front());
            result = importTrajectories(store, *source, first.absolutePath().toStdString(), progress,
                first.absoluteDir().dirName().toStdString());
        }
        outcome.status = ImportOutcome::Status::Imported;
        outcome.runId = result.runId;
        outcome.trajectories = result.trajectories;
        outcome.turns = result.turns;
        outcome.seconds = result.seconds;
    } catch (const Cancelled&) {
        outcome.status = ImportOutcome::Status::Cancelled;
    } catch (const std::exception& error) {
        // JsonlError and StoreError already name file, line and field.
        outcome.status = ImportOutcome::Status::Failed;
        outcome.message = toQString(error.what());
    } catch (...) {
        outcome.status = ImportOutcome::Status::Failed;
        outcome.message = ImportJob::tr("%1: unknown error").arg(file);
    }
    return outcome;
}

} // namespace

ImportJob::ImportJob(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<ImportProgress>();
    connect(&m_watcher, &QFutureWatcher<ImportOutcome>::finished, this, &ImportJob::onWorkerFinished);
}

ImportJob::~ImportJob()
{
    m_queue.clear();
    if (m_cancel)
        m_cancel->store(true);
    waitForWorker();
}

void ImportJob::start(const QString& databasePath, const QStringList& files, const ImportOptions& options)
{
    bool together = false;
    if (files.size() > 1) {
        try {
            together = isFilePerTrajectory(files.front().toStdString(), options);
        } catch (const std::exception&) {
            together = false; // the file's own import says what is wrong with it
        }
    }
    if (together) {
        const QString what = tr("%n files in %1", nullptr, static_cast<int>(files.size()))
                                 .arg(QFileInfo(files.front()).absolutePath());
        m_queue.push_back({ databasePath, what, options, files });
        m_fileCount += 1;
    } else {
        for (const QString& file : files)
            m_queue.push_back({ databasePath, file, options, {} });
        m_fileCount += static_cast<int>(files.size());
    }
    if (m_running || m_queue.empty())
        return;
    m_running = true;
    m_fileIndex = 0;
    Q_EMIT started(m_fileCount);
    startNext();
}

void ImportJob::cancel()
{
    m_queue.clear();
    if (m_cancel)
        m_cancel->store(true);
}

void ImportJob::waitForWorker()
{
    if (m_watcher.isRunning())
        m_watcher.waitForFinished();
}

void ImportJob::startNext()
{
    const Pending next = m_queue.front();
    m_queue.pop_front();
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    const quint64 generation = ++m_generation;

    ImportProgress base;
    base.fileIndex = m_fileIndex;
    base.fileCount = m_fileCount;
    base.file = next.file;
    Q_EMIT progressChanged(base);

    // Called on the worker thread, at most about every 100 ms (core throttles). It posts a value
    // to the GUI thread and answers whether to go on; `self` guards against a deleted job.
    QPointer<ImportJob> self(this);
    ProgressCallback progress = [self, cancel = m_cancel, base, generation](const Progress& p) {
        ImportProgress update = base;
        update.fraction = p.fraction();
        update.etaSeconds = p.etaSeconds();
        update.trajectories = p.items;
        update.turns = p.subItems;
        QMetaObject::invokeMethod(
            self.data(),
            [self, update, generation] {
                if (self && self->m_generation == generation && self->m_running)
                    Q_EMIT self->progressChanged(update);
            },
            Qt::QueuedConnection);
        return !cancel->load();
    };
    m_watcher.setFuture(QtConcurrent::run(importOne, next.database, next.file, next.together, next.options, progress));
}

void ImportJob::onWorkerFinished()
{
    const ImportOutcome outcome = m_watcher.result();
    switch (outcome.status) {
    case ImportOutcome::Status::Imported:
        Q_EMIT fileImported(outcome.runId, outcome.file, outcome.trajectories, outcome.turns, outcome.seconds);
        break;
    case ImportOutcome::Status::Failed:
        // The remaining files are not imported: the user fixes the file and starts again.
        m_queue.clear();
        Q_EMIT failed(outcome.file, outcome.message);
        break;
    case ImportOutcome::Status::Cancelled:
        m_queue.clear();
        Q_EMIT cancelled(outcome.file);
        break;
    }
    ++m_fileIndex;
    if (!m_queue.empty()) {
        startNext();
        return;
    }
    m_running = false;
    m_fileCount = 0;
    m_fileIndex = 0;
    ++m_generation;
    Q_EMIT finished();
}

} // namespace creditlab::ui
