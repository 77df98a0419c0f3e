#pragma once

// The Hugging Face decoder families (Llama, Qwen2, Qwen3) in LibTorch, with transformers' module and parameter names,
// so that named_parameters() is the checkpoint's key set. Includes torch: only learn's .cpp files and tests include it.

#include "core/hf/config.h"
#include "core/learn/torch/pch.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace creditlab::hf {
class Checkpoint;
}

namespace creditlab::learn {

/// RMSNorm as transformers computes it: in float32, cast back to the input's dtype before the weight.
class HfRmsNormImpl : public torch::nn::Module {
public:
    HfRmsNormImpl(std::int64_t size, double eps);
    torch::Tensor forward(const torch::Tensor& x);
    torch::Tensor weight;

private:
    double m_eps;
};
TORCH_MODULE(HfRmsNorm);

/// LoRA (Hu et al. 2021): W x + (alpha / rank) B A dropout(x), with A (rank, in) and B (out, rank).
struct LoraOptions {
    std::int64_t rank = 16; ///< TRL's and PAIR's default
    double alpha = 32.0; ///< scaling alpha / rank (TRL's default alpha, 2 x rank)
    double dropout = 0.05; ///< on the adapter's input, in training mode only
    /// Projections adapted (PEFT's `target_modules`); the default is all seven linear layers ("all-linear").
    std::vector<std::string> targets { "q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj" };
};

/// A linear projection (`weight` (out, in), optional `bias`). LoRA adapters, when added, are the submodules
/// `lora_A` and `lora_B` in PEFT's naming (`q_proj.lora_A.weight`); the base weight is then frozen.
class HfLinearImpl : public torch::nn::Module {
public:
    HfLinearImpl(std::int64_t in, std::int64_t out, bool bias);
    torch::Tensor forward(const torch::Tensor& x);
    /// Adds an adapter: A initialised as PEFT does (Kaiming-uniform, a = sqrt(5)), B zero, so the output is unchanged;
    /// float32 whatever the weight's dtype (PEFT's autocast_adapter_dtype).
    void addLora(std::int64_t rank, double alpha, double dropout);
    bool hasLora() const { return !lora_A.is_empty(); }
    /// Folds the adapter into the weight (W += scaling B A) and removes it.
    void mergeLora();
    torch::Tensor weight;
    torch::Tensor bias;
    torch::nn::Linear lora_A { nullptr }, lora_B { nullptr };
    double loraScaling = 0.0;
    double loraDropout = 0.0;
    bool adapterEnabled = true; ///< false: the base projection alone (the reference policy)
};
TORCH_MODULE(HfLinear);

class HfAttentionImpl : public torch::nn::Module {
public:
    explicit HfAttentionImpl(const hf::ModelConfig& config);
    HfLinear q_proj { nullptr }, k_proj { nullptr }, v_proj { nullptr }, o_proj { nullptr };
    HfRmsNorm q_norm { nullptr }, k_norm { nullptr }; ///< Qwen3 only
};
TORCH_MODULE(HfAttention);

class HfMlpImpl : public torch::nn::Module {
public:
    explicit HfMlpImpl(const hf::ModelConfig& config);
    torch::Tensor forward(const torch::Tensor& x);
    HfLinear gate_proj { nullptr }, up_proj { nullptr }, down_proj { nullptr };
};
TORCH_MODULE(HfMlp);

class HfDecoderLayerImpl : public torch::nn::Module {
public:
    explicit HfDecoderLayerImpl(const hf::ModelConfig& config);
    HfRmsNorm input_layernorm { nullptr }, post_attention_layernorm { nullptr };
    HfAttention self_attn { nullptr };
    HfMlp mlp { nullptr };
};
TORCH_MODULE(HfDecoderLayer);

/// transformers' `model`: the embedding, the layers and the final norm.
class HfBodyImpl : public torch::nn::Module {
public:
    explicit HfBodyImpl(const hf::ModelConfig& config);
    torch::nn::Embedding embed_tokens { nullptr };
    torch::nn::ModuleList layers { nullptr };
    HfRmsNorm norm { nullptr };
};
TORCH_MODULE(HfBody);

/// Keys and values of every layer for incremental decoding: (B, kv heads, capacity, head_dim) after RoPE, filled up
/// to `length`, the validity of each slot (B, capacity) and each row's next position id (B).
struct HfKvCache {
    std::vector<torch::Tensor> keys;
    std::vector<torch::Tensor> values;
    torch::Tensor keyValid;
    torch::Tensor nextPosition;
    std::int64_t length = 0;
    std::int64_t capacity = 0;
};

/// What forward() returns besides the final hidden state, on request.
struct HfInternals {
    std::vector<torch::Tensor> layerHidden; ///< the residual stream after each layer (B, T, hidden)
    std::vector<torch::Tensor> attention; ///< softmax maps per layer (B, heads, T, keys), float32
};

class HfDecoderImpl;

/// How every layer of one pass attends. Chosen once per pass (HfDecoderImpl::forward and forwardLayout).
struct HfAttentionMask {
    /// (B, 1, T, keys) bool: query t may see key s. Undefined when `causal`.
    torch::Tensor allowed;
    /// Right-padded rows without a cache: every valid query sees every key at or before it and nothing else, so no
    /// mask is formed (the fused causal kernel on LibTorch 2.x; causal blocks of queries on 1.13). `valid` (B, T)
    /// says which tokens are real; a padding query's output is never read.
    bool causal = false;
    torch::Tensor valid;
    /// Every key a query may see lies at or before it (index key <= query): a long pass on the math path attends in
    /// blocks of queries, block [s, e) over keys [0, e) only, so the (T, T) scores are never formed whole.
    bool lowerTriangular = false;
};

/// One layer under activation checkpointing (HfDecoderImpl::setActivationCheckpointing).
struct CheckpointedLayer : public torch::autograd::Function<CheckpointedLayer> {
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x,
        const torch::Tensor& cos, const torch::Tensor& sin, const HfAttentionMask& mask, std::int64_t index,
        HfDecoderImpl* model);
    static torch::autograd::variable_list backward(
        torch::autograd::AutogradContext* ctx, torch::autograd::variable_list grads);
};

