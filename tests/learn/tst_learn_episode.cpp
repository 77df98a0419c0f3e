// The episode engine (policy.memory: episode) on tiny models: generation with the KV cache kept across turns gives
// the log-probs of one full forward pass over the episode's sequence; only sampled action tokens are trained; the
// first minibatch's ratio is exactly 1; overflow segments restart from the goal, the scene and the latest turns with
// the very tokens that were sampled; a branched sequence equals its branches run alone.
#include "core/learn/torch/engine/trainsteps.h"

#include <QtTest/QTest>

#include <cmath>
#include <vector>

using namespace creditlab;
using namespace creditlab::learn;

namespace {

using Ids = std::vector<std::int32_t>;

Transformer tinyPolicy(std::int64_t vocab, std::int64_t context, std::uint64_t seed)
{
    torch::manual_seed(seed);
    TransformerOptions o;
    o.vocab = vocab;
    o.width = 32;
    o.layers = 2;
    o.heads = 2;
    o.context = context;
    Transformer model(o);
    model->eval();
    return model;
}

RolloutSetup householdSetup(bool episode, std::int32_t context)
{
    RolloutSetup setup;
    setup.env = "household";
    setup.envAssignments = { { "max_steps", "12" } };
    setup.episodeMemory = episode;
    setup.context = context;
    setup.prompt.history = 2;
    setup.prompt.budget = context - 8;
    setup.sampling.maxTokens = 8;
    setup.sampling.stopTokens = { Tokenizer::kEnd };
    return setup;
}

std::vector<EpisodeSpec> specs(std::size_t n)
{
    std::vector<EpisodeSpec> out;
    for (std::size_t k = 0; k < n; ++k)
        out.push_back({ 11 + k, env::Split::Train, "e" + std::to_string(k), "g" });
    return out;
}

/// Per sample: the sum of its action tokens' log-probs from one teacher-forced pass over its sequence.
std::vector<double> teacherForced(Transformer& policy, const RolloutBatch& batch)
{
    torch::NoGradGuard noGrad;
    std::vector<double> out(batch.samples.size(), 0.0);
    for (std::size_t s = 0; s < batch.samples.size(); ++s) {
        const TurnSample& sample = batch.samples[s];
        const TrainSequence& sequence = batch.sequences[sample.sequence];
        const auto b = makeSequenceBatch({ &sequence }, torch::kCPU);
        const auto lp = actionLogProbs(policy, b, 1.0);
        std::int64_t column = 0;
        for (std::size_t k = 0; k < sample.span; ++k)
            column += sequence.spans[k].end - sequence.spans[k].begin;
        const ActionSpan& span = sequence.spans[sample.span];
        for (std::int32_t j = 0; j < span.end - span.begin; ++j)
            out[s] += lp[0][column + j].item<double>();
    }
    return out;
}

} // namespace

class TestLearnEpisode : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void cachedEpisodesMatchFullForward_data();
    void cachedEpisodesMatchFullForward();
    void lossMaskIsTheSampledActionTokens();
    void overflowSegments();
    void firstMinibatchRatioIsOne();
    void branchesSeeOnlyTheirFork();
    void demonstrationsBranchWhereTheLabelDiffers();
};

void TestLearnEpisode::cachedEpisodesMatchFullForward_data()
{
    QTest::addColumn<int>("context");
    QTest::newRow("whole episodes") << 1024;
    QTest::newRow("overflowing") << 96; // restarts mid-episode: every segment against its own pass
}

void TestLearnEpisode::cachedEpisodesMatchFullForward()
{
    QFETCH(int, context);
    const auto tokenizer = Tokenizer::forEnvironment("household", { { "max_steps", "12" } }, 6);
    auto policy = tinyPolicy(tokenizer.size(), context, 4);
    const auto setup = householdSetup(true, context);
    Rng rng(9);
    const auto batch = collectRollouts(policy, BuiltinFormat(tokenizer), setup, specs(6), rng);
    QVERIFY(!batch.samples.empty());
    if (context < 200)
        QVERIFY2(batch.overflows > 0, "the small context must make streams restart");
    else
        QCOMPARE(batch.overflows, std::int64_t(0));
    const auto expected = teacherForced(policy, batch);
    double worst = 0.0;
    for (std::size_t s = 0; s < batch.samples.size(); ++s)
        worst = std::max(worst, std::abs(batch.samples[s].logProb - expected[s]));
    QVERIFY2(worst < 1e-4, qPrintable(QString("largest difference %1").arg(worst)));
    // Every turn of every trajectory has exactly one sample, in turn order.
    std::size_t turns = 0;
    for (const auto& t : batch.trajectories)
        turns += t.turns.size();
    QCOMPARE(batch.samples.size(), turns);
    for (const auto& q : batch.sequences)
        QVERIFY(q.size() <= context);
}

