// End-to-end tests of creditlab-cli: exit codes, stderr lines, files and databases it leaves.
#include "core/interchange/jsonl.h"
#include "core/storage/schema.h"
#include "core/storage/store.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <sys/types.h>

namespace {

struct Result {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

const char* kGood
    = R"({"id":"t1","group":"g1","task":"household:seed=1","env":"household","goal":"put a mug in the sink.","reward":1,"success":true,"turns":[{"observation":"You are in a room.","action":"go to sink 1","feedback":"Nothing happens.","reward":0,"valid":false,"state":"loc=start","progress":0,"role":"N","role_source":"judge:oracle","score":0.1},{"observation":"You see <b>a mug</b>.\ttab","action":"put mug 1 in sink 1","reward":0.5,"progress":1,"note":{"k":[1,2,3]}}],"meta":"kept"}
{"id":"t2","group":"g1","reward":0,"turns":[{"observation":"日本語 \u0000 ctl","action":"look"}]}
{"id":"t3","group":"g2","reward":-0.25,"iteration":2,"turns":[]}
)";

} // namespace

class TestCli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString path(const QString& name) const { return m_dir.filePath(name); }

    Result run(const QStringList& args, const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment())
    {
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(CREDITLAB_CLI_PATH), args);
        if (!p.waitForFinished(120000))
            qFatal("creditlab-cli did not finish: %s", qPrintable(args.join(' ')));
        return Result { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError() };
    }

    void write(const QString& file, const QByteArray& text)
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text);
    }

    static QByteArray hashOf(const QString& file)
    {
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
    }

    static QByteArray canonical(const QByteArray& jsonl)
    {
        QByteArray out;
        for (const QByteArray& line : jsonl.split('\n')) {
            if (line.trimmed().isEmpty())
                continue;
            creditlab::Trajectory t;
            creditlab::parseTrajectory(std::string_view(line.constData(), line.size()), t);
            std::string s;
            creditlab::formatTrajectory(t, s);
            out += QByteArray::fromStdString(s) + '\n';
        }
        return out;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void helpListsCommands()
    {
        const Result r = run({ "--help" });
        QCOMPARE(r.exitCode, 0);
        for (const char* cmd : { "import", "export", "runs", "methods", "doctor" })
            QVERIFY2(r.out.contains(cmd), cmd);
        const Result sub = run({ "import", "--help" });
        QCOMPARE(sub.exitCode, 0);
        QVERIFY(sub.out.contains("--db"));
    }

    void badArgumentsGiveOneLine_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("no command") << QStringList {} << QByteArray("error");
        QTest::newRow("unknown command") << QStringList { "frobnicate" } << QByteArray("frobnicate");
        QTest::newRow("export without run") << QStringList { "export", "--output", "x" } << QByteArray("--run");
        QTest::newRow("import without files") << QStringList { "import" } << QByteArray("files");
        QTest::newRow("bad number") << QStringList { "export", "--run", "abc", "-o", "x" } << QByteArray("abc");
    }

    void badArgumentsGiveOneLine()
    {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, expected);
        const Result r = run(args);
        QVERIFY(r.exitCode != 0);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.contains(expected), r.err.constData());
    }

    // Foreign formats (docs/import-formats.md) on the core tests' sample files: detected, named with --format,
    // described with --map; a wrong or unknown format is one clear line and no run.
    void importForeignFormats()
    {
        const QString samples = QStringLiteral(CREDITLAB_IMPORT_SAMPLES);
        const QString db = path("foreign.db");
        const Result chat = run({ "import", "--db", db, samples + "/chat.jsonl" });
        QCOMPARE(chat.exitCode, 0);
        QVERIFY2(chat.out.contains("chat.jsonl (chat) as run 1: 3 trajectories, 5 turns"), chat.out.constData());
        const Result verl = run({ "import", "--db", db, "--format", "verl", samples + "/3.jsonl" });
        QCOMPARE(verl.exitCode, 0);
        QVERIFY2(verl.out.contains("(verl) as run 2: 4 trajectories, 7 turns"), verl.out.constData());
        const Result mapped = run({ "import", "--db", db, "--map", samples + "/custom.map.yaml", samples + "/custom.jsonl" });
        QCOMPARE(mapped.exitCode, 0);
        QVERIFY2(mapped.out.contains("(map) as run 3: 2 trajectories, 3 turns"), mapped.out.constData());
        // The kept source fields come back out of export.
        const Result out = run({ "export", "--db", db, "--run", "2", "-o", "-" });
        QVERIFY2(out.out.contains("\"gts\":\"84\",\"acc\":true"), out.out.constData());

        const Result wrong = run({ "import", "--db", db, "--format", "verl", samples + "/chat.jsonl" });
        QVERIFY(wrong.exitCode != 0);
        QCOMPARE(wrong.err.count('\n'), 1);
        QVERIFY2(wrong.err.contains("chat.jsonl:1: field \"input\": is required but missing"), wrong.err.constData());
        const Result unknown = run({ "import", "--db", db, "--format", "parquet", samples + "/chat.jsonl" });
        QVERIFY(unknown.exitCode != 0);
        QVERIFY2(unknown.err.contains("unknown format"), unknown.err.constData());
        const Result json = run({ "runs", "--db", db, "--json" });
        QCOMPARE(json.out.count('\n'), 3);
        // Each run records the format its source named, for the runs listing.
        QVERIFY2(json.out.contains("\"format\":\"chat\""), json.out.constData());
        QVERIFY2(json.out.contains("\"format\":\"verl\""), json.out.constData());
        const Result table = run({ "runs", "--db", db });
        QVERIFY2(table.out.contains("format: chat") && table.out.contains("format: map"), table.out.constData());
    }

    /// A method whose every advantage is 0 says why and what would change it, in file and in store mode; a batch with
    /// some credit gets no note.
    void zeroCreditIsExplained()
    {
        const QString single = path("single.jsonl"), uniform = path("uniform.jsonl");
        write(single,
            "{\"id\":\"a\",\"group\":\"g1\",\"reward\":1,\"turns\":[{\"observation\":\"o\",\"action\":\"x\"}]}\n"
            "{\"id\":\"b\",\"group\":\"g2\",\"reward\":0,\"turns\":[{\"observation\":\"o\",\"action\":\"y\"}]}\n");
        write(uniform,
            "{\"id\":\"a\",\"group\":\"g\",\"reward\":1,\"turns\":[{\"observation\":\"o\",\"action\":\"x\"}]}\n"
            "{\"id\":\"b\",\"group\":\"g\",\"reward\":1,\"turns\":[{\"observation\":\"o\",\"action\":\"y\"}]}\n");
        const Result one = run({ "credit", "--method", "grpo", "--input", single, "-o", "-" });
        QCOMPARE(one.exitCode, 0);
        QVERIFY2(one.err.contains("every grpo advantage is 0") && one.err.contains("every group holds one rollout")
                && one.err.contains("group"),
            one.err.constData());
        const Result same = run({ "credit", "--method", "grpo", "--input", uniform, "-o", "-" });
        QVERIFY2(same.err.contains("have the same reward"), same.err.constData());
        const QString db = path("zero.db");
        QCOMPARE(run({ "import", "--db", db, single }).exitCode, 0);
        const Result stored = run({ "credit", "--method", "grpo", "--db", db, "--run", "1" });
        QCOMPARE(stored.exitCode, 0);
        QVERIFY2(stored.err.contains("every group holds one rollout"), stored.err.constData());
        const QString mixed = path("mixed.jsonl");
        write(mixed,
            "{\"id\":\"a\",\"group\":\"g\",\"reward\":1,\"turns\":[{\"observation\":\"o\",\"action\":\"x\"}]}\n"
            "{\"id\":\"b\",\"group\":\"g\",\"reward\":0,\"turns\":[{\"observation\":\"o\",\"action\":\"y\"}]}\n");
        const Result some = run({ "credit", "--method", "grpo", "--input", mixed, "-o", "-" });
        QVERIFY2(!some.err.contains("note"), some.err.constData());
    }

    /// Credit back to the trainer: advantages keyed by the source's own ids, in file mode (any import format) and in
    /// store mode (a run imported from a dump); native turns carry no index.
    void creditBackKeysBySourceIds()
    {
        const QString samples = QStringLiteral(CREDITLAB_IMPORT_SAMPLES);
        const Result chat = run({ "credit", "--method", "grpo", "--input", samples + "/chat.jsonl", "--output", "-" });
        QCOMPARE(chat.exitCode, 0);
        QVERIFY2(chat.out.startsWith("{\"id\":\"0\",\"advantages\":[0.70"), chat.out.constData());
        QVERIFY2(chat.out.contains("],\"message_index\":[2,4]}"), chat.out.constData());
        const Result steps = run({ "credit", "--method", "grpo", "--input", samples + "/steps.jsonl", "-o", "-" });
        QCOMPARE(steps.exitCode, 0);
        QVERIFY2(steps.out.contains("\"id\":\"t-a\",\"advantages\":[") && steps.out.contains("\"step_index\":[0,1,2]"),
            steps.out.constData());
        // --format names the reader; a wrong one is refused with the file and line.
        const Result wrong = run({ "credit", "--method", "grpo", "--format", "verl", "--input", samples + "/chat.jsonl", "-o", "-" });
        QVERIFY(wrong.exitCode != 0);
        QVERIFY2(wrong.err.contains("chat.jsonl:1:"), wrong.err.constData());
        // Store mode: the run imported from the dump keeps the indices.
        const QString db = path("creditback.db");
        QCOMPARE(run({ "import", "--db", db, samples + "/steps.jsonl" }).exitCode, 0);
        const Result stored = run({ "credit", "--method", "grpo", "--db", db, "--run", "1", "--output", "-" });
        QCOMPARE(stored.exitCode, 0);
        QVERIFY2(stored.out.contains("\"step_index\":[0,1,2]"), stored.out.constData());
        // Native turns: no index.
        const QString native = path("native.jsonl");
        write(native, kGood);
        const Result plain = run({ "credit", "--method", "grpo", "--input", native, "--output", "-" });
        QCOMPARE(plain.exitCode, 0);
        QVERIFY2(!plain.out.contains("_index"), plain.out.constData());
        // A mapping file and a template's markers work in file mode as they do for import.
        const Result mapped = run({ "credit", "--method", "grpo", "--input", samples + "/custom.jsonl", "--map",
            samples + "/custom.map.yaml", "-o", "-" });
        QVERIFY2(mapped.exitCode == 0, mapped.err.constData());
        QVERIFY2(mapped.out.startsWith("{\"id\":\"ep-1\",\"advantages\":["), mapped.out.constData());
        const QString custom = path("custom-template.jsonl");
        write(custom,
            "{\"input\":\"<s>user\\nfind the key</s>\\n<s>assistant\\n\",\"output\":\"look</s>\\n<s>user\\na key</s>\\n"
            "<s>assistant\\ntake key</s>\",\"score\":1,\"uid\":\"p\"}\n"
            "{\"input\":\"<s>user\\nfind the key</s>\\n<s>assistant\\n\",\"output\":\"sleep</s>\",\"score\":0,\"uid\":\"p\"}\n");
        const Result marked = run({ "credit", "--method", "grpo", "--input", custom, "--format", "verl", "--markers", "<s>",
            "</s>", "-o", "-" });
        QVERIFY2(marked.exitCode == 0, marked.err.constData());
        QVERIFY2(marked.out.contains("\"message_index\":[1,3]"), marked.out.constData()); // two turns, split at <s>
    }

    void failedImportLeavesNoDatabase()
    {
        // A bad first file into a database the command would create: no empty database is left behind.
        const QString db = path("never.db");
        const QString bad = path("bad-only.jsonl");
        write(bad, "{\"id\":\"a\",\"group\":\"g\",\"reward\":1,\"turns\":[{\"observation\":1,\"action\":\"x\"}]}\n");
        const Result r = run({ "import", "--db", db, bad });
        QVERIFY(r.exitCode != 0);
        QVERIFY(!QFile::exists(db));
        QVERIFY(!QFile::exists(db + "-wal"));
        // An existing database is never removed, even when the import fails and it holds no run.
        QCOMPARE(run({ "import", "--db", db, QStringLiteral(CREDITLAB_IMPORT_SAMPLES) + "/chat.jsonl" }).exitCode, 0);
        QVERIFY(run({ "import", "--db", db, bad }).exitCode != 0);
        QVERIFY(QFile::exists(db));
    }

    void runsTableCountsCharacters()
    {
        // Run names with '·' (as the workbench names runs): the columns line up in characters, and a long name is
        // cut between characters (a cut by bytes split a '·' and printed invalid UTF-8).
        const QString db = path("names.db");
        const QString in = path("good.jsonl");
        write(in, kGood);
        const QString shortName = QStringLiteral("household · grpo · s0");
        const QString longName = QStringLiteral("household · triage · s0 · lr=1e-4 · ε=0.2");
        QCOMPARE(run({ "import", "--db", db, "--name", shortName, in }).exitCode, 0);
        QCOMPARE(run({ "import", "--db", db, "--name", longName, in }).exitCode, 0);
        const Result runs = run({ "runs", "--db", db });
        QCOMPARE(runs.exitCode, 0);
        const QString text = QString::fromUtf8(runs.out);
        QVERIFY2(!text.contains(QChar::ReplacementCharacter), runs.out.constData());
        const QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        const qsizetype kind = lines[0].indexOf(QStringLiteral("KIND"));
        for (const QString& line : lines.mid(1))
            QVERIFY2(line.indexOf(QStringLiteral("import")) == kind, qPrintable(line));
        QVERIFY2(lines[1].contains(shortName), qPrintable(lines[1]));
        QVERIFY2(lines[2].contains(longName.left(27) + QLatin1Char('~')), qPrintable(lines[2]));
    }

    void importRunsExportRoundTrip()
    {
        const QString db = path("roundtrip.db");
        const QString in = path("good.jsonl");
        write(in, kGood);
        const Result imp = run({ "import", "--db", db, in });
        QCOMPARE(imp.exitCode, 0);
        QVERIFY2(imp.out.contains("as run 1: 3 trajectories, 3 turns"), imp.out.constData());

        const Result runs = run({ "runs", "--db", db });
        QCOMPARE(runs.exitCode, 0);
        QVERIFY(runs.out.contains("good.jsonl"));
        const Result json = run({ "runs", "--db", db, "--json" });
        QCOMPARE(json.exitCode, 0);
        QVERIFY2(json.out.startsWith(
                     R"({"id":1,"name":"good.jsonl","kind":"import","status":"finished","trajectories":3,"turns":3,)"),
            json.out.constData());
        QVERIFY2(json.out.contains("\"environment\":null,\"method\":null,\"seed\":null,\"summary\":\"\""), json.out.constData());

        const QString out = path("out.jsonl");
        const Result exp = run({ "export", "--db", db, "--run", "1", "--output", out });
        QCOMPARE(exp.exitCode, 0);
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray exported = f.readAll();
        QCOMPARE(exported, canonical(kGood));
        // Exporting the export gives the same bytes again.
        QCOMPARE(canonical(exported), exported);

        const Result toStdout = run({ "export", "--db", db, "--run", "1", "-o", "-" });
        QCOMPARE(toStdout.exitCode, 0);
        QCOMPARE(toStdout.out, exported);

        const Result iter = run({ "export", "--db", db, "--run", "1", "--iteration", "2", "-o", "-" });
        QCOMPARE(iter.exitCode, 0);
        QCOMPARE(iter.out.count('\n'), 1);
        QVERIFY(iter.out.startsWith(R"({"id":"t3")"));
    }

    void badJsonlIsRefusedAndDatabaseUnchanged_data()
    {
        QTest::addColumn<QByteArray>("line3");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("bad role") << QByteArray(
            R"({"id":"x","group":"g","reward":1,"turns":[{"observation":"o","action":"a","role":"Q"}]})")
                                  << QByteArray(R"(bad.jsonl:3: field "turns[0].role": expected one of)");
        QTest::newRow("missing action") << QByteArray(
            R"({"id":"x","group":"g","reward":1,"turns":[{"observation":"o"}]})")
                                        << QByteArray(R"(bad.jsonl:3: field "turns[0].action": is required)");
        QTest::newRow("truncated") << QByteArray(R"({"id":"x","group":"g","reward":1,"turns":[)")
                                   << QByteArray("bad.jsonl:3:");
        QTest::newRow("duplicate id") << QByteArray(R"({"id":"t1","group":"g","reward":1,"turns":[]})")
                                      << QByteArray(R"(bad.jsonl:3: field "id": duplicate id "t1" (first on line 1))");
    }

    void badJsonlIsRefusedAndDatabaseUnchanged()
    {
        QFETCH(QByteArray, line3);
        QFETCH(QByteArray, expected);
        const QString db = path("bad.db");
        QFile::remove(db);
        const QString good = path("first.jsonl");
        write(good,
            R"({"id":"a","group":"g","reward":1,"turns":[]})"
            "\n");
        QCOMPARE(run({ "import", "--db", db, good }).exitCode, 0);
        const QByteArray before = run({ "export", "--db", db, "--run", "1", "-o", "-" }).out;

        const QString bad = path("bad.jsonl");
        write(bad,
            QByteArray(R"({"id":"t1","group":"g","reward":1,"turns":[]})") + "\n"
                + R"({"id":"t2","group":"g","reward":1,"turns":[]})" + "\n" + line3 + "\n");
        const Result r = run({ "import", "--db", db, bad });
        QVERIFY(r.exitCode != 0);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.contains(expected), r.err.constData());

        const Result runs = run({ "runs", "--db", db, "--json" });
        QCOMPARE(runs.out.count('\n'), 1); // still only the first run
        QCOMPARE(run({ "export", "--db", db, "--run", "1", "-o", "-" }).out, before);
        QVERIFY(run({ "export", "--db", db, "--run", "2", "-o", "-" }).exitCode != 0);
    }

    void missingThingsAreErrors()
    {
        const Result noDb = run({ "runs", "--db", path("nope.db") });
        QVERIFY(noDb.exitCode != 0);
        QVERIFY(noDb.err.contains("no such database"));
        QVERIFY(!QFile::exists(path("nope.db")));

        const Result noFile = run({ "import", "--db", path("x.db"), path("missing.jsonl") });
        QVERIFY(noFile.exitCode != 0);
        QVERIFY2(noFile.err.contains("missing.jsonl: cannot open"), noFile.err.constData());

        const QString db = path("roundtrip.db");
        const Result noRun = run({ "export", "--db", db, "--run", "42", "-o", path("never.jsonl") });
        QVERIFY(noRun.exitCode != 0);
        QVERIFY(noRun.err.contains("no run with id 42"));
        QVERIFY(!QFile::exists(path("never.jsonl")));
    }

    void newerDatabaseIsRefusedUntouched()
    {
        const QString db = path("newer.db");
        QCOMPARE(run({ "import", "--db", db, path("first.jsonl") }).exitCode, 0);
        {
            QProcess p; // bump the version with the sqlite3 shell when present, else skip
            p.start("sqlite3",
                { db,
                    QString("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE; PRAGMA user_version=%1;")
                        .arg(creditlab::schema::kVersion + 1) });
            if (!p.waitForStarted() || !p.waitForFinished() || p.exitCode() != 0)
                QSKIP("sqlite3 shell not available");
        }
        const QByteArray before = hashOf(db);
        for (const QStringList& args :
            { QStringList { "runs", "--db", db }, QStringList { "import", "--db", db, path("first.jsonl") } }) {
            const Result r = run(args);
            QVERIFY(r.exitCode != 0);
            QVERIFY2(r.err.contains("newer CreditLab"), r.err.constData());
            QCOMPARE(r.err.count('\n'), 1);
        }
        QCOMPARE(hashOf(db), before);
    }

    void defaultDatabaseLivesInDataFolder()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_DATA_HOME", path("xdg"));
        const Result r = run({ "import", path("first.jsonl") }, env);
        QCOMPARE(r.exitCode, 0);
        QVERIFY(QFile::exists(path("xdg/creditlab/runs.db")));
        QVERIFY(run({ "runs" }, env).out.contains("first.jsonl"));
    }

    void creditFileMode()
    {
        const QString in = path("credit-in.jsonl");
        write(in,
            R"({"id":"a","group":"g","reward":1,"turns":[{"observation":"o","action":"x","role":"D"},{"observation":"o2","action":"y","role":"R"}]})"
            "\n"
            R"({"id":"b","group":"g","reward":0,"turns":[{"observation":"o","action":"x","role":"N"}]})"
            "\n"
            R"({"id":"c","group":"solo","reward":5,"turns":[{"observation":"o","action":"x"}]})"
            "\n");
        const QString out = path("credit-out.jsonl");
        const Result r = run({ "credit", "--method", "grpo", "--input", in, "--output", out });
        QCOMPARE(r.exitCode, 0);
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().split('\n');
        QCOMPARE(lines.size(), 4); // three lines and the empty tail
        // Group g: rewards 1 and 0, mean 0.5, sample std 0.70710678; a group of one gives 0.
        const double a = 0.5 / (0.7071067811865476 + 1e-6);
        QCOMPARE(lines[0],
            QByteArray(R"({"id":"a","advantages":[)") + QByteArray::number(a, 'g', QLocale::FloatingPointShortest) + ","
                + QByteArray::number(a, 'g', QLocale::FloatingPointShortest) + "]}");
        QVERIFY(lines[1].startsWith(R"({"id":"b","advantages":[-0.7071)"));
        QCOMPARE(lines[2], QByteArray(R"({"id":"c","advantages":[0]})"));

        const QString roles = path("credit-roles.jsonl");
        write(roles,
            lines.isEmpty()
                ? QByteArray()
                : QByteArray(
                      R"({"id":"a","group":"g","reward":1,"turns":[{"observation":"o","action":"x","role":"D"},{"observation":"o2","action":"y","role":"R"}]})")
                    + "\n");
        const Result details
            = run({ "credit", "-m", "triage", "--set", "lambda=0.5", "-i", roles, "-o", "-", "--details" });
        QCOMPARE(details.exitCode, 0);
        QVERIFY2(details.out.contains(R"("details":{)") && details.out.contains(R"("role":["D","R"])"),
            details.out.constData());
    }

    void creditErrorsWriteNothing_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("unknown method") << QStringList { "-m", "nope" } << QByteArray("unknown method 'nope'");
        QTest::newRow("unknown key") << QStringList { "-m", "triage", "--set", "lamda=1" }
                                     << QByteArray("unknown parameter 'lamda'");
        QTest::newRow("out of range") << QStringList { "-m", "has", "--set", "alpha=2" } << QByteArray("alpha");
        QTest::newRow("missing role") << QStringList { "-m", "triage" }
                                      << QByteArray(R"(trajectory "c", turn 1: field "role" is required by triage)");
        QTest::newRow("missing progress") << QStringList { "-m", "has" } << QByteArray(R"(field "progress")");
        QTest::newRow("missing score") << QStringList { "-m", "pair" } << QByteArray(R"(field "score")");
    }

    void creditErrorsWriteNothing()
    {
        QFETCH(QStringList, extra);
        QFETCH(QByteArray, expected);
        const QString out = path("never-credit.jsonl");
        const Result r = run(QStringList { "credit", "-i", path("credit-in.jsonl"), "-o", out } + extra);
        QVERIFY(r.exitCode != 0);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.contains(expected), r.err.constData());
        QVERIFY(!QFile::exists(out));
    }

    void creditStoreModeAndExport()
    {
        const QString db = path("credit.db");
        QCOMPARE(run({ "import", "--db", db, path("credit-in.jsonl") }).exitCode, 0);
        const Result r = run({ "credit", "--db", db, "--run", "1", "-m", "grpo", "--set", "norm_std=false" });
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("grpo:binarize=false,conventions=creditlab,norm_std=false,singleton=zero"),
            r.out.constData());
        const Result e = run({ "export", "--db", db, "--run", "1", "-o", "-" });
        QCOMPARE(e.exitCode, 0);
        QVERIFY2(e.out.contains(R"("credit":{"grpo":0.5})") && e.out.contains(R"("credit":{"grpo":-0.5})"),
            e.out.constData());
        const Result missing = run({ "credit", "--db", db, "--run", "9", "-m", "grpo" });
        QVERIFY(missing.exitCode != 0);
        QVERIFY(missing.err.contains("no run with id 9"));
    }

    void envListAndRollout()
    {
        const Result list = run({ "env", "list" });
        QCOMPARE(list.exitCode, 0);
        QVERIFY(list.out.startsWith("household\n"));

        // Rollouts carry every field, and go straight into credit.
        const QString out = path("rollout.jsonl");
        const Result r = run({ "env", "rollout", "household", "--policy", "noisy-expert", "--episodes", "16", "--group",
            "8", "--seed", "3", "--output", out });
        QCOMPARE(r.exitCode, 0);
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 16);
        for (const char* field : { "\"valid\":", "\"state\":", "\"progress\":", "\"role\":",
                 "\"role_source\":\"judge:oracle\"", "\"score\":" })
            QVERIFY2(lines[0].contains(field), field);
        for (const char* method :
            { "grpo", "gigpo", "triage", "has", "mgr", "rtmc", "pair", "step_reward", "loop", "scalar_judge" }) {
            const Result c = run({ "credit", "-m", method, "-i", out, "-o", "-" });
            QVERIFY2(c.exitCode == 0, c.err.constData());
            QCOMPARE(c.out.count('\n'), 16);
        }
        // The same seed gives the same rollouts.
        const Result again = run({ "env", "rollout", "household", "--policy", "noisy-expert", "--episodes", "16",
            "--group", "8", "--seed", "3", "--output", "-" });
        QCOMPARE(again.out, QByteArray(lines.join('\n') + '\n'));

        const Result bad = run({ "env", "rollout", "household", "--episodes", "5", "--group", "2", "-o", "-" });
        QVERIFY(bad.exitCode != 0);
        QVERIFY(bad.err.contains("multiple of --group"));
        QVERIFY(run({ "env", "rollout", "nowhere", "-o", "-" }).exitCode != 0);
    }

    void envPlayReadsCommands()
    {
        QProcess p;
        p.start(
            QStringLiteral(CREDITLAB_CLI_PATH), { "env", "play", "household", "--seed", "5", "--db", path("play.db") });
        QVERIFY(p.waitForStarted());
        p.write("help\nlook\nfly to the moon\nquit\n");
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(60000));
        const QByteArray out = p.readAllStandardOutput();
        QCOMPARE(p.exitCode(), 0);
        QVERIFY2(out.contains("Your task is to:"), out.constData());
        QVERIFY(out.contains("Admissible commands:"));
        QVERIFY(out.contains("Nothing happens."));
        QVERIFY(out.contains("stored as run 1"));
        const Result runs = run({ "runs", "--db", path("play.db"), "--json" });
        QVERIFY2(runs.out.contains("\"turns\":2"), runs.out.constData()); // look and the invalid command
    }

    void rolloutWithHumanJudge()
    {
        // Expert rollouts of two tasks, then "alice" labels every turn of them R (the oracle says D or E).
        const QString db = path("human.db");
        QCOMPARE(run({ "env", "rollout", "household", "--episodes", "2", "--seed", "40", "--db", db }).exitCode, 0);
        int labelled = 0;
        {
            creditlab::Store store(db.toStdString());
            for (const auto& info : store.trajectories(1))
                for (int k = 0; k < info.turnCount; ++k, ++labelled)
                    store.setHumanLabel(info.rowId, k, "alice", creditlab::Role::R);
        }
        QVERIFY(labelled > 2);
        // The same tasks again with the human judge: the expert repeats itself, so every turn takes alice's label;
        // a third task has none and gets the backing oracle's.
        const Result r = run({ "env", "rollout", "household", "--episodes", "3", "--seed", "40", "--db", db, "--judge",
            "human" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const Result exp = run({ "export", "--db", db, "--run", "2", "-o", "-" });
        QCOMPARE(exp.exitCode, 0);
        const QList<QByteArray> lines = exp.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        for (int i = 0; i < 2; ++i) {
            QVERIFY2(!lines[i].contains("judge:"), lines[i].constData());
            QCOMPARE(lines[i].count(R"("role":"R","role_source":"human:alice")"), lines[i].count(R"("action":)"));
        }
        QVERIFY2(!lines[2].contains("human:alice"), lines[2].constData());
        QVERIFY(lines[2].contains(R"("role_source":"judge:human:annotator=*,backing=oracle")"));
        // The human judge needs the database its labels are in.
        const Result noDb = run({ "env", "rollout", "household", "--judge", "human", "-o", "-" });
        QVERIFY(noDb.exitCode != 0);
        QVERIFY2(noDb.err.contains("--db"), noDb.err.constData());
    }

    void agreementMatchesConfiguredNoise()
    {
        const QString db = path("agree.db");
        QCOMPARE(run({ "env", "rollout", "household", "--policy", "noisy-expert", "--episodes", "200", "--group", "8",
                         "--db", db, "--judge", "noisy", "--judge-set", "accuracy=0.6" })
                     .exitCode,
            0);
        const Result r = run({ "agreement", "--db", db, "--a", "oracle", "--b", "noisy", "--json" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject report = QJsonDocument::fromJson(r.out).object();
        const QJsonObject pair = report.value("pairs").toArray().at(0).toObject();
        QVERIFY2(!pair.isEmpty(), r.out.constData());
        const double accuracy = pair.value("accuracy").toDouble();
        QVERIFY2(std::abs(accuracy - 0.6) < 0.05, qPrintable(QString::number(accuracy)));
        const Result text = run({ "agreement", "--db", db });
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("Cohen's kappa"));
        // The turn roles copy the stored noisy labels: that pair is not reported.
        QVERIFY(!text.out.contains("vs turn:judge:noisy"));
        QVERIFY(run({ "agreement", "--db", path("nope.db") }).exitCode != 0);
    }

    void trainRefusesBadConfigs_data()
    {
        QTest::addColumn<QByteArray>("yaml");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("unknown key") << QByteArray("seed: 1\nrl:\n  itrations: 3\n") << QStringList()
                                     << QByteArray("bad.yaml:3: unknown key 'rl.itrations'");
        QTest::newRow("bad value") << QByteArray("rl:\n  lr: fast\n") << QStringList()
                                   << QByteArray("bad.yaml:2: rl.lr:");
        QTest::newRow("bad set") << QByteArray("seed: 1\n") << QStringList { "--set", "rl.clip=-1" }
                                 << QByteArray("--set: rl.clip:");
        QTest::newRow("bad device") << QByteArray("seed: 1\n") << QStringList { "--device", "tpu" }
                                    << QByteArray("unknown device 'tpu'");
    }

    void trainRefusesBadConfigs()
    {
        QFETCH(QByteArray, yaml);
        QFETCH(QStringList, extra);
        QFETCH(QByteArray, expected);
        write(path("bad.yaml"), yaml);
        const QString db = path("train-bad.db");
        const Result r = run(QStringList { "train", "--config", path("bad.yaml"), "--db", db } + extra);
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains(expected), r.err.constData());
        QCOMPARE(r.err.count('\n'), 1);
    }

    void trainInterruptAndResume()
    {
        write(path("tiny.yaml"),
            "seed: 5\nthreads: 1\nenv: {name: household, max_steps: 5}\n"
            "policy: {width: 32, layers: 1, heads: 2, context: 160, history: 1, max_action_tokens: 8}\n"
            "tokenizer.episodes: 6\nsft: {expert_episodes: 8, noisy_episodes: 0, epochs: 1}\n"
            "rl: {iterations: 40, tasks: 2, group_size: 2, epochs: 1, minibatches: 1}\n"
            "eval: {episodes: 2, every: 1}\ncredit.method: rtmc\n");
        const QString db = path("train.db");
        QProcess p;
        p.start(QStringLiteral(CREDITLAB_CLI_PATH), { "train", "--config", path("tiny.yaml"), "--db", db });
        QVERIFY(p.waitForStarted());
        // Ctrl+C once the first iteration is reported: the run stops after the current iteration.
        QByteArray out;
        while (!out.contains("iter    1/40") && p.waitForReadyRead(60000))
            out += p.readAllStandardOutput();
        QVERIFY2(out.contains("iter    1/40"), out.constData());
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(60000));
        out += p.readAllStandardOutput();
        QCOMPARE(p.exitCode(), 0);
        QVERIFY2(out.contains("stopped after iteration"), out.constData());
        QVERIFY2(out.contains("train --resume 1"), out.constData());
        const Result runs = run({ "runs", "--db", db });
        QVERIFY2(runs.out.contains("cancelled"), runs.out.constData());
        // The run's shape, from its typed columns: the summary the workbench's runs table shows too.
        QVERIFY2(runs.out.contains("household · rtmc · s5 · 32×1"), runs.out.constData());
        const Result json = run({ "runs", "--db", db, "--json" });
        QVERIFY2(json.out.contains("\"environment\":\"household\",\"method\":\"rtmc\",\"seed\":5,\"summary\":\"household"),
            json.out.constData());

        const Result resumed = run({ "train", "--resume", "1", "--db", db, "--quiet" });
        QVERIFY2(resumed.exitCode == 0, resumed.err.constData());
        QVERIFY2(resumed.out.contains("run 1 finished after 40 iterations"), resumed.out.constData());
        const Result twice = run({ "train", "--resume", "1", "--config", path("tiny.yaml"), "--db", db });
        QVERIFY(twice.exitCode != 0);
        const Result extended = run({ "train", "--resume", "1", "--set", "rl.iterations=41", "--db", db, "-q" });
        QVERIFY2(extended.out.contains("run 1 finished after 41 iterations"), extended.out.constData());
        const Result refused = run({ "train", "--resume", "1", "--set", "seed=2", "--db", db });
        QVERIFY(refused.exitCode != 0);
        QVERIFY2(refused.err.contains("seed: cannot change when resuming"), refused.err.constData());
    }

    void doctorAndMethods()
    {
        const Result d = run({ "doctor", "--threads", "1" });
        QCOMPARE(d.exitCode, 0);
        for (const char* key : { "LibTorch", "intra-op threads 1", "BLAS", "devices", "SQLite" })
            QVERIFY2(d.out.contains(key), key);
        // install-deps.sh installs OpenBLAS: no reference-BLAS warning here (the wheels' MKL does not warn either).
        QVERIFY2(d.out.contains("openblas") && !d.out.contains("slow reference BLAS"), d.out.constData());
        const Result m = run({ "methods" });
        QCOMPARE(m.exitCode, 0);
        for (const char* method : { "grpo", "gigpo", "triage", "has", "mgr", "rtmc", "pair", "step_reward", "loop",
                 "scalar_judge", "value_baseline" })
            QVERIFY2(m.out.contains(QByteArray("\n") + method + "\n") || m.out.startsWith(QByteArray(method) + "\n"),
                method);
        QVERIFY(m.out.contains("lambda"));
    }

    void doctorReportsWaitPolicyInForce_data()
    {
        QTest::addColumn<QString>("exported"); // empty: OMP_WAIT_POLICY removed from the environment
        QTest::addColumn<QByteArray>("line");
        QTest::newRow("unset") << QString()
                               << QByteArray("OMP_WAIT_POLICY  passive (in force: set in main(), before the training module "
                                              "loaded the OpenMP runtime)");
        QTest::newRow("user's active kept") << QStringLiteral(
            "active") << QByteArray("OMP_WAIT_POLICY  active (in force: exported before the program started)");
        QTest::newRow("user's passive") << QStringLiteral("passive")
                                        << QByteArray("OMP_WAIT_POLICY  passive (in force: exported before");
    }

    void doctorReportsWaitPolicyInForce()
    {
        // libgomp reads OMP_WAIT_POLICY when it loads, before main(); the doctor asks libgomp what it uses.
        QFETCH(QString, exported);
        QFETCH(QByteArray, line);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("OMP_WAIT_POLICY"));
        env.remove(QStringLiteral("GOMP_SPINCOUNT"));
        if (!exported.isEmpty())
            env.insert(QStringLiteral("OMP_WAIT_POLICY"), exported);
        const Result d = run({ "doctor", "--threads", "1" }, env);
        QCOMPARE(d.exitCode, 0);
        QVERIFY2(d.out.contains(line), d.out.constData());
        QVERIFY2(!d.err.contains("OPENMP DISPLAY ENVIRONMENT"), d.err.constData()); // libgomp's text is captured
        // Re-executing to set the variable keeps the exit status and stderr of a failing command.
        const Result bad = run({ "nonsense" }, env);
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("unknown command 'nonsense'"), bad.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
