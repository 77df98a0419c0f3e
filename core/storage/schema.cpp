#include "core/storage/schema.h"

#include "core/storage/database.h"

#include <cstring>
#include <fstream>
#include <string>

namespace creditlab::schema {

namespace {

// Version 1. Turn rows hold the text of the interchange format; optional JSONL fields are
// NULL when absent so that export reproduces the file. `extra` keeps unknown JSONL members.
constexpr std::string_view kV1 = R"sql(
CREATE TABLE run (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('import', 'train', 'trial')),
    status      TEXT NOT NULL DEFAULT 'finished',
    source      TEXT,
    created_at  TEXT NOT NULL,
    finished_at TEXT,
    tags        TEXT NOT NULL DEFAULT '',
    notes       TEXT NOT NULL DEFAULT ''
);

CREATE TABLE run_config (
    run_id INTEGER PRIMARY KEY REFERENCES run(id) ON DELETE CASCADE,
    format TEXT NOT NULL DEFAULT 'yaml',
    text   TEXT NOT NULL
);

CREATE TABLE metric (
    run_id    INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    iteration INTEGER NOT NULL,
    name      TEXT NOT NULL,
    value     REAL,
    PRIMARY KEY (run_id, name, iteration)
) WITHOUT ROWID;

CREATE TABLE checkpoint (
    run_id     INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    iteration  INTEGER NOT NULL,
    path       TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (run_id, iteration)
);

CREATE TABLE trajectory (
    id         INTEGER PRIMARY KEY,
    run_id     INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    ord        INTEGER NOT NULL,
    ext_id     TEXT NOT NULL,
    group_key  TEXT NOT NULL,
    iteration  INTEGER,
    task       TEXT,
    env        TEXT,
    goal       TEXT,
    reward     REAL NOT NULL,
    success    INTEGER,
    turn_count INTEGER NOT NULL,
    extra      TEXT NOT NULL DEFAULT '',
    UNIQUE (run_id, ext_id)
);
CREATE INDEX trajectory_by_run ON trajectory(run_id, iteration, ord);

CREATE TABLE turn (
    trajectory_id INTEGER NOT NULL REFERENCES trajectory(id) ON DELETE CASCADE,
    idx           INTEGER NOT NULL,
    observation   TEXT NOT NULL,
    action        TEXT NOT NULL,
    feedback      TEXT,
    reward        REAL,
    valid         INTEGER,
    state         TEXT,
    progress      REAL,
    -- An OR chain, not IN (...): IN builds an ephemeral table per row and halved import speed.
    role          TEXT CHECK (role IS NULL OR role = 'D' OR role = 'E' OR role = 'N' OR role = 'R'),
    role_source   TEXT,
    score         REAL,
    token_begin   INTEGER,
    token_end     INTEGER,
    extra         TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (trajectory_id, idx)
);

CREATE TABLE credit (
    trajectory_id INTEGER NOT NULL REFERENCES trajectory(id) ON DELETE CASCADE,
    idx           INTEGER NOT NULL,
    method        TEXT NOT NULL,
    advantage     REAL NOT NULL,
    details       TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (trajectory_id, method, idx)
);

CREATE TABLE judge_label (
    trajectory_id INTEGER NOT NULL REFERENCES trajectory(id) ON DELETE CASCADE,
    idx           INTEGER NOT NULL,
    judge         TEXT NOT NULL,
    role          TEXT NOT NULL CHECK (role = 'D' OR role = 'E' OR role = 'N' OR role = 'R'),
    confidence    REAL,
    rationale     TEXT,
    created_at    TEXT NOT NULL,
    PRIMARY KEY (trajectory_id, idx, judge)
);

CREATE TABLE human_label (
    trajectory_id INTEGER NOT NULL REFERENCES trajectory(id) ON DELETE CASCADE,
    idx           INTEGER NOT NULL,
    annotator     TEXT NOT NULL,
    role          TEXT NOT NULL CHECK (role = 'D' OR role = 'E' OR role = 'N' OR role = 'R'),
    created_at    TEXT NOT NULL,
    PRIMARY KEY (trajectory_id, idx, annotator)
);

CREATE TABLE sweep (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    config     TEXT NOT NULL,
    status     TEXT NOT NULL DEFAULT 'pending',
    created_at TEXT NOT NULL
);

CREATE TABLE trial (
    id        INTEGER PRIMARY KEY,
    sweep_id  INTEGER NOT NULL REFERENCES sweep(id) ON DELETE CASCADE,
    run_id    INTEGER REFERENCES run(id) ON DELETE SET NULL,
    params    TEXT NOT NULL,
    status    TEXT NOT NULL DEFAULT 'pending',
    objective REAL
);
CREATE INDEX trial_by_sweep ON trial(sweep_id);
)sql";

