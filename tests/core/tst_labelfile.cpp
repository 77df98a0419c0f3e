// Label files (core/interchange/labelfile.h): the exact export text, export → clear → import round trip, every refused
// line naming its line and field, all-or-nothing import, the replace policy, database-wide id lookup, and exports that
// fail leaving no file. The annotators' notes (flag, skip, comment) ride on the lines and make the round trip too.
#include "core/interchange/labelfile.h"
#include "core/storage/humannote.h"
#include "core/storage/store.h"

#include "testutil.h"

#include <QTemporaryDir>
#include <QtTest/QTest>

#include <filesystem>

using namespace creditlab;
using test::minimalTrajectory;
using test::newRun;
using test::readFile;
using test::writeFile;

class TestLabelFile : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void exportText();
    void roundTrip();
    void exportEveryRun();
    void refusedLines_data();
    void refusedLines();
    void badFileImportsNothing();
    void replacePolicy();
    void tolerantReading();
    void databaseWideLookup();
    void failuresLeaveNoFile();
    void notesRoundTrip();

private:
    std::string file(const std::string& name) const
    {
        return m_dir->filePath(QString::fromStdString(name)).toStdString();
    }
    /// Every human label of the database as "row:turn:annotator:role", by row.
    QStringList dump();

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Store> m_store;
    std::int64_t m_run = 0;
    std::int64_t m_t1 = 0; ///< "t1", 3 turns
    std::int64_t m_t2 = 0; ///< "t2", 2 turns
};

void TestLabelFile::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_store = std::make_unique<Store>(file("runs.db"));
    m_run = m_store->createRun(newRun("first"));
    m_t1 = m_store->insertTrajectory(m_run, 0, minimalTrajectory("t1", "g", 1.0, 3));
    m_t2 = m_store->insertTrajectory(m_run, 1, minimalTrajectory("t2", "g", 0.0, 2));
}

void TestLabelFile::cleanup()
{
    m_store.reset();
    m_dir.reset();
}

QStringList TestLabelFile::dump()
{
    QStringList out;
    for (const RunInfo& run : m_store->runs())
        for (const TrajectoryInfo& t : m_store->trajectories(run.id))
            for (const HumanLabel& h : m_store->humanLabels(t.rowId))
                out << QStringLiteral("%1:%2:%3:%4")
                           .arg(t.rowId)
                           .arg(h.turn)
                           .arg(QString::fromStdString(h.annotator),
                               QString::fromStdString(std::string(roleName(h.role))));
    return out;
}

void TestLabelFile::exportText()
{
    m_store->setHumanLabel(m_t2, 1, "bob", Role::R);
    m_store->setHumanLabel(m_t1, 2, "alice", Role::D);
    m_store->setHumanLabel(m_t1, 0, "zoe", Role::E);
    m_store->setHumanLabel(m_t1, 0, "al \"x\"\t日本", Role::N);
    const LabelExportResult r = exportLabelFile(*m_store, m_run, file("labels.jsonl"));
    QCOMPARE(r.labels, std::uint64_t(4));
    QCOMPARE(r.trajectories, std::uint64_t(2));
    // Trajectories in run order, labels by turn then annotator; keys alphabetical, as the workbench always wrote.
    QCOMPARE(readFile(file("labels.jsonl")),
        std::string(R"({"annotator":"al \"x\"\t日本","role":"N","trajectory":"t1","turn":0})"
                    "\n"
                    R"({"annotator":"zoe","role":"E","trajectory":"t1","turn":0})"
                    "\n"
                    R"({"annotator":"alice","role":"D","trajectory":"t1","turn":2})"
                    "\n"
                    R"({"annotator":"bob","role":"R","trajectory":"t2","turn":1})"
                    "\n"));
}

void TestLabelFile::roundTrip()
{
    m_store->setHumanLabel(m_t1, 0, "alice", Role::D);
    m_store->setHumanLabel(m_t1, 1, "alice", Role::E);
    m_store->setHumanLabel(m_t1, 1, "bob", Role::R);
    m_store->setHumanLabel(m_t2, 1, "bob", Role::N);
    const QStringList before = dump();
    QCOMPARE(exportLabelFile(*m_store, m_run, file("labels.jsonl")).labels, std::uint64_t(4));
    for (const auto row : { m_t1, m_t2 })
        for (const HumanLabel& h : m_store->humanLabels(row))
            m_store->clearHumanLabel(row, h.turn, h.annotator);
    QVERIFY(dump().isEmpty());
    const std::vector<LabelLine> lines = importLabelFile(*m_store, m_run, file("labels.jsonl"));
    QCOMPARE(lines.size(), std::size_t(4));
    QCOMPARE(lines[0].trajectoryRowId, m_t1);
    QCOMPARE(lines[0].trajectory, std::string("t1"));
    QCOMPARE(lines[3].trajectoryRowId, m_t2);
    QCOMPARE(dump(), before);
}

