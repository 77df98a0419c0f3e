// End to end (issue 21 §3): `creditlab-cli serve` as a process on loopback. /v1/credit answers byte for byte what
// `creditlab-cli credit` writes for the same batch (native, chat, verl and step rows); the token comes from the
// environment and is required when set; a non-loopback address without a token is refused; Ctrl+C stops it.
#include "core/storage/store.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <httplib.h>

namespace {

/// A `creditlab-cli serve` process on a free port.
class ServeProcess {
public:
    ServeProcess(const QString& db, const QProcessEnvironment& env, const QStringList& extra = {})
    {
        m_process.setProcessEnvironment(env);
        m_process.start(QStringLiteral(CREDITLAB_CLI_PATH),
            QStringList { QStringLiteral("serve"), QStringLiteral("--db"), db, QStringLiteral("--port"),
                QStringLiteral("0") }
                + extra);
        // "listening on http://127.0.0.1:PORT/v1 (...)"
        while (m_process.waitForReadyRead(20000) || m_process.canReadLine()) {
            const QByteArray line = m_process.readLine();
            const int at = line.indexOf("127.0.0.1:");
            if (line.startsWith("listening on ") && at > 0) {
                m_port = line.mid(at + 10).split('/').first().toInt();
                break;
            }
        }
    }
    ~ServeProcess()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }
    int port() const { return m_port; }
    QProcess& process() { return m_process; }

private:
    QProcess m_process;
    int m_port = 0;
};

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
    if (!p.waitForFinished(60000))
        qFatal("creditlab-cli did not finish: %s", qPrintable(args.join(' ')));
    return Result { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
        p.readAllStandardError() };
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// The records of a JSONL file as a JSON array's text, verbatim.
QByteArray asArray(const QByteArray& jsonl)
{
    QByteArray out = "[";
    for (const QByteArray& line : jsonl.split('\n')) {
        if (line.trimmed().isEmpty())
            continue;
        out += (out.size() > 1 ? "," : "") + line;
    }
    return out + "]";
}

QProcessEnvironment withoutToken()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("CREDITLAB_SERVE_TOKEN"));
    return env;
}

} // namespace

class TestCliServe : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private Q_SLOTS:
    void creditEqualsTheCliByteForByte_data();
    void creditEqualsTheCliByteForByte();
    void tokenFromTheEnvironment();
    void refusesWhatItCannotServeSafely();
    void interruptStops();
};

void TestCliServe::creditEqualsTheCliByteForByte_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("method");
    QTest::addColumn<QStringList>("sets");
    const QString samples = QStringLiteral(CREDITLAB_IMPORT_SAMPLES);
    QTest::newRow("chat grpo") << samples + "/chat.jsonl" << "chat" << "grpo" << QStringList {};
    QTest::newRow("verl gigpo") << samples + "/3.jsonl" << "verl" << "gigpo" << QStringList {};
    QTest::newRow("steps rtmc") << samples + "/steps.jsonl" << "steps" << "rtmc" << QStringList { "kappa=0" };
    QTest::newRow("sharegpt grpo") << samples + "/agentgym.jsonl" << "sharegpt" << "grpo" << QStringList { "norm_std=false" };
}

void TestCliServe::creditEqualsTheCliByteForByte()
{
    QFETCH(QString, file);
    QFETCH(QString, format);
    QFETCH(QString, method);
    QFETCH(QStringList, sets);
    ServeProcess serve(m_dir.filePath(QStringLiteral("credit.db")), withoutToken(), { QStringLiteral("--quiet") });
    QVERIFY(serve.port() > 0);

    QStringList args { "credit", "--method", method, "--input", file, "--format", format, "--details", "--output",
        m_dir.filePath("cli.jsonl") };
    QJsonObject params;
    for (const QString& kv : sets) {
        args << "--set" << kv;
        const QStringList parts = kv.split('=');
        params.insert(parts[0], QJsonValue::fromVariant(QVariant(parts[1])));
    }
    const Result cli = runCli(args);
    QVERIFY2(cli.exitCode == 0, cli.err.constData());
    const QByteArray expected = readAll(m_dir.filePath("cli.jsonl"));

    // Parameters travel as JSON strings here ("0", "false"): the server reads them as the CLI's --set does.
    QByteArray body = "{\"method\":\"" + method.toUtf8() + "\",\"format\":\"" + format.toUtf8()
        + "\",\"details\":true,\"params\":" + QJsonDocument(params).toJson(QJsonDocument::Compact)
        + ",\"trajectories\":" + asArray(readAll(file)) + "}";
    httplib::Client c("127.0.0.1", serve.port());
    const auto res = c.Post("/v1/credit", body.toStdString(), "application/json");
    QVERIFY(res);
    QVERIFY2(res->status == 200, res->body.c_str());
    // {"method":"...","credits":[A,B,...]}: each element is one line of the CLI's output, byte for byte.
    const std::string prefix = "{\"method\":\"" + method.toStdString() + "\",\"credits\":[";
    QVERIFY(res->body.starts_with(prefix));
    const QJsonArray credits = QJsonDocument::fromJson(QByteArray::fromStdString(res->body)).object()["credits"].toArray();
    const QList<QByteArray> lines = expected.trimmed().split('\n');
    QCOMPARE(credits.size(), lines.size());
    QByteArray joined;
    for (const QByteArray& line : lines)
        joined += (joined.isEmpty() ? "" : ",") + line;
    QCOMPARE(QByteArray::fromStdString(res->body), QByteArray::fromStdString(prefix) + joined + "]}");
}

