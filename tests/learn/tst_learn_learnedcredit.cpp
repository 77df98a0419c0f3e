// Learned credit models inside the RL loop, on tiny household runs: HAS with the TurnRD decomposer trains TurnRD
// every iteration (Algorithm 1), its per-turn credits sum to R and drive has, its diagnostics are metrics, its
// checkpoint and replay side file sit beside the run, and a stopped run resumes exactly.
#include "core/learn/torch/engine/trainer.h"
#include "core/learn/torch/turnrd/turnrdreplay.h"
#include "core/storage/store.h"
#include "tests/learn/resumecheck.h"
#include "tests/learn/tinyconfig.h"

#include <QTemporaryDir>
#include <QtTest/QTest>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

using namespace creditlab;
using namespace creditlab::learn;
using creditlab::testing::deterministicMetrics;
using creditlab::testing::kTinyConfig;

namespace {

TrainConfig turnRdConfig(const std::vector<std::pair<std::string, std::string>>& extra = {})
{
    std::vector<std::pair<std::string, std::string>> keys { { "credit.method", "has" },
        { "credit.decomposer", "turnrd" }, { "turnrd.width", "16" }, { "turnrd.epochs", "2" } };
    keys.insert(keys.end(), extra.begin(), extra.end());
    return TrainConfig::parse(kTinyConfig, "tiny.yaml", keys);
}

} // namespace

class TestLearnLearnedCredit : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void turnRdTrainsInTheLoop();
    void turnRdResumesExactly();
    void valueBaselineTrainsInTheLoop();
    void pairScoresTurnsWithItsProbe();
};

void TestLearnLearnedCredit::turnRdTrainsInTheLoop()
{
    QTemporaryDir dir;
    const std::string db = dir.filePath("runs.db").toStdString();
    Trainer trainer(turnRdConfig(), { db, "cpu" });
    const auto result = trainer.run();
    QCOMPARE(result.iterationsDone, 3LL);

    Store store(db);
    // TurnRD's per-turn credit is stored beside has's and sums to R per trajectory (Eq. 5).
    const auto methods = store.creditMethods(result.runId);
    QVERIFY(std::find(methods.begin(), methods.end(), "turnrd") != methods.end());
    QVERIFY(std::find(methods.begin(), methods.end(), "has") != methods.end());
    int trajectories = 0;
    for (const auto& info : store.trajectories(result.runId)) {
        if (!info.iteration)
            continue;
        const auto r = store.credits(info.rowId, "turnrd");
        QCOMPARE(r.size(), static_cast<std::size_t>(info.turnCount));
        double sum = 0.0;
        for (double v : r)
            sum += v;
        QVERIFY2(std::abs(sum - info.reward) < 1e-5, qPrintable(QString::number(sum)));
        QCOMPARE(store.credits(info.rowId, "has").size(), r.size());
        ++trajectories;
    }
    QCOMPARE(trajectories, 12);
    // Per-round diagnostics as metrics, every iteration.
    std::map<std::int64_t, std::map<std::string, double>> metrics;
    for (const auto& m : store.metrics(result.runId))
        metrics[m.iteration][m.name] = m.value;
    for (std::int64_t it = 1; it <= 3; ++it)
        for (const char* name : { "turnrd/loss", "turnrd/loss_pred", "turnrd/loss_value", "turnrd/loss_rank",
                 "turnrd/loss_progress", "turnrd/conservation_drift", "turnrd/delta_gamma_norm", "turnrd/beta_norm",
                 "turnrd/zero_film_change", "turnrd/goal_shuffle_mse_change", "turnrd/credit_drift",
                 "turnrd/replay_size", "time/turnrd_s", "time/hidden_s" })
            QVERIFY2(metrics[it].count(name), qPrintable(QString("%1 at %2").arg(name).arg(it)));
    QCOMPARE(metrics[3]["turnrd/replay_size"], 12.0);
    QVERIFY(metrics[3]["turnrd/conservation_drift"] < 1e-5);
    // FiLM starts at the identity and moves once trained.
    QVERIFY(metrics[3]["turnrd/delta_gamma_norm"] > 0.0);
    // The model beside each checkpoint, the replay in its side file (not SQLite rows).
    const std::string files = db + ".files/run-" + std::to_string(result.runId);
    const auto checkpoints = store.checkpoints(result.runId);
    QVERIFY(!checkpoints.empty());
    QVERIFY(std::filesystem::exists(checkpoints.back().second + "/turnrd.pt"));
    const auto replay = TurnRdReplay::readFile(files + "/turnrd-replay.bin");
    QCOMPARE(replay.size(), std::size_t(12));
    QCOMPARE(replay.back().round, std::int64_t(3));
    QCOMPARE(replay.front().hidden.size(), static_cast<std::size_t>(replay.front().turns * 32)); // policy.width

    // The goal-blind variant has no FiLM to move. (An empty device picks one, as sweeps and the GUI leave it.)
    Trainer blind(turnRdConfig({ { "turnrd.film", "false" }, { "rl.iterations", "1" } }), { db, "" });
    const auto b = blind.run();
    for (const auto& m : store.metrics(b.runId))
        if (m.name == "turnrd/delta_gamma_norm")
            QCOMPARE(m.value, 0.0);
}

