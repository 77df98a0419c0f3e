#include "core/learn/torch/engine/ppo.h"

#include <algorithm>

namespace creditlab::learn {

torch::Tensor klK3(const torch::Tensor& logProb, const torch::Tensor& refLogProb)
{
    auto logRatio = (refLogProb - logProb).clamp(-20.0, 20.0);
    return torch::exp(logRatio) - logRatio - 1.0;
}

PpoLossTerms ppoLoss(const torch::Tensor& logProb, const torch::Tensor& oldLogProb, const torch::Tensor& refLogProb,
    const torch::Tensor& advantages, const torch::Tensor& mask, const torch::Tensor& entropy,
    const PpoLossOptions& options)
{
    // The mean as weights: each token 1 / tokens, or 1 / (its row's tokens x rows with any token).
    torch::Tensor weight;
    if (options.tokenMean) {
        weight = mask / mask.sum().clamp_min(1.0);
    } else {
        const auto perRow = mask.sum(1, true);
        const auto rows = (perRow > 0).to(mask.dtype()).sum().clamp_min(1.0);
        weight = mask / perRow.clamp_min(1.0) / rows;
    }
    auto t = ppoLossWeighted(logProb, oldLogProb,
        options.klCoef != 0.0 || refLogProb.defined() ? refLogProb : torch::Tensor(), advantages, weight, mask, entropy,
        options);
    const auto tokens = mask.sum().clamp_min(1.0);
    t.clipFraction = t.clipFraction / tokens;
    t.approxKlOld = t.approxKlOld / tokens;
    return t;
}

PpoLossTerms ppoLossWeighted(const torch::Tensor& logProb, const torch::Tensor& oldLogProb,
    const torch::Tensor& refLogProb, const torch::Tensor& advantages, const torch::Tensor& weight,
    const torch::Tensor& mask, const torch::Tensor& entropy, const PpoLossOptions& options)
{
    PpoLossTerms t;
    auto ratio = torch::exp((logProb - oldLogProb).clamp(-20.0, 20.0));
    auto unclipped = ratio * advantages;
    auto clipped = ratio.clamp(1.0 - options.clipLow, 1.0 + options.clipHigh) * advantages;
    auto loss = (-torch::min(unclipped, clipped) * weight).sum();
    t.policyLoss = loss.detach();
    if (refLogProb.defined()) {
        auto kl = (klK3(logProb, refLogProb) * weight).sum();
        if (options.klCoef != 0.0)
            loss = loss + options.klCoef * kl;
        t.kl = kl.detach();
    } else {
        t.kl = torch::zeros({}, logProb.options());
    }
    if (entropy.defined()) {
        auto meanEntropy = (entropy * weight).sum();
        if (options.entropyCoef != 0.0)
            loss = loss - options.entropyCoef * meanEntropy;
        t.entropy = meanEntropy.detach();
    } else {
        t.entropy = torch::zeros({}, logProb.options());
    }
    torch::NoGradGuard noGrad;
    t.clipFraction = ((unclipped > clipped).to(logProb.dtype()) * mask).sum();
    t.approxKlOld = (klK3(logProb.detach(), oldLogProb) * mask).sum();
    t.loss = loss;
    return t;
}

void KlController::update(double kl, std::int64_t samples)
{
    if (!adaptive)
        return;
    const double error = std::clamp(kl / target - 1.0, -0.2, 0.2);
    coef *= 1.0 + error * static_cast<double>(samples) / horizon;
}

std::vector<double> gae(std::span<const double> rewards, std::span<const double> values,
    std::span<const std::uint8_t> segmentEnd, double gamma, double lambda)
{
    std::vector<double> advantages(rewards.size(), 0.0);
    double running = 0.0;
    for (std::size_t k = rewards.size(); k-- > 0;) {
        const bool end = segmentEnd[k] != 0;
        const double nextValue = end ? 0.0 : values[k + 1];
        const double delta = rewards[k] + gamma * nextValue - values[k];
        running = delta + (end ? 0.0 : gamma * lambda * running);
        advantages[k] = running;
    }
    return advantages;
}

} // namespace creditlab::learn
