// The stages of one RL iteration (stages.h).
#include "core/learn/torch/engine/stages.h"

#include "core/credit/creditbatch.h"
#include "core/env/episode.h"
#include "core/storage/store.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>

namespace creditlab::learn {

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

std::vector<EpisodeSpec> iterationEpisodes(
    std::int64_t it, const std::vector<std::uint64_t>& taskSeeds, std::int64_t group)
{
    std::vector<EpisodeSpec> specs;
    specs.reserve(taskSeeds.size() * static_cast<std::size_t>(std::max<std::int64_t>(0, group)));
    for (std::size_t j = 0; j < taskSeeds.size(); ++j) {
        const std::string groupId = "it" + std::to_string(it) + "-t" + std::to_string(j);
        for (std::int64_t k = 0; k < group; ++k)
            specs.push_back({ taskSeeds[j], env::Split::Train, groupId + "-r" + std::to_string(k), groupId,
                static_cast<std::uint64_t>(specs.size()) });
    }
    return specs;
}

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

void applyVerdicts(std::vector<Trajectory>& trajectories, const std::vector<std::vector<judge::Verdict>>& verdicts,
    const std::string& roleSource, std::int64_t it)
{
    for (std::size_t i = 0; i < trajectories.size(); ++i) {
        auto& t = trajectories[i];
        t.iteration = it;
        if (i >= verdicts.size())
            continue;
        for (std::size_t k = 0; k < t.turns.size() && k < verdicts[i].size(); ++k) {
            const judge::Verdict& v = verdicts[i][k];
            t.turns[k].role = v.role;
            t.turns[k].roleSource = v.role ? std::optional<std::string>(v.source.value_or(roleSource)) : std::nullopt;
            t.turns[k].score = v.score;
        }
    }
}

std::vector<MethodCredits> computeCredits(const Batch& batch, const std::string& method,
    const std::vector<std::pair<std::string, std::string>>& assignments, bool shadow)
{
    const credit::Estimator& estimator = credit::requireEstimator(method);
    const auto params = estimator.resolve(assignments);
    estimator.validate(batch, params);
    std::vector<MethodCredits> credits;
    if (!shadow) {
        credits.push_back({ std::string(estimator.name()), params.canonical(), estimator.compute(batch, params) });
        return credits;
    }
    // With shadow credits every method runs on the same batch: its state and action keys are hashed once.
    const credit::CreditBatch columns(batch);
    credits.push_back({ std::string(estimator.name()), params.canonical(), estimator.compute(columns, params) });
    for (const auto* other : credit::estimators()) {
        if (other == &estimator)
            continue;
        try {
            const auto otherParams = other->resolve({});
            other->validate(batch, otherParams);
            credits.push_back(
                { std::string(other->name()), otherParams.canonical(), other->compute(columns, otherParams) });
        } catch (const std::exception& e) {
            spdlog::debug("shadow credit {} skipped: {}", other->name(), e.what());
        }
    }
    return credits;
}

Selection selectForUpdate(
    const Batch& batch, RolloutBatch& rollouts, const credit::CreditResult& result, const SelectOptions& options)
{
    Selection out;
    std::vector<bool> keep(batch.trajectories.size(), true);
    if (options.filterUniformGroups) {
        for (const auto& g : batch.groups) {
            bool uniform = true;
            for (auto m : g.members)
                uniform = uniform && batch.trajectories[m].reward == batch.trajectories[g.members.front()].reward;
            if (uniform) {
                ++out.filteredGroups;
                for (auto m : g.members)
                    keep[m] = false;
            }
        }
    }
    // A rollout the environment broke off (a remote server died) is stored but left out of the update: its turns
    // never reached an outcome. Its reward 0 still sits in its group's statistics.
    for (std::size_t i = 0; i < batch.trajectories.size(); ++i)
        if (env::isFailed(batch.trajectories[i])) {
            keep[i] = false;
            ++out.failedRollouts;
        }
    std::vector<double> advantages;
    for (const TurnSample& s : rollouts.samples)
        if (keep[s.trajectory]) {
            const double a = result.at(s.trajectory, s.turn);
            rollouts.sequences[s.sequence].spans[s.span].advantage = a;
            advantages.push_back(a);
            ++out.samples;
        }
    if (options.whiten && advantages.size() > 1) {
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
    for (auto& q : rollouts.sequences)
        if (keep[q.trajectory])
            out.sequences.push_back(std::move(q));
    double nonZero = 0.0;
    for (double a : result.advantages)
        nonZero += a != 0.0 ? 1.0 : 0.0;
    out.nonZeroShare = result.advantages.empty() ? 0.0 : nonZero / static_cast<double>(result.advantages.size());
    return out;
}

UpdateSettings updateSettings(const TrainConfig& config, double klCoef, bool critic)
{
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
    settings.loss.klCoef = klCoef;
    settings.loss.entropyCoef = config.getDouble("rl.entropy_coef");
    settings.critic = critic;
    settings.gamma = config.getDouble("critic.gamma");
    settings.lambda = config.getDouble("critic.lambda");
    settings.trajectoryGae = config.getText("critic.mode") == "trajectory";
    return settings;
}

std::vector<std::pair<std::string, double>> rolloutMetrics(
    const Batch& batch, const std::vector<std::vector<std::optional<Role>>>& oracleRoles)
{
    std::vector<std::pair<std::string, double>> m;
    double success = 0.0, reward = 0.0, turns = 0.0, invalid = 0.0, successTurns = 0.0;
    double roles[4] = { 0, 0, 0, 0 };
    double labelled = 0.0;
    for (std::size_t i = 0; i < batch.trajectories.size(); ++i) {
        const auto& t = batch.trajectories[i];
        success += t.successOrDefault() ? 1.0 : 0.0;
        reward += t.reward;
        turns += static_cast<double>(t.turns.size());
        successTurns += t.successOrDefault() ? static_cast<double>(t.turns.size()) : 0.0;
        for (const auto& turn : t.turns)
            invalid += turn.validOrDefault() ? 0.0 : 1.0;
        if (i < oracleRoles.size())
            for (const auto& role : oracleRoles[i])
                if (role) {
                    roles[static_cast<int>(*role)] += 1.0;
                    labelled += 1.0;
                }
    }
    const double n = std::max<double>(1.0, static_cast<double>(batch.trajectories.size()));
    m.emplace_back("rollout/success", success / n);
    m.emplace_back("rollout/return", reward / n);
    m.emplace_back("rollout/turns", turns / n);
    if (success > 0.0) // only where an episode succeeded
        m.emplace_back("rollout/success_turns", successTurns / success);
    m.emplace_back("rollout/invalid_rate", turns > 0 ? invalid / turns : 0.0);
    const char* names[4] = { "role/D", "role/E", "role/N", "role/R" };
    for (int r = 0; r < 4; ++r)
        m.emplace_back(names[r], labelled > 0 ? roles[r] / labelled : 0.0);
    return m;
}

std::vector<std::vector<TokenSegment>> tokenSegments(const TokenFormat& format, std::size_t trajectories,
    std::int64_t limit, const std::vector<TrainSequence>& trained, const UpdateTrace& trace,
    const std::vector<TrainSequence>& untrained)
{
    const std::size_t stored = limit < 0 ? trajectories : std::min(trajectories, static_cast<std::size_t>(limit));
    std::vector<std::vector<TokenSegment>> out(stored);
    std::vector<std::vector<std::pair<std::size_t, std::size_t>>> order(stored); // (segment, first turn)
    std::vector<bool> hasTrained(trajectories, false);
    for (const TrainSequence& q : trained)
        if (q.trajectory < trajectories)
            hasTrained[q.trajectory] = true;
    constexpr float kNone = std::numeric_limits<float>::quiet_NaN();
    const auto add
        = [&](const TrainSequence& q, const std::vector<float>* current, const std::vector<float>* advantage) {
              if (q.trajectory >= stored)
                  return;
              TokenSegment s;
              const auto n = static_cast<std::size_t>(q.size());
              s.tokens = q.tokens;
              s.pieces.reserve(n);
              for (const std::int32_t id : q.tokens)
                  s.pieces.push_back(format.tokenText(id));
              s.turns.assign(n, -1);
              s.mask.assign(n, 0);
              s.behaviour.assign(n, kNone);
              s.current.assign(n, kNone);
              s.advantage.assign(n, kNone);
              std::size_t c = 0;
              for (const ActionSpan& span : q.spans)
                  for (std::int32_t t = span.begin; t < span.end; ++t, ++c) {
                      const auto at = static_cast<std::size_t>(t);
                      s.turns[at] = static_cast<std::int32_t>(span.turn);
                      if (c < q.behaviour.size())
                          s.behaviour[at] = q.behaviour[c];
                      if (current && c < current->size()) {
                          s.mask[at] = 1;
                          s.current[at] = (*current)[c];
                          s.advantage[at] = advantage && c < advantage->size() ? (*advantage)[c] : kNone;
                      }
                  }
              order[q.trajectory].emplace_back(
                  static_cast<std::size_t>(q.segment), q.spans.empty() ? 0 : q.spans.front().turn);
              out[q.trajectory].push_back(std::move(s));
          };
    for (std::size_t k = 0; k < trained.size(); ++k)
        add(trained[k], k < trace.current.size() ? &trace.current[k] : nullptr,
            k < trace.advantage.size() ? &trace.advantage[k] : nullptr);
    for (const TrainSequence& q : untrained)
        if (q.trajectory < trajectories && !hasTrained[q.trajectory] && !q.tokens.empty())
            add(q, nullptr, nullptr);
    for (std::size_t i = 0; i < stored; ++i) {
        std::vector<std::size_t> index(out[i].size());
        std::iota(index.begin(), index.end(), 0);
        std::stable_sort(
            index.begin(), index.end(), [&](std::size_t a, std::size_t b) { return order[i][a] < order[i][b]; });
        std::vector<TokenSegment> sorted;
        for (std::size_t k = 0; k < index.size(); ++k) {
            sorted.push_back(std::move(out[i][index[k]]));
            sorted.back().segment = static_cast<int>(k);
        }
        out[i] = std::move(sorted);
    }
    return out;
}

std::pair<double, double> logProbDrift(const std::vector<TrainSequence>& trained, const UpdateTrace& trace)
{
    double sum = 0.0, largest = 0.0, count = 0.0;
    for (std::size_t k = 0; k < trained.size() && k < trace.current.size(); ++k) {
        const auto& behaviour = trained[k].behaviour;
        const auto& current = trace.current[k];
        for (std::size_t c = 0; c < behaviour.size() && c < current.size(); ++c) {
            const double d = std::abs(static_cast<double>(behaviour[c]) - static_cast<double>(current[c]));
            sum += d;
            largest = std::max(largest, d);
            count += 1.0;
        }
    }
    return { count > 0.0 ? sum / count : 0.0, largest };
}

void recordIteration(Store& store, const IterationRecord& record)
{
    const Batch& batch = *record.batch;
    std::vector<std::string> details;
    for (std::size_t i = 0; i < batch.trajectories.size(); ++i) {
        const auto& t = batch.trajectories[i];
        const auto rowId = store.insertTrajectory(record.runId, record.ordinalBase + static_cast<std::int64_t>(i), t);
        for (std::size_t k = 0; k < t.turns.size(); ++k) {
            JudgeLabel label;
            label.trajectoryRowId = rowId;
            label.turn = static_cast<int>(k);
            if (record.oracleRoles && i < record.oracleRoles->size() && k < (*record.oracleRoles)[i].size()
                && (*record.oracleRoles)[i][k]) {
                label.judge = "oracle";
                label.role = *(*record.oracleRoles)[i][k];
                store.setJudgeLabel(label);
            }
            if (record.judgeTag != "oracle" && t.turns[k].role) {
                label.judge = record.judgeTag;
                label.role = *t.turns[k].role;
                if (record.verdicts && i < record.verdicts->size() && k < (*record.verdicts)[i].size()) {
                    label.rationale = (*record.verdicts)[i][k].rationale; // the judge's evidence (http)
                    label.confidence = (*record.verdicts)[i][k].confidence;
                }
                store.setJudgeLabel(label);
            }
        }
        if (record.tokens && i < record.tokens->size() && !(*record.tokens)[i].empty())
            store.writeTokenSegments(rowId, (*record.tokens)[i]);
        if (!record.credits)
            continue;
        for (const auto& c : *record.credits) {
            details.clear();
            for (std::size_t k = c.result.offsets[i]; k < c.result.offsets[i + 1]; ++k)
                details.push_back(c.result.turnDetailsJson(k));
            store.writeCredits(rowId, c.name,
                std::span<const double>(
                    c.result.advantages.data() + c.result.offsets[i], c.result.offsets[i + 1] - c.result.offsets[i]),
                details, c.params);
        }
    }
}

} // namespace creditlab::learn
