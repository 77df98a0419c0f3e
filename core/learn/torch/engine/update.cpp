// Sequence batches, SFT epochs and the PPO update (with the optional critic and GAE), in both memory modes.
#include "core/learn/torch/dist/dataparallel.h"
#include "core/learn/torch/engine/ranks.h"
#include "core/learn/torch/engine/trainsteps.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace creditlab::learn {

SequenceBatch makeSequenceBatch(const std::vector<const TrainSequence*>& rows, const torch::Device& device)
{
    const auto n = static_cast<std::int64_t>(rows.size());
    std::int64_t width = 1, actionWidth = 1;
    bool branched = false;
    for (const TrainSequence* s : rows) {
        width = std::max<std::int64_t>(width, s->size());
        actionWidth = std::max<std::int64_t>(actionWidth, s->actionTokens());
        branched = branched || !s->branches.empty();
    }
    std::vector<std::int64_t> tokens(static_cast<std::size_t>(n * width), 0);
    std::vector<std::uint8_t> valid(static_cast<std::size_t>(n * width), 0);
    std::vector<std::int64_t> from(static_cast<std::size_t>(n * actionWidth), 0);
    std::vector<std::int64_t> targets(static_cast<std::size_t>(n * actionWidth), 0);
    std::vector<float> mask(static_cast<std::size_t>(n * actionWidth), 0.0F);
    std::vector<std::int64_t> positions;
    std::vector<std::uint8_t> allowed;
    if (branched) {
        positions.assign(static_cast<std::size_t>(n * width), 0);
        allowed.assign(static_cast<std::size_t>(n * width * width), 0);
    }
    for (std::int64_t r = 0; r < n; ++r) {
        const TrainSequence& s = *rows[static_cast<std::size_t>(r)];
        for (std::int32_t i = 0; i < s.size(); ++i) {
            tokens[r * width + i] = s.tokens[static_cast<std::size_t>(i)];
            valid[r * width + i] = 1;
        }
        std::int64_t c = 0;
        for (const ActionSpan& span : s.spans)
            for (std::int32_t t = span.begin; t < span.end; ++t, ++c) {
                from[r * actionWidth + c] = t == span.begin ? span.from : t - 1;
                targets[r * actionWidth + c] = s.tokens[static_cast<std::size_t>(t)];
                mask[r * actionWidth + c] = 1.0F;
            }
        if (branched) {
            for (std::int32_t q = 0; q < s.size(); ++q) {
                positions[r * width + q] = s.position(q);
                for (std::int32_t k = 0; k <= q; ++k)
                    allowed[(r * width + q) * width + k] = s.sees(q, k) ? 1 : 0;
            }
        }
    }
    SequenceBatch b;
    b.tokens = torch::from_blob(tokens.data(), { n, width }, torch::kLong).to(device, false, true);
    b.valid = torch::from_blob(valid.data(), { n, width }, torch::kUInt8).to(torch::kBool).to(device);
    b.from = torch::from_blob(from.data(), { n, actionWidth }, torch::kLong).to(device, false, true);
    b.targets = torch::from_blob(targets.data(), { n, actionWidth }, torch::kLong).to(device, false, true);
    b.mask = torch::from_blob(mask.data(), { n, actionWidth }, torch::kFloat).to(device, false, true);
    if (branched) {
        b.positions = torch::from_blob(positions.data(), { n, width }, torch::kLong).to(device, false, true);
        b.allowed = torch::from_blob(allowed.data(), { n, width, width }, torch::kUInt8).to(torch::kBool).to(device);
    }
    b.actionWidth = actionWidth;
    return b;
}

TransformerOutput forwardBatch(Transformer& model, const SequenceBatch& batch, bool keepInternals)
{
    if (batch.allowed.defined())
        return model->forwardLayout(batch.tokens, batch.positions, batch.allowed, keepInternals);
    return model->forward(batch.tokens, batch.valid, nullptr, keepInternals);
}

