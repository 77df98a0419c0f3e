// End to end (issue 36): a sweep across "machines" as `creditlab-cli sweep trial` processes, each trial into a
// database of its own, some twice (a retry of a finished trial, a trial SIGKILLed midway and run again, one trial run
// on two machines); the databases merged (twice: nothing more the second time) and the trials posted to a `serve`:
// every trial once, with its run and all its rows once, in the merged database and on the server. A database on a
// network file system (simulated by CREDITLAB_TEST_NETWORK_FS) is refused.
#include "core/storage/database.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <csignal>
#include <filesystem>

using creditlab::Database;

namespace {

struct Result {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Result runCli(const QStringList& args, const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment())
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(CREDITLAB_CLI_PATH), args);
    if (!p.waitForFinished(120000))
        qFatal("creditlab-cli did not finish: %s", qPrintable(args.join(' ')));
    return Result { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
        p.readAllStandardError() };
}

std::int64_t scalar(const QString& db, const char* sql)
{
    Database d(db.toStdString(), Database::Access::ReadOnly);
    return d.scalarInt(sql);
}

/// Three trials of the tiny household config (sweep-tiny.yaml's base), four iterations each, a checkpoint each.
const QByteArray kSweep = "name: cluster\n"
                          "base:\n"
                          "  seed: 3\n"
                          "  env: {name: household, max_steps: 6}\n"
                          "  policy: {width: 32, layers: 1, heads: 2, context: 160, history: 1, max_action_tokens: 8}\n"
                          "  tokenizer.episodes: 8\n"
                          "  sft: {expert_episodes: 12, noisy_episodes: 4, epochs: 1, batch_size: 32}\n"
                          "  rl: {iterations: 3, tasks: 2, group_size: 2, epochs: 1, minibatches: 2}\n"
                          "  eval: {episodes: 3, every: 1}\n"
                          "  checkpoint.every: 1\n"
                          "set:\n"
                          "  rl.iterations: 6\n"
                          "grid:\n"
                          "  rl.clip: [0.1, 0.2, 0.3]\n"
                          "threads: 1\n";

} // namespace

