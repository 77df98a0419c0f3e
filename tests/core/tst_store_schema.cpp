// The storage schema: migrations, the file header, and files the Store must refuse untouched.
#include "core/storage/database.h"
#include "core/storage/humannote.h"
#include "core/storage/schema.h"
#include "core/storage/store.h"

#include "testutil.h"

#include <QTemporaryDir>
#include <QtTest/QTest>

#include <chrono>
#include <filesystem>
#include <set>
#include <sqlite3.h>
#include <thread>

using namespace creditlab;

// Declarations first: moc mis-reads raw string literals inside a class body.
class TestStoreSchema : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void newFileIsAtCurrentVersion();
    void reopenIsIdempotent();
    void migrationSqlRange();
    void migration_data();
    void migration();
    void migration2KeepsCredits();
    void migration3AddsJudgeCache();
    void migration5AddsProbeTables();
    void migration6BackFillsTheRunShape();
    void migration7AddsHumanNotes();
    void migration10AddsTheSourceFormat();
    void migration11GivesEveryRowAUid();
    void concurrentOpenersMigrateOnce();
    void emptySqliteFileIsMigrated();
    void emptyFileIsMigrated();
    void createsMissingFolders();
    void newerFileIsRefusedUntouched_data();
    void newerFileIsRefusedUntouched();
    void foreignFileIsRefusedUntouched_data();
    void foreignFileIsRefusedUntouched();
    void readOnlyMissingPath();
    void readOnlyNeedsUpgrade();
    void readOnlyCannotWrite();

private:
    std::string path(const char* name) const { return m_dir->filePath(name).toStdString(); }
    std::unique_ptr<QTemporaryDir> m_dir;
};

namespace {

const std::set<std::string> kTablesV1 = { "run", "run_config", "metric", "checkpoint", "trajectory", "turn", "credit",
    "judge_label", "human_label", "sweep", "trial" };
const std::set<std::string> kIndexesV1 = { "trajectory_by_run", "trial_by_sweep" };
const std::set<std::string> kTablesV3 = [] {
    auto t = kTablesV1;
    t.insert("judge_cache");
    return t;
}();
const std::set<std::string> kTablesV5 = [] {
    auto t = kTablesV3;
    t.insert("probe_result");
    return t;
}();
const std::set<std::string> kIndexesV5 = { "trajectory_by_run", "trial_by_sweep", "probe_result_by_run" };
const std::set<std::string> kIndexesV11 = [] {
    auto i = kIndexesV5;
    i.insert({ "run_by_uid", "sweep_by_uid", "trial_by_uid" });
    return i;
}();
const std::set<std::string> kTablesV7 = [] {
    auto t = kTablesV5;
    t.insert("human_note");
    return t;
}();
const std::set<std::string> kTablesV8 = [] {
    auto t = kTablesV7;
    t.insert("sft_metric");
    return t;
}();
const std::set<std::string> kTablesV9 = [] {
    auto t = kTablesV8;
    t.insert("token_segment");
    return t;
}();

/// The names of the user objects of one type ("table" or "index") in the database.
std::set<std::string> objects(Database& db, const char* type)
{
    Statement st = db.prepare("SELECT name FROM sqlite_master WHERE type = ? AND name NOT LIKE 'sqlite_%'");
    st.bind(1, type);
    std::set<std::string> out;
    while (st.step())
        out.insert(st.columnText(0));
    return out;
}

std::string pragmaText(Database& db, const char* pragma)
{
    Statement st = db.prepare(std::string("PRAGMA ") + pragma);
    return st.step() ? st.columnText(0) : std::string();
}

/// Runs `sql` on a raw SQLite connection (no CreditLab code involved) and closes it.
void rawExec(const std::string& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* err = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
    const std::string msg = err ? err : "";
    sqlite3_free(err);
    QCOMPARE(sqlite3_close(db), SQLITE_OK);
    QVERIFY2(rc == SQLITE_OK, msg.c_str());
}

/// The bytes of a database file and its WAL and shared-memory companions (absent: nullopt).
struct Snapshot {
    std::optional<std::string> main, wal, shm;
    bool operator==(const Snapshot&) const = default;
};

Snapshot snapshot(const std::string& path)
{
    auto read = [](const std::string& p) -> std::optional<std::string> {
        if (!std::filesystem::exists(p))
            return std::nullopt;
        return test::readFile(p);
    };
    return Snapshot { read(path), read(path + "-wal"), read(path + "-shm") };
}

/// Opens a Store and returns the StoreError message, or "" when the open succeeded.
std::string openError(const std::string& path, Store::Access access)
{
    try {
        Store store(path, access);
    } catch (const StoreError& e) {
        return e.what();
    }
    return {};
}

} // namespace