namespace {
/// The final hidden state (B, A, width) at the positions that predict the action tokens, from a pass whose last block
/// runs only there.
torch::Tensor actionHidden(Transformer& model, const SequenceBatch& batch)
{
    if (batch.allowed.defined())
        return model->forwardLayoutAt(batch.tokens, batch.positions, batch.allowed, batch.from).hidden;
    return model->forwardAt(batch.tokens, batch.valid, batch.from).hidden;
}
} // namespace

torch::Tensor actionLogProbs(Transformer& model, const SequenceBatch& batch, double temperature, torch::Tensor* entropy,
    torch::Tensor* hiddenAtActions)
{
    auto hidden = actionHidden(model, batch); // (B, A, width)
    if (hiddenAtActions)
        *hiddenAtActions = hidden;
    auto logits = model->logits(hidden);
    if (temperature != 1.0)
        logits = logits / temperature;
    auto logProbs = torch::log_softmax(logits, -1);
    if (entropy)
        *entropy = -(logProbs.exp() * logProbs).sum(-1);
    return logProbs.gather(-1, batch.targets.unsqueeze(-1)).squeeze(-1);
}

namespace {
std::vector<std::size_t> shuffled(std::size_t n, Rng& rng)
{
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    for (std::size_t i = n; i > 1; --i) // Fisher-Yates from our own stream: the same on every device
        std::swap(order[i - 1], order[rng.below(i)]);
    return order;
}

torch::Device deviceOf(Transformer& model) { return model->parameters().front().device(); }
} // namespace

namespace {
/// Consecutive runs of `order` holding at least `turns` actions each (the last may hold fewer).
std::vector<std::pair<std::size_t, std::size_t>> stepsByTurns(
    const std::vector<TrainSequence>& demos, const std::vector<std::size_t>& order, int turns)
{
    std::vector<std::pair<std::size_t, std::size_t>> steps;
    std::size_t begin = 0;
    std::int64_t held = 0;
    for (std::size_t k = 0; k < order.size(); ++k) {
        held += static_cast<std::int64_t>(demos[order[k]].spans.size());
        if (held >= turns) {
            steps.emplace_back(begin, k + 1);
            begin = k + 1;
            held = 0;
        }
    }
    if (begin < order.size())
        steps.emplace_back(begin, order.size());
    return steps;
}
} // namespace

std::int64_t sftSteps(const std::vector<TrainSequence>& demos, int turnsPerStep)
{
    std::vector<std::size_t> order(demos.size());
    std::iota(order.begin(), order.end(), 0);
    std::int64_t turns = 0;
    for (const auto& d : demos)
        turns += static_cast<std::int64_t>(d.spans.size());
    // Steps depend on the order only through where they end; count them for this order (exact for window mode,
    // where every sequence holds one turn, and within a step or two otherwise).
    return std::max<std::int64_t>(static_cast<std::int64_t>(stepsByTurns(demos, order, turnsPerStep).size()),
        turns > 0 ? 1 : 0);
}

double sftLearningRate(double base, std::int64_t done, std::int64_t total, bool cosine)
{
    if (!cosine || total <= 0)
        return base;
    const double progress = std::clamp(static_cast<double>(done) / static_cast<double>(total), 0.0, 1.0);
    return base * std::max(0.05, 0.5 * (1.0 + std::cos(3.141592653589793 * progress)));
}