void TestLearnLearnedCredit::turnRdResumesExactly()
{
    QTemporaryDir dir;
    const std::string full = dir.filePath("full.db").toStdString();
    std::int64_t fullRun = 0;
    {
        Trainer trainer(turnRdConfig(), { full, "cpu" });
        fullRun = trainer.run().runId;
    }
    const std::string db = dir.filePath("resumed.db").toStdString();
    std::int64_t runId = 0;
    {
        const auto r = testing::trainFirstIteration(turnRdConfig(), db);
        QCOMPARE(r.iterationsDone, 1LL);
        runId = r.runId;
    }
    {
        auto resumed = Trainer::resume(runId, { db, "cpu" });
        QCOMPARE(resumed->run().iterationsDone, 3LL);
    }
    Store a(full), b(db);
    const auto expected = deterministicMetrics(a, fullRun);
    const auto actual = deterministicMetrics(b, runId);
    const std::string difference = testing::metricDifference(expected, actual);
    QVERIFY2(difference.empty(), difference.c_str());
    const auto replay = TurnRdReplay::readFile(db + ".files/run-" + std::to_string(runId) + "/turnrd-replay.bin");
    QCOMPARE(replay.size(), std::size_t(12));
}

void TestLearnLearnedCredit::valueBaselineTrainsInTheLoop()
{
    QTemporaryDir dir;
    const std::string db = dir.filePath("runs.db").toStdString();
    Trainer trainer(TrainConfig::parse(kTinyConfig, "tiny.yaml",
                        { { "credit.method", "value_baseline" }, { "value.warmup", "1" }, { "value.lr", "0.01" } }),
        { db, "cpu" });
    const auto result = trainer.run();
    QCOMPARE(result.iterationsDone, 3LL);
    Store store(db);
    // ΔV per turn: 0 in the warm-up iteration, the head's differences afterwards; value_baseline's credits beside.
    for (std::int64_t it = 1; it <= 3; ++it) {
        double absSum = 0.0;
        for (const auto& info : store.trajectories(result.runId, it)) {
            const auto delta = store.credits(info.rowId, "value_delta");
            QCOMPARE(delta.size(), static_cast<std::size_t>(info.turnCount));
            QCOMPARE(store.credits(info.rowId, "value_baseline").size(), delta.size());
            for (double d : delta)
                absSum += std::abs(d);
        }
        if (it == 1)
            QCOMPARE(absSum, 0.0);
        else
            QVERIFY2(absSum > 0.0, qPrintable(QString("iteration %1").arg(it)));
    }
    std::map<std::int64_t, std::map<std::string, double>> metrics;
    for (const auto& m : store.metrics(result.runId))
        metrics[m.iteration][m.name] = m.value;
    for (std::int64_t it = 1; it <= 3; ++it)
        for (const char* name : { "value/loss", "value/mean_abs_delta", "value/warmed_up", "time/hidden_s" })
            QVERIFY2(metrics[it].count(name), qPrintable(QString("%1 at %2").arg(name).arg(it)));
    QCOMPARE(metrics[1]["value/warmed_up"], 0.0);
    QCOMPARE(metrics[2]["value/warmed_up"], 1.0);
    const auto checkpoints = store.checkpoints(result.runId);
    QVERIFY(std::filesystem::exists(checkpoints.back().second + "/value-baseline.pt"));
}

