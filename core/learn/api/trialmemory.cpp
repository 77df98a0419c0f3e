// The memory check of parallel trials (trialmemory.h).
#include "core/learn/api/trialmemory.h"

#include "core/hf/config.h"
#include "core/hf/hubcache.h"
#include "core/hf/modelfolder.h"
#include "core/hf/modelsummary.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace creditlab::learn {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
/// Evaluation episodes run this many at a time (Trainer::evaluate's chunks).
constexpr std::int64_t kEvalRows = 64;
/// A built-in policy's vocabulary is the environment's pieces: a few hundred; this bounds it.
constexpr std::int64_t kBuiltinVocab = 1024;

/// A built-in policy as the decoder shape the Hugging Face estimate takes: a pre-LN transformer with a 4x MLP, its
/// head tied to the embedding.
hf::ModelConfig builtinShape(const TrainConfig& config)
{
    hf::ModelConfig c;
    c.vocabSize = kBuiltinVocab;
    c.hiddenSize = config.getInt("policy.width");
    c.intermediateSize = 4 * c.hiddenSize;
    c.layers = config.getInt("policy.layers");
    c.heads = std::max<std::int64_t>(1, config.getInt("policy.heads"));
    c.kvHeads = c.heads;
    c.headDim = std::max<std::int64_t>(1, c.hiddenSize / c.heads);
    c.tieWordEmbeddings = true;
    return c;
}

std::string gib(double bytes)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GiB", bytes / kGiB);
    return text;
}

} // namespace

TrialMemory estimateTrialMemory(const TrainConfig& config, const std::string& device)
{
    const std::string pretrained = config.getText("policy.pretrained");
    const bool cuda = device.rfind("cuda", 0) == 0;
    const auto configFile = [&] { return hf::resolveModelFolder(pretrained) + "/config.json"; };
    const hf::ModelConfig shape = pretrained.empty()
        ? builtinShape(config)
        : hf::parseModelConfig(hf::readTextFile(configFile()), configFile());
    const std::int64_t context = config.getInt("policy.context");
    const std::int64_t generated = config.getInt("rl.tasks") * config.getInt("rl.group_size");
    const std::int64_t evaluated = std::min<std::int64_t>(kEvalRows, config.getInt("eval.episodes"));
    const bool lora = !pretrained.empty() && config.getText("policy.finetune") == "lora";
    hf::MemoryQuery query = hf::runMemoryQuery(std::max(generated, evaluated), context,
        pretrained.empty() ? "full" : config.getText("policy.finetune"), lora ? config.getInt("policy.lora.rank") : 0,
        pretrained.empty() ? "float32" : config.getText("policy.dtype"), cuda,
        !pretrained.empty() && config.getBool("policy.activation_checkpointing"));
    const hf::MemoryEstimate caches = hf::estimateMemory(shape, query);
    // The update's activations: one micro-batch of at most rl.micro_tokens padded tokens.
    query.rows = 1;
    query.context = std::min(config.getInt("rl.micro_tokens"), config.getInt("rl.micro_batch") * context);
    const hf::MemoryEstimate update = hf::estimateMemory(shape, query);
    TrialMemory m;
    if (cuda) {
        m.live = caches.weights; // the host copy the weights are loaded through
    } else {
        // The reference policy is a second copy of the weights, except with LoRA (the model without its adapters).
        const double reference = lora ? 0.0 : caches.weights;
        // The KV cache is copied when rows leave it (compaction): two copies at the peak.
        m.live = caches.weights + reference + caches.training + 2.0 * caches.kvCache + update.activations;
    }
    m.resident = m.live * kResidentPerLive;
    return m;
}

std::optional<double> availableMemoryBytes()
{
    if (const char* fake = std::getenv("CREDITLAB_MEMAVAILABLE_MIB"))
        return std::strtod(fake, nullptr) * 1024.0 * 1024.0;
    std::ifstream in("/proc/meminfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("MemAvailable:", 0) != 0)
            continue;
        std::istringstream fields(line.substr(13));
        double kib = 0;
        if (fields >> kib)
            return kib * 1024.0;
    }
    return std::nullopt;
}

WorkerFit fitWorkers(int workers, double trialBytes, std::optional<double> available)
{
    WorkerFit fit;
    fit.workers = std::max(1, workers);
    if (!available || trialBytes <= 0 || fit.workers == 1)
        return fit;
    const auto fits = static_cast<int>(*available / trialBytes);
    if (fits >= fit.workers)
        return fit;
    const int chosen = std::max(1, fits);
    fit.note = "memory: " + std::to_string(fit.workers) + " trials at once need about " + gib(trialBytes * fit.workers)
        + " and " + gib(*available) + " is available: running " + std::to_string(chosen) + " at a time"
        + (fits < 1 ? " (even one may not fit)" : "");
    fit.workers = chosen;
    return fit;
}

} // namespace creditlab::learn
