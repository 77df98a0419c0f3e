#include "core/learn/torch/hf/hfpolicy.h"

#include "core/learn/torch/hf/hfmodel.h"
#include "core/learn/torch/lm/checkpoint.h"

#include <mutex>

namespace creditlab::learn {

LoraOptions loraOptionsOf(const TrainConfig& config)
{
    LoraOptions o;
    o.rank = config.getInt("policy.lora.rank");
    o.alpha = config.getDouble("policy.lora.alpha");
    o.dropout = config.getDouble("policy.lora.dropout");
    o.targets = loraTargets(config.getText("policy.lora.targets"));
    return o;
}

HfDecoder loadPretrainedDecoder(
    const TrainConfig& config, const hf::ModelFolder& folder, const torch::Device& device, bool adapters)
{
    HfLoadOptions load;
    load.device = device;
    const std::string dtype = config.getText("policy.dtype");
    if (dtype == "float32")
        load.dtype = torch::kFloat32;
    else if (dtype == "bfloat16")
        load.dtype = torch::kBFloat16;
    HfDecoder decoder = loadHfDecoder(folder, load);
    decoder->setActivationCheckpointing(config.getBool("policy.activation_checkpointing"));
    if (adapters)
        decoder->addLora(loraOptionsOf(config));
    return decoder;
}

void foldLora(HfDecoder& decoder, const LoraOptions& options, std::uint64_t seed)
{
    decoder->mergeLora();
    static std::mutex globalGenerator;
    std::lock_guard lock(globalGenerator);
    torch::manual_seed(seed);
    decoder->addLora(options);
}

Transformer loadRunPolicy(const TrainConfig& config, const hf::ModelFolder& folder, const torch::Device& device,
    const std::string& referenceFile, const std::string& checkpointFile)
{
    const bool lora = config.getText("policy.finetune") == "lora";
    TransformerOptions options;
    options.context = config.getInt("policy.context");
    HfDecoder decoder = loadPretrainedDecoder(config, folder, device, lora);
    Transformer policy(decoder, options);
    loadModule(referenceFile, policy);
    if (!checkpointFile.empty()) {
        if (lora)
            foldLora(decoder, loraOptionsOf(config), static_cast<std::uint64_t>(config.getInt("seed")) + 1);
        loadModule(checkpointFile, policy);
    }
    return policy;
}

} // namespace creditlab::learn