// Version 2: credits are tagged with the parameters that produced them ("key=value,...",
// empty for credits imported from JSONL).
constexpr std::string_view kV2 = R"sql(
ALTER TABLE credit ADD COLUMN params TEXT NOT NULL DEFAULT '';
)sql";

// Version 3: the http judge's answers (core/judge/httpjudge.h), keyed by SHA-256 of (model, prompt), so a turn
// is never requested twice. A row holds a role, or the error of the last failed attempt (asked again later).
// Never an API key.
constexpr std::string_view kV3 = R"sql(
CREATE TABLE judge_cache (
    key        TEXT PRIMARY KEY,
    model      TEXT NOT NULL,
    role       TEXT CHECK (role IS NULL OR role IN ('D', 'E', 'N', 'R')),
    confidence REAL,
    rationale  TEXT,
    error      TEXT,
    attempts   INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    CHECK ((role IS NULL) <> (error IS NULL))
);
)sql";

// Version 4: a trained run's evaluation episodes (greedy, on eval.split's tasks) are stored beside its rollouts,
// marked here so that everything reading a run's training batches (credits, labels, iterations) leaves them out.
constexpr std::string_view kV4 = R"sql(
ALTER TABLE trajectory ADD COLUMN evaluation INTEGER NOT NULL DEFAULT 0;
)sql";

// Version 5: PAIR's probe tables (pair.md Table 1 on a run's policy), one row per probe, computed for an experiment
// with `probes:` (one table per contamination seed) and judged by its probe claims. Deleted with the run or the sweep.
constexpr std::string_view kV5 = R"sql(
CREATE TABLE probe_result (
    id                 INTEGER PRIMARY KEY,
    sweep_id           INTEGER REFERENCES sweep(id) ON DELETE CASCADE,
    run_id             INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    policy             TEXT NOT NULL,
    episodes           INTEGER NOT NULL,
    seed               INTEGER NOT NULL,
    probe              TEXT NOT NULL,
    features           INTEGER NOT NULL,
    auroc_clean        REAL NOT NULL,
    auroc_contaminated REAL NOT NULL,
    auroc_union        REAL NOT NULL,
    ece                REAL NOT NULL,
    brier              REAL NOT NULL,
    created_at         TEXT NOT NULL,
    UNIQUE (sweep_id, run_id, episodes, seed, probe)
);
CREATE INDEX probe_result_by_run ON probe_result(run_id);
)sql";

// Version 6: a training run's shape as typed columns (credit.method, env.name, seed, policy.width, policy.layers,
// rl.iterations), set by the trainer with its config, so that lists, Compare and the Monitor read columns instead of
// parsing the stored config text. Back-filled here from the stored config of existing runs (TrainConfig::toYaml
// writes one `key: value` line per key).
constexpr std::string_view kV6 = R"sql(
ALTER TABLE run ADD COLUMN method TEXT;
ALTER TABLE run ADD COLUMN environment TEXT;
ALTER TABLE run ADD COLUMN seed INTEGER;
ALTER TABLE run ADD COLUMN policy_width INTEGER;
ALTER TABLE run ADD COLUMN policy_layers INTEGER;
ALTER TABLE run ADD COLUMN iterations_planned INTEGER;
CREATE TEMP TABLE config_value AS
WITH RECURSIVE line(run_id, text, rest) AS (
    SELECT run_id, '', text || char(10) FROM run_config
    UNION ALL
    SELECT run_id, substr(rest, 1, instr(rest, char(10)) - 1), substr(rest, instr(rest, char(10)) + 1) FROM line
    WHERE rest <> ''
)
SELECT run_id, substr(text, 1, instr(text, ': ') - 1) AS key, substr(text, instr(text, ': ') + 2) AS value
FROM line WHERE instr(text, ': ') > 0;
CREATE INDEX temp.config_value_by_key ON config_value(run_id, key);
UPDATE run SET
    method = (SELECT value FROM config_value v WHERE v.run_id = run.id AND v.key = 'credit.method'),
    environment = (SELECT value FROM config_value v WHERE v.run_id = run.id AND v.key = 'env.name'),
    seed = (SELECT CAST(value AS INTEGER) FROM config_value v WHERE v.run_id = run.id AND v.key = 'seed'),
    policy_width = (SELECT CAST(value AS INTEGER) FROM config_value v WHERE v.run_id = run.id AND v.key = 'policy.width'),
    policy_layers = (SELECT CAST(value AS INTEGER) FROM config_value v WHERE v.run_id = run.id AND v.key = 'policy.layers'),
    iterations_planned
        = (SELECT CAST(value AS INTEGER) FROM config_value v WHERE v.run_id = run.id AND v.key = 'rl.iterations');