/// A causal LM of one of the three families. Parameters are named as in the checkpoint (`model.layers.0.mlp.up_proj.
/// weight`, `lm_head.weight` unless tied). forward() has no side effects besides filling a given cache.
///
/// CreditLab's built-in policies are this decoder too (Llama configs trained from scratch, learn::builtinModelConfig):
/// desk-scale and pretrained runs share every line of model, generation and update code.
class HfDecoderImpl : public torch::nn::Module {
public:
    explicit HfDecoderImpl(const hf::ModelConfig& config);

    /// From-scratch initialisation (GPT-2's): every linear weight and the embedding N(0, `std`), the residual
    /// projections (o_proj, down_proj) N(0, std / sqrt(2 layers)), biases zero, norms one. Draws from the global
    /// generator. The constructor leaves PyTorch's Linear defaults, which loadWeights() overwrites.
    void initializeFromScratch(double std = 0.02);

    /// `tokens` (B, T) int64 and `valid` (B, T) bool (false for padding, anywhere in a row). Positions count each
    /// row's valid tokens (after the cache's), so left and right padding give the same result; a valid token
    /// attends to the valid tokens at or before it. With a cache, the T new tokens are appended to it (grown as
    /// needed). Returns the final-norm hidden state (B, T, hidden).
    ///
    /// With `at` (B, A) int64 defined, the hidden state only at those positions of each row (B, A, hidden), equal to
    /// the full pass's gathered there: the last layer computes keys and values everywhere but queries, attention
    /// output and MLP only at `at`, since nothing reads the other positions' last-layer output (what a loss on a few
    /// positions needs). Not with internals.
    torch::Tensor forward(const torch::Tensor& tokens, const torch::Tensor& valid, HfKvCache* cache = nullptr,
        HfInternals* internals = nullptr, const torch::Tensor& at = {});
    /// Rows with explicit position ids `positions` (B, T) int64 and attention `allowed` (B, T, T) bool (query, key):
    /// branched sequences (a tree of continuations). A token always sees itself (a padding token nothing else). No
    /// cache. Returns the final-norm hidden state (B, T, hidden), or (B, A, hidden) at `at` as forward().
    torch::Tensor forwardLayout(const torch::Tensor& tokens, const torch::Tensor& positions,
        const torch::Tensor& allowed, HfInternals* internals = nullptr, const torch::Tensor& at = {});
    /// Activation checkpointing: with gradients on (and no cache or internals), each layer keeps only its input and
    /// is computed again in the backward pass (the reentrant scheme of torch.utils.checkpoint, with the random state
    /// restored so LoRA dropout draws the same masks). Saves about (layers - 1) layers of activations for one more
    /// forward pass.
    void setActivationCheckpointing(bool on) { m_checkpointing = on; }
    bool activationCheckpointing() const { return m_checkpointing; }
    /// One decoder layer on `x` (B, T, hidden) with the rotary tables `cos`, `sin` (B, 1, T, head_dim) and `mask`;
    /// with a cache, appends at `past`; with `at` (B, A), the output at those positions only (B, A, hidden).
    /// forward()'s building block.
    torch::Tensor layer(std::int64_t index, const torch::Tensor& x, const torch::Tensor& cos, const torch::Tensor& sin,
        const HfAttentionMask& mask, HfKvCache* cache = nullptr, std::int64_t past = 0,
        HfInternals* internals = nullptr, const torch::Tensor& at = {});

