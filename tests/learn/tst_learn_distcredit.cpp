// The learned credit models of data-parallel runs (issue 36) on ranks that are threads of this process, over Gloo on
// loopback: the shared-out hidden-state passes give one process's states bit for bit; the value head and TurnRD,
// trained on shares of their batches, end where one process ends; PAIR's scores are one process's, and a rank that
// sees none of rank 0's files still gets the probe.
#include "core/learn/torch/engine/learnedcredit.h"
#include "core/learn/torch/pair/probepipeline.h"
#include "core/learn/torch/turnrd/turnrd.h"
#include "core/learn/torch/valuebaseline/valuehead.h"
#include "tests/learn/rankthreads.h"
#include "tests/learn/tinyconfig.h"

#include <QTemporaryDir>
#include <QtTest/QTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

using namespace creditlab::learn::dist;
using creditlab::testing::generatorLock;
using creditlab::testing::joinRanks;
using creditlab::testing::onRanks;

class TestLearnDistCredit : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        if (!Communicator::available())
            QSKIP("this build has no distributed engine (no Gloo headers)");
    }
    void turnStatesShardedEqualOneProcess_data();
    void turnStatesShardedEqualOneProcess();
    void valueHeadEqualsOneProcess_data();
    void valueHeadEqualsOneProcess();
    void turnRdEqualsOneProcess_data();
    void turnRdEqualsOneProcess();
    void pairScoresOnRanksAsOneProcess();
    void turnStatePassesBoundTokens();
};

namespace {

/// A tiny two-layer policy over `vocab` tokens, the same weights for the same seed.
creditlab::learn::Transformer tinyPolicy(std::int64_t vocab, std::uint64_t seed)
{
    std::lock_guard lock(generatorLock());
    torch::manual_seed(seed);
    creditlab::learn::TransformerOptions o;
    o.vocab = vocab;
    o.width = 24;
    o.layers = 2;
    o.heads = 2;
    o.context = 96; // short enough that some episodes restart as new segments
    return creditlab::learn::Transformer(o);
}

std::vector<float> randomFloats(torch::Generator& gen, std::int64_t n)
{
    const torch::Tensor t = at::randn({ n }, gen, torch::TensorOptions().dtype(torch::kFloat));
    return std::vector<float>(t.data_ptr<float>(), t.data_ptr<float>() + n);
}

double maxDiff(const std::vector<float>& a, const std::vector<float>& b)
{
    double m = a.size() == b.size() ? 0.0 : 1e300;
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
        m = std::max(m, std::abs(static_cast<double>(a[i]) - b[i]));
    return m;
}

/// `count` TurnRD records of round `round`: 1 to 5 turns, distinct rewards (the ranking term has pairs), progress on
/// every other record (the value and progress terms), random hidden states and goals of width 8.
std::vector<creditlab::learn::TurnRdTrajectory> turnRdRecords(std::int64_t round, int count)
{
    torch::Generator gen = at::detail::createCPUGenerator(500 + static_cast<std::uint64_t>(round));
    std::vector<creditlab::learn::TurnRdTrajectory> out;
    for (int i = 0; i < count; ++i) {
        creditlab::learn::TurnRdTrajectory r;
        r.turns = 1 + (i * 3 + round) % 5;
        r.round = round;
        r.reward = static_cast<double>(randomFloats(gen, 1)[0]);
        r.hidden = randomFloats(gen, r.turns * 8);
        r.goal = randomFloats(gen, 8);
        if (i % 2 == 0)
            r.progress = randomFloats(gen, r.turns);
        out.push_back(std::move(r));
    }
    return out;
}

/// The tests' household setup: episode streams (segments that restart) or a window per turn.
creditlab::learn::RolloutSetup householdSetup(bool episode)
{
    creditlab::learn::RolloutSetup setup;
    setup.env = "household";
    setup.envAssignments = { { "max_steps", "6" } };
    setup.episodeMemory = episode;
    setup.context = 96;
    setup.prompt.history = 1;
    setup.prompt.budget = 88;
    setup.sampling.maxTokens = 8;
    setup.sampling.stopTokens = { creditlab::learn::Tokenizer::kEnd };
    return setup;
}

/// Five household episodes of `policy`.
creditlab::learn::RolloutBatch fiveEpisodes(creditlab::learn::Transformer& policy,
    const creditlab::learn::Tokenizer& tokenizer, const creditlab::learn::RolloutSetup& setup)
{
    using namespace creditlab::learn;
    std::vector<EpisodeSpec> specs;
    for (std::uint64_t k = 0; k < 5; ++k)
        specs.push_back({ 40 + k, creditlab::env::Split::Train, "e" + std::to_string(k), "g" });
    Rng rng(3);
    return collectRollouts(policy, BuiltinFormat(tokenizer), setup, specs, rng);
}

} // namespace

