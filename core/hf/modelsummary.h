#pragma once

// What `creditlab-cli model inspect` and the workbench's Launch page show of a Hugging Face model folder, gathered in
// one place: the config's shape, the weight files, the tokenizer, the chat template and how agent episodes become a
// token stream under it. Torch-free.

#include "core/hf/config.h"
#include "core/hf/modelfolder.h"
#include "core/hf/safetensors.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace creditlab::hf {

struct WeightFileSummary {
    std::string file;
    std::size_t tensors = 0;
    std::uint64_t bytes = 0;
};

/// tokenizer.json: its size and description, or why it does not load.
struct TokenizerSummary {
    std::string file;
    std::int32_t size = 0; ///< the largest id + 1
    std::string description; ///< Tokenizer::describe()
    std::string error; ///< the HfError's text (file and field) when it does not load; then size is 0
};

/// The chat template, or why there is none usable.
struct ChatTemplateSummary {
    std::string name; ///< "default" or the named template picked
    std::size_t characters = 0;
    std::optional<std::string> eosToken;
    std::string error; ///< the HfError's text when it is missing, malformed or unusable for episodes
};

/// How episodes become tokens (ChatFormat): whether the stream equals the template's render, and its stop tokens.
struct ChatEpisodesSummary {
    bool appendOnly = false;
    bool thinkOnly = false;
    std::string difference; ///< empty when append-only
    std::vector<std::string> stopTokens; ///< as tokenizer.json writes them
};

/// A model folder described. The tokenizer's and the template's problems are recorded, not thrown: a folder whose
/// config and weights open is described even when those are bad. A value; any thread.
struct ModelSummary {
    std::string folder;
    ModelConfig config;
    DType storedDType = DType::F32;
    std::vector<WeightFileSummary> weights;
    std::optional<GenerationConfig> generation;
    std::optional<TokenizerSummary> tokenizer; ///< nullopt: the folder has no tokenizer.json
    ChatTemplateSummary chatTemplate;
    std::optional<ChatEpisodesSummary> chatEpisodes; ///< with a tokenizer that loads and a usable template

    /// The weight files' bytes together.
    std::uint64_t weightBytes() const;
};

/// Describes an opened folder: loads its tokenizer and chat template and builds the episode format (the slow part:
/// a large tokenizer.json takes a second). Any thread; does not cancel.
ModelSummary summarizeModel(const ModelFolder& folder);

/// "default", "llama3" or "linear": the rope scaling's name as config.json spells it.
const char* ropeTypeName(RopeScaling::Type type);

/// The LoRA rank and compute width of a run's memory estimate (MemoryQuery) from its config's policy.* keys and
/// device: `finetune` "lora" or "full", `dtype` "auto", "float32" or "bfloat16", `cuda` whether it runs on CUDA (auto
/// is bfloat16 there and float32 on the CPU, as the trainer picks it).
MemoryQuery runMemoryQuery(std::int64_t rows, std::int64_t context, const std::string& finetune, std::int64_t loraRank,
    const std::string& dtype, bool cuda, bool activationCheckpointing);

} // namespace creditlab::hf
