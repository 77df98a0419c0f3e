// End to end (issue 36): data-parallel training as processes. `train --nproc 2` against one process on the same
// config: the same SFT evaluation and first iteration, every iteration stored once, by rank 0 alone. A rank SIGKILLed
// mid-run: the run fails within the timeout, the database names the rank, every process exits non-zero, and
// `train --resume` ends where an uninterrupted run ends (also with another number of ranks). Launchers' environments
// as torchrun and srun set them, and a rank missing at start-up, which is an error, not a hang. The learned credit
// models (TurnRD, the value baseline, PAIR) on two ranks: their first iteration is one process's, and TurnRD's replay
// side file is written once.
#include "core/storage/database.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmath>
#include <csignal>

using creditlab::Database;

namespace {

struct Result {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

QProcessEnvironment cleanEnvironment()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* v : { "RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT",
             "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", "SLURM_NTASKS_PER_NODE", "TORCHELASTIC_USE_AGENT_STORE" })
        env.remove(QString::fromLatin1(v));
    return env;
}

Result finish(QProcess& p, int ms = 180000)
{
    if (!p.waitForFinished(ms)) {
        p.kill();
        p.waitForFinished();
        qWarning("creditlab-cli did not finish within %d ms: %s", ms, p.readAllStandardError().constData());
        return {};
    }
    return Result { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
        p.readAllStandardError() };
}

Result runCli(const QStringList& args, const QProcessEnvironment& env = cleanEnvironment())
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(CREDITLAB_CLI_PATH), args);
    return finish(p);
}

std::int64_t scalar(const QString& db, const QString& sql)
{
    Database d(db.toStdString(), Database::Access::ReadOnly);
    return d.scalarInt(sql.toStdString());
}

/// Every stored turn of iterations [from, to] (training and evaluation), in order, as text: what was rolled out.
QString rollouts(const QString& db, int from, int to)
{
    Database d(db.toStdString(), Database::Access::ReadOnly);
    auto st = d.prepare("SELECT tr.iteration, tr.evaluation, tr.ext_id, tr.reward, t.idx, t.action FROM turn t JOIN "
                        "trajectory tr ON tr.id = t.trajectory_id WHERE tr.iteration BETWEEN ? AND ? "
                        "ORDER BY tr.iteration, tr.evaluation, tr.ord, t.idx");
    st.bind(1, static_cast<std::int64_t>(from)).bind(2, static_cast<std::int64_t>(to));
    QString out;
    while (st.step())
        out += QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                   .arg(st.columnInt(0))
                   .arg(st.columnInt(1))
                   .arg(QString::fromStdString(st.columnText(2)))
                   .arg(st.columnDouble(3))
                   .arg(st.columnInt(4))
                   .arg(QString::fromStdString(st.columnText(5)));
    return out;
}

/// The metrics of iteration `it` that are not timings, by name.
QMap<QString, double> metricsOf(const QString& db, int it)
{
    Database d(db.toStdString(), Database::Access::ReadOnly);
    auto st = d.prepare("SELECT name, value FROM metric WHERE iteration = ? AND name NOT LIKE 'time/%' AND name NOT "
                        "LIKE 'throughput/%' AND name NOT LIKE 'dist/%' AND name NOT LIKE 'device/%'");
    st.bind(1, static_cast<std::int64_t>(it));
    QMap<QString, double> out;
    while (st.step())
        out.insert(QString::fromStdString(st.columnText(0)), st.columnDouble(1));
    return out;
}

