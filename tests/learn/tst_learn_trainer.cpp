// The trainer through its torch-free API, on tiny household runs: configs are validated with errors that
// name the file, line and key; one seed gives identical metrics twice; the stop flag ends a run after the
// current iteration with a checkpoint; a stopped run resumes exactly (the same metrics as an uninterrupted
// run) and drops what an interrupted run left after its checkpoint; iterations store rollouts, judge labels,
// the trained method's credits and the shadow credits of the other methods.
#include "core/learn/torch/engine/trainer.h"
#include "core/storage/store.h"
#include "tests/learn/resumecheck.h"
#include "tests/learn/tinyconfig.h"

#include <QTemporaryDir>
#include <QtTest/QTest>

#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string>

using namespace creditlab;
using namespace creditlab::learn;
using creditlab::testing::deterministicMetrics;
using creditlab::testing::kTinyConfig;
using creditlab::testing::MetricMap;

namespace {

TrainConfig tinyConfig(const std::vector<std::pair<std::string, std::string>>& overrides = {})
{
    return TrainConfig::parse(kTinyConfig, "tiny.yaml", overrides);
}

} // namespace

class TestLearnTrainer : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void defaultsAreValid();
    void configErrorsNameLineAndKey_data();
    void configErrorsNameLineAndKey();
    void setOverridesTheFile();
    void storedConfigRoundTrips();
    void shippedConfigsAreValid();
    void warmStartFromAnotherRun();
    void sameSeedGivesSameMetrics();
    void runStoresIterations();
    void runStoresTokenSegments();
    void stopFlagEndsAfterCurrentIteration();
    void resumeContinuesExactly();
    void resumeRefusesUnknownRuns();
    void criticRunTrains();
    void everyMetricBelongsToAFamily_data();
    void everyMetricBelongsToAFamily();
};

void TestLearnTrainer::defaultsAreValid()
{
    const auto c = TrainConfig::defaults();
    QCOMPARE(QString::fromStdString(c.method()), QString("grpo"));
    QCOMPARE(QString::fromStdString(c.envName()), QString("household"));
    QCOMPARE(c.getInt("rl.group_size"), 8LL);
    QCOMPARE(QString::fromStdString(c.runName()), QString("household-grpo-s0"));
    QVERIFY(TrainConfig::specs().size() > 40);
}

void TestLearnTrainer::configErrorsNameLineAndKey_data()
{
    QTest::addColumn<QString>("yaml");
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown key") << "seed: 1\nrl:\n  lr: 0.1\n  itrations: 3\n"
                                 << "run.yaml:4: unknown key 'rl.itrations'";
    QTest::newRow("bad number") << "seed: 1\nrl:\n  lr: fast\n"
                                << "run.yaml:3: rl.lr:";
    QTest::newRow("out of range") << "rl.clip: -1\n"
                                  << "run.yaml:1: rl.clip:";
    QTest::newRow("bad choice") << "kl:\n  mode: sometimes\n"
                                << "run.yaml:2: kl.mode:";
    QTest::newRow("bad env key") << "env:\n  name: household\n  max_stepz: 3\n"
                                 << "run.yaml:3: env.max_stepz:";
    QTest::newRow("bad credit key") << "credit:\n  method: triage\n  lambda: x\n"
                                    << "run.yaml:3: credit.lambda:";
    QTest::newRow("unknown method") << "credit.method: ppo\n"
                                    << "run.yaml:1: credit.method:";
    QTest::newRow("bad judge key") << "judge:\n  name: oracle\n  accuracy: 0.5\n"
                                   << "run.yaml:3: judge";
    QTest::newRow("heads") << "policy:\n  width: 30\n  heads: 4\n"
                           << "must be a multiple of policy.heads";
    QTest::newRow("malformed") << "rl: [1, 2\n"
                               << "run.yaml:";
    QTest::newRow("list") << "rl:\n  - 1\n"
                          << "not a list";
    QTest::newRow("twice") << "seed: 1\nseed: 2\n"
                           << "run.yaml:2: seed: given twice";
    QTest::newRow("not a map") << "- a\n"
                               << "run.yaml:1: a config is a map";
}

