// The Store's runs and what hangs off them: configs, metrics, checkpoints, deletion, sweeps and trials.
#include "core/storage/store.h"

#include "testutil.h"

#include <QTemporaryDir>
#include <QtTest/QTest>

#include <cmath>
#include <limits>

using namespace creditlab;
using test::isTimestamp;
using test::newRun;

// Declarations first: moc mis-reads raw string literals inside a class body.
class TestStoreRuns : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void runsCrud();
    void runKindIsChecked();
    void deleteRunCascades();
    void runConfig();
    void metrics();
    void nonFiniteMetrics();
    void sftMetrics();
    void checkpoints();
    void sweepsAndTrials();

private:
    std::int64_t count(const std::string& sql) { return m_store->database().scalarInt(sql); }
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Store> m_store;
};

void TestStoreRuns::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_store = std::make_unique<Store>(m_dir->filePath("runs.db").toStdString());
}

void TestStoreRuns::cleanup()
{
    m_store.reset();
    m_dir.reset();
}

void TestStoreRuns::runsCrud()
{
    Store& s = *m_store;
    NewRun imported = newRun("data.jsonl");
    imported.source = "/tmp/data.jsonl";
    const std::int64_t a = s.createRun(imported);
    const std::int64_t b = s.createRun(newRun("trainer", RunKind::Train, RunStatus::Running));
    QVERIFY(a > 0 && b > a);

    s.insertTrajectory(a, 0, test::minimalTrajectory("t0", "g", 1.0, 3));
    s.insertTrajectory(a, 1, test::minimalTrajectory("t1", "g", 0.0, 4));
    s.insertTrajectory(a, 2, test::minimalTrajectory("t2", "h", 0.0, 0));

    auto runs = s.runs();
    QCOMPARE(runs.size(), std::size_t(2));
    QCOMPARE(runs[0].id, a);
    QCOMPARE(runs[0].name, std::string("data.jsonl"));
    QCOMPARE(runs[0].kind, RunKind::Import);
    QCOMPARE(runs[0].status, RunStatus::Finished);
    QCOMPARE(runs[0].source, std::optional<std::string>("/tmp/data.jsonl"));
    QVERIFY2(isTimestamp(runs[0].createdAt), runs[0].createdAt.c_str());
    QVERIFY(runs[0].finishedAt && isTimestamp(*runs[0].finishedAt));
    QCOMPARE(runs[0].tags, std::string());
    QCOMPARE(runs[0].notes, std::string());
    QCOMPARE(runs[0].trajectoryCount, std::int64_t(3));
    QCOMPARE(runs[0].turnCount, std::int64_t(7));
    QCOMPARE(runs[1].id, b);
    QCOMPARE(runs[1].kind, RunKind::Train);
    QCOMPARE(runs[1].status, RunStatus::Running);
    QVERIFY(!runs[1].source);
    QVERIFY(!runs[1].finishedAt);
    QCOMPARE(runs[1].trajectoryCount, std::int64_t(0));
    QCOMPARE(runs[1].turnCount, std::int64_t(0));

    s.renameRun(b, "renamed \xC3\xA9");
    s.setRunTags(b, "baseline,grpo");
    s.setRunStatus(b, RunStatus::Paused);
    auto rb = s.run(b);
    QVERIFY(rb);
    QCOMPARE(rb->name, std::string("renamed \xC3\xA9"));
    QCOMPARE(rb->tags, std::string("baseline,grpo"));
    QCOMPARE(rb->status, RunStatus::Paused);
    QVERIFY(!rb->finishedAt);
    for (const RunStatus ended : { RunStatus::Failed, RunStatus::Cancelled, RunStatus::Finished }) {
        s.setRunStatus(b, ended);
        rb = s.run(b);
        QCOMPARE(rb->status, ended);
        QVERIFY2(rb->finishedAt && isTimestamp(*rb->finishedAt), std::string(runStatusName(ended)).c_str());
    }
    s.setRunStatus(b, RunStatus::Running);
    QVERIFY(!s.run(b)->finishedAt);
    // The other run is untouched.
    QCOMPARE(s.run(a)->name, std::string("data.jsonl"));
    QCOMPARE(s.run(a)->tags, std::string());
    QVERIFY(!s.run(9999));
}