void TestLabelFile::exportEveryRun()
{
    const auto second = m_store->createRun(newRun("second"));
    const auto u1 = m_store->insertTrajectory(second, 0, minimalTrajectory("u1", "g", 1.0, 1));
    m_store->setHumanLabel(u1, 0, "carol", Role::D);
    m_store->setHumanLabel(m_t2, 0, "carol", Role::N);
    const LabelExportResult r = exportLabelFile(*m_store, std::nullopt, file("all.jsonl"));
    QCOMPARE(r.labels, std::uint64_t(2));
    QCOMPARE(readFile(file("all.jsonl")),
        std::string(R"({"annotator":"carol","role":"N","trajectory":"t2","turn":0})"
                    "\n"
                    R"({"annotator":"carol","role":"D","trajectory":"u1","turn":0})"
                    "\n"));
    QCOMPARE(exportLabelFile(*m_store, second, file("second.jsonl")).labels, std::uint64_t(1));
    // No labels: an empty file, not a missing one.
    const auto empty = m_store->createRun(newRun("empty"));
    QCOMPARE(exportLabelFile(*m_store, empty, file("empty.jsonl")).labels, std::uint64_t(0));
    QVERIFY(std::filesystem::exists(file("empty.jsonl")));
    QCOMPARE(readFile(file("empty.jsonl")), std::string());
}

void TestLabelFile::refusedLines_data()
{
    using Problem = LabelFileError::Problem;
    QTest::addColumn<QString>("line");
    QTest::addColumn<int>("problem");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("message"); ///< the whole message after "FILE:3: "
    const auto row = [](const char* name, const char* line, Problem problem, const char* field, const char* message) {
        QTest::newRow(name) << QString::fromUtf8(line) << int(problem) << QString::fromUtf8(field)
                            << QString::fromUtf8(message);
    };
    row("not json", "{not json", Problem::NotAnObject, "", "not a JSON object (expected a quoted member name)");
    row("array", "[1]", Problem::NotAnObject, "", "not a JSON object (expected an object, got an array)");
    row("trailing text", R"({"trajectory":"t1","turn":0,"annotator":"a","role":"D"} x)", Problem::NotAnObject, "",
        nullptr);
    row("unknown trajectory", R"({"trajectory":"nope","turn":0,"annotator":"a","role":"D"})",
        Problem::UnknownTrajectory, "trajectory", "field \"trajectory\": no trajectory with this id in the run");
    row("trajectory not a string", R"({"trajectory":1,"turn":0,"annotator":"a","role":"D"})",
        Problem::UnknownTrajectory, "trajectory", "field \"trajectory\": no trajectory with this id in the run");
    row("no trajectory", R"({"turn":0,"annotator":"a","role":"D"})", Problem::UnknownTrajectory, "trajectory", nullptr);
    row("turn too large", R"({"trajectory":"t1","turn":3,"annotator":"a","role":"D"})", Problem::BadTurn, "turn",
        "field \"turn\": expected a turn index from 0 to 2");
    row("turn negative", R"({"trajectory":"t1","turn":-1,"annotator":"a","role":"D"})", Problem::BadTurn, "turn",
        nullptr);
    row("turn fraction", R"({"trajectory":"t1","turn":1.5,"annotator":"a","role":"D"})", Problem::BadTurn, "turn",
        nullptr);
    row("turn a string", R"({"trajectory":"t1","turn":"1","annotator":"a","role":"D"})", Problem::BadTurn, "turn",
        nullptr);
    row("no turn", R"({"trajectory":"t1","annotator":"a","role":"D"})", Problem::BadTurn, "turn", nullptr);
    row("blank annotator", R"({"trajectory":"t1","turn":0,"annotator":"  ","role":"D"})", Problem::EmptyAnnotator,
        "annotator", "field \"annotator\": expected a non-empty name");
    row("annotator a number", R"({"trajectory":"t1","turn":0,"annotator":7,"role":"D"})", Problem::EmptyAnnotator,
        "annotator", nullptr);
    row("bad role", R"({"trajectory":"t1","turn":0,"annotator":"a","role":"X"})", Problem::BadRole, "role",
        "field \"role\": expected one of D, E, N, R");
    row("lower-case role", R"({"trajectory":"t1","turn":0,"annotator":"a","role":"d"})", Problem::BadRole, "role",
        nullptr);
    row("no role", R"({"trajectory":"t1","turn":0,"annotator":"a"})", Problem::BadRole, "role", nullptr);
    // A note may stand without a role, but a role that is there must be one, and a note's members have types.
    row("bad role beside a note", R"({"trajectory":"t1","turn":0,"annotator":"a","role":"X","flagged":true})",
        Problem::BadRole, "role", nullptr);
    row("flag a string", R"({"trajectory":"t1","turn":0,"annotator":"a","flagged":"yes"})", Problem::BadNote, "flagged",
        "field \"flagged\": expected true or false");
    row("skip a number", R"({"trajectory":"t1","turn":0,"annotator":"a","role":"D","skipped":1})", Problem::BadNote,
        "skipped", nullptr);
    row("comment a number", R"({"trajectory":"t1","turn":0,"annotator":"a","comment":5})", Problem::BadNote, "comment",
        "field \"comment\": expected a string");
    // Checked in a fixed order whatever the key order: the trajectory before the turn before the role.
    row("first bad field wins", R"({"role":"X","turn":9,"trajectory":"t2","annotator":"a"})", Problem::BadTurn, "turn",
        "field \"turn\": expected a turn index from 0 to 1");
}