SftEpoch sftEpoch(Transformer& policy, torch::optim::Optimizer& optimizer, const std::vector<TrainSequence>& demos,
    int turnsPerStep, Rng& rng, const std::function<bool(std::int64_t, std::int64_t, const SftEpoch&)>& onStep,
    const UpdateShard& shard)
{
    policy->train();
    const auto device = deviceOf(policy);
    const auto order = shuffled(demos.size(), rng);
    const auto steps = stepsByTurns(demos, order, std::max(1, turnsPerStep));
    const bool distributed = shard.distributed();
    double lossSum = 0.0, correct = 0.0, tokens = 0.0;
    for (std::size_t s = 0; s < steps.size(); ++s) {
        // A data-parallel rank takes its share of the step's sequences; the loss is still the token mean of the whole
        // step, so that the summed gradients are one process's.
        std::size_t first = steps[s].first, last = steps[s].second;
        double stepTokens = 0.0;
        for (std::size_t k = first; k < last; ++k)
            stepTokens += static_cast<double>(demos[order[k]].actionTokens());
        if (distributed) {
            const auto [b, e] = shareOf(last - first, shard.comm->rank(), shard.comm->world());
            last = first + e;
            first += b;
        }
        optimizer.zero_grad();
        std::vector<double> stepStats { 0.0, 0.0 }; // the step's mean loss, and its correctly predicted tokens
        if (first < last) {
            std::vector<const TrainSequence*> rows;
            for (std::size_t k = first; k < last; ++k)
                rows.push_back(&demos[order[k]]);
            auto batch = makeSequenceBatch(rows, device);
            auto logits = policy->logits(actionHidden(policy, batch));
            auto logProbs = torch::log_softmax(logits, -1);
            auto tokenLogProb = logProbs.gather(-1, batch.targets.unsqueeze(-1)).squeeze(-1);
            auto loss = -(tokenLogProb * batch.mask).sum() / std::max(1.0, stepTokens);
            loss.backward();
            stepStats[0] = loss.item<double>();
            stepStats[1] = ((logits.argmax(-1) == batch.targets).to(torch::kFloat) * batch.mask).sum().item<double>();
        }
        if (distributed) {
            dist::allreduceGradients(*shard.comm, policy->parameters(), 1.0);
            dist::allreduceSum(*shard.comm, stepStats);
        }
        torch::nn::utils::clip_grad_norm_(policy->parameters(), 1.0);
        optimizer.step();
        const double n = stepTokens;
        const double stepLoss = stepStats[0];
        const double stepCorrect = stepStats[1];
        lossSum += stepLoss * n;
        tokens += n;
        correct += stepCorrect;
        if (onStep
            && !onStep(static_cast<std::int64_t>(s) + 1, static_cast<std::int64_t>(steps.size()),
                SftEpoch { stepLoss, n > 0 ? stepCorrect / n : 0.0 }))
            break;
    }
    return { tokens > 0 ? lossSum / tokens : 0.0, tokens > 0 ? correct / tokens : 0.0 };
}

