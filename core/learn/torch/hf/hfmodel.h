#pragma once

// Loading a Hugging Face model folder into an HfDecoder, and scoring token sequences with it. Includes torch.

#include "core/hf/modelfolder.h"
#include "core/learn/torch/hf/decoder.h"

#include <optional>
#include <string>
#include <vector>

namespace creditlab::learn {

struct HfLoadOptions {
    torch::Device device = torch::kCPU;
    /// The compute dtype; by default float32 on the CPU (no fast bf16 matmul there) and bfloat16 on CUDA.
    std::optional<torch::Dtype> dtype = std::nullopt;
};

/// Builds the decoder of `folder` on the device and copies its weights in. Throws hf::HfError.
HfDecoder loadHfDecoder(const hf::ModelFolder& folder, const HfLoadOptions& options = {});

/// Natural-log probabilities of tokens 2..n of each sequence under `model` (n - 1 values; none for a sequence of
/// fewer than 2 tokens), in float32 from log-softmax over the whole vocabulary. Sequences are batched up to about
/// `batchTokens` padded tokens. Ids outside the embedding throw hf::HfError naming the sequence. No gradients.
std::vector<std::vector<double>> scoreSequences(
    HfDecoder& model, const std::vector<std::vector<std::int64_t>>& sequences, std::int64_t batchTokens = 4096);

/// One output line of `model score`: "[-4.33728647, -4.34097481]" (9 significant digits, no newline).
std::string formatLogProbs(const std::vector<double>& row);

} // namespace creditlab::learn