class TestCliCluster : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path(const QString& name) const { return m_dir.filePath(name); }
    QString sweepFile() const { return path("cluster.yaml"); }
    QStringList trial(int k, const QString& db) const
    {
        return { "sweep", "trial", "--sweep", sweepFile(), "--trial", QString::number(k), "--db", db };
    }

    /// Every table a run's rows live in, counted over the whole database: equal totals mean no row twice.
    static QList<std::int64_t> rowCounts(const QString& db)
    {
        QList<std::int64_t> out;
        for (const char* table : { "run", "run_config", "metric", "checkpoint", "sft_metric", "trajectory", "turn",
                 "credit", "trial", "sweep" })
            out << scalar(db, (std::string("SELECT count(*) FROM ") + table).c_str());
        return out;
    }

    /// One sweep, its three trials once each, finished, each on its own finished run.
    static void checkEveryTrialOnce(const QString& db)
    {
        QCOMPARE(scalar(db, "SELECT count(*) FROM sweep"), 1);
        QCOMPARE(scalar(db, "SELECT count(*) FROM sweep WHERE status = 'finished' AND trials_planned = 3"), 1);
        QCOMPARE(scalar(db, "SELECT count(*) FROM trial"), 3);
        QCOMPARE(scalar(db, "SELECT count(DISTINCT uid) FROM trial"), 3);
        QCOMPARE(scalar(db, "SELECT count(*) FROM trial WHERE status = 'finished' AND objective IS NOT NULL"), 3);
        QCOMPARE(scalar(db, "SELECT count(*) FROM run"), 3);
        QCOMPARE(scalar(db, "SELECT count(DISTINCT run_id) FROM trial"), 3);
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM run r JOIN trial t ON t.run_id = r.id WHERE r.status = 'finished' "
                     "AND r.uid = t.uid || '/run' AND r.kind = 'trial'"),
            3);
        QCOMPARE(scalar(db,
                     "SELECT count(*) FROM (SELECT run_id FROM metric WHERE name = 'eval/success' GROUP BY run_id "
                     "HAVING max(iteration) = 6)"),
            3);
        QCOMPARE(scalar(db, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QFile f(sweepFile());
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kSweep);
    }

    void helpNamesTheCommands()
    {
        const Result t = runCli({ "sweep", "trial", "--help" });
        QCOMPARE(t.exitCode, 0);
        for (const char* part :
            { "--sweep", "--trial", "--post", "SLURM_ARRAY_TASK_ID", "merge", "network file system" })
            QVERIFY2(t.out.contains(part), part);
        const Result m = runCli({ "merge", "--help" });
        QCOMPARE(m.exitCode, 0);
        QVERIFY2(m.out.contains("--into"), m.out.constData());
    }

    void badTrialNumberIsOneLine()
    {
        const Result r = runCli(trial(3, path("bad.db")));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("cluster.yaml: --trial 3: the sweep has 3 trials, numbered 0 to 2"), r.err.constData());
        QCOMPARE(r.err.count('\n'), 1);
    }

    void trialsMergedAndPostedOnce()
    {
        // The central server, as on the learner's machine.
        QProcess serve;
        serve.start(QStringLiteral(CREDITLAB_CLI_PATH),
            { "serve", "--db", path("server.db"), "--port", "0", "--rate", "0", "--quiet" });
        int port = 0;
        while (port == 0 && (serve.canReadLine() || serve.waitForReadyRead(20000))) {
            const QByteArray line = serve.readLine();
            const int at = line.indexOf("127.0.0.1:");
            if (line.startsWith("listening on ") && at > 0)
                port = line.mid(at + 10).split('/').first().toInt();
        }
        QVERIFY2(port > 0, serve.readAllStandardError().constData());
        const QString url = QStringLiteral("http://127.0.0.1:%1").arg(port);
        const auto posted = [&](const QStringList& args) { return args + QStringList { "--post", url }; };

        // Trial 0, posted; a retry is a no-op that says so, and posts again.
        Result r = runCli(posted(trial(0, path("t0.db"))));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("trial 0 finished: run 1"), r.out.constData());
        QVERIFY2(r.out.contains("posted to " + url.toUtf8() + ": {\"runs_added\":1"), r.out.constData());
        r = runCli(posted(trial(0, path("t0.db"))));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("trial 0 already finished (run 1, objective"), r.out.constData());
        QVERIFY2(r.out.contains("\"runs_added\":0,\"runs_replaced\":0,\"runs_kept\":1"), r.out.constData());
        QCOMPARE(scalar(path("t0.db"), "SELECT count(*) FROM run"), 1);

        // Trial 1, streamed after every iteration, SIGKILLed once an RL iteration is stored, then run again.
        QProcess killed;
        killed.start(
            QStringLiteral(CREDITLAB_CLI_PATH), posted(trial(1, path("t1.db"))) + QStringList { "--post-every", "0" });
        QVERIFY(killed.waitForStarted());
        QElapsedTimer clock;
        clock.start();
        bool midway = false;
        while (!midway && clock.elapsed() < 120000 && killed.state() == QProcess::Running) {
            QThread::msleep(20);
            if (QFile::exists(path("t1.db")))
                try {
                    midway = scalar(path("t1.db"), "SELECT count(*) FROM metric WHERE iteration >= 1") > 0;
                } catch (const std::exception&) {
                }
        }
        QVERIFY2(midway, "trial 1 never stored an RL iteration");
        ::kill(static_cast<pid_t>(killed.processId()), SIGKILL);
        QVERIFY(killed.waitForFinished(10000));
        QCOMPARE(killed.exitStatus(), QProcess::CrashExit);
        QCOMPARE(scalar(path("t1.db"), "SELECT count(*) FROM run WHERE status = 'running'"), 1);
        // The killed machine's database as it was left (the WAL too), for the merge to meet a run less far along.
        for (const char* suffix : { "", "-wal" })
            if (QFile::exists(path("t1.db") + suffix))
                QVERIFY(QFile::copy(path("t1.db") + suffix, path("t1-killed.db") + suffix));
        r = runCli(posted(trial(1, path("t1.db"))));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("trial 1 finished (continued from its last checkpoint): run 1"), r.out.constData());
        QCOMPARE(scalar(path("t1.db"), "SELECT count(*) FROM run"), 1);
        QCOMPARE(scalar(path("t1.db"), "SELECT count(*) FROM trial"), 1);

        // Trial 2 on two machines (a task Slurm ran twice); one of them posts.
        for (const char* db : { "t2a.db", "t2b.db" }) {
            r = runCli(trial(2, path(db)));
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QVERIFY2(r.out.contains("trial 2 finished: run 1"), r.out.constData());
        }
        r = runCli(posted(trial(2, path("t2a.db"))));
        QVERIFY2(r.exitCode == 0 && r.out.contains("already finished"), r.err.constData());

        // Merged, the killed copy first: its run is replaced by the finished one, the duplicate of trial 2 kept out.
        const QStringList inputs { path("t1-killed.db"), path("t0.db"), path("t1.db"), path("t2a.db"), path("t2b.db") };
        r = runCli(QStringList { "merge" } + inputs + QStringList { "--into", path("merged.db") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("runs 3 added, 1 replaced (further along), 1 already there; sweeps 1 added; trials 3 "
                                "added"),
            r.out.constData());
        checkEveryTrialOnce(path("merged.db"));
        const auto merged = rowCounts(path("merged.db"));
        // Every row of the three finished runs, none twice.
        QList<std::int64_t> sources;
        for (const auto& db : { path("t0.db"), path("t1.db"), path("t2a.db") }) {
            const auto counts = rowCounts(db);
            if (sources.isEmpty())
                sources = counts;
            else
                for (int i = 0; i < counts.size(); ++i)
                    sources[i] += counts[i];
        }
        sources.back() = 1; // one sweep, not three
        QCOMPARE(merged, sources);
        QVERIFY(merged[5] > 0 && merged[6] > 0 && merged[7] > 0); // trajectories, turns and credits were copied

        // Merged again: nothing changes.
        r = runCli(QStringList { "merge" } + inputs + QStringList { "--into", path("merged.db") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("runs 0 added, 0 replaced (further along), 5 already there; sweeps 0 added; trials 0 "
                                "added"),
            r.out.constData());
        QCOMPARE(rowCounts(path("merged.db")), merged);

        // The server holds the same: each trial once, whatever was posted twice or streamed before a kill.
        ::kill(static_cast<pid_t>(serve.processId()), SIGTERM);
        QVERIFY(serve.waitForFinished(20000));
        checkEveryTrialOnce(path("server.db"));
        QCOMPARE(rowCounts(path("server.db")), merged);
    }

    void walOnNetworkFileSystemIsRefused()
    {
        QVERIFY(QDir(m_dir.path()).mkpath("nfs"));
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("CREDITLAB_TEST_NETWORK_FS", path("nfs"));
        Result r = runCli(trial(0, path("nfs/sub/t.db")), env);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("t.db: on a network file system (NFS (simulated"), r.err.constData());
        QVERIFY2(r.err.contains("creditlab-cli merge") && r.err.contains("--post URL"), r.err.constData());
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY(!QFile::exists(path("nfs/sub/t.db")));
        r = runCli({ "merge", path("t0.db"), "--into", path("nfs/m.db") }, env);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("m.db: on a network file system"), r.err.constData());
        QVERIFY(!QFile::exists(path("nfs/m.db")));
        // Outside the prefix, and with the hook unset, the same commands work.
        r = runCli({ "merge", path("t0.db"), "--into", path("local.db") }, env);
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliCluster)
#include "tst_cli_cluster.moc"
