// Rollouts of the LM policy over many environments at once, and the SFT demonstrations.
#include "core/env/episode.h"
#include "core/env/policy.h"
#include "core/interchange/jsonlfile.h"
#include "core/learn/torch/engine/trainerstate.h"
#include "core/model/unavailable.h"

#include <algorithm>
#include <chrono>

namespace creditlab::learn {

namespace {
/// Window mode's prompts are built from CreditLab's own tokenizer; the config refuses window mode for a pretrained
/// policy (TrainConfig::parse), so this never throws in a run.
const Tokenizer& builtinTokenizer(const TokenFormat& format)
{
    if (format.builtin() == nullptr)
        throw std::invalid_argument(
            "policy.memory: window needs a built-in policy; a pretrained one runs in episode mode");
    return *format.builtin();
}
} // namespace

RolloutBatch collectRollouts(Transformer& policy, const TokenFormat& format, const RolloutSetup& setup,
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
    // Every episode's own sampling stream (trainsteps.h): one draw of `rng`, mixed with the episode's stream index.
    const std::uint64_t streamBase = rng.next();
    std::vector<Rng> episodeRngs;
    episodeRngs.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        Rng mixer(streamBase ^ (episodes[i].stream.value_or(i) * 0xd1b54a32d192ed03ULL));
        episodeRngs.emplace_back(mixer.next());
    }
    std::vector<Rng*> rowRngs;
    SamplingOptions sampling = setup.sampling;
    sampling.rowRngs = &rowRngs;
    const auto rowsOf = [&](const std::vector<std::size_t>& rows) {
        rowRngs.clear();
        for (std::size_t i : rows)
            rowRngs.push_back(&episodeRngs[i]);
    };
    torch::NoGradGuard noGrad;
    policy->eval();

    // One environment step of episode i with the action written as `tokens`; false when the episode has ended (done,
    // or its environment broke off). `span` is where the action sits in its sequence.
    const auto stepEpisode = [&](std::size_t i, const std::vector<std::int32_t>& tokens, TokenSpan span) -> bool {
        Trajectory& t = batch.trajectories[i];
        Turn turn;
        turn.observation = std::move(observations[i]);
        turn.action = format.actionText(tokens);
        const env::StepResult* step = nullptr;
        try {
            step = &envs[i]->step(turn.action);
        } catch (const std::runtime_error& e) {
            fail(i, e);
            return false;
        }
        const env::StepResult& r = *step;
        turn.feedback = r.feedback;
        turn.reward = 0.0;
        turn.valid = r.info.valid;
        turn.state = r.info.stateBefore;
        turn.progress = r.info.progress;
        // Where the action sits in the policy's sequence: what learned credit models and token views line up with.
        turn.tokens = span;
        observations[i] = r.feedback;
        batch.oracleRoles[i].push_back(r.info.role);
        batch.generatedTokens += static_cast<std::int64_t>(tokens.size());
        ++batch.envSteps;
        t.turns.push_back(std::move(turn));
        if (r.done) {
            t.success = r.success;
            t.reward = r.reward; // the outcome: 1 on success in household, WebShop's graded score in shop
            return false;
        }
        return true;
    };
    batch.finalContexts.resize(n);
    std::vector<std::vector<double>> logProbs(n); // per trajectory and turn: the sampled action's log-probability
    std::vector<std::vector<std::vector<float>>> tokenLogProbs(n); // per trajectory, turn and action token

