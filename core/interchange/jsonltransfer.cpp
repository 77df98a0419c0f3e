#include "core/interchange/jsonltransfer.h"

#include "core/interchange/jsonl.h"
#include "core/interchange/jsonlfile.h"
#include "core/storage/atomicfile.h"
#include "core/storage/store.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <filesystem>
#include <mutex>
#include <thread>

namespace creditlab {

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kProgressInterval = std::chrono::milliseconds(100);
constexpr std::size_t kChunkTrajectories = 256;
constexpr std::size_t kMaxQueuedChunks = 16;

struct Chunk {
    std::vector<Trajectory> trajectories;
    std::uint64_t bytesRead = 0;
};

/// Bounded hand-over from the parsing thread to the writing thread. Parsing (JSON) and writing
/// (SQLite) each take about half the time per turn, so on two cores they overlap.
class ChunkQueue {
public:
    /// Producer: blocks while full; false when the consumer gave up.
    bool push(Chunk&& chunk)
    {
        std::unique_lock lock(m_mutex);
        m_notFull.wait(lock, [&] { return m_queue.size() < kMaxQueuedChunks || m_abandoned; });
        if (m_abandoned)
            return false;
        m_queue.push_back(std::move(chunk));
        m_notEmpty.notify_one();
        return true;
    }
    void finish(std::exception_ptr error)
    {
        std::lock_guard lock(m_mutex);
        m_finished = true;
        m_error = error;
        m_notEmpty.notify_one();
    }
    enum class Popped { Chunk, End, Timeout };
    /// Consumer: waits up to `timeout` for a chunk; End at the end; rethrows the producer's error.
    Popped pop(Chunk& out, std::chrono::milliseconds timeout)
    {
        std::unique_lock lock(m_mutex);
        if (!m_notEmpty.wait_for(lock, timeout, [&] { return !m_queue.empty() || m_finished; }))
            return Popped::Timeout;
        if (m_queue.empty()) {
            if (m_error)
                std::rethrow_exception(m_error);
            return Popped::End;
        }
        out = std::move(m_queue.front());
        m_queue.pop_front();
        m_notFull.notify_one();
        return Popped::Chunk;
    }
    /// Consumer: hands a written chunk back so the producer can reuse its memory.
    void recycle(Chunk&& chunk)
    {
        std::lock_guard lock(m_mutex);
        if (m_free.size() < kMaxQueuedChunks + 2)
            m_free.push_back(std::move(chunk));
    }
    /// Producer: a recycled chunk, or a new one.
    Chunk fresh()
    {
        std::lock_guard lock(m_mutex);
        if (m_free.empty())
            return Chunk {};
        Chunk c = std::move(m_free.back());
        m_free.pop_back();
        return c;
    }
    void abandon()
    {
        std::lock_guard lock(m_mutex);
        m_abandoned = true;
        m_notFull.notify_all();
    }
    bool abandoned()
    {
        std::lock_guard lock(m_mutex);
        return m_abandoned;
    }
    /// Bytes a reading-ahead source has read before its first chunk (TrajectorySource::setReadAheadProgress).
    std::atomic<std::uint64_t> readAhead { 0 };

private:
    std::mutex m_mutex;
    std::condition_variable m_notEmpty;
    std::condition_variable m_notFull;
    std::deque<Chunk> m_queue;
    std::vector<Chunk> m_free;
    bool m_finished = false;
    bool m_abandoned = false;
    std::exception_ptr m_error;
};

/// Calls the progress callback at most every kProgressInterval (and always at the end).
class ProgressThrottle {
public:
    explicit ProgressThrottle(const ProgressCallback& cb)
        : m_cb(cb)
    {
    }
    void report(Progress p, bool force = false)
    {
        if (!m_cb)
            return;
        const auto now = Clock::now();
        if (!force && now - m_last < kProgressInterval)
            return;
        m_last = now;
        p.elapsedSeconds = std::chrono::duration<double>(now - m_start).count();
        if (!m_cb(p))
            throw Cancelled();
    }
    double elapsed() const { return std::chrono::duration<double>(Clock::now() - m_start).count(); }

private:
    const ProgressCallback& m_cb;
    Clock::time_point m_start = Clock::now();
    Clock::time_point m_last = Clock::now();
};

/// Turns foreign-key enforcement off for its lifetime (outside any transaction, as SQLite requires).
class ForeignKeysOff {
public:
    explicit ForeignKeysOff(Database& db)
        : m_db(db)
    {
        m_db.exec("PRAGMA foreign_keys = OFF");
    }
    ~ForeignKeysOff()
    {
        try {
            m_db.exec("PRAGMA foreign_keys = ON");
        } catch (...) {
        }
    }

private:
    Database& m_db;
};

} // namespace

ImportResult importJsonl(
    Store& store, const std::string& path, const ProgressCallback& progress, const std::string& runName)
{
    ImportOptions options;
    options.format = ImportFormat::Native;
    return importFile(store, path, options, progress, runName);
}