void TestLearnTrainer::configErrorsNameLineAndKey()
{
    QFETCH(QString, yaml);
    QFETCH(QString, expected);
    try {
        TrainConfig::parse(yaml.toStdString(), "run.yaml");
        QFAIL("no error");
    } catch (const ConfigError& e) {
        QVERIFY2(QString(e.what()).contains(expected), e.what());
    }
}

void TestLearnTrainer::setOverridesTheFile()
{
    const auto c = tinyConfig({ { "rl.iterations", "7" }, { "credit.method", "triage" }, { "credit.lambda", "0.5" } });
    QCOMPARE(c.getInt("rl.iterations"), 7LL);
    QCOMPARE(QString::fromStdString(c.method()), QString("triage"));
    QCOMPARE(c.creditAssignments().size(), std::size_t(1));
    try {
        tinyConfig({ { "rl.iterationz", "7" } });
        QFAIL("no error");
    } catch (const ConfigError& e) {
        QVERIFY2(QString(e.what()).startsWith("--set: unknown key 'rl.iterationz'"), e.what());
    }
}

void TestLearnTrainer::storedConfigRoundTrips()
{
    const auto c = tinyConfig({ { "credit.method", "mgr" }, { "credit.gate", "keep" }, { "name", "a: b # c" } });
    const auto back = TrainConfig::parse(c.toYaml(), "stored");
    QCOMPARE(QString::fromStdString(back.toYaml()), QString::fromStdString(c.toYaml()));
    QCOMPARE(QString::fromStdString(back.runName()), QString("a: b # c"));
}

void TestLearnTrainer::shippedConfigsAreValid()
{
    // One config per credit method on household, plus the SFT-only config and other environments' quick configs
    // (sweep-*.yaml are sweeps: tst_learn_sweep).
    std::set<std::string> methods;
    int count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(CREDITLAB_CONFIG_DIR)) {
        if (entry.path().extension() != ".yaml" || entry.path().filename().string().rfind("sweep-", 0) == 0)
            continue;
        try {
            const auto c = TrainConfig::load(entry.path().string());
            const std::string prefix = entry.path().filename().string().substr(0, c.envName().size());
            QCOMPARE(prefix, c.envName()); // household-*.yaml, shop-*.yaml, ...
            if (c.getInt("rl.iterations") > 0)
                methods.insert(c.method());
            else
                QCOMPARE(entry.path().filename().string(), std::string("household-sft.yaml"));
            ++count;
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
    }
    QVERIFY(count >= 2);
    for (const auto* spec :
        { "grpo", "gigpo", "triage", "has", "mgr", "rtmc", "pair", "step_reward", "value_baseline" })
        QVERIFY2(methods.count(spec), spec);
}

void TestLearnTrainer::warmStartFromAnotherRun()
{
    QTemporaryDir dir;
    const std::string db = dir.filePath("runs.db").toStdString();
    std::int64_t sftRun = 0;
    {
        Trainer trainer(tinyConfig({ { "rl.iterations", "0" } }), { db, "cpu" });
        sftRun = trainer.run().runId;
    }
    const auto warm = [&] {
        Trainer trainer(tinyConfig({ { "sft.from_run", std::to_string(sftRun) } }), { db, "cpu" });
        return trainer.run().runId;
    };
    const auto a = warm(), b = warm();
    Store store(db);
    // The SFT run's eval, reproduced without training, and two warm-started runs that agree.
    const auto sft = deterministicMetrics(store, sftRun);
    const auto ma = deterministicMetrics(store, a);
    QCOMPARE(ma.at({ 0, "eval/success" }), sft.at({ 0, "eval/success" }));
    QCOMPARE(ma.at({ 0, "eval/turns" }), sft.at({ 0, "eval/turns" }));
    QCOMPARE(ma.count({ 0, "sft/loss" }), std::size_t(0));
    QVERIFY(ma == deterministicMetrics(store, b));
    QCOMPARE(store.iterations(a), (std::vector<std::int64_t> { 1, 2, 3 }));
    // A different policy shape is refused with a clear message.
    try {
        Trainer trainer(
            tinyConfig({ { "sft.from_run", std::to_string(sftRun) }, { "policy.width", "64" } }), { db, "cpu" });
        QFAIL("no error");
    } catch (const std::invalid_argument& e) {
        QVERIFY2(QString(e.what()).contains("sft.from_run"), e.what());
    }
    try {
        Trainer trainer(tinyConfig({ { "sft.from_run", "99" } }), { db, "cpu" });
        QFAIL("no error");
    } catch (const std::invalid_argument& e) {
        QVERIFY2(QString(e.what()).contains("no SFT policy"), e.what());
    }
}

