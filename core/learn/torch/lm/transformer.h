#pragma once

// The policy network: a decoder-only, pre-LN transformer language model. Includes torch: only the
// learn library's .cpp files and the learn tests include this header.

#include "core/learn/torch/hf/decoder.h"
#include "core/learn/torch/pch.h"

#include <cstdint>
#include <vector>

namespace creditlab::learn {

struct TransformerOptions {
    std::int64_t vocab = 512;
    std::int64_t width = 128; ///< d_model
    std::int64_t layers = 4;
    std::int64_t heads = 4;
    std::int64_t context = 384; ///< positions; prompt plus action must fit
    std::int64_t mlpRatio = 4;
    bool valueHead = false; ///< a scalar head on the final hidden state (the critic)
    /// Rotary position embeddings (RoPE, Su et al. 2021) on queries and keys instead of learned absolute positions:
    /// attention then depends on how far back a token is, the same at position 30 as at 900.
    bool rotary = false;
};

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

/// Pre-LN decoder: token embeddings plus learned positions (or rotary positions in attention), `layers` blocks of
/// causal self-attention and a GELU MLP, a final LayerNorm, an untied LM head and an optional value head. forward() has
/// no side effects besides filling a given cache.
///
/// Or a pretrained Hugging Face decoder (HfDecoder: Llama, Qwen2, Qwen3) behind the same interface, so that every
/// rollout, update and learned credit model runs it unchanged: every pass below then runs the decoder. A reference
/// view (`adaptersOff`) shares the decoder of a LoRA policy and runs it without the adapters: LoRA's reference policy
/// without a second copy of the weights.
class TransformerImpl : public torch::nn::Module {
public:
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
    /// Every key a query may see lies at or before it (index key <= query): long rows are attended in causal blocks.
    TransformerOutput forwardLayout(const torch::Tensor& tokens, const torch::Tensor& positions,
        const torch::Tensor& allowed, bool keepInternals = false);
    /// forward() (no cache) and forwardLayout() returning the final hidden state only at `at` (B, A) int64 positions
    /// of each row: `hidden` is (B, A, width), equal to the full pass's hidden gathered at `at`. The last block
    /// computes its keys and values everywhere but its queries, attention output and MLP only at `at`, since nothing
    /// reads the other positions' last-block output: what a loss on a few positions needs, for a 2-layer model about a
    /// third less work. No internals.
    TransformerOutput forwardAt(const torch::Tensor& tokens, const torch::Tensor& valid, const torch::Tensor& at);
    TransformerOutput forwardLayoutAt(const torch::Tensor& tokens, const torch::Tensor& positions,
        const torch::Tensor& allowed, const torch::Tensor& at);
    /// forward() with a cache, returning the final hidden state (B, width) of the last new token of each row only
    /// (what sampling reads); every new token's keys and values still enter the cache.
    torch::Tensor forwardLast(const torch::Tensor& tokens, const torch::Tensor& valid, KvCache& cache);
    /// LM logits (..., vocab) for hidden states (..., width).
    torch::Tensor logits(const torch::Tensor& hidden);
    /// Value estimates (...) for hidden states (..., width); requires the value head.
    torch::Tensor value(const torch::Tensor& hidden);
    /// An empty cache for `batch` rows and up to `capacity` tokens, on this module's device.
    KvCache makeCache(std::int64_t batch, std::int64_t capacity) const;

    const TransformerOptions& options() const { return m_options; }
    std::int64_t parameterCount() const;
    /// Whether this runs a pretrained decoder, and the decoder (null for a built-in policy).
    bool pretrained() const { return !m_decoder.is_empty(); }
    HfDecoder& decoder() { return m_decoder; }
    /// A reference view: the decoder without its LoRA adapters.
    bool adaptersOff() const { return m_adaptersOff; }

    /// A pretrained policy under LoRA checkpoints what trains (the adapters, the value head) and nothing of the frozen
    /// base, which the run reloads from policy.pretrained; a reference view saves nothing. Otherwise every parameter.
    void save(torch::serialize::OutputArchive& archive) const override;
    void load(torch::serialize::InputArchive& archive) override;

private:
    /// forward(), with the last block only at `at` when it is defined (forwardAt(), forwardLast()).
    TransformerOutput forwardImpl(const torch::Tensor& tokens, const torch::Tensor& valid, KvCache* cache,
        bool keepInternals, const torch::Tensor& at);
    /// The blocks on embedded `tokens` at `positions`, each query attending to the keys `allowed` (B, T, keys) bool;
    /// with `at` defined (B, A), the last block only at those positions. An undefined `allowed` means causal attention
    /// over right-padded rows whose valid tokens are `rightPadded` (B, T) (no cache, no internals).
    TransformerOutput blocks(const torch::Tensor& tokens, const torch::Tensor& positions, const torch::Tensor& allowed,
        KvCache* cache, std::int64_t past, bool keepInternals, const torch::Tensor& at = {},
        const torch::Tensor& rightPadded = {});
    /// forwardImpl() and forwardLayout() on the pretrained decoder.
    TransformerOutput decoderPass(const torch::Tensor& tokens, const torch::Tensor& valid,
        const torch::Tensor& positions, const torch::Tensor& allowed, KvCache* cache, bool keepInternals,
        const torch::Tensor& at);
    TransformerOptions m_options;
    HfDecoder m_decoder { nullptr };
    bool m_adaptersOff = false;
    torch::nn::Embedding m_tokenEmbedding { nullptr };
    torch::nn::Embedding m_positionEmbedding { nullptr };
    std::vector<torch::nn::LayerNorm> m_ln1, m_ln2;
    std::vector<torch::nn::Linear> m_qkv, m_proj, m_fc1, m_fc2;
    torch::nn::LayerNorm m_lnFinal { nullptr };
    torch::nn::Linear m_head { nullptr };
    torch::nn::Linear m_valueHead { nullptr };
};
TORCH_MODULE(Transformer);

} // namespace creditlab::learn