void TestStoreRuns::runKindIsChecked()
{
    // The schema refuses a kind it does not know, and a status written behind the store's back is an error that
    // names the run and the field when it is read.
    QVERIFY_THROWS_EXCEPTION(StoreError,
        m_store->database().exec("INSERT INTO run (name, kind, created_at) VALUES ('bad', 'experiment', 'now')"));
    QVERIFY(m_store->runs().empty());
    for (const RunKind kind : { RunKind::Import, RunKind::Train, RunKind::Trial })
        QVERIFY(m_store->createRun(newRun(std::string(runKindName(kind)), kind)) > 0);
    QCOMPARE(m_store->runs().size(), std::size_t(3));
    QCOMPARE(m_store->runs()[1].kind, RunKind::Train);
    m_store->database().exec("UPDATE run SET status = 'exploded' WHERE id = 2");
    try {
        (void)m_store->runs();
        QFAIL("an unknown status was read");
    } catch (const StoreError& e) {
        QCOMPARE(std::string(e.what()), std::string("run 2: unknown status 'exploded'"));
    }
}

void TestStoreRuns::deleteRunCascades()
{
    Store& s = *m_store;
    std::int64_t runs[2] = {};
    std::vector<std::int64_t> rows[2];
    for (int r = 0; r < 2; ++r) {
        runs[r] = s.createRun(newRun("run" + std::to_string(r)));
        s.setRunConfig(runs[r], "yaml", "lr: 0.1\n");
        const std::pair<std::string, double> m[] = { { "loss", 1.0 }, { "reward", 0.5 } };
        s.writeMetrics(runs[r], 0, m);
        s.addCheckpoint(runs[r], 0, "ckpt.pt");
        for (int k = 0; k < 2; ++k) {
            const std::int64_t row
                = s.insertTrajectory(runs[r], k, test::minimalTrajectory("t" + std::to_string(k), "g", 1.0, 3));
            rows[r].push_back(row);
            const double adv[] = { 0.1, 0.2, 0.3 };
            s.writeCredits(row, "grpo", adv);
            s.setHumanLabel(row, 0, "alice", Role::D);
            s.setJudgeLabel(JudgeLabel { row, 1, "judge", Role::E, 0.9, "why", "" });
        }
    }
    const std::int64_t sweep = s.createSweep("sw", "{}");
    const std::int64_t trial = s.addTrial(sweep, "{\"lr\":0.1}");
    s.finishTrial(trial, runs[0], TrialStatus::Finished, 1.0);

    s.deleteRun(runs[0]);
    QVERIFY(!s.run(runs[0]));
    QCOMPARE(s.runs().size(), std::size_t(1));
    const std::string r0 = std::to_string(runs[0]);
    QCOMPARE(count("SELECT count(*) FROM trajectory WHERE run_id = " + r0), std::int64_t(0));
    for (const char* table : { "run_config", "metric", "checkpoint" })
        QCOMPARE(count(std::string("SELECT count(*) FROM ") + table + " WHERE run_id = " + r0), std::int64_t(0));
    for (const char* table : { "turn", "credit", "human_label", "judge_label" }) {
        const std::string ids = std::to_string(rows[0][0]) + "," + std::to_string(rows[0][1]);
        QCOMPARE(count(std::string("SELECT count(*) FROM ") + table + " WHERE trajectory_id IN (" + ids + ")"),
            std::int64_t(0));
    }
    // Everything of the other run is still there.
    QCOMPARE(count("SELECT count(*) FROM trajectory"), std::int64_t(2));
    QCOMPARE(count("SELECT count(*) FROM turn"), std::int64_t(6));
    QCOMPARE(count("SELECT count(*) FROM credit"), std::int64_t(6));
    QCOMPARE(count("SELECT count(*) FROM human_label"), std::int64_t(2));
    QCOMPARE(count("SELECT count(*) FROM judge_label"), std::int64_t(2));
    QCOMPARE(count("SELECT count(*) FROM metric"), std::int64_t(2));
    QCOMPARE(count("SELECT count(*) FROM checkpoint"), std::int64_t(1));
    QCOMPARE(count("SELECT count(*) FROM run_config"), std::int64_t(1));
    QCOMPARE(s.runConfig(runs[1]), std::optional<std::string>("lr: 0.1\n"));
    // The trial survives and forgets its run.
    const auto trials = s.trials(sweep);
    QCOMPARE(trials.size(), std::size_t(1));
    QVERIFY(!trials[0].runId);
    QCOMPARE(trials[0].objective, std::optional<double>(1.0));
}