void TestLearnTrainer::sameSeedGivesSameMetrics()
{
    QTemporaryDir dir;
    MetricMap first;
    for (int repeat = 0; repeat < 2; ++repeat) {
        const std::string db = dir.filePath(QString("run%1.db").arg(repeat)).toStdString();
        Trainer trainer(tinyConfig(), { db, "cpu" });
        const auto result = trainer.run();
        QCOMPARE(result.status, RunStatus::Finished);
        Store store(db);
        const auto metrics = deterministicMetrics(store, result.runId);
        QVERIFY(metrics.count({ 3, "train/policy_loss" }));
        if (repeat == 0)
            first = metrics;
        else
            QVERIFY(metrics == first);
    }
    // A different seed gives a different run.
    const std::string db = dir.filePath("other.db").toStdString();
    Trainer other(tinyConfig({ { "seed", "4" } }), { db, "cpu" });
    const auto result = other.run();
    Store store(db);
    QVERIFY(deterministicMetrics(store, result.runId) != first);
}

void TestLearnTrainer::runStoresIterations()
{
    QTemporaryDir dir;
    const std::string db = dir.filePath("runs.db").toStdString();
    Trainer trainer(tinyConfig({ { "credit.method", "triage" }, { "judge.name", "noisy" } }), { db, "cpu" });
    std::vector<Phase> phases;
    const auto result = trainer.run([&](const TrainProgress& p) {
        if (phases.empty() || phases.back() != p.phase)
            phases.push_back(p.phase);
        return true;
    });
    // SFT's steps, its evaluation, its summary; then each iteration's evaluation (eval.every 1) and its end.
    QCOMPARE(phases,
        (std::vector<Phase> { Phase::Sft, Phase::Eval, Phase::Sft, Phase::Eval, Phase::Rl, Phase::Eval, Phase::Rl,
            Phase::Eval, Phase::Rl }));
    QCOMPARE(result.iterationsDone, 3LL);
    QVERIFY(result.evalSuccess.has_value());

    Store store(db);
    // SFT's curves, one point per step (x: the step), as the Monitor shows them while SFT trains.
    std::vector<std::int64_t> steps;
    for (const auto& point : store.sftMetrics(result.runId)) {
        if (point.name == "sft/loss")
            steps.push_back(point.iteration);
        QVERIFY(std::isfinite(point.value));
    }
    QVERIFY(steps.size() >= 2);
    for (std::size_t i = 0; i < steps.size(); ++i)
        QCOMPARE(steps[i], static_cast<std::int64_t>(i + 1));
    const auto run = store.run(result.runId);
    QCOMPARE(run->status, RunStatus::Finished);
    QCOMPARE(run->kind, RunKind::Train);
    // The run's shape, as columns beside its config (the run lists read these).
    QCOMPARE(run->method, std::optional<std::string>("triage"));
    QCOMPARE(run->environment, std::optional<std::string>("household"));
    QCOMPARE(run->seed, std::optional<std::int64_t>(3));
    QCOMPARE(run->policyWidth, std::optional<std::int64_t>(32));
    QCOMPARE(run->policyLayers, std::optional<std::int64_t>(1));
    QCOMPARE(run->iterationsPlanned, std::optional<std::int64_t>(3));
    QCOMPARE(store.iterations(result.runId), (std::vector<std::int64_t> { 1, 2, 3 }));
    QCOMPARE(run->trajectoryCount, 12LL); // 3 iterations x 2 tasks x 2 rollouts
    // The trained method and the shadow methods, all on the same batch.
    const auto methods = store.creditMethods(result.runId);
    for (const char* m : { "triage", "grpo", "gigpo", "rtmc", "mgr", "step_reward" })
        QVERIFY2(std::find(methods.begin(), methods.end(), m) != methods.end(), m);
    const auto trajectories = store.trajectories(result.runId, 2);
    QCOMPARE(trajectories.size(), std::size_t(4));
    const auto t = store.loadTrajectory(trajectories.front().rowId);
    QCOMPARE(t.iteration, std::optional<std::int64_t>(2));
    QCOMPARE(QString::fromStdString(t.group), QString("it2-t0"));
    for (const auto& turn : t.turns) {
        QVERIFY(turn.tokens.has_value());
        QVERIFY(turn.tokens->begin >= 8 && turn.tokens->end > turn.tokens->begin);
        QVERIFY(turn.tokens->end - turn.tokens->begin <= 8); // policy.max_action_tokens
        QVERIFY(turn.tokens->end <= 160); // policy.context
    }
    QVERIFY(t.task.key && t.task.key->rfind("household", 0) == 0);
    QCOMPARE(store.credits(trajectories.front().rowId, "triage").size(), t.turns.size());
    // The oracle's labels and the noisy judge's, per turn.
    const auto labels = store.judgeLabels(trajectories.front().rowId);
    QVERIFY(!labels.empty());
    bool oracle = false, noisy = false;
    for (const auto& l : labels) {
        oracle = oracle || l.judge == "oracle";
        noisy = noisy || l.judge.rfind("noisy", 0) == 0;
    }
    QVERIFY(oracle && noisy);
    // Metrics of every kind the issue names.
    std::map<std::string, double> last;
    for (const auto& m : store.metrics(result.runId))
        if (m.iteration == 3)
            last[m.name] = m.value;
    for (const char* name : { "rollout/success", "rollout/return", "rollout/turns", "rollout/invalid_rate", "role/D",
             "role/E", "role/N", "role/R", "train/kl", "train/entropy", "train/policy_loss", "train/clip_frac",
             "train/grad_norm", "eval/success", "time/generation_s", "time/credit_s", "time/update_s", "time/total_s",
             "throughput/gen_tokens_per_s", "throughput/env_steps_per_s" })
        QVERIFY2(last.count(name), name);
    QVERIFY(last["throughput/gen_tokens_per_s"] > 0.0);
    QVERIFY(std::filesystem::exists(db + ".files/run-" + std::to_string(result.runId) + "/tokenizer.txt"));
}

