#include "core/hf/modelfolder.h"

#include "core/hf/error.h"
#include "core/hf/hubcache.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

namespace creditlab::hf {

namespace {

namespace fs = std::filesystem;

std::string shapeText(const std::vector<std::int64_t>& shape)
{
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

/// Tensors some checkpoints carry that the decoder recomputes (old Llama files saved the rotary table).
bool ignoredTensor(const std::string& name) { return name.ends_with(".rotary_emb.inv_freq"); }

void checkWeights(const ModelFolder& folder)
{
    const Checkpoint& ckpt = folder.checkpoint;
    std::set<std::string> expectedNames;
    for (const WeightSpec& spec : expectedWeights(folder.config)) {
        expectedNames.insert(spec.name);
        const TensorView* t = ckpt.find(spec.name);
        if (t == nullptr)
            throw HfError(folder.path + ": tensor \"" + spec.name + "\" is missing from the checkpoint ("
                + architectureName(folder.config.arch) + " with this config.json needs it)");
        const std::string file = fs::path(ckpt.fileOf(spec.name)).filename().string();
        if (t->dtype != DType::F32 && t->dtype != DType::F16 && t->dtype != DType::BF16)
            throw HfError(file + ": tensor \"" + spec.name + "\": dtype " + dtypeName(t->dtype)
                + " is not supported for weights (F32, F16 and BF16 are)");
        if (t->shape != spec.shape)
            throw HfError(file + ": tensor \"" + spec.name + "\": shape " + shapeText(t->shape) + ", but config.json "
                + "implies " + shapeText(spec.shape));
    }
    for (const std::string& name : ckpt.names()) {
        if (expectedNames.count(name) || ignoredTensor(name))
            continue;
        if (name == "lm_head.weight" && folder.config.tieWordEmbeddings)
            continue; // a tied checkpoint that saved the head anyway: the embedding is used, as transformers does
        const std::string file = fs::path(ckpt.fileOf(name)).filename().string();
        throw HfError(file + ": tensor \"" + name + "\" is not part of " + architectureName(folder.config.arch)
            + " (an unsupported variant or a mismatched config.json)");
    }
}

} // namespace

ModelFolder ModelFolder::open(const std::string& spec, bool requireTokenizer)
{
    ModelFolder folder;
    folder.spec = spec;
    folder.path = resolveModelFolder(spec);
    const fs::path dir(folder.path);
    const fs::path config = dir / "config.json";
    if (!fs::exists(config))
        throw HfError(folder.path + ": config.json is missing (not a Hugging Face model folder?)");
    folder.config = parseModelConfig(readTextFile(config.string()), config.string());
    const fs::path generation = dir / "generation_config.json";
    if (fs::exists(generation))
        folder.generation = parseGenerationConfig(readTextFile(generation.string()), generation.string());
    const fs::path tokenizer = dir / "tokenizer.json";
    if (fs::exists(tokenizer))
        folder.tokenizerFile = tokenizer.string();
    else if (requireTokenizer)
        throw HfError(folder.path
            + ": tokenizer.json is missing (CreditLab reads the fast tokenizer's file; "
              "transformers writes it with save_pretrained)");
    const fs::path tokenizerConfig = dir / "tokenizer_config.json";
    if (fs::exists(tokenizerConfig))
        folder.tokenizerConfigFile = tokenizerConfig.string();
    folder.checkpoint = Checkpoint::open(folder.path);
    checkWeights(folder);
    return folder;
}

DType ModelFolder::storedDType() const
{
    std::map<DType, std::size_t> bytes;
    for (const std::string& name : checkpoint.names())
        bytes[checkpoint.find(name)->dtype] += checkpoint.find(name)->bytes;
    DType best = DType::F32;
    std::size_t most = 0;
    for (const auto& [dtype, n] : bytes)
        if (n > most) {
            most = n;
            best = dtype;
        }
    return best;
}

std::int64_t loraParameterCount(const ModelConfig& c, std::int64_t rank)
{
    const std::int64_t h = c.hiddenSize, q = c.heads * c.headDim, kv = c.kvHeads * c.headDim, i = c.intermediateSize;
    // Each adapted projection W (out x in) adds A (r x in) and B (out x r).
    const std::int64_t perLayer = rank * ((h + q) + (h + kv) * 2 + (q + h) + (h + i) * 2 + (i + h));
    return perLayer * c.layers;
}

MemoryEstimate estimateMemory(const ModelConfig& c, const MemoryQuery& q)
{
    MemoryEstimate m;
    const double params = static_cast<double>(c.parameterCount());
    m.weights = params * q.computeBytes;
    // What trains: AdamW's two fp32 moments, an fp32 gradient, and (for a bf16 model) an fp32 master copy.
    const double trained = q.loraRank > 0 ? static_cast<double>(loraParameterCount(c, q.loraRank)) : params;
    const double perTrained = 4.0 * 3 + (q.computeBytes < 4 ? 4.0 : 0.0) + (q.loraRank > 0 ? q.computeBytes : 0.0);
    m.training = trained * perTrained;
    if (q.loraRank == 0 && q.computeBytes < 4)
        m.training += params * q.computeBytes; // the bf16 gradient beside the fp32 one
    const double tokens = static_cast<double>(q.rows) * static_cast<double>(q.context);
    m.kvCache
        = 2.0 * static_cast<double>(c.layers) * static_cast<double>(c.kvHeads * c.headDim) * tokens * q.computeBytes;
    // Per token and layer: the residual stream at each layer boundary when checkpointing, else about 16 hidden-sized
    // and 3 intermediate-sized tensors (attention with a fused kernel); plus one layer recomputed, and fp32 logits.
    const double perLayerFull = (16.0 * c.hiddenSize + 3.0 * c.intermediateSize) * q.computeBytes;
    const double layerBoundary = static_cast<double>(c.hiddenSize) * q.computeBytes;
    m.activations = q.activationCheckpointing ? tokens * (layerBoundary * c.layers + perLayerFull)
                                              : tokens * perLayerFull * c.layers;
    // Logits and their gradient in float32, for the scored tokens of a chunk of at most 4,096 tokens.
    m.activations += std::min(tokens, 4096.0) * static_cast<double>(c.vocabSize) * 4.0 * 2;
    return m;
}

} // namespace creditlab::hf
