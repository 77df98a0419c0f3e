// Action-token batches, SFT epochs and the PPO update (with the optional critic and GAE).
#include "core/learn/trainer_p.h"

#include <algorithm>
#include <numeric>

namespace creditlab::learn {

ActionBatch makeActionBatch(const std::vector<const std::vector<std::int32_t>*>& prompts,
    const std::vector<const std::vector<std::int32_t>*>& actions, const torch::Device& device)
{
    const auto rows = static_cast<std::int64_t>(prompts.size());
    std::int64_t width = 0, actionWidth = 1;
    for (std::size_t r = 0; r < prompts.size(); ++r) {
        width = std::max<std::int64_t>(width, static_cast<std::int64_t>(prompts[r]->size() + actions[r]->size()));
        actionWidth = std::max<std::int64_t>(actionWidth, static_cast<std::int64_t>(actions[r]->size()));
    }
    std::vector<std::int64_t> tokens(static_cast<std::size_t>(rows * width), 0);
    std::vector<std::uint8_t> valid(static_cast<std::size_t>(rows * width), 0);
    std::vector<std::int64_t> positions(static_cast<std::size_t>(rows * actionWidth), 0);
    std::vector<std::int64_t> targets(static_cast<std::size_t>(rows * actionWidth), 0);
    std::vector<float> mask(static_cast<std::size_t>(rows * actionWidth), 0.0F);
    for (std::int64_t r = 0; r < rows; ++r) {
        const auto& p = *prompts[r];
        const auto& a = *actions[r];
        std::int64_t c = 0;
        for (auto t : p) {
            tokens[r * width + c] = t;
            valid[r * width + c++] = 1;
        }
        for (auto t : a) {
            tokens[r * width + c] = t;
            valid[r * width + c++] = 1;
        }
        // Position k predicts token k + 1: the last prompt token predicts the first action token.
        for (std::size_t j = 0; j < a.size(); ++j) {
            positions[r * actionWidth + j] = static_cast<std::int64_t>(p.size() + j) - 1;
            targets[r * actionWidth + j] = a[j];
            mask[r * actionWidth + j] = 1.0F;
        }
    }
    ActionBatch b;
    b.tokens = torch::from_blob(tokens.data(), { rows, width }, torch::kLong).to(device, false, true);
    b.valid = torch::from_blob(valid.data(), { rows, width }, torch::kUInt8).to(torch::kBool).to(device);
    b.positions = torch::from_blob(positions.data(), { rows, actionWidth }, torch::kLong).to(device, false, true);
    b.targets = torch::from_blob(targets.data(), { rows, actionWidth }, torch::kLong).to(device, false, true);
    b.mask = torch::from_blob(mask.data(), { rows, actionWidth }, torch::kFloat).to(device, false, true);
    return b;
}

torch::Tensor actionLogProbs(Transformer& model, const ActionBatch& batch, double temperature, torch::Tensor* entropy,
    torch::Tensor* hiddenAtActions)
{
    auto out = model->forward(batch.tokens, batch.valid);
    const auto width = out.hidden.size(2);
    auto index = batch.positions.unsqueeze(-1).expand({ -1, -1, width });
    auto hidden = out.hidden.gather(1, index); // (B, A, width)
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

SftEpoch sftEpoch(Transformer& policy, torch::optim::Optimizer& optimizer, const std::vector<Demonstration>& demos,
    int batchSize, Rng& rng, const std::function<bool(std::int64_t, std::int64_t)>& onStep)
{
    policy->train();
    const auto device = deviceOf(policy);
    const auto order = shuffled(demos.size(), rng);
    const auto steps = static_cast<std::int64_t>((demos.size() + batchSize - 1) / batchSize);
    double lossSum = 0.0, correct = 0.0, tokens = 0.0;
    for (std::int64_t s = 0; s < steps; ++s) {
        std::vector<const std::vector<std::int32_t>*> prompts, actions;
        for (std::size_t k = s * batchSize; k < std::min(demos.size(), static_cast<std::size_t>((s + 1) * batchSize));
             ++k) {
            prompts.push_back(&demos[order[k]].prompt);
            actions.push_back(&demos[order[k]].action);
        }
        auto batch = makeActionBatch(prompts, actions, device);
        auto out = policy->forward(batch.tokens, batch.valid);
        auto index = batch.positions.unsqueeze(-1).expand({ -1, -1, out.hidden.size(2) });
        auto logits = policy->logits(out.hidden.gather(1, index));
        auto logProbs = torch::log_softmax(logits, -1);
        auto tokenLogProb = logProbs.gather(-1, batch.targets.unsqueeze(-1)).squeeze(-1);
        const auto count = batch.mask.sum();
        auto loss = -(tokenLogProb * batch.mask).sum() / count;
        optimizer.zero_grad();
        loss.backward();
        torch::nn::utils::clip_grad_norm_(policy->parameters(), 1.0);
        optimizer.step();
        const double n = count.item<double>();
        lossSum += loss.item<double>() * n;
        tokens += n;
        correct += ((logits.argmax(-1) == batch.targets).to(torch::kFloat) * batch.mask).sum().item<double>();
        if (onStep && !onStep(s + 1, steps))
            break;
    }
    return { tokens > 0 ? lossSum / tokens : 0.0, tokens > 0 ? correct / tokens : 0.0 };
}

UpdateStats ppoUpdate(Transformer& policy, Transformer& reference, torch::optim::Optimizer& optimizer,
    Transformer* critic, torch::optim::Optimizer* criticOptimizer, const std::vector<TurnSample>& samples,
    const std::vector<double>& advantages, const UpdateSettings& settings, Rng& rng)
{
    UpdateStats stats;
    if (samples.empty())
        return stats;
    const auto device = deviceOf(policy);
    const std::size_t n = samples.size();
    const std::size_t chunk = std::max<std::size_t>(1, (n + settings.minibatches - 1) / settings.minibatches);
    // Stable by total length, so that the order (and the floating point sums) depend only on the rows.
    const auto sortByLength = [&](auto first, auto last) {
        std::stable_sort(first, last, [&](std::size_t a, std::size_t b) {
            return samples[a].prompt.size() + samples[a].action.size()
                < samples[b].prompt.size() + samples[b].action.size();
        });
    };
    const auto batchOf = [&](const std::vector<std::size_t>& rows) {
        std::vector<const std::vector<std::int32_t>*> prompts, actions;
        for (auto r : rows) {
            prompts.push_back(&samples[r].prompt);
            actions.push_back(&samples[r].action);
        }
        return makeActionBatch(prompts, actions, device);
    };

    // Old (behaviour) and reference log-probs, and the critic's values, per sample and token, without gradients.
    std::vector<std::vector<float>> oldLogProb(n), refLogProb(n), values(n);
    const bool needRef = settings.loss.klCoef != 0.0;
    {
        torch::NoGradGuard noGrad;
        policy->eval();
        reference->eval();
        if (critic)
            (*critic)->eval();
        const std::size_t forwardRows = static_cast<std::size_t>(std::max(1, settings.microBatch));
        std::vector<std::size_t> byLength(n);
        std::iota(byLength.begin(), byLength.end(), 0);
        sortByLength(byLength.begin(), byLength.end());
        for (std::size_t start = 0; start < n; start += forwardRows) {
            const std::vector<std::size_t> rows(
                byLength.begin() + start, byLength.begin() + std::min(n, start + forwardRows));
            auto batch = batchOf(rows);
            auto old = actionLogProbs(policy, batch, settings.temperature).to(torch::kCPU).contiguous();
            torch::Tensor ref, value;
            if (needRef)
                ref = actionLogProbs(reference, batch, settings.temperature).to(torch::kCPU).contiguous();
            if (critic) {
                torch::Tensor hidden;
                actionLogProbs(*critic, batch, 1.0, nullptr, &hidden);
                value = (*critic)->value(hidden).to(torch::kCPU).to(torch::kFloat).contiguous();
            }
            const auto width = old.size(1);
            for (std::size_t k = 0; k < rows.size(); ++k) {
                const auto len = static_cast<std::int64_t>(samples[rows[k]].action.size());
                const float* o = old.data_ptr<float>() + k * width;
                oldLogProb[rows[k]].assign(o, o + len);
                if (needRef) {
                    const float* f = ref.data_ptr<float>() + k * width;
                    refLogProb[rows[k]].assign(f, f + len);
                }
                if (critic) {
                    const float* v = value.data_ptr<float>() + k * width;
                    values[rows[k]].assign(v, v + len);
                }
            }
        }
    }

    // Token advantages: the turn's advantage broadcast, or GAE with the turn's value on its last token.
    std::vector<std::vector<float>> tokenAdvantage(n), returns(n);
    if (!critic) {
        for (std::size_t i = 0; i < n; ++i)
            tokenAdvantage[i].assign(samples[i].action.size(), static_cast<float>(advantages[i]));
    } else {
        // Chain the samples of one trajectory in turn order (trajectory mode) or treat each alone (turn mode).
        std::vector<std::size_t> order(n);
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return samples[a].trajectory != samples[b].trajectory ? samples[a].trajectory < samples[b].trajectory
                                                                  : samples[a].turn < samples[b].turn;
        });
        std::vector<double> rewards, flatValues;
        std::vector<std::uint8_t> ends;
        for (std::size_t o = 0; o < n; ++o) {
            const std::size_t i = order[o];
            const std::size_t len = samples[i].action.size();
            const bool lastOfTrajectory = o + 1 == n || samples[order[o + 1]].trajectory != samples[i].trajectory;
            for (std::size_t j = 0; j < len; ++j) {
                rewards.push_back(j + 1 == len ? advantages[i] : 0.0);
                flatValues.push_back(values[i][j]);
                ends.push_back(j + 1 == len && (!settings.trajectoryGae || lastOfTrajectory) ? 1 : 0);
            }
        }
        const auto adv = gae(rewards, flatValues, ends, settings.gamma, settings.lambda);
        std::size_t k = 0;
        for (std::size_t o = 0; o < n; ++o) {
            const std::size_t i = order[o];
            for (std::size_t j = 0; j < samples[i].action.size(); ++j, ++k) {
                tokenAdvantage[i].push_back(static_cast<float>(adv[k]));
                returns[i].push_back(static_cast<float>(adv[k] + flatValues[k]));
            }
        }
    }

