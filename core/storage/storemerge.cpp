// Merging databases (storemerge.h): each input read through its own read-only connection and copied row by row into
// the target inside one transaction (ATTACH cannot be undone inside a transaction, and would cap the inputs at
// SQLite's ten attached files). The tables that hang off a run or a trajectory are found from the schema's foreign
// keys, so that a table added by a later migration is merged without a change here.
#include "core/storage/storemerge.h"

#include "core/storage/database.h"
#include "core/storage/schema.h"
#include "core/storage/store.h"

#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <tuple>

namespace creditlab {

namespace fs = std::filesystem;

MergeCounts& MergeCounts::operator+=(const MergeCounts& o)
{
    runsAdded += o.runsAdded;
    runsReplaced += o.runsReplaced;
    runsKept += o.runsKept;
    sweepsAdded += o.sweepsAdded;
    trialsAdded += o.trialsAdded;
    trialsUpdated += o.trialsUpdated;
    rows += o.rows;
    return *this;
}

namespace {

/// A raw statement whose errors name the file it reads or writes.
class Stmt {
public:
    Stmt(sqlite3* db, const std::string& sql, const std::string& file)
        : m_db(db)
        , m_file(file)
    {
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &m_stmt, nullptr) != SQLITE_OK)
            fail();
    }
    ~Stmt() { sqlite3_finalize(m_stmt); }
    Stmt(const Stmt&) = delete;
    Stmt& operator=(const Stmt&) = delete;

    sqlite3_stmt* get() const { return m_stmt; }
    Stmt& bind(int i, std::int64_t v)
    {
        sqlite3_bind_int64(m_stmt, i, v);
        return *this;
    }
    Stmt& bind(int i, const std::string& v)
    {
        sqlite3_bind_text(m_stmt, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
        return *this;
    }
    Stmt& bind(int i, std::optional<std::int64_t> v)
    {
        if (v)
            return bind(i, *v);
        sqlite3_bind_null(m_stmt, i);
        return *this;
    }
    bool step()
    {
        const int rc = sqlite3_step(m_stmt);
        if (rc == SQLITE_ROW)
            return true;
        if (rc != SQLITE_DONE)
            fail();
        return false;
    }
    void exec()
    {
        while (step()) { }
        sqlite3_reset(m_stmt);
    }
    void reset()
    {
        sqlite3_reset(m_stmt);
        sqlite3_clear_bindings(m_stmt);
    }
    std::int64_t integer(int c) const { return sqlite3_column_int64(m_stmt, c); }
    std::optional<std::int64_t> optInteger(int c) const
    {
        return sqlite3_column_type(m_stmt, c) == SQLITE_NULL ? std::nullopt : std::optional(integer(c));
    }
    std::string text(int c) const
    {
        const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, c));
        return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, c))) : std::string();
    }

private:
    [[noreturn]] void fail() const { throw StoreError(m_file + ": merge: " + sqlite3_errmsg(m_db)); }

    sqlite3* m_db;
    std::string m_file;
    sqlite3_stmt* m_stmt = nullptr;
};

/// How a copied column's value changes: dropped (a new row id), set to a value (NULL when none), or shifted.
struct Fix {
    enum class Kind { Drop, Set, Add } kind;
    std::optional<std::int64_t> value;
};

struct Side {
    sqlite3* db;
    std::string file;
};

struct Schema {
    std::map<std::string, std::vector<std::string>> columns; ///< every table's columns, in order
    std::vector<std::pair<std::string, std::string>> runChildren; ///< (table, column that holds the run id)
    std::vector<std::pair<std::string, std::string>> trajectoryChildren; ///< (table, column with the trajectory id)
    std::vector<std::string> freeTables; ///< no foreign key: copied with INSERT OR IGNORE (the judge cache)
};

