// The store's identities across databases (schema version 11): sweeps, trials and runs found by uid, for
// `sweep trial` (the same trial on any machine) and merge.
#include "core/storage/store.h"

namespace creditlab {

std::int64_t Store::ensureSweep(
    const std::string& uid, const std::string& name, const std::string& config, std::int64_t trialsPlanned)
{
    Statement find = m_db.prepare("SELECT id FROM sweep WHERE uid = ?");
    find.bind(1, uid);
    if (find.step())
        return find.columnInt(0);
    m_db.prepare("INSERT INTO sweep (name, config, status, created_at, uid, trials_planned) VALUES (?, ?, ?, ?, ?, ?)")
        .bind(1, name)
        .bind(2, config)
        .bind(3, trialStatusName(TrialStatus::Running))
        .bind(4, currentTimestamp())
        .bind(5, uid)
        .bind(6, trialsPlanned)
        .exec();
    return m_db.lastInsertId();
}

TrialInfo Store::ensureTrial(const std::string& uid, std::int64_t sweepId, const std::string& params)
{
    const auto find = [&]() -> std::optional<std::int64_t> {
        Statement st = m_db.prepare("SELECT id FROM trial WHERE uid = ?");
        st.bind(1, uid);
        return st.step() ? std::optional(st.columnInt(0)) : std::nullopt;
    };
    auto id = find();
    if (!id) {
        m_db.prepare("INSERT INTO trial (sweep_id, params, uid) VALUES (?, ?, ?)")
            .bind(1, sweepId)
            .bind(2, params)
            .bind(3, uid)
            .exec();
        id = m_db.lastInsertId();
    }
    for (auto& t : trials(sweepId))
        if (t.id == *id)
            return t;
    throw StoreError(path() + ": trial " + uid + " belongs to another sweep");
}

void Store::setRunUid(std::int64_t runId, const std::string& uid)
{
    m_db.prepare("UPDATE run SET uid = ? WHERE id = ?").bind(1, uid).bind(2, runId).exec();
}

void Store::updatePlannedSweepStatus(std::int64_t id)
{
    m_db.prepare(
            "UPDATE sweep SET status = CASE WHEN (SELECT count(*) FROM trial WHERE sweep_id = ?1 AND status = "
            "'finished') >= trials_planned THEN 'finished' ELSE 'running' END WHERE id = ?1 AND trials_planned IS NOT "
            "NULL")
        .bind(1, id)
        .exec();
}

} // namespace creditlab
