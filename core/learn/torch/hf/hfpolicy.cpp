#include "core/learn/torch/hf/hfpolicy.h"

#include "core/hf/hubcache.h"
#include "core/learn/torch/hf/hfmodel.h"
#include "core/learn/torch/lm/checkpoint.h"

#include <charconv>
#include <filesystem>
#include <mutex>
#include <optional>

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

TransformerOptions builtinPolicyOptions(const TrainConfig& config, std::int64_t vocab, bool valueHead)
{
    if (config.getText("policy.positions") != "rotary")
        throw ConfigError("policy.positions: " + config.getText("policy.positions")
            + ": every policy is now a Llama decoder with rotary positions (learned absolute positions were the "
              "GPT-style policy of earlier versions, whose runs cannot be resumed); set policy.positions: rotary");
    TransformerOptions o;
    o.vocab = vocab;
    o.width = config.getInt("policy.width");
    o.layers = config.getInt("policy.layers");
    o.heads = config.getInt("policy.heads");
    o.context = config.getInt("policy.context");
    o.valueHead = valueHead;
    return o;
}

Transformer loadBuiltinRunPolicy(
    const TrainConfig& config, std::int64_t vocab, const torch::Device& device, const std::string& file)
{
    Transformer policy(builtinPolicyOptions(config, vocab));
    loadModule(file, policy);
    policy->to(device);
    return policy;
}

TrainConfig withGenerationDefaults(const TrainConfig& config, std::string* note)
{
    const std::string spec = config.getText("policy.pretrained");
    if (spec.empty())
        return config;
    // generation_config.json alone: the trainer opens (and checks) the whole folder later.
    std::optional<hf::GenerationConfig> generation;
    try {
        const auto file = std::filesystem::path(hf::resolveModelFolder(spec)) / "generation_config.json";
        if (!std::filesystem::exists(file))
            return config;
        generation = hf::parseGenerationConfig(hf::readTextFile(file.string()), file.string());
    } catch (const std::exception&) {
        return config; // the trainer opens the folder and reports why it cannot
    }
    std::vector<std::pair<std::string, std::string>> overrides;
    const auto take = [&](const char* key, const std::optional<double>& value) {
        if (!value || config.given(key))
            return;
        char text[32]; // the shortest text that reads back as the same double
        const auto end = std::to_chars(text, text + sizeof text, *value).ptr;
        overrides.emplace_back(key, std::string(text, end));
    };
    take("rl.temperature", generation->temperature);
    take("rl.top_p", generation->topP);
    if (generation->topK && *generation->topK > 0 && !config.given("rl.top_k"))
        overrides.emplace_back("rl.top_k", std::to_string(*generation->topK));
    if (overrides.empty())
        return config;
    if (note != nullptr) {
        *note = spec + "/generation_config.json:";
        for (const auto& [key, value] : overrides)
            *note += " " + key + " " + value;
        *note += " (the run config does not set them)";
    }
    return TrainConfig::parse(config.toYaml(), spec + "'s generation_config.json", overrides);
}

std::mutex& globalGeneratorMutex()
{
    static std::mutex mutex;
    return mutex;
}

void foldLora(HfDecoder& decoder, const LoraOptions& options, std::uint64_t seed)
{
    decoder->mergeLora();
    std::lock_guard lock(globalGeneratorMutex());
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

HfDecoder runAdapters(const TrainConfig& config, const hf::ModelFolder& folder, const std::string& referenceFile,
    const std::string& checkpointFile)
{
    const torch::Device cpu(torch::kCPU);
    const LoraOptions options = loraOptionsOf(config);
    TransformerOptions shape;
    shape.context = config.getInt("policy.context");
    HfDecoder decoder = loadPretrainedDecoder(config, folder, cpu, true);
    Transformer policy(decoder, shape);
    loadModule(referenceFile, policy);
    if (checkpointFile.empty())
        return decoder;
    std::vector<torch::Tensor> sft;
    for (const auto& [name, weight] : decoder->loraWeights())
        sft.push_back(weight.detach().clone());
    foldLora(decoder, options, static_cast<std::uint64_t>(config.getInt("seed")) + 1);
    loadModule(checkpointFile, policy);
    const auto rl = decoder->loraWeights();
    LoraOptions doubled = options;
    doubled.rank *= 2;
    doubled.alpha *= 2.0;
    HfDecoder combined = loadPretrainedDecoder(config, folder, cpu, false);
    combined->addLora(doubled);
    torch::NoGradGuard noGrad;
    auto target = combined->loraWeights();
    for (std::size_t i = 0; i < target.size(); ++i) {
        const bool isA
            = target[i].first.find("lora_A") != std::string::npos; // A (r, in) stacks rows, B (out, r) columns
        target[i].second.copy_(torch::cat({ sft[i], rl[i].second.detach() }, isA ? 0 : 1));
    }
    return combined;
}

} // namespace creditlab::learn
