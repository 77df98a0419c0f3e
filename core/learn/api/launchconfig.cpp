// The launcher's document (launchconfig.h).
#include "core/learn/api/launchconfig.h"

#include "core/credit/estimator.h"
#include "core/env/environment.h"
#include "core/judge/judge.h"
#include "core/learn/api/trainconfig.h"

#include <algorithm>
#include <array>
#include <exception>
#include <utility>

namespace creditlab::learn {

namespace {

constexpr std::array<const char*, 3> kChoiceKeys { "env.name", "credit.method", "judge.name" };
// Trainer prefixes shown before the credit, env and judge sections, and after them.
constexpr std::array<const char*, 7> kLeading { "", "policy", "tokenizer", "sft", "rl", "kl", "critic" };
constexpr std::array<const char*, 2> kTrailing { "eval", "checkpoint" };

bool isChoiceKey(const std::string& key)
{
    return std::find(kChoiceKeys.begin(), kChoiceKeys.end(), key) != kChoiceKeys.end();
}

const credit::ParamSpec& trainerSpec(const std::string& key)
{
    for (const auto& spec : TrainConfig::specs())
        if (spec.name == key)
            return spec;
    throw std::logic_error("no trainer key " + key);
}

} // namespace

LaunchConfig::LaunchConfig()
    : m_env(trainerSpec("env.name").defaultValue)
    , m_method(trainerSpec("credit.method").defaultValue)
    , m_judge(trainerSpec("judge.name").defaultValue)
{
}

std::vector<LaunchConfig::Section> LaunchConfig::sections() const
{
    std::map<std::string, Section> trainer;
    for (const auto& spec : TrainConfig::specs()) {
        if (isChoiceKey(spec.name) || spec.name.rfind("credit.", 0) == 0)
            continue;
        const auto dot = spec.name.find('.');
        const std::string group = dot == std::string::npos ? std::string() : spec.name.substr(0, dot);
        auto& section = trainer[group];
        section.group = group;
        section.specs.push_back(spec);
    }
    // The trainer's own credit.* keys (e.g. credit.shadow) come first in the credit section, then the method's.
    Section creditSection { "credit", "credit.", {} };
    for (const auto& spec : TrainConfig::specs())
        if (!isChoiceKey(spec.name) && spec.name.rfind("credit.", 0) == 0) {
            auto copy = spec;
            copy.name = spec.name.substr(7);
            creditSection.specs.push_back(copy);
        }
    if (const auto* estimator = credit::findEstimator(m_method))
        for (const auto& spec : estimator->params())
            creditSection.specs.push_back(spec);

    std::vector<Section> out;
    auto take = [&](const char* group) {
        if (auto it = trainer.find(group); it != trainer.end()) {
            out.push_back(std::move(it->second));
            trainer.erase(it);
        }
    };
    for (const char* group : kLeading)
        take(group);
    out.push_back(std::move(creditSection));
    if (const auto* env = env::findEnvironment(m_env))
        out.push_back({ "env", "env.", env->params });
    try {
        out.push_back({ "judge", "judge.", judge::judgeParams(m_judge) });
    } catch (const std::exception&) { // a judge without parameters
    }
    for (const char* group : kTrailing)
        take(group);
    for (auto& [group, section] : trainer)
        out.push_back(std::move(section));
    return out;
}

const credit::ParamSpec* LaunchConfig::findSpec(const std::string& key, std::string* prefix) const
{
    // sections() builds copies; they are kept until one of the three choices changes.
    const std::string id = m_env + '\n' + m_method + '\n' + m_judge;
    if (m_sectionsFor != id) {
        m_sections = sections();
        m_sectionsFor = id;
    }
    for (const auto& section : m_sections)
        for (const auto& spec : section.specs)
            if (section.prefix + spec.name == key) {
                if (prefix)
                    *prefix = section.prefix;
                return &spec;
            }
    return nullptr;
}

const std::string* LaunchConfig::choiceOf(const std::string& key) const
{
    return key == "env.name" ? &m_env : key == "credit.method" ? &m_method : key == "judge.name" ? &m_judge : nullptr;
}

std::string* LaunchConfig::choice(const std::string& key)
{
    return const_cast<std::string*>(std::as_const(*this).choiceOf(key));
}

bool LaunchConfig::hasKey(const std::string& key) const
{
    return isChoiceKey(key) || findSpec(key);
}

std::string LaunchConfig::value(const std::string& key) const
{
    if (const std::string* c = choiceOf(key))
        return *c;
    if (auto it = m_values.find(key); it != m_values.end())
        return it->second;
    return defaultValue(key);
}

std::string LaunchConfig::defaultValue(const std::string& key) const
{
    if (isChoiceKey(key))
        return trainerSpec(key).defaultValue;
    const auto* spec = findSpec(key);
    return spec ? spec->defaultValue : std::string();
}

bool LaunchConfig::isDefault(const std::string& key) const
{
    return value(key) == defaultValue(key);
}

std::string LaunchConfig::set(const std::string& key, const std::string& text)
{
    if (std::string* c = choice(key)) {
        if (std::string why = credit::checkValue(key, trainerSpec(key), text); !why.empty())
            return why;
        *c = text;
        dropKeysNotOnOffer();
        return {};
    }
    const auto* spec = findSpec(key);
    if (!spec)
        return key + ": not a key of this config (env " + m_env + ", method " + m_method + ", judge " + m_judge + ")";
    if (std::string why = credit::checkValue(key, *spec, text); !why.empty())
        return why;
    if (text == spec->defaultValue)
        m_values.erase(key);
    else
        m_values[key] = text;
    return {};
}

void LaunchConfig::reset(const std::string& key)
{
    if (std::string* c = choice(key)) {
        *c = trainerSpec(key).defaultValue;
        dropKeysNotOnOffer();
        return;
    }
    m_values.erase(key);
}

void LaunchConfig::resetValues()
{
    m_values.clear();
}

void LaunchConfig::dropKeysNotOnOffer()
{
    for (auto it = m_values.begin(); it != m_values.end();)
        it = findSpec(it->first) ? std::next(it) : m_values.erase(it);
}

void LaunchConfig::load(const std::string& yamlText, const std::string& source)
{
    TrainConfig::parse(yamlText, source); // validates everything first: a bad file leaves the document as it was
    LaunchConfig next;
    const auto entries = flattenYaml(yamlText, source);
    for (const auto& entry : entries)
        if (std::string* c = next.choice(entry.key))
            *c = entry.value;
    for (const auto& entry : entries) {
        if (isChoiceKey(entry.key))
            continue;
        if (std::string why = next.set(entry.key, entry.value); !why.empty())
            throw ConfigError(entry.where + ": " + why); // only when the form and the parser disagree on a key
    }
    next.m_loadedName = next.value("name");
    next.m_loaded = next.m_values;
    for (const char* key : kChoiceKeys)
        next.m_loaded[key] = *next.choiceOf(key);
    *this = std::move(next);
}

std::vector<std::pair<std::string, std::string>> LaunchConfig::changedValues() const
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& section : sections())
        for (const auto& spec : section.specs) {
            const std::string key = section.prefix + spec.name;
            if (auto it = m_values.find(key); it != m_values.end())
                out.emplace_back(key, it->second);
        }
    return out;
}