void TestStoreRuns::runConfig()
{
    Store& s = *m_store;
    const std::int64_t a = s.createRun(newRun("a"));
    const std::int64_t b = s.createRun(newRun("b"));
    QVERIFY(!s.runConfig(a));
    s.setRunConfig(a, "yaml", "estimator: grpo\nlr: 1e-5\n");
    QCOMPARE(s.runConfig(a), std::optional<std::string>("estimator: grpo\nlr: 1e-5\n"));
    QVERIFY(!s.runConfig(b));
    s.setRunConfig(a, "json", "{\"estimator\":\"triage\"}");
    QCOMPARE(s.runConfig(a), std::optional<std::string>("{\"estimator\":\"triage\"}"));
    QCOMPARE(count("SELECT count(*) FROM run_config WHERE run_id = " + std::to_string(a) + " AND format = 'json'"),
        std::int64_t(1));
    QCOMPARE(count("SELECT count(*) FROM run_config"), std::int64_t(1));
    s.setRunConfig(b, "yaml", "");
    QCOMPARE(s.runConfig(b), std::optional<std::string>(""));
}

void TestStoreRuns::sftMetrics()
{
    // SFT's per-step curves: read from a step on, kept by a resume after SFT, dropped by a restart of SFT and with the
    // run.
    Store& s = *m_store;
    const std::int64_t a = s.createRun(newRun("a", RunKind::Train));
    QVERIFY(s.sftMetrics(a).empty());
    const MetricPoint points[] = { { 1, "sft/loss", 2.0 }, { 2, "sft/loss", 1.5 }, { 1, "sft/token_accuracy", 0.25 },
        { 3, "sft/loss", std::numeric_limits<double>::quiet_NaN() } };
    s.writeSftMetrics(a, points);
    const auto all = s.sftMetrics(a);
    QCOMPARE(all.size(), std::size_t(4));
    QCOMPARE(all[0].name, std::string("sft/loss"));
    QCOMPARE(all[0].iteration, std::int64_t(1));
    QCOMPARE(all[1].value, 1.5);
    QVERIFY(std::isnan(all[2].value));
    QCOMPARE(all[3].name, std::string("sft/token_accuracy"));
    QCOMPARE(s.sftMetrics(a, 2).size(), std::size_t(2));
    s.truncateRun(a, 0);
    QCOMPARE(s.sftMetrics(a).size(), std::size_t(4));
    s.truncateRun(a, -1);
    QVERIFY(s.sftMetrics(a).empty());
    s.writeSftMetrics(a, points);
    s.deleteRun(a);
    QCOMPARE(s.database().scalarInt("SELECT count(*) FROM sft_metric"), std::int64_t(0));
}

void TestStoreRuns::metrics()
{
    Store& s = *m_store;
    const std::int64_t a = s.createRun(newRun("a", RunKind::Train));
    const std::int64_t b = s.createRun(newRun("b", RunKind::Train));
    QVERIFY(s.metrics(a).empty());
    const std::pair<std::string, double> it0[] = { { "reward", 0.2 }, { "loss", 1.5 } };
    const std::pair<std::string, double> it1[] = { { "loss", 1.0 }, { "reward", 0.4 } };
    const std::pair<std::string, double> it0again[] = { { "loss", 1.25 } };
    const std::pair<std::string, double> other[] = { { "loss", 99.0 } };
    s.writeMetrics(a, 0, it0);
    s.writeMetrics(a, 1, it1);
    s.writeMetrics(a, 0, it0again); // replaces one value, keeps the other
    s.writeMetrics(b, 0, other);
    const auto m = s.metrics(a);
    QCOMPARE(m.size(), std::size_t(4));
    const std::tuple<std::int64_t, std::string, double> want[]
        = { { 0, "loss", 1.25 }, { 1, "loss", 1.0 }, { 0, "reward", 0.2 }, { 1, "reward", 0.4 } };
    for (std::size_t i = 0; i < m.size(); ++i) {
        QCOMPARE(m[i].iteration, std::get<0>(want[i]));
        QCOMPARE(m[i].name, std::get<1>(want[i]));
        QCOMPARE(m[i].value, std::get<2>(want[i]));
    }
    QCOMPARE(s.metrics(b).size(), std::size_t(1));
    QCOMPARE(s.metrics(b)[0].value, 99.0);
    // A poller reads from an iteration on: that iteration and later ones, nothing earlier.
    const auto fromOne = s.metrics(a, 1);
    QCOMPARE(fromOne.size(), std::size_t(2));
    for (const auto& point : fromOne)
        QCOMPARE(point.iteration, std::int64_t(1));
    QCOMPARE(s.metrics(a, 0).size(), std::size_t(4));
    QVERIFY(s.metrics(a, 2).empty());
}