void TestLearnEpisode::lossMaskIsTheSampledActionTokens()
{
    const auto tokenizer = Tokenizer::forEnvironment("household", { { "max_steps", "12" } }, 6);
    for (bool episode : { true, false }) {
        auto policy = tinyPolicy(tokenizer.size(), 512, 5);
        const auto setup = householdSetup(episode, 512);
        Rng rng(2);
        const auto batch = collectRollouts(policy, BuiltinFormat(tokenizer), setup, specs(4), rng);
        std::vector<const TrainSequence*> rows;
        for (const auto& q : batch.sequences)
            rows.push_back(&q);
        const auto b = makeSequenceBatch(rows, torch::kCPU);
        // As many trained tokens as were generated, no more.
        QCOMPARE(static_cast<std::int64_t>(b.mask.sum().item<double>()), batch.generatedTokens);
        for (const TurnSample& sample : batch.samples) {
            const TrainSequence& q = batch.sequences[sample.sequence];
            const ActionSpan& span = q.spans[sample.span];
            // The trained tokens are the action's own: they spell the action the environment was given.
            const Ids tokens(q.tokens.begin() + span.begin, q.tokens.begin() + span.end);
            Ids body;
            for (auto t : tokens)
                if (t >= Tokenizer::kSpecialCount || t == Tokenizer::kUnk)
                    body.push_back(t);
            QCOMPARE(tokenizer.decode(body), batch.trajectories[sample.trajectory].turns[sample.turn].action);
            // The action follows "<act>" and is predicted from it.
            QCOMPARE(q.tokens[static_cast<std::size_t>(span.begin - 1)], Tokenizer::kAct);
            QCOMPARE(span.from, span.begin - 1);
            // The stored token span says the same.
            const auto& stored = *batch.trajectories[sample.trajectory].turns[sample.turn].tokens;
            QCOMPARE(stored.begin, span.begin);
            QCOMPARE(stored.end, span.end);
        }
        // Outside the spans nothing is a target: every target position predicts a span token.
        std::int64_t masked = 0;
        for (const auto& q : batch.sequences)
            for (const auto& span : q.spans)
                masked += span.end - span.begin;
        QCOMPARE(masked, batch.generatedTokens);
    }
}

void TestLearnEpisode::overflowSegments()
{
    // Context 40, actions of up to 4 tokens: 36 tokens of context per action.
    const Ids goal { 2, 30, 31 };
    EpisodeStream stream(goal, 40, 4);
    std::vector<Ids> observations, actions;
    int restarts = 0;
    for (int turn = 0; turn < 9; ++turn) {
        Ids o;
        for (int k = 0; k < 3 + turn % 3; ++k)
            o.push_back(40 + turn * 5 + k);
        observations.push_back(o);
        if (stream.beginTurn(observationChunk(o)))
            ++restarts;
        QVERIFY(static_cast<int>(stream.current().size()) + 4 <= 40);
        const Ids a { 100 + turn, 101 + turn, Tokenizer::kEnd };
        actions.push_back(a);
        stream.endTurn(a);
    }
    QVERIFY(restarts >= 2);
    const auto segments = stream.finish(7);
    QCOMPARE(static_cast<int>(segments.size()), restarts + 1);
    std::vector<int> trained(9, 0);
    for (std::size_t s = 0; s < segments.size(); ++s) {
        const auto& q = segments[s];
        QCOMPARE(q.trajectory, std::size_t(7));
        QCOMPARE(q.segment, static_cast<std::int32_t>(s));
        QVERIFY(q.size() <= 40);
        // Every segment starts with the goal.
        QVERIFY(std::equal(goal.begin(), goal.end(), q.tokens.begin()));
        for (const auto& span : q.spans) {
            ++trained[span.turn];
            // The trained tokens are the very action tokens, after that turn's observation chunk.
            QCOMPARE(Ids(q.tokens.begin() + span.begin, q.tokens.begin() + span.end), actions[span.turn]);
            const Ids chunk = observationChunk(observations[span.turn]).ids;
            QCOMPARE(Ids(q.tokens.begin() + span.begin - static_cast<std::int32_t>(chunk.size()),
                         q.tokens.begin() + span.begin),
                chunk);
        }
        if (s > 0) {
            // A restarted segment: goal, the scene (turn 0's observation), then whole earlier turns, token for token.
            const Ids first = observationChunk(observations[0]).ids;
            const Ids scene(first.begin(), first.end() - 1);
            QVERIFY(
                std::equal(scene.begin(), scene.end(), q.tokens.begin() + static_cast<std::ptrdiff_t>(goal.size())));
            const std::size_t firstTrained = q.spans.front().turn;
            QVERIFY(firstTrained > 0);
            const Ids previous = observationChunk(observations[firstTrained - 1]).ids;
            Ids turnTokens = previous;
            turnTokens.insert(turnTokens.end(), actions[firstTrained - 1].begin(), actions[firstTrained - 1].end());
            const auto chunkAt = q.spans.front().begin
                - static_cast<std::int32_t>(observationChunk(observations[firstTrained]).ids.size());
            QVERIFY(chunkAt >= static_cast<std::int32_t>(turnTokens.size()));
            QCOMPARE(Ids(q.tokens.begin() + chunkAt - static_cast<std::int32_t>(turnTokens.size()),
                         q.tokens.begin() + chunkAt),
                turnTokens);
        }
    }
    for (int turn = 0; turn < 9; ++turn)
        QCOMPARE(trained[static_cast<std::size_t>(turn)], 1); // every turn trained exactly once
}

