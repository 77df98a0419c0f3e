#pragma once

// A Hugging Face model folder as CreditLab opens it (issue 34): config.json, generation_config.json, the safetensors
// weights and the tokenizer files. Torch-free; the decoder (core/learn/torch/hf) builds its modules from it.

#include "core/hf/config.h"
#include "core/hf/safetensors.h"

#include <optional>
#include <string>

namespace creditlab::hf {

/// An opened folder: its config parsed, its weights mapped and checked against the architecture's table. Immutable;
/// any thread.
struct ModelFolder {
    std::string spec; ///< as the user gave it (a folder or a repository id)
    std::string path; ///< the folder
    ModelConfig config;
    std::optional<GenerationConfig> generation; ///< absent without generation_config.json
    Checkpoint checkpoint;
    std::string tokenizerFile; ///< tokenizer.json, or "" when absent
    std::string tokenizerConfigFile; ///< tokenizer_config.json, or "" when absent

    /// Resolves `spec` (resolveModelFolder()), parses the configs, maps the weights and checks every weight the
    /// architecture expects: present, of the expected shape, F32, F16 or BF16; a tensor the architecture does not
    /// know is refused. `requireTokenizer`: tokenizer.json must be there. Throws HfError naming the file and key or
    /// tensor.
    static ModelFolder open(const std::string& spec, bool requireTokenizer = true);

    /// The dtype most of the weights are stored in.
    DType storedDType() const;
};

/// A rough peak-memory estimate of one run, in bytes (the Launch page and `model inspect` show it).
struct MemoryEstimate {
    double weights = 0; ///< parameters in the compute dtype
    double training = 0; ///< gradients, AdamW moments and fp32 master copies of what trains
    double kvCache = 0; ///< keys and values for `rows` sequences of `context` tokens
    double activations = 0; ///< what the backward pass keeps (per layer boundaries with checkpointing)
    double total() const { return weights + training + kvCache + activations; }
};
struct MemoryQuery {
    std::int64_t rows = 8; ///< sequences generated and trained at once
    std::int64_t context = 2048; ///< tokens per sequence
    int computeBytes = 2; ///< 2 for bf16 on CUDA, 4 for fp32 on the CPU
    std::int64_t loraRank = 0; ///< 0: full fine-tuning
    bool activationCheckpointing = true;
};
MemoryEstimate estimateMemory(const ModelConfig& config, const MemoryQuery& query);

/// LoRA parameters for rank `rank` on the seven projections of every layer (q, k, v, o, gate, up, down).
std::int64_t loraParameterCount(const ModelConfig& config, std::int64_t rank);

} // namespace creditlab::hf
