// The trainer's evaluation: greedy episodes on eval.split's tasks, shared out over the ranks, their metrics (success,
// turns, invalid and repeated actions) and, with eval.store, the episodes stored beside the iteration's.
#include "core/learn/torch/engine/ranks.h"
#include "core/learn/torch/engine/trainerstate.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace creditlab::learn {

double Trainer::Impl::evaluate(std::vector<std::pair<std::string, double>>& metrics, std::int64_t it)
{
    evalEpisodes.clear();
    const auto episodes = config.getInt("eval.episodes");
    if (episodes == 0)
        return std::nan("");
    {
        TrainProgress p;
        p.phase = Phase::Eval;
        p.iteration = it;
        p.iterations = config.getInt("rl.iterations");
        p.steps = episodes;
        p.elapsedSeconds = lastElapsed;
        p.etaSeconds = lastEta;
        p.message = "evaluating " + std::to_string(episodes) + " episodes";
        if (!report(p) || (runStop && runStop->load()))
            stopRequested = true; // the evaluation still runs: its iteration (or SFT) is almost done
    }
    const bool onTrain = config.getText("eval.split") == "train";
    std::vector<EpisodeSpec> specs;
    for (std::int64_t k = 0; k < episodes; ++k)
        specs.push_back({ static_cast<std::uint64_t>(k), onTrain ? env::Split::Train : env::Split::Eval,
            "eval-it" + std::to_string(it) + "-" + std::to_string(k), "eval-it" + std::to_string(it) });
    RolloutSetup greedy = setup;
    greedy.sampling.greedy = true;
    // A data-parallel rank plays its share of the episodes; every rank then holds them all.
    const auto [firstEpisode, endEpisode] = shareOf(specs.size(), comm->rank(), comm->world());
    specs = std::vector<EpisodeSpec>(specs.begin() + static_cast<std::ptrdiff_t>(firstEpisode),
        specs.begin() + static_cast<std::ptrdiff_t>(endEpisode));
    RolloutBatch batch;
    try {
        batch = throughOutages("the environment server", [&] {
            Rng evalRng(0); // greedy decoding draws nothing; keep the run's stream untouched
            // In chunks of rows: one KV cache row per episode, and 200 episodes of a 256-wide policy at once held
            // gigabytes (with the allocator's fragmentation, two such runs in one process outgrew 24 GB).
            constexpr std::size_t kEvalRows = 64;
            RolloutBatch b;
            for (std::size_t begin = 0; begin < specs.size(); begin += kEvalRows) {
                const std::vector<EpisodeSpec> chunk(specs.begin() + static_cast<std::ptrdiff_t>(begin),
                    specs.begin() + static_cast<std::ptrdiff_t>(std::min(specs.size(), begin + kEvalRows)));
                auto part = collectRollouts(policy, *format, greedy, chunk, evalRng);
                for (auto& t : part.trajectories)
                    b.trajectories.push_back(std::move(t));
                b.overflows += part.overflows;
                b.generatedTokens += part.generatedTokens;
                b.envSteps += part.envSteps;
                b.generationSeconds += part.generationSeconds;
                b.envSeconds += part.envSeconds;
                b.failed += part.failed;
                b.unavailable += part.unavailable;
                if (!part.lastError.empty())
                    b.lastError = part.lastError;
            }
            // Episodes the server broke off would count as failures of the policy: evaluate again once it is back.
            if (b.unavailable > 0)
                throw ServiceUnavailable(std::to_string(b.unavailable) + " of " + std::to_string(episodes)
                    + " evaluation episodes lost the server: " + b.lastError);
            b.oracleRoles.resize(b.trajectories.size());
            b.finalContexts.resize(b.trajectories.size());
            return b;
        });
        batch = gatherRollouts(*comm, std::move(batch));
    } catch (const StopWaiting&) {
        logger()->warn("evaluation skipped: the run was stopped while waiting for the environment server");
        return std::nan("");
    }
    double success = 0.0, turns = 0.0, invalid = 0.0, reward = 0.0;
    // Closed-loop imitation: of the actions that name an object or a place (take, open, go to), the share the
    // environment accepted in the state they were issued in; and the share of turns that repeat an earlier
    // (observation, action) pair of the same episode (a loop).
    double objectActions = 0.0, objectValid = 0.0, repeats = 0.0;
    double successTurns = 0.0; // turns of the successful episodes: does credit make completed rollouts shorter
    for (auto& t : batch.trajectories) {
        success += t.successOrDefault() ? 1.0 : 0.0;
        reward += t.reward;
        turns += static_cast<double>(t.turns.size());
        successTurns += t.successOrDefault() ? static_cast<double>(t.turns.size()) : 0.0;
        std::set<std::pair<std::string, std::string>> seen;
        for (const auto& turn : t.turns) {
            invalid += turn.validOrDefault() ? 0.0 : 1.0;
            const auto& a = turn.action;
            if (a.rfind("take ", 0) == 0 || a.rfind("open ", 0) == 0 || a.rfind("go to ", 0) == 0) {
                objectActions += 1.0;
                objectValid += turn.validOrDefault() ? 1.0 : 0.0;
            }
            if (!seen.insert({ turn.observation, a }).second)
                repeats += 1.0;
        }
        t.iteration = it;
        t.extra = R"("eval": true, "split": ")" + std::string(onTrain ? "train" : "eval") + "\"";
    }
    const double n = static_cast<double>(batch.trajectories.size());
    metrics.emplace_back("eval/success", success / n);
    metrics.emplace_back("eval/return", reward / n); // the graded outcome: WebShop's score in shop, else success
    metrics.emplace_back("eval/turns", turns / n);
    if (success > 0.0) // only where an episode succeeded
        metrics.emplace_back("eval/success_turns", successTurns / success);
    metrics.emplace_back("eval/invalid_rate", turns > 0 ? invalid / turns : 0.0);
    metrics.emplace_back("eval/object_action_valid", objectActions > 0 ? objectValid / objectActions : 0.0);
    metrics.emplace_back("eval/repeat_rate", turns > 0 ? repeats / turns : 0.0);
    metrics.emplace_back("eval/overflows", static_cast<double>(batch.overflows));
    lastEval = success / n;
    if (config.getBool("eval.store"))
        evalEpisodes = std::move(batch.trajectories);
    return success / n;
}

void Trainer::Impl::storeEvalEpisodes(std::int64_t it)
{
    // After the iteration's training trajectories (ord), under ids eval-it<N>-<k> and group eval-it<N>.
    const auto perIteration = config.getInt("rl.tasks") * config.getInt("rl.group_size");
    const std::int64_t ordBase = it * perIteration;
    if (!writer()) {
        evalEpisodes.clear();
        return;
    }
    for (std::size_t k = 0; k < evalEpisodes.size(); ++k)
        store->insertTrajectory(runId, ordBase + static_cast<std::int64_t>(k), evalEpisodes[k], true);
    evalEpisodes.clear();
}

} // namespace creditlab::learn
