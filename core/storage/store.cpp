// Store: opening a database, the timestamp every row carries, and runs: creating, listing, naming, statuses, tags,
// config and shape. The rest of Store is in store_*.cpp: trajectories, credits and labels (store_trajectories.cpp),
// token segments (store_tokens.cpp), metrics and checkpoints (store_metrics.cpp), sweeps, trials and probe tables
// (store_sweeps.cpp), identities across databases (store_uids.cpp).
#include "core/storage/store.h"

#include "core/storage/networkfs.h"
#include "core/storage/schema.h"
#include "core/storage/store_p.h"

#include <chrono>
#include <ctime>
#include <sqlite3.h>

namespace creditlab {

std::string currentTimestamp()
{
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm {};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

namespace {

RunInfo readRun(const Statement& st)
{
    RunInfo r;
    r.id = st.columnInt(0);
    r.name = st.columnText(1);
    r.kind = detail::readName(&runKindFromName, st.columnText(2), "run", r.id, "kind");
    r.status = detail::readName(&runStatusFromName, st.columnText(3), "run", r.id, "status");
    r.source = st.columnOptText(4);
    r.createdAt = st.columnText(5);
    r.finishedAt = st.columnOptText(6);
    r.tags = st.columnText(7);
    r.notes = st.columnText(8);
    r.trajectoryCount = st.columnInt(9);
    r.turnCount = st.columnInt(10);
    r.method = st.columnOptText(11);
    r.environment = st.columnOptText(12);
    r.seed = st.columnOptInt(13);
    r.policyWidth = st.columnOptInt(14);
    r.policyLayers = st.columnOptInt(15);
    r.iterationsPlanned = st.columnOptInt(16);
    r.bestEval = st.columnOptDouble(17);
    r.lastEval = st.columnOptDouble(18);
    r.iterationsDone = st.columnOptInt(19).value_or(0);
    r.trainSeconds = st.columnOptDouble(20).value_or(0.0);
    r.sourceFormat = st.columnOptText(21);
    return r;
}

/// The run list's query: every RunInfo column, with the summaries read from the metrics named in vocabulary.h.
const std::string& runSelect()
{
    static const std::string sql = [] {
        const auto quoted = [](std::string_view name) { return "'" + std::string(name) + "'"; };
        return "SELECT r.id, r.name, r.kind, r.status, r.source, r.created_at, "
               "r.finished_at, r.tags, r.notes, "
               "(SELECT count(*) FROM trajectory t WHERE t.run_id = r.id AND t.evaluation = 0), "
               "(SELECT coalesce(sum(turn_count), 0) FROM trajectory t "
               " WHERE t.run_id = r.id AND t.evaluation = 0), "
               "r.method, r.environment, r.seed, r.policy_width, r.policy_layers, r.iterations_planned, "
               // The metric key is (run_id, name, iteration): each of these is an index range.
               "(SELECT max(value) FROM metric m WHERE m.run_id = r.id AND m.name = "
            + quoted(metricnames::kEvalSuccess)
            + "), "
              "(SELECT value FROM metric m WHERE m.run_id = r.id AND m.name = "
            + quoted(metricnames::kEvalSuccess)
            + " ORDER BY iteration DESC LIMIT 1), "
              "(SELECT max(iteration) FROM metric m WHERE m.run_id = r.id AND m.name = "
            + quoted(metricnames::kTimeTotal)
            + "), "
              "(SELECT sum(value) FROM metric m WHERE m.run_id = r.id AND (m.name = "
            + quoted(metricnames::kTimeTotal) + " OR m.name = " + quoted(metricnames::kTimeSft)
            + ")), r.source_format FROM run r";
    }();
    return sql;
}
} // namespace

std::string runSummary(const RunInfo& run)
{
    std::string out;
    const auto add = [&out](const std::string& part) {
        if (!part.empty())
            out += (out.empty() ? "" : " · ") + part;
    };
    add(run.environment.value_or(""));
    add(run.method.value_or(""));
    if (run.seed)
        add("s" + std::to_string(*run.seed));
    if (run.policyWidth && run.policyLayers)
        add(std::to_string(*run.policyWidth) + "×" + std::to_string(*run.policyLayers));
    return out;
}

namespace {

/// `path`, once it is known to be safe to open: not from a newer CreditLab, and for writing (which makes it WAL) not
/// on a network file system (networkfs.h), refused before SQLite creates anything there.
const std::string& openable(const std::string& path, Store::Access access)
{
    if (access == Store::Access::ReadWrite)
        refuseWalOnNetworkFileSystem(path);
    return schema::refuseNewerFile(path);
}

} // namespace

Store::Store(const std::string& path, Access access)
    : m_db(openable(path, access), access)
    , m_cache(std::make_unique<Cache>())
{
    schema::prepare(m_db);
}

Store::~Store() = default;

int Store::schemaVersion() { return static_cast<int>(m_db.scalarInt("PRAGMA user_version")); }

std::int64_t Store::createRun(const NewRun& run)
{
    Statement st = m_db.prepare("INSERT INTO run (name, kind, status, source, created_at, finished_at, source_format) "
                                "VALUES (?, ?, ?, ?, ?, ?, ?)");
    const std::string now = currentTimestamp();
    st.bind(1, run.name).bind(2, runKindName(run.kind)).bind(3, runStatusName(run.status)).bind(4, run.source).bind(5, now);
    if (run.status == RunStatus::Finished)
        st.bind(6, now);
    st.bind(7, run.sourceFormat);
    st.exec();
    return m_db.lastInsertId();
}

std::vector<RunInfo> Store::runs()
{
    Statement st = m_db.prepare(runSelect() + " ORDER BY r.id");
    std::vector<RunInfo> out;
    while (st.step())
        out.push_back(readRun(st));
    return out;
}

std::optional<RunInfo> Store::run(std::int64_t id)
{
    Statement st = m_db.prepare(runSelect() + " WHERE r.id = ?");
    st.bind(1, id);
    if (!st.step())
        return std::nullopt;
    return readRun(st);
}

void Store::renameRun(std::int64_t id, const std::string& name)
{
    m_db.prepare("UPDATE run SET name = ? WHERE id = ?").bind(1, name).bind(2, id).exec();
}

void Store::setRunStatus(std::int64_t id, RunStatus status)
{
    const bool ended = status == RunStatus::Finished || status == RunStatus::Failed || status == RunStatus::Cancelled;
    Statement st = m_db.prepare("UPDATE run SET status = ?, finished_at = ? WHERE id = ?");
    const std::string now = currentTimestamp();
    st.bind(1, runStatusName(status));
    if (ended)
        st.bind(2, now);
    st.bind(3, id).exec();
}

void Store::failRun(std::int64_t id, const std::string& reason)
{
    setRunStatus(id, RunStatus::Failed);
    m_db.prepare("UPDATE run SET notes = CASE WHEN notes = '' THEN ? ELSE notes || char(10) || ? END WHERE id = ?")
        .bind(1, "failed: " + reason)
        .bind(2, "failed: " + reason)
        .bind(3, id)
        .exec();
}

void Store::setRunTags(std::int64_t id, const std::string& tags)
{
    m_db.prepare("UPDATE run SET tags = ? WHERE id = ?").bind(1, tags).bind(2, id).exec();
}

void Store::deleteRun(std::int64_t id)
{
    detail::inTransaction(m_db, [&] { m_db.prepare("DELETE FROM run WHERE id = ?").bind(1, id).exec(); });
}

void Store::setRunConfig(std::int64_t runId, const std::string& format, const std::string& text)
{
    m_db.prepare("INSERT INTO run_config (run_id, format, text) VALUES (?, ?, ?) "
                 "ON CONFLICT (run_id) DO UPDATE SET format = excluded.format, text = excluded.text")
        .bind(1, runId)
        .bind(2, format)
        .bind(3, text)
        .exec();
}

void Store::setRunShape(std::int64_t runId, const RunShape& shape)
{
    m_db.prepare("UPDATE run SET method = ?, environment = ?, seed = ?, policy_width = ?, policy_layers = ?, "
                 "iterations_planned = ? WHERE id = ?")
        .bind(1, shape.method)
        .bind(2, shape.environment)
        .bind(3, shape.seed)
        .bind(4, shape.policyWidth)
        .bind(5, shape.policyLayers)
        .bind(6, shape.iterationsPlanned)
        .bind(7, runId)
        .exec();
}

std::optional<std::string> Store::runConfig(std::int64_t runId)
{
    Statement st = m_db.prepare("SELECT text FROM run_config WHERE run_id = ?");
    st.bind(1, runId);
    if (!st.step())
        return std::nullopt;
    return st.columnText(0);
}

} // namespace creditlab
