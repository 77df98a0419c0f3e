#pragma once

// Batched action sampling from the policy with a KV cache. Includes torch (learn-internal header).

#include "core/learn/api/rng.h"
#include "core/learn/torch/lm/transformer.h"

#include <cstdint>
#include <vector>

namespace creditlab::learn {

struct SamplingOptions {
    double temperature = 1.0; ///< logits are divided by it (> 0)
    double topP = 1.0; ///< nucleus sampling: the smallest set of tokens whose mass reaches topP
    std::int64_t topK = 0; ///< only the k most likely tokens (before the nucleus, as transformers orders them); 0: all
    int maxTokens = 12; ///< most action tokens, the stop token included
    bool greedy = false; ///< argmax (evaluation)
    /// Any of them ends an action (TokenFormat::stopTokens); the built-in policy's is Tokenizer::kEnd. Empty: none.
    std::vector<std::int32_t> stopTokens { 5 };
    /// Ids at or past it are never sampled: a pretrained model's embedding rows padded past its tokenizer (Qwen:
    /// 151,936 rows, 151,669 tokens). 0: every row.
    std::int64_t vocabLimit = 0;
    /// When set, row r of a call draws from (*rowRngs)[r] instead of the call's Rng: each episode of a rollout has
    /// its own stream, so its actions do not depend on which other episodes share its batch (or its rank).
    const std::vector<Rng*>* rowRngs = nullptr;

    bool isStop(std::int32_t token) const
    {
        for (const std::int32_t s : stopTokens)
            if (s == token)
                return true;
        return false;
    }
};

/// One sampled action.
struct Generation {
    std::vector<std::int32_t> tokens; ///< the action's tokens, ending with the stop token when it was written
    double logProb = 0.0; ///< sum of the sampled tokens' log-probabilities under the sampling distribution
    std::vector<float> tokenLogProbs; ///< each token's, in order (they sum to logProb)
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

/// Samples one action per row of `rowsToSample` that is true, continuing a KV cache whose last outputs are `last`
/// (B, width): each sampled token is appended to the cache before the next, except a row's last token (the stop
/// token, or the maxTokens-th), which the caller feeds with what follows. `fed` (when given) gets per row how many
/// of its tokens went into the cache. Grows the cache as needed. Call under torch::NoGradGuard, model in eval().
std::vector<Generation> sampleActions(Transformer& model, KvCache& cache, torch::Tensor last,
    const std::vector<bool>& rowsToSample, const SamplingOptions& options, Rng& rng,
    std::vector<std::int32_t>* fed = nullptr);

/// Reallocates the cache for at least `capacity` slots, keeping its contents.
void growCache(KvCache& cache, std::int64_t capacity);
/// Keeps the rows `keepRows` (in that order) and moves each row's valid slots to its front: the padding slots of
/// batched chunks and the slots of a cleared row are dropped. The results of later calls do not change.
void compactCache(KvCache& cache, const std::vector<std::int64_t>& keepRows);
/// Forgets row `row`: no slot of it is attended to any more and its next position is 0 (a stream that restarts).
void clearCacheRow(KvCache& cache, std::int64_t row);

/// Picks a token from one row of probabilities (already tempered): among the `topK` most likely (0: all), the nucleus
/// of mass `topP` of their renormalised distribution.
std::int32_t sampleToken(const float* probs, std::int64_t vocab, double topP, Rng& rng,
    std::vector<std::int32_t>& scratch, std::int64_t topK = 0);

} // namespace creditlab::learn
