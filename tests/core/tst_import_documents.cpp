// JSON documents (core/interchange/importdocument.cpp: arrays, objects keyed by id, one record per file, a list inside
// an object) on fixtures shaped like tau-bench's, FireAct's, SWE-agent's and AgentGym's logs in data/import/documents,
// their round trips and errors; and source members named like ours (kept as source.<name>), which such logs carry.
#include "core/interchange/chattemplate.h"
#include "core/interchange/importformats.h"
#include "core/interchange/jsonl.h"
#include "core/interchange/jsonltransfer.h"
#include "core/storage/store.h"

#include "testutil.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest/QTest>

#include <cmath>
#include <string>
#include <vector>

using namespace creditlab;

class TestImportDocuments : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { m_dir = std::make_unique<QTemporaryDir>(); }
    void sourceMembersNamedLikeOursRoundTrip();
    void documentsImport_data();
    void documentsImport();
    void documentErrorsNameLineAndField();
    void oldExportsWithRepeatedKeysRead();

private:
    std::string path(const std::string& name) const
    {
        return m_dir->filePath(QString::fromStdString(name)).toStdString();
    }
    std::unique_ptr<QTemporaryDir> m_dir;
};

namespace {

std::string sample(const std::string& name) { return std::string(CREDITLAB_IMPORT_SAMPLES) + "/" + name; }

std::vector<Trajectory> readAll(const std::string& file, const ImportOptions& options = {})
{
    auto source = openTrajectorySource(file, options);
    std::vector<Trajectory> out;
    Trajectory t;
    while (source->next(t))
        out.push_back(t);
    return out;
}

} // namespace

void TestImportDocuments::sourceMembersNamedLikeOursRoundTrip()
{
    // A chat record whose messages carry an `action` member and whose record carries `goal` and `turns`-like members
    // (SWE-agent's trajectories do): kept as "source.<name>", so the export holds every key once, reads back as
    // itself, and exports again byte for byte.
    const std::string file = path("collide.jsonl");
    test::writeFile(file,
        "{\"id\":\"c1\",\"goal\":\"their goal\",\"turns\":3,\"messages\":[{\"role\":\"user\",\"content\":\"fix it\"},"
        "{\"role\":\"assistant\",\"content\":\"ls\",\"action\":\"ls -la\",\"observation\":{\"x\":1}},"
        "{\"role\":\"user\",\"content\":\"a.py\"}],\"reward\":1}\n");
    const auto imported = readAll(file);
    QCOMPARE(imported.size(), std::size_t(1));
    QCOMPARE(imported[0].turns.front().action, std::string("ls"));
    QVERIFY2(imported[0].turns.front().extra.find("\"source.action\":\"ls -la\"") != std::string::npos,
        imported[0].turns.front().extra.c_str());
    QVERIFY(imported[0].turns.front().extra.find("\"source.observation\":{\"x\":1}") != std::string::npos);
    QVERIFY2(imported[0].extra.find("\"source.goal\":\"their goal\"") != std::string::npos, imported[0].extra.c_str());
    QVERIFY(imported[0].extra.find("\"source.turns\":3") != std::string::npos);
    QVERIFY(!imported[0].task.goal); // their goal is not ours
    Store store(path("runs.db"));
    const ImportResult r = importFile(store, file, ImportOptions {});
    const std::string first = path("first.jsonl"), second = path("second.jsonl");
    exportJsonl(store, r.runId, std::nullopt, first);
    const auto back = readAll(first, ImportOptions::as(ImportFormat::Native));
    QCOMPARE(back.size(), std::size_t(1));
    CL_COMPARE_TRAJ(back[0], imported[0]);
    Store again(path("again.db"));
    const ImportResult r2 = importFile(again, first, ImportOptions::as(ImportFormat::Native));
    exportJsonl(again, r2.runId, std::nullopt, second);
    QCOMPARE(test::readFile(second), test::readFile(first));

    // Rows stored before the importers renamed (an extra that repeats one of our keys) are renamed on export.
    Trajectory t = imported[0];
    t.id = "old";
    t.turns.front().extra = "\"message_index\":1,\"action\":\"ls -la\",\"context\":[{\"role\":\"user\"}]";
    t.extra = "\"goal\":\"theirs\"";
    std::string line;
    formatTrajectory(t, line);
    Trajectory parsed;
    parseTrajectory(line, parsed); // throws on a key written twice
    QCOMPARE(parsed.turns.front().extra,
        std::string("\"message_index\":1,\"source.action\":\"ls -la\",\"context\":[{\"role\":\"user\"}]"));
    QCOMPARE(parsed.extra, std::string("\"source.goal\":\"theirs\""));
}