void TestStoreSchema::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestStoreSchema::newFileIsAtCurrentVersion()
{
    const std::string p = path("new.db");
    QVERIFY(!std::filesystem::exists(p));
    Store store(p);
    QVERIFY(std::filesystem::exists(p));
    QCOMPARE(store.path(), p);
    QCOMPARE(store.schemaVersion(), schema::kVersion);
    Database& db = store.database();
    QCOMPARE(db.scalarInt("PRAGMA user_version"), std::int64_t(schema::kVersion));
    QCOMPARE(db.scalarInt("PRAGMA application_id"), std::int64_t(schema::kApplicationId));
    QCOMPARE(db.scalarInt("PRAGMA application_id"), std::int64_t(0x43524c42));
    QCOMPARE(pragmaText(db, "journal_mode"), std::string("wal"));
    QCOMPARE(db.scalarInt("PRAGMA foreign_keys"), std::int64_t(1));
    QCOMPARE(objects(db, "table"), kTablesV9);
    QCOMPARE(objects(db, "index"), kIndexesV11);
    QVERIFY(store.runs().empty());
    QVERIFY(store.sweeps().empty());
}

void TestStoreSchema::reopenIsIdempotent()
{
    const std::string p = path("reopen.db");
    std::int64_t runId = 0;
    std::string schemaSql;
    {
        Store store(p);
        runId = store.createRun(NewRun { "kept", RunKind::Import, RunStatus::Finished, std::nullopt });
        Statement st = store.database().prepare("SELECT group_concat(sql, ';') FROM sqlite_master");
        QVERIFY(st.step());
        schemaSql = st.columnText(0);
    }
    for (int i = 0; i < 3; ++i) {
        Store store(p);
        QCOMPARE(store.schemaVersion(), schema::kVersion);
        Statement st = store.database().prepare("SELECT group_concat(sql, ';') FROM sqlite_master");
        QVERIFY(st.step());
        QCOMPARE(st.columnText(0), schemaSql);
        const auto runs = store.runs();
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(runs[0].id, runId);
        QCOMPARE(runs[0].name, std::string("kept"));
    }
    Store readOnly(p, Store::Access::ReadOnly);
    QCOMPARE(readOnly.runs().size(), std::size_t(1));
}

void TestStoreSchema::migrationSqlRange()
{
    QVERIFY(schema::migrationSql(0).empty());
    QVERIFY(schema::migrationSql(-1).empty());
    QVERIFY(schema::migrationSql(schema::kVersion + 1).empty());
    for (int v = 1; v <= schema::kVersion; ++v)
        QVERIFY2(!schema::migrationSql(v).empty(), qPrintable(QString("migration %1").arg(v)));
}

void TestStoreSchema::migration_data()
{
    // One row per migration: the tables and indexes that exist after applying migrations 1..N.
    QTest::addColumn<int>("version");
    QTest::addColumn<QStringList>("tables");
    QTest::addColumn<QStringList>("indexes");
    auto list = [](const std::set<std::string>& s) {
        QStringList l;
        for (const auto& n : s)
            l << QString::fromStdString(n);
        return l;
    };
    QTest::newRow("1: initial schema") << 1 << list(kTablesV1) << list(kIndexesV1);
    QTest::newRow("2: credit params") << 2 << list(kTablesV1) << list(kIndexesV1);
    QTest::newRow("3: http judge cache") << 3 << list(kTablesV3) << list(kIndexesV1);
    QTest::newRow("4: evaluation episodes") << 4 << list(kTablesV3) << list(kIndexesV1);
    QTest::newRow("5: probe tables") << 5 << list(kTablesV5) << list(kIndexesV5);
    QTest::newRow("6: run shape") << 6 << list(kTablesV5) << list(kIndexesV5);
    QTest::newRow("7: human notes") << 7 << list(kTablesV7) << list(kIndexesV5);
    QTest::newRow("8: SFT curves") << 8 << list(kTablesV8) << list(kIndexesV5);
    QTest::newRow("9: token segments") << 9 << list(kTablesV9) << list(kIndexesV5);
    QTest::newRow("10: source format") << 10 << list(kTablesV9) << list(kIndexesV5);
    QTest::newRow("11: uids") << 11 << list(kTablesV9) << list(kIndexesV11);
    QCOMPARE(schema::kVersion, 11); // a new migration needs its own row here
}