void TestLearnTrainer::runStoresTokenSegments()
{
    // Every rollout's training sequences token by token (rl.store_tokens -1): the loss mask is exactly the action
    // tokens, each turn's tokens sit where its turn row says, the behaviour log-probs (sampled with the KV cache) equal
    // the trainer's (a full forward pass) up to float error, the advantage is the turn's GRPO credit, and the pieces
    // spell the action. rl.store_tokens 0 stores none; the default, the first 8 of each iteration.
    QTemporaryDir dir;
    const std::string db = dir.filePath("runs.db").toStdString();
    Trainer trainer(
        tinyConfig({ { "credit.method", "grpo" }, { "rl.store_tokens", "-1" }, { "rl.tasks", "3" } }), { db, "cpu" });
    const auto result = trainer.run([](const TrainProgress&) { return true; });
    Store store(db);
    std::int64_t trained = 0;
    for (const auto& info : store.trajectories(result.runId)) {
        const auto t = store.loadTrajectory(info.rowId);
        const auto segments = store.tokenSegments(info.rowId);
        QVERIFY2(!segments.empty(), t.id.c_str());
        const auto credits = store.credits(info.rowId, "grpo");
        std::vector<int> seen(t.turns.size(), 0);
        for (std::size_t k = 0; k < segments.size(); ++k) {
            const TokenSegment& s = segments[k];
            QCOMPARE(s.segment, static_cast<int>(k));
            for (std::size_t i = 0; i < s.tokens.size(); ++i) {
                const int turn = s.turns[i];
                if (turn < 0) {
                    QCOMPARE(s.mask[i], std::uint8_t(0));
                    QVERIFY(std::isnan(s.behaviour[i]) && std::isnan(s.current[i]) && std::isnan(s.advantage[i]));
                    continue;
                }
                QVERIFY(turn < static_cast<int>(t.turns.size()));
                const auto& span = t.turns[static_cast<std::size_t>(turn)].tokens;
                QVERIFY(span && static_cast<int>(i) >= span->begin && static_cast<int>(i) < span->end);
                QCOMPARE(s.mask[i], std::uint8_t(1));
                QVERIFY2(std::abs(s.behaviour[i] - s.current[i]) < 1e-4F,
                    qPrintable(QString("%1 vs %2").arg(s.behaviour[i]).arg(s.current[i])));
                QVERIFY(s.behaviour[i] <= 0.0F);
                QVERIFY(std::abs(s.advantage[i] - static_cast<float>(credits[static_cast<std::size_t>(turn)])) < 1e-5F);
                ++seen[static_cast<std::size_t>(turn)];
                ++trained;
            }
            // The pieces of each turn's tokens, the stop token left out, spell its action.
            for (std::size_t turn = 0; turn < t.turns.size(); ++turn) {
                std::string text;
                for (std::size_t i = 0; i < s.tokens.size(); ++i)
                    if (s.turns[i] == static_cast<int>(turn)
                        && (s.tokens[i] >= 6 || s.tokens[i] == 1)) // not <goal>, <act>, </act>...
                        text += s.pieces[i];
                if (!text.empty())
                    QCOMPARE(QString::fromStdString(text), QString::fromStdString(t.turns[turn].action));
            }
        }
        for (std::size_t turn = 0; turn < t.turns.size(); ++turn)
            QCOMPARE(seen[turn], t.turns[turn].tokens->end - t.turns[turn].tokens->begin);
    }
    QVERIFY(trained > 0);
    // The drift metric agrees: float error only.
    for (const auto& m : store.metrics(result.runId))
        if (m.name == "train/logprob_drift_max")
            QVERIFY2(m.value >= 0.0 && m.value < 1e-4, qPrintable(QString::number(m.value)));

    for (const auto& [value, perIteration] : { std::pair { "0", std::size_t(0) }, std::pair { "4", std::size_t(4) } }) {
        QTemporaryDir other;
        const std::string path = other.filePath("runs.db").toStdString();
        Trainer limited(tinyConfig({ { "rl.store_tokens", value }, { "rl.tasks", "3" }, { "rl.iterations", "1" } }),
            { path, "cpu" });
        const auto r = limited.run([](const TrainProgress&) { return true; });
        Store s(path);
        std::size_t stored = 0;
        const auto rows = s.trajectories(r.runId);
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const bool has = !s.tokenSegments(rows[i].rowId).empty();
            QCOMPARE(has, i < perIteration);
            stored += has ? 1 : 0;
        }
        QCOMPARE(stored, perIteration);
    }
}

