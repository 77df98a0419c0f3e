// End to end (issue 9): `creditlab-cli train` on a remote environment server with an http judge, both served by
// creditlab-testserver processes on loopback. Each server is killed with SIGKILL mid-run and started again on its
// port; the run waits for it, says so, and finishes with every iteration stored and every turn labelled. The
// judge's API key reaches the endpoint and never the database or the output.
#include "core/storage/store.h"
#include "tests/learn/tinyconfig.h"

#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <memory>

namespace {

/// The tests' tiny run (tests/learn/tinyconfig.h) moved onto the remote environment with the http judge.
QStringList remoteSettings(const QString& envUrl, const QString& judgeUrl)
{
    const QStringList settings { "env.name=remote", "env.dialect=alfworld", "env.url=" + envUrl, "env.retries=1",
        "env.backoff_ms=20", "env.timeout_ms=5000", "credit.method=triage", "judge.name=http", "judge.url=" + judgeUrl,
        "judge.model=test-judge", "judge.api_key_env=CREDITLAB_TEST_JUDGE_KEY", "judge.retries=1",
        "judge.backoff_ms=20", "rl.iterations=12", "rl.outage_wait_s=120", "eval.episodes=2", "eval.every=4" };
    QStringList out;
    for (const QString& kv : settings)
        out << QStringLiteral("--set") << kv;
    return out;
}

constexpr const char* kKey = "sk-test-0123456789-never-stored";

/// A creditlab-testserver process.
class Server {
public:
    Server(QStringList args, int port = 0)
        : m_args(std::move(args))
    {
        if (port > 0)
            m_args << QStringLiteral("--port") << QString::number(port);
        m_process.start(QStringLiteral(CREDITLAB_TESTSERVER_PATH), m_args);
        // "listening on http://127.0.0.1:PORT[/v1]"
        while (m_process.waitForReadyRead(10000) || m_process.canReadLine()) {
            const QByteArray line = m_process.readLine().trimmed();
            if (line.startsWith("listening on ")) {
                m_url = QString::fromUtf8(line.mid(13));
                break;
            }
        }
    }
    ~Server() { kill(); }
    QString url() const { return m_url; }
    int port() const { return QUrl(m_url).port(); }
    void kill()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        ::kill(static_cast<pid_t>(m_process.processId()), SIGKILL);
        m_process.waitForFinished(10000);
    }

private:
    QStringList m_args;
    QProcess m_process;
    QString m_url;
};

} // namespace

class TestCliRemote : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void rolloutFromRemoteServer()
    {
        // Scripted rollouts against a server process: the server's texts, no oracle roles (so no role sources).
        Server env(QStringList { "env", "babyai" });
        QProcess p;
        p.start(QStringLiteral(CREDITLAB_CLI_PATH),
            { "env", "rollout", "remote", "--policy", "random", "--episodes", "12", "--set", "dialect=babyai", "--set",
                "url=" + env.url(), "--set", "max_steps=5", "-o", "-" });
        QVERIFY(p.waitForFinished(60000));
        const QByteArray out = p.readAllStandardOutput();
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QCOMPARE(out.trimmed().split('\n').size(), 12);
        QVERIFY(out.contains("\"goal\":\"reach room "));
        QVERIFY2(!out.contains("role_source") && !out.contains("\"role\":"), out.left(400).constData());
    }

    void trainingOutlivesKilledServers()
    {
        QTemporaryDir dir;
        auto env = std::make_unique<Server>(QStringList { "env", "alfworld" });
        auto judge = std::make_unique<Server>(QStringList { "judge" });
        QVERIFY2(env->url().startsWith("http://127.0.0.1:"), qPrintable(env->url()));
        QVERIFY2(judge->url().endsWith("/v1"), qPrintable(judge->url()));
        const int envPort = env->port();
        const int judgePort = judge->port();

        const QString config = dir.filePath("tiny.yaml");
        {
            QFile f(config);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(creditlab::testing::kTinyConfig);
        }
        const QString db = dir.filePath("runs.db");
        QProcess train;
        auto environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("CREDITLAB_TEST_JUDGE_KEY"), QString::fromUtf8(kKey));
        train.setProcessEnvironment(environment);
        train.start(QStringLiteral(CREDITLAB_CLI_PATH),
            QStringList { "train", "--config", config, "--db", db } + remoteSettings(env->url(), judge->url()));

        // Iteration 1 done: kill the environment server; once the run says it waits, start it again. Iteration 6
        // done: the same with the judge. (Twelve iterations of about 0.1 s leave the kills time to land mid-run.)
        QByteArray out;
        bool envKilled = false, envBack = false, judgeKilled = false, judgeBack = false;
        QElapsedTimer clock;
        clock.start();
        while (train.state() != QProcess::NotRunning && clock.elapsed() < 300000) {
            train.waitForReadyRead(100);
            while (train.canReadLine()) {
                const QByteArray line = train.readLine();
                out += line;
                if (line.startsWith("iter    1/12") && !envKilled) {
                    env->kill();
                    envKilled = true;
                } else if (line.startsWith("waiting for the environment server") && envKilled && !envBack) {
                    env = std::make_unique<Server>(QStringList { "env", "alfworld" }, envPort);
                    envBack = env->port() == envPort;
                } else if (line.startsWith("iter    6/12") && envBack && !judgeKilled) {
                    judge->kill();
                    judgeKilled = true;
                } else if (line.startsWith("waiting for the judge endpoint") && judgeKilled && !judgeBack) {
                    judge = std::make_unique<Server>(QStringList { "judge" }, judgePort);
                    judgeBack = judge->port() == judgePort;
                }
            }
        }
        train.waitForFinished(10000);
        out += train.readAllStandardOutput();
        const QByteArray err = train.readAllStandardError();
        QVERIFY2(train.exitStatus() == QProcess::NormalExit && train.exitCode() == 0, (out + err).constData());
        QVERIFY2(envKilled && envBack && judgeKilled && judgeBack, out.constData());
        QVERIFY2(out.contains("iter   12/12"), out.constData());
        QVERIFY2(!out.contains(kKey) && !err.contains(kKey), "the API key was printed");

        // Stored: twelve iterations of four rollouts, every turn labelled by the judge (TRIAGE needs each role).
        creditlab::Store store(db.toStdString());
        QCOMPARE(store.run(1)->status, creditlab::RunStatus::Finished);
        for (std::int64_t it = 1; it <= 12; ++it) {
            const auto infos = store.trajectories(1, it);
            QCOMPARE(infos.size(), std::size_t(4));
            for (const auto& info : infos)
                for (const auto& turn : store.loadTrajectory(info.rowId).turns)
                    QVERIFY(turn.role == creditlab::Role::N);
        }
        double waited = 0;
        for (const auto& m : store.metrics(1))
            if (m.name == "time/outage_s")
                waited += m.value;
        QVERIFY2(waited >= 2.0, qPrintable(QString::number(waited))); // at least one 1 s pause for each server
        // Not in the database, its WAL, the run's files or the config: nowhere under the run's folder.
        QDirIterator files(dir.path(), QDir::Files, QDirIterator::Subdirectories);
        int scanned = 0;
        while (files.hasNext()) {
            QFile file(files.next());
            QVERIFY(file.open(QIODevice::ReadOnly));
            QVERIFY2(!file.readAll().contains(kKey), qPrintable(file.fileName()));
            ++scanned;
        }
        QVERIFY(scanned >= 3);
    }
};

QTEST_GUILESS_MAIN(TestCliRemote)
#include "tst_cli_remote.moc"