void TestLabelFile::refusedLines()
{
    QFETCH(QString, line);
    QFETCH(int, problem);
    QFETCH(QString, field);
    QFETCH(QString, message);
    const std::string path = file("bad.jsonl");
    // A good line, a blank line, then the bad one: line 3.
    writeFile(path,
        std::string(R"({"trajectory":"t1","turn":0,"annotator":"eve","role":"D"})") + "\n\n" + line.toStdString()
            + "\n");
    try {
        importLabelFile(*m_store, m_run, path);
        QFAIL("the line was accepted");
    } catch (const LabelFileError& e) {
        QCOMPARE(int(e.problem()), problem);
        QCOMPARE(e.file(), path);
        QCOMPARE(e.line(), std::size_t(3));
        QCOMPARE(QString::fromStdString(e.field()), field);
        const QString what = QString::fromStdString(e.what());
        const QString prefix = QString::fromStdString(path) + QStringLiteral(":3: ");
        QVERIFY2(what.startsWith(prefix), qPrintable(what));
        if (!message.isNull())
            QCOMPARE(what.mid(prefix.size()), message);
        else if (!field.isEmpty())
            QVERIFY2(what.startsWith(prefix + QStringLiteral("field \"%1\": ").arg(field)), qPrintable(what));
        else
            QVERIFY2(what.startsWith(prefix + QStringLiteral("not a JSON object (")), qPrintable(what));
    }
    QVERIFY(dump().isEmpty()); // the good line 1 was not imported either
}

void TestLabelFile::badFileImportsNothing()
{
    m_store->setHumanLabel(m_t1, 0, "alice", Role::D);
    const QStringList before = dump();
    std::string text;
    for (int turn = 0; turn < 3; ++turn)
        text += R"({"trajectory":"t1","turn":)" + std::to_string(turn)
            + R"(,"annotator":"alice","role":"R"})"
              "\n";
    writeFile(file("bad.jsonl"),
        text
            + R"({"trajectory":"t2","turn":0,"annotator":"alice","role":"?"})"
              "\n");
    QVERIFY_THROWS_EXCEPTION(LabelFileError, importLabelFile(*m_store, m_run, file("bad.jsonl")));
    QCOMPARE(dump(), before); // neither the new labels nor the overwrite of alice's D
    // A missing file: a plain error naming it, not a line error.
    try {
        importLabelFile(*m_store, m_run, file("missing.jsonl"));
        QFAIL("a missing file was read");
    } catch (const LabelFileError&) {
        QFAIL("a missing file is not a bad line");
    } catch (const std::runtime_error& e) {
        QVERIFY2(std::string(e.what()).find("missing.jsonl") != std::string::npos, e.what());
    }
    QVERIFY_THROWS_EXCEPTION(StoreError, importLabelFile(*m_store, 99, file("bad.jsonl")));
    QCOMPARE(dump(), before);
}

