// JSONL import and export through the Store: all or nothing, byte-exact round trips, cancellation.
#include "core/interchange/jsonl.h"
#include "core/interchange/jsonltransfer.h"
#include "core/storage/store.h"

#include "testutil.h"

#include <QTemporaryDir>
#include <QtTest/QTest>

#include <algorithm>
#include <filesystem>

using namespace creditlab;

// Declarations first: moc mis-reads raw string literals inside a class body.
class TestStoreTransfer : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void importCreatesOneRun();
    void importReportsProgress();
    void badLineImportsNothing_data();
    void badLineImportsNothing();
    void unreadableOrEmptyFileImportsNothing_data();
    void unreadableOrEmptyFileImportsNothing();
    void importCancelledLeavesNoRun();
    void exportReproducesCanonicalFile();
    void exportOfNonCanonicalFileIsParseEqual();
    void exportIterationFilter();
    void exportErrors();
    void exportCancelledLeavesNoFile();
    void deleteAfterImportCascades();

private:
    std::string path(const std::string& name) const
    {
        return m_dir->filePath(QString::fromStdString(name)).toStdString();
    }
    std::int64_t count(const std::string& sql) { return m_store->database().scalarInt(sql); }
    /// Names of the files in the temporary folder.
    std::vector<std::string> files() const;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Store> m_store;
};

namespace {

std::string format(const Trajectory& t)
{
    std::string s;
    formatTrajectory(t, s);
    return s;
}

Trajectory parse(std::string_view line)
{
    Trajectory t;
    parseTrajectory(line, t);
    return t;
}

/// `n` canonical lines (formatTrajectory output) with varied content, newline-terminated.
std::string canonicalFile(int n, int iterations = 3)
{
    std::string out;
    for (int i = 0; i < n; ++i) {
        Trajectory t = i % 5 == 0
            ? test::fullTrajectory("c" + std::to_string(i), "g" + std::to_string(i / 4))
            : test::minimalTrajectory("c" + std::to_string(i), "g" + std::to_string(i / 4), (i % 3) * 0.1, i % 4);
        if (i % 2 == 0)
            t.iteration = i % iterations;
        else
            t.iteration.reset();
        if (i % 7 == 0)
            t.turns.push_back(
                Turn { std::string("nul\0 \xF0\x9F\x98\x80", 9), "a\tb", std::nullopt, 1e-300, std::nullopt,
                    std::nullopt, 1.0, Role::R, std::nullopt, 0.0, std::nullopt, R"("x":[1,{"y":"\u00e9"}])", {} });
        if (i % 11 == 0)
            t.success = i % 2 == 0;
        out += format(t) + "\n";
    }
    return out;
}

} // namespace

void TestStoreTransfer::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_store = std::make_unique<Store>(path("runs.db"));
}

void TestStoreTransfer::cleanup()
{
    m_store.reset();
    m_dir.reset();
}

std::vector<std::string> TestStoreTransfer::files() const
{
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(m_dir->path().toStdString()))
        out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

void TestStoreTransfer::importCreatesOneRun()
{
    const std::string content = canonicalFile(40);
    const std::string file = path("rollouts-it3.jsonl");
    test::writeFile(file, content);
    const ImportResult r = importJsonl(*m_store, file);
    QVERIFY(r.runId > 0);
    QCOMPARE(r.trajectories, std::uint64_t(40));
    QVERIFY(r.seconds >= 0.0);

    const auto runs = m_store->runs();
    QCOMPARE(runs.size(), std::size_t(1));
    QCOMPARE(runs[0].id, r.runId);
    QCOMPARE(runs[0].name, std::string("rollouts-it3.jsonl"));
    QCOMPARE(runs[0].kind, RunKind::Import);
    QCOMPARE(runs[0].status, RunStatus::Finished);
    QCOMPARE(runs[0].source, std::optional<std::string>(std::filesystem::absolute(file).string()));
    QCOMPARE(runs[0].trajectoryCount, std::int64_t(40));
    QCOMPARE(runs[0].turnCount, std::int64_t(r.turns));
    QCOMPARE(runs[0].sourceFormat, std::optional<std::string>("native")); // the source's name for its format

    // Trajectories in file order, each equal to its line.
    const auto infos = m_store->trajectories(r.runId);
    QCOMPARE(infos.size(), std::size_t(40));
    std::size_t start = 0;
    std::uint64_t turns = 0;
    for (std::size_t i = 0; i < infos.size(); ++i) {
        const std::size_t end = content.find('\n', start);
        const Trajectory expected = parse(std::string_view(content).substr(start, end - start));
        start = end + 1;
        QCOMPARE(infos[i].id, "c" + std::to_string(i));
        CL_COMPARE_TRAJ(m_store->loadTrajectory(infos[i].rowId), expected);
        turns += expected.turns.size();
    }
    QCOMPARE(r.turns, turns);

    // A second import with an explicit name is a second run; ids may repeat across runs.
    const ImportResult r2 = importJsonl(*m_store, file, {}, "again");
    QVERIFY(r2.runId != r.runId);
    QCOMPARE(m_store->run(r2.runId)->name, std::string("again"));
    QCOMPARE(m_store->runs().size(), std::size_t(2));
    QCOMPARE(count("SELECT count(*) FROM trajectory"), std::int64_t(80));
    QCOMPARE(count("PRAGMA foreign_keys"), std::int64_t(1)); // restored after the import
}