void TestImportDocuments::documentsImport_data()
{
    // JSON documents in the layouts public logs use (fixtures written here, shaped like each source):
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("map");
    QTest::addColumn<QStringList>("ids");
    QTest::addColumn<QList<int>>("turns");
    QTest::addColumn<QList<double>>("rewards");
    // tau-bench: an array of {task_id, trial, reward, traj: messages with tool calls}; ids from the record's line.
    QTest::newRow("array (tau-bench)") << "documents/tau-bench.json"
                                       << "" << QStringList { "line-2", "line-55" } << QList<int> { 2, 1 }
                                       << QList<double> { 1.0, 0.0 };
    // FireAct: an object keyed by id, boolean rewards.
    QTest::newRow("keyed by id (FireAct)") << "documents/fireact-trajs.json"
                                           << "" << QStringList { "hotpotqa-train-12", "hotpotqa-train-13" }
                                           << QList<int> { 2, 1 } << QList<double> { 1.0, 0.0 };
    // One pretty-printed record per file: the file's name is the id.
    QTest::newRow("one record per file") << "documents/swe-session.json"
                                         << "" << QStringList { "swe-session" } << QList<int> { 1 }
                                         << QList<double> { 1.0 };
    // AgentGym: a list inside an object, named by the mapping's records:.
    QTest::newRow("nested list (AgentGym)") << "documents/agentgym-episodes.json"
                                            << "documents/agentgym-episodes.map.yaml" << QStringList { "ep-0", "ep-1" }
                                            << QList<int> { 2, 1 } << QList<double> { 1.0, 0.0 };
}

void TestImportDocuments::documentsImport()
{
    QFETCH(QString, file);
    QFETCH(QString, map);
    QFETCH(QStringList, ids);
    QFETCH(QList<int>, turns);
    QFETCH(QList<double>, rewards);
    ImportOptions options;
    if (!map.isEmpty())
        options.mapPath = sample(map.toStdString());
    const auto t = readAll(sample(file.toStdString()), options);
    QCOMPARE(t.size(), static_cast<std::size_t>(ids.size()));
    for (std::size_t i = 0; i < t.size(); ++i) {
        QCOMPARE(QString::fromStdString(t[i].id), ids[static_cast<int>(i)]);
        QCOMPARE(static_cast<int>(t[i].turns.size()), turns[static_cast<int>(i)]);
        QCOMPARE(t[i].reward, rewards[static_cast<int>(i)]);
    }
    // Round trip: import, export, import the export, export again: the same bytes.
    Store store(path("runs.db"));
    const ImportResult r = importFile(store, sample(file.toStdString()), options);
    QCOMPARE(r.trajectories, static_cast<std::int64_t>(ids.size()));
    const std::string first = path("first.jsonl"), second = path("second.jsonl");
    exportJsonl(store, r.runId, std::nullopt, first);
    const auto back = readAll(first, ImportOptions::as(ImportFormat::Native));
    QCOMPARE(back.size(), t.size());
    for (std::size_t i = 0; i < back.size(); ++i)
        CL_COMPARE_TRAJ(back[i], t[i]);
    Store again(path("again.db"));
    const ImportResult r2 = importFile(again, first, ImportOptions::as(ImportFormat::Native));
    exportJsonl(again, r2.runId, std::nullopt, second);
    QCOMPARE(test::readFile(second), test::readFile(first));
}