void TestLabelFile::replacePolicy()
{
    m_store->setHumanLabel(m_t1, 0, "alice", Role::D);
    m_store->setHumanLabel(m_t1, 1, "bob", Role::N);
    writeFile(file("labels.jsonl"),
        R"({"trajectory":"t1","turn":0,"annotator":"alice","role":"E"})"
        "\n"
        R"({"trajectory":"t1","turn":0,"annotator":"alice","role":"R"})"
        "\n"
        R"({"trajectory":"t1","turn":0,"annotator":"carol","role":"D"})"
        "\n");
    QCOMPARE(importLabelFile(*m_store, m_run, file("labels.jsonl")).size(), std::size_t(3));
    // alice's label replaced (the later line wins), bob's kept, carol's added.
    QCOMPARE(dump(),
        (QStringList { QStringLiteral("%1:0:alice:R").arg(m_t1), QStringLiteral("%1:0:carol:D").arg(m_t1),
            QStringLiteral("%1:1:bob:N").arg(m_t1) }));
}

void TestLabelFile::tolerantReading()
{
    // A byte-order mark, CRLF line ends, surrounding blanks, keys in any order, unknown keys, a padded annotator,
    // an integral turn written as 1.0.
    writeFile(file("labels.jsonl"),
        "\xEF\xBB\xBF"
        R"({"role":"E","turn":1.0,"annotator":"  dana ","trajectory":"t2","note":{"x":[1,2]}})"
        "\r\n   \r\n\t"
        R"({"annotator":"dana","role":"R","trajectory":"t1","turn":2})"
        "  \r\n");
    const std::vector<LabelLine> lines = importLabelFile(*m_store, m_run, file("labels.jsonl"));
    QCOMPARE(lines.size(), std::size_t(2));
    QCOMPARE(lines[0].annotator, std::string("dana"));
    QCOMPARE(lines[0].turn, 1);
    QCOMPARE(
        dump(), (QStringList { QStringLiteral("%1:2:dana:R").arg(m_t1), QStringLiteral("%1:1:dana:E").arg(m_t2) }));
}

void TestLabelFile::databaseWideLookup()
{
    // A second run that repeats "t1" (the same file imported twice) and has its own "u1".
    const auto second = m_store->createRun(newRun("second"));
    const auto t1again = m_store->insertTrajectory(second, 0, minimalTrajectory("t1", "g", 1.0, 3));
    const auto u1 = m_store->insertTrajectory(second, 1, minimalTrajectory("u1", "g", 1.0, 1));
    writeFile(file("u1.jsonl"),
        R"({"trajectory":"u1","turn":0,"annotator":"a","role":"D"})"
        "\n");
    QCOMPARE(importLabelFile(*m_store, std::nullopt, file("u1.jsonl")).front().trajectoryRowId, u1);
    writeFile(file("t1.jsonl"),
        R"({"trajectory":"t1","turn":0,"annotator":"a","role":"D"})"
        "\n");
    try {
        importLabelFile(*m_store, std::nullopt, file("t1.jsonl"));
        QFAIL("an id of two runs was accepted");
    } catch (const LabelFileError& e) {
        QVERIFY(e.problem() == LabelFileError::Problem::AmbiguousTrajectory);
        QCOMPARE(e.field(), std::string("trajectory"));
        QCOMPARE(e.detail(), std::to_string(m_run) + ", " + std::to_string(second));
    }
    QCOMPARE(importLabelFile(*m_store, second, file("t1.jsonl")).front().trajectoryRowId, t1again);
    QCOMPARE(importLabelFile(*m_store, m_run, file("t1.jsonl")).front().trajectoryRowId, m_t1);
    // Looked up in one run, another run's id is unknown.
    try {
        importLabelFile(*m_store, m_run, file("u1.jsonl"));
        QFAIL("another run's id was accepted");
    } catch (const LabelFileError& e) {
        QVERIFY(e.problem() == LabelFileError::Problem::UnknownTrajectory);
    }
}

void TestLabelFile::failuresLeaveNoFile()
{
    m_store->setHumanLabel(m_t1, 0, "alice", Role::D);
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, exportLabelFile(*m_store, m_run, file("no/such/folder/x.jsonl")));
    QVERIFY(!std::filesystem::exists(file("no/such/folder")));
    // No such run: refused before the file is touched, so an older file stays as it was.
    writeFile(file("old.jsonl"), "old\n");
    QVERIFY_THROWS_EXCEPTION(StoreError, exportLabelFile(*m_store, 99, file("old.jsonl")));
    QCOMPARE(readFile(file("old.jsonl")), std::string("old\n"));
    // Renaming over a folder fails at the very end: the folder stays, and no temporary file is left beside it.
    std::filesystem::create_directory(file("folder.jsonl"));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, exportLabelFile(*m_store, m_run, file("folder.jsonl")));
    QVERIFY(std::filesystem::is_directory(file("folder.jsonl")));
    int entries = 0;
    for (const auto& entry : std::filesystem::directory_iterator(m_dir->path().toStdString()))
        entries += entry.path().filename().string().find(".part-") != std::string::npos ? 1 : 0;
    QCOMPARE(entries, 0);
}

