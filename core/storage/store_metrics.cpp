// Store: a run's numbers over time: its metrics per iteration, its SFT curves and its checkpoints, and cutting a run
// back to an iteration for a resume.
#include "core/storage/store.h"
#include "core/storage/store_p.h"

#include <limits>

namespace creditlab {

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

} // namespace creditlab