void TestStoreSchema::migration()
{
    QFETCH(int, version);
    QFETCH(QStringList, tables);
    QFETCH(QStringList, indexes);
    std::set<std::string> wantTables, wantIndexes;
    for (const auto& t : tables)
        wantTables.insert(t.toStdString());
    for (const auto& i : indexes)
        wantIndexes.insert(i.toStdString());

    // Applied by hand to an empty database, the SQL of migrations 1..N creates exactly these objects.
    const std::string p = path("manual.db");
    {
        Database db(p, Database::Access::ReadWrite);
        for (int v = 1; v <= version; ++v)
            db.exec(schema::migrationSql(v));
        QCOMPARE(objects(db, "table"), wantTables);
        QCOMPARE(objects(db, "index"), wantIndexes);
    }
    // A file at version N-1 (made by the same SQL) is brought to kVersion by opening it.
    const std::string q = path("upgrade.db");
    {
        Database db(q, Database::Access::ReadWrite);
        for (int v = 1; v < version; ++v)
            db.exec(schema::migrationSql(v));
        if (version > 1)
            db.exec("PRAGMA application_id = " + std::to_string(schema::kApplicationId));
        db.exec("PRAGMA user_version = " + std::to_string(version - 1));
    }
    Store store(q);
    QCOMPARE(store.schemaVersion(), schema::kVersion);
    QCOMPARE(store.database().scalarInt("PRAGMA application_id"), std::int64_t(schema::kApplicationId));
    if (version == schema::kVersion) {
        QCOMPARE(objects(store.database(), "table"), wantTables);
        QCOMPARE(objects(store.database(), "index"), wantIndexes);
    }
}

/// Migration 11: existing runs, sweeps and trials get distinct uids; new ones get one when inserted, unless they
/// come with their own (sweep trial, merge); a uid is unique.
void TestStoreSchema::migration11GivesEveryRowAUid()
{
    const std::string p = path("v10.db");
    {
        Database db(p, Database::Access::ReadWrite);
        for (int v = 1; v <= 10; ++v)
            db.exec(schema::migrationSql(v));
        db.exec(
            "INSERT INTO run (id, name, kind, created_at) VALUES (1, 'a', 'import', 'now'), (2, 'b', 'train', 'now')");
        db.exec("INSERT INTO sweep (id, name, config, created_at) VALUES (1, 's', '', 'now')");
        db.exec("INSERT INTO trial (id, sweep_id, run_id, params) VALUES (1, 1, 2, 'x=1')");
        db.exec("PRAGMA application_id = " + std::to_string(schema::kApplicationId));
        db.exec("PRAGMA user_version = 10");
    }
    Store store(p);
    Database& db = store.database();
    QCOMPARE(db.scalarInt("SELECT count(DISTINCT uid) FROM run WHERE length(uid) = 32"), std::int64_t(2));
    QCOMPARE(db.scalarInt("SELECT count(*) FROM sweep WHERE length(uid) = 32"), std::int64_t(1));
    QCOMPARE(db.scalarInt("SELECT count(*) FROM trial WHERE length(uid) = 32"), std::int64_t(1));
    const std::int64_t run = store.createRun({ "c", RunKind::Train, RunStatus::Running, {}, {} });
    QCOMPARE(db.scalarInt("SELECT count(DISTINCT uid) FROM run"), std::int64_t(3));
    store.setRunUid(run, "sweep-x/trial-0/run");
    QCOMPARE(db.scalarInt("SELECT count(*) FROM run WHERE uid = 'sweep-x/trial-0/run'"), std::int64_t(1));
    QVERIFY_THROWS_EXCEPTION(StoreError, store.setRunUid(1, "sweep-x/trial-0/run"));
    // Found again by uid, not made twice.
    const std::int64_t sweep = store.ensureSweep("sweep-x", "x", "config", 2);
    QCOMPARE(store.ensureSweep("sweep-x", "x", "config", 2), sweep);
    const auto trial = store.ensureTrial("sweep-x/trial-0", sweep, "k=1");
    QCOMPARE(store.ensureTrial("sweep-x/trial-0", sweep, "k=1").id, trial.id);
    QCOMPARE(trial.status, TrialStatus::Pending);
    QCOMPARE(db.scalarInt("SELECT count(*) FROM trial WHERE sweep_id = " + std::to_string(sweep)), std::int64_t(1));
    store.finishTrial(trial.id, run, TrialStatus::Finished, 0.5);
    store.updatePlannedSweepStatus(sweep);
    QCOMPARE(store.sweep(sweep)->status, TrialStatus::Running); // 1 of 2 trials
}

