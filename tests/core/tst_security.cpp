// Security basics of the store (issue 22 §8): text that would break SQL built by concatenation goes through every
// write path and comes back byte for byte, with the schema untouched; no secret reaches the database. The static
// half of "all SQL is bound" is tests/security/check_sql.sh.
#include "core/interchange/jsonl.h"
#include "core/interchange/jsonltransfer.h"
#include "core/interchange/jsonscanner.h"
#include "core/server/ingestserver.h"
#include "core/storage/humannote.h"
#include "core/storage/store.h"
#include "testutil.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace creditlab;

namespace {

/// Quotes, comment markers, statement separators, a format directive, a NUL byte and non-ASCII text.
const std::string kHostile = std::string("x'); DROP TABLE run; -- \" OR 1=1 /* %s %n ? ?1 :a @a $a */ ") + '\0'
    + " ; DELETE FROM trajectory; 日本語";

std::vector<std::string> schemaOf(Store& store)
{
    std::vector<std::string> out;
    Statement st = store.database().prepare("SELECT type || ' ' || name FROM sqlite_master ORDER BY name");
    while (st.step())
        out.push_back(st.columnText(0));
    return out;
}

} // namespace

class TestSecurity : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void hostileTextRoundTripsThroughEveryWritePath();
    void hostileTextThroughTheServer();
};

void TestSecurity::hostileTextRoundTripsThroughEveryWritePath()
{
    QTemporaryDir dir;
    Store store(dir.filePath("s.db").toStdString());
    const auto schema = schemaOf(store);
    const std::int64_t run = store.createRun({ kHostile, RunKind::Import, RunStatus::Finished, kHostile });
    store.renameRun(run, kHostile + "2");
    store.setRunTags(run, kHostile);
    store.setRunConfig(run, kHostile, kHostile);
    Trajectory t = test::minimalTrajectory(kHostile, kHostile, 1.0, 2);
    t.task.key = kHostile;
    t.task.env = kHostile;
    t.task.goal = kHostile;
    t.turns[0].observation = kHostile;
    t.turns[0].action = kHostile;
    t.turns[0].feedback = kHostile;
    t.turns[0].state = kHostile;
    t.turns[0].roleSource = kHostile;
    t.turns[0].credits = { { kHostile, 0.5 } };
    const std::int64_t row = store.insertTrajectory(run, 0, t);
    store.writeMetrics(run, 0, std::vector<std::pair<std::string, double>> { { kHostile, 1.5 } });
    store.setHumanLabel(row, 0, kHostile, Role::E);
    JudgeLabel j;
    j.trajectoryRowId = row;
    j.turn = 1;
    j.judge = kHostile;
    j.role = Role::D;
    j.rationale = kHostile;
    store.setJudgeLabel(j);
    setHumanNote(store, HumanNote { row, 1, kHostile, true, false, kHostile, {} });
    const std::int64_t sweep = store.createSweep(kHostile, kHostile);

    // Nothing was executed: the schema is as it was and every row is there.
    QCOMPARE(schemaOf(store), schema);
    QCOMPARE(store.runs().size(), std::size_t(1));
    const auto info = store.run(run);
    QCOMPARE(info->name, kHostile + "2");
    QCOMPARE(info->tags, kHostile);
    QCOMPARE(info->source.value_or(""), kHostile);
    QCOMPARE(store.runConfig(run).value_or(""), kHostile);
    const Trajectory back = store.loadTrajectory(row);
    QCOMPARE(back.id, kHostile);
    QCOMPARE(back.group, kHostile);
    QCOMPARE(back.task.goal.value_or(""), kHostile);
    QCOMPARE(back.turns[0].observation, kHostile);
    QCOMPARE(back.turns[0].action, kHostile);
    QCOMPARE(back.turns[0].feedback.value_or(""), kHostile);
    QCOMPARE(back.turns[0].state.value_or(""), kHostile);
    QCOMPARE(back.turns[0].roleSource.value_or(""), kHostile);
    QCOMPARE(store.creditMethods(run), std::vector<std::string> { kHostile });
    QCOMPARE(store.metrics(run).front().name, kHostile);
    QCOMPARE(store.humanLabels(row).front().annotator, kHostile);
    QCOMPARE(store.judgeLabels(row).front().judge, kHostile);
    QCOMPARE(store.judgeLabels(row).front().rationale.value_or(""), kHostile);
    QCOMPARE(humanNotes(store, row).front().comment, kHostile);
    QCOMPARE(store.sweep(sweep)->name, kHostile);
    QCOMPARE(store.sweep(sweep)->config, kHostile);
    // The same text through a JSONL import (ids, groups and unknown fields).
    std::string line;
    formatTrajectory(t, line);
    test::writeFile(dir.filePath("h.jsonl").toStdString(), line + "\n");
    const ImportResult imported = importJsonl(store, dir.filePath("h.jsonl").toStdString(), {}, kHostile);
    QCOMPARE(store.run(imported.runId)->name, kHostile);
    QCOMPARE(store.loadTrajectory(store.trajectories(imported.runId).front().rowId).turns[0].observation, kHostile);
    QCOMPARE(schemaOf(store), schema);
    Statement check = store.database().prepare("PRAGMA integrity_check");
    QVERIFY(check.step());
    QCOMPARE(check.columnText(0), std::string("ok"));
}

void TestSecurity::hostileTextThroughTheServer()
{
    QTemporaryDir dir;
    const std::string db = dir.filePath("s.db").toStdString();
    server::Api api(db);
    // JSON cannot carry a NUL in a name the server accepts as text, so the server's hostile text is the rest of it.
    std::string hostile = kHostile;
    hostile.erase(hostile.find('\0'), 1);
    std::string body = "{\"name\":";
    appendJsonString(body, hostile);
    body += ",\"tags\":";
    appendJsonString(body, hostile);
    body += "}";
    const server::Reply created = api.createRun(body, hostile);
    QCOMPARE(created.status, 201);
    Store store(db, Store::Access::ReadOnly);
    const auto runs = store.runs();
    QCOMPARE(runs.size(), std::size_t(1));
    QCOMPARE(runs.front().name, hostile);
    QCOMPARE(runs.front().tags, hostile);
}

QTEST_GUILESS_MAIN(TestSecurity)
#include "tst_security.moc"