void TestStoreRuns::nonFiniteMetrics()
{
    // A diverged run logs NaN or infinite losses; they must not read back as a plausible 0.
    Store& s = *m_store;
    const std::int64_t run = s.createRun(newRun("r", RunKind::Train));
    const std::pair<std::string, double> m[] = { { "a_inf", std::numeric_limits<double>::infinity() },
        { "b_nan", std::numeric_limits<double>::quiet_NaN() } };
    s.writeMetrics(run, 0, m);
    const auto got = s.metrics(run);
    QCOMPARE(got.size(), std::size_t(2));
    QCOMPARE(got[0].name, std::string("a_inf"));
    QVERIFY(std::isinf(got[0].value) && got[0].value > 0);
    QCOMPARE(got[1].name, std::string("b_nan"));
    QVERIFY2(std::isnan(got[1].value), qPrintable(QString("NaN read back as %1").arg(got[1].value)));
}

void TestStoreRuns::checkpoints()
{
    Store& s = *m_store;
    const std::int64_t a = s.createRun(newRun("a", RunKind::Train));
    const std::int64_t b = s.createRun(newRun("b", RunKind::Train));
    QVERIFY(!s.lastCheckpoint(a));
    s.addCheckpoint(a, 1, "ckpt/it1.pt");
    s.addCheckpoint(a, 5, "ckpt/it5.pt");
    s.addCheckpoint(a, 3, "ckpt/it3.pt");
    auto last = s.lastCheckpoint(a);
    QVERIFY(last);
    QCOMPARE(last->first, std::int64_t(5));
    QCOMPARE(last->second, std::string("ckpt/it5.pt"));
    s.addCheckpoint(a, 5, "ckpt/it5b.pt");
    QCOMPARE(s.lastCheckpoint(a)->second, std::string("ckpt/it5b.pt"));
    QCOMPARE(count("SELECT count(*) FROM checkpoint"), std::int64_t(3));
    QVERIFY(!s.lastCheckpoint(b));
}

void TestStoreRuns::sweepsAndTrials()
{
    Store& s = *m_store;
    QVERIFY(s.sweeps().empty());
    const std::int64_t sw = s.createSweep("lr sweep", "{\"lr\":[1e-5,1e-4]}");
    const std::int64_t sw2 = s.createSweep("other", "{}");
    const auto sweeps = s.sweeps();
    QCOMPARE(sweeps.size(), std::size_t(2));
    QCOMPARE(sweeps[0].id, sw);
    QCOMPARE(sweeps[0].name, std::string("lr sweep"));
    QCOMPARE(sweeps[0].config, std::string("{\"lr\":[1e-5,1e-4]}"));
    QCOMPARE(sweeps[0].status, TrialStatus::Pending);
    QVERIFY2(isTimestamp(sweeps[0].createdAt), sweeps[0].createdAt.c_str());
    QCOMPARE(sweeps[1].id, sw2);

    const std::int64_t t1 = s.addTrial(sw, "{\"lr\":1e-5}");
    const std::int64_t t2 = s.addTrial(sw, "{\"lr\":1e-4}");
    s.addTrial(sw2, "{}");
    auto trials = s.trials(sw);
    QCOMPARE(trials.size(), std::size_t(2));
    QCOMPARE(trials[0].id, t1);
    QCOMPARE(trials[0].sweepId, sw);
    QCOMPARE(trials[0].params, std::string("{\"lr\":1e-5}"));
    QCOMPARE(trials[0].status, TrialStatus::Pending);
    QVERIFY(!trials[0].runId);
    QVERIFY(!trials[0].objective);

    const std::int64_t run = s.createRun(newRun("trial run", RunKind::Trial));
    s.finishTrial(t1, run, TrialStatus::Finished, 0.75);
    s.finishTrial(t2, std::nullopt, TrialStatus::Failed, std::nullopt);
    trials = s.trials(sw);
    QCOMPARE(trials[0].runId, std::optional<std::int64_t>(run));
    QCOMPARE(trials[0].status, TrialStatus::Finished);
    QCOMPARE(trials[0].objective, std::optional<double>(0.75));
    QCOMPARE(trials[1].id, t2);
    QVERIFY(!trials[1].runId);
    QCOMPARE(trials[1].status, TrialStatus::Failed);
    QVERIFY(!trials[1].objective);
    QCOMPARE(s.trials(sw2).size(), std::size_t(1));

    // The stored text is replaced (an experiment's SFT runs, its added seeds), that sweep's only; a sweep that is not
    // there is an error, not a silent no-op.
    s.setSweepConfig(sw, "{\"lr\":[1e-5,1e-4,1e-3]}");
    QCOMPARE(s.sweep(sw)->config, std::string("{\"lr\":[1e-5,1e-4,1e-3]}"));
    QCOMPARE(s.sweep(sw2)->config, std::string("{}"));
    QVERIFY_THROWS_EXCEPTION(StoreError, s.setSweepConfig(sw2 + 100, "{}"));
}

QTEST_GUILESS_MAIN(TestStoreRuns)
#include "tst_store_runs.moc"