void TestLearnDistCredit::turnStatesShardedEqualOneProcess_data()
{
    QTest::addColumn<int>("world");
    QTest::addColumn<bool>("episode");
    QTest::addColumn<std::int64_t>("passTokens");
    QTest::newRow("2 ranks, episode streams") << 2 << true << std::int64_t { 1 << 20 };
    QTest::newRow("3 ranks, a window per turn") << 3 << false << std::int64_t { 1 << 20 };
    // Passes cut by padded tokens as well as rows: uneven passes, some of one long sequence.
    QTest::newRow("2 ranks, episode streams, 64 tokens a pass") << 2 << true << std::int64_t { 64 };
    QTest::newRow("3 ranks, a window per turn, 64 tokens a pass") << 3 << false << std::int64_t { 64 };
}

void TestLearnDistCredit::turnStatesShardedEqualOneProcess()
{
    // Ranks that share out the hidden-state passes and gather the rows hold what one process computes, bit for bit:
    // each turn's states, the goals and the final states, over several micro-batches of uneven lengths.
    using namespace creditlab::learn;
    QFETCH(int, world);
    QFETCH(bool, episode);
    const auto tokenizer = Tokenizer::forEnvironment("household", { { "max_steps", "6" } }, 6);
    auto policy = tinyPolicy(tokenizer.size(), 8);
    const RolloutBatch rollouts = fiveEpisodes(policy, tokenizer, householdSetup(episode));
    QFETCH(std::int64_t, passTokens);
    const PassLimit limit { 2, passTokens };
    QVERIFY(static_cast<std::int64_t>(rollouts.sequences.size()) > limit.rows * world); // every rank has a share
    const TurnStates one = extractTurnStates(policy, BuiltinFormat(tokenizer), rollouts, limit, torch::kCPU, true);
    QTemporaryDir dir;
    const std::string file = dir.filePath(QStringLiteral("store")).toStdString();
    std::vector<TurnStates> got(static_cast<std::size_t>(world));
    onRanks(world, [&](int rank) {
        auto comm = joinRanks(file, rank, world);
        auto mine = tinyPolicy(tokenizer.size(), 8);
        got[static_cast<std::size_t>(rank)]
            = extractTurnStates(mine, BuiltinFormat(tokenizer), rollouts, limit, torch::kCPU, true, comm.get());
    });
    for (const TurnStates& states : got) {
        QVERIFY(torch::equal(states.actionLast, one.actionLast));
        QVERIFY(torch::equal(states.promptLast, one.promptLast));
        QVERIFY(torch::equal(states.goal, one.goal));
        QVERIFY(torch::equal(states.final, one.final));
    }
}

void TestLearnDistCredit::valueHeadEqualsOneProcess_data()
{
    QTest::addColumn<int>("world");
    QTest::addColumn<std::vector<std::int64_t>>("cuts");
    // Contiguous shares of uneven sizes (trajectories of different lengths); one rank of four has no row.
    QTest::newRow("2 ranks") << 2 << std::vector<std::int64_t> { 0, 9, 23 };
    QTest::newRow("4 ranks") << 4 << std::vector<std::int64_t> { 0, 3, 11, 11, 23 };
}

