// End-to-end tests of `creditlab-cli sweep`: the shipped tiny sweep runs to the end and its trials are runs of
// the database; a bad sweep file is one line on stderr naming the file and line; Ctrl+C stops and --resume
// finishes the sweep.
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <sys/types.h>
#include <thread>

namespace {

struct Result {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

} // namespace

class TestCliSweep : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString path(const QString& name) const { return m_dir.filePath(name); }

    Result run(const QStringList& args)
    {
        QProcess p;
        p.start(QStringLiteral(CREDITLAB_CLI_PATH), args);
        if (!p.waitForFinished(240000))
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

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void helpDocumentsTheFormat()
    {
        const Result r = run({ "sweep", "--help" });
        QCOMPARE(r.exitCode, 0);
        for (const char* part : { "--config", "--workers", "--resume", "grid:", "random:", "seeds:", "log_uniform" })
            QVERIFY2(r.out.contains(part), part);
    }

    void tinySweepRunsToTheEnd()
    {
        const QString db = path("tiny.db");
        const Result r = run({ "sweep", "--config", QStringLiteral(CREDITLAB_CONFIG_DIR "/sweep-tiny.yaml"), "--db", db,
            "--workers", std::thread::hardware_concurrency() >= 2 ? "2" : "1" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("sweep 'sweep-tiny': 4 trials over rl.clip, kl.mode"), r.out.constData());
        QVERIFY2(r.out.contains("sweep 1 finished"), r.out.constData());
        QVERIFY2(r.out.contains("TRIAL  POINT"), r.out.constData());
        QVERIFY2(r.out.contains("rl.clip=0.3 kl.mode=adaptive"), r.out.constData());
        QCOMPARE(r.out.count("finished   0."), 4); // the table: status, then the objective
        const Result runs = run({ "runs", "--db", db });
        QCOMPARE(runs.exitCode, 0);
        QCOMPARE(runs.out.count(" trial "), 4);
        QVERIFY2(runs.out.contains("sweep-tiny-clip=0.1-mode=fi"), runs.out.constData());
    }

    void badSweepFilesGiveOneLine_data()
    {
        QTest::addColumn<QByteArray>("yaml");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QByteArray>("expected");
        const QByteArray base = "base: " CREDITLAB_CONFIG_DIR "/household-grpo.yaml\n";
        QTest::newRow("unknown key") << base + "grid:\n  rl.clip: [0.1]\nworker: 2\n"
                                     << QStringList() << QByteArray("bad.yaml:4: unknown key 'worker'");
        QTest::newRow("bad value") << base + "grid:\n  rl.clip: [0.1, -1]\n"
                                   << QStringList() << QByteArray("bad.yaml:3: rl.clip:");
        QTest::newRow("shipped base by name")
            << QByteArray("base: household-grpo\ngrid:\n  rl.lrr: [1]\n") << QStringList() << QByteArray("bad.yaml:3:");
        QTest::newRow("too many threads") << base + "threads: 256\n"
                                          << QStringList { "--workers", "256" } << QByteArray("exceeds the");
        QTest::newRow("no config") << QByteArray() << QStringList { "--config", "" } << QByteArray("needs --config");
        QTest::newRow("unknown sweep") << QByteArray() << QStringList { "--resume", "7" }
                                       << QByteArray("sweep 7 does not exist");
    }

    void badSweepFilesGiveOneLine()
    {
        QFETCH(QByteArray, yaml);
        QFETCH(QStringList, extra);
        QFETCH(QByteArray, expected);
        const QString db = path("bad.db");
        QStringList args { "sweep", "--db", db };
        if (!yaml.isEmpty()) {
            write(path("bad.yaml"), yaml);
            args += QStringList { "--config", path("bad.yaml") };
        }
        const Result r = run(args + extra);
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains(expected), r.err.constData());
        QCOMPARE(r.err.count('\n'), 1);
    }

    void interruptAndResume()
    {
        // Trial 1 ends quickly; Ctrl+C once it is reported stops trial 2 after its current iteration.
        write(path("long.yaml"),
            "name: long\nbase:\n  seed: 5\n  threads: 1\n  env: {name: household, max_steps: 5}\n"
            "  policy: {width: 32, layers: 1, heads: 2, context: 160, history: 1, max_action_tokens: 8}\n"
            "  tokenizer.episodes: 6\n  sft: {expert_episodes: 8, noisy_episodes: 0, epochs: 1}\n"
            "  rl: {tasks: 2, group_size: 2, epochs: 1, minibatches: 1}\n  eval: {episodes: 2, every: 1}\n"
            "grid:\n  rl.iterations: [1, 30]\nworkers: 1\n");
        const QString db = path("long.db");
        QProcess p;
        p.start(QStringLiteral(CREDITLAB_CLI_PATH), { "sweep", "--config", path("long.yaml"), "--db", db });
        QVERIFY(p.waitForStarted());
        QByteArray out;
        while (!out.contains("trial 1/2") && p.waitForReadyRead(120000))
            out += p.readAllStandardOutput();
        QVERIFY2(out.contains("trial 1/2"), out.constData());
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(120000));
        out += p.readAllStandardOutput();
        const QByteArray err = p.readAllStandardError();
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(out.contains("sweep 1 cancelled"), out.constData());
        QVERIFY2(err.contains("stopped with 1 of 2 trials done; continue with: creditlab-cli sweep --resume 1"),
            err.constData());

        const Result resumed = run({ "sweep", "--resume", "1", "--db", db, "-q" });
        QVERIFY2(resumed.exitCode == 0, resumed.err.constData());
        QVERIFY2(resumed.out.contains("sweep 1 finished"), resumed.out.constData());
        QVERIFY(!resumed.out.contains("trial 2/2")); // -q: the table only
        QCOMPARE(run({ "runs", "--db", db }).out.count(" trial "), 2);
    }
};

QTEST_GUILESS_MAIN(TestCliSweep)
#include "tst_cli_sweep.moc"