namespace {
UpdateProbe* updateProbe = nullptr;

/// One epoch's plan: minibatches (a share of the trajectories each, with all their sequences) of micro-batches.
using Plan = std::vector<std::vector<std::vector<std::size_t>>>;

Plan makePlan(const std::vector<TrainSequence>& sequences, const std::vector<std::vector<std::size_t>>& byTrajectory,
    const UpdateSettings& settings, Rng& rng)
{
    const std::size_t trajectories = byTrajectory.size();
    const std::size_t chunk
        = std::max<std::size_t>(1, (trajectories + settings.minibatches - 1) / static_cast<std::size_t>(settings.minibatches));
    const auto order = shuffled(trajectories, rng);
    const auto rowCap = static_cast<std::size_t>(std::max(1, settings.microBatch));
    Plan plan;
    for (std::size_t start = 0; start < trajectories; start += chunk) {
        std::vector<std::size_t> rows;
        for (std::size_t k = start; k < std::min(trajectories, start + chunk); ++k)
            rows.insert(rows.end(), byTrajectory[order[k]].begin(), byTrajectory[order[k]].end());
        // Micro-batches of similar lengths pad less; stable, so the order depends on the rows only.
        std::stable_sort(rows.begin(), rows.end(),
            [&](std::size_t a, std::size_t b) { return sequences[a].size() < sequences[b].size(); });
        std::vector<std::vector<std::size_t>> micro;
        std::vector<std::size_t> current;
        std::int64_t longest = 0;
        for (std::size_t r : rows) {
            const std::int64_t length = std::max<std::int64_t>(longest, sequences[r].size());
            if (!current.empty()
                && (current.size() >= rowCap
                    || length * static_cast<std::int64_t>(current.size() + 1) > settings.microTokens)) {
                micro.push_back(std::move(current));
                current.clear();
                longest = 0;
            }
            current.push_back(r);
            longest = std::max<std::int64_t>(longest, sequences[r].size());
        }
        if (!current.empty())
            micro.push_back(std::move(current));
        plan.push_back(std::move(micro));
    }
    return plan;
}

/// The part of `plan` this rank computes: the rows of its own trajectories (every row in one process). A minibatch may
/// be left with no micro-batch; it keeps its place, for the collective calls every rank makes per minibatch.
Plan ownedPart(const Plan& plan, const std::vector<TrainSequence>& sequences, const UpdateShard& shard)
{
    if (!shard.distributed())
        return plan;
    Plan out(plan.size());
    for (std::size_t mb = 0; mb < plan.size(); ++mb)
        for (const auto& rows : plan[mb]) {
            std::vector<std::size_t> mine;
            for (std::size_t r : rows)
                if (shard.owns(sequences[r].trajectory))
                    mine.push_back(r);
            if (!mine.empty())
                out[mb].push_back(std::move(mine));
        }
    return out;
}

/// Sums per-sequence token values over the ranks: each rank fills its own sequences' and leaves the others' empty.
void sumOverRanks(
    std::vector<std::vector<float>>& perSequence, const std::vector<TrainSequence>& sequences, const UpdateShard& shard)
{
    std::vector<float> flat;
    for (std::size_t i = 0; i < sequences.size(); ++i) {
        const auto n = static_cast<std::size_t>(sequences[i].actionTokens());
        if (shard.owns(sequences[i].trajectory) && perSequence[i].size() == n)
            flat.insert(flat.end(), perSequence[i].begin(), perSequence[i].end());
        else
            flat.insert(flat.end(), n, 0.0F);
    }
    std::vector<torch::Tensor> t {
        torch::from_blob(flat.data(), { static_cast<std::int64_t>(flat.size()) }, torch::kFloat).clone()
    };
    shard.comm->allreduce(t);
    const float* v = t[0].data_ptr<float>();
    for (std::size_t i = 0; i < sequences.size(); ++i) {
        const auto n = static_cast<std::size_t>(sequences[i].actionTokens());
        perSequence[i].assign(v, v + n);
        v += n;
    }
}

/// (B, A) from per-sequence flat token values (in span order).
torch::Tensor padded(const std::vector<std::vector<float>>& perSequence, const std::vector<std::size_t>& rows,
    std::int64_t width, const torch::Device& device)
{
    std::vector<float> flat(rows.size() * static_cast<std::size_t>(width), 0.0F);
    for (std::size_t k = 0; k < rows.size(); ++k)
        std::copy(perSequence[rows[k]].begin(), perSequence[rows[k]].end(), flat.begin() + k * width);
    return torch::from_blob(flat.data(), { static_cast<std::int64_t>(rows.size()), width }, torch::kFloat)
        .clone()
        .to(device);
}

/// Scatters a (B, A) result into per-sequence flat vectors.
void scatter(const torch::Tensor& values, const std::vector<std::size_t>& rows,
    const std::vector<TrainSequence>& sequences, std::vector<std::vector<float>>& out)
{
    auto cpu = values.to(torch::kCPU).to(torch::kFloat).contiguous();
    const auto width = cpu.size(1);
    for (std::size_t k = 0; k < rows.size(); ++k) {
        const float* v = cpu.data_ptr<float>() + k * width;
        out[rows[k]].assign(v, v + sequences[rows[k]].actionTokens());
    }
}
} // namespace

void setUpdateProbe(UpdateProbe* probe) { updateProbe = probe; }

