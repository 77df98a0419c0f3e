#pragma once

// A run's policy as the trainer, the PAIR probe pipeline and `model export` build it from the run's config and files:
// a pretrained one (policy.pretrained) or a built-in one. Includes torch.

#include "core/hf/modelfolder.h"
#include "core/learn/api/trainconfig.h"
#include "core/learn/torch/lm/transformer.h"

#include <mutex>
#include <string>

namespace creditlab::learn {

/// policy.width, .layers, .heads and .context as a built-in policy's options over `vocab` token ids. Throws ConfigError
/// for policy.positions: learned (only an earlier version's stored config has it).
TransformerOptions builtinPolicyOptions(const TrainConfig& config, std::int64_t vocab, bool valueHead = false);

/// A stored built-in run's policy on `device`: `file` (reference.pt, its SFT policy, or a checkpoint's policy.pt) in a
/// policy of the run's shape over `vocab` ids. Throws std::runtime_error naming the file.
Transformer loadBuiltinRunPolicy(
    const TrainConfig& config, std::int64_t vocab, const torch::Device& device, const std::string& file);

/// `config` with policy.pretrained's generation_config.json sampling defaults where the config does not set them:
/// its temperature as rl.temperature and its top_p as rl.top_p (the keys a new run then stores, so a resume reads
/// them back). `config` itself without policy.pretrained, without the file, or when it sets both; `note` (when given)
/// then says what was taken. A folder that does not open is left to the trainer to report.
TrainConfig withGenerationDefaults(const TrainConfig& config, std::string* note = nullptr);

/// policy.lora.* as adapter options.
LoraOptions loraOptionsOf(const TrainConfig& config);

/// policy.pretrained's decoder on `device` in policy.dtype (auto: bfloat16 on CUDA, float32 on the CPU), with
/// policy.activation_checkpointing, and LoRA adapters when `adapters` (their initial A from LibTorch's global
/// generator). Throws hf::HfError.
HfDecoder loadPretrainedDecoder(
    const TrainConfig& config, const hf::ModelFolder& folder, const torch::Device& device, bool adapters);

/// A stored run's pretrained policy: its SFT policy (`referenceFile`, reference.pt: the SFT adapters under LoRA, every
/// weight otherwise) and, when `checkpointFile` is not empty, a checkpoint's policy.pt on top (under LoRA the SFT
/// adapters are folded into the base first, as the run trained: foldLora()). Throws std::runtime_error naming a file.
Transformer loadRunPolicy(const TrainConfig& config, const hf::ModelFolder& folder, const torch::Device& device,
    const std::string& referenceFile, const std::string& checkpointFile = {});

/// A stored LoRA run's policy as one set of adapters on the pretrained base (what `model export` writes in PEFT's
/// format): the SFT adapters alone without `checkpointFile`; else the SFT adapters and the checkpoint's RL adapters
/// side by side as one adapter of twice the rank and twice the alpha (the same scaling s), exactly the run's policy:
/// s B1 A1 + s B2 A2 = s [B1 B2] [A1; A2]. On the CPU. Throws std::runtime_error naming a file.
HfDecoder runAdapters(const TrainConfig& config, const hf::ModelFolder& folder, const std::string& referenceFile,
    const std::string& checkpointFile = {});

/// Held while seeding and drawing from LibTorch's process-global generator (module initialisation, new adapters):
/// trainers in one process (the GUI's run beside a sweep's trials) take turns, so each run's draws depend on its seed.
std::mutex& globalGeneratorMutex();

/// LoRA after SFT: folds the adapters into the base weights (the SFT policy becomes the base, LoRA's reference) and
/// adds fresh adapters, their initial A drawn with LibTorch's generator seeded with `seed` (under a process-wide lock).
void foldLora(HfDecoder& decoder, const LoraOptions& options, std::uint64_t seed);

} // namespace creditlab::learn