void TestLearnDistCredit::valueHeadEqualsOneProcess()
{
    // The value head's steps on shares of the rows end where one process's steps on all of them end (the online head
    // and its EMA copy, float32), report the same loss, and every rank holds the same bits.
    using namespace creditlab::learn;
    QFETCH(int, world);
    QFETCH(std::vector<std::int64_t>, cuts);
    constexpr std::int64_t kWidth = 12, kRows = 23;
    constexpr int kSteps = 5;
    ValueBaselineOptions o;
    o.width = kWidth;
    o.lr = 1e-2;
    o.emaTau = 0.5;
    o.warmupSteps = 0;
    o.seed = 9;
    std::vector<std::vector<float>> hidden;
    std::vector<std::vector<double>> targets;
    for (int step = 0; step < kSteps; ++step) {
        torch::Generator gen = at::detail::createCPUGenerator(300 + static_cast<std::uint64_t>(step));
        hidden.push_back(randomFloats(gen, kRows * kWidth));
        const auto y = randomFloats(gen, kRows);
        targets.emplace_back(y.begin(), y.end());
    }
    ValueBaseline one(o);
    std::vector<double> oneLoss;
    for (int step = 0; step < kSteps; ++step)
        oneLoss.push_back(one.trainStep(hidden[step].data(), kRows, targets[step]));
    QTemporaryDir dir;
    const std::string file = dir.filePath(QStringLiteral("store")).toStdString();
    std::vector<std::vector<double>> losses(static_cast<std::size_t>(world));
    std::vector<std::vector<float>> online(static_cast<std::size_t>(world)), ema(static_cast<std::size_t>(world));
    onRanks(world, [&](int rank) {
        auto comm = joinRanks(file, rank, world);
        ValueBaseline head(o);
        const auto r = static_cast<std::size_t>(rank);
        for (int step = 0; step < kSteps; ++step)
            losses[r].push_back(
                head.trainStep(hidden[step].data(), kRows, targets[step], { comm.get(), cuts[r], cuts[r + 1] }));
        online[r] = head.parameters(false);
        ema[r] = head.parameters(true);
    });
    const double diff = std::max(maxDiff(online[0], one.parameters(false)), maxDiff(ema[0], one.parameters(true)));
    qInfo("value head: max |theta_W - theta_1| = %.3g", diff);
    QVERIFY2(diff < 1e-5, qPrintable(QStringLiteral("max |θ_W − θ_1| = %1").arg(diff)));
    QVERIFY(maxDiff(one.parameters(false), ValueBaseline(o).parameters(false)) > 1e-3); // it did move
    for (int step = 0; step < kSteps; ++step)
        QVERIFY(std::abs(losses[0][step] - oneLoss[step]) < 1e-5 * (1.0 + oneLoss[step]));
    for (std::size_t r = 1; r < online.size(); ++r) {
        QVERIFY(online[r] == online[0]);
        QVERIFY(ema[r] == ema[0]);
        QVERIFY(losses[r] == losses[0]);
    }
}

void TestLearnDistCredit::turnRdEqualsOneProcess_data()
{
    QTest::addColumn<int>("world");
    QTest::newRow("2 ranks") << 2;
    QTest::newRow("4 ranks") << 4; // the last minibatch of round 1 has 3 trajectories: one rank has none
}

