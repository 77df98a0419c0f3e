// Rollouts of the LM policy over many environments at once, and the SFT demonstrations.
#include "core/env/episode.h"
#include "core/env/policy.h"
#include "core/jsonlfile.h"
#include "core/learn/trainer_impl.h"
#include "core/unavailable.h"

#include <chrono>

namespace creditlab::learn {

namespace {

/// The action text of generated tokens: the stop token and specials dropped.
std::string actionText(const Tokenizer& tokenizer, const std::vector<std::int32_t>& tokens)
{
    std::vector<std::int32_t> body;
    body.reserve(tokens.size());
    for (auto t : tokens)
        if (t >= Tokenizer::kSpecialCount || t == Tokenizer::kUnk)
            body.push_back(t);
    return tokenizer.decode(body);
}
} // namespace

RolloutBatch collectRollouts(Transformer& policy, const Tokenizer& tokenizer, const RolloutSetup& setup,
    const std::vector<EpisodeSpec>& episodes, Rng& rng)
{
    RolloutBatch batch;
    const std::size_t n = episodes.size();
    std::vector<std::unique_ptr<env::Environment>> envs;
    std::vector<std::string> observations(n);
    batch.trajectories.resize(n);
    batch.oracleRoles.resize(n);
    // An environment that breaks off (std::runtime_error: a remote server died) fails that trajectory only: it
    // ends there, marked failed (env::markFailed), is stored with the others, and the update leaves it out.
    std::vector<std::size_t> active;
    const auto fail = [&](std::size_t i, const std::runtime_error& error) {
        env::markFailed(batch.trajectories[i], error.what());
        logger()->debug("rollout {} failed: {}", batch.trajectories[i].id, error.what()); // one warning per batch
        ++batch.failed;
        if (dynamic_cast<const ServiceUnavailable*>(&error))
            ++batch.unavailable;
        batch.lastError = error.what();
    };
    auto envStart = Clock::now();
    for (std::size_t i = 0; i < n; ++i) {
        envs.push_back(env::makeEnvironment(setup.env, setup.envAssignments));
        std::optional<std::runtime_error> error;
        std::optional<ServiceUnavailable> down;
        try {
            observations[i] = envs[i]->reset(episodes[i].seed, episodes[i].split);
        } catch (const ServiceUnavailable& e) {
            down = e;
        } catch (const std::runtime_error& e) {
            error = e;
        }
        Trajectory& t = batch.trajectories[i];
        const std::string key = envs[i]->taskKey();
        t.id = episodes[i].id.empty() ? key : episodes[i].id;
        t.group = episodes[i].group.empty() ? key : episodes[i].group;
        t.task.key = key;
        t.task.env = std::string(envs[i]->name());
        t.task.goal = envs[i]->goal();
        t.reward = 0.0;
        t.success = false;
        if (down)
            fail(i, *down);
        else if (error)
            fail(i, *error);
        else
            active.push_back(i);
    }
    batch.envSeconds += secondsSince(envStart);
    torch::NoGradGuard noGrad;
    policy->eval();
    std::vector<std::vector<std::int32_t>> prompts;
    while (!active.empty()) {
        const auto genStart = Clock::now();
        prompts.clear();
        for (std::size_t i : active)
            prompts.push_back(buildPrompt(tokenizer, setup.prompt, *batch.trajectories[i].task.goal,
                batch.trajectories[i].turns, observations[i]));
        auto generated = generate(policy, prompts, setup.sampling, rng);
        batch.generationSeconds += secondsSince(genStart);

        const auto stepStart = Clock::now();
        std::vector<std::size_t> still;
        for (std::size_t a = 0; a < active.size(); ++a) {
            const std::size_t i = active[a];
            Trajectory& t = batch.trajectories[i];
            Turn turn;
            turn.observation = std::move(observations[i]);
            turn.action = actionText(tokenizer, generated[a].tokens);
            const env::StepResult* step = nullptr;
            try {
                step = &envs[i]->step(turn.action);
            } catch (const std::runtime_error& e) {
                fail(i, e);
                continue;
            }
            const env::StepResult& r = *step;
            turn.feedback = r.feedback;
            turn.reward = 0.0;
            turn.valid = r.info.valid;
            turn.state = r.info.stateBefore;
            turn.progress = r.info.progress;
            // Where the action sits in the policy's sequence (prompt, then action): what learned credit models
            // and token-level views line up with.
            turn.tokens = TokenSpan { static_cast<std::int32_t>(prompts[a].size()),
                static_cast<std::int32_t>(prompts[a].size() + generated[a].tokens.size()) };
            observations[i] = r.feedback;
            batch.oracleRoles[i].push_back(r.info.role);
            batch.samples.push_back({ std::move(prompts[a]), std::move(generated[a].tokens), i, t.turns.size() });
            batch.generatedTokens += static_cast<std::int64_t>(batch.samples.back().action.size());
            ++batch.envSteps;
            t.turns.push_back(std::move(turn));
            if (r.done) {
                t.success = r.success;
                t.reward = r.reward; // the outcome: 1 on success in household, WebShop's graded score in shop
            } else {
                still.push_back(i);
            }
        }
        active.swap(still);
        batch.envSeconds += secondsSince(stepStart);
    }
    // Nothing to learn from: the environment is down (the trainer waits for it), or refuses every episode.
    if (n > 0 && static_cast<std::size_t>(batch.failed) == n) {
        if (batch.unavailable > 0)
            throw ServiceUnavailable(batch.lastError);
        throw std::runtime_error("every rollout failed; the last error: " + batch.lastError);
    }
    if (batch.failed > 0)
        logger()->warn("{} of {} rollouts failed (stored, marked failed); the last error: {}", batch.failed, n,
            batch.lastError);
    return batch;
}

std::vector<Demonstration> collectDemonstrations(const Tokenizer& tokenizer, const RolloutSetup& setup,
    std::int64_t expertEpisodes, std::int64_t noisyEpisodes, double epsilon, bool search)
{
    std::vector<Demonstration> out;
    auto environment = env::makeEnvironment(setup.env, setup.envAssignments);
    env::NoisyExpertPolicy noisy(epsilon);
    std::string expertAction;
    bool noExpert = false;
    const auto play = [&](std::uint64_t seed, bool useNoisy) {
        std::string observation = environment->reset(seed, env::Split::Train);
        noisy.reset(seed * 7919 + 1);
        std::vector<Turn> turns;
        while (!environment->done()) {
            if (!(search ? environment->searchExpertAction(expertAction) : environment->expertAction(expertAction))) {
                noExpert = turns.empty(); // no action even at the start: the environment has no expert (remote)
                break;
            }
            Demonstration d;
            d.prompt = buildPrompt(tokenizer, setup.prompt, environment->goal(), turns, observation);
            tokenizer.encode(expertAction, d.action);
            d.action.push_back(Tokenizer::kEnd);
            out.push_back(std::move(d));
            Turn turn;
            turn.observation = std::move(observation);
            turn.action = useNoisy ? std::string(noisy.act(*environment)) : expertAction;
            const auto& r = environment->step(turn.action);
            observation = r.feedback;
            turns.push_back(std::move(turn));
        }
    };
    for (std::int64_t k = 0; k < expertEpisodes && !noExpert; ++k)
        play(static_cast<std::uint64_t>(k), false);
    for (std::int64_t k = 0; k < noisyEpisodes && !noExpert; ++k)
        play(1'000'000ULL + static_cast<std::uint64_t>(k), true);
    if (noExpert)
        logger()->warn("environment {} has no expert to demonstrate: no SFT; the policy starts from its initial "
                       "weights (sft.from_run starts it from an earlier run's SFT policy instead)",
            setup.env);
    return out;
}

std::vector<Trajectory> readDemonstrationFile(const std::string& path)
{
    std::vector<Trajectory> out;
    JsonlFileReader reader(path);
    Trajectory t;
    std::size_t all = 0;
    while (reader.next(t)) {
        ++all;
        if (t.successOrDefault() && !t.turns.empty())
            out.push_back(std::move(t));
        t = Trajectory();
    }
    if (out.empty())
        throw std::runtime_error("sft.demonstrations: " + path + ": none of its " + std::to_string(all)
            + " trajectories succeeded (\"success\": true, or a positive reward) with at least one turn");
    return out;
}

std::vector<Demonstration> demonstrationsOf(
    const Tokenizer& tokenizer, const RolloutSetup& setup, std::span<const Trajectory> trajectories)
{
    std::vector<Demonstration> out;
    std::vector<Turn> earlier;
    for (const Trajectory& t : trajectories) {
        const std::string goal = t.task.goal.value_or(std::string());
        earlier.clear();
        for (const Turn& turn : t.turns) {
            Demonstration d;
            d.prompt = buildPrompt(tokenizer, setup.prompt, goal, earlier, turn.observation);
            tokenizer.encode(turn.action, d.action);
            d.action.push_back(Tokenizer::kEnd);
            out.push_back(std::move(d));
            earlier.push_back(turn);
        }
    }
    return out;
}

} // namespace creditlab::learn