    if (setup.episodeMemory) {
        // One stream per episode and one KV cache row per active episode, kept across turns.
        std::vector<std::optional<EpisodeStream>> streams(n);
        for (std::size_t i : active)
            streams[i].emplace(format.goal(*batch.trajectories[i].task.goal), setup.context, setup.sampling.maxTokens);
        // The cache starts small and grows on demand (doubling): a row holds its stream plus the padding of the turns'
        // chunks until compaction, and short episodes never need context-sized rows. Allocating 2 x context slots for
        // every row up front held 1.6 GB for a 200-episode evaluation of a 256-wide policy.
        constexpr std::int64_t kInitialCacheSlots = 256;
        KvCache cache = policy->makeCache(
            static_cast<std::int64_t>(active.size()), std::min<std::int64_t>(2 * setup.context, kInitialCacheSlots));
        std::vector<std::vector<std::int32_t>> chunks;
        std::vector<std::int32_t> fed;
        while (!active.empty()) {
            const auto genStart = Clock::now();
            chunks.assign(active.size(), {});
            for (std::size_t a = 0; a < active.size(); ++a) {
                EpisodeStream& stream = *streams[active[a]];
                if (stream.beginTurn(format.observation(observations[active[a]], stream.afterAction()))) {
                    clearCacheRow(cache, static_cast<std::int64_t>(a));
                    ++batch.overflows;
                }
                chunks[a] = stream.unfed();
                stream.markFed(static_cast<std::int32_t>(chunks[a].size()));
            }
            auto padded = padSequences(chunks, true, policy->parameters().front().device());
            const auto width = padded.tokens.size(1);
            if (cache.length + width + setup.sampling.maxTokens > cache.capacity)
                growCache(cache, std::max(2 * cache.capacity, cache.length + width + setup.sampling.maxTokens));
            auto last = policy->forwardLast(padded.tokens, padded.valid, cache); // left-padded: the last column
            rowsOf(active);
            auto generated
                = sampleActions(policy, cache, last, std::vector<bool>(active.size(), true), sampling, rng, &fed);
            batch.generationSeconds += secondsSince(genStart);

            const auto stepStart = Clock::now();
            std::vector<std::size_t> still;
            std::vector<std::int64_t> keepRows;
            for (std::size_t a = 0; a < active.size(); ++a) {
                const std::size_t i = active[a];
                EpisodeStream& stream = *streams[i];
                stream.markFed(fed[a]);
                const TokenSpan span { stream.actionBegin(),
                    stream.actionBegin() + static_cast<std::int32_t>(generated[a].tokens.size()) };
                const auto& tokens = generated[a].tokens;
                stream.endTurn(tokens);
                logProbs[i].push_back(generated[a].logProb);
                tokenLogProbs[i].push_back(std::move(generated[a].tokenLogProbs));
                if (stepEpisode(i, tokens, span)) {
                    still.push_back(i);
                    keepRows.push_back(static_cast<std::int64_t>(a));
                }
            }
            batch.envSeconds += secondsSince(stepStart);
            // Finished episodes leave the cache, and the padding slots of the turns' chunks go with them; a copy of
            // the whole cache, so only when an episode ended or padding has grown past a quarter of the slots.
            const auto compactStart = Clock::now();
            if (!still.empty()) {
                const bool left = still.size() < active.size();
                const double slots = static_cast<double>(cache.keyValid.size(0) * cache.length);
                const double valid = cache.keyValid.narrow(1, 0, cache.length).sum().item<double>();
                if (left || valid < 0.75 * slots)
                    compactCache(cache, keepRows);
            }
            active.swap(still);
            batch.generationSeconds += secondsSince(compactStart);
        }
        for (std::size_t i = 0; i < n; ++i) {
            if (!streams[i])
                continue;
            const std::size_t taken = batch.trajectories[i].turns.size();
            for (TrainSequence& s : streams[i]->finish(i)) {
                // An action whose step never happened (the environment broke off) is not a turn.
                std::erase_if(s.spans, [&](const ActionSpan& span) { return span.turn >= taken; });
                if (s.spans.empty())
                    continue;
                const std::size_t index = batch.sequences.size();
                for (std::size_t k = 0; k < s.spans.size(); ++k) {
                    batch.samples.push_back({ i, s.spans[k].turn, index, k, logProbs[i][s.spans[k].turn] });
                    const auto& sampled = tokenLogProbs[i][s.spans[k].turn];
                    s.behaviour.insert(s.behaviour.end(), sampled.begin(), sampled.end());
                }
                batch.sequences.push_back(std::move(s));
            }
            const auto& turns = batch.trajectories[i].turns;
            batch.finalContexts[i] = streams[i]->nextContext(
                format.observation(turns.empty() ? std::string() : turns.back().feedback.value_or(std::string()),
                    streams[i]->afterAction()));
        }
    } else {
        // Window mode (verl-agent): a fresh prompt per turn with the last policy.history turns.
        std::vector<std::vector<std::int32_t>> prompts;
        std::vector<std::vector<std::size_t>> sampleOf(n);
        std::vector<TrainSequence> sequences;
        while (!active.empty()) {
            const auto genStart = Clock::now();
            prompts.clear();
            for (std::size_t i : active)
                prompts.push_back(buildPrompt(builtinTokenizer(format), setup.prompt, *batch.trajectories[i].task.goal,
                    batch.trajectories[i].turns, observations[i]));
            rowsOf(active);
            auto generated = generate(policy, prompts, sampling, rng);
            batch.generationSeconds += secondsSince(genStart);

            const auto stepStart = Clock::now();
            std::vector<std::size_t> still;
            for (std::size_t a = 0; a < active.size(); ++a) {
                const std::size_t i = active[a];
                const auto promptLength = static_cast<std::int32_t>(prompts[a].size());
                const TokenSpan span { promptLength,
                    promptLength + static_cast<std::int32_t>(generated[a].tokens.size()) };
                const std::size_t turn = batch.trajectories[i].turns.size();
                const bool more = stepEpisode(i, generated[a].tokens, span);
                if (batch.trajectories[i].turns.size() > turn) { // the step happened
                    sampleOf[i].push_back(sequences.size());
                    logProbs[i].push_back(generated[a].logProb);
                    sequences.push_back(windowSequence(prompts[a], generated[a].tokens, i, turn));
                    sequences.back().behaviour = std::move(generated[a].tokenLogProbs);
                }
                if (more)
                    still.push_back(i);
            }
            active.swap(still);
            batch.envSeconds += secondsSince(stepStart);
        }
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t s : sampleOf[i]) {
                const std::size_t turn = sequences[s].spans.front().turn;
                batch.samples.push_back({ i, turn, batch.sequences.size(), 0, logProbs[i][turn] });
                batch.sequences.push_back(std::move(sequences[s]));
            }
            const auto& t = batch.trajectories[i];
            if (!t.turns.empty())
                batch.finalContexts[i] = buildPrompt(builtinTokenizer(format), setup.prompt,
                    t.task.goal.value_or(std::string()), t.turns, t.turns.back().feedback.value_or(std::string()));
        }
    }
    // Nothing to learn from: the environment is down (the trainer waits for it), or refuses every episode.
    if (n > 0 && static_cast<std::size_t>(batch.failed) == n) {
        if (batch.unavailable > 0)
            throw ServiceUnavailable(batch.lastError);
        throw std::runtime_error("every rollout failed; the last error: " + batch.lastError);
    }
    if (batch.failed > 0)
        logger()->warn(
            "{} of {} rollouts failed (stored, marked failed); the last error: {}", batch.failed, n, batch.lastError);
    return batch;
}

