#pragma once

// Batched, KV-cached sampling on a Hugging Face decoder: temperature, top-k and top-p, stop tokens. Includes torch.

#include "core/learn/api/rng.h"
#include "core/learn/torch/hf/decoder.h"

#include <cstdint>
#include <vector>

namespace creditlab::learn {

struct HfSamplingOptions {
    double temperature = 1.0; ///< > 0; logits are divided by it
    std::int64_t topK = 0; ///< keep the k most likely tokens; 0 keeps all
    double topP = 1.0; ///< then the smallest set whose mass reaches topP
    bool greedy = false; ///< argmax (evaluation); temperature, top-k and top-p are ignored
    std::int64_t maxNewTokens = 64; ///< per row, stop token included
    std::vector<std::int64_t> stopTokens {}; ///< any of them ends a row (the template's end of turn, the eos ids)
    /// Ids at or past this are never sampled: embedding rows padded past the tokenizer (Qwen: 151,936 rows, 151,669
    /// tokens). 0: the whole embedding.
    std::int64_t vocabLimit = 0;
};

/// One row's continuation.
struct HfGeneration {
    std::vector<std::int64_t> tokens; ///< ending with the stop token when one was written
    std::vector<double> logProbs; ///< of each token under the distribution it was drawn from (after top-k and top-p)
    bool stopped = false;
};

/// Continues every prompt at once: one prompt pass over the left-padded batch into a KV cache, then one cached step
/// per token until every row has stopped or written maxNewTokens. Each row's draw is an inverse-CDF pick with a
/// uniform from `rng` (one per row and step, drawn on the CPU), so a seed gives the same tokens on any device up to
/// floating point. Call under torch::NoGradGuard with the model in eval(). `cache` (optional) receives the cache.
std::vector<HfGeneration> hfGenerate(HfDecoder& model, const std::vector<std::vector<std::int64_t>>& prompts,
    const HfSamplingOptions& options, Rng& rng, HfKvCache* cache = nullptr);

/// One step's choice for each row of `logits` (B, vocab) float32: tokens (B) int64 and their log-probabilities (B)
/// float64 under the filtered distribution, with `uniforms` (B) in [0, 1) on the CPU.
std::pair<torch::Tensor, torch::Tensor> hfChooseTokens(
    const torch::Tensor& logits, const HfSamplingOptions& options, const std::vector<double>& uniforms);

} // namespace creditlab::learn