void TestStoreTransfer::importReportsProgress()
{
    const std::string content = canonicalFile(1000);
    const std::string file = path("big.jsonl");
    test::writeFile(file, content);
    std::vector<Progress> seen;
    const ImportResult r = importJsonl(*m_store, file, [&](const Progress& p) {
        seen.push_back(p);
        return true;
    });
    QVERIFY(!seen.empty());
    const Progress& last = seen.back();
    QCOMPARE(last.total, std::uint64_t(content.size()));
    QCOMPARE(last.done, last.total);
    QCOMPARE(last.fraction(), 1.0);
    QCOMPARE(last.items, std::uint64_t(1000));
    QCOMPARE(last.subItems, r.turns);
    for (std::size_t i = 1; i < seen.size(); ++i) {
        QVERIFY(seen[i].done >= seen[i - 1].done);
        QVERIFY(seen[i].items >= seen[i - 1].items);
    }
}

void TestStoreTransfer::badLineImportsNothing_data()
{
    QTest::addColumn<int>("badLine");
    QTest::newRow("line 3") << 3;
    QTest::newRow("line 1") << 1;
    QTest::newRow("line 1500, after several chunks were written") << 1500;
}

void TestStoreTransfer::badLineImportsNothing()
{
    QFETCH(int, badLine);
    // Something already in the store, which must stay as it is.
    test::writeFile(path("good.jsonl"), canonicalFile(5));
    importJsonl(*m_store, path("good.jsonl"));
    const auto runsBefore = m_store->runs().size();
    const auto trajectoriesBefore = count("SELECT count(*) FROM trajectory");
    const auto turnsBefore = count("SELECT count(*) FROM turn");

    std::string content = canonicalFile(badLine + 10);
    std::size_t at = 0;
    for (int i = 1; i < badLine; ++i)
        at = content.find('\n', at) + 1;
    const std::size_t end = content.find('\n', at);
    content.replace(at, end - at, R"({"id":"bad","group":"g","reward":1,"turns":[{"observation":"o"}]})");
    const std::string file = path("bad.jsonl");
    test::writeFile(file, content);
    try {
        importJsonl(*m_store, file);
        QFAIL("a file with a bad line was imported");
    } catch (const JsonlError& e) {
        QCOMPARE(e.line(), std::size_t(badLine));
        QCOMPARE(e.file(), file);
        QCOMPARE(e.field(), std::string("turns[0].action"));
        QVERIFY2(std::string(e.what()).rfind(file + ":" + std::to_string(badLine) + ": ", 0) == 0, e.what());
    }
    QCOMPARE(m_store->runs().size(), runsBefore);
    QCOMPARE(count("SELECT count(*) FROM trajectory"), trajectoriesBefore);
    QCOMPARE(count("SELECT count(*) FROM turn"), turnsBefore);
    QCOMPARE(count("PRAGMA foreign_keys"), std::int64_t(1));
    // The store is usable afterwards.
    QVERIFY(importJsonl(*m_store, path("good.jsonl")).trajectories == 5);
}

void TestStoreTransfer::unreadableOrEmptyFileImportsNothing_data()
{
    QTest::addColumn<QByteArray>("content"); // "<missing>": no file at all
    QTest::newRow("missing file") << QByteArray("<missing>");
    QTest::newRow("empty file") << QByteArray("");
    QTest::newRow("blank lines only") << QByteArray("\n  \n\t\r\n");
    QTest::newRow("byte-order mark only") << QByteArray("\xEF\xBB\xBF\n");
}