void TestLearnLearnedCredit::pairScoresTurnsWithItsProbe()
{
    QTemporaryDir dir;
    const std::string db = dir.filePath("runs.db").toStdString();
    // Episodes long enough for the contaminated data's filter (3+ turns, the expert succeeding).
    const std::vector<std::pair<std::string, std::string>> keys { { "credit.method", "pair" },
        { "env.max_steps", "12" }, { "pair.probe_episodes", "40" }, { "rl.iterations", "2" } };
    std::int64_t first = 0;
    {
        Trainer trainer(TrainConfig::parse(kTinyConfig, "tiny.yaml", keys), { db, "cpu" });
        const auto result = trainer.run();
        QCOMPARE(result.iterationsDone, 2LL);
        first = result.runId;
    }
    Store store(db);
    // The probe was fitted on the SFT policy when RL started, its test AUROCs recorded; it sits beside the run.
    std::map<std::int64_t, std::map<std::string, double>> metrics;
    for (const auto& m : store.metrics(first))
        metrics[m.iteration][m.name] = m.value;
    for (const char* name : { "pair/probe_auroc_clean", "pair/probe_auroc_contaminated", "time/pair_probe_fit_s" })
        QVERIFY2(metrics[1].count(name), name);
    QVERIFY(metrics[1]["pair/probe_auroc_clean"] >= 0.0 && metrics[1]["pair/probe_auroc_clean"] <= 1.0);
    QVERIFY(metrics[2].count("pair/mean_score") && !metrics[2].count("pair/probe_auroc_clean"));
    const std::string probe = db + ".files/run-" + std::to_string(first) + "/pair-probe.json";
    QVERIFY(std::filesystem::exists(probe));
    // Every turn's score is the probe's s_final (in (0, 1), not a judge's role score), and pair's credits follow.
    std::set<double> roleScores { 1.0, 0.75, 0.45, 0.25 };
    int scored = 0, distinct = 0;
    for (const auto& info : store.trajectories(first)) {
        if (!info.iteration)
            continue;
        const Trajectory t = store.loadTrajectory(info.rowId);
        QCOMPARE(store.credits(info.rowId, "pair").size(), t.turns.size());
        for (const Turn& u : t.turns) {
            QVERIFY(u.score && *u.score > 0.0 && *u.score < 1.0);
            ++scored;
            distinct += roleScores.count(*u.score) ? 0 : 1;
        }
    }
    QVERIFY(scored > 0);
    QCOMPARE(distinct, scored);
    // A second run given that probe file uses it (no fitting) and keeps a copy.
    auto given = keys;
    given.emplace_back("pair.probe", probe);
    Trainer second(TrainConfig::parse(kTinyConfig, "tiny.yaml", given), { db, "cpu" });
    const auto r = second.run();
    bool fitted = false;
    for (const auto& m : store.metrics(r.runId))
        fitted = fitted || m.name == "time/pair_probe_fit_s";
    QVERIFY(!fitted);
    QVERIFY(std::filesystem::exists(db + ".files/run-" + std::to_string(r.runId) + "/pair-probe.json"));
    // A missing probe file fails the run at once, naming the key: before SFT, not minutes later.
    auto missing = keys;
    missing.emplace_back("pair.probe", dir.filePath("nope.json").toStdString());
    const auto runsBefore = store.runs().size();
    try {
        Trainer third(TrainConfig::parse(kTinyConfig, "tiny.yaml", missing), { db, "cpu" });
        third.run();
        QFAIL("a missing probe file trained");
    } catch (const std::exception& e) {
        QVERIFY2(std::string(e.what()).find("pair.probe") != std::string::npos, e.what());
    }
    const auto runs = store.runs();
    QCOMPARE(runs.size(), runsBefore + 1);
    QCOMPARE(runs.back().status, RunStatus::Failed);
    QVERIFY(store.metrics(runs.back().id).empty()); // no SFT happened
}

QTEST_GUILESS_MAIN(TestLearnLearnedCredit)
#include "tst_learn_learnedcredit.moc"