/// Two processes opening an old file at once (an experiment's trainers): the one that waits for the other's
/// migration must not run it again ("table human_note already exists" once failed an experiment).
void TestStoreSchema::migration10AddsTheSourceFormat()
{
    // A version-9 file with an import: it opens at the current version with no format for the old import (nothing
    // says which it was), and a new import's format round-trips, as does a run without one.
    const std::string p = path("v9.db");
    {
        Database db(p, Database::Access::ReadWrite);
        for (int v = 1; v <= 9; ++v)
            db.exec(schema::migrationSql(v));
        db.exec("INSERT INTO run (id, name, kind, source, created_at) VALUES (1, 'old', 'import', '/a.jsonl', 'now')");
        db.exec("PRAGMA application_id = " + std::to_string(schema::kApplicationId));
        db.exec("PRAGMA user_version = 9");
    }
    Store store(p);
    QCOMPARE(store.schemaVersion(), schema::kVersion);
    QCOMPARE(store.run(1)->source, std::optional<std::string>("/a.jsonl"));
    QVERIFY(!store.run(1)->sourceFormat);
    const std::int64_t id = store.createRun(
        { "new", RunKind::Import, RunStatus::Finished, std::string("/b.jsonl"), std::string("SWE-agent trajectory") });
    const std::int64_t trained = store.createRun({ "trained", RunKind::Train, RunStatus::Running, {}, {} });
    const auto runs = store.runs();
    QCOMPARE(runs.size(), std::size_t(3));
    QCOMPARE(runs[1].id, id);
    QCOMPARE(runs[1].sourceFormat, std::optional<std::string>("SWE-agent trajectory"));
    QCOMPARE(store.run(id)->sourceFormat, std::optional<std::string>("SWE-agent trajectory"));
    QVERIFY(!store.run(trained)->sourceFormat);
}