    const auto padded = [&](const std::vector<std::vector<float>>& perSample, const std::vector<std::size_t>& rows,
                            std::int64_t width) {
        std::vector<float> flat(rows.size() * static_cast<std::size_t>(width), 0.0F);
        for (std::size_t k = 0; k < rows.size(); ++k)
            std::copy(perSample[rows[k]].begin(), perSample[rows[k]].end(), flat.begin() + k * width);
        return torch::from_blob(flat.data(), { static_cast<std::int64_t>(rows.size()), width }, torch::kFloat)
            .clone()
            .to(device);
    };

    policy->train();
    if (critic)
        (*critic)->train();
    double steps = 0.0;
    const std::size_t micro = static_cast<std::size_t>(std::max(1, settings.microBatch));
    for (int epoch = 0; epoch < settings.epochs; ++epoch) {
        auto order = shuffled(n, rng);
        for (std::size_t start = 0; start < n; start += chunk) {
            const std::size_t end = std::min(n, start + chunk);
            // Micro-batches of similar lengths pad less; the minibatch (and so the gradient) is the same.
            sortByLength(order.begin() + start, order.begin() + end);
            // The minibatch's loss is the token (or sequence) mean over all its rows; micro-batches accumulate
            // their share of it, so the gradient equals one pass over the minibatch at a fraction of the memory.
            double minibatchTokens = 0.0;
            for (std::size_t k = start; k < end; ++k)
                minibatchTokens += static_cast<double>(samples[order[k]].action.size());
            const double minibatchRows = static_cast<double>(end - start);
            optimizer.zero_grad();
            if (critic)
                criticOptimizer->zero_grad();
            double policyLoss = 0.0, kl = 0.0, entropySum = 0.0, clipFraction = 0.0, approxKl = 0.0, valueLoss = 0.0;
            for (std::size_t m = start; m < end; m += micro) {
                std::vector<std::size_t> rows(order.begin() + m, order.begin() + std::min(end, m + micro));
                auto batch = batchOf(rows);
                const auto width = batch.targets.size(1);
                const double microTokens = batch.mask.sum().item<double>();
                const double weight = settings.loss.tokenMean ? microTokens / minibatchTokens
                                                              : static_cast<double>(rows.size()) / minibatchRows;
                const double tokenWeight = microTokens / minibatchTokens;
                torch::Tensor entropy;
                auto logProb = actionLogProbs(policy, batch, settings.temperature, &entropy);
                auto terms = ppoLoss(logProb, padded(oldLogProb, rows, width),
                    needRef ? padded(refLogProb, rows, width) : torch::Tensor(), padded(tokenAdvantage, rows, width),
                    batch.mask, entropy, settings.loss);
                (terms.loss * weight).backward();
                policyLoss += terms.policyLoss.item<double>() * weight;
                kl += terms.kl.item<double>() * weight;
                entropySum += terms.entropy.item<double>() * weight;
                clipFraction += terms.clipFraction.item<double>() * tokenWeight;
                approxKl += terms.approxKlOld.item<double>() * tokenWeight;
                if (critic) {
                    torch::Tensor hidden;
                    actionLogProbs(*critic, batch, 1.0, nullptr, &hidden);
                    auto value = (*critic)->value(hidden);
                    auto target = padded(returns, rows, width);
                    auto loss = ((value - target).pow(2) * batch.mask).sum() / batch.mask.sum().clamp_min(1.0);
                    (loss * tokenWeight).backward();
                    valueLoss += loss.item<double>() * tokenWeight;
                }
                stats.trainedTokens += batch.valid.sum().item<std::int64_t>();
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
            stats.clipFraction += clipFraction;
            stats.approxKl += approxKl;
            stats.valueLoss += valueLoss;
            stats.gradNorm += norm;
            steps += 1.0;
        }
    }
    for (double* v : { &stats.policyLoss, &stats.kl, &stats.entropy, &stats.clipFraction, &stats.approxKl,
             &stats.gradNorm, &stats.valueLoss })
        *v /= std::max(1.0, steps);
    return stats;
}

} // namespace creditlab::learn