TrainSequence windowSequence(const std::vector<std::int32_t>& prompt, const std::vector<std::int32_t>& action,
    std::size_t trajectory, std::size_t turn)
{
    TrainSequence s;
    s.tokens = prompt;
    s.tokens.insert(s.tokens.end(), action.begin(), action.end());
    ActionSpan span;
    span.begin = static_cast<std::int32_t>(prompt.size());
    span.end = static_cast<std::int32_t>(s.tokens.size());
    span.from = span.begin - 1;
    span.turn = turn;
    s.spans.push_back(span);
    s.trajectory = trajectory;
    return s;
}

DemonstrationBuilder::DemonstrationBuilder(const TokenFormat& format, const RolloutSetup& setup)
    : m_format(format)
    , m_setup(setup)
{
}

void DemonstrationBuilder::beginEpisode(const std::string& goal)
{
    m_goal = goal;
    m_history.clear();
    m_branches.clear();
    m_stream.reset();
    if (m_setup.episodeMemory)
        m_stream.emplace(m_format.goal(goal), m_setup.context, m_setup.sampling.maxTokens);
}

void DemonstrationBuilder::addTurn(const std::string& observation, const std::string& taken, const std::string& label)
{
    std::vector<std::int32_t> labelIds = m_format.action(label);
    ++m_turns;
    if (!m_stream) {
        const auto prompt = buildPrompt(builtinTokenizer(m_format), m_setup.prompt, m_goal, m_history, observation);
        m_out.push_back(windowSequence(prompt, labelIds, m_episode, m_history.size()));
        Turn turn;
        turn.observation = observation;
        turn.action = taken;
        m_history.push_back(std::move(turn));
        return;
    }
    m_stream->beginTurn(m_format.observation(observation, m_stream->afterAction()));
    if (taken == label) {
        m_stream->endTurn(labelIds);
        return;
    }
    // The label trains on a branch from this turn's observation; the stream goes on with the action taken.
    m_branches.push_back({ m_stream->segmentIndex(), m_stream->actionBegin(), m_stream->turns(), std::move(labelIds) });
    m_stream->endTurn(m_format.action(taken), false);
}