/// The target's tables, classified by what they refer to.
Schema readSchema(const Side& target)
{
    static const std::set<std::string> kSpecial { "run", "sweep", "trial", "trajectory", "probe_result" };
    Schema s;
    Stmt tables(target.db,
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name", target.file);
    while (tables.step()) {
        const std::string table = tables.text(0);
        Stmt info(target.db, "SELECT name FROM pragma_table_info(?1) ORDER BY cid", target.file);
        info.bind(1, table);
        while (info.step())
            s.columns[table].push_back(info.text(0));
        if (kSpecial.count(table))
            continue;
        Stmt keys(target.db, "SELECT \"table\", \"from\" FROM pragma_foreign_key_list(?1)", target.file);
        keys.bind(1, table);
        std::vector<std::pair<std::string, std::string>> refs;
        while (keys.step())
            refs.emplace_back(keys.text(0), keys.text(1));
        if (refs.empty())
            s.freeTables.push_back(table);
        else if (refs.size() == 1 && refs[0].first == "run")
            s.runChildren.emplace_back(table, refs[0].second);
        else if (refs.size() == 1 && refs[0].first == "trajectory")
            s.trajectoryChildren.emplace_back(table, refs[0].second);
        else
            throw StoreError(target.file + ": merge: table " + table + " refers to " + refs[0].first
                + " in a way merge does not know; this build cannot merge this schema");
    }
    return s;
}

class Merger {
public:
    Merger(const Side& target, const Schema& schema, const MergeOptions& options)
        : m_dst(target)
        , m_schema(schema)
        , m_options(options)
    {
    }

    /// Copies the rows of `table` that `where` (with ?1 bound to `key`) selects from `src`, changing the columns of
    /// `fixes`. Returns the last inserted row id.
    std::int64_t copy(const Side& src, const std::string& table, const std::string& where, std::int64_t key,
        const std::map<std::string, Fix>& fixes, const char* insert = "INSERT")
    {
        std::string select, names, values;
        std::vector<std::pair<std::string, int>> plan; // (column, source column index or -1)
        int sourceIndex = 0;
        for (const auto& c : m_schema.columns.at(table)) {
            const auto fix = fixes.find(c);
            if (fix != fixes.end() && fix->second.kind == Fix::Kind::Drop)
                continue;
            names += (names.empty() ? "\"" : ", \"") + c + "\"";
            values += values.empty() ? "?" : ", ?";
            const bool fromSource = fix == fixes.end() || fix->second.kind == Fix::Kind::Add;
            if (fromSource)
                select += (select.empty() ? "\"" : ", \"") + c + "\"";
            plan.emplace_back(c, fromSource ? sourceIndex++ : -1);
        }
        Stmt read(src.db,
            "SELECT " + (select.empty() ? std::string("1") : select) + " FROM \"" + table + "\" WHERE " + where,
            src.file);
        read.bind(1, key);
        Stmt write(m_dst.db, std::string(insert) + " INTO \"" + table + "\" (" + names + ") VALUES (" + values + ")",
            m_dst.file);
        while (read.step()) {
            int i = 1;
            for (const auto& [column, from] : plan) {
                const auto fix = fixes.find(column);
                if (from < 0) {
                    if (fix->second.value)
                        sqlite3_bind_int64(write.get(), i, *fix->second.value);
                    else
                        sqlite3_bind_null(write.get(), i);
                } else if (fix != fixes.end() && sqlite3_column_type(read.get(), from) != SQLITE_NULL) {
                    sqlite3_bind_int64(write.get(), i, read.integer(from) + fix->second.value.value_or(0));
                } else {
                    sqlite3_bind_value(write.get(), i, sqlite3_column_value(read.get(), from));
                }
                ++i;
            }
            write.exec();
            write.reset();
            ++m_counts.rows;
        }
        return sqlite3_last_insert_rowid(m_dst.db);
    }

    std::optional<std::int64_t> idByUid(const char* table, const std::string& uid)
    {
        Stmt st(m_dst.db, std::string("SELECT id FROM ") + table + " WHERE uid = ?1", m_dst.file);
        st.bind(1, uid);
        return st.step() ? std::optional(st.integer(0)) : std::nullopt;
    }

    using Standing = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t>;

    /// How far a run got: finished, last iteration with metrics, trajectories, SFT steps (compared in that order).
    static Standing standing(const Side& side, std::int64_t runId)
    {
        Stmt st(side.db,
            "SELECT status = 'finished', (SELECT coalesce(max(iteration), -1) FROM metric WHERE run_id = ?1), "
            "(SELECT count(*) FROM trajectory WHERE run_id = ?1), (SELECT count(*) FROM sft_metric WHERE run_id = ?1) "
            "FROM run WHERE id = ?1",
            side.file);
        st.bind(1, runId);
        if (!st.step())
            return { -1, -1, -1, -1 };
        return { st.integer(0), st.integer(1), st.integer(2), st.integer(3) };
    }

    /// Copies run `srcId` into the target as run `dstId` (a new id when nullopt), with everything that hangs off it.
    std::int64_t copyRun(const Side& src, std::int64_t srcId, std::optional<std::int64_t> dstId)
    {
        const std::int64_t run = copy(src, "run", "id = ?1", srcId,
            { { "id", dstId ? Fix { Fix::Kind::Set, dstId } : Fix { Fix::Kind::Drop, {} } } });
        for (const auto& [table, column] : m_schema.runChildren)
            copy(src, table, "\"" + column + "\" = ?1", srcId, { { column, Fix { Fix::Kind::Set, run } } });
        Stmt range(src.db, "SELECT min(id) FROM trajectory WHERE run_id = ?1", src.file);
        range.bind(1, srcId);
        if (!range.step() || !range.optInteger(0))
            return run;
        Stmt top(m_dst.db, "SELECT coalesce(max(id), 0) FROM trajectory", m_dst.file);
        top.step();
        // Trajectory ids shift by one offset, so that their children follow with one addition.
        const std::int64_t offset = top.integer(0) + 1 - *range.optInteger(0);
        copy(src, "trajectory", "run_id = ?1", srcId,
            { { "id", Fix { Fix::Kind::Add, offset } }, { "run_id", Fix { Fix::Kind::Set, run } } });
        for (const auto& [table, column] : m_schema.trajectoryChildren)
            copy(src, table, "\"" + column + "\" IN (SELECT id FROM trajectory WHERE run_id = ?1)", srcId,
                { { column, Fix { Fix::Kind::Add, offset } } });
        return run;
    }

    void mergeInput(const Side& src, const std::function<void()>& runDone)
    {
        // What to take: everything, or one trial with its sweep and run.
        std::optional<std::int64_t> onlySweep, onlyRun, onlyTrial;
        if (m_options.trialUid) {
            Stmt t(src.db, "SELECT id, sweep_id, run_id FROM trial WHERE uid = ?1", src.file);
            t.bind(1, *m_options.trialUid);
            if (!t.step())
                throw StoreError(src.file + ": no trial " + *m_options.trialUid);
            onlyTrial = t.integer(0);
            onlySweep = t.integer(1);
            onlyRun = t.optInteger(2).value_or(-1);
        }

        std::map<std::int64_t, std::int64_t> sweeps, runs; // source id -> target id
        std::set<std::int64_t> taken; // source runs added or replaced from this input
        Stmt sweepRows(src.db, "SELECT id, uid FROM sweep WHERE ?1 IS NULL OR id = ?1 ORDER BY id", src.file);
        sweepRows.bind(1, onlySweep);
        while (sweepRows.step()) {
            const std::int64_t id = sweepRows.integer(0);
            if (const auto existing = idByUid("sweep", sweepRows.text(1))) {
                sweeps[id] = *existing;
                continue;
            }
            sweeps[id] = copy(src, "sweep", "id = ?1", id, { { "id", Fix { Fix::Kind::Drop, {} } } });
            ++m_counts.sweepsAdded;
        }

        Stmt runRows(src.db, "SELECT id, uid FROM run WHERE ?1 IS NULL OR id = ?1 ORDER BY id", src.file);
        runRows.bind(1, onlyRun);
        while (runRows.step()) {
            const std::int64_t id = runRows.integer(0);
            const auto existing = idByUid("run", runRows.text(1));
            if (!existing) {
                runs[id] = copyRun(src, id, std::nullopt);
                taken.insert(id);
                ++m_counts.runsAdded;
            } else if (standing(src, id) > standing(m_dst, *existing)) {
                Stmt(m_dst.db, "DELETE FROM run WHERE id = ?1", m_dst.file).bind(1, *existing).exec();
                runs[id] = copyRun(src, id, *existing);
                taken.insert(id);
                ++m_counts.runsReplaced;
            } else {
                runs[id] = *existing;
                ++m_counts.runsKept;
            }
            runDone();
        }

        Stmt trialRows(src.db,
            "SELECT id, sweep_id, run_id, uid, status FROM trial WHERE ?1 IS NULL OR id = ?1 ORDER BY id", src.file);
        trialRows.bind(1, onlyTrial);
        while (trialRows.step()) {
            const std::int64_t id = trialRows.integer(0);
            const auto srcRun = trialRows.optInteger(2);
            std::optional<std::int64_t> run;
            if (srcRun && runs.count(*srcRun))
                run = runs[*srcRun];
            const auto existing = idByUid("trial", trialRows.text(3));
            if (!existing) {
                copy(src, "trial", "id = ?1", id,
                    { { "id", Fix { Fix::Kind::Drop, {} } },
                        { "sweep_id", Fix { Fix::Kind::Set, sweeps.at(trialRows.integer(1)) } },
                        { "run_id", Fix { Fix::Kind::Set, run } } });
                ++m_counts.trialsAdded;
                continue;
            }
            Stmt current(m_dst.db, "SELECT run_id, status FROM trial WHERE id = ?1", m_dst.file);
            current.bind(1, *existing);
            current.step();
            const auto dstRun = current.optInteger(0);
            const bool finishedNow = trialRows.text(4) == "finished" && current.text(1) != "finished" && run == dstRun;
            if ((srcRun && taken.count(*srcRun)) || (!dstRun && run) || finishedNow) {
                Stmt objective(src.db, "SELECT objective FROM trial WHERE id = ?1", src.file);
                objective.bind(1, id);
                objective.step();
                Stmt update(
                    m_dst.db, "UPDATE trial SET run_id = ?1, status = ?2, objective = ?3 WHERE id = ?4", m_dst.file);
                update.bind(1, run).bind(2, trialRows.text(4)).bind(4, *existing);
                sqlite3_bind_value(update.get(), 3, sqlite3_column_value(objective.get(), 0));
                update.exec();
                ++m_counts.trialsUpdated;
            }
        }

        // Probe tables: a row per (sweep, run, episodes, seed, probe), compared with IS (a probe row may have no
        // sweep).
        Stmt probes(src.db, "SELECT id, sweep_id, run_id, episodes, seed, probe FROM probe_result", src.file);
        while (probes.step()) {
            const auto sweep = probes.optInteger(1);
            const std::int64_t run = probes.integer(2);
            if (!runs.count(run) || (sweep && !sweeps.count(*sweep)))
                continue;
            const std::optional<std::int64_t> dstSweep = sweep ? std::optional(sweeps.at(*sweep)) : std::nullopt;
            Stmt exists(m_dst.db,
                "SELECT 1 FROM probe_result WHERE sweep_id IS ?1 AND run_id = ?2 AND episodes = ?3 AND seed = ?4 AND "
                "probe = ?5",
                m_dst.file);
            exists.bind(1, dstSweep)
                .bind(2, runs.at(run))
                .bind(3, probes.integer(3))
                .bind(4, probes.integer(4))
                .bind(5, probes.text(5));
            if (exists.step())
                continue;
            copy(src, "probe_result", "id = ?1", probes.integer(0),
                { { "id", Fix { Fix::Kind::Drop, {} } }, { "sweep_id", Fix { Fix::Kind::Set, dstSweep } },
                    { "run_id", Fix { Fix::Kind::Set, runs.at(run) } } });
        }

        if (!m_options.trialUid)
            for (const auto& table : m_schema.freeTables)
                copy(src, table, "?1 = 0", 0, {}, "INSERT OR IGNORE");

        // A sweep that knows how many trials it has is finished once all of them are.
        for (const auto& [from, to] : sweeps)
            Stmt(m_dst.db,
                "UPDATE sweep SET status = CASE WHEN (SELECT count(*) FROM trial WHERE sweep_id = ?1 AND status = "
                "'finished') >= trials_planned THEN 'finished' ELSE 'running' END WHERE id = ?1 AND trials_planned IS "
                "NOT "
                "NULL",
                m_dst.file)
                .bind(1, to)
                .exec();
    }

    const MergeCounts& counts() const { return m_counts; }

private:
    Side m_dst;
    const Schema& m_schema;
    const MergeOptions& m_options;
    MergeCounts m_counts;
};

/// Opens an input read-only, refusing anything but a CreditLab database at this build's schema version.
std::unique_ptr<Store> openInput(const std::string& path, const std::string& target)
{
    std::error_code ec;
    if (fs::equivalent(path, target, ec))
        throw StoreError(path + ": is the database merged into (--into); name it once, as the target");
    if (!fs::is_regular_file(path, ec))
        throw StoreError(path + ": no such database");
    auto store = std::make_unique<Store>(path, Store::Access::ReadOnly);
    if (store->schemaVersion() != schema::kVersion)
        throw StoreError(path + ": schema version " + std::to_string(store->schemaVersion()) + ", this build merges "
            + std::to_string(schema::kVersion) + "; open it once for writing with this build first");
    return store;
}

} // namespace