DROP TABLE config_value;
)sql";

// Version 7: what an annotator notes on a turn besides its role (the Annotate page): a flag ("look at this
// again"), a skip ("cannot decide", kept apart from a label) and a free comment. One row per (turn, annotator);
// a row whose flag, skip and comment are all empty is deleted, so a turn without notes has no row. Deleted with
// the trajectory.
constexpr std::string_view kV7 = R"sql(
CREATE TABLE human_note (
    trajectory_id INTEGER NOT NULL REFERENCES trajectory(id) ON DELETE CASCADE,
    idx           INTEGER NOT NULL,
    annotator     TEXT NOT NULL,
    flagged       INTEGER NOT NULL DEFAULT 0 CHECK (flagged IN (0, 1)),
    skipped       INTEGER NOT NULL DEFAULT 0 CHECK (skipped IN (0, 1)),
    comment       TEXT NOT NULL DEFAULT '',
    updated_at    TEXT NOT NULL,
    PRIMARY KEY (trajectory_id, idx, annotator)
);
)sql";

// Version 8: SFT's curves, one row per SFT step (x: the step counted over all epochs and DAgger rounds), written by
// the trainer as it trains (sft/loss, sft/token_accuracy), so that the Monitor shows SFT live; the metric table keeps
// one value per RL iteration (SFT's summary at iteration 0). Deleted with the run; a run restarted from the beginning
// replaces them (Store::truncateRun with -1).
constexpr std::string_view kV8 = R"sql(
CREATE TABLE sft_metric (
    run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    step   INTEGER NOT NULL,
    name   TEXT NOT NULL,
    value  REAL,
    PRIMARY KEY (run_id, name, step)
) WITHOUT ROWID;
)sql";

// Version 9: a trained rollout's training sequences token by token, as the update saw them (Store::TokenSegment;
// the workbench's Tokens view): one row per sequence (episode mode: a segment, a new one where the stream restarted
// at the context; window mode: a turn). Arrays are little-endian BLOBs of one value per token: int32 ids and turns
// (-1 for context tokens), uint8 loss mask, float32 log-probs and advantages (NaN where there is none). Written by
// the trainer for rl.store_tokens rollouts per iteration; deleted with the trajectory.
constexpr std::string_view kV9 = R"sql(
CREATE TABLE token_segment (
    trajectory_id INTEGER NOT NULL REFERENCES trajectory(id) ON DELETE CASCADE,
    segment       INTEGER NOT NULL,
    tokens        BLOB NOT NULL,
    pieces        TEXT NOT NULL,
    turns         BLOB NOT NULL,
    mask          BLOB NOT NULL,
    behaviour     BLOB NOT NULL,
    current       BLOB NOT NULL,
    advantage     BLOB NOT NULL,
    PRIMARY KEY (trajectory_id, segment)
);
)sql";

// Version 10: the format an imported run was read from, as its source names it (TrajectorySource::formatName: "chat",
// "steps", a mapping file's `name:`), beside the file it came from. A typed column rather than a run_config row:
// run_config holds a run's own configuration (the trainer's YAML, a posted run's JSON, which /v1/runs returns and
// Compare diffs), and the run lists read it with the other run columns. NULL for runs imported before, and for others.
constexpr std::string_view kV10 = R"sql(
ALTER TABLE run ADD COLUMN source_format TEXT;
)sql";

// Version 11: identities that hold across databases (issue 36), so that `creditlab-cli merge` and `serve`'s
// POST /v1/merge recognise a run, a sweep or a trial they have already: `uid` on each, unique where set. A sweep run as
// `sweep trial` processes derives its sweep's and trials' uids from the sweep file's content and the trial number (the
// same on every machine), and a trial's run from its trial; other rows get a random uid when inserted (the triggers),
// and existing rows one here. `trials_planned`: the trials a sweep has in all, when the database may hold only some
// of them (a `sweep trial` database), so that a merge can tell when it is complete.
constexpr std::string_view kV11 = R"sql(
ALTER TABLE run ADD COLUMN uid TEXT;
ALTER TABLE sweep ADD COLUMN uid TEXT;
ALTER TABLE sweep ADD COLUMN trials_planned INTEGER;
ALTER TABLE trial ADD COLUMN uid TEXT;
UPDATE run SET uid = lower(hex(randomblob(16)));
UPDATE sweep SET uid = lower(hex(randomblob(16)));
UPDATE trial SET uid = lower(hex(randomblob(16)));
CREATE UNIQUE INDEX run_by_uid ON run(uid);
CREATE UNIQUE INDEX sweep_by_uid ON sweep(uid);
CREATE UNIQUE INDEX trial_by_uid ON trial(uid);
CREATE TRIGGER run_uid AFTER INSERT ON run WHEN NEW.uid IS NULL
BEGIN UPDATE run SET uid = lower(hex(randomblob(16))) WHERE id = NEW.id; END;
CREATE TRIGGER sweep_uid AFTER INSERT ON sweep WHEN NEW.uid IS NULL
BEGIN UPDATE sweep SET uid = lower(hex(randomblob(16))) WHERE id = NEW.id; END;
CREATE TRIGGER trial_uid AFTER INSERT ON trial WHEN NEW.uid IS NULL
BEGIN UPDATE trial SET uid = lower(hex(randomblob(16))) WHERE id = NEW.id; END;
)sql";

