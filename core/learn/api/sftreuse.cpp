// Reusing an earlier run's SFT policy (sftreuse.h).
#include "core/learn/api/sftreuse.h"

#include "core/env/environment.h"
#include "core/learn/api/trainconfig.h"
#include "core/model/vocabulary.h"
#include "core/storage/paths.h"
#include "core/storage/store.h"

#include <exception>
#include <filesystem>

namespace creditlab::learn {

namespace {

bool decidesSft(const std::string& key)
{
    if (key == "sft.from_run")
        return false;
    return key == "seed" || key.rfind("sft.", 0) == 0 || key.rfind("policy.", 0) == 0
        || key.rfind("tokenizer.", 0) == 0;
}

} // namespace

std::string sftSignature(const TrainConfig& config)
{
    std::string text = "env.name=" + config.envName() + '\n';
    if (const auto* env = env::findEnvironment(config.envName())) // with its defaults: written out or not, alike
        text += "env=" + credit::Params::resolve(config.envName(), env->params, config.envAssignments()).canonical() + '\n';
    else
        for (const auto& [key, value] : config.envAssignments())
            text += "env." + key + '=' + value + '\n';
    for (const auto& spec : TrainConfig::specs())
        if (decidesSft(spec.name))
            text += spec.name + '=' + config.params().textOf(spec.name) + '\n';
    return text;
}

std::optional<SftSource> findSftSource(Store& store, const std::string& database, const TrainConfig& config)
{
    if (config.getInt("sft.from_run") > 0 || config.getInt("sft.epochs") == 0)
        return std::nullopt;
    const std::string wanted = sftSignature(config);
    const auto runs = store.runs(); // newest last
    for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
        if (it->kind == RunKind::Import || !std::filesystem::exists(paths::runFiles(database, it->id) + "/reference.pt"))
            continue;
        const auto text = store.runConfig(it->id);
        if (!text)
            continue;
        try {
            const TrainConfig earlier = TrainConfig::parse(*text, "run " + std::to_string(it->id));
            if (earlier.getInt("sft.from_run") > 0 || sftSignature(earlier) != wanted)
                continue;
        } catch (const std::exception&) {
            continue; // a config of an older or newer build
        }
        SftSource source { it->id, it->name, 0.0 };
        for (const auto& m : store.metrics(it->id))
            if (m.name == metricnames::kTimeSft)
                source.sftSeconds = m.value;
        return source;
    }
    return std::nullopt;
}

} // namespace creditlab::learn
