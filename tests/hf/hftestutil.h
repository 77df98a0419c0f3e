#pragma once

// Tiny random Hugging Face model folders written by the tests themselves (no weights can be downloaded here): the
// config of each supported architecture, weights in F32, BF16 or F16, one file or shards with an index. Torch-free.

#include "core/hf/config.h"
#include "core/hf/safetensors.h"

#include <nlohmann/json.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace creditlab::hftest {

struct TinyModel {
    std::string arch = "LlamaForCausalLM";
    hf::DType dtype = hf::DType::F32;
    int shards = 1; ///< > 1: model-0000K-of-0000N.safetensors and model.safetensors.index.json
    bool tied = false;
    bool llama3Rope = false; ///< rope_scaling of type llama3
    bool v5Rope = false; ///< transformers 5's rope_parameters instead of rope_theta / rope_scaling
    std::int64_t vocab = 97;
};

inline nlohmann::ordered_json tinyConfig(const TinyModel& m)
{
    nlohmann::ordered_json c;
    c["architectures"] = { m.arch };
    c["model_type"] = m.arch == "Qwen3ForCausalLM" ? "qwen3" : m.arch == "Qwen2ForCausalLM" ? "qwen2" : "llama";
    c["vocab_size"] = m.vocab;
    c["hidden_size"] = 32;
    c["intermediate_size"] = 48;
    c["num_hidden_layers"] = 2;
    c["num_attention_heads"] = 4;
    c["num_key_value_heads"] = 2;
    if (m.arch == "Qwen3ForCausalLM")
        c["head_dim"] = 16; // explicit, not hidden / heads
    c["hidden_act"] = "silu";
    c["max_position_embeddings"] = 256;
    c["rms_norm_eps"] = 1e-6;
    c["tie_word_embeddings"] = m.tied;
    c["bos_token_id"] = 1;
    c["eos_token_id"] = 2;
    nlohmann::ordered_json rope;
    const double theta = m.arch == "LlamaForCausalLM" ? 500000.0 : 1000000.0;
    if (m.llama3Rope)
        rope = { { "rope_type", "llama3" }, { "factor", 8.0 }, { "low_freq_factor", 1.0 }, { "high_freq_factor", 4.0 },
            { "original_max_position_embeddings", 16 } };
    if (m.v5Rope) {
        if (rope.is_null())
            rope = { { "rope_type", "default" } };
        rope["rope_theta"] = theta;
        c["rope_parameters"] = rope;
    } else {
        c["rope_theta"] = theta;
        c["rope_scaling"] = rope.is_null() ? nlohmann::ordered_json() : rope;
    }
    if (m.arch == "LlamaForCausalLM")
        c["attention_bias"] = false;
    c["torch_dtype"] = m.dtype == hf::DType::BF16 ? "bfloat16" : m.dtype == hf::DType::F16 ? "float16" : "float32";
    return c;
}

inline std::string readText(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void writeText(const std::filesystem::path& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary);
    out << text;
}

/// Writes config.json and random weights (seeded) into `dir`, created if needed.
inline void writeTinyModel(const std::filesystem::path& dir, const TinyModel& m, unsigned seed = 1)
{
    std::filesystem::create_directories(dir);
    const auto config = tinyConfig(m);
    writeText(dir / "config.json", config.dump(2));
    const hf::ModelConfig parsed = hf::parseModelConfig(config.dump(), "config.json");
    std::mt19937 rng(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<std::vector<std::byte>> storage;
    std::vector<hf::TensorData> tensors;
    for (const hf::WeightSpec& spec : hf::expectedWeights(parsed)) {
        std::int64_t n = 1;
        for (const auto d : spec.shape)
            n *= d;
        const bool norm = spec.name.find("norm") != std::string::npos;
        const bool bias = spec.name.ends_with(".bias");
        std::vector<float> values(static_cast<std::size_t>(n));
        for (float& v : values)
            v = norm ? 1.0f + 0.1f * normal(rng) : (bias ? 0.1f : 0.25f) * normal(rng);
        std::vector<std::byte> bytes;
        if (m.dtype == hf::DType::F32) {
            bytes.resize(values.size() * 4);
            std::memcpy(bytes.data(), values.data(), bytes.size());
        } else {
            bytes.resize(values.size() * 2);
            for (std::size_t i = 0; i < values.size(); ++i) {
                std::uint16_t h = 0;
                if (m.dtype == hf::DType::BF16) {
                    h = hf::floatToBf16(values[i]);
                } else { // F16 through the float's bits: values here are small normals, no subnormals or overflow
                    const std::uint32_t b = std::bit_cast<std::uint32_t>(values[i]);
                    const std::uint32_t sign = (b >> 16) & 0x8000u;
                    const int exp = static_cast<int>((b >> 23) & 0xff) - 127 + 15;
                    h = exp <= 0 ? static_cast<std::uint16_t>(sign)
                                 : static_cast<std::uint16_t>(sign | (exp << 10) | ((b >> 13) & 0x3ffu));
                }
                std::memcpy(bytes.data() + 2 * i, &h, 2);
            }
        }
        storage.push_back(std::move(bytes));
        tensors.push_back({ spec.name, m.dtype, spec.shape, storage.back() });
    }
    if (m.shards <= 1) {
        hf::writeSafetensors((dir / "model.safetensors").string(), tensors, { { "format", "pt" } });
        return;
    }
    nlohmann::ordered_json index;
    index["metadata"] = { { "total_size", 0 } };
    const std::size_t per = (tensors.size() + m.shards - 1) / m.shards;
    for (int s = 0; s < m.shards; ++s) {
        char name[64];
        std::snprintf(name, sizeof name, "model-%05d-of-%05d.safetensors", s + 1, m.shards);
        std::vector<hf::TensorData> part;
        for (std::size_t i = s * per; i < std::min(tensors.size(), (s + 1) * per); ++i) {
            part.push_back(tensors[i]);
            index["weight_map"][tensors[i].name] = name;
        }
        hf::writeSafetensors((dir / name).string(), part, { { "format", "pt" } });
    }
    writeText(dir / "model.safetensors.index.json", index.dump(2));
}

} // namespace creditlab::hftest
