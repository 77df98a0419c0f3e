#pragma once

// Writing a decoder back as a Hugging Face folder that transformers and vLLM load, and LoRA adapters in PEFT's format
// (adapter_config.json and adapter_model.safetensors), read back as well. Includes torch.

#include "core/hf/modelfolder.h"
#include "core/learn/torch/hf/decoder.h"
#include "core/learn/torch/lm/tokenizer.h"

#include <string>

namespace creditlab::learn {

/// Writes `model`'s weights (adapters merged into a copy when it has LoRA) as `dir`/model.safetensors in `dtype`
/// (F32, BF16 or F16), with config.json and the tokenizer and generation files of `source` copied as they are. The
/// folder appears whole or not at all: it is written beside `dir` and renamed into place; an existing `dir` is
/// refused. Throws hf::HfError naming the path.
void saveHfFolder(HfDecoder& model, const hf::ModelFolder& source, const std::string& dir, hf::DType dtype);

/// Writes a built-in policy (a Llama decoder trained from scratch with CreditLab's tokenizer) as a Hugging Face folder:
/// model.safetensors in float32, config.json (hf::llamaConfigJson), generation_config.json (the end of an action as
/// EOS), and `tokenizer` as tokenizer.json, tokenizer_config.json (its chat template renders CreditLab's episode
/// format) and special_tokens_map.json (writeHfTokenizerFiles). transformers loads it; so does policy.pretrained, whose
/// episodes are then token for token the built-in run's. Atomic as saveHfFolder().
void saveBuiltinHfFolder(HfDecoder& model, const Tokenizer& tokenizer, const std::string& dir);

/// Writes `model`'s adapters as PEFT does: adapter_config.json (`peft_type` LORA, `task_type` CAUSAL_LM, r,
/// lora_alpha, lora_dropout, target_modules, `base_model_name_or_path` = `baseModel`) and adapter_model.safetensors
/// in float32. Atomic as saveHfFolder(). Throws hf::HfError when the model has no adapters.
void saveLoraAdapter(HfDecoder& model, const std::string& baseModel, const std::string& dir);

/// Adds the adapters of a PEFT folder to `model` (which must have none) and copies their weights. Refuses, naming
/// the file and key: another peft_type, DoRA, rslora, biases, modules_to_save, per-layer ranks, a missing tensor or
/// one of the wrong shape.
void loadLoraAdapter(HfDecoder& model, const std::string& dir);

} // namespace creditlab::learn