MergeCounts mergeDatabases(Database& target, const std::vector<std::string>& inputs, const MergeOptions& options,
    const ProgressCallback& progress)
{
    using Clock = std::chrono::steady_clock;
    const Side dst { target.handle(), target.path() };
    const Schema schema = readSchema(dst);
    // Every input is checked, and its runs counted, before anything is written.
    Progress p;
    for (const auto& path : inputs) {
        auto store = openInput(path, target.path());
        p.total += options.trialUid
            ? 1
            : static_cast<std::uint64_t>(store->database().scalarInt("SELECT count(*) FROM run"));
    }
    const auto start = Clock::now();
    auto lastReport = start;
    Merger merger(dst, schema, options);
    Transaction tx(target);
    for (const auto& path : inputs) {
        auto store = openInput(path, target.path());
        const Side src { store->database().handle(), path };
        store->database().exec("BEGIN"); // one snapshot of the input, should another process be writing it
        merger.mergeInput(src, [&] {
            ++p.done;
            p.items = static_cast<std::uint64_t>(merger.counts().rows);
            const auto now = Clock::now();
            if (progress && (now - lastReport > std::chrono::milliseconds(100) || p.done == p.total)) {
                lastReport = now;
                p.elapsedSeconds = std::chrono::duration<double>(now - start).count();
                if (!progress(p))
                    throw Cancelled();
            }
        });
        store->database().exec("COMMIT");
    }
    tx.commit();
    return merger.counts();
}

} // namespace creditlab
