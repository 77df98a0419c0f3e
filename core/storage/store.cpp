#include "core/storage/store.h"

#include "core/storage/networkfs.h"
#include "core/storage/schema.h"
#include "core/storage/store_p.h"

#include <chrono>
#include <ctime>
#include <limits>
#include <map>
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

/// A stored name read back as its enum; a name this build does not know is an error naming the row and field.
template <typename Enum>
Enum readName(std::optional<Enum> (*parse)(std::string_view), const std::string& text, const char* table,
    std::int64_t id, const char* field)
{
    if (const auto value = parse(text))
        return *value;
    throw StoreError(std::string(table) + " " + std::to_string(id) + ": unknown " + field + " '" + text + "'");
}

RunInfo readRun(const Statement& st)
{
    RunInfo r;
    r.id = st.columnInt(0);
    r.name = st.columnText(1);
    r.kind = readName(&runKindFromName, st.columnText(2), "run", r.id, "kind");
    r.status = readName(&runStatusFromName, st.columnText(3), "run", r.id, "status");
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

void Store::writeMetrics(
    std::int64_t runId, std::int64_t iteration, std::span<const std::pair<std::string, double>> values)
{
    detail::inTransaction(m_db, [&] {
        Statement st = m_db.prepare("INSERT OR REPLACE INTO metric (run_id, iteration, name, value) "
                                    "VALUES (?, ?, ?, ?)");
        for (const auto& [name, value] : values) {
            st.bind(1, runId).bind(2, iteration).bind(3, name).bind(4, value);
            st.exec();
        }
    });
}

std::vector<MetricPoint> Store::metrics(std::int64_t runId)
{
    return metrics(runId, std::numeric_limits<std::int64_t>::min());
}

std::vector<MetricPoint> Store::metrics(std::int64_t runId, std::int64_t fromIteration)
{
    Statement st = m_db.prepare(
        "SELECT iteration, name, value FROM metric WHERE run_id = ? AND iteration >= ? ORDER BY name, iteration");
    st.bind(1, runId);
    st.bind(2, fromIteration);
    std::vector<MetricPoint> out;
    while (st.step()) {
        // SQLite stores NaN as NULL; a diverged loss must read back as NaN, not 0.
        const double value = st.isNull(2) ? std::numeric_limits<double>::quiet_NaN() : st.columnDouble(2);
        out.push_back(MetricPoint { st.columnInt(0), st.columnText(1), value });
    }
    return out;
}

void Store::writeSftMetrics(std::int64_t runId, std::span<const MetricPoint> points)
{
    detail::inTransaction(m_db, [&] {
        Statement st
            = m_db.prepare("INSERT OR REPLACE INTO sft_metric (run_id, step, name, value) VALUES (?, ?, ?, ?)");
        for (const MetricPoint& point : points) {
            st.bind(1, runId).bind(2, point.iteration).bind(3, point.name).bind(4, point.value);
            st.exec();
        }
    });
}

std::vector<MetricPoint> Store::sftMetrics(std::int64_t runId, std::int64_t fromStep)
{
    Statement st
        = m_db.prepare("SELECT step, name, value FROM sft_metric WHERE run_id = ? AND step >= ? ORDER BY name, step");
    st.bind(1, runId);
    st.bind(2, fromStep);
    std::vector<MetricPoint> out;
    while (st.step()) {
        const double value = st.isNull(2) ? std::numeric_limits<double>::quiet_NaN() : st.columnDouble(2);
        out.push_back(MetricPoint { st.columnInt(0), st.columnText(1), value });
    }
    return out;
}

void Store::addCheckpoint(std::int64_t runId, std::int64_t iteration, const std::string& path)
{
    m_db.prepare("INSERT OR REPLACE INTO checkpoint (run_id, iteration, path, created_at) VALUES (?, ?, ?, ?)")
        .bind(1, runId)
        .bind(2, iteration)
        .bind(3, path)
        .bind(4, currentTimestamp())
        .exec();
}

std::optional<std::pair<std::int64_t, std::string>> Store::lastCheckpoint(std::int64_t runId)
{
    Statement st
        = m_db.prepare("SELECT iteration, path FROM checkpoint WHERE run_id = ? ORDER BY iteration DESC LIMIT 1");
    st.bind(1, runId);
    if (!st.step())
        return std::nullopt;
    return std::make_pair(st.columnInt(0), st.columnText(1));
}

std::vector<std::pair<std::int64_t, std::string>> Store::checkpoints(std::int64_t runId)
{
    Statement st = m_db.prepare("SELECT iteration, path FROM checkpoint WHERE run_id = ? ORDER BY iteration");
    st.bind(1, runId);
    std::vector<std::pair<std::int64_t, std::string>> out;
    while (st.step())
        out.emplace_back(st.columnInt(0), st.columnText(1));
    return out;
}

void Store::removeCheckpoint(std::int64_t runId, std::int64_t iteration)
{
    m_db.prepare("DELETE FROM checkpoint WHERE run_id = ? AND iteration = ?").bind(1, runId).bind(2, iteration).exec();
}

void Store::truncateRun(std::int64_t runId, std::int64_t iteration)
{
    detail::inTransaction(m_db, [&] {
        for (const char* sql : { "DELETE FROM metric WHERE run_id = ? AND iteration > ?",
                 "DELETE FROM trajectory WHERE run_id = ? AND iteration > ?",
                 "DELETE FROM checkpoint WHERE run_id = ? AND iteration > ?" })
            m_db.prepare(sql).bind(1, runId).bind(2, iteration).exec();
        if (iteration < 0)
            m_db.prepare("DELETE FROM sft_metric WHERE run_id = ?").bind(1, runId).exec();
    });
}

std::int64_t Store::createSweep(const std::string& name, const std::string& config)
{
    m_db.prepare("INSERT INTO sweep (name, config, created_at) VALUES (?, ?, ?)")
        .bind(1, name)
        .bind(2, config)
        .bind(3, currentTimestamp())
        .exec();
    return m_db.lastInsertId();
}

std::vector<SweepInfo> Store::sweeps()
{
    Statement st = m_db.prepare("SELECT id, name, config, status, created_at FROM sweep ORDER BY id");
    std::vector<SweepInfo> out;
    while (st.step())
        out.push_back(SweepInfo { st.columnInt(0), st.columnText(1), st.columnText(2),
            readName(&trialStatusFromName, st.columnText(3), "sweep", st.columnInt(0), "status"), st.columnText(4) });
    return out;
}

std::int64_t Store::addTrial(std::int64_t sweepId, const std::string& params)
{
    m_db.prepare("INSERT INTO trial (sweep_id, params) VALUES (?, ?)").bind(1, sweepId).bind(2, params).exec();
    return m_db.lastInsertId();
}

void Store::finishTrial(
    std::int64_t trialId, std::optional<std::int64_t> runId, TrialStatus status, std::optional<double> objective)
{
    m_db.prepare("UPDATE trial SET run_id = ?, status = ?, objective = ? WHERE id = ?")
        .bind(1, runId)
        .bind(2, trialStatusName(status))
        .bind(3, objective)
        .bind(4, trialId)
        .exec();
}

std::vector<TrialInfo> Store::trials(std::int64_t sweepId)
{
    Statement st = m_db.prepare(
        "SELECT id, sweep_id, run_id, params, status, objective FROM trial WHERE sweep_id = ? ORDER BY id");
    st.bind(1, sweepId);
    std::vector<TrialInfo> out;
    while (st.step())
        out.push_back(TrialInfo { st.columnInt(0), st.columnInt(1), st.columnOptInt(2), st.columnText(3),
            readName(&trialStatusFromName, st.columnText(4), "trial", st.columnInt(0), "status"), st.columnOptDouble(5) });
    return out;
}

void Store::addProbeTable(const std::vector<ProbeResult>& rows)
{
    if (rows.empty())
        return;
    detail::inTransaction(m_db, [&] {
        const ProbeResult& first = rows.front();
        m_db.prepare("DELETE FROM probe_result WHERE sweep_id IS ? AND run_id = ? AND episodes = ? AND seed = ?")
            .bind(1, first.sweepId)
            .bind(2, first.runId)
            .bind(3, first.episodes)
            .bind(4, first.seed)
            .exec();
        Statement insert = m_db.prepare(
            "INSERT INTO probe_result (sweep_id, run_id, policy, episodes, seed, probe, features, auroc_clean, "
            "auroc_contaminated, auroc_union, ece, brier, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        const std::string now = currentTimestamp();
        for (const auto& r : rows) {
            if (r.sweepId != first.sweepId || r.runId != first.runId || r.episodes != first.episodes
                || r.seed != first.seed)
                throw std::invalid_argument("addProbeTable: the rows of one table share sweep, run, episodes and seed");
            insert.reset();
            insert.bind(1, r.sweepId)
                .bind(2, r.runId)
                .bind(3, r.policy)
                .bind(4, r.episodes)
                .bind(5, r.seed)
                .bind(6, r.probe)
                .bind(7, r.features)
                .bind(8, r.aurocClean)
                .bind(9, r.aurocContaminated)
                .bind(10, r.aurocUnion)
                .bind(11, r.ece)
                .bind(12, r.brier)
                .bind(13, now)
                .exec();
        }
    });
}

std::vector<ProbeResult> Store::probeResults(std::int64_t sweepId)
{
    Statement st = m_db.prepare("SELECT sweep_id, run_id, policy, episodes, seed, probe, features, auroc_clean, "
                                "auroc_contaminated, auroc_union, ece, brier FROM probe_result WHERE sweep_id = ? "
                                "ORDER BY seed, id");
    st.bind(1, sweepId);
    std::vector<ProbeResult> out;
    while (st.step())
        out.push_back(ProbeResult { st.columnOptInt(0), st.columnInt(1), st.columnText(2), st.columnInt(3),
            st.columnInt(4), st.columnText(5), st.columnInt(6), st.columnDouble(7), st.columnDouble(8),
            st.columnDouble(9), st.columnDouble(10), st.columnDouble(11) });
    return out;
}

std::optional<SweepInfo> Store::sweep(std::int64_t id)
{
    Statement st = m_db.prepare("SELECT id, name, config, status, created_at FROM sweep WHERE id = ?");
    st.bind(1, id);
    if (!st.step())
        return std::nullopt;
    return SweepInfo { st.columnInt(0), st.columnText(1), st.columnText(2),
        readName(&trialStatusFromName, st.columnText(3), "sweep", id, "status"), st.columnText(4) };
}

void Store::setSweepStatus(std::int64_t id, TrialStatus status)
{
    m_db.prepare("UPDATE sweep SET status = ? WHERE id = ?").bind(1, trialStatusName(status)).bind(2, id).exec();
}

void Store::setSweepConfig(std::int64_t id, const std::string& config)
{
    m_db.prepare("UPDATE sweep SET config = ? WHERE id = ?").bind(1, config).bind(2, id).exec();
    if (!m_db.prepare("SELECT 1 FROM sweep WHERE id = ?").bind(1, id).step())
        throw StoreError("sweep " + std::to_string(id) + " does not exist");
}

void Store::startTrial(std::int64_t trialId, std::int64_t runId)
{
    finishTrial(trialId, runId, TrialStatus::Running, std::nullopt);
}

} // namespace creditlab