void TestStoreTransfer::unreadableOrEmptyFileImportsNothing()
{
    QFETCH(QByteArray, content);
    const std::string file = path("nothing.jsonl");
    if (content != "<missing>")
        test::writeFile(file, content.toStdString());
    try {
        importJsonl(*m_store, file);
        QFAIL("imported a file without trajectories");
    } catch (const std::runtime_error& e) {
        QVERIFY2(std::string(e.what()).find(file) != std::string::npos, e.what());
        QVERIFY(dynamic_cast<const JsonlError*>(&e) == nullptr);
    }
    QVERIFY(m_store->runs().empty());
    QCOMPARE(count("SELECT count(*) FROM run"), std::int64_t(0));
}

void TestStoreTransfer::importCancelledLeavesNoRun()
{
    const std::string file = path("cancel.jsonl");
    test::writeFile(file, canonicalFile(600));
    int calls = 0;
    QVERIFY_THROWS_EXCEPTION(Cancelled, importJsonl(*m_store, file, [&](const Progress&) {
        ++calls;
        return false;
    }));
    QCOMPARE(calls, 1); // the first call that returns false ends the job
    QVERIFY(m_store->runs().empty());
    QCOMPARE(count("SELECT count(*) FROM trajectory"), std::int64_t(0));
    QCOMPARE(count("SELECT count(*) FROM turn"), std::int64_t(0));
    QCOMPARE(count("PRAGMA foreign_keys"), std::int64_t(1));
}

void TestStoreTransfer::exportReproducesCanonicalFile()
{
    const std::string content = canonicalFile(700); // several import chunks
    const std::string file = path("canonical.jsonl");
    test::writeFile(file, content);
    const ImportResult r = importJsonl(*m_store, file);
    const std::string out = path("exported.jsonl");
    std::vector<Progress> seen;
    const ExportResult e = exportJsonl(*m_store, r.runId, std::nullopt, out, [&](const Progress& p) {
        seen.push_back(p);
        return true;
    });
    QCOMPARE(e.trajectories, std::uint64_t(700));
    QCOMPARE(e.turns, r.turns);
    QVERIFY(!seen.empty());
    QCOMPARE(seen.back().items, std::uint64_t(700));
    const std::string exported = test::readFile(out);
    QCOMPARE(exported.size(), content.size());
    QVERIFY2(exported == content, "the export differs from the canonical input");
    // No temporary file is left next to it.
    for (const std::string& name : files())
        QVERIFY2(name.find(".part-") == std::string::npos, name.c_str());
    QVERIFY(std::filesystem::exists(file));
}

void TestStoreTransfer::exportOfNonCanonicalFileIsParseEqual()
{
    // Spaces, numbers as bools, -0, exponent forms, escapes, CRLF, blank lines, no final newline.
    const std::vector<std::string> lines = {
        R"({ "id" : "a", "group":"g", "reward": 1.0, "success": 1, "turns": [ {"observation":"o\u00e9", "action":"\/x", "valid":0} ] })",
        R"({"turns":[],"reward":-0,"group":"g","id":"b","extra":{ "k" : [1.50e+3] }})",
        "{\"id\":\"c\",\"group\":\"h\",\"reward\":2.5E-1,\"turns\":[{\"observation\":\"raw\ttab\",\"action\":"
        "\"\\ud83d\\ude00\"}]}",
    };
    const std::string content = lines[0] + "\r\n\r\n" + lines[1] + "\n\n" + lines[2];
    const std::string file = path("loose.jsonl");
    test::writeFile(file, content);
    const ImportResult r = importJsonl(*m_store, file);
    const std::string out = path("loose-out.jsonl");
    exportJsonl(*m_store, r.runId, std::nullopt, out);
    const std::string exported = test::readFile(out);
    QVERIFY(exported != content);
    std::vector<std::string> outLines;
    std::size_t start = 0;
    while (start < exported.size()) {
        const std::size_t end = exported.find('\n', start);
        QVERIFY(end != std::string::npos); // every exported line ends in a newline
        outLines.push_back(exported.substr(start, end - start));
        start = end + 1;
    }
    QCOMPARE(outLines.size(), lines.size());
    for (std::size_t i = 0; i < lines.size(); ++i)
        CL_COMPARE_TRAJ(parse(outLines[i]), parse(lines[i]));
    // Unknown members keep their raw text.
    QVERIFY2(outLines[1].find(R"("extra":{ "k" : [1.50e+3] })") != std::string::npos, outLines[1].c_str());
    // A reward of -0 comes back as 0: SQLite stores an integral REAL as an integer, which loses the sign
    // of zero. The two compare equal, so only the text differs.
    QVERIFY2(outLines[1].find(R"("reward":0,)") != std::string::npos, outLines[1].c_str());
}