void TestCliServe::tokenFromTheEnvironment()
{
    const QByteArray token = "tok-0123456789abcdef-never-logged";
    QProcessEnvironment env = withoutToken();
    env.insert(QStringLiteral("MY_TRAINER_TOKEN"), QString::fromLatin1(token));
    const QString db = m_dir.filePath(QStringLiteral("token.db"));
    ServeProcess serve(db, env, { QStringLiteral("--token-env"), QStringLiteral("MY_TRAINER_TOKEN") });
    QVERIFY(serve.port() > 0);
    httplib::Client anonymous("127.0.0.1", serve.port());
    QCOMPARE(anonymous.Post("/v1/runs", R"({"name":"r"})", "application/json")->status, 401);
    httplib::Client client("127.0.0.1", serve.port());
    client.set_bearer_token_auth(token.toStdString());
    QCOMPARE(client.Post("/v1/runs", R"({"name":"r"})", "application/json")->status, 201);
    ::kill(static_cast<pid_t>(serve.process().processId()), SIGINT);
    QVERIFY(serve.process().waitForFinished(10000));
    const QByteArray out = serve.process().readAll() + serve.process().readAllStandardError();
    QVERIFY2(!out.contains(token), out.constData());
    QVERIFY(out.contains("POST /v1/runs 201")); // requests are logged, without their headers
    QVERIFY(!readAll(db).contains(token));
    QVERIFY(!readAll(db + "-wal").contains(token));
}

void TestCliServe::refusesWhatItCannotServeSafely()
{
    const QString db = m_dir.filePath(QStringLiteral("refused.db"));
    // Another machine could reach 0.0.0.0: not without a token.
    const Result open = runCli({ "serve", "--db", db, "--host", "0.0.0.0", "--port", "0" }, withoutToken());
    QVERIFY(open.exitCode != 0);
    QVERIFY2(open.err.contains("--host") && open.err.contains("token"), open.err.constData());
    // A named token variable that is not set is a mistake, not "no token".
    const Result unset = runCli({ "serve", "--db", db, "--token-env", "NO_SUCH_VARIABLE_HERE", "--port", "0" }, withoutToken());
    QVERIFY(unset.exitCode != 0);
    QVERIFY2(unset.err.contains("NO_SUCH_VARIABLE_HERE"), unset.err.constData());
    // A port already taken: said, with the address.
    ServeProcess first(db, withoutToken(), { QStringLiteral("--quiet") });
    QVERIFY(first.port() > 0);
    const Result taken = runCli({ "serve", "--db", db, "--port", QString::number(first.port()) }, withoutToken());
    QCOMPARE(taken.exitCode, 1);
    QVERIFY2(taken.err.contains("cannot listen on 127.0.0.1:" + QByteArray::number(first.port())), taken.err.constData());
}

void TestCliServe::interruptStops()
{
    ServeProcess serve(m_dir.filePath(QStringLiteral("stop.db")), withoutToken());
    QVERIFY(serve.port() > 0);
    httplib::Client c("127.0.0.1", serve.port());
    QCOMPARE(c.Get("/v1/health")->status, 200);
    ::kill(static_cast<pid_t>(serve.process().processId()), SIGINT);
    QVERIFY(serve.process().waitForFinished(10000));
    QCOMPARE(serve.process().exitStatus(), QProcess::NormalExit);
    QCOMPARE(serve.process().exitCode(), 0);
    QVERIFY(serve.process().readAllStandardOutput().contains("stopped"));
}

QTEST_GUILESS_MAIN(TestCliServe)
#include "tst_cli_serve.moc"