UpdateStats ppoUpdate(Transformer& policy, Transformer& reference, torch::optim::Optimizer& optimizer,
    Transformer* critic, torch::optim::Optimizer* criticOptimizer, const std::vector<TrainSequence>& sequences,
    const UpdateSettings& settings, Rng& rng, UpdateTrace* trace)
{
    UpdateStats stats;
    const std::size_t n = sequences.size();
    if (n == 0)
        return stats;
    const auto device = deviceOf(policy);
    // The trajectories, in order of first appearance, with their sequences.
    std::vector<std::vector<std::size_t>> byTrajectory;
    {
        std::vector<std::pair<std::size_t, std::size_t>> keyed;
        for (std::size_t i = 0; i < n; ++i)
            keyed.emplace_back(sequences[i].trajectory, i);
        std::stable_sort(keyed.begin(), keyed.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
        for (std::size_t k = 0; k < keyed.size(); ++k) {
            if (k == 0 || keyed[k].first != keyed[k - 1].first)
                byTrajectory.emplace_back();
            byTrajectory.back().push_back(keyed[k].second);
        }
    }

    // Old (behaviour) and reference log-probs, and the critic's values, on the very micro-batches of the first epoch.
    // The first minibatch's old log-probs are its own first forward pass in the loop below, detached: nothing has
    // been stepped yet, so they are the behaviour policy's, its ratio is exactly 1, and the pass is not made twice.
    // With LoRA dropout the first pass is a dropped-out one: every old log-prob then comes from an eval-mode pass.
    const UpdateShard& shard = settings.shard;
    const Plan firstPlan = makePlan(sequences, byTrajectory, settings, rng);
    const Plan firstOwned = ownedPart(firstPlan, sequences, shard);
    std::vector<std::vector<float>> oldLogProb(n), refLogProb(n), values(n);
    const bool needRef = settings.loss.klCoef != 0.0;
    const bool ownFirstPass = !policy->stochasticInTraining();
    {
        torch::NoGradGuard noGrad;
        policy->eval();
        reference->eval();
        if (critic)
            (*critic)->eval();
        for (std::size_t mb = 0; mb < firstOwned.size(); ++mb)
            for (const auto& rows : firstOwned[mb]) {
                if (mb == 0 && ownFirstPass && !needRef && !critic)
                    continue;
                std::vector<const TrainSequence*> ptrs;
                for (auto r : rows)
                    ptrs.push_back(&sequences[r]);
                const auto batch = makeSequenceBatch(ptrs, device);
                if (mb > 0 || !ownFirstPass)
                    scatter(actionLogProbs(policy, batch, settings.temperature), rows, sequences, oldLogProb);
                if (needRef)
                    scatter(actionLogProbs(reference, batch, settings.temperature), rows, sequences, refLogProb);
                if (critic) {
                    torch::Tensor hidden;
                    actionLogProbs(*critic, batch, 1.0, nullptr, &hidden);
                    scatter((*critic)->value(hidden), rows, sequences, values);
                }
            }
    }

    // Token advantages: the turn's advantage broadcast, or GAE with the turn's value on its last token.
    std::vector<std::vector<float>> tokenAdvantage(n), returns(n);
    for (std::size_t i = 0; i < n; ++i) {
        tokenAdvantage[i].resize(static_cast<std::size_t>(sequences[i].actionTokens()));
        std::size_t c = 0;
        for (const ActionSpan& span : sequences[i].spans)
            for (std::int32_t t = span.begin; t < span.end; ++t)
                tokenAdvantage[i][c++] = static_cast<float>(span.advantage);
    }
    if (critic) {
        // Chain the turns of one trajectory in turn order (trajectory mode) or treat each alone (turn mode).
        struct At {
            std::size_t sequence, span, offset;
        };
        std::vector<double> rewards, flatValues;
        std::vector<std::uint8_t> ends;
        std::vector<std::vector<At>> turnsOf;
        for (const auto& group : byTrajectory) {
            if (!shard.owns(sequences[group.front()].trajectory))
                continue; // another rank's: its values were not computed here
            std::vector<At> turns;
            for (std::size_t i : group) {
                std::size_t offset = 0;
                for (std::size_t k = 0; k < sequences[i].spans.size(); ++k) {
                    turns.push_back({ i, k, offset });
                    offset += static_cast<std::size_t>(sequences[i].spans[k].end - sequences[i].spans[k].begin);
                }
            }
            std::stable_sort(turns.begin(), turns.end(), [&](const At& a, const At& b) {
                return sequences[a.sequence].spans[a.span].turn < sequences[b.sequence].spans[b.span].turn;
            });
            for (std::size_t k = 0; k < turns.size(); ++k) {
                const ActionSpan& span = sequences[turns[k].sequence].spans[turns[k].span];
                const auto len = static_cast<std::size_t>(span.end - span.begin);
                for (std::size_t j = 0; j < len; ++j) {
                    rewards.push_back(j + 1 == len ? span.advantage : 0.0);
                    flatValues.push_back(values[turns[k].sequence][turns[k].offset + j]);
                    ends.push_back(j + 1 == len && (!settings.trajectoryGae || k + 1 == turns.size()) ? 1 : 0);
                }
            }
            turnsOf.push_back(std::move(turns));
        }
        const auto adv = gae(rewards, flatValues, ends, settings.gamma, settings.lambda);
        for (std::size_t i = 0; i < n; ++i)
            returns[i].resize(tokenAdvantage[i].size());
        std::size_t k = 0;
        for (const auto& turns : turnsOf)
            for (const At& at : turns) {
                const ActionSpan& span = sequences[at.sequence].spans[at.span];
                for (std::int32_t j = 0; j < span.end - span.begin; ++j, ++k) {
                    tokenAdvantage[at.sequence][at.offset + j] = static_cast<float>(adv[k]);
                    returns[at.sequence][at.offset + j] = static_cast<float>(adv[k] + flatValues[k]);
                }
            }
    }

    policy->train();
    if (critic)
        (*critic)->train();
    double steps = 0.0;
    std::vector<std::vector<float>> weights(n);
    for (int epoch = 0; epoch < settings.epochs; ++epoch) {
        const Plan plan = epoch == 0 ? firstPlan : makePlan(sequences, byTrajectory, settings, rng);
        const Plan owned = epoch == 0 ? firstOwned : ownedPart(plan, sequences, shard);
        for (std::size_t mb = 0; mb < plan.size(); ++mb) {
            const auto& minibatch = plan[mb];
            // Token weights that make the minibatch's loss the chosen mean (rl.loss_norm); they sum to 1.
            double minibatchTokens = 0.0;
            std::size_t sequencesIn = 0;
            std::vector<std::pair<std::size_t, double>> trajectoryTokens; // (trajectory, action tokens)
            for (const auto& rows : minibatch)
                for (auto r : rows) {
                    const double t = static_cast<double>(sequences[r].actionTokens());
                    minibatchTokens += t;
                    ++sequencesIn;
                    auto it = std::find_if(trajectoryTokens.begin(), trajectoryTokens.end(),
                        [&](const auto& p) { return p.first == sequences[r].trajectory; });
                    if (it == trajectoryTokens.end())
                        trajectoryTokens.emplace_back(sequences[r].trajectory, t);
                    else
                        it->second += t;
                }
            for (const auto& rows : minibatch)
                for (auto r : rows) {
                    const double t = static_cast<double>(sequences[r].actionTokens());
                    double w = 0.0;
                    switch (settings.norm) {
                    case LossNorm::Token:
                        w = 1.0 / std::max(1.0, minibatchTokens);
                        break;
                    case LossNorm::Sequence:
                        w = 1.0 / (std::max(1.0, t) * static_cast<double>(sequencesIn));
                        break;
                    case LossNorm::Trajectory: {
                        const auto it = std::find_if(trajectoryTokens.begin(), trajectoryTokens.end(),
                            [&](const auto& p) { return p.first == sequences[r].trajectory; });
                        w = 1.0 / (std::max(1.0, it->second) * static_cast<double>(trajectoryTokens.size()));
                        break;
                    }
                    }
                    weights[r].assign(static_cast<std::size_t>(t), static_cast<float>(w));
                }
            optimizer.zero_grad();
            if (critic)
                criticOptimizer->zero_grad();
            double policyLoss = 0.0, kl = 0.0, entropySum = 0.0, clipped = 0.0, approxKl = 0.0, valueLoss = 0.0;
            for (const auto& rows : owned[mb]) {
                std::vector<const TrainSequence*> ptrs;
                for (auto r : rows)
                    ptrs.push_back(&sequences[r]);
                const auto batch = makeSequenceBatch(ptrs, device);
                const auto width = batch.actionWidth;
                torch::Tensor entropy;
                auto logProb = actionLogProbs(policy, batch, settings.temperature, &entropy);
                torch::Tensor old;
                if (epoch == 0 && mb == 0 && ownFirstPass) {
                    old = logProb.detach();
                    scatter(old, rows, sequences, oldLogProb);
                } else {
                    old = padded(oldLogProb, rows, width, device);
                }
                if (epoch == 0 && mb == 0 && updateProbe) {
                    torch::NoGradGuard noGrad;
                    auto ratio = torch::exp(logProb.detach() - old);
                    auto on = batch.mask > 0;
                    updateProbe->min = std::min(updateProbe->min, ratio.masked_select(on).min().item<double>());
                    updateProbe->max = std::max(updateProbe->max, ratio.masked_select(on).max().item<double>());
                }
                auto terms = ppoLossWeighted(logProb, old, needRef ? padded(refLogProb, rows, width, device) : torch::Tensor(),
                    padded(tokenAdvantage, rows, width, device), padded(weights, rows, width, device), batch.mask,
                    entropy, settings.loss);
                terms.loss.backward();
                policyLoss += terms.policyLoss.item<double>();
                kl += terms.kl.item<double>();
                entropySum += terms.entropy.item<double>();
                clipped += terms.clipFraction.item<double>();
                approxKl += terms.approxKlOld.item<double>();
                if (critic) {
                    torch::Tensor hidden;
                    actionLogProbs(*critic, batch, 1.0, nullptr, &hidden);
                    auto value = (*critic)->value(hidden);
                    auto target = padded(returns, rows, width, device);
                    auto loss = ((value - target).pow(2) * batch.mask).sum() / std::max(1.0, minibatchTokens);
                    loss.backward();
                    valueLoss += loss.item<double>();
                }
                stats.trainedTokens += batch.valid.sum().item<std::int64_t>();
            }
            if (shard.distributed()) { // the minibatch's gradient: every rank's share of it, then clipped alike
                dist::allreduceGradients(*shard.comm, policy->parameters(), 1.0);
                if (critic)
                    dist::allreduceGradients(*shard.comm, (*critic)->parameters(), 1.0);
            }
            const double norm = torch::nn::utils::clip_grad_norm_(policy->parameters(), settings.maxGradNorm);
            optimizer.step();
            if (critic) {
                torch::nn::utils::clip_grad_norm_((*critic)->parameters(), settings.maxGradNorm);
                criticOptimizer->step();
            }
            stats.policyLoss += policyLoss;
            stats.kl += kl;
            stats.entropy += entropySum;
            stats.clipFraction += clipped / std::max(1.0, minibatchTokens);
            stats.approxKl += approxKl / std::max(1.0, minibatchTokens);
            stats.valueLoss += valueLoss;
            stats.gradNorm += norm;
            steps += 1.0;
        }
    }
    if (shard.distributed()) { // each rank's terms are its share of the minibatch means: their sum is the mean
        std::vector<double> sums { stats.policyLoss, stats.kl, stats.entropy, stats.clipFraction, stats.approxKl,
            stats.valueLoss, static_cast<double>(stats.trainedTokens) };
        dist::allreduceSum(*shard.comm, sums);
        stats.policyLoss = sums[0];
        stats.kl = sums[1];
        stats.entropy = sums[2];
        stats.clipFraction = sums[3];
        stats.approxKl = sums[4];
        stats.valueLoss = sums[5];
        stats.trainedTokens = static_cast<std::int64_t>(sums[6]);
        if (trace) {
            sumOverRanks(oldLogProb, sequences, shard);
            sumOverRanks(tokenAdvantage, sequences, shard);
        }
    }
    for (double* v : { &stats.policyLoss, &stats.kl, &stats.entropy, &stats.clipFraction, &stats.approxKl,
             &stats.gradNorm, &stats.valueLoss })
        *v /= std::max(1.0, steps);
    if (updateProbe)
        updateProbe->oldLogProbs = oldLogProb;
    if (trace) {
        trace->current = std::move(oldLogProb);
        trace->advantage = std::move(tokenAdvantage);
    }
    return stats;
}

} // namespace creditlab::learn