    /// LM logits (..., vocab) of hidden states (..., hidden), in float32.
    torch::Tensor logits(const torch::Tensor& hidden);
    /// An empty cache for `batch` rows and `capacity` tokens, on this module's device and dtype.
    HfKvCache makeCache(std::int64_t batch, std::int64_t capacity) const;

    /// Copies every weight from `checkpoint` (checked by hf::ModelFolder::open), converting to this module's dtype
    /// and device. Throws hf::HfError naming a missing tensor.
    void loadWeights(const hf::Checkpoint& checkpoint);
    /// Every parameter as transformers names it, in hf::expectedWeights() order (the tied head not repeated).
    std::vector<std::pair<std::string, torch::Tensor>> hfWeights();

    /// Adds LoRA adapters to the projections named in `options.targets` of every layer and freezes every other
    /// parameter. Throws hf::HfError for an unknown target or a rank below 1.
    void addLora(const LoraOptions& options);
    bool hasLora() const { return m_lora.has_value(); }
    const LoraOptions& loraOptions() const { return *m_lora; }
    /// The adapters' parameters as PEFT names them in adapter_model.safetensors
    /// (`base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight`), in layer order.
    std::vector<std::pair<std::string, torch::Tensor>> loraWeights();
    /// Folds every adapter into its weight; the model is then a plain one (hasLora() false).
    void mergeLora();
    /// While it lives, every adapter is off: the base model, LoRA's reference policy, without a second copy.
    class AdaptersDisabled {
    public:
        explicit AdaptersDisabled(HfDecoderImpl& model);
        ~AdaptersDisabled();
        AdaptersDisabled(const AdaptersDisabled&) = delete;
        AdaptersDisabled& operator=(const AdaptersDisabled&) = delete;

    private:
        HfDecoderImpl& m_model;
    };

    const hf::ModelConfig& config() const { return m_config; }
    torch::Device device() const;
    torch::Dtype dtype() const;

    HfBody model { nullptr };
    HfLinear lm_head { nullptr }; ///< null when tied

private:
    torch::Tensor rope(const torch::Tensor& positions, torch::Dtype dtype) const; // (B, T) -> cos, sin stacked
    /// The embedding, every layer (checkpointed when on and allowed) and the final norm.
    torch::Tensor layers(const torch::Tensor& tokens, const torch::Tensor& cosSin, const HfAttentionMask& mask,
        HfKvCache* cache, std::int64_t past, HfInternals* internals, const torch::Tensor& at);
    /// Every projection with its name relative to `model.layers.N.` ("self_attn.q_proj"), per layer.
    std::vector<std::pair<std::string, HfLinear>> projections(std::int64_t layer);
    void setAdaptersEnabled(bool enabled);
    hf::ModelConfig m_config;
    std::optional<LoraOptions> m_lora;
    bool m_checkpointing = false;
    /// float32 (head_dim / 2). Not a registered buffer: Module::to(dtype) would round it to bf16 with the weights
    /// (transformers keeps it in float32). Copied to the device of the positions on first use there.
    mutable torch::Tensor m_invFreq;
};
TORCH_MODULE(HfDecoder);

/// The rotary inverse frequencies of `config` (transformers' default and llama3 rules), float32 on the CPU.
torch::Tensor hfRopeInverseFrequencies(const hf::ModelConfig& config);

} // namespace creditlab::learn
