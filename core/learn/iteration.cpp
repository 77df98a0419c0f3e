// One RL iteration: roll out, judge, assign credit (and shadow credits), update, evaluate, store.
#include "core/credit/estimator.h"
#include "core/env/episode.h"
#include "core/judge/httpjudge.h"
#include "core/judge/humanjudge.h"
#include "core/learn/trainer_impl.h"

#include <charconv>
#include <cmath>
#include <set>
#include <stdexcept>

namespace creditlab::learn {

namespace {

/// The credits of one method on the batch, ready to store.
struct MethodCredits {
    std::string name;
    std::string params;
    credit::CreditResult result;
};

void addRolloutMetrics(const Batch& batch, const RolloutBatch& rollouts, Metrics& m)
{
    double success = 0.0, reward = 0.0, turns = 0.0, invalid = 0.0;
    double roles[4] = { 0, 0, 0, 0 };
    double labelled = 0.0;
    for (std::size_t i = 0; i < batch.trajectories.size(); ++i) {
        const auto& t = batch.trajectories[i];
        success += t.successOrDefault() ? 1.0 : 0.0;
        reward += t.reward;
        turns += static_cast<double>(t.turns.size());
        for (const auto& turn : t.turns)
            invalid += turn.validOrDefault() ? 0.0 : 1.0;
        for (const auto& role : rollouts.oracleRoles[i])
            if (role) {
                roles[static_cast<int>(*role)] += 1.0;
                labelled += 1.0;
            }
    }
    const double n = std::max<double>(1.0, static_cast<double>(batch.trajectories.size()));
    m.emplace_back("rollout/success", success / n);
    m.emplace_back("rollout/return", reward / n);
    m.emplace_back("rollout/turns", turns / n);
    m.emplace_back("rollout/invalid_rate", turns > 0 ? invalid / turns : 0.0);
    const char* names[4] = { "role/D", "role/E", "role/N", "role/R" };
    for (int r = 0; r < 4; ++r)
        m.emplace_back(names[r], labelled > 0 ? roles[r] / labelled : 0.0);
}
/// rl.task_pool=labelled: the train seeds of the tasks that carry human labels for environment `env`. Task keys
/// are "<env>:seed=<N>" (Environment::taskKey); eval-split keys ("...:split=eval") and other keys are skipped.
std::vector<std::uint64_t> labelledTrainSeeds(Store& store, const std::string& env)
{
    const std::string prefix = env + ":seed=";
    std::set<std::uint64_t> seeds;
    for (const LabelledTurn& l : store.humanLabelledTurns()) {
        if (l.task.compare(0, prefix.size(), prefix) != 0)
            continue;
        std::uint64_t seed = 0;
        const char* begin = l.task.data() + prefix.size();
        const char* end = l.task.data() + l.task.size();
        const auto [ptr, ec] = std::from_chars(begin, end, seed);
        if (ec == std::errc() && ptr == end)
            seeds.insert(seed);
    }
    return { seeds.begin(), seeds.end() };
}

/// The task seeds of one iteration: `count` distinct random seeds, or (from a pool) the pool shuffled, cycled
/// when the pool is smaller than `count`.
std::vector<std::uint64_t> sampleTaskSeeds(std::int64_t count, std::vector<std::uint64_t> pool, Rng& rng)
{
    std::vector<std::uint64_t> out;
    if (pool.empty()) {
        std::set<std::uint64_t> seen;
        while (static_cast<std::int64_t>(out.size()) < count) {
            const std::uint64_t seed = rng.below(1ULL << 31);
            if (seen.insert(seed).second)
                out.push_back(seed);
        }
        return out;
    }
    while (static_cast<std::int64_t>(out.size()) < count) {
        for (std::size_t i = pool.size(); i > 1; --i)
            std::swap(pool[i - 1], pool[rng.below(i)]);
        for (std::size_t i = 0; i < pool.size() && static_cast<std::int64_t>(out.size()) < count; ++i)
            out.push_back(pool[i]);
    }
    return out;
}
} // namespace

std::vector<std::pair<std::string, double>> Trainer::Impl::runIteration()
{
    const auto iterationStart = Clock::now();
    const std::int64_t it = iteration + 1;
    Metrics metrics;
    iterationRng = rng.state();
    outageSeconds = 0.0;

    // 1. Sample distinct train tasks and roll out G per task, all at once.
    const auto tasks = config.getInt("rl.tasks");
    const auto group = config.getInt("rl.group_size");
    std::vector<std::uint64_t> pool;
    if (config.getText("rl.task_pool") == "labelled") {
        pool = labelledTrainSeeds(*store, config.envName());
        if (pool.empty())
            throw std::runtime_error("rl.task_pool=labelled: no " + config.envName() + " train task in "
                + options.database + " carries human labels; label some turns (Annotate tab) or import labels");
    }
    const auto taskSeeds = sampleTaskSeeds(tasks, std::move(pool), rng);
    std::vector<EpisodeSpec> specs;
    for (std::int64_t j = 0; j < tasks; ++j) {
        const std::uint64_t seed = taskSeeds[static_cast<std::size_t>(j)];
        // As DESIGN.md's example: a group is one task at one policy version, so its id names the iteration.
        const std::string groupId = "it" + std::to_string(it) + "-t" + std::to_string(j);
        for (std::int64_t k = 0; k < group; ++k)
            specs.push_back({ seed, env::Split::Train, groupId + "-r" + std::to_string(k), groupId });
    }
    // A server outage rolls the batch out again once it is back, from the same Rng state: the same episodes.
    const auto rolloutRng = rng.state();
    auto rollouts = throughOutages("the environment server", [&] {
        rng.setState(rolloutRng);
        return collectRollouts(policy, tokenizer, setup, specs, rng);
    });

    // 2. Judge every turn (the trained method or the shadow methods may need roles and scores).
    const auto creditStart = Clock::now();
    const std::string roleSource = "judge:" + judge->tag();
    for (auto& t : rollouts.trajectories)
        t.iteration = it;
    // One call for the whole batch, so that a judge that calls out (http) overlaps its requests across it. An
    // endpoint outage judges the batch again once it is back (the answers that came are cached).
    const auto batchVerdicts = throughOutages("the judge endpoint", [&] {
        judge->restart(static_cast<std::uint64_t>(it));
        return judge->judgeBatch(rollouts.trajectories, rollouts.oracleRoles);
    });
    for (std::size_t i = 0; i < rollouts.trajectories.size(); ++i) {
        auto& t = rollouts.trajectories[i];
        const auto& verdicts = batchVerdicts[i];
        for (std::size_t k = 0; k < t.turns.size() && k < verdicts.size(); ++k) {
            t.turns[k].role = verdicts[k].role;
            t.turns[k].roleSource
                = verdicts[k].role ? std::optional<std::string>(verdicts[k].source.value_or(roleSource)) : std::nullopt;
            t.turns[k].score = verdicts[k].score;
        }
    }
    // Learned credit models read the acting policy's hidden states of these very rollouts.
    if (usesTurnRd() || usesValueBaseline()) {
        const auto hiddenStart = Clock::now();
        const TurnStates states = extractTurnStates(
            policy, tokenizer, rollouts, config.getInt("rl.micro_batch"), device, usesValueBaseline());
        metrics.emplace_back("time/hidden_s", secondsSince(hiddenStart));
        if (usesTurnRd())
            turnRdCredits(rollouts, states, it, metrics);
        if (usesValueBaseline())
            valueDeltas(rollouts, states, metrics);
    }
    if (usesPair())
        pairScores(rollouts, metrics);
    Batch batch = Batch::fromTrajectories(std::move(rollouts.trajectories));

    // 3. Credit: the trained method, then every other method on the same batch (shadow credits).
    const credit::Estimator& estimator = credit::requireEstimator(config.method());
    const auto params = estimator.resolve(config.creditAssignments());
    estimator.validate(batch, params);
    std::vector<MethodCredits> credits;
    credits.push_back({ std::string(estimator.name()), params.canonical(), estimator.compute(batch, params) });
    if (config.getBool("credit.shadow")) {
        for (const auto* other : credit::estimators()) {
            if (other == &estimator)
                continue;
            try {
                const auto otherParams = other->resolve({});
                other->validate(batch, otherParams);
                credits.push_back(
                    { std::string(other->name()), otherParams.canonical(), other->compute(batch, otherParams) });
            } catch (const std::exception& e) {
                logger()->debug("shadow credit {} skipped: {}", other->name(), e.what());
            }
        }
    }
    const double creditSeconds = secondsSince(creditStart);

    // 4. Per-sample advantages; optionally drop uniform-outcome groups and whiten.
    const auto& result = credits.front().result;
    std::vector<bool> keep(batch.trajectories.size(), true);
    std::int64_t filteredGroups = 0;
    if (config.getBool("rl.filter_uniform_groups")) {
        for (const auto& g : batch.groups) {
            bool uniform = true;
            for (auto m : g.members)
                uniform = uniform && batch.trajectories[m].reward == batch.trajectories[g.members.front()].reward;
            if (uniform) {
                ++filteredGroups;
                for (auto m : g.members)
                    keep[m] = false;
            }
        }
    }
    // A rollout the environment broke off (env::isFailed: a remote server died) is stored but left out of the
    // update: its turns never reached an outcome. Its reward 0 still sits in its group's statistics.
    std::int64_t failedRollouts = 0;
    for (std::size_t i = 0; i < batch.trajectories.size(); ++i)
        if (env::isFailed(batch.trajectories[i])) {
            keep[i] = false;
            ++failedRollouts;
        }
    // Each turn's advantage goes onto its action's span; the sequences of rollouts left out are not trained.
    std::vector<double> advantages;
    std::size_t samples = 0;
    for (const TurnSample& s : rollouts.samples)
        if (keep[s.trajectory]) {
            const double a = result.at(s.trajectory, s.turn);
            rollouts.sequences[s.sequence].spans[s.span].advantage = a;
            advantages.push_back(a);
            ++samples;
        }
    if (config.getBool("rl.whiten_advantages") && advantages.size() > 1) {
        double mean = 0.0, var = 0.0;
        for (double a : advantages)
            mean += a;
        mean /= static_cast<double>(advantages.size());
        for (double a : advantages)
            var += (a - mean) * (a - mean);
        const double std = std::sqrt(var / static_cast<double>(advantages.size() - 1));
        for (const TurnSample& s : rollouts.samples)
            if (keep[s.trajectory]) {
                double& a = rollouts.sequences[s.sequence].spans[s.span].advantage;
                a = (a - mean) / (std + 1e-8);
            }
    }
    std::vector<TrainSequence> sequences;
    for (auto& q : rollouts.sequences)
        if (keep[q.trajectory])
            sequences.push_back(std::move(q));
    double nonZero = 0.0;
    for (double a : result.advantages)
        nonZero += a != 0.0 ? 1.0 : 0.0;

    // 5. PPO update.
    const auto updateStart = Clock::now();
    UpdateSettings settings;
    settings.epochs = static_cast<int>(config.getInt("rl.epochs"));
    settings.minibatches = static_cast<int>(config.getInt("rl.minibatches"));
    settings.microBatch = static_cast<int>(config.getInt("rl.micro_batch"));
    settings.microTokens = config.getInt("rl.micro_tokens");
    const std::string norm = config.getText("rl.loss_norm");
    settings.norm = norm == "token" ? LossNorm::Token : norm == "sequence" ? LossNorm::Sequence : LossNorm::Trajectory;
    settings.temperature = config.getDouble("rl.temperature");
    settings.maxGradNorm = config.getDouble("rl.max_grad_norm");
    settings.loss.clipLow = config.getDouble("rl.clip");
    settings.loss.clipHigh = config.getDouble("rl.clip_high");
    settings.loss.klCoef = kl.coef;
    settings.loss.entropyCoef = config.getDouble("rl.entropy_coef");
    settings.critic = static_cast<bool>(critic);
    settings.gamma = config.getDouble("critic.gamma");
    settings.lambda = config.getDouble("critic.lambda");
    settings.trajectoryGae = config.getText("critic.mode") == "trajectory";
    const auto stats = ppoUpdate(
        policy, reference, *optimizer, critic ? &critic : nullptr, criticOptimizer.get(), sequences, settings, rng);
    kl.update(stats.kl, static_cast<std::int64_t>(samples));
    const double updateSeconds = secondsSince(updateStart);
    if (turnrd)
        trainTurnRd(it, metrics); // Algorithm 1 line 12, after the policy update
    if (valueBaseline)
        trainValueBaseline(metrics); // App. D: one value step per GRPO step, on this round's rollout-time states
    iteration = it;

    addRolloutMetrics(batch, rollouts, metrics);
    if (const auto* human = dynamic_cast<const judge::HumanJudge*>(judge.get())) {
        metrics.emplace_back("judge/human_share",
            human->judgedTurns() > 0
                ? static_cast<double>(human->humanTurns()) / static_cast<double>(human->judgedTurns())
                : 0.0);
        metrics.emplace_back("judge/human_keys", static_cast<double>(human->index().size()));
    }
    if (const auto* http = dynamic_cast<const judge::HttpJudge*>(judge.get())) {
        // Turns the endpoint could not label (no role), answers from the cache, requests sent (retries included).
        metrics.emplace_back("judge/failed_turns", static_cast<double>(http->failedTurns()));
        metrics.emplace_back("judge/cached_turns", static_cast<double>(http->cachedTurns()));
        metrics.emplace_back("judge/requests", static_cast<double>(http->requests()));
    }
    metrics.emplace_back("credit/nonzero_share",
        result.advantages.empty() ? 0.0 : nonZero / static_cast<double>(result.advantages.size()));
    metrics.emplace_back("train/policy_loss", stats.policyLoss);
    metrics.emplace_back("train/kl", stats.kl);
    metrics.emplace_back("train/kl_coef", kl.coef);
    metrics.emplace_back("train/entropy", stats.entropy);
    metrics.emplace_back("train/clip_frac", stats.clipFraction);
    metrics.emplace_back("train/grad_norm", stats.gradNorm);
    metrics.emplace_back("train/approx_kl", stats.approxKl);
    if (critic)
        metrics.emplace_back("train/value_loss", stats.valueLoss);
    metrics.emplace_back("train/samples", static_cast<double>(samples));
    metrics.emplace_back("train/sequences", static_cast<double>(sequences.size()));
    metrics.emplace_back("rollout/overflows", static_cast<double>(rollouts.overflows));
    metrics.emplace_back("train/filtered_groups", static_cast<double>(filteredGroups));
    metrics.emplace_back("train/failed_rollouts", static_cast<double>(failedRollouts));

    // 6. Evaluate greedily on held-out tasks.
    const auto evalStart = Clock::now();
    const auto iterations = config.getInt("rl.iterations");
    const bool evaluating = it % config.getInt("eval.every") == 0 || it == iterations;
    if (evaluating)
        evaluate(metrics, it);
    const double evalSeconds = secondsSince(evalStart);

    // 7. Store the iteration in one transaction.
    const auto storeStart = Clock::now();
    auto tx = store->begin();
    const auto ordBase = (it - 1) * static_cast<std::int64_t>(batch.trajectories.size());
    std::vector<std::string> details;
    for (std::size_t i = 0; i < batch.trajectories.size(); ++i) {
        const auto& t = batch.trajectories[i];
        const auto rowId = store->insertTrajectory(runId, ordBase + static_cast<std::int64_t>(i), t);
        for (std::size_t k = 0; k < t.turns.size(); ++k) {
            JudgeLabel label;
            label.trajectoryRowId = rowId;
            label.turn = static_cast<int>(k);
            if (rollouts.oracleRoles[i][k]) {
                label.judge = "oracle";
                label.role = *rollouts.oracleRoles[i][k];
                store->setJudgeLabel(label);
            }
            if (judge->tag() != "oracle" && t.turns[k].role) {
                label.judge = judge->tag();
                label.role = *t.turns[k].role;
                if (k < batchVerdicts[i].size()) { // the judge's evidence (http), with its label
                    label.rationale = batchVerdicts[i][k].rationale;
                    label.confidence = batchVerdicts[i][k].confidence;
                }
                store->setJudgeLabel(label);
            }
        }
        for (const auto& c : credits) {
            details.clear();
            for (std::size_t k = c.result.offsets[i]; k < c.result.offsets[i + 1]; ++k)
                details.push_back(c.result.turnDetailsJson(k));
            store->writeCredits(rowId, c.name,
                std::span<const double>(
                    c.result.advantages.data() + c.result.offsets[i], c.result.offsets[i + 1] - c.result.offsets[i]),
                details, c.params);
        }
    }
    if (evaluating)
        storeEvalEpisodes(it);
    const double rolloutSeconds = rollouts.generationSeconds + rollouts.envSeconds;
    metrics.emplace_back("time/generation_s", rollouts.generationSeconds);
    metrics.emplace_back("time/env_s", rollouts.envSeconds);
    metrics.emplace_back("time/credit_s", creditSeconds);
    metrics.emplace_back("time/update_s", updateSeconds);
    metrics.emplace_back("time/eval_s", evalSeconds);
    metrics.emplace_back("time/store_s", secondsSince(storeStart));
    metrics.emplace_back("time/outage_s", outageSeconds); // waiting for a remote environment or judge to come back
    metrics.emplace_back("time/total_s", secondsSince(iterationStart));
    metrics.emplace_back("throughput/gen_tokens_per_s",
        rollouts.generationSeconds > 0 ? static_cast<double>(rollouts.generatedTokens) / rollouts.generationSeconds
                                       : 0.0);
    metrics.emplace_back("throughput/env_steps_per_s",
        rolloutSeconds > 0 ? static_cast<double>(rollouts.envSteps) / rolloutSeconds : 0.0);
    metrics.emplace_back("throughput/train_tokens_per_s",
        updateSeconds > 0 ? static_cast<double>(stats.trainedTokens) / updateSeconds : 0.0);
    store->writeMetrics(runId, it, metrics);
    if (it % config.getInt("checkpoint.every") == 0 || it == iterations)
        checkpoint();
    tx->commit();
    return metrics;
}

} // namespace creditlab::learn