void TestLearnEpisode::firstMinibatchRatioIsOne()
{
    const auto tokenizer = Tokenizer::forEnvironment("household", { { "max_steps", "12" } }, 6);
    for (bool episode : { true, false }) {
        auto policy = tinyPolicy(tokenizer.size(), 512, 6);
        auto reference = tinyPolicy(tokenizer.size(), 512, 7);
        const auto setup = householdSetup(episode, 512);
        Rng rng(3);
        auto batch = collectRollouts(policy, BuiltinFormat(tokenizer), setup, specs(6), rng);
        for (auto& q : batch.sequences)
            for (auto& span : q.spans)
                span.advantage = rng.uniform() - 0.5;
        torch::optim::Adam adam(policy->parameters(), torch::optim::AdamOptions(1e-2));
        UpdateSettings settings;
        settings.epochs = 2;
        settings.minibatches = 3;
        settings.microBatch = 2;
        settings.loss.klCoef = 0.01;
        UpdateProbe probe;
        setUpdateProbe(&probe);
        const auto stats = ppoUpdate(policy, reference, adam, nullptr, nullptr, batch.sequences, settings, rng);
        setUpdateProbe(nullptr);
        QCOMPARE(probe.min, 1.0);
        QCOMPARE(probe.max, 1.0);
        QVERIFY(stats.approxKl > 0.0); // later minibatches did move away from the behaviour policy
        // Every old log-prob the update used, in every minibatch and epoch, is the behaviour policy's: the same
        // weights as the policy before the update (seed 6), one sequence at a time.
        torch::NoGradGuard noGrad;
        auto behaviour = tinyPolicy(tokenizer.size(), 512, 6);
        QCOMPARE(probe.oldLogProbs.size(), batch.sequences.size());
        double worst = 0.0;
        for (std::size_t i = 0; i < batch.sequences.size(); ++i) {
            const auto expected
                = actionLogProbs(behaviour, makeSequenceBatch({ &batch.sequences[i] }, torch::kCPU), 1.0);
            const auto& used = probe.oldLogProbs[i];
            QCOMPARE(
                static_cast<std::int64_t>(used.size()), static_cast<std::int64_t>(batch.sequences[i].actionTokens()));
            for (std::size_t t = 0; t < used.size(); ++t)
                worst = std::max(worst,
                    std::abs(static_cast<double>(used[t]) - expected[0][static_cast<std::int64_t>(t)].item<double>()));
        }
        QVERIFY2(
            worst < 1e-5, qPrintable(QString("old log-probs differ from the behaviour policy's by %1").arg(worst)));
    }
}

