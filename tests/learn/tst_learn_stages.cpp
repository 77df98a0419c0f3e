// The stages of one RL iteration (core/learn/torch/engine/stages.h), each on its own with hand-built inputs, and the learned
// credit models' factory (core/learn/torch/engine/learnedcredit.h).
#include "core/env/episode.h"
#include "core/learn/torch/engine/learnedcredit.h"
#include "core/learn/torch/engine/stages.h"
#include "core/storage/store.h"
#include "tests/learn/tinyconfig.h"

#include <QTemporaryDir>
#include <QtTest/QTest>

#include <algorithm>
#include <cmath>
#include <set>

using namespace creditlab;
using namespace creditlab::learn;

namespace {

/// A trajectory of `turns` turns in `group` with outcome `reward`.
Trajectory trajectory(const std::string& id, const std::string& group, int turns, double reward)
{
    Trajectory t;
    t.id = id;
    t.group = group;
    t.reward = reward;
    t.success = reward > 0.0;
    t.task.key = "household:seed=" + group;
    t.task.env = "household";
    t.task.goal = "put a mug in cabinet.";
    for (int k = 0; k < turns; ++k) {
        Turn u;
        u.observation = "obs " + std::to_string(k);
        u.action = "go to cabinet " + std::to_string(k + 1);
        u.valid = k % 2 == 0;
        t.turns.push_back(u);
    }
    return t;
}

/// Two groups of two: g1 mixed outcomes (1, 0), g2 uniform (0, 0); three turns each. One episode-mode sequence per
/// trajectory with a span per turn, and the samples that point at them.
RolloutBatch rolloutsOfFour()
{
    RolloutBatch r;
    r.trajectories = { trajectory("a", "g1", 3, 1.0), trajectory("b", "g1", 3, 0.0), trajectory("c", "g2", 3, 0.0),
        trajectory("d", "g2", 3, 0.0) };
    r.oracleRoles.resize(4);
    for (std::size_t i = 0; i < 4; ++i) {
        TrainSequence s;
        s.trajectory = i;
        s.tokens.assign(30, 7);
        for (std::size_t k = 0; k < 3; ++k) {
            ActionSpan span;
            span.begin = static_cast<std::int32_t>(5 + 10 * k);
            span.end = span.begin + 3;
            span.from = span.begin - 1;
            span.turn = k;
            s.spans.push_back(span);
            r.samples.push_back({ i, k, i, k, -1.0 });
            r.oracleRoles[i].push_back(k == 0 ? std::optional<Role>(Role::D) : std::optional<Role>(Role::N));
        }
        r.sequences.push_back(std::move(s));
    }
    return r;
}

} // namespace

class TestLearnStages : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void sampleDrawsDistinctSeedsOrCyclesThePool();
    void sampleNamesGroupsByIterationAndTask();
    void judgeWritesRolesScoresAndSources();
    void creditPutsTheTrainedMethodFirst();
    void selectPutsAdvantagesOnSpans();
    void selectFiltersUniformGroupsAndFailedRollouts();
    void selectWhitensOverKeptTurns();
    void updateSettingsFollowTheConfig();
    void rolloutMetricsCountOutcomesAndRoles();
    void recordWritesTrajectoriesLabelsAndCredits();
    void learnedCreditFollowsTheMethod();
};

void TestLearnStages::sampleDrawsDistinctSeedsOrCyclesThePool()
{
    Rng rng(5);
    const auto seeds = sampleTaskSeeds(64, {}, rng);
    QCOMPARE(seeds.size(), std::size_t(64));
    QCOMPARE(std::set<std::uint64_t>(seeds.begin(), seeds.end()).size(), std::size_t(64));
    for (auto s : seeds)
        QVERIFY(s < (1ULL << 31));
    Rng again(5);
    QVERIFY(sampleTaskSeeds(64, {}, again) == seeds); // the run's Rng decides, so a resume draws the same tasks
    // A pool of 3 for 7 tasks: every pool seed at least twice, nothing outside it.
    const auto pooled = sampleTaskSeeds(7, { 11, 22, 33 }, rng);
    QCOMPARE(pooled.size(), std::size_t(7));
    for (std::uint64_t p : { 11, 22, 33 })
        QVERIFY(std::count(pooled.begin(), pooled.end(), p) >= 2);
    for (auto s : pooled)
        QVERIFY(s == 11 || s == 22 || s == 33);
}

