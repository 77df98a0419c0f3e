#pragma once

// The PPO-clip objective with a k3 KL penalty, the adaptive KL controller and GAE. Learn-internal (torch).

#include "core/learn/torch/pch.h"

#include <cstdint>
#include <span>
#include <vector>

namespace creditlab::learn {

struct PpoLossOptions {
    double clipLow = 0.2; ///< ratio floor 1 - clipLow
    double clipHigh = 0.2; ///< ratio ceiling 1 + clipHigh
    double klCoef = 0.0; ///< 0: no KL term
    double entropyCoef = 0.0;
    bool tokenMean = true; ///< false: the mean over sequences of each sequence's token mean
};

/// The loss and its parts, each a scalar tensor (the parts detached).
struct PpoLossTerms {
    torch::Tensor loss;
    torch::Tensor policyLoss;
    torch::Tensor kl; ///< mean k3 KL to the reference
    torch::Tensor entropy;
    torch::Tensor clipFraction; ///< share of tokens whose ratio was clipped
    torch::Tensor approxKlOld; ///< mean k3 KL to the behaviour policy
};

/// k3 estimator of KL(pi || ref) per token (Schulman 2020): exp(ref - logp) - (ref - logp) - 1, always >= 0.
torch::Tensor klK3(const torch::Tensor& logProb, const torch::Tensor& refLogProb);

/// PPO-clip on (B, T) token tensors: -min(r A, clip(r, 1 - lo, 1 + hi) A) with r = exp(logp - old), plus
/// klCoef * k3(logp, ref) minus entropyCoef * entropy, averaged over the tokens where `mask` is 1. `refLogProb`
/// and `entropy` may be undefined when their coefficients are 0.
PpoLossTerms ppoLoss(const torch::Tensor& logProb, const torch::Tensor& oldLogProb, const torch::Tensor& refLogProb,
    const torch::Tensor& advantages, const torch::Tensor& mask, const torch::Tensor& entropy,
    const PpoLossOptions& options);

/// PPO-clip as ppoLoss, each token's terms multiplied by `weight` (B, T) and summed (the caller's weights make the
/// minibatch's mean and are 0 on padding). `clipFraction` and `approxKlOld` are sums over the tokens where `mask` is 1
/// (the caller divides by the token count).
PpoLossTerms ppoLossWeighted(const torch::Tensor& logProb, const torch::Tensor& oldLogProb,
    const torch::Tensor& refLogProb, const torch::Tensor& advantages, const torch::Tensor& weight,
    const torch::Tensor& mask, const torch::Tensor& entropy, const PpoLossOptions& options);

/// The adaptive KL controller of Ziegler et al. (2019): coef *= 1 + clip(kl / target - 1, -0.2, 0.2) * n / horizon.
struct KlController {
    double coef = 0.01;
    double target = 0.01;
    double horizon = 10000.0;
    bool adaptive = false;
    void update(double kl, std::int64_t samples);
};

/// Generalised advantage estimation over a flat sequence of steps. `segmentEnd[k]` marks the last step of an
/// episode (the value after it is 0). Returns the advantages; returns = advantages + values.
std::vector<double> gae(std::span<const double> rewards, std::span<const double> values,
    std::span<const std::uint8_t> segmentEnd, double gamma, double lambda);

} // namespace creditlab::learn