void TestStoreTransfer::exportIterationFilter()
{
    const std::string content = canonicalFile(30, 3);
    const std::string file = path("iters.jsonl");
    test::writeFile(file, content);
    const ImportResult r = importJsonl(*m_store, file);
    for (std::int64_t it : { 0, 1, 2, 5 }) {
        // Expected: lines whose iteration (absent counts as 0) is `it`, in file order.
        std::string expected;
        std::size_t start = 0;
        while (start < content.size()) {
            const std::size_t end = content.find('\n', start);
            const std::string line = content.substr(start, end - start + 1);
            if (parse(line.substr(0, line.size() - 1)).iterationOrDefault() == it)
                expected += line;
            start = end + 1;
        }
        const std::string out = path("it" + std::to_string(it) + ".jsonl");
        const ExportResult e = exportJsonl(*m_store, r.runId, it, out);
        QCOMPARE(test::readFile(out), expected);
        QCOMPARE(e.trajectories, std::uint64_t(std::count(expected.begin(), expected.end(), '\n')));
        if (it == 5)
            QCOMPARE(e.trajectories, std::uint64_t(0));
        else
            QVERIFY(e.trajectories > 0);
    }
}

void TestStoreTransfer::exportErrors()
{
    test::writeFile(path("in.jsonl"), canonicalFile(3));
    const ImportResult r = importJsonl(*m_store, path("in.jsonl"));
    const auto before = files();

    try {
        exportJsonl(*m_store, r.runId + 100, std::nullopt, path("x.jsonl"));
        QFAIL("exported a missing run");
    } catch (const StoreError& e) {
        QVERIFY2(std::string(e.what()).find(std::to_string(r.runId + 100)) != std::string::npos, e.what());
    }
    const std::string nowhere = path("no/such/dir/out.jsonl");
    try {
        exportJsonl(*m_store, r.runId, std::nullopt, nowhere);
        QFAIL("exported into a missing folder");
    } catch (const std::runtime_error& e) {
        QVERIFY2(std::string(e.what()).find(nowhere) != std::string::npos, e.what());
    }
    QVERIFY(!std::filesystem::exists(path("no")));
    QCOMPARE(files(), before);

    // An existing file is replaced whole.
    const std::string target = path("existing.jsonl");
    test::writeFile(target, std::string(100000, 'x'));
    exportJsonl(*m_store, r.runId, std::nullopt, target);
    QCOMPARE(test::readFile(target), canonicalFile(3));
}

void TestStoreTransfer::exportCancelledLeavesNoFile()
{
    test::writeFile(path("in.jsonl"), canonicalFile(300));
    const ImportResult r = importJsonl(*m_store, path("in.jsonl"));
    const auto before = files();
    const std::string out = path("cancelled.jsonl");
    QVERIFY_THROWS_EXCEPTION(
        Cancelled, exportJsonl(*m_store, r.runId, std::nullopt, out, [](const Progress&) { return false; }));
    QVERIFY(!std::filesystem::exists(out));
    QCOMPARE(files(), before);
    // An existing file survives a cancelled export unchanged.
    test::writeFile(out, "keep me\n");
    QVERIFY_THROWS_EXCEPTION(
        Cancelled, exportJsonl(*m_store, r.runId, std::nullopt, out, [](const Progress&) { return false; }));
    QCOMPARE(test::readFile(out), std::string("keep me\n"));
}

void TestStoreTransfer::deleteAfterImportCascades()
{
    // The importer switches foreign keys off for its own transaction; deleting afterwards still cascades.
    test::writeFile(path("a.jsonl"), canonicalFile(20));
    test::writeFile(path("b.jsonl"), canonicalFile(10));
    const ImportResult a = importJsonl(*m_store, path("a.jsonl"));
    const ImportResult b = importJsonl(*m_store, path("b.jsonl"));
    const auto rows = m_store->trajectories(a.runId);
    const double adv[] = { 1.0 };
    m_store->writeCredits(rows[0].rowId, "grpo", adv);
    m_store->setHumanLabel(rows[0].rowId, 0, "alice", Role::D);
    m_store->deleteRun(a.runId);
    QCOMPARE(count("SELECT count(*) FROM trajectory"), std::int64_t(10));
    QCOMPARE(count("SELECT count(*) FROM turn"), std::int64_t(b.turns));
    QCOMPARE(count("SELECT count(*) FROM credit"), std::int64_t(0));
    QCOMPARE(count("SELECT count(*) FROM human_label"), std::int64_t(0));
}

QTEST_GUILESS_MAIN(TestStoreTransfer)
#include "tst_store_transfer.moc"