void TestLearnStages::sampleNamesGroupsByIterationAndTask()
{
    const auto specs = iterationEpisodes(4, { 100, 200 }, 3);
    QCOMPARE(specs.size(), std::size_t(6));
    QCOMPARE(specs[0].seed, 100ULL);
    QCOMPARE(specs[4].seed, 200ULL);
    QCOMPARE(specs[0].group, std::string("it4-t0"));
    QCOMPARE(specs[5].group, std::string("it4-t1"));
    QCOMPARE(specs[5].id, std::string("it4-t1-r2"));
    for (const auto& s : specs)
        QVERIFY(s.split == env::Split::Train);
    QVERIFY(iterationEpisodes(1, { 1 }, 0).empty());
}

void TestLearnStages::judgeWritesRolesScoresAndSources()
{
    auto r = rolloutsOfFour();
    std::vector<std::vector<judge::Verdict>> verdicts(2); // fewer trajectories and turns than the batch has
    verdicts[0].resize(3);
    verdicts[0][0].role = Role::E;
    verdicts[0][0].score = 0.75;
    verdicts[0][1].role = Role::R;
    verdicts[0][1].source = "human:ann";
    verdicts[0][2].score = 0.5; // a score without a role: no role source
    verdicts[1].resize(1);
    verdicts[1][0].role = Role::D;
    applyVerdicts(r.trajectories, verdicts, "judge:noisy", 7);
    for (const auto& t : r.trajectories)
        QCOMPARE(*t.iteration, 7LL);
    const auto& a = r.trajectories[0].turns;
    QVERIFY(a[0].role == Role::E && *a[0].roleSource == "judge:noisy" && *a[0].score == 0.75);
    QVERIFY(a[1].role == Role::R && *a[1].roleSource == "human:ann" && !a[1].score);
    QVERIFY(!a[2].role && !a[2].roleSource && *a[2].score == 0.5);
    QVERIFY(r.trajectories[1].turns[0].role == Role::D);
    QVERIFY(!r.trajectories[1].turns[1].role); // no verdict: untouched
    QVERIFY(!r.trajectories[3].turns[0].role);
}

void TestLearnStages::creditPutsTheTrainedMethodFirst()
{
    const Batch batch = Batch::fromTrajectories(rolloutsOfFour().trajectories);
    const auto only = computeCredits(batch, "grpo", {}, false);
    QCOMPARE(only.size(), std::size_t(1));
    QCOMPARE(only[0].name, std::string("grpo"));
    // GRPO: the group-normalised outcome on every turn; g1 is (1, 0), g2 uniform (all 0).
    QVERIFY(only[0].result.at(0, 0) > 0.0 && only[0].result.at(1, 2) < 0.0);
    QCOMPARE(only[0].result.at(2, 1), 0.0);
    const auto all = computeCredits(batch, "grpo", {}, true);
    QVERIFY(all.size() > 3);
    QCOMPARE(all[0].name, std::string("grpo"));
    std::set<std::string> names;
    for (const auto& c : all)
        names.insert(c.name);
    QCOMPARE(names.size(), all.size()); // each method once
    QVERIFY(names.count("gigpo") && names.count("mgr"));
    // A shadow method that refuses the batch is skipped, not fatal: TRIAGE needs every turn's role.
    QVERIFY(!names.count("triage"));
    auto judged = rolloutsOfFour();
    std::vector<std::vector<judge::Verdict>> verdicts(4, std::vector<judge::Verdict>(3));
    for (auto& row : verdicts)
        for (auto& v : row) {
            v.role = Role::N;
            v.score = 0.5;
        }
    applyVerdicts(judged.trajectories, verdicts, "judge:oracle", 1);
    const auto withRoles = computeCredits(Batch::fromTrajectories(judged.trajectories), "grpo", {}, true);
    QVERIFY(std::any_of(withRoles.begin(), withRoles.end(), [](const MethodCredits& c) { return c.name == "triage"; }));
    QVERIFY(withRoles.size() > all.size());
    QVERIFY_THROWS_EXCEPTION(std::exception, computeCredits(batch, "no_such_method", {}, true));
}

void TestLearnStages::selectPutsAdvantagesOnSpans()
{
    auto r = rolloutsOfFour();
    const Batch batch = Batch::fromTrajectories(r.trajectories);
    credit::CreditResult result(batch);
    for (std::size_t i = 0; i < 4; ++i)
        for (std::size_t k = 0; k < 3; ++k)
            result.at(i, k) = (k == 1) ? 0.0 : static_cast<double>(10 * i + k + 1);
    const auto s = selectForUpdate(batch, r, result, {});
    QCOMPARE(s.sequences.size(), std::size_t(4));
    QCOMPARE(s.samples, std::size_t(12));
    QCOMPARE(s.filteredGroups, 0LL);
    QCOMPARE(s.failedRollouts, 0LL);
    QCOMPARE(s.nonZeroShare, 8.0 / 12.0);
    for (const auto& q : s.sequences)
        for (const auto& span : q.spans)
            QCOMPARE(span.advantage, result.at(q.trajectory, span.turn));
}