void TestLearnTrainer::stopFlagEndsAfterCurrentIteration()
{
    QTemporaryDir dir;
    const std::string db = dir.filePath("runs.db").toStdString();
    // Checkpoints only every 5 iterations: the stop itself must leave one behind.
    Trainer trainer(tinyConfig({ { "checkpoint.every", "5" } }), { db, "cpu" });
    std::atomic<bool> stop { false };
    std::int64_t callbacksAfterStop = 0;
    const auto result = trainer.run(
        [&](const TrainProgress& p) {
            if (stop.load())
                ++callbacksAfterStop;
            if (p.phase == Phase::Rl && p.iteration == 1)
                stop.store(true); // as a GUI's Stop button would, from any thread
            return true;
        },
        &stop);
    QCOMPARE(result.status, RunStatus::Cancelled);
    QCOMPARE(result.iterationsDone, 1LL);
    QCOMPARE(callbacksAfterStop, 0LL);
    Store store(db);
    QCOMPARE(store.run(result.runId)->status, RunStatus::Cancelled);
    QCOMPARE(store.iterations(result.runId), (std::vector<std::int64_t> { 1 }));
    const auto checkpoint = store.lastCheckpoint(result.runId);
    QVERIFY(checkpoint.has_value());
    QCOMPARE(checkpoint->first, 1LL);
    QVERIFY(std::filesystem::exists(checkpoint->second + "/policy.pt"));
    QVERIFY(std::filesystem::exists(checkpoint->second + "/optimizer.pt"));

    // A callback returning false stops too, and a stop during SFT leaves a resumable-free, cancelled run.
    const std::string db2 = dir.filePath("sft.db").toStdString();
    Trainer early(tinyConfig(), { db2, "cpu" });
    const auto r2 = early.run([](const TrainProgress& p) { return p.phase != Phase::Sft; });
    QCOMPARE(r2.status, RunStatus::Cancelled);
    QCOMPARE(r2.iterationsDone, 0LL);
    // Resuming a run stopped during SFT starts it again and gives the uninterrupted run's metrics.
    const auto restarted = Trainer::resume(r2.runId, { db2, "cpu" })->run();
    QCOMPARE(restarted.status, RunStatus::Finished);
    const std::string db3 = dir.filePath("whole.db").toStdString();
    const auto whole = Trainer(tinyConfig(), { db3, "cpu" }).run();
    Store a(db2), b(db3);
    QVERIFY(deterministicMetrics(a, r2.runId) == deterministicMetrics(b, whole.runId));
}