void TestLearnEpisode::branchesSeeOnlyTheirFork()
{
    // One row holding a stream and a branch equals the two sequences run alone.
    torch::NoGradGuard noGrad;
    auto policy = tinyPolicy(40, 64, 8);
    TrainSequence tree;
    tree.tokens = { 2, 7, 8, 3, 9, 4, 10, 11, 5, 3, 12, 4, 13, 5 };
    tree.spans.push_back({ 6, 9, 5, 0, 0.0 });
    tree.spans.push_back({ 12, 14, 11, 1, 0.0 });
    // The branch: another action at turn 0, forking after "<act>" (index 5).
    const Ids label { 20, 21, 5 };
    Branch branch { tree.size(), tree.size() + 3, 6 };
    tree.tokens.insert(tree.tokens.end(), label.begin(), label.end());
    tree.branches.push_back(branch);
    tree.spans.push_back({ branch.begin, branch.end, 5, 0, 0.0 });
    const auto b = makeSequenceBatch({ &tree }, torch::kCPU);
    QVERIFY(b.allowed.defined());
    const auto lp = actionLogProbs(policy, b, 1.0);
    // Alone: the stream, and the prefix up to the fork followed by the label.
    TrainSequence stream;
    stream.tokens.assign(tree.tokens.begin(), tree.tokens.begin() + 14);
    stream.spans = { tree.spans[0], tree.spans[1] };
    const Ids prefix(tree.tokens.begin(), tree.tokens.begin() + 6);
    const auto alone = windowSequence(prefix, label);
    const auto b1 = makeSequenceBatch({ &stream }, torch::kCPU);
    const auto b2 = makeSequenceBatch({ &alone }, torch::kCPU);
    const auto lp1 = actionLogProbs(policy, b1, 1.0);
    const auto lp2 = actionLogProbs(policy, b2, 1.0);
    QVERIFY((lp.narrow(1, 0, 5) - lp1).abs().max().item<double>() < 1e-5);
    QVERIFY((lp.narrow(1, 5, 3) - lp2).abs().max().item<double>() < 1e-5);
}

void TestLearnEpisode::demonstrationsBranchWhereTheLabelDiffers()
{
    const auto tokenizer = Tokenizer::forEnvironment("household", {}, 6);
    auto setup = householdSetup(true, 2048);
    setup.envAssignments.clear();
    const BuiltinFormat format(tokenizer);
    DemonstrationBuilder builder(format, setup);
    builder.beginEpisode("put a mug in cabinet");
    builder.addTurn("You are in the middle of a room.", "go to desk 1", "go to desk 1");
    builder.addTurn("On the desk 1, you see a pen 1.", "go to bed 1", "go to shelf 1");
    builder.addTurn("On the bed 1, you see nothing.", "go to shelf 1", "go to shelf 1");
    builder.endEpisode();
    const auto demos = builder.take();
    QCOMPARE(demos.size(), std::size_t(1));
    const auto& q = demos.front();
    QCOMPARE(q.spans.size(), std::size_t(3)); // every turn trains its label once
    QCOMPARE(q.branches.size(), std::size_t(1));
    // The stream holds the action taken ("go to bed 1"); the branch holds the label and forks after that turn's <act>.
    const auto& branchSpan = q.spans[1];
    QCOMPARE(branchSpan.begin, q.branches.front().begin);
    QCOMPARE(branchSpan.from, q.branches.front().forkAt - 1);
    QCOMPARE(q.tokens[static_cast<std::size_t>(branchSpan.from)], Tokenizer::kAct);
    Ids label = tokenizer.encode("go to shelf 1");
    label.push_back(Tokenizer::kEnd);
    QCOMPARE(Ids(q.tokens.begin() + branchSpan.begin, q.tokens.begin() + branchSpan.end), label);
    Ids taken = tokenizer.encode("go to bed 1");
    taken.push_back(Tokenizer::kEnd);
    QCOMPARE(Ids(q.tokens.begin() + q.branches.front().forkAt,
                 q.tokens.begin() + q.branches.front().forkAt + static_cast<std::int32_t>(taken.size())),
        taken);
    // Window mode: one sequence per turn, the label trained.
    setup.episodeMemory = false;
    DemonstrationBuilder window(format, setup);
    window.beginEpisode("put a mug in cabinet");
    window.addTurn("You are in the middle of a room.", "go to desk 1", "go to desk 1");
    window.addTurn("On the desk 1, you see a pen 1.", "go to bed 1", "go to shelf 1");
    window.endEpisode();
    const auto w = window.take();
    QCOMPARE(w.size(), std::size_t(2));
    QCOMPARE(Ids(w[1].tokens.begin() + w[1].spans[0].begin, w[1].tokens.end()), label);
}

QTEST_GUILESS_MAIN(TestLearnEpisode)
#include "tst_learn_episode.moc"