void TestStoreSchema::concurrentOpenersMigrateOnce()
{
    const std::string q = path("race.db");
    {
        Database db(q, Database::Access::ReadWrite);
        db.exec("PRAGMA journal_mode = WAL");
        for (int v = 1; v <= 6; ++v)
            db.exec(schema::migrationSql(v));
        db.exec("PRAGMA application_id = " + std::to_string(schema::kApplicationId));
        db.exec("PRAGMA user_version = 6");
    }
    Database first(q, Database::Access::ReadWrite);
    first.exec("BEGIN IMMEDIATE"); // the first opener holds the write lock while it migrates
    std::string error;
    std::int64_t version = 0;
    std::thread second([&] {
        try {
            Store store(q); // reads version 6, then waits for the lock
            version = store.schemaVersion();
        } catch (const std::exception& e) {
            error = e.what();
        }
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    for (int v = 7; v <= schema::kVersion; ++v)
        first.exec(schema::migrationSql(v));
    first.exec("PRAGMA user_version = " + std::to_string(schema::kVersion));
    first.exec("COMMIT");
    second.join();
    QVERIFY2(error.empty(), error.c_str());
    QCOMPARE(version, std::int64_t(schema::kVersion));
}

void TestStoreSchema::migration2KeepsCredits()
{
    // A version-1 file with a stored credit opens at the current version, the credit intact and
    // tagged with empty parameters.
    const std::string p = path("v1.db");
    {
        Database db(p, Database::Access::ReadWrite);
        db.exec(schema::migrationSql(1));
        db.exec("INSERT INTO run (id, name, kind, created_at) VALUES (1, 'r', 'import', 'now');"
                "INSERT INTO trajectory (id, run_id, ord, ext_id, group_key, reward, turn_count) "
                "VALUES (1, 1, 0, 't', 'g', 1.0, 1);"
                "INSERT INTO turn (trajectory_id, idx, observation, action) VALUES (1, 0, 'o', 'a');"
                "INSERT INTO credit (trajectory_id, idx, method, advantage) VALUES (1, 0, 'grpo', 0.75);");
        db.exec("PRAGMA application_id = " + std::to_string(schema::kApplicationId));
        db.exec("PRAGMA user_version = 1");
    }
    Store store(p);
    QCOMPARE(store.schemaVersion(), schema::kVersion);
    QCOMPARE(store.credits(1, "grpo"), std::vector<double> { 0.75 });
    QCOMPARE(store.creditParams(1, "grpo"), std::optional<std::string>(""));
    const Trajectory t = store.loadTrajectory(1);
    QCOMPARE(t.turns.at(0).credits.size(), std::size_t(1));
    QCOMPARE(t.turns.at(0).credits.at(0).first, std::string("grpo"));
}

void TestStoreSchema::migration3AddsJudgeCache()
{
    // A version-2 file with a run opens at the current version, the run intact and an empty judge cache that
    // takes a role or an error, never neither.
    const std::string p = path("v2.db");
    {
        Database db(p, Database::Access::ReadWrite);
        db.exec(schema::migrationSql(1));
        db.exec(schema::migrationSql(2));
        db.exec("INSERT INTO run (id, name, kind, created_at) VALUES (1, 'r', 'import', 'now');");
        db.exec("PRAGMA application_id = " + std::to_string(schema::kApplicationId));
        db.exec("PRAGMA user_version = 2");
    }
    Store store(p);
    QCOMPARE(store.schemaVersion(), schema::kVersion);
    QCOMPARE(store.runs().size(), std::size_t(1));
    Database& db = store.database();
    QCOMPARE(db.scalarInt("SELECT count(*) FROM judge_cache"), std::int64_t(0));
    db.exec("INSERT INTO judge_cache (key, model, role, created_at) VALUES ('a', 'm', 'D', 'now')");
    db.exec("INSERT INTO judge_cache (key, model, error, created_at) VALUES ('b', 'm', 'HTTP 500', 'now')");
    QVERIFY_THROWS_EXCEPTION(
        StoreError, db.exec("INSERT INTO judge_cache (key, model, created_at) VALUES ('c', 'm', 'now')"));
    QVERIFY_THROWS_EXCEPTION(
        StoreError, db.exec("INSERT INTO judge_cache (key, model, role, created_at) VALUES ('d', 'm', 'X', 'now')"));
    QCOMPARE(db.scalarInt("SELECT count(*) FROM judge_cache"), std::int64_t(2));
}

void TestStoreSchema::migration5AddsProbeTables()
{
    // A version-4 file with a run and a sweep opens at the current version with an empty probe table, which keeps
    // one table per (sweep, run, episodes, seed): storing it again replaces it, and deleting the run deletes it.
    const std::string p = path("v4.db");
    {
        Database db(p, Database::Access::ReadWrite);
        for (int v = 1; v <= 4; ++v)
            db.exec(schema::migrationSql(v));
        db.exec("INSERT INTO run (id, name, kind, created_at) VALUES (1, 'sft', 'train', 'now');"
                "INSERT INTO sweep (id, name, config, created_at) VALUES (1, 'pair', 'name: pair', 'now');");
        db.exec("PRAGMA application_id = " + std::to_string(schema::kApplicationId));
        db.exec("PRAGMA user_version = 4");
    }
    Store store(p);
    QCOMPARE(store.schemaVersion(), schema::kVersion);
    QCOMPARE(store.runs().size(), std::size_t(1));
    QVERIFY(store.probeResults(1).empty());
    const auto row = [](std::int64_t seed, const char* probe, double clean, double contaminated) {
        return ProbeResult { 1, 1, "run 1 SFT policy", 40, seed, probe, 64, clean, contaminated, 0.6, 0.02, 0.12 };
    };
    store.addProbeTable({ row(43, "last_token", 0.66, 0.63), row(43, "attention", 0.61, 0.61) });
    store.addProbeTable({ row(42, "last_token", 0.65, 0.62) });
    store.addProbeTable({ row(42, "last_token", 0.70, 0.60), row(42, "attention", 0.62, 0.62) }); // replaces seed 42
    const auto rows = store.probeResults(1);
    QCOMPARE(rows.size(), std::size_t(4));
    QCOMPARE(rows[0].seed, std::int64_t(42));
    QCOMPARE(rows[0].probe, std::string("last_token"));
    QCOMPARE(rows[0].aurocClean, 0.70);
    QCOMPARE(rows[1].probe, std::string("attention"));
    QCOMPARE(rows[3].aurocContaminated, 0.61);
    QCOMPARE(rows[2].policy, std::string("run 1 SFT policy"));
    // A table whose rows disagree on the seed is refused whole.
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
        store.addProbeTable({ row(44, "last_token", 0.6, 0.6), row(45, "attention", 0.6, 0.6) }));
    QCOMPARE(store.probeResults(1).size(), std::size_t(4));
    store.deleteRun(1);
    QVERIFY(store.probeResults(1).empty());
}

void TestStoreSchema::migration6BackFillsTheRunShape()
{
    // A version-5 file with a trained run (its config as TrainConfig::toYaml writes it), a run whose config lacks
    // some keys, and an import: the shape columns are filled from the config where it has them, NULL elsewhere.
    const std::string p = path("v5.db");
    {
        Database db(p, Database::Access::ReadWrite);
        for (int v = 1; v <= 5; ++v)
            db.exec(schema::migrationSql(v));
        db.exec("INSERT INTO run (id, name, kind, created_at) VALUES (1, 'trained', 'train', 'now'), "
                "(2, 'partial', 'trial', 'now'), (3, 'imported', 'import', 'now');"
                "INSERT INTO run_config (run_id, format, text) VALUES "
                "(1, 'yaml', 'checkpoint.every: 10\ncredit.method: triage\ncredit.shadow: true\nenv.name: household\n"
                "policy.layers: 2\npolicy.width: 256\nrl.iterations: 30\nrl.tasks: 4\nseed: 12\n'), "
                "(2, 'yaml', 'credit.method: grpo\nenv.name: shop');");
        db.exec("PRAGMA application_id = " + std::to_string(schema::kApplicationId));
        db.exec("PRAGMA user_version = 5");
    }
    Store store(p);
    QCOMPARE(store.schemaVersion(), schema::kVersion);
    const auto runs = store.runs();
    QCOMPARE(runs.size(), std::size_t(3));
    QCOMPARE(runs[0].method, std::optional<std::string>("triage"));
    QCOMPARE(runs[0].environment, std::optional<std::string>("household"));
    QCOMPARE(runs[0].seed, std::optional<std::int64_t>(12));
    QCOMPARE(runs[0].policyWidth, std::optional<std::int64_t>(256));
    QCOMPARE(runs[0].policyLayers, std::optional<std::int64_t>(2));
    QCOMPARE(runs[0].iterationsPlanned, std::optional<std::int64_t>(30));
    QCOMPARE(runSummary(runs[0]), std::string("household · triage · s12 · 256×2"));
    QCOMPARE(runs[1].method, std::optional<std::string>("grpo"));
    QCOMPARE(runs[1].environment, std::optional<std::string>("shop")); // the last line, without a newline
    QVERIFY(!runs[1].seed && !runs[1].iterationsPlanned);
    QCOMPARE(runSummary(runs[1]), std::string("shop · grpo"));
    QVERIFY(!runs[2].method && !runs[2].environment && !runs[2].seed);
    QCOMPARE(runSummary(runs[2]), std::string());
    // The trainer's record replaces it.
    store.setRunShape(2, RunShape { "grpo", "shop", 3, 64, 1, 12 });
    QCOMPARE(store.run(2)->iterationsPlanned, std::optional<std::int64_t>(12));
}

void TestStoreSchema::migration7AddsHumanNotes()
{
    // A version-6 file with a labelled turn opens at the current version, the label intact and no notes; notes
    // are written, replaced, deleted when emptied, and go with their trajectory.
    const std::string p = path("v6.db");
    {
        Database db(p, Database::Access::ReadWrite);
        for (int v = 1; v <= 6; ++v)
            db.exec(schema::migrationSql(v));
        db.exec("INSERT INTO run (id, name, kind, created_at) VALUES (1, 'r', 'import', 'now');"
                "INSERT INTO trajectory (id, run_id, ord, ext_id, group_key, reward, turn_count) "
                "VALUES (5, 1, 0, 't', 'g', 1, 2);"
                "INSERT INTO turn (trajectory_id, idx, observation, action) VALUES (5, 0, 'o', 'a'), (5, 1, 'o', 'b');"
                "INSERT INTO human_label (trajectory_id, idx, annotator, role, created_at) "
                "VALUES (5, 1, 'ann', 'E', 'now');");
        db.exec("PRAGMA application_id = " + std::to_string(schema::kApplicationId));
        db.exec("PRAGMA user_version = 6");
    }
    Store store(p);
    QCOMPARE(store.schemaVersion(), schema::kVersion);
    QCOMPARE(store.humanLabels(5).size(), std::size_t(1));
    QVERIFY(humanNotes(store, 5).empty());
    setHumanNote(store, HumanNote { 5, 1, "ann", true, false, "twice?", {} });
    setHumanNote(store, HumanNote { 5, 0, "ann", false, true, {}, {} });
    setHumanNote(store, HumanNote { 5, 0, "bob", false, false, "ok", {} });
    auto notes = humanNotes(store, 5);
    QCOMPARE(notes.size(), std::size_t(3));
    QCOMPARE(notes[0].annotator, std::string("ann"));
    QVERIFY(notes[0].skipped && !notes[0].flagged && notes[0].comment.empty());
    QCOMPARE(notes[1].comment, std::string("ok"));
    QVERIFY(notes[2].flagged && notes[2].turn == 1 && notes[2].comment == "twice?" && !notes[2].updatedAt.empty());
    setHumanNote(store, HumanNote { 5, 1, "ann", false, false, "once", {} }); // replaces
    setHumanNote(store, HumanNote { 5, 0, "ann", false, false, {}, {} }); // empty: deleted
    notes = humanNotes(store, 5);
    QCOMPARE(notes.size(), std::size_t(2));
    QCOMPARE(store.database().scalarInt("SELECT count(*) FROM human_note"), std::int64_t(2));
    QVERIFY(!notes[1].flagged && notes[1].comment == "once");
    // The CHECKs hold: a flag is 0 or 1.
    QVERIFY_THROWS_EXCEPTION(StoreError,
        store.database().exec("INSERT INTO human_note (trajectory_id, idx, annotator, flagged, updated_at) "
                              "VALUES (5, 1, 'x', 2, 'now')"));
    store.database().exec("DELETE FROM trajectory WHERE id = 5");
    QCOMPARE(store.database().scalarInt("SELECT count(*) FROM human_note"), std::int64_t(0));
}

void TestStoreSchema::emptySqliteFileIsMigrated()
{
    // An SQLite file without tables (application id 0, version 0) counts as new.
    const std::string p = path("blank.db");
    rawExec(p, "PRAGMA user_version = 0; VACUUM;");
    QVERIFY(std::filesystem::exists(p));
    Store store(p);
    QCOMPARE(store.schemaVersion(), schema::kVersion);
    QCOMPARE(objects(store.database(), "table"), kTablesV9);
}

void TestStoreSchema::emptyFileIsMigrated()
{
    const std::string p = path("zero.db");
    test::writeFile(p, "");
    Store store(p);
    QCOMPARE(store.schemaVersion(), schema::kVersion);
}

void TestStoreSchema::createsMissingFolders()
{
    const std::string p = path("a/b/c/runs.db");
    Store store(p);
    QVERIFY(std::filesystem::exists(p));
    QCOMPARE(store.schemaVersion(), schema::kVersion);
}

void TestStoreSchema::newerFileIsRefusedUntouched_data()
{
    QTest::addColumn<bool>("wal");
    QTest::addColumn<bool>("readOnly");
    QTest::newRow("rollback journal, read-write") << false << false;
    QTest::newRow("rollback journal, read-only") << false << true;
    QTest::newRow("WAL, read-write") << true << false;
    QTest::newRow("WAL, read-only") << true << true;
}

void TestStoreSchema::newerFileIsRefusedUntouched()
{
    QFETCH(bool, wal);
    QFETCH(bool, readOnly);
    const std::string p = path("newer.db");
    rawExec(p,
        std::string(wal ? "PRAGMA journal_mode = WAL;" : "") + "CREATE TABLE run (id INTEGER PRIMARY KEY, future TEXT);"
            + "INSERT INTO run (future) VALUES ('from the future');"
            + "PRAGMA application_id = " + std::to_string(schema::kApplicationId) + ";PRAGMA user_version = 99;");
    const Snapshot before = snapshot(p);
    QVERIFY(before.main && before.main->size() >= 512);
    QVERIFY(!before.wal); // the last connection closed cleanly

    const std::string error = openError(p, readOnly ? Store::Access::ReadOnly : Store::Access::ReadWrite);
    QVERIFY2(error.find("newer") != std::string::npos, error.c_str());
    QVERIFY2(error.find("99") != std::string::npos, error.c_str());
    QVERIFY2(error.find(p) != std::string::npos, error.c_str());
    QVERIFY2(error.find("not modified") != std::string::npos, error.c_str());

    const Snapshot after = snapshot(p);
    QVERIFY2(after.main == before.main, "the database file changed");
    // A read-only SQLite connection to a WAL file cannot remove the companions it creates (plain
    // SQLite behaviour): an empty -wal (no frames, so no change) and the -shm index may remain.
    if (wal && readOnly)
        QVERIFY2(!after.wal || after.wal->empty(), "the -wal file holds frames: the database was modified");
    else
        QVERIFY2(after == before, "a -wal or -shm file was left behind");

    // The file is still the other program's: its version and data are intact.
    Database db(p, Database::Access::ReadOnly);
    QCOMPARE(db.scalarInt("PRAGMA user_version"), std::int64_t(99));
    QCOMPARE(db.scalarInt("SELECT count(*) FROM run WHERE future = 'from the future'"), std::int64_t(1));
}

void TestStoreSchema::foreignFileIsRefusedUntouched_data()
{
    QTest::addColumn<int>("kind"); // 0 text file, 1 SQLite with tables and application id 0, 2 other application id
    QTest::addColumn<bool>("readOnly");
    QTest::addColumn<QString>("message");
    QTest::newRow("text file, read-write") << 0 << false << "not an SQLite database";
    QTest::newRow("text file, read-only") << 0 << true << "not an SQLite database";
    QTest::newRow("other program's tables, read-write") << 1 << false << "not a CreditLab database";
    QTest::newRow("other program's tables, read-only") << 1 << true << "not a CreditLab database";
    QTest::newRow("other application id, read-write") << 2 << false << "not a CreditLab database";
}

void TestStoreSchema::foreignFileIsRefusedUntouched()
{
    QFETCH(int, kind);
    QFETCH(bool, readOnly);
    QFETCH(QString, message);
    const std::string p = path("foreign.db");
    if (kind == 0) {
        std::string text;
        for (int i = 0; i < 400; ++i)
            text += "line " + std::to_string(i) + ": this is a plain text file, not a database\n";
        test::writeFile(p, text);
    } else if (kind == 1) {
        rawExec(p,
            "CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount REAL); INSERT INTO invoices (amount) VALUES (9.5);");
    } else {
        rawExec(p, "PRAGMA application_id = 1234; PRAGMA user_version = 1; VACUUM;");
    }
    const Snapshot before = snapshot(p);
    QVERIFY(before.main && !before.main->empty());

    const std::string error = openError(p, readOnly ? Store::Access::ReadOnly : Store::Access::ReadWrite);
    QVERIFY2(error.find(message.toStdString()) != std::string::npos, error.c_str());
    QVERIFY2(error.find(p) != std::string::npos, error.c_str());
    const Snapshot after = snapshot(p);
    QVERIFY2(after == before, "the refused file or its companions changed");
}

void TestStoreSchema::readOnlyMissingPath()
{
    const std::string p = path("missing/runs.db");
    const std::string error = openError(p, Store::Access::ReadOnly);
    QVERIFY2(!error.empty(), "opened a missing database read-only");
    QVERIFY2(error.find(p) != std::string::npos, error.c_str());
    QVERIFY(!std::filesystem::exists(p));
    QVERIFY(!std::filesystem::exists(path("missing")));
}

void TestStoreSchema::readOnlyNeedsUpgrade()
{
    const std::string empty = path("empty.db");
    test::writeFile(empty, "");
    std::string error = openError(empty, Store::Access::ReadOnly);
    QVERIFY2(error.find("no CreditLab data yet") != std::string::npos, error.c_str());
    QCOMPARE(test::readFile(empty), std::string()); // still untouched

    // A file of an older schema: the message says how to upgrade it, and a read-only open leaves it as it was.
    const std::string old = path("old.db");
    { Store store(old); }
    rawExec(old, "PRAGMA user_version = " + std::to_string(schema::kVersion - 1));
    const Snapshot before = snapshot(old);
    error = openError(old, Store::Access::ReadOnly);
    QVERIFY2(error.find("older CreditLab (schema version " + std::to_string(schema::kVersion - 1)) != std::string::npos,
        error.c_str());
    QVERIFY2(error.find("workbench (creditlab " + old + ")") != std::string::npos, error.c_str());
    QVERIFY2(error.find("not modified") != std::string::npos, error.c_str());
    // The database file itself is byte for byte as it was (a reader of a WAL database may leave an empty -wal
    // and a -shm beside it, as SQLite's own shell does).
    QVERIFY(snapshot(old).main == before.main);
}

void TestStoreSchema::readOnlyCannotWrite()
{
    const std::string p = path("ro.db");
    std::int64_t runId = 0;
    std::int64_t rowId = 0;
    {
        Store store(p);
        runId = store.createRun(NewRun { "r", RunKind::Import, RunStatus::Finished, std::nullopt });
        rowId = store.insertTrajectory(runId, 0, test::minimalTrajectory("t", "g", 1.0, 2));
    }
    const Snapshot before = snapshot(p);
    Store store(p, Store::Access::ReadOnly);
    QCOMPARE(store.runs().size(), std::size_t(1));
    CL_COMPARE_TRAJ(store.loadTrajectory(rowId), test::minimalTrajectory("t", "g", 1.0, 2));

    QVERIFY_THROWS_EXCEPTION(
        StoreError, store.createRun(NewRun { "x", RunKind::Import, RunStatus::Finished, std::nullopt }));
    QVERIFY_THROWS_EXCEPTION(StoreError, store.renameRun(runId, "renamed"));
    QVERIFY_THROWS_EXCEPTION(StoreError, store.deleteRun(runId));
    QVERIFY_THROWS_EXCEPTION(StoreError, store.insertTrajectory(runId, 1, test::minimalTrajectory("u", "g", 0.0, 1)));
    const std::pair<std::string, double> m[] = { { "loss", 1.0 } };
    QVERIFY_THROWS_EXCEPTION(StoreError, store.writeMetrics(runId, 0, m));
    QVERIFY_THROWS_EXCEPTION(StoreError, store.setHumanLabel(rowId, 0, "alice", Role::D));
    QVERIFY_THROWS_EXCEPTION(StoreError, store.begin());
    QVERIFY_THROWS_EXCEPTION(StoreError, store.database().exec("CREATE TABLE x (y)"));

    const auto runs = store.runs();
    QCOMPARE(runs.size(), std::size_t(1));
    QCOMPARE(runs[0].name, std::string("r"));
    QCOMPARE(runs[0].trajectoryCount, std::int64_t(1));
    QVERIFY(store.humanLabels(rowId).empty());
    QVERIFY(snapshot(p).main == before.main);
}

QTEST_GUILESS_MAIN(TestStoreSchema)
#include "tst_store_schema.moc"
