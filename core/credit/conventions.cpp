#include "core/credit/conventions.h"

#include <algorithm>

namespace creditlab::credit {

namespace {
bool declares(const std::vector<ParamSpec>& specs, const std::string& key)
{
    return std::any_of(specs.begin(), specs.end(), [&](const ParamSpec& s) { return s.name == key; });
}
} // namespace

const std::vector<std::pair<std::string, std::string>>& conventionPreset(const std::string& name)
{
    // What the peers' code does where it differs from CreditLab (docs/conventions.md gives the code behind each).
    static const std::vector<std::pair<std::string, std::string>> verl {
        { "singleton", "pass" }, // core_algos.py: a group of one has mean 0 and std 1
        { "binarize", "false" }, // RLOO (loop) scores the reward, not success
        { "whiten_eps", "1e-8" }, // torch_functional.py masked_whiten: (x - mean) * rsqrt(var + 1e-8)
        { "whiten_eps_on", "var" },
    };
    static const std::vector<std::pair<std::string, std::string>> verlAgent {
        { "invalid_penalty", "0.1" }, // ray_trainer.py apply_invalid_action_penalty, invalid_action_penalty_coef
        { "anchor", "observation" }, // core_gigpo.py build_step_group groups the env's anchor observation
    };
    static const std::vector<std::pair<std::string, std::string>> none;
    if (name == "verl")
        return verl;
    if (name == "verl-agent")
        return verlAgent;
    return none;
}

ParamSpec conventionsSpec(const std::vector<std::string>& presets, const std::vector<ParamSpec>& specs)
{
    std::vector<std::string> choices { kCreditlabConventions };
    std::string doc = "preset of the keys on which trainers differ; explicit keys override it. creditlab: the "
                      "defaults";
    for (const std::string& p : presets) {
        choices.push_back(p);
        std::string sets;
        for (const auto& [key, value] : conventionPreset(p))
            if (declares(specs, key))
                sets += (sets.empty() ? "" : " ") + key + "=" + value;
        doc += "; " + p + ": " + (sets.empty() ? "the defaults" : sets);
    }
    return { kConventionsKey, ParamType::Choice, kCreditlabConventions, {}, {}, std::move(choices), doc + "." };
}

std::vector<ParamSpec> withConventions(std::vector<ParamSpec> specs, const std::vector<std::string>& presets)
{
    ParamSpec preset = conventionsSpec(presets, specs);
    specs.push_back(std::move(preset));
    return specs;
}

std::vector<std::pair<std::string, std::string>> expandConventions(const std::string& method,
    const std::vector<ParamSpec>& specs, const std::vector<std::pair<std::string, std::string>>& assignments)
{
    const auto spec
        = std::find_if(specs.begin(), specs.end(), [](const ParamSpec& s) { return s.name == kConventionsKey; });
    if (spec == specs.end())
        return assignments;
    std::string preset = spec->defaultValue;
    for (const auto& [key, value] : assignments)
        if (key == kConventionsKey)
            preset = value;
    if (std::find(spec->choices.begin(), spec->choices.end(), preset) == spec->choices.end())
        throw ParamError("parameter '" + std::string(kConventionsKey) + "' of method " + method + ": expected "
            + spec->typeName() + ", got '" + preset + "'");
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [key, value] : conventionPreset(preset))
        if (declares(specs, key))
            out.emplace_back(key, value);
    out.insert(out.end(), assignments.begin(), assignments.end());
    return out;
}

} // namespace creditlab::credit