/// The first metric of iteration `it` whose value in `two` is not the one in `one` (within float32 noise for what
/// the update computes; exactly for what the rollouts determine alone), or empty when none.
QString metricMismatch(const QString& one, const QString& two, int it)
{
    const auto m1 = metricsOf(one, it), m2 = metricsOf(two, it);
    if (m1.keys() != m2.keys())
        return QStringLiteral("iteration %1: other metric names").arg(it);
    for (auto i = m1.begin(); i != m1.end(); ++i) {
        const double x = i.value(), y = m2.value(i.key());
        const bool exact = i.key().startsWith("rollout/") || i.key().startsWith("eval/") || i.key().startsWith("role/")
            || i.key() == "train/samples" || i.key() == "train/sequences";
        const double tolerance = exact ? 0.0 : 1e-3 + 1e-2 * std::abs(x);
        if (std::abs(x - y) > tolerance)
            return QStringLiteral("iteration %1, %2: %3 in one process, %4 on two ranks")
                .arg(it)
                .arg(i.key())
                .arg(x, 0, 'g', 10)
                .arg(y, 0, 'g', 10);
    }
    return {};
}

QByteArray readAll(const QString& file)
{
    QFile f(file);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

int freePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a {};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    ::close(fd);
    return ntohs(a.sin_port);
}

/// The child of `parent` whose environment holds RANK=<rank>, or 0.
pid_t rankProcess(qint64 parent, int rank)
{
    const QByteArray wanted = "RANK=" + QByteArray::number(rank);
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool ok = false;
        const pid_t pid = entry.toInt(&ok);
        if (!ok)
            continue;
        QFile status(QStringLiteral("/proc/%1/status").arg(pid));
        if (!status.open(QIODevice::ReadOnly)
            || !status.readAll().contains("PPid:\t" + QByteArray::number(parent) + "\n"))
            continue;
        QFile environ(QStringLiteral("/proc/%1/environ").arg(pid));
        if (environ.open(QIODevice::ReadOnly) && environ.readAll().split('\0').contains(wanted))
            return pid;
    }
    return 0;
}

/// A small household run: a short SFT, a checkpoint every iteration, evaluations every iteration.
const QByteArray kConfig = "name: dist\n"
                           "seed: 5\n"
                           "threads: 1\n"
                           "env: {name: household, max_steps: 6}\n"
                           "policy: {width: 32, layers: 1, heads: 2, context: 160, history: 1, max_action_tokens: 8}\n"
                           "tokenizer.episodes: 8\n"
                           "sft: {expert_episodes: 16, noisy_episodes: 8, epochs: 1, batch_size: 16}\n"
                           "rl: {iterations: 6, tasks: 3, group_size: 2, epochs: 1, minibatches: 2}\n"
                           "eval: {episodes: 4, every: 1}\n"
                           "checkpoint.every: 1\n";

} // namespace

