#pragma once

// A Hugging Face model's config.json and generation_config.json, for the decoder families CreditLab runs
// (transformers' LlamaForCausalLM, Qwen2ForCausalLM, Qwen3ForCausalLM). Torch-free.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace creditlab::hf {

enum class Architecture {
    Llama, ///< LlamaForCausalLM: Llama 3.x, SmolLM2 (optional attention and MLP biases)
    Qwen2, ///< Qwen2ForCausalLM: Qwen2, Qwen2.5 (q, k and v biases)
    Qwen3, ///< Qwen3ForCausalLM: per-head RMSNorm on queries and keys, head_dim given apart from the width
};

/// "LlamaForCausalLM", ...
const char* architectureName(Architecture arch);

/// How rotary frequencies are rescaled for long contexts (config `rope_scaling` or transformers 5's `rope_parameters`).
struct RopeScaling {
    enum class Type {
        None, ///< "default" or absent
        Llama3, ///< Llama 3.1+: low and high frequency bands (transformers `_compute_llama3_parameters`)
        Linear, ///< positions divided by `factor`
    };
    Type type = Type::None;
    double factor = 1.0;
    double lowFreqFactor = 1.0;
    double highFreqFactor = 4.0;
    std::int64_t originalMaxPositions = 8192;
};

struct ModelConfig {
    Architecture arch = Architecture::Llama;
    std::string modelType; ///< "llama", "qwen2", "qwen3"
    std::int64_t vocabSize = 0; ///< rows of the embedding (may exceed the tokenizer's ids: padding rows)
    std::int64_t hiddenSize = 0;
    std::int64_t intermediateSize = 0;
    std::int64_t layers = 0;
    std::int64_t heads = 0;
    std::int64_t kvHeads = 0; ///< grouped-query attention: heads % kvHeads == 0
    std::int64_t headDim = 0; ///< explicit `head_dim`, else hidden / heads
    std::int64_t maxPositions = 0; ///< `max_position_embeddings`
    double rmsNormEps = 1e-6;
    double ropeTheta = 10000.0;
    RopeScaling rope;
    bool tieWordEmbeddings = false; ///< the LM head is the embedding (no `lm_head.weight` in the checkpoint)
    bool attentionBias = false; ///< q, k, v (and for Llama o) projections have biases
    bool attentionOutputBias = false; ///< o_proj has a bias (Llama `attention_bias`)
    bool mlpBias = false; ///< Llama `mlp_bias`
    bool qkNorm = false; ///< Qwen3
    std::string torchDtype; ///< `torch_dtype` / `dtype` as written ("bfloat16"), or ""
    std::optional<std::int64_t> bosTokenId;
    std::vector<std::int64_t> eosTokenIds;
    std::optional<std::int64_t> padTokenId;

    /// Parameters of the decoder (tied head counted once).
    std::int64_t parameterCount() const;
};

/// Parses config.json's text. `source` names the file in errors. Throws HfError naming the file and key for an
/// unsupported architecture, activation, sliding window or rope type, a missing or mistyped key, or inconsistent
/// sizes (heads not dividing, ...).
ModelConfig parseModelConfig(const std::string& text, const std::string& source);

/// config.json's text for a Llama `config` (what CreditLab builds from scratch: no rope scaling, no Qwen keys), as
/// transformers writes LlamaConfig; parseModelConfig() reads it back to the same config. Throws HfError for another
/// architecture or a rope scaling.
std::string llamaConfigJson(const ModelConfig& config);

/// generation_config.json's sampling defaults and end-of-turn ids; every member is optional.
struct GenerationConfig {
    std::optional<bool> doSample;
    std::optional<double> temperature;
    std::optional<double> topP;
    std::optional<std::int64_t> topK;
    std::optional<double> repetitionPenalty;
    std::optional<std::int64_t> bosTokenId;
    std::vector<std::int64_t> eosTokenIds; ///< `eos_token_id`, a number or a list
    std::optional<std::int64_t> padTokenId;
    std::optional<std::int64_t> maxNewTokens;
};

/// Parses generation_config.json's text; unknown keys are ignored, known keys of the wrong type are an HfError.
GenerationConfig parseGenerationConfig(const std::string& text, const std::string& source);

/// One weight the architecture expects, in Hugging Face's naming (`model.layers.3.self_attn.q_proj.weight`).
struct WeightSpec {
    std::string name;
    std::vector<std::int64_t> shape;
};

/// Every weight of `config`'s decoder, in the order of the model: embedding, each layer's, final norm, LM head
/// (absent when tied). The table per architecture lives in config.cpp (llama.cpp's `llama-arch` idea: a tensor name
/// is data).
std::vector<WeightSpec> expectedWeights(const ModelConfig& config);

/// Reads a whole file; throws HfError naming it when it cannot.
std::string readTextFile(const std::string& path);

} // namespace creditlab::hf
