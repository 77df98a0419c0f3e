// End-to-end tests of `creditlab-cli labels export|import`: help, export → import into a fresh database, a bad file
// (one stderr line naming file:line:field, non-zero exit, nothing imported), ids of several runs, missing databases.
#include "core/storage/store.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Result {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

/// t1 has 2 turns, t2 one, t3 none.
const char* kTrajectories
    = R"({"id":"t1","group":"g1","reward":1,"turns":[{"observation":"o","action":"a"},{"observation":"p","action":"b"}]}
{"id":"t2","group":"g1","reward":0,"turns":[{"observation":"q","action":"c"}]}
{"id":"t3","group":"g2","reward":0,"turns":[]}
)";

} // namespace

class TestCliLabels : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString path(const QString& name) const { return m_dir.filePath(name); }

    Result run(const QStringList& args)
    {
        QProcess p;
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

    static QByteArray readAll(const QString& file)
    {
        QFile f(file);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    /// A database with the trajectories imported `runs` times (runs 1..runs).
    void makeDatabase(const QString& db, int runs = 1)
    {
        write(path(QStringLiteral("trajs.jsonl")), kTrajectories);
        for (int i = 0; i < runs; ++i) {
            const Result r = run({ "import", "--db", db, path(QStringLiteral("trajs.jsonl")) });
            QVERIFY2(r.exitCode == 0, r.err.constData());
        }
    }

    /// Every human label of a database as "run:trajectory:turn:annotator:role", in run and trajectory order.
    static QStringList labels(const QString& db)
    {
        QStringList out;
        creditlab::Store store(db.toStdString(), creditlab::Store::Access::ReadOnly);
        for (const creditlab::RunInfo& r : store.runs())
            for (const creditlab::TrajectoryInfo& t : store.trajectories(r.id))
                for (const creditlab::HumanLabel& h : store.humanLabels(t.rowId))
                    out << QStringLiteral("%1:%2:%3:%4:%5")
                               .arg(r.id)
                               .arg(QString::fromStdString(t.id))
                               .arg(h.turn)
                               .arg(QString::fromStdString(h.annotator),
                                   QString::fromStdString(std::string(creditlab::roleName(h.role))));
        return out;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void helpListsLabels()
    {
        const Result top = run({ "--help" });
        QCOMPARE(top.exitCode, 0);
        QVERIFY(top.out.contains("labels"));
        const Result labels = run({ "labels", "--help" });
        QCOMPARE(labels.exitCode, 0);
        QVERIFY2(labels.out.contains("export") && labels.out.contains("import"), labels.out.constData());
        const Result exportHelp = run({ "labels", "export", "--help" });
        QCOMPARE(exportHelp.exitCode, 0);
        for (const char* option : { "--db", "--run", "--output" })
            QVERIFY2(exportHelp.out.contains(option), option);
        const Result importHelp = run({ "labels", "import", "--help" });
        QCOMPARE(importHelp.exitCode, 0);
        QVERIFY(importHelp.out.contains("--db"));
        // No subcommand, or an import without a file: one line on stderr.
        for (const QStringList& args : { QStringList { "labels" }, QStringList { "labels", "import" } }) {
            const Result r = run(args);
            QVERIFY(r.exitCode != 0);
            QCOMPARE(r.err.count('\n'), 1);
        }
    }

    void exportImportIntoFreshDatabase()
    {
        const QString a = path(QStringLiteral("a.db"));
        makeDatabase(a);
        {
            creditlab::Store store(a.toStdString());
            const auto trajectories = store.trajectories(1);
            QCOMPARE(trajectories.size(), std::size_t(3));
            store.setHumanLabel(trajectories[0].rowId, 1, "alice", creditlab::Role::R);
            store.setHumanLabel(trajectories[0].rowId, 0, "bob", creditlab::Role::D);
            store.setHumanLabel(trajectories[1].rowId, 0, "alice", creditlab::Role::E);
        }
        const QString file = path(QStringLiteral("labels.jsonl"));
        const Result exported = run({ "labels", "export", "--db", a, "--run", "1", "--output", file });
        QVERIFY2(exported.exitCode == 0, exported.err.constData());
        QCOMPARE(exported.err, QByteArray());
        QCOMPARE(exported.out, "exported the labels of run 1 to " + file.toUtf8() + ": 3 labels, 2 trajectories\n");
        QCOMPARE(readAll(file),
            QByteArray(R"({"annotator":"bob","role":"D","trajectory":"t1","turn":0})"
                       "\n"
                       R"({"annotator":"alice","role":"R","trajectory":"t1","turn":1})"
                       "\n"
                       R"({"annotator":"alice","role":"E","trajectory":"t2","turn":0})"
                       "\n"));
        // To standard output (the default): only the labels, the same bytes; every run, as there is one.
        const Result toStdout = run({ "labels", "export", "--db", a });
        QCOMPARE(toStdout.exitCode, 0);
        QCOMPARE(toStdout.out, readAll(file));

        const QString b = path(QStringLiteral("b.db"));
        makeDatabase(b);
        QVERIFY(labels(b).isEmpty());
        const Result imported = run({ "labels", "import", file, "--db", b });
        QVERIFY2(imported.exitCode == 0, imported.err.constData());
        QCOMPARE(imported.err, QByteArray());
        QCOMPARE(imported.out, "imported " + file.toUtf8() + " into " + b.toUtf8() + ": 3 labels, 2 trajectories\n");
        QCOMPARE(labels(b), labels(a));
        QCOMPARE(labels(b).size(), 3);
    }

    void badFileImportsNothing()
    {
        const QString db = path(QStringLiteral("bad.db"));
        makeDatabase(db);
        const QString file = path(QStringLiteral("bad.jsonl"));
        write(file,
            R"({"trajectory":"t1","turn":0,"annotator":"eve","role":"D"})"
            "\n"
            R"({"trajectory":"t2","turn":0,"annotator":"eve","role":"X"})"
            "\n");
        Result r = run({ "labels", "import", file, "--db", db });
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.out, QByteArray());
        QCOMPARE(r.err, "creditlab-cli: error: " + file.toUtf8() + ":2: field \"role\": expected one of D, E, N, R\n");
        QVERIFY(labels(db).isEmpty());
        // A turn past the trajectory's end, and a line that is not JSON.
        write(file,
            R"({"trajectory":"t2","turn":1,"annotator":"eve","role":"D"})"
            "\n");
        r = run({ "labels", "import", file, "--db", db });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(
            r.err.contains(file.toUtf8() + ":1: field \"turn\": expected a turn index from 0 to 0"), r.err.constData());
        write(file, "\n\n{\"trajectory\":\n");
        r = run({ "labels", "import", file, "--db", db });
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.contains(file.toUtf8() + ":3: not a JSON object"), r.err.constData());
        QVERIFY(labels(db).isEmpty());
        // A missing file is named too.
        r = run({ "labels", "import", path(QStringLiteral("missing.jsonl")), "--db", db });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("missing.jsonl"), r.err.constData());
    }

    void idsOfSeveralRuns()
    {
        const QString db = path(QStringLiteral("twice.db"));
        makeDatabase(db, 2);
        const QString file = path(QStringLiteral("t1.jsonl"));
        write(file,
            R"({"trajectory":"t1","turn":1,"annotator":"fay","role":"N"})"
            "\n");
        Result r = run({ "labels", "import", file, "--db", db });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(
                     file.toUtf8() + ":1: field \"trajectory\": this id names trajectories of several runs (1, 2)"),
            r.err.constData());
        QVERIFY(labels(db).isEmpty());
        r = run({ "labels", "import", file, "--db", db, "--run", "2" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out, "imported " + file.toUtf8() + " into run 2: 1 label, 1 trajectory\n");
        QCOMPARE(labels(db), QStringList { QStringLiteral("2:t1:1:fay:N") });
        // Exporting every run, and a run that does not exist.
        const QString out = path(QStringLiteral("all.jsonl"));
        r = run({ "labels", "export", "--db", db, "-o", out });
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, "exported the labels of every run to " + out.toUtf8() + ": 1 label, 1 trajectory\n");
        r = run({ "labels", "export", "--db", db, "--run", "7", "-o", path(QStringLiteral("none.jsonl")) });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("no run with id 7"), r.err.constData());
        QVERIFY(!QFile::exists(path(QStringLiteral("none.jsonl"))));
    }

    void missingDatabaseIsNotCreated()
    {
        const QString db = path(QStringLiteral("nothing.db"));
        for (const QStringList& args : { QStringList { "labels", "export", "--db", db },
                 QStringList { "labels", "import", path(QStringLiteral("t1.jsonl")), "--db", db } }) {
            const Result r = run(args);
            QCOMPARE(r.exitCode, 1);
            QCOMPARE(r.err.count('\n'), 1);
            QVERIFY2(r.err.contains("no such database"), r.err.constData());
            QVERIFY(!QFile::exists(db));
        }
    }
};

QTEST_GUILESS_MAIN(TestCliLabels)
#include "tst_cli_labels.moc"