void TestLearnDistCredit::turnRdEqualsOneProcess()
{
    // Two TurnRD rounds on a growing replay, each minibatch shared out over the ranks, end where one process ends:
    // with dropout (the ranks draw the whole minibatch's masks) and a ranking term strong enough that leaving out its
    // gathered gradient moves the weights and the outputs far past the tolerance (by 4e-3 and 4e-2).
    using namespace creditlab::learn;
    QFETCH(int, world);
    TurnRdOptions o;
    o.inputWidth = 8;
    o.goalWidth = 8;
    o.modelWidth = 16;
    o.heads = 2;
    o.ffnWidth = 32;
    o.maxTurns = 6;
    o.lambdaRank = 1.0;
    o.lambdaProgress = 0.1;
    o.epochs = 2;
    o.batchSize = 6;
    o.probeTrajectories = 8;
    o.seed = 21;
    const auto build = [&] {
        std::lock_guard lock(generatorLock()); // the modules' default initialisation draws before the seeded one
        return TurnRd(o);
    };
    const auto first = turnRdRecords(1, 9), second = turnRdRecords(2, 8);
    // The replay travels from rank 0 to the others as bytes (TurnRdLearned::restore): exactly.
    const auto back = TurnRdReplay::decode(TurnRdReplay::encode(first), "test");
    QCOMPARE(back.size(), first.size());
    for (std::size_t i = 0; i < back.size(); ++i)
        QVERIFY(back[i].hidden == first[i].hidden && back[i].goal == first[i].goal
            && back[i].progress == first[i].progress && back[i].reward == first[i].reward
            && back[i].turns == first[i].turns && back[i].round == first[i].round);

    TurnRd one = build();
    const auto initial = one.parameters();
    TurnRdReplay replay;
    replay.append(first);
    one.trainRound(replay, 1);
    replay.append(second);
    const TurnRdRoundStats oneStats = one.trainRound(replay, 2);
    QVERIFY(oneStats.last.rank > 0.0);
    double moved = 0.0;
    for (std::size_t k = 0; k < initial.size(); ++k)
        moved = std::max(moved, maxDiff(one.parameters()[k].second, initial[k].second));
    QVERIFY(moved > 1e-3);

    QTemporaryDir dir;
    const std::string file = dir.filePath(QStringLiteral("store")).toStdString();
    std::vector<std::vector<std::pair<std::string, std::vector<float>>>> params(static_cast<std::size_t>(world));
    std::vector<TurnRdRoundStats> stats(static_cast<std::size_t>(world));
    std::vector<std::vector<TurnRdCredit>> credits(static_cast<std::size_t>(world));
    onRanks(world, [&](int rank) {
        auto comm = joinRanks(file, rank, world);
        TurnRd model = build();
        TurnRdReplay mine;
        mine.append(first);
        model.trainRound(mine, 1, {}, comm.get());
        mine.append(second);
        stats[static_cast<std::size_t>(rank)] = model.trainRound(mine, 2, {}, comm.get());
        params[static_cast<std::size_t>(rank)] = model.parameters();
        credits[static_cast<std::size_t>(rank)] = model.credit(mine.records());
    });
    // Every parameter that has a gradient agrees. The attention head's bias and the attention keys' biases have none in
    // exact arithmetic (a softmax ignores a shift of all its logits), so float32 noise is all their gradient holds,
    // and Adam turns noise into steps of the learning rate's size: they part by 1e-4 without changing anything the
    // model computes, which the outputs below show.
    const auto expected = one.parameters();
    double diff = 0.0;
    for (std::size_t k = 0; k < expected.size(); ++k) {
        const auto& [name, values] = expected[k];
        QCOMPARE(params[0][k].first, name);
        if (name == "attn_head.bias")
            continue;
        auto a = values, b = params[0][k].second;
        if (name.ends_with("_qkv.bias")) { // q, k, v: drop k
            a.erase(a.begin() + o.modelWidth, a.begin() + 2 * o.modelWidth);
            b.erase(b.begin() + o.modelWidth, b.begin() + 2 * o.modelWidth);
        }
        diff = std::max(diff, maxDiff(a, b));
    }
    qInfo("TurnRD: max |theta_W - theta_1| = %.3g", diff);
    QVERIFY2(diff < 1e-5, qPrintable(QStringLiteral("max |θ_W − θ_1| = %1").arg(diff)));
    // The decomposer's outputs on every record: R̂, V_t and w_t.
    const auto reference = one.credit(replay.records());
    double outputs = 0.0;
    for (std::size_t i = 0; i < reference.size(); ++i) {
        const TurnRdCredit &x = reference[i], &y = credits[0][i];
        outputs = std::max(outputs, std::abs(x.predictedReturn - y.predictedReturn));
        for (std::size_t t = 0; t < x.value.size(); ++t)
            outputs
                = std::max({ outputs, std::abs(x.value[t] - y.value[t]), std::abs(x.attention[t] - y.attention[t]) });
    }
    qInfo("TurnRD: max output difference = %.3g", outputs);
    QVERIFY2(outputs < 1e-5, qPrintable(QStringLiteral("max output difference = %1").arg(outputs)));
    const TurnRdLosses& a = stats[0].last;
    const TurnRdLosses& b = oneStats.last;
    for (const auto& [x, y] : { std::pair { a.total, b.total }, std::pair { a.pred, b.pred },
             std::pair { a.value, b.value }, std::pair { a.rank, b.rank }, std::pair { a.progress, b.progress } })
        QVERIFY2(
            std::abs(x - y) < 1e-5 * (1.0 + std::abs(y)), qPrintable(QStringLiteral("%1 against %2").arg(x).arg(y)));
    QVERIFY(std::abs(stats[0].gradNorm - oneStats.gradNorm) < 1e-4 * (1.0 + oneStats.gradNorm));
    for (std::size_t r = 1; r < params.size(); ++r) {
        QVERIFY(params[r] == params[0]);
        QCOMPARE(stats[r].last.total, stats[0].last.total);
    }
}

