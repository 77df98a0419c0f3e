// End-to-end tests of `creditlab-cli probe`: a tiny trained run, then probe train (all probes, a file written),
// probe eval (the file's probes on its test split, JSON with AUROC in [0, 1]) and probe table; bad input is one
// line on stderr naming the file, the run or the option.
#include "tests/learn/tinyconfig.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

namespace {

struct Result {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

} // namespace

class TestCliProbe : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_db;

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

    static void checkRows(const QJsonArray& rows, const QStringList& names)
    {
        QCOMPARE(rows.size(), names.size());
        for (int i = 0; i < rows.size(); ++i) {
            const QJsonObject row = rows[i].toObject();
            QCOMPARE(row["name"].toString(), names[i]);
            QVERIFY(row["features"].toInt() > 0);
            for (const char* key : { "auroc_clean", "auroc_contaminated", "auroc_union", "brier", "ece" }) {
                QVERIFY2(row[key].isDouble(), key);
                const double v = row[key].toDouble();
                QVERIFY2(v >= 0.0 && v <= 1.0, key);
            }
        }
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_db = path("runs.db");
        QFile config(path("tiny.yaml"));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(creditlab::testing::kTinyConfig);
        config.close();
        const Result r = run({ "train", "--config", path("tiny.yaml"), "--db", m_db, "--quiet" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("run 1 finished"), r.out.constData());
    }

    void trainWritesEveryProbeAndEvalReadsThem()
    {
        const QString file = path("probe.json");
        const Result t = run({ "probe", "train", "--run", "1", "--db", m_db, "--episodes", "15", "--seed", "3",
            "--feature", "all", "--output", file });
        QVERIFY2(t.exitCode == 0, t.err.constData());
        QVERIFY2(t.out.contains("checkpoint after iteration 3"), t.out.constData());
        QVERIFY2(t.out.contains("contaminated"), t.out.constData());
        QVERIFY2(t.out.contains("ms per turn"), t.out.constData());
        QVERIFY2(t.out.contains("wrote"), t.out.constData());

        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject saved = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(saved["format"].toString(), QStringLiteral("creditlab-probe-set"));
        QCOMPARE(saved["run"].toInt(), 1);
        QCOMPARE(saved["data"].toObject()["episodes"].toInt(), 15);
        QCOMPARE(saved["data"].toObject()["seed"].toInt(), 3);
        const QJsonArray probes = saved["probes"].toArray();
        QCOMPARE(probes.size(), 9);
        QCOMPARE(probes[7].toObject()["probe"].toObject()["kind"].toString(), QStringLiteral("pair"));
        QCOMPARE(probes[8].toObject()["probe"].toObject()["kind"].toString(), QStringLiteral("layerwise"));

        const Result e = run({ "probe", "eval", "--run", "1", "--db", m_db, "--probe", file, "--json" });
        QVERIFY2(e.exitCode == 0, e.err.constData());
        const QJsonObject table = QJsonDocument::fromJson(e.out).object();
        QVERIFY2(!table.isEmpty(), e.out.constData());
        QVERIFY(table["test_clean"].toInt() > 0);
        QCOMPARE(table["test_contaminated"].toInt(), table["test_clean"].toInt());
        checkRows(table["rows"].toArray(),
            { "last_token", "mean_pooled", "multi_layer", "attention", "hidden_attention", "multi_attention",
                "lookback", "pair", "layerwise" });

        // Evaluating the saved probes on the same data reproduces training's table exactly.
        const Result again
            = run({ "probe", "table", "--run", "1", "--db", m_db, "--episodes", "15", "--seed", "3", "--json" });
        QVERIFY2(again.exitCode == 0, again.err.constData());
        QCOMPARE(QJsonDocument::fromJson(again.out).object()["rows"], table["rows"]);

        // Left-padded batches give the features of one teacher-forced pass per record.
        const Result single
            = run({ "probe", "eval", "--run", "1", "--db", m_db, "--probe", file, "--json", "--batch-size", "1" });
        QVERIFY2(single.exitCode == 0, single.err.constData());
        const QJsonArray rows = table["rows"].toArray();
        const QJsonArray singleRows = QJsonDocument::fromJson(single.out).object()["rows"].toArray();
        QCOMPARE(singleRows.size(), rows.size());
        for (int i = 0; i < rows.size(); ++i)
            for (const char* key : { "auroc_clean", "auroc_contaminated", "brier" })
                QVERIFY2(std::abs(singleRows[i].toObject()[key].toDouble() - rows[i].toObject()[key].toDouble()) < 1e-4,
                    qPrintable(rows[i].toObject()["name"].toString() + " " + key));
    }

    void oneFeatureAndSftPolicy()
    {
        const QString file = path("pair.json");
        const Result t = run({ "probe", "train", "--run", "1", "--db", m_db, "--episodes", "12", "--feature", "pair",
            "--mode", "logit_residual", "--sft", "--output", file, "--json" });
        QVERIFY2(t.exitCode == 0, t.err.constData());
        const QJsonObject table = QJsonDocument::fromJson(t.out).object();
        QCOMPARE(table["policy"].toString(), QStringLiteral("run 1 SFT policy"));
        checkRows(table["rows"].toArray(), { "pair" });
        QVERIFY(QFile::exists(file));
    }

    void badInputIsOneLine_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("missing run") << QStringList { "probe", "table", "--run", "9", "--db", "DB" }
                                     << QByteArray("run 9 does not exist");
        QTest::newRow("unknown feature") << QStringList { "probe", "train", "--run", "1", "--db", "DB", "--feature",
            "nope", "--output", "OUT" } << QByteArray("unknown probe 'nope'");
        QTest::newRow("missing probe file") << QStringList { "probe", "eval", "--run", "1", "--db", "DB", "--probe",
            "MISSING" } << QByteArray("missing.json");
        QTest::newRow("not a probe file") << QStringList { "probe", "eval", "--run", "1", "--db", "DB", "--probe",
            "BAD" } << QByteArray("bad.json: ");
    }

    void badInputIsOneLine()
    {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, expected);
        QFile bad(path("bad.json"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{\"format\":\"something-else\"}");
        bad.close();
        for (auto& a : args) {
            if (a == "DB")
                a = m_db;
            else if (a == "OUT")
                a = path("never.json");
            else if (a == "MISSING")
                a = path("missing.json");
            else if (a == "BAD")
                a = path("bad.json");
        }
        const Result r = run(args);
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains(expected), r.err.constData());
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY(!QFile::exists(path("never.json")));
    }
};

QTEST_GUILESS_MAIN(TestCliProbe)
#include "tst_cli_probe.moc"