ImportResult importFile(Store& store, const std::string& path, const ImportOptions& options,
    const ProgressCallback& progress, const std::string& runName)
{
    // Open before the transaction so that a missing file fails fast with its own message.
    const std::unique_ptr<TrajectorySource> source = openTrajectorySource(path, options);
    return importTrajectories(store, *source, path, progress, runName);
}

ImportResult importTrajectories(Store& store, TrajectorySource& source, const std::string& path,
    const ProgressCallback& progress, const std::string& runName)
{
    TrajectorySource* reader = &source;
    const std::uint64_t total = reader->size();
    ProgressThrottle throttle(progress);

    // The importer inserts each turn right after its trajectory, in this transaction, so the
    // per-row foreign-key lookups (a quarter of the insert time) prove nothing; skip them here.
    ForeignKeysOff fkOff(store.database());
    auto tx = store.begin();
    NewRun run;
    run.name = runName.empty() ? std::filesystem::path(path).filename().string() : runName;
    run.kind = RunKind::Import;
    std::error_code ec;
    const auto absolute = std::filesystem::absolute(path, ec);
    run.source = ec ? path : absolute.string();
    run.sourceFormat = source.formatName().empty() ? std::nullopt : std::optional<std::string>(source.formatName());
    ImportResult result;
    result.format = source.formatName();
    result.runId = store.createRun(run);

    // The source must not keep calling into this function's queue once it returns.
    struct ForgetReadAhead {
        TrajectorySource& s;
        ~ForgetReadAhead() { s.setReadAheadProgress({}); }
    } forgetReadAhead { source };
    ChunkQueue queue;
    // A source that reads the whole file before its first trajectory (step rows) reports how far it got, so
    // that progress moves and cancel works meanwhile; it stops when the queue is abandoned.
    // (Set before the parser thread starts: it calls this.)
    source.setReadAheadProgress([&queue](std::uint64_t bytes) {
        queue.readAhead.store(bytes, std::memory_order_relaxed);
        return !queue.abandoned();
    });
    std::thread parser([&queue, r = reader] {
        try {
            // Trajectories are parsed into recycled objects: freeing on the writer thread what the
            // parser thread allocated made the two threads fight over malloc's arena locks.
            Chunk chunk = queue.fresh();
            std::size_t n = 0;
            for (;;) {
                if (n == chunk.trajectories.size())
                    chunk.trajectories.emplace_back();
                if (!r->next(chunk.trajectories[n]))
                    break;
                if (++n == kChunkTrajectories) {
                    chunk.bytesRead = r->bytesRead();
                    if (!queue.push(std::move(chunk)))
                        return;
                    chunk = queue.fresh();
                    n = 0;
                }
            }
            chunk.trajectories.resize(n);
            chunk.bytesRead = r->bytesRead();
            if (n > 0 && !queue.push(std::move(chunk)))
                return;
            queue.finish(nullptr);
        } catch (...) {
            queue.finish(std::current_exception());
        }
    });
    struct Join {
        ChunkQueue& q;
        std::thread& t;
        ~Join()
        {
            q.abandon();
            t.join();
        }
    } join { queue, parser };

    Chunk chunk;
    std::int64_t ord = 0;
    for (;;) {
        const auto popped = queue.pop(chunk, kProgressInterval);
        if (popped == ChunkQueue::Popped::End)
            break;
        if (popped == ChunkQueue::Popped::Timeout) {
            if (result.trajectories == 0)
                throttle.report(Progress { queue.readAhead.load(std::memory_order_relaxed), total, 0, 0, 0.0 });
            continue;
        }
        for (const Trajectory& t : chunk.trajectories) {
            store.insertTrajectory(result.runId, ord++, t);
            result.turns += t.turns.size();
        }
        result.trajectories += chunk.trajectories.size();
        const std::uint64_t bytesRead = chunk.bytesRead;
        queue.recycle(std::move(chunk));
        throttle.report(Progress { bytesRead, total, result.trajectories, result.turns, 0.0 });
    }
    if (result.trajectories == 0)
        throw std::runtime_error(path + ": holds no trajectories; nothing imported");
    throttle.report(Progress { total, total, result.trajectories, result.turns, 0.0 }, true);
    tx->commit();
    result.seconds = throttle.elapsed();
    return result;
}

ExportResult exportJsonl(Store& store, std::int64_t runId, std::optional<std::int64_t> iteration,
    const std::string& outputPath, const ProgressCallback& progress)
{
    const auto info = store.run(runId);
    if (!info)
        throw StoreError(store.path() + ": no run with id " + std::to_string(runId));
    const std::uint64_t total = static_cast<std::uint64_t>(info->trajectoryCount);

    AtomicFile out(outputPath);

    ProgressThrottle throttle(progress);
    ExportResult result;
    std::string line;
    store.forEachTrajectory(runId, iteration, [&](const Trajectory& t) {
        line.clear();
        formatTrajectory(t, line);
        line.push_back('\n');
        out.write(line);
        ++result.trajectories;
        result.turns += t.turns.size();
        throttle.report(Progress { result.trajectories, total, result.trajectories, result.turns, 0.0 });
        return true;
    });
    throttle.report(Progress { total, total, result.trajectories, result.turns, 0.0 }, true);
    out.commit();
    return result;
}

} // namespace creditlab
