#include "core/learn/ppo.h"

#include <algorithm>

namespace creditlab::learn {

torch::Tensor klK3(const torch::Tensor& logProb, const torch::Tensor& refLogProb)
{
    auto logRatio = (refLogProb - logProb).clamp(-20.0, 20.0);
    return torch::exp(logRatio) - logRatio - 1.0;
}

namespace {
torch::Tensor maskedMean(const torch::Tensor& x, const torch::Tensor& mask, bool tokenMean)
{
    if (tokenMean)
        return (x * mask).sum() / mask.sum().clamp_min(1.0);
    auto perSequence = (x * mask).sum(1) / mask.sum(1).clamp_min(1.0);
    auto present = (mask.sum(1) > 0).to(x.dtype());
    return (perSequence * present).sum() / present.sum().clamp_min(1.0);
}
} // namespace

PpoLossTerms ppoLoss(const torch::Tensor& logProb, const torch::Tensor& oldLogProb, const torch::Tensor& refLogProb,
    const torch::Tensor& advantages, const torch::Tensor& mask, const torch::Tensor& entropy,
    const PpoLossOptions& options)
{
    PpoLossTerms t;
    auto ratio = torch::exp((logProb - oldLogProb).clamp(-20.0, 20.0));
    auto unclipped = ratio * advantages;
    auto clipped = ratio.clamp(1.0 - options.clipLow, 1.0 + options.clipHigh) * advantages;
    auto perToken = -torch::min(unclipped, clipped);
    t.policyLoss = maskedMean(perToken, mask, options.tokenMean);
    auto loss = t.policyLoss;
    if (options.klCoef != 0.0 || refLogProb.defined()) {
        auto kl = maskedMean(klK3(logProb, refLogProb), mask, options.tokenMean);
        if (options.klCoef != 0.0)
            loss = loss + options.klCoef * kl;
        t.kl = kl.detach();
    } else {
        t.kl = torch::zeros({}, logProb.options());
    }
    if (entropy.defined()) {
        auto meanEntropy = maskedMean(entropy, mask, options.tokenMean);
        if (options.entropyCoef != 0.0)
            loss = loss - options.entropyCoef * meanEntropy;
        t.entropy = meanEntropy.detach();
    } else {
        t.entropy = torch::zeros({}, logProb.options());
    }
    torch::NoGradGuard noGrad;
    // verl's pg_clipfrac: tokens where the clipped term is the one the loss takes.
    auto wasClipped = (unclipped > clipped).to(logProb.dtype());
    t.clipFraction = (wasClipped * mask).sum() / mask.sum().clamp_min(1.0);
    t.approxKlOld = (klK3(logProb.detach(), oldLogProb) * mask).sum() / mask.sum().clamp_min(1.0);
    t.policyLoss = t.policyLoss.detach();
    t.loss = loss;
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