void TestLearnDistCredit::pairScoresOnRanksAsOneProcess()
{
    // PAIR on two ranks: rank 0 reads the probe file, keeps the run's copy and sends the probe; rank 1 sees none of
    // rank 0's files (its pair.probe path is not there, its files folder does not exist) and scores the turns of its
    // own trajectories. Every rank ends with one process's scores, bit for bit.
    using namespace creditlab::learn;
    const auto tokenizer = Tokenizer::forEnvironment("household", { { "max_steps", "6" } }, 6);
    const BuiltinFormat format(tokenizer);
    const RolloutSetup setup = householdSetup(true);
    auto policy = tinyPolicy(tokenizer.size(), 8);
    const RolloutBatch rollouts = fiveEpisodes(policy, tokenizer, setup);
    // A probe on this policy's features: fitted on the batch's own turns, labelled by parity (any probe will do).
    std::vector<TurnFeatures> features;
    std::vector<int> labels;
    {
        torch::NoGradGuard noGrad;
        policy->eval();
        for (const TurnSample& sample : rollouts.samples) {
            const TrainSequence& q = rollouts.sequences[sample.sequence];
            const ActionSpan& span = q.spans[sample.span];
            const std::vector<std::int32_t> tokens(q.tokens.begin(), q.tokens.begin() + span.end);
            features.push_back(teacherForcedTurnFeatures(*policy, tokens, { { span.begin - 1, span.end, 0 } })[0]);
            labels.push_back(static_cast<int>(features.size() % 2));
        }
    }
    ProbeSet set;
    set.pair.emplace();
    set.pair->fit(pairFeatureMatrix(features, PairFeatureType::LastToken),
        pairFeatureMatrix(features, PairFeatureType::MultiAttention), labels, {});
    QTemporaryDir dir;
    const std::string probeFile = dir.filePath(QStringLiteral("probe.json")).toStdString();
    {
        std::ofstream out(probeFile);
        out << probeSetToJson(set, 1, "test", ProbeDataOptions {}, true);
    }
    const auto config = [](const std::string& probe) {
        return TrainConfig::parse(
            creditlab::testing::kTinyConfig, "tiny.yaml", { { "credit.method", "pair" }, { "pair.probe", probe } });
    };
    const auto scoresOf = [](const RolloutBatch& batch) {
        std::vector<double> out;
        for (const creditlab::Trajectory& t : batch.trajectories)
            for (const creditlab::Turn& u : t.turns)
                out.push_back(u.score.value_or(-1.0));
        return out;
    };

    const std::string oneDir = dir.filePath(QStringLiteral("one")).toStdString();
    std::filesystem::create_directories(oneDir);
    const TrainConfig oneConfig = config(probeFile);
    auto learned = makeLearnedCredit({ oneConfig, policy, setup, torch::kCPU, "x.db", 1, oneDir });
    Metrics oneMetrics;
    learned->validate();
    learned->afterSft(oneMetrics);
    RolloutBatch oneBatch = rollouts;
    learned->annotate(oneBatch, nullptr, UpdateShard {}, 1, oneMetrics);
    const auto expected = scoresOf(oneBatch);
    QVERIFY(std::all_of(expected.begin(), expected.end(), [](double s) { return s > 0.0 && s < 1.0; }));

    const std::string store = dir.filePath(QStringLiteral("store")).toStdString();
    const std::string rank0Dir = dir.filePath(QStringLiteral("rank0")).toStdString();
    const std::string elsewhere = dir.filePath(QStringLiteral("elsewhere")).toStdString();
    std::filesystem::create_directories(rank0Dir);
    std::vector<std::vector<double>> scores(2);
    std::vector<Metrics> metrics(2);
    onRanks(2, [&](int rank) {
        auto comm = joinRanks(store, rank, 2);
        auto mine = tinyPolicy(tokenizer.size(), 8);
        const TrainConfig c = config(rank == 0 ? probeFile : elsewhere + "/probe.json");
        auto model = makeLearnedCredit(
            { c, mine, setup, torch::kCPU, "x.db", 1, rank == 0 ? rank0Dir : elsewhere, comm.get() });
        model->validate();
        model->afterSft(metrics[static_cast<std::size_t>(rank)]);
        RolloutBatch batch = rollouts;
        // The trajectories each rank rolled out: whole groups of a run of 5 tasks, 3 and 2.
        const UpdateShard shard { comm.get(), rank == 0 ? 0U : 3U, rank == 0 ? 3U : 5U };
        model->annotate(batch, nullptr, shard, 1, metrics[static_cast<std::size_t>(rank)]);
        scores[static_cast<std::size_t>(rank)] = scoresOf(batch);
    });
    QVERIFY(scores[0] == expected);
    QVERIFY(scores[1] == expected);
    QVERIFY(std::filesystem::exists(rank0Dir + "/pair-probe.json")); // the run keeps the probe it trained with
    QVERIFY(!std::filesystem::exists(elsewhere));
}