void DemonstrationBuilder::endEpisode()
{
    if (m_stream) {
        auto segments = m_stream->finish(m_episode);
        for (const PendingBranch& b : m_branches) {
            auto it = std::find_if(
                segments.begin(), segments.end(), [&](const TrainSequence& s) { return s.segment == b.segment; });
            if (it == segments.end())
                continue;
            TrainSequence& s = *it;
            Branch branch;
            branch.begin = s.size();
            branch.end = branch.begin + static_cast<std::int32_t>(b.label.size());
            branch.forkAt = b.forkAt;
            s.tokens.insert(s.tokens.end(), b.label.begin(), b.label.end());
            s.branches.push_back(branch);
            ActionSpan span;
            span.begin = branch.begin;
            span.end = branch.end;
            span.from = b.forkAt - 1;
            span.turn = b.turn;
            s.spans.push_back(span);
        }
        for (TrainSequence& s : segments) {
            std::sort(s.spans.begin(), s.spans.end(),
                [](const ActionSpan& a, const ActionSpan& b) { return a.turn < b.turn; });
            if (!s.spans.empty())
                m_out.push_back(std::move(s));
        }
    }
    m_stream.reset();
    m_branches.clear();
    m_history.clear();
    ++m_episode;
}

std::vector<TrainSequence> collectDemonstrations(const TokenFormat& format, const RolloutSetup& setup,
    std::int64_t expertEpisodes, std::int64_t noisyEpisodes, double epsilon, bool search)
{
    DemonstrationBuilder builder(format, setup);
    auto environment = env::makeEnvironment(setup.env, setup.envAssignments);
    env::NoisyExpertPolicy noisy(epsilon);
    std::string expertAction;
    bool noExpert = false;
    const auto play = [&](std::uint64_t seed, bool useNoisy) {
        std::string observation = environment->reset(seed, env::Split::Train);
        noisy.reset(seed * 7919 + 1);
        builder.beginEpisode(environment->goal());
        bool first = true;
        while (!environment->done()) {
            if (!(search ? environment->searchExpertAction(expertAction) : environment->expertAction(expertAction))) {
                noExpert = first; // no action even at the start: the environment has no expert (remote)
                break;
            }
            first = false;
            const std::string taken = useNoisy ? std::string(noisy.act(*environment)) : expertAction;
            builder.addTurn(observation, taken, expertAction);
            observation = environment->step(taken).feedback;
        }
        builder.endEpisode();
    };
    for (std::int64_t k = 0; k < expertEpisodes && !noExpert; ++k)
        play(static_cast<std::uint64_t>(k), false);
    for (std::int64_t k = 0; k < noisyEpisodes && !noExpert; ++k)
        play(1'000'000ULL + static_cast<std::uint64_t>(k), true);
    if (noExpert) {
        logger()->warn("environment {} has no expert to demonstrate: no SFT; the policy starts from its initial "
                       "weights (sft.from_run starts it from an earlier run's SFT policy instead)",
            setup.env);
        return {};
    }
    return builder.take();
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

std::vector<TrainSequence> relabelWithDemonstrator(const TokenFormat& format, const RolloutSetup& setup,
    const std::vector<Trajectory>& trajectories, const std::vector<EpisodeSpec>& specs, bool search)
{
    DemonstrationBuilder builder(format, setup);
    auto environment = env::makeEnvironment(setup.env, setup.envAssignments);
    std::string label;
    for (std::size_t i = 0; i < trajectories.size() && i < specs.size(); ++i) {
        const Trajectory& t = trajectories[i];
        if (env::isFailed(t))
            continue;
        std::string observation = environment->reset(specs[i].seed, specs[i].split);
        builder.beginEpisode(environment->goal());
        for (const Turn& turn : t.turns) {
            if (environment->done()
                || !(search ? environment->searchExpertAction(label) : environment->expertAction(label)))
                break;
            builder.addTurn(observation, turn.action, label);
            observation = environment->step(turn.action).feedback;
        }
        builder.endEpisode();
    }
    return builder.take();
}

std::vector<TrainSequence> demonstrationsOf(
    const TokenFormat& format, const RolloutSetup& setup, std::span<const Trajectory> trajectories)
{
    DemonstrationBuilder builder(format, setup);
    for (const Trajectory& t : trajectories) {
        builder.beginEpisode(t.task.goal.value_or(std::string()));
        for (const Turn& turn : t.turns)
            builder.addTurn(turn.observation, turn.action, turn.action);
        builder.endEpisode();
    }
    return builder.take();
}

} // namespace creditlab::learn
