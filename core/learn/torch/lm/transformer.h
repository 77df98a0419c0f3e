#pragma once

// The policy network: a Llama-family decoder language model (HfDecoder). Includes torch: only the
// learn library's .cpp files and the learn tests include this header.

#include "core/learn/torch/hf/decoder.h"
#include "core/learn/torch/pch.h"

#include <cstdint>
#include <vector>

namespace creditlab::learn {

struct TransformerOptions {
    std::int64_t vocab = 512;
    std::int64_t width = 128; ///< hidden size
    std::int64_t layers = 4;
    std::int64_t heads = 4;
    std::int64_t context = 384; ///< positions; prompt plus action must fit
    /// The SwiGLU MLP's intermediate size is 2/3 of mlpRatio x width (rounded up to a multiple of 8): the parameters
    /// and FLOPs of a GELU MLP of mlpRatio x width.
    std::int64_t mlpRatio = 4;
    bool valueHead = false; ///< a scalar head on the final hidden state (the critic)
    /// A pretrained decoder's tokenizer size when its embedding has rows past it (Qwen: 151,936 rows, 151,669
    /// tokens): logits() keeps only these columns, so that sampling, the update's log-probs and the reference's see one
    /// distribution. 0: every row (what transformers' logits hold; `model score` keeps them all).
    std::int64_t vocabLimit = 0;
};

/// The Llama configuration of a built-in policy of `options` (trained from scratch): RMSNorm (eps 1e-5), rotary
/// positions (theta 10000) over `context`, SwiGLU, no biases, an untied LM head, `heads` key/value heads; the
/// end-of-turn id `eosTokenId` and padding id `padTokenId` of CreditLab's tokenizer.
hf::ModelConfig builtinModelConfig(const TransformerOptions& options, std::int64_t eosTokenId, std::int64_t padTokenId);

/// Keys and values of every layer for incremental decoding: buffers of (B, heads, capacity, head width),
/// filled up to `length`, plus the validity of each key position (B, capacity) and each row's next position id (B).
/// The pretrained decoder's cache is the same structure (its heads are the key/value heads).
using KvCache = HfKvCache;

/// What forward() returns. `hidden` is the final-LN hidden state (B, T, width); the LM head is applied
/// separately (logits()) so that callers compute logits only where they need them.
struct TransformerOutput {
    torch::Tensor hidden;
    std::vector<torch::Tensor> layerHidden; ///< with `keepInternals`: the residual stream after each block
    std::vector<torch::Tensor> attention; ///< with `keepInternals`: softmax maps (B, heads, T, keys) per layer
};

/// The policy network: an HfDecoder (Llama, Qwen2, Qwen3) behind the interface every rollout, update and learned
/// credit model uses. A built-in policy is a Llama decoder built from builtinModelConfig() and initialised from
/// scratch; a pretrained one is loaded from a Hugging Face folder. Either way every pass below runs the same decoder
/// code. A reference view (`adaptersOff`) shares the decoder of a LoRA policy and runs it without the adapters: LoRA's
/// reference policy without a second copy of the weights.
class TransformerImpl : public torch::nn::Module {
public:
    /// A built-in policy: a Llama decoder of builtinModelConfig(options), initialised from scratch.
    explicit TransformerImpl(const TransformerOptions& options);
    /// The pretrained `decoder` (its value head, when asked for, is a new float32 linear layer). `options.context`
    /// is the stream's context; vocab, width, layers and heads are taken from the decoder.
    TransformerImpl(HfDecoder decoder, const TransformerOptions& options, bool adaptersOff = false);

    /// `tokens` (B, T) int64 and `valid` (B, T) bool (false for padding, anywhere in the row). Without a
    /// cache every row attends causally to its own valid tokens; positions count valid tokens only, so
    /// left and right padding give the same result. With a cache, the T new tokens are appended to it.
    TransformerOutput forward(
        const torch::Tensor& tokens, const torch::Tensor& valid, KvCache* cache = nullptr, bool keepInternals = false);
    /// Rows with explicit position ids (B, T) int64 and attention `allowed` (B, T, T) bool (query, key): branched
    /// sequences (a tree of continuations) and padding (a padding token sees nothing and nothing sees it). No cache.
    TransformerOutput forwardLayout(const torch::Tensor& tokens, const torch::Tensor& positions,
        const torch::Tensor& allowed, bool keepInternals = false);
    /// forward() (no cache) and forwardLayout() returning the final hidden state only at `at` (B, A) int64 positions
    /// of each row: `hidden` is (B, A, width), equal to the full pass's hidden gathered at `at` (HfDecoderImpl::
    /// forward: the last layer's queries, attention output and MLP only at `at`). No internals.
    TransformerOutput forwardAt(const torch::Tensor& tokens, const torch::Tensor& valid, const torch::Tensor& at);
    TransformerOutput forwardLayoutAt(const torch::Tensor& tokens, const torch::Tensor& positions,
        const torch::Tensor& allowed, const torch::Tensor& at);
    /// forward() with a cache, returning the final hidden state (B, width) of the last new token of each row only
    /// (what sampling reads); every new token's keys and values still enter the cache.
    torch::Tensor forwardLast(const torch::Tensor& tokens, const torch::Tensor& valid, KvCache& cache);
    /// LM logits (..., vocab) for hidden states (..., width); (..., options().vocabLimit) when that is set.
    torch::Tensor logits(const torch::Tensor& hidden);
    /// Value estimates (...) for hidden states (..., width); requires the value head.
    torch::Tensor value(const torch::Tensor& hidden);
    /// An empty cache for `batch` rows and up to `capacity` tokens, on this module's device.
    KvCache makeCache(std::int64_t batch, std::int64_t capacity) const;

    const TransformerOptions& options() const { return m_options; }
    std::int64_t parameterCount() const;
    /// Whether this runs a pretrained decoder (loaded from a folder), not a built-in one trained from scratch.
    bool pretrained() const { return m_pretrained; }
    HfDecoder& decoder() { return m_decoder; }
    /// A reference view: the decoder without its LoRA adapters.
    bool adaptersOff() const { return m_adaptersOff; }
    /// Whether a pass in training mode differs from one in eval mode (LoRA dropout): the update then takes its old
    /// log-probs from eval-mode passes, never from its own first (dropped-out) pass.
    bool stochasticInTraining() const
    {
        return !m_adaptersOff && m_decoder->hasLora() && m_decoder->loraOptions().dropout > 0.0;
    }

    /// A policy under LoRA checkpoints what trains (the adapters, the value head) and nothing of the frozen base,
    /// which the run reloads from policy.pretrained; a reference view saves nothing. Otherwise every parameter.
    void save(torch::serialize::OutputArchive& archive) const override;
    void load(torch::serialize::InputArchive& archive) override;

private:
    /// Every pass: forward() (with a cache, at `at`) or, with `allowed` defined, forwardLayout().
    TransformerOutput pass(const torch::Tensor& tokens, const torch::Tensor& valid, const torch::Tensor& positions,
        const torch::Tensor& allowed, KvCache* cache, bool keepInternals, const torch::Tensor& at);
    /// Registers `decoder` and the value head.
    void adopt(HfDecoder decoder);
    TransformerOptions m_options;
    HfDecoder m_decoder { nullptr };
    bool m_pretrained = false;
    bool m_adaptersOff = false;
    torch::nn::Linear m_valueHead { nullptr };
};
TORCH_MODULE(Transformer);

} // namespace creditlab::learn