void TestImportDocuments::documentErrorsNameLineAndField()
{
    // A document's bad record names the file, the line where the record starts and the field; a broken document
    // names the line and column where it breaks.
    const std::string array = path("bad.json");
    test::writeFile(array,
        "[\n  {\"messages\": [{\"role\": \"user\", \"content\": \"q\"},\n"
        "    {\"role\": \"assistant\", \"content\": \"a\"}]},\n  {\"messages\": [{\"role\": 3}]}\n]\n");
    try {
        readAll(array);
        QFAIL("no error");
    } catch (const JsonlError& e) {
        QCOMPARE(e.line(), std::size_t(4));
        QCOMPARE(e.field(), std::string("messages[0].role"));
    }
    // (read in order: the first record is whole, the second is not a record)
    test::writeFile(array,
        "[\n  {\"messages\": [{\"role\": \"user\", \"content\": \"q\"}, {\"role\": \"assistant\", \"content\": "
        "\"a\"}]},\n"
        "  7\n]\n");
    try {
        readAll(array);
        QFAIL("no error");
    } catch (const JsonlError& e) {
        QCOMPARE(e.line(), std::size_t(3));
        QCOMPARE(e.field(), std::string("[1]"));
    }
    test::writeFile(array, "{\n  \"messages\": [\n    {\"role\": \"user\" \"content\": \"q\"}\n  ]\n}\n");
    try {
        readAll(array);
        QFAIL("no error");
    } catch (const JsonlError& e) {
        QCOMPARE(e.line(), std::size_t(3));
        QVERIFY2(std::string(e.what()).find("invalid JSON") != std::string::npos, e.what());
    }
    // records: naming nothing.
    const std::string map = path("bad.map.yaml");
    test::writeFile(map, "records: episodes\nturns: steps\nobservation: o\naction: a\n");
    test::writeFile(array, "{\"runs\": []}\n");
    ImportOptions options;
    options.mapPath = map;
    try {
        readAll(array, options);
        QFAIL("no error");
    } catch (const JsonlError& e) {
        QCOMPARE(e.field(), std::string("episodes"));
    }
}

void TestImportDocuments::oldExportsWithRepeatedKeysRead()
{
    // An export written before 2026-11-29: a SWE-agent step's own `action` follows ours in the turn, a record's `goal`
    // follows ours. Refused by default, with the way out in the message; read with renameDuplicates, the second
    // member of each pair is kept as source.<name>, and the file exports again without the repeat.
    const std::string old = path("old-export.jsonl");
    test::writeFile(old,
        R"({"id":"t1","group":"g","reward":1,"goal":"ours","turns":[{"observation":"o","action":"ls","message_index":1,)"
        R"("action":"ls -la"}],"goal":"theirs"})"
        "\n");
    try {
        readAll(old);
        QFAIL("no error");
    } catch (const JsonlError& e) {
        QCOMPARE(e.field(), std::string("turns[0].action"));
        QVERIFY2(std::string(e.what()).find("--rename-duplicates reads the second as source.action") != std::string::npos,
            e.what());
    }
    ImportOptions options;
    options.renameDuplicates = true;
    const auto t = readAll(old, options);
    QCOMPARE(t.size(), std::size_t(1));
    QCOMPARE(t[0].turns[0].action, std::string("ls"));
    QCOMPARE(t[0].turns[0].extra, std::string("\"message_index\":1,\"source.action\":\"ls -la\""));
    QCOMPARE(*t[0].task.goal, std::string("ours"));
    QCOMPARE(t[0].extra, std::string("\"source.goal\":\"theirs\""));
    // An unknown member twice is still refused: only our names were ever repeated by an export.
    test::writeFile(old, R"({"id":"t1","group":"g","reward":1,"m":1,"m":2,"turns":[]})" "\n");
    QVERIFY_THROWS_EXCEPTION(JsonlError, readAll(old, options));
}

QTEST_GUILESS_MAIN(TestImportDocuments)
#include "tst_import_documents.moc"
