// Store: trajectories, turns, credits and labels.
#include "core/storage/store.h"
#include "core/storage/store_p.h"

#include <algorithm>
#include <cmath>
#include <sqlite3.h>

namespace creditlab {

namespace {
constexpr std::string_view kTrajectoryColumns
    = "id, ext_id, group_key, iteration, task, env, goal, reward, success, turn_count, evaluation";

TrajectoryInfo readInfo(const Statement& st)
{
    TrajectoryInfo t;
    t.rowId = st.columnInt(0);
    t.id = st.columnText(1);
    t.group = st.columnText(2);
    t.iteration = st.columnOptInt(3);
    t.task.key = st.columnOptText(4);
    t.task.env = st.columnOptText(5);
    t.task.goal = st.columnOptText(6);
    t.reward = st.columnDouble(7);
    if (auto s = st.columnOptInt(8))
        t.success = *s != 0;
    t.turnCount = st.columnInt(9);
    t.evaluation = st.columnInt(10) != 0;
    return t;
}

std::optional<std::int64_t> optBool(const std::optional<bool>& b)
{
    if (!b)
        return std::nullopt;
    return *b ? 1 : 0;
}

void readTurn(const Statement& st, int c, Turn& u)
{
    u.observation = st.columnText(c + 0);
    u.action = st.columnText(c + 1);
    u.feedback = st.columnOptText(c + 2);
    u.reward = st.columnOptDouble(c + 3);
    if (auto v = st.columnOptInt(c + 4))
        u.valid = *v != 0;
    u.state = st.columnOptText(c + 5);
    u.progress = st.columnOptDouble(c + 6);
    if (!st.isNull(c + 7))
        u.role = parseRole(st.columnTextView(c + 7));
    u.roleSource = st.columnOptText(c + 8);
    u.score = st.columnOptDouble(c + 9);
    if (!st.isNull(c + 10))
        u.tokens = TokenSpan { static_cast<std::int32_t>(st.columnInt(c + 10)),
            static_cast<std::int32_t>(st.columnInt(c + 11)) };
    u.extra = st.columnText(c + 12);
}

constexpr std::size_t kTurnParams = 15; // bound per turn row: trajectory_id, idx and kTurnColumns
constexpr std::string_view kTurnColumns = "observation, action, feedback, reward, valid, state, progress, role, "
                                          "role_source, score, token_begin, token_end, extra";
} // namespace

std::int64_t Store::insertTrajectory(std::int64_t runId, std::int64_t ord, const Trajectory& t, bool evaluation)
{
    return detail::inTransaction(m_db, [&] { return insertTrajectoryRows(runId, ord, t, evaluation); });
}

std::int64_t Store::insertTrajectoryRows(std::int64_t runId, std::int64_t ord, const Trajectory& t, bool evaluation)
{
    Cache& c = *m_cache;
    if (!c.ready) {
        c.insertTrajectory = m_db.prepare(
            "INSERT INTO trajectory (run_id, ord, ext_id, group_key, iteration, task, env, goal, reward, success, "
            "turn_count, extra, evaluation) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        c.ready = true;
    }
    Statement& st = c.insertTrajectory;
    st.bind(1, runId)
        .bind(2, ord)
        .bind(3, t.id)
        .bind(4, t.group)
        .bind(5, t.iteration)
        .bind(6, t.task.key)
        .bind(7, t.task.env)
        .bind(8, t.task.goal)
        .bind(9, t.reward)
        .bind(10, optBool(t.success))
        .bind(11, static_cast<std::int64_t>(t.turns.size()))
        .bind(12, t.extra)
        .bind(13, static_cast<std::int64_t>(evaluation ? 1 : 0));
    st.exec();
    const std::int64_t rowId = m_db.lastInsertId();

    // Several turns per statement: one VDBE run per up to kTurnsPerInsert rows.
    for (std::size_t first = 0; first < t.turns.size(); first += kTurnsPerInsert) {
        const std::size_t n = std::min(kTurnsPerInsert, t.turns.size() - first);
        Statement& tu = turnInsert(n);
        for (std::size_t j = 0; j < n; ++j) {
            const std::size_t i = first + j;
            const Turn& u = t.turns[i];
            const int b = static_cast<int>(j * kTurnParams);
            tu.bind(b + 1, rowId)
                .bind(b + 2, static_cast<std::int64_t>(i))
                .bind(b + 3, u.observation)
                .bind(b + 4, u.action)
                .bind(b + 5, u.feedback)
                .bind(b + 6, u.reward)
                .bind(b + 7, optBool(u.valid))
                .bind(b + 8, u.state)
                .bind(b + 9, u.progress)
                .bind(b + 10, u.role ? std::optional<std::string_view>(roleName(*u.role)) : std::nullopt)
                .bind(b + 11, u.roleSource)
                .bind(b + 12, u.score)
                .bind(b + 15, u.extra);
            if (u.tokens)
                tu.bind(b + 13, static_cast<std::int64_t>(u.tokens->begin))
                    .bind(b + 14, static_cast<std::int64_t>(u.tokens->end));
        }
        tu.exec();
    }
    for (std::size_t i = 0; i < t.turns.size(); ++i) {
        for (const auto& [method, value] : t.turns[i].credits) {
            if (!std::isfinite(value))
                throw StoreError(path() + ": credit of method '" + method + "' for turn " + std::to_string(i)
                    + " of trajectory \"" + t.id + "\" is not a finite number");
            Statement& cs = creditInsert();
            cs.bind(1, rowId).bind(2, static_cast<std::int64_t>(i)).bind(3, method).bind(4, value);
            cs.bind(5, std::string_view("{}")).bind(6, std::string_view());
            cs.exec();
        }
    }
    return rowId;
}

namespace {
std::string_view whichSql(Store::Which which)
{
    return which == Store::Which::Training ? " AND evaluation = 0"
        : which == Store::Which::Evaluation ? " AND evaluation = 1"
                                            : "";
}
} // namespace

std::vector<TrajectoryInfo> Store::trajectories(std::int64_t runId, std::optional<std::int64_t> iteration, Which which)
{
    std::string sql = "SELECT " + std::string(kTrajectoryColumns) + " FROM trajectory WHERE run_id = ?";
    sql += whichSql(which);
    if (iteration)
        sql += " AND coalesce(iteration, 0) = ?";
    sql += " ORDER BY ord";
    Statement st = m_db.prepare(sql);
    st.bind(1, runId);
    if (iteration)
        st.bind(2, *iteration);
    std::vector<TrajectoryInfo> out;
    while (st.step())
        out.push_back(readInfo(st));
    return out;
}

std::vector<std::int64_t> Store::iterations(std::int64_t runId, Which which)
{
    Statement st = m_db.prepare("SELECT DISTINCT coalesce(iteration, 0) AS it FROM trajectory WHERE run_id = ?"
        + std::string(whichSql(which)) + " ORDER BY it");
    st.bind(1, runId);
    std::vector<std::int64_t> out;
    while (st.step())
        out.push_back(st.columnInt(0));
    return out;
}

std::vector<GroupInfo> Store::groups(std::int64_t runId)
{
    // GROUP BY puts NULL iterations together, apart from 0 (no coalesce here: imported groups stay their own).
    Statement st = m_db.prepare("SELECT iteration, group_key, count(*), min(ord) AS first,"
                                " CASE WHEN count(task) = count(*) AND min(task) = max(task) THEN min(task) END"
                                " FROM trajectory WHERE run_id = ? GROUP BY iteration, group_key ORDER BY first");
    st.bind(1, runId);
    std::vector<GroupInfo> out;
    while (st.step()) {
        GroupInfo g;
        g.iteration = st.columnOptInt(0);
        g.group = st.columnText(1);
        g.rollouts = st.columnInt(2);
        g.task = st.columnOptText(4);
        out.push_back(std::move(g));
    }
    return out;
}

std::vector<TrajectoryInfo> Store::groupTrajectories(
    std::int64_t runId, std::optional<std::int64_t> iteration, const std::string& group)
{
    // "iteration IS ?" with a NULL binding matches the NULL iterations only.
    Statement st = m_db.prepare("SELECT " + std::string(kTrajectoryColumns)
        + " FROM trajectory WHERE run_id = ? AND iteration IS ? AND group_key = ? ORDER BY ord");
    st.bind(1, runId);
    st.bind(2, iteration);
    st.bind(3, group);
    std::vector<TrajectoryInfo> out;
    while (st.step())
        out.push_back(readInfo(st));
    return out;
}

std::optional<std::int64_t> Store::runOfTrajectory(std::int64_t rowId)
{
    Statement st = m_db.prepare("SELECT run_id FROM trajectory WHERE id = ?");
    st.bind(1, rowId);
    if (!st.step())
        return std::nullopt;
    return st.columnInt(0);
}

Trajectory Store::loadTrajectory(std::int64_t rowId)
{
    Statement st = m_db.prepare("SELECT " + std::string(kTrajectoryColumns) + ", extra FROM trajectory WHERE id = ?");
    st.bind(1, rowId);
    if (!st.step())
        throw StoreError(path() + ": no trajectory with row id " + std::to_string(rowId));
    Trajectory t;
    readTrajectoryRow(st, t);
    return t;
}

std::int64_t Store::readTrajectoryRow(const Statement& header, Trajectory& t)
{
    const TrajectoryInfo info = readInfo(header);
    t.id = info.id;
    t.group = info.group;
    t.task = info.task;
    t.reward = info.reward;
    t.success = info.success;
    t.iteration = info.iteration;
    t.extra = header.columnText(11);

    Cache& c = *m_cache;
    if (!c.readReady) {
        c.selectTurns
            = m_db.prepare("SELECT " + std::string(kTurnColumns) + " FROM turn WHERE trajectory_id = ? ORDER BY idx");
        c.selectCredits
            = m_db.prepare("SELECT idx, method, advantage FROM credit WHERE trajectory_id = ? ORDER BY idx, method");
        c.readReady = true;
    }
    t.turns.clear();
    Statement& tu = c.selectTurns;
    tu.bind(1, info.rowId);
    while (tu.step()) {
        t.turns.emplace_back();
        readTurn(tu, 0, t.turns.back());
    }
    tu.reset();
    Statement& cr = c.selectCredits;
    cr.bind(1, info.rowId);
    while (cr.step()) {
        const auto idx = static_cast<std::size_t>(cr.columnInt(0));
        if (idx < t.turns.size())
            t.turns[idx].credits.emplace_back(cr.columnText(1), cr.columnDouble(2));
    }
    cr.reset();
    return info.rowId;
}

bool Store::forEachTrajectory(
    std::int64_t runId, std::optional<std::int64_t> iteration, const std::function<bool(const Trajectory&)>& visit)
{
    return forEachTrajectoryRow(runId, iteration, [&](std::int64_t, const Trajectory& t) { return visit(t); });
}

bool Store::forEachTrajectoryRow(std::int64_t runId, std::optional<std::int64_t> iteration,
    const std::function<bool(std::int64_t rowId, const Trajectory&)>& visit)
{
    // One read transaction: a concurrent writer's commit in the middle is not seen.
    const bool ownTx = sqlite3_get_autocommit(m_db.handle()) != 0;
    if (ownTx)
        m_db.exec("BEGIN");
    struct End {
        Database& db;
        bool own;
        ~End()
        {
            if (own) {
                try {
                    db.exec("COMMIT");
                } catch (...) {
                }
            }
        }
    } end { m_db, ownTx };

    std::string sql = "SELECT " + std::string(kTrajectoryColumns)
        + ", extra FROM trajectory WHERE run_id = ? AND evaluation = 0";
    if (iteration)
        sql += " AND coalesce(iteration, 0) = ?";
    sql += " ORDER BY ord";
    Statement st = m_db.prepare(sql);
    st.bind(1, runId);
    if (iteration)
        st.bind(2, *iteration);
    Trajectory t;
    while (st.step()) {
        const std::int64_t rowId = readTrajectoryRow(st, t);
        if (!visit(rowId, t))
            return false;
    }
    return true;
}

void Store::writeCredits(std::int64_t trajectoryRowId, const std::string& method, std::span<const double> advantages,
    std::span<const std::string> detailsJson, const std::string& params)
{
    for (std::size_t i = 0; i < advantages.size(); ++i)
        if (!std::isfinite(advantages[i]))
            throw StoreError(path() + ": credit of method '" + method + "' for turn " + std::to_string(i)
                + " is not a finite number");
    detail::inTransaction(m_db, [&] {
        Statement& st = creditInsert();
        for (std::size_t i = 0; i < advantages.size(); ++i) {
            st.bind(1, trajectoryRowId).bind(2, static_cast<std::int64_t>(i)).bind(3, method).bind(4, advantages[i]);
            st.bind(5, i < detailsJson.size() ? std::string_view(detailsJson[i]) : std::string_view("{}"));
            st.bind(6, params);
            st.exec();
        }
    });
}

Statement& Store::turnInsert(std::size_t rows)
{
    Statement& st = m_cache->insertTurns[rows];
    if (st.isNull()) {
        std::string sql = "INSERT INTO turn (trajectory_id, idx, " + std::string(kTurnColumns) + ") VALUES ";
        for (std::size_t r = 0; r < rows; ++r)
            sql += r == 0 ? "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                          : ", (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
        st = m_db.prepare(sql);
    }
    return st;
}

Statement& Store::creditInsert()
{
    Cache& c = *m_cache;
    if (c.insertCredit.isNull())
        c.insertCredit = m_db.prepare("INSERT OR REPLACE INTO credit (trajectory_id, idx, method, advantage, details, "
                                      "params) VALUES (?, ?, ?, ?, ?, ?)");
    return c.insertCredit;
}

std::optional<std::string> Store::creditParams(std::int64_t runId, const std::string& method)
{
    Statement st = m_db.prepare("SELECT c.params FROM credit c JOIN trajectory t ON t.id = c.trajectory_id "
                                "WHERE t.run_id = ? AND c.method = ? LIMIT 1");
    st.bind(1, runId).bind(2, method);
    if (!st.step())
        return std::nullopt;
    return st.columnText(0);
}

std::vector<double> Store::credits(std::int64_t trajectoryRowId, const std::string& method)
{
    Statement st = m_db.prepare("SELECT advantage FROM credit WHERE trajectory_id = ? AND method = ? ORDER BY idx");
    st.bind(1, trajectoryRowId).bind(2, method);
    std::vector<double> out;
    while (st.step())
        out.push_back(st.columnDouble(0));
    return out;
}

std::vector<std::string> Store::creditMethods(std::int64_t runId)
{
    Statement st = m_db.prepare("SELECT DISTINCT c.method FROM credit c JOIN trajectory t ON t.id = c.trajectory_id "
                                "WHERE t.run_id = ? ORDER BY c.method");
    st.bind(1, runId);
    std::vector<std::string> out;
    while (st.step())
        out.push_back(st.columnText(0));
    return out;
}

void Store::setHumanLabel(std::int64_t trajectoryRowId, int turn, const std::string& annotator, Role role)
{
    m_db.prepare("INSERT OR REPLACE INTO human_label (trajectory_id, idx, annotator, role, created_at) "
                 "VALUES (?, ?, ?, ?, ?)")
        .bind(1, trajectoryRowId)
        .bind(2, turn)
        .bind(3, annotator)
        .bind(4, roleName(role))
        .bind(5, currentTimestamp())
        .exec();
}

void Store::clearHumanLabel(std::int64_t trajectoryRowId, int turn, const std::string& annotator)
{
    m_db.prepare("DELETE FROM human_label WHERE trajectory_id = ? AND idx = ? AND annotator = ?")
        .bind(1, trajectoryRowId)
        .bind(2, turn)
        .bind(3, annotator)
        .exec();
}

std::vector<HumanLabel> Store::humanLabels(std::int64_t trajectoryRowId)
{
    Statement st = m_db.prepare("SELECT idx, annotator, role, created_at FROM human_label WHERE trajectory_id = ? "
                                "ORDER BY idx, annotator");
    st.bind(1, trajectoryRowId);
    std::vector<HumanLabel> out;
    while (st.step())
        out.push_back(HumanLabel { trajectoryRowId, static_cast<int>(st.columnInt(0)), st.columnText(1),
            parseRole(st.columnTextView(2)).value_or(Role::N), st.columnText(3) });
    return out;
}

std::vector<LabelledTurn> Store::humanLabelledTurns(const std::string& annotator)
{
    // A rowid table with INSERT OR REPLACE: a relabelled turn gets a new, larger rowid, so rowid orders by write.
    Statement st = m_db.prepare(
        "SELECT coalesce(t.task, ''), coalesce(t.env, ''), coalesce(u.state, u.observation), u.action, h.annotator, "
        "h.role, h.rowid FROM human_label h JOIN trajectory t ON t.id = h.trajectory_id "
        "JOIN turn u ON u.trajectory_id = h.trajectory_id AND u.idx = h.idx "
        "WHERE ?1 = '' OR h.annotator = ?1 ORDER BY h.rowid");
    st.bind(1, annotator);
    std::vector<LabelledTurn> out;
    while (st.step())
        out.push_back(LabelledTurn { st.columnText(0), st.columnText(1), st.columnText(2), st.columnText(3),
            st.columnText(4), parseRole(st.columnTextView(5)).value_or(Role::N), st.columnInt(6) });
    return out;
}

void Store::setJudgeLabel(const JudgeLabel& l)
{
    m_db.prepare("INSERT OR REPLACE INTO judge_label (trajectory_id, idx, judge, role, confidence, rationale, "
                 "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
        .bind(1, l.trajectoryRowId)
        .bind(2, l.turn)
        .bind(3, l.judge)
        .bind(4, roleName(l.role))
        .bind(5, l.confidence)
        .bind(6, l.rationale)
        .bind(7, l.createdAt.empty() ? currentTimestamp() : l.createdAt)
        .exec();
}

std::vector<JudgeLabel> Store::judgeLabels(std::int64_t trajectoryRowId)
{
    Statement st = m_db.prepare("SELECT idx, judge, role, confidence, rationale, created_at FROM judge_label "
                                "WHERE trajectory_id = ? ORDER BY idx, judge");
    st.bind(1, trajectoryRowId);
    std::vector<JudgeLabel> out;
    while (st.step())
        out.push_back(JudgeLabel { trajectoryRowId, static_cast<int>(st.columnInt(0)), st.columnText(1),
            parseRole(st.columnTextView(2)).value_or(Role::N), st.columnOptDouble(3), st.columnOptText(4),
            st.columnText(5) });
    return out;
}

} // namespace creditlab