std::string LaunchConfig::toYaml() const
{
    std::string text = "# CreditLab run config; run with: creditlab-cli train --config FILE\n";
    text += "env.name: " + yamlScalar(m_env) + '\n';
    text += "credit.method: " + yamlScalar(m_method) + '\n';
    text += "judge.name: " + yamlScalar(m_judge) + '\n';
    for (const auto& [key, value] : changedValues())
        text += key + ": " + yamlScalar(value) + '\n';
    return text;
}

TrainConfig LaunchConfig::toTrainConfig() const
{
    return TrainConfig::parse(toYaml(), "launcher");
}

std::string LaunchConfig::runName() const
{
    const std::string typed = value("name");
    if (!typed.empty() && typed != m_loadedName)
        return typed;
    std::string name = (m_loadedName.empty() ? m_env : m_loadedName) + " \u00b7 " + m_method + " \u00b7 s" + value("seed");
    // What differs from the loaded file (or from the defaults), in form order; the method and seed are named above.
    std::vector<std::string> differs;
    for (const char* key : { "env.name", "judge.name" })
        if (const auto it = m_loaded.find(key); it != m_loaded.end() ? it->second != *choiceOf(key) : !isDefault(key))
            differs.push_back(std::string(key) + '=' + *choiceOf(key));
    for (const auto& section : sections())
        for (const auto& spec : section.specs) {
            const std::string key = section.prefix + spec.name;
            if (key == "name" || key == "seed")
                continue;
            const auto loaded = m_loaded.find(key);
            const std::string base = loaded != m_loaded.end() ? loaded->second : defaultValue(key);
            if (value(key) != base)
                differs.push_back(key + '=' + value(key));
        }
    constexpr std::size_t kShown = 3;
    for (std::size_t i = 0; i < std::min(differs.size(), kShown); ++i)
        name += " \u00b7 " + differs[i];
    if (differs.size() > kShown)
        name += " \u00b7 +" + std::to_string(differs.size() - kShown);
    return name;
}

TrainConfig LaunchConfig::toRunConfig() const
{
    LaunchConfig named = *this;
    named.m_values["name"] = runName();
    return named.toTrainConfig();
}

std::string yamlScalar(const std::string& text)
{
    const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.'
            || c == '+' || c == '-' || c == '/';
    });
    if (plain)
        return text;
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '\\' || c == '"')
            quoted += '\\';
        quoted += c;
    }
    return quoted + '"';
}

} // namespace creditlab::learn