/// Notes were missing from the file: a skipped, flagged or commented turn lost its note on the way to another
/// database. They ride on the label's line (a note alone has none), export → clear → import restores them, and a
/// line without note members leaves a stored note alone.
void TestLabelFile::notesRoundTrip()
{
    m_store->setHumanLabel(m_t1, 0, "alice", Role::D);
    m_store->setHumanLabel(m_t1, 1, "alice", Role::E);
    setHumanNote(*m_store, HumanNote { m_t1, 1, "alice", true, false, "second \"look\"", {} });
    setHumanNote(*m_store, HumanNote { m_t1, 2, "alice", false, true, {}, {} }); // skipped, no label
    setHumanNote(*m_store, HumanNote { m_t2, 0, "bob", true, true, {}, {} });
    const LabelExportResult r = exportLabelFile(*m_store, m_run, file("labels.jsonl"));
    QCOMPARE(r.labels, std::uint64_t(2));
    QCOMPARE(r.notes, std::uint64_t(3));
    QCOMPARE(r.trajectories, std::uint64_t(2));
    QCOMPARE(readFile(file("labels.jsonl")),
        std::string(R"({"annotator":"alice","role":"D","trajectory":"t1","turn":0})"
                    "\n"
                    R"({"annotator":"alice","comment":"second \"look\"","flagged":true,"role":"E","trajectory":"t1",)"
                    R"("turn":1})"
                    "\n"
                    R"({"annotator":"alice","skipped":true,"trajectory":"t1","turn":2})"
                    "\n"
                    R"({"annotator":"bob","flagged":true,"skipped":true,"trajectory":"t2","turn":0})"
                    "\n"));

    const auto notes = [this] {
        QStringList out;
        for (const auto row : { m_t1, m_t2 })
            for (const HumanNote& n : humanNotes(*m_store, row))
                out << QStringLiteral("%1:%2:%3:%4%5:%6")
                           .arg(row)
                           .arg(n.turn)
                           .arg(QString::fromStdString(n.annotator))
                           .arg(QChar(n.flagged ? 'F' : '-'))
                           .arg(QChar(n.skipped ? 'S' : '-'))
                           .arg(QString::fromStdString(n.comment));
        return out;
    };
    const QStringList labelsBefore = dump();
    const QStringList notesBefore = notes();
    QCOMPARE(notesBefore.size(), 3);
    for (const auto row : { m_t1, m_t2 }) {
        for (const HumanLabel& h : m_store->humanLabels(row))
            m_store->clearHumanLabel(row, h.turn, h.annotator);
        for (HumanNote n : humanNotes(*m_store, row)) {
            n.flagged = n.skipped = false;
            n.comment.clear();
            setHumanNote(*m_store, n);
        }
    }
    QVERIFY(dump().isEmpty() && notes().isEmpty());
    const std::vector<LabelLine> lines = importLabelFile(*m_store, m_run, file("labels.jsonl"));
    QCOMPARE(lines.size(), std::size_t(4));
    QVERIFY(!lines[2].role && lines[2].note && lines[2].note->skipped);
    QCOMPARE(dump(), labelsBefore);
    QCOMPARE(notes(), notesBefore);

    // A line of a label alone (an older file) keeps the note; one with note members replaces it.
    writeFile(file("old.jsonl"),
        R"({"annotator":"alice","role":"R","trajectory":"t1","turn":1})"
        "\n"
        R"({"annotator":"bob","comment":"ok","trajectory":"t2","turn":0})"
        "\n");
    importLabelFile(*m_store, m_run, file("old.jsonl"));
    const QStringList after = notes();
    QVERIFY2(after.contains(QStringLiteral("%1:1:alice:F-:second \"look\"").arg(m_t1)), qPrintable(after.join('|')));
    QVERIFY2(after.contains(QStringLiteral("%1:0:bob:--:ok").arg(m_t2)), qPrintable(after.join('|')));
}

QTEST_GUILESS_MAIN(TestLabelFile)
#include "tst_labelfile.moc"