void TestLearnStages::selectFiltersUniformGroupsAndFailedRollouts()
{
    auto r = rolloutsOfFour();
    env::markFailed(r.trajectories[1], "server went away");
    const Batch batch = Batch::fromTrajectories(r.trajectories);
    credit::CreditResult result(batch);
    SelectOptions o;
    o.filterUniformGroups = true;
    const auto s = selectForUpdate(batch, r, result, o);
    QCOMPARE(s.filteredGroups, 1LL); // g2: both 0
    QCOMPARE(s.failedRollouts, 1LL); // b
    QCOMPARE(s.sequences.size(), std::size_t(1));
    QCOMPARE(s.sequences[0].trajectory, std::size_t(0));
    QCOMPARE(s.samples, std::size_t(3));
}

void TestLearnStages::selectWhitensOverKeptTurns()
{
    auto r = rolloutsOfFour();
    const Batch batch = Batch::fromTrajectories(r.trajectories);
    credit::CreditResult result(batch);
    for (std::size_t i = 0; i < 4; ++i)
        for (std::size_t k = 0; k < 3; ++k)
            result.at(i, k) = static_cast<double>(i * 3 + k);
    SelectOptions o;
    o.whiten = true;
    const auto s = selectForUpdate(batch, r, result, o);
    double sum = 0.0, squares = 0.0;
    int n = 0;
    for (const auto& q : s.sequences)
        for (const auto& span : q.spans) {
            sum += span.advantage;
            squares += span.advantage * span.advantage;
            ++n;
        }
    QCOMPARE(n, 12);
    QVERIFY(std::abs(sum / n) < 1e-9);
    QVERIFY(std::abs(squares / (n - 1) - 1.0) < 1e-6); // sample std 1
    // The order survives: turn 0 of trajectory 0 is the smallest.
    QVERIFY(s.sequences[0].spans[0].advantage < s.sequences[0].spans[1].advantage);
}

void TestLearnStages::updateSettingsFollowTheConfig()
{
    const auto config = TrainConfig::parse(creditlab::testing::kTinyConfig, "tiny.yaml",
        { { "rl.loss_norm", "sequence" }, { "rl.clip", "0.3" }, { "rl.epochs", "3" }, { "critic.mode", "trajectory" } });
    const auto s = updateSettings(config, 0.05, true);
    QVERIFY(s.norm == LossNorm::Sequence);
    QCOMPARE(s.epochs, 3);
    QCOMPARE(s.loss.clipLow, 0.3);
    QCOMPARE(s.loss.klCoef, 0.05);
    QVERIFY(s.critic && s.trajectoryGae);
    QVERIFY(updateSettings(TrainConfig::parse(creditlab::testing::kTinyConfig, "tiny.yaml"), 0.0, false).norm
        == LossNorm::Trajectory);
}

void TestLearnStages::rolloutMetricsCountOutcomesAndRoles()
{
    const auto r = rolloutsOfFour();
    const Batch batch = Batch::fromTrajectories(r.trajectories);
    std::map<std::string, double> m;
    for (const auto& [name, value] : rolloutMetrics(batch, r.oracleRoles))
        m[name] = value;
    QCOMPARE(m["rollout/success"], 0.25);
    QCOMPARE(m["rollout/return"], 0.25);
    QCOMPARE(m["rollout/turns"], 3.0);
    QCOMPARE(m["rollout/success_turns"], 3.0); // the one success took 3 turns
    QCOMPARE(m["rollout/invalid_rate"], 4.0 / 12.0); // turn 1 of each is invalid
    // Without a success there is no success_turns.
    auto failures = r.trajectories;
    for (auto& t : failures)
        t.success = false;
    for (const auto& [name, value] : rolloutMetrics(Batch::fromTrajectories(failures), r.oracleRoles))
        QVERIFY(name != "rollout/success_turns");
    QCOMPARE(m["role/D"], 4.0 / 12.0);
    QCOMPARE(m["role/N"], 8.0 / 12.0);
    QCOMPARE(m["role/E"], 0.0);
}

