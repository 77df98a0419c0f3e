#pragma once

// Batched action sampling from the policy with a KV cache. Includes torch (learn-internal header).

#include "core/learn/rng.h"
#include "core/learn/transformer.h"

#include <cstdint>
#include <vector>

namespace creditlab::learn {

struct SamplingOptions {
    double temperature = 1.0; ///< logits are divided by it (> 0)
    double topP = 1.0; ///< nucleus sampling: the smallest set of tokens whose mass reaches topP
    int maxTokens = 12; ///< most action tokens, the stop token included
    bool greedy = false; ///< argmax (evaluation)
    std::int32_t stopToken = 5; ///< Tokenizer::kEnd
};

/// One sampled action.
struct Generation {
    std::vector<std::int32_t> tokens; ///< the action's tokens, ending with the stop token when it was written
    double logProb = 0.0; ///< sum of the sampled tokens' log-probabilities under the sampling distribution
    bool stopped = false; ///< the stop token was written within maxTokens
};

/// Sequences as a padded batch on `device`: tokens (B, T) int64 and valid (B, T) bool.
struct PaddedBatch {
    torch::Tensor tokens;
    torch::Tensor valid;
};
/// Pads on the left (`left`, so that every row's last token is in the last column) or on the right.
PaddedBatch padSequences(
    const std::vector<std::vector<std::int32_t>>& sequences, bool left, const torch::Device& device);

/// Samples one action for each prompt, all rows at once: one prompt pass, then one cached step per token
/// until every row has written the stop token or maxTokens. `useCache = false` recomputes the whole
/// sequence at every step (the reference the cache is tested against). Sampling draws come from `rng`
/// on the CPU, so a seed gives the same actions on any device up to floating point. Call under
/// torch::NoGradGuard with the model in eval mode.
std::vector<Generation> generate(Transformer& model, const std::vector<std::vector<std::int32_t>>& prompts,
    const SamplingOptions& options, Rng& rng, bool useCache = true);

/// Picks a token from one row of probabilities (already tempered) with nucleus `topP`.
std::int32_t sampleToken(
    const float* probs, std::int64_t vocab, double topP, Rng& rng, std::vector<std::int32_t>& scratch);

} // namespace creditlab::learn