void TestLearnTrainer::resumeContinuesExactly()
{
    QTemporaryDir dir;
    const std::string full = dir.filePath("full.db").toStdString();
    std::int64_t fullRun = 0;
    {
        Trainer trainer(tinyConfig(), { full, "cpu" });
        fullRun = trainer.run().runId;
    }
    const std::string db = dir.filePath("resumed.db").toStdString();
    std::int64_t runId = 0;
    {
        const auto r = testing::trainFirstIteration(tinyConfig(), db);
        QCOMPARE(r.iterationsDone, 1LL);
        runId = r.runId;
    }
    {
        // What a crash in iteration 2 could leave behind: metrics written after the last checkpoint.
        Store store(db);
        const std::vector<std::pair<std::string, double>> stale { { "rollout/success", 42.0 } };
        store.writeMetrics(runId, 2, stale);
    }
    {
        auto resumed = Trainer::resume(runId, { db, "cpu" });
        QCOMPARE(resumed->runId(), runId);
        const auto r = resumed->run();
        QCOMPARE(r.status, RunStatus::Finished);
        QCOMPARE(r.iterationsDone, 3LL);
    }
    Store a(full), b(db);
    const auto expected = deterministicMetrics(a, fullRun);
    const auto actual = deterministicMetrics(b, runId);
    const std::string difference = testing::metricDifference(expected, actual);
    QVERIFY2(difference.empty(), difference.c_str());
    QCOMPARE(b.run(runId)->trajectoryCount, 12LL);

    // A finished run can be extended; the extension equals a run that was given more iterations at the start.
    {
        auto extended = Trainer::resume(runId, { db, "cpu" }, { { "rl.iterations", "4" } });
        QCOMPARE(extended->run().iterationsDone, 4LL);
    }
    std::int64_t longRun = 0;
    {
        Trainer trainer(tinyConfig({ { "rl.iterations", "4" } }), { full, "cpu" });
        longRun = trainer.run().runId;
    }
    const auto longer = deterministicMetrics(a, longRun);
    const auto after = deterministicMetrics(b, runId);
    QCOMPARE(after.at({ 4, "train/policy_loss" }), longer.at({ 4, "train/policy_loss" }));
    QCOMPARE(after.at({ 4, "rollout/success" }), longer.at({ 4, "rollout/success" }));
    QCOMPARE(
        QString::fromStdString(TrainConfig::parse(*b.runConfig(runId)).toYaml()).contains("rl.iterations: 4"), true);
    // Keys that would change the finished iterations are refused.
    try {
        Trainer::resume(runId, { db, "cpu" }, { { "rl.lr", "0.1" } });
        QFAIL("no error");
    } catch (const ConfigError& e) {
        QVERIFY2(QString(e.what()).contains("rl.lr: cannot change when resuming"), e.what());
    }
}