void TestLearnStages::recordWritesTrajectoriesLabelsAndCredits()
{
    QTemporaryDir dir;
    Store store(dir.filePath("runs.db").toStdString());
    NewRun run;
    run.name = "stages";
    run.kind = RunKind::Train;
    run.status = RunStatus::Running;
    const auto runId = store.createRun(run);
    auto r = rolloutsOfFour();
    std::vector<std::vector<judge::Verdict>> verdicts(4, std::vector<judge::Verdict>(3));
    verdicts[0][2].role = Role::R;
    verdicts[0][2].rationale = "it undid the put";
    verdicts[0][2].confidence = 0.9;
    applyVerdicts(r.trajectories, verdicts, "judge:http", 2);
    const Batch batch = Batch::fromTrajectories(r.trajectories);
    const auto credits = computeCredits(batch, "grpo", {}, true);
    IterationRecord record;
    record.runId = runId;
    record.iteration = 2;
    record.ordinalBase = 4;
    record.batch = &batch;
    record.oracleRoles = &r.oracleRoles;
    record.verdicts = &verdicts;
    record.judgeTag = "http";
    record.credits = &credits;
    {
        auto tx = store.begin();
        recordIteration(store, record);
        tx->commit();
    }
    const auto stored = store.trajectories(runId);
    QCOMPARE(stored.size(), std::size_t(4));
    for (const auto& info : stored) {
        QCOMPARE(*info.iteration, 2LL);
        for (const auto& c : credits) {
            const auto values = store.credits(info.rowId, c.name);
            QCOMPARE(values.size(), std::size_t(3));
        }
    }
    const auto methods = store.creditMethods(runId);
    QCOMPARE(methods.size(), credits.size());
    // Oracle labels on every turn, the judge's where it gave a role, with its evidence.
    const auto& first = *std::find_if(stored.begin(), stored.end(), [](const auto& i) { return i.id == "a"; });
    const auto labels = store.judgeLabels(first.rowId);
    int oracle = 0, http = 0;
    for (const auto& l : labels) {
        oracle += l.judge == "oracle";
        if (l.judge == "http") {
            ++http;
            QCOMPARE(l.turn, 2);
            QVERIFY(l.role == Role::R);
            QCOMPARE(*l.rationale, std::string("it undid the put"));
            QCOMPARE(*l.confidence, 0.9);
        }
    }
    QCOMPARE(oracle, 3);
    QCOMPARE(http, 1);
}

void TestLearnStages::learnedCreditFollowsTheMethod()
{
    QTemporaryDir dir;
    const BuiltinFormat tokenizer { Tokenizer() };
    RolloutSetup setup;
    setup.env = "household";
    Transformer policy { nullptr };
    const auto make = [&](const std::vector<std::pair<std::string, std::string>>& keys) {
        const auto config = TrainConfig::parse(creditlab::testing::kTinyConfig, "tiny.yaml", keys);
        auto learned = makeLearnedCredit(
            { config, policy, setup, torch::kCPU, dir.filePath("runs.db").toStdString(), 1, dir.path().toStdString() });
        return std::make_pair(learned ? std::string(learned->name()) : std::string("none"),
            learned ? learned->needs() : TurnStateNeed::None);
    };
    QCOMPARE(make({ { "credit.method", "grpo" } }).first, std::string("none"));
    QCOMPARE(make({ { "credit.method", "triage" } }).first, std::string("none"));
    QCOMPARE(make({ { "credit.method", "has" } }).first, std::string("none")); // the default decomposer is not learned
    const auto turnrd = make({ { "credit.method", "has" }, { "credit.decomposer", "turnrd" } });
    QCOMPARE(turnrd.first, std::string("turnrd"));
    QVERIFY(turnrd.second == TurnStateNeed::Turns);
    const auto value = make({ { "credit.method", "value_baseline" } });
    QCOMPARE(value.first, std::string("value_baseline"));
    QVERIFY(value.second == TurnStateNeed::TurnsAndFinals);
    QCOMPARE(make({ { "credit.method", "pair" } }).first, std::string("pair"));
    // PAIR refuses a probe file that is not there before anything runs.
    const auto config = TrainConfig::parse(creditlab::testing::kTinyConfig, "tiny.yaml",
        { { "credit.method", "pair" }, { "pair.probe", dir.filePath("missing.json").toStdString() } });
    auto pair = makeLearnedCredit({ config, policy, setup, torch::kCPU, "x.db", 1, dir.path().toStdString() });
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pair->validate());
}

QTEST_APPLESS_MAIN(TestLearnStages)
#include "tst_learn_stages.moc"
