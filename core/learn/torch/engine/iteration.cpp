// One RL iteration: the stages of stages.h strung together, with the learned credit model's hooks
// (learnedcredit.h), evaluation and metrics.
#include "core/judge/httpjudge.h"
#include "core/judge/humanjudge.h"
#include "core/learn/api/runtime.h"
#include "core/learn/torch/engine/ranks.h"
#include "core/learn/torch/engine/stages.h"
#include "core/learn/torch/engine/trainerstate.h"

#include <cstring>
#include <stdexcept>

namespace creditlab::learn {

std::vector<std::pair<std::string, double>> Trainer::Impl::runIteration()
{
    const auto iterationStart = Clock::now();
    const double callbackAtStart = callbackSeconds; // the evaluation's report may hold a paused run: not counted
    const std::int64_t it = iteration + 1;
    Metrics metrics;
    iterationRng = rng.state();
    outageSeconds = 0.0;

    // Sample: distinct train tasks, G rollouts each, all at once.
    std::vector<std::uint64_t> pool;
    if (config.getText("rl.task_pool") == "labelled") {
        std::optional<std::string> error;
        if (writer()) { // rank 0 reads the store; a data-parallel run's other ranks get its pool
            pool = labelledTrainSeeds(*store, config.envName());
            if (pool.empty())
                error = "rl.task_pool=labelled: no " + config.envName() + " train task in " + options.database
                    + " carries human labels; label some turns (Annotate tab) or import labels";
        }
        std::string bytes(reinterpret_cast<const char*>(pool.data()), pool.size() * sizeof(std::uint64_t));
        if (const auto failed = dist::broadcastResult(*comm, bytes, error))
            throw std::runtime_error(*failed);
        pool.resize(bytes.size() / sizeof(std::uint64_t));
        std::memcpy(pool.data(), bytes.data(), pool.size() * sizeof(std::uint64_t));
    }
    const auto taskSeeds = sampleTaskSeeds(config.getInt("rl.tasks"), std::move(pool), rng);
    const auto groupSize = static_cast<std::size_t>(config.getInt("rl.group_size"));
    const auto specs = iterationEpisodes(it, taskSeeds, config.getInt("rl.group_size"));
    // A data-parallel rank rolls out its share of the task groups (whole groups), then every rank holds them all.
    const auto [firstGroup, endGroup] = shareOf(taskSeeds.size(), comm->rank(), comm->world());
    const std::vector<EpisodeSpec> mySpecs(specs.begin() + static_cast<std::ptrdiff_t>(firstGroup * groupSize),
        specs.begin() + static_cast<std::ptrdiff_t>(endGroup * groupSize));
    // A server outage rolls the batch out again once it is back, from the same Rng state: the same episodes.
    const auto rolloutRng = rng.state();
    auto rollouts = gatherRollouts(*comm, throughOutages("the environment server", [&] {
        rng.setState(rolloutRng);
        return collectRollouts(policy, *format, setup, mySpecs, rng);
    }));

    // Judge every turn (the trained method or the shadow methods may need roles and scores). One call for the whole
    // batch, so that a judge that calls out (http) overlaps its requests across it. An endpoint outage judges the
    // batch again once it is back (the answers that came are cached).
    const auto creditStart = Clock::now();
    const auto batchVerdicts = throughOutages("the judge endpoint", [&] {
        judge->restart(static_cast<std::uint64_t>(it));
        return judge->judgeBatch(rollouts.trajectories, rollouts.oracleRoles);
    });
    applyVerdicts(rollouts.trajectories, batchVerdicts, "judge:" + judge->tag(), it);

    // The learned credit model annotates the batch from the acting policy's hidden states of these very rollouts (the
    // ranks of a data-parallel run share the passes out: learnedcredit.h).
    const UpdateShard shard { comm.get(), firstGroup * groupSize, endGroup * groupSize };
    if (learned) {
        if (!learnedReady) {
            learned->afterSft(metrics);
            learnedReady = true;
        }
        std::optional<TurnStates> states;
        if (learned->needs() != TurnStateNeed::None) {
            const auto hiddenStart = Clock::now();
            states = extractTurnStates(policy, *format, rollouts,
                PassLimit { config.getInt("rl.micro_batch"), config.getInt("rl.micro_tokens") }, device,
                learned->needs() == TurnStateNeed::TurnsAndFinals, comm.get());
            metrics.emplace_back("time/hidden_s", secondsSince(hiddenStart));
        }
        learned->annotate(rollouts, states ? &*states : nullptr, shard, it, metrics);
    }
    Batch batch = Batch::fromTrajectories(std::move(rollouts.trajectories));

    // Credit: the trained method, then every other method on the same batch (shadow credits).
    const auto credits
        = computeCredits(batch, config.method(), config.creditAssignments(), config.getBool("credit.shadow"));
    const double creditSeconds = secondsSince(creditStart);

    // Select: each kept turn's advantage onto its action's span.
    Selection selection = [&] {
        SelectOptions o;
        o.filterUniformGroups = config.getBool("rl.filter_uniform_groups");
        o.whiten = config.getBool("rl.whiten_advantages");
        return selectForUpdate(batch, rollouts, credits.front().result, o);
    }();
    auto sequences = std::move(selection.sequences);

    // Update: PPO, then the learned credit model's own training.
    const auto updateStart = Clock::now();
    UpdateTrace trace;
    UpdateSettings settings = updateSettings(config, kl.coef, static_cast<bool>(critic));
    settings.shard = shard;
    const auto stats = ppoUpdate(policy, reference, *optimizer, critic ? &critic : nullptr, criticOptimizer.get(),
        sequences, settings, rng, &trace);
    kl.update(stats.kl, static_cast<std::int64_t>(selection.samples));
    const double updateSeconds = secondsSince(updateStart);
    if (learned)
        learned->trainAfterUpdate(it, metrics);
    iteration = it;

    for (auto& m : rolloutMetrics(batch, rollouts.oracleRoles))
        metrics.push_back(std::move(m));
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
    metrics.emplace_back("credit/nonzero_share", selection.nonZeroShare);
    metrics.emplace_back("train/policy_loss", stats.policyLoss);
    metrics.emplace_back("train/kl", stats.kl);
    metrics.emplace_back("train/kl_coef", kl.coef);
    metrics.emplace_back("train/entropy", stats.entropy);
    metrics.emplace_back("train/clip_frac", stats.clipFraction);
    metrics.emplace_back("train/grad_norm", stats.gradNorm);
    metrics.emplace_back("train/approx_kl", stats.approxKl);
    const auto [drift, driftMax] = logProbDrift(sequences, trace);
    metrics.emplace_back("train/logprob_drift", drift);
    metrics.emplace_back("train/logprob_drift_max", driftMax);
    if (critic)
        metrics.emplace_back("train/value_loss", stats.valueLoss);
    metrics.emplace_back("train/samples", static_cast<double>(selection.samples));
    metrics.emplace_back("train/sequences", static_cast<double>(sequences.size()));
    metrics.emplace_back("rollout/overflows", static_cast<double>(rollouts.overflows));
    metrics.emplace_back("train/filtered_groups", static_cast<double>(selection.filteredGroups));
    metrics.emplace_back("train/failed_rollouts", static_cast<double>(selection.failedRollouts));

    // Evaluate greedily on held-out tasks.
    const auto evalStart = Clock::now();
    const double callbackBeforeEval = callbackSeconds;
    const auto iterations = config.getInt("rl.iterations");
    const bool evaluating = it % config.getInt("eval.every") == 0 || it == iterations;
    if (evaluating)
        evaluate(metrics, it);
    if (evaluating)
        releaseFreeMemory(); // the evaluation's KV cache (one row per episode) is the largest transient of a run
    const double evalSeconds = activeSecondsSince(evalStart, callbackBeforeEval);

    // Record the iteration in one transaction (rank 0; the other ranks hold the same metrics).
    const auto storeStart = Clock::now();
    std::unique_ptr<Transaction> tx;
    if (writer())
        tx = store->begin();
    IterationRecord record;
    record.runId = runId;
    record.iteration = it;
    record.ordinalBase = (it - 1) * static_cast<std::int64_t>(batch.trajectories.size());
    record.batch = &batch;
    record.oracleRoles = &rollouts.oracleRoles;
    record.verdicts = &batchVerdicts;
    record.judgeTag = judge->tag();
    record.credits = &credits;
    const auto tokens = tokenSegments(
        *format, batch.trajectories.size(), config.getInt("rl.store_tokens"), sequences, trace, rollouts.sequences);
    record.tokens = &tokens;
    if (writer())
        recordIteration(*store, record);
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
    metrics.emplace_back("time/total_s", activeSecondsSince(iterationStart, callbackAtStart));
    metrics.emplace_back("throughput/gen_tokens_per_s",
        rollouts.generationSeconds > 0 ? static_cast<double>(rollouts.generatedTokens) / rollouts.generationSeconds
                                       : 0.0);
    metrics.emplace_back("throughput/env_steps_per_s",
        rolloutSeconds > 0 ? static_cast<double>(rollouts.envSteps) / rolloutSeconds : 0.0);
    metrics.emplace_back("throughput/train_tokens_per_s",
        updateSeconds > 0 ? static_cast<double>(stats.trainedTokens) / updateSeconds : 0.0);
    metrics.emplace_back(std::string(metricnames::kDeviceMemory), peakMemoryGiB(device.str()));
    if (distributed())
        metrics.emplace_back("dist/ranks", static_cast<double>(comm->world()));
    const bool checkpointed = it % config.getInt("checkpoint.every") == 0 || it == iterations;
    if (writer()) {
        store->writeMetrics(runId, it, metrics);
        if (checkpointed)
            checkpoint();
        tx->commit();
    }
    if (checkpointed)
        removeStaleCheckpoints();
    return metrics;
}

} // namespace creditlab::learn