void TestLearnTrainer::resumeRefusesUnknownRuns()
{
    QTemporaryDir dir;
    const std::string db = dir.filePath("runs.db").toStdString();
    {
        Store store(db);
    }
    try {
        Trainer::resume(7, { db, "cpu" });
        QFAIL("no error");
    } catch (const std::invalid_argument& e) {
        QVERIFY2(QString(e.what()).contains("run 7 does not exist"), e.what());
    }
    // A run whose checkpoint files are gone names the missing file.
    std::int64_t runId = 0;
    {
        Trainer trainer(tinyConfig({ { "rl.iterations", "1" } }), { db, "cpu" });
        runId = trainer.run().runId;
    }
    std::string path;
    {
        Store store(db);
        path = store.lastCheckpoint(runId)->second;
    }
    std::filesystem::remove(path + "/optimizer.pt");
    try {
        Trainer::resume(runId, { db, "cpu" });
        QFAIL("no error");
    } catch (const std::exception& e) {
        QVERIFY2(QString(e.what()).contains("optimizer.pt"), e.what());
    }
}

void TestLearnTrainer::criticRunTrains()
{
    QTemporaryDir dir;
    const std::string db = dir.filePath("runs.db").toStdString();
    Trainer trainer(tinyConfig({ { "credit.method", "mgr" }, { "critic.enabled", "true" }, { "rl.iterations", "2" },
                        { "rl.filter_uniform_groups", "true" }, { "kl.mode", "adaptive" } }),
        { db, "cpu" });
    const auto result = trainer.run();
    QCOMPARE(result.iterationsDone, 2LL);
    Store store(db);
    bool valueLoss = false;
    for (const auto& m : store.metrics(result.runId))
        valueLoss = valueLoss || m.name == "train/value_loss";
    QVERIFY(valueLoss);
    const auto checkpoint = store.lastCheckpoint(result.runId);
    QVERIFY(std::filesystem::exists(checkpoint->second + "/critic.pt"));
}

void TestLearnTrainer::everyMetricBelongsToAFamily_data()
{
    // One tiny run per method and its options: each writes its own metrics (roles, critic, TurnRD, PAIR's probe).
    QTest::addColumn<QStringList>("keys");
    QTest::newRow("grpo") << QStringList { "credit.method=grpo" };
    QTest::newRow("triage, noisy judge") << QStringList { "credit.method=triage", "judge.name=noisy" };
    QTest::newRow("mgr, critic, adaptive kl")
        << QStringList { "credit.method=mgr", "critic.enabled=true", "kl.mode=adaptive" };
    QTest::newRow("rtmc") << QStringList { "credit.method=rtmc" };
    QTest::newRow("gigpo") << QStringList { "credit.method=gigpo" };
    QTest::newRow("has, turnrd") << QStringList { "credit.method=has", "credit.decomposer=turnrd", "turnrd.width=16",
        "turnrd.epochs=2" };
    QTest::newRow("pair") << QStringList { "credit.method=pair", "env.max_steps=12", "pair.probe_episodes=40" };
}

void TestLearnTrainer::everyMetricBelongsToAFamily()
{
    // Every metric a run writes belongs to a family of core/model/vocabulary.h, so the Monitor groups it and the CLI
    // and the experiments can name it. (The role shares were written as "role/D" while the Monitor grouped "roles/".)
    QFETCH(QStringList, keys);
    std::vector<std::pair<std::string, std::string>> extra { { "rl.iterations", "2" } };
    for (const auto& kv : keys)
        extra.emplace_back(kv.section('=', 0, 0).toStdString(), kv.section('=', 1).toStdString());
    QTemporaryDir dir;
    const std::string db = dir.filePath("runs.db").toStdString();
    Trainer trainer(tinyConfig(extra), { db, "cpu" });
    QCOMPARE(trainer.run([](const TrainProgress&) { return true; }).status, RunStatus::Finished);
    Store store(db);
    std::set<std::string> names;
    for (const auto& m : store.metrics(trainer.runId()))
        names.insert(m.name);
    QVERIFY(names.size() > 20);
    for (const auto& name : names)
        QVERIFY2(metricnames::familyOf(name), ("no family: " + name).c_str());
}

QTEST_GUILESS_MAIN(TestLearnTrainer)
#include "tst_learn_trainer.moc"
