#pragma once

// Shared pieces of hf_device_checks (issue 34's GPU checks, run by tests/device/run.sh): the model shapes the speed
// checks build in code, device and dtype parsing, timing that waits for the device. Includes torch.

#include "core/hf/config.h"
#include "core/learn/torch/pch.h"

#include <cstdint>
#include <string>

namespace creditlab::device {

/// "qwen2.5-0.5b" (Qwen2.5-0.5B's shape: Qwen2, hidden 896, MLP 4864, 24 layers, 14 heads, 2 key/value heads,
/// vocabulary 151,936, tied) or "tiny" (the same family at hidden 64, 2 layers, vocabulary 1,000, for CPU smoke runs).
/// Throws std::invalid_argument for another name.
hf::ModelConfig speedShape(const std::string& name);

/// "float32", "bfloat16" or "float16"; throws std::invalid_argument otherwise.
torch::Dtype parseDtype(const std::string& name);

/// Waits for queued work on `device` (CUDA), so that a host clock read after it measures the work.
void synchronize(const torch::Device& device);

struct SpeedOptions {
    std::string device = "cuda";
    std::string dtype = "bfloat16";
    std::string shape = "qwen2.5-0.5b";
    std::int64_t rows = 64;
    std::int64_t prompt = 128;
    std::int64_t fresh = 128; ///< new tokens per row (generation)
    std::int64_t length = 512; ///< tokens per row (update)
    std::int64_t micro = 4; ///< rows per backward pass (update)
    int repeats = 2; ///< timed runs after one warm-up
    std::uint64_t seed = 1;
};

/// Generation tokens/s: `rows` random prompts of `prompt` tokens, `fresh` new tokens each (temperature 1 over the
/// whole vocabulary, no stop token). Prints one JSON line per figure; returns 0.
int speedGenerate(const SpeedOptions& options);
/// One update's tokens/s: `rows` random sequences of `length` tokens, every next token of the row trained (full
/// fine-tuning, HfOptimizer's AdamW with float32 masters), micro-batches of `micro` rows accumulated into one step. Prints one JSON line per figure; returns 0.
int speedUpdate(const SpeedOptions& options);

} // namespace creditlab::device