StoreError newerFileError(const std::string& path, std::int64_t version)
{
    return StoreError(path + ": written by a newer CreditLab (schema version " + std::to_string(version)
        + ", this build knows up to " + std::to_string(kVersion)
        + "); open it with a newer CreditLab. The file was not modified.");
}

} // namespace

const std::string& refuseNewerFile(const std::string& path)
{
    // Opening and closing the file here would drop the POSIX locks of this process's open connections to it;
    // another process could then take itself for the last connection and checkpoint and delete the WAL under
    // the writers (seen: a corrupted database after `train --resume` beside other runs). A file this process
    // already has open was checked when it was first opened.
    unsigned char header[100];
    if (!Database::readHeaderIfUnopened(path, header, sizeof header))
        return path; // open here already, missing or short: new, or not SQLite (prepare() explains)
    if (std::memcmp(header, "SQLite format 3", 16) != 0)
        return path;
    auto be32 = [&](int at) {
        return static_cast<std::int64_t>(
            static_cast<std::uint32_t>(header[at]) << 24 | header[at + 1] << 16 | header[at + 2] << 8 | header[at + 3]);
    };
    const std::int64_t version = be32(60); // PRAGMA user_version
    if (be32(68) == kApplicationId && version > kVersion) // PRAGMA application_id
        throw newerFileError(path, version);
    return path;
}

std::string_view migrationSql(int toVersion)
{
    switch (toVersion) {
    case 1:
        return kV1;
    case 2:
        return kV2;
    case 3:
        return kV3;
    case 4:
        return kV4;
    case 5:
        return kV5;
    case 6:
        return kV6;
    case 7:
        return kV7;
    case 8:
        return kV8;
    case 9:
        return kV9;
    case 10:
        return kV10;
    case 11:
        return kV11;
    default:
        return {};
    }
}

void prepare(Database& db)
{
    const std::string& path = db.path();
    std::int64_t version = 0;
    std::int64_t appId = 0;
    std::int64_t objects = 0;
    try {
        version = db.scalarInt("PRAGMA user_version");
        appId = db.scalarInt("PRAGMA application_id");
        objects = db.scalarInt("SELECT count(*) FROM sqlite_master");
    } catch (const StoreError&) {
        throw StoreError(path + ": not a CreditLab database (the file is not an SQLite database)");
    }
    if (appId != kApplicationId && (appId != 0 || objects != 0))
        throw StoreError(path + ": not a CreditLab database (it holds other data); the file was not modified");
    if (version > kVersion)
        throw newerFileError(path, version);

    if (db.readOnly()) {
        if (version == 0)
            throw StoreError(path
                + ": holds no CreditLab data yet (an empty database), and a command that only reads does not set one "
                  "up; import, roll out or train into it first. The file was not modified.");
        if (version < kVersion)
            throw StoreError(path + ": written by an older CreditLab (schema version " + std::to_string(version)
                + ", this build uses " + std::to_string(kVersion)
                + "), and a command that only reads does not upgrade it. Open it once for writing, in the workbench "
                  "(creditlab "
                + path
                + ") or with a command that writes to it (import, credit, train), then run this again; the upgrade "
                  "keeps every row. The file was not modified.");
        db.exec("PRAGMA query_only = ON");
        return;
    }

    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = NORMAL");
    db.exec("PRAGMA foreign_keys = ON");
    // Bulk imports build large transactions; 64 MiB keeps their pages in memory instead of spilling.
    db.exec("PRAGMA cache_size = -65536");
    for (int v = static_cast<int>(version) + 1; v <= kVersion; ++v) {
        Transaction tx(db); // BEGIN IMMEDIATE: one process migrates at a time
        // Another process may have migrated between our first read and this lock (two trainers opening an old file
        // at once): read the version again under the lock, and skip what is done.
        if (db.scalarInt("PRAGMA user_version") >= v) {
            tx.commit();
            continue;
        }
        db.exec(migrationSql(v));
        db.exec("PRAGMA application_id = " + std::to_string(kApplicationId));
        db.exec("PRAGMA user_version = " + std::to_string(v));
        tx.commit();
    }
}

} // namespace creditlab::schema
