// Store: sweeps, their trials, and the PAIR probe tables an experiment stores per sweep. Finding a sweep or a trial by
// its uid is store_uids.cpp.
#include "core/storage/store.h"
#include "core/storage/store_p.h"

#include <stdexcept>

namespace creditlab {

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
            detail::readName(&trialStatusFromName, st.columnText(3), "sweep", st.columnInt(0), "status"),
            st.columnText(4) });
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
            detail::readName(&trialStatusFromName, st.columnText(4), "trial", st.columnInt(0), "status"),
            st.columnOptDouble(5) });
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
        detail::readName(&trialStatusFromName, st.columnText(3), "sweep", id, "status"), st.columnText(4) };
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