class TestCliDist : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path(const QString& name) const { return m_dir.filePath(name); }
    QString config() const { return path("dist.yaml"); }
    QStringList train(const QString& db, const QStringList& more = {}) const
    {
        return QStringList { "train", "-c", config(), "--db", db, "-q" } + more;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QFile f(config());
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kConfig);
    }

    void twoRanksTrainAsOneProcess()
    {
        const QString one = path("one.db"), two = path("two.db");
        const Result a = runCli(train(one, { "--set", "rl.iterations=2" }));
        QVERIFY2(a.exitCode == 0, a.err.constData());
        const Result b = runCli(train(two, { "--set", "rl.iterations=2", "--nproc", "2" }));
        QVERIFY2(b.exitCode == 0, b.err.constData());
        QVERIFY2(b.out.contains("data-parallel: 2 ranks"), b.out.constData());
        // Rank 0 alone spoke: one header line, not two.
        QCOMPARE(b.out.count("training on household"), 1);
        // One run, finished, every iteration once: 3 tasks x 2 rollouts, and 4 evaluation episodes.
        QCOMPARE(scalar(two, "SELECT count(*) FROM run"), 1);
        QCOMPARE(scalar(two, "SELECT count(*) FROM run WHERE status = 'finished'"), 1);
        for (int it = 0; it <= 2; ++it) {
            QCOMPARE(
                scalar(two,
                    QStringLiteral("SELECT count(*) FROM trajectory WHERE iteration = %1 AND evaluation = 0").arg(it)),
                it == 0 ? 0 : 6);
            QCOMPARE(
                scalar(two,
                    QStringLiteral("SELECT count(*) FROM trajectory WHERE iteration = %1 AND evaluation = 1").arg(it)),
                4);
            QCOMPARE(scalar(two,
                         QStringLiteral("SELECT count(*) FROM metric WHERE iteration = %1 AND name = "
                                        "'train/kl'")
                             .arg(it)),
                it == 0 ? 0 : 1);
        }
        QCOMPARE(scalar(two, "SELECT count(DISTINCT ext_id) FROM trajectory"),
            scalar(two, "SELECT count(*) FROM trajectory"));
        QCOMPARE(scalar(two, "SELECT value FROM metric WHERE iteration = 1 AND name = 'dist/ranks'"), 2);
        // The same SFT evaluation and the same first iteration: the ranks roll out shares of the same episodes, with
        // the same per-episode sampling streams, from rank 0's weights. Later iterations start from weights that
        // differ by float32 summation order, and sampling may part there (docs/cluster.md).
        QCOMPARE(rollouts(two, 0, 1), rollouts(one, 0, 1));
        QVERIFY(!rollouts(one, 0, 1).isEmpty());
        // Whatever the rollouts determine alone is equal; the update's figures agree to float32 noise.
        for (int it = 0; it <= 1; ++it) {
            const QString mismatch = metricMismatch(one, two, it);
            QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
        }
    }

    void learnedCreditOnTwoRanksTrainsAsOneProcess_data()
    {
        QTest::addColumn<QStringList>("keys");
        QTest::addColumn<QString>("metric");
        // has with TurnRD: the ranks share out the hidden-state passes and each TurnRD minibatch (of 4, of the 6
        // trajectories).
        QTest::newRow("turnrd") << QStringList { "credit.method=has", "credit.decomposer=turnrd", "turnrd.width=16",
            "turnrd.epochs=2", "turnrd.batch_size=4" }
                                << "turnrd/loss_rank";
        // The value head's step on each rank's own trajectories' states.
        QTest::newRow("value_baseline") << QStringList { "credit.method=value_baseline", "value.warmup=0" }
                                        << "value/loss";
        // PAIR: rank 0 fits the probe on the run's SFT policy (the other ranks never open the database) and sends it
        // with the fit's metrics; each rank scores its own trajectories' turns.
        QTest::newRow("pair") << QStringList { "credit.method=pair", "env.max_steps=12", "pair.probe_episodes=40" }
                              << "pair/probe_auroc_clean";
    }

    void learnedCreditOnTwoRanksTrainsAsOneProcess()
    {
        // The first iteration's metrics, the learned model's among them, are one process's.
        QFETCH(QStringList, keys);
        QFETCH(QString, metric);
        const QString tag = QString::fromLatin1(QTest::currentDataTag());
        const QString one = path(tag + "-one.db"), two = path(tag + "-two.db");
        QStringList args { "--set", "rl.iterations=1" };
        for (const QString& key : keys)
            args << "--set" << key;
        const Result a = runCli(train(one, args));
        QVERIFY2(a.exitCode == 0, a.err.constData());
        const Result b = runCli(train(two, args + QStringList { "--nproc", "2" }));
        QVERIFY2(b.exitCode == 0, b.err.constData());
        QCOMPARE(
            scalar(two, QStringLiteral("SELECT count(*) FROM metric WHERE iteration = 1 AND name = '%1'").arg(metric)),
            1);
        const QString mismatch = metricMismatch(one, two, 1);
        QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
        // TurnRD's replay side file holds one process's records, once (rank 0 alone appends). Not its bytes: SFT on
        // two ranks leaves weights that differ by float32 rounding, and the hidden states with them
        // (tst_learn_distcredit checks that the gathered states are one process's bit for bit, from the same weights).
        if (tag == "turnrd") {
            const QByteArray replay = readAll(one + ".files/run-1/turnrd-replay.bin");
            QVERIFY(replay.size() > 8);
            QCOMPARE(readAll(two + ".files/run-1/turnrd-replay.bin").size(), replay.size());
        }
        if (tag == "pair")
            QVERIFY(QFile::exists(two + ".files/run-1/pair-probe.json"));
    }

    void turnRdResumesOnTwoRanks()
    {
        // Resumed on two ranks, has with TurnRD ends where the uninterrupted two-rank run ends: rank 0 cut the replay
        // side file back to the checkpoint and sent its records to rank 1 (whose TurnRD would otherwise start empty
        // and credit the next batch differently).
        const QStringList keys { "--set", "credit.method=has", "--set", "credit.decomposer=turnrd", "--set",
            "turnrd.width=16", "--set", "turnrd.epochs=2", "--set", "checkpoint.every=1" };
        const QString whole = path("turnrd-whole.db"), resumed = path("turnrd-resumed.db");
        const Result w = runCli(train(whole, keys + QStringList { "--set", "rl.iterations=2", "--nproc", "2" }));
        QVERIFY2(w.exitCode == 0, w.err.constData());
        const Result p = runCli(train(resumed, keys + QStringList { "--set", "rl.iterations=1", "--nproc", "2" }));
        QVERIFY2(p.exitCode == 0, p.err.constData());
        const Result r
            = runCli({ "train", "--resume", "1", "--db", resumed, "-q", "--nproc", "2", "--set", "rl.iterations=2" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(metricsOf(resumed, 2), metricsOf(whole, 2));
        QCOMPARE(
            readAll(resumed + ".files/run-1/turnrd-replay.bin"), readAll(whole + ".files/run-1/turnrd-replay.bin"));
    }

    void killedRankFailsTheRunAndResumes()
    {
        // The uninterrupted run, two ranks, to iteration 5.
        const QString whole = path("whole.db"), killed = path("killed.db");
        const Result w = runCli(train(whole, { "--set", "rl.iterations=5", "--nproc", "2" }));
        QVERIFY2(w.exitCode == 0, w.err.constData());

        QProcess p;
        p.setProcessEnvironment(cleanEnvironment());
        p.start(QStringLiteral(CREDITLAB_CLI_PATH),
            train(killed, { "--set", "rl.iterations=5", "--nproc", "2", "--rank-timeout", "20" }));
        QVERIFY(p.waitForStarted());
        // Once iteration 2 is checkpointed, rank 1 dies.
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 120000) {
            if (QFile::exists(killed)
                && scalar(killed, "SELECT count(*) FROM sqlite_master WHERE name = 'checkpoint'") == 1
                && scalar(killed, "SELECT coalesce(max(iteration), -1) FROM checkpoint") >= 2)
                break;
            QThread::msleep(50);
        }
        const pid_t victim = rankProcess(p.processId(), 1);
        QVERIFY(victim > 0);
        QVERIFY(scalar(killed, "SELECT coalesce(max(iteration), -1) FROM checkpoint") < 5);
        ::kill(victim, SIGKILL);
        clock.restart();
        const Result k = finish(p, 90000);
        QVERIFY2(clock.elapsed() < 60000, "the surviving rank took a minute to notice");
        QVERIFY(k.exitCode != 0);
        QVERIFY2(k.err.contains("rank 1 of 2 was killed by signal 9"), k.err.constData());
        QCOMPARE(scalar(killed, "SELECT count(*) FROM run WHERE status = 'failed'"), 1);
        {
            Database d(killed.toStdString(), Database::Access::ReadOnly);
            auto st = d.prepare("SELECT notes FROM run");
            QVERIFY(st.step());
            const QString notes = QString::fromStdString(st.columnText(0));
            QVERIFY2(notes.contains("rank 1 is gone"), qPrintable(notes));
        }
        // Resumed on two ranks: where the uninterrupted run ended, turn for turn.
        const Result r = runCli({ "train", "--resume", "1", "--db", killed, "-q", "--nproc", "2" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(scalar(killed, "SELECT count(*) FROM run WHERE status = 'finished'"), 1);
        QCOMPARE(rollouts(killed, 0, 5), rollouts(whole, 0, 5));
        QCOMPARE(scalar(killed, "SELECT count(*) FROM trajectory"), scalar(whole, "SELECT count(*) FROM trajectory"));
        // And extended by one process: the checkpoint does not depend on the number of ranks.
        const Result e = runCli({ "train", "--resume", "1", "--db", killed, "-q", "--set", "rl.iterations=6" });
        QVERIFY2(e.exitCode == 0, e.err.constData());
        QCOMPARE(scalar(killed, "SELECT count(*) FROM trajectory WHERE iteration = 6 AND evaluation = 0"), 6);
    }

    void launchersEnvironments()
    {
        // srun's variables (no torchrun ones), MASTER_ADDR and MASTER_PORT from the job script.
        const QString db = path("slurm.db");
        const QString port = QString::number(freePort());
        std::vector<std::unique_ptr<QProcess>> ranks;
        for (int r = 0; r < 2; ++r) {
            auto env = cleanEnvironment();
            env.insert("SLURM_PROCID", QString::number(r));
            env.insert("SLURM_LOCALID", QString::number(r));
            env.insert("SLURM_NTASKS", "2");
            env.insert("SLURM_NTASKS_PER_NODE", "2");
            env.insert("MASTER_ADDR", "127.0.0.1");
            env.insert("MASTER_PORT", port);
            ranks.push_back(std::make_unique<QProcess>());
            ranks.back()->setProcessEnvironment(env);
            ranks.back()->start(QStringLiteral(CREDITLAB_CLI_PATH), train(db, { "--set", "rl.iterations=1" }));
        }
        const Result r0 = finish(*ranks[0]), r1 = finish(*ranks[1]);
        QVERIFY2(r0.exitCode == 0, r0.err.constData());
        QVERIFY2(r1.exitCode == 0, r1.err.constData());
        QVERIFY2(r0.out.contains("data-parallel: 2 ranks (slurm)"), r0.out.constData());
        QVERIFY(r1.out.isEmpty()); // rank 1 prints nothing
        QCOMPARE(scalar(db, "SELECT count(*) FROM run WHERE status = 'finished'"), 1);
        QCOMPARE(scalar(db, "SELECT count(*) FROM trajectory WHERE iteration = 1 AND evaluation = 0"), 6);

        // A rank that never comes: an error within the timeout, naming what to check; no run is created.
        auto env = cleanEnvironment();
        env.insert("RANK", "0");
        env.insert("WORLD_SIZE", "2");
        env.insert("MASTER_ADDR", "127.0.0.1");
        env.insert("MASTER_PORT", QString::number(freePort()));
        QElapsedTimer clock;
        clock.start();
        const Result alone = runCli(train(path("alone.db"), { "--rank-timeout", "3" }), env);
        QVERIFY(alone.exitCode != 0);
        QVERIFY2(alone.err.contains("rank 0 of 2 (torchrun): the ranks did not all meet at 127.0.0.1:"),
            alone.err.constData());
        QVERIFY(clock.elapsed() < 60000);
        QVERIFY(!QFile::exists(path("alone.db")) || scalar(path("alone.db"), "SELECT count(*) FROM run") == 0);

        // --nproc inside a launched rank is refused rather than nested.
        env.insert("RANK", "0");
        const Result nested = runCli(train(path("nested.db"), { "--nproc", "2" }), env);
        QVERIFY(nested.exitCode != 0);
        QVERIFY2(nested.err.contains("already a rank"), nested.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliDist)
#include "tst_cli_dist.moc"