void TestLearnDistCredit::turnStatePassesBoundTokens()
{
    // The hidden-state passes hold at most rl.micro_tokens padded tokens (issue 38: the has experiment's memory), as
    // the update's micro-batches do; they used to take rl.micro_batch rows whatever their length. The states are those
    // of one pass per row, up to float rounding.
    using namespace creditlab::learn;
    const std::vector<std::int64_t> lengths { 10, 30, 20, 70, 5, 5, 5, 5, 40 };
    const auto passes = turnStatePasses(lengths, PassLimit { 4, 64 });
    std::size_t next = 0;
    for (const auto& [begin, end] : passes) {
        QCOMPARE(begin, next);
        QVERIFY(end > begin);
        std::int64_t longest = 0;
        for (std::size_t i = begin; i < end; ++i)
            longest = std::max(longest, lengths[i]);
        const auto rows = static_cast<std::int64_t>(end - begin);
        QVERIFY2(rows <= 4 && (rows == 1 || rows * longest <= 64), qPrintable(QString("[%1, %2)").arg(begin).arg(end)));
        next = end;
    }
    QCOMPARE(next, lengths.size());
    using Pass = std::pair<std::size_t, std::size_t>;
    QCOMPARE(passes, (std::vector<Pass> { { 0, 2 }, { 2, 3 }, { 3, 4 }, { 4, 8 }, { 8, 9 } }));

    const auto tokenizer = Tokenizer::forEnvironment("household", { { "max_steps", "6" } }, 6);
    auto policy = tinyPolicy(tokenizer.size(), 8);
    const RolloutBatch rollouts = fiveEpisodes(policy, tokenizer, householdSetup(true));
    const auto wide
        = extractTurnStates(policy, BuiltinFormat(tokenizer), rollouts, PassLimit { 32, 1 << 20 }, torch::kCPU, true);
    const auto narrow
        = extractTurnStates(policy, BuiltinFormat(tokenizer), rollouts, PassLimit { 32, 64 }, torch::kCPU, true);
    QVERIFY(torch::allclose(wide.actionLast, narrow.actionLast, 1e-5, 1e-5));
    QVERIFY(torch::allclose(wide.promptLast, narrow.promptLast, 1e-5, 1e-5));
    QVERIFY(torch::allclose(wide.final, narrow.final, 1e-5, 1e-5));
}

QTEST_GUILESS_MAIN(TestLearnDistCredit)
#include "tst_learn_distcredit.moc"
