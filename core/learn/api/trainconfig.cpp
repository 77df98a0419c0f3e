#include "core/learn/api/trainconfig.h"

#include "core/credit/estimator.h"
#include "core/env/environment.h"
#include "core/judge/judge.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace creditlab::learn {

using credit::ParamSpec;
using credit::ParamType;

namespace {

ParamSpec number(std::string name, ParamType type, std::string value, double min, double max, std::string doc,
    bool minExclusive = false)
{
    ParamSpec s;
    s.name = std::move(name);
    s.type = type;
    s.defaultValue = std::move(value);
    s.min = min;
    s.max = max;
    s.doc = std::move(doc);
    s.minExclusive = minExclusive;
    return s;
}
ParamSpec integer(std::string name, std::string value, double min, double max, std::string doc)
{
    return number(std::move(name), ParamType::Int, std::move(value), min, max, std::move(doc));
}
ParamSpec real(std::string name, std::string value, double min, double max, std::string doc, bool minExclusive = false)
{
    return number(std::move(name), ParamType::Double, std::move(value), min, max, std::move(doc), minExclusive);
}
ParamSpec flag(std::string name, bool value, std::string doc)
{
    ParamSpec s;
    s.name = std::move(name);
    s.type = ParamType::Bool;
    s.defaultValue = value ? "true" : "false";
    s.doc = std::move(doc);
    return s;
}
ParamSpec choice(std::string name, std::vector<std::string> choices, std::string doc)
{
    ParamSpec s;
    s.name = std::move(name);
    s.type = ParamType::Choice;
    s.defaultValue = choices.front();
    s.choices = std::move(choices);
    s.doc = std::move(doc);
    return s;
}
ParamSpec text(std::string name, std::string value, std::string doc)
{
    ParamSpec s;
    s.name = std::move(name);
    s.type = ParamType::Text;
    s.defaultValue = std::move(value);
    s.doc = std::move(doc);
    return s;
}

std::vector<std::string> methodChoices()
{
    std::vector<std::string> names { "grpo" }; // the default first
    for (const auto* e : credit::estimators())
        if (e->name() != "grpo")
            names.emplace_back(e->name());
    return names;
}

std::vector<std::string> envChoices()
{
    std::vector<std::string> names;
    for (const auto& e : env::environments())
        names.push_back(e.name);
    return names;
}

std::vector<ParamSpec> buildSpecs()
{
    constexpr double inf = std::numeric_limits<double>::infinity();
    std::vector<ParamSpec> s {
        text("name", "", "Run name; empty: <env>-<method>-s<seed>"),
        integer("seed", "0", 0, 2147483647, "Seeds initialisation, task sampling, token sampling and minibatch order"),
        integer("threads", "0", 0, 256, "CPU threads for LibTorch and OpenBLAS; 0 = every core"),
        choice("env.name", envChoices(), "Environment; env.<key> sets its parameters (see 'env list')"),
        integer("policy.width", "128", 8, 4096, "Transformer width d_model"),
        integer("policy.layers", "4", 1, 64, "Transformer blocks"),
        integer("policy.heads", "4", 1, 64, "Attention heads (width must be a multiple)"),
        integer("policy.context", "384", 32, 8192, "Context length in tokens: prompt plus action"),
        choice("policy.memory", { "episode", "window" },
            "episode: one token stream per episode (goal, observations, the sampled action tokens), the KV cache kept "
            "across turns, restarted from the goal, scene and latest turns when it would pass policy.context; window: "
            "a "
            "fresh prompt per turn with the last policy.history turns (verl-agent)"),
        choice("policy.positions", { "rotary", "learned" },
            "How the policy knows where a token is: rotary embeddings in attention, as every policy is a Llama-family "
            "decoder; learned (absolute positions) is read in the stored configs of earlier versions, and refused for "
            "training"),
        integer(
            "policy.history", "4", 0, 64, "Window mode: previous turns (observation and action) shown in the prompt"),
        flag("policy.initial_observation", true, "Keep the episode's first observation (the scene) in the prompt"),
        integer("policy.max_action_tokens", "12", 2, 256, "Most tokens of one action, the stop token included"),
        text("policy.pretrained", "",
            "A Hugging Face model folder or a repository id in the local Hugging Face cache (Llama, Qwen2, Qwen3; "
            "safetensors): the policy starts from it, with its tokenizer and chat template, and policy.width, "
            ".layers, .heads and .positions are the model's own; empty: a built-in policy trained from scratch"),
        choice("policy.finetune", { "lora", "full" },
            "With policy.pretrained: train LoRA adapters (the reference policy is the model without them, no second "
            "copy) or every weight (the reference is a frozen copy)"),
        integer("policy.lora.rank", "16", 1, 4096, "LoRA rank r"),
        real("policy.lora.alpha", "32", 0, inf, "LoRA alpha: the adapter's output is scaled by alpha / rank", true),
        real("policy.lora.dropout", "0.05", 0, 0.99, "Dropout on the adapters' input while training"),
        text("policy.lora.targets", "all-linear",
            "Projections that get adapters, comma-separated (q_proj, k_proj, v_proj, o_proj, gate_proj, up_proj, "
            "down_proj), or all-linear"),
        choice("policy.dtype", { "auto", "float32", "bfloat16" },
            "Weights' dtype of a pretrained policy: auto is bfloat16 on CUDA and float32 on the CPU. LoRA adapters "
            "are float32 either way; full fine-tuning in bfloat16 steps the bf16 weights themselves (no float32 "
            "master copy yet), so prefer float32 for it"),
        flag("policy.activation_checkpointing", true,
            "A pretrained policy recomputes each layer in the backward pass instead of keeping its activations"),
        text("policy.system_prompt", "",
            "A pretrained policy's system message before the goal; empty: whatever its chat template writes without "
            "one"),
        integer(
            "tokenizer.episodes", "200", 1, 100000, "Episodes per policy and split rolled out to build the vocabulary"),
        choice("sft.demonstrator", { "search-expert", "expert" },
            "Whose action labels the demonstrations: the searching expert (decides from what the agent has seen, "
            "imitable from text) or the privileged expert (knows where everything is)"),
        text("sft.demonstrations", "",
            "A JSONL file of trajectories (the interchange format) whose successful turns are cloned in SFT instead of "
            "the environment's expert's (an environment without one: remote); relative to the working directory"),
        integer("sft.expert_episodes", "400", 0, 10000000, "Expert demonstrations for the warm start"),
        integer("sft.noisy_episodes", "400", 0, 10000000,
            "Noisy-expert episodes; their turns are labelled with the expert's action in the state reached (recovery "
            "data)"),
        real("sft.noisy_epsilon", "0.5", 0, 1, "Noisy expert: chance of a random or corrupted command"),
        integer("sft.epochs", "3", 0, 10000, "Passes over the demonstrations; 0 skips SFT"),
        integer("sft.from_run", "0", 0, 9007199254740991.0,
            "Start from the SFT policy and tokenizer of this earlier run in the same database (same policy.* shape) "
            "instead of training one; 0 = run SFT"),
        integer("sft.batch_size", "64", 1, 65536, "Demonstration turns per SFT step"),
        integer("sft.dagger_rounds", "0", 0, 1000,
            "DAgger rounds after the SFT epochs: roll the policy out on sft.dagger_episodes fresh train tasks, label "
            "every state it visited with the demonstrator's action, add them to the demonstrations, train "
            "sft.dagger_epochs epochs"),
        integer("sft.dagger_episodes", "200", 1, 10000000, "DAgger: the policy's episodes per round"),
        integer("sft.dagger_epochs", "2", 0, 10000, "DAgger: epochs over all demonstrations after each round"),
        real("sft.lr", "0.001", 0, 1, "SFT Adam learning rate", true),
        choice("sft.lr_schedule", { "constant", "cosine" },
            "SFT learning rate over the steps: constant, or cosine decay from sft.lr to 5% of it (the household "
            "configs: +11 points held-out success at 4,000 demonstrations)"),
        integer("rl.iterations", "50", 0, 10000000, "RL iterations after the warm start; 0 = SFT only"),
        integer("rl.tasks", "8", 1, 100000, "Tasks sampled per iteration"),
        integer("rl.group_size", "8", 1, 1024, "Rollouts per task (G)"),
        choice("rl.task_pool", { "random", "labelled" },
            "Where training tasks come from: fresh random seeds, or the train tasks that carry human labels in the "
            "run's database (with judge.name=human, so the labels meet the rollouts they describe)"),
        real("rl.lr", "0.0001", 0, 1, "Policy Adam learning rate", true),
        real("rl.adam_beta1", "0.9", 0, 1, "Adam beta1"),
        real("rl.adam_beta2", "0.999", 0, 1, "Adam beta2"),
        integer("rl.epochs", "2", 1, 1000, "PPO epochs over each batch"),
        integer("rl.minibatches", "4", 1, 100000, "Minibatches (optimizer steps) per PPO epoch"),
        integer("rl.micro_batch", "32", 1, 65536,
            "Turn samples per forward pass in the update; gradients accumulate over a minibatch (memory, not maths)"),
        real("rl.clip", "0.2", 0, 10, "PPO clip ratio epsilon (lower bound 1 - clip)", true),
        real("rl.clip_high", "0.2", 0, 10, "Upper clip: 1 + clip_high (DAPO's clip-higher when above rl.clip)", true),
        real("rl.entropy_coef", "0", 0, inf, "Entropy bonus coefficient"),
        real("rl.max_grad_norm", "1", 0, inf, "Gradient clipping by global norm", true),
        real("rl.temperature", "1", 0, 100, "Sampling temperature of rollouts (the policy's logits are divided by it)",
            true),
        real("rl.top_p", "1", 0, 1, "Nucleus sampling mass of rollouts", true),
        integer("rl.top_k", "0", 0, 100000000,
            "Rollouts sample among the k most likely tokens only (before the nucleus, as transformers does); 0: all"),
        choice("rl.loss_norm", { "trajectory", "token", "sequence" },
            "How token losses are averaged in a minibatch: the token mean within each trajectory, then the mean over "
            "trajectories (a long episode weighs as much as a short one); the token mean over the minibatch; the token "
            "mean within each sequence (a window turn, an episode segment), then the mean over sequences"),
        integer("rl.micro_tokens", "16384", 64, 1 << 30,
            "Most padded tokens (rows times the longest) per forward pass in the update and in the learned credit "
            "models' hidden-state passes (memory, not maths)"),
        real("rl.outage_wait_s", "300", 0, inf,
            "How long a run waits for a remote environment server or judge endpoint that stopped answering, "
            "trying again after 1, 2, 4 ... 30 s, before it fails (resumable); 0 = fail at once"),
        flag("rl.filter_uniform_groups", false,
            "Leave groups whose rollouts all have the same outcome out of the update"),
        flag("rl.whiten_advantages", false, "Whiten the advantages of the batch before the update"),
        integer("rl.store_tokens", "8", -1, 1000000,
            "Rollouts per iteration (the first ones) stored token by token for the workbench's Tokens view: ids, loss "
            "mask, behaviour and current log-prob, advantage (about 27 bytes a token); -1: all, 0: none"),
        choice("kl.mode", { "fixed", "adaptive", "off" }, "KL penalty to the SFT reference (k3 estimator)"),
        real("kl.coef", "0.01", 0, inf, "KL coefficient (the start value when adaptive)"),
        real("kl.target", "0.01", 0, inf, "Adaptive controller: target KL per token", true),
        real("kl.horizon", "10000", 1, inf, "Adaptive controller: horizon in samples"),
        flag("critic.enabled", false,
            "Train a value head (a copy of the policy) and use GAE on the method's per-turn values"),
        real("critic.lr", "0.0001", 0, 1, "Critic Adam learning rate", true),
        real("critic.gamma", "1", 0, 1, "GAE discount (gamma_GAE)"),
        real("critic.lambda", "1", 0, 1, "GAE lambda"),
        choice("critic.mode", { "turn", "trajectory" },
            "turn: GAE inside each action with the turn's value on its last token; trajectory: chained across turns"),
        choice(
            "credit.method", methodChoices(), "Credit method the policy trains with; credit.<key> sets its parameters"),
        flag("turnrd.film", true,
            "TurnRD (has with credit.decomposer=turnrd): goal-aware FiLM from the goal embedding; false = goal-blind"),
        choice("turnrd.credit_mode", { "value", "attention" },
            "TurnRD credit: value projection (Eq. 5) or attention (w_t R)"),
        integer("turnrd.width", "128", 8, 4096, "TurnRD model width H"),
        integer("turnrd.epochs", "5", 1, 1000, "TurnRD epochs over the replay per round"),
        integer("turnrd.batch_size", "64", 1, 65536, "TurnRD trajectories per minibatch"),
        real("turnrd.lr", "0.0005", 0, 1, "TurnRD AdamW learning rate", true),
        real("turnrd.half_life", "4", 0, inf, "TurnRD replay recency half-life in rounds (iterations)", true),
        text("pair.probe", "",
            "pair: the probe file (creditlab-cli probe train --output F) that scores turns; empty: fit PAIR's probe on "
            "this run's SFT policy when RL starts"),
        integer("pair.probe_episodes", "200", 4, 1000000, "pair: household episodes of contaminated data to fit on"),
        real("value.gamma", "0.95", 0, 1,
            "value_baseline (TRIAGE App. D): discount of the Monte-Carlo targets gamma^(T-k) R"),
        real("value.lr", "0.0001", 0, 1, "value_baseline: Adam learning rate of the value head", true),
        integer("value.warmup", "10", 0, 1000000, "value_baseline: iterations with lambda = 0 while the head warms up"),
        flag("credit.shadow", true, "Also compute and store every other method's credits on each batch"),
        choice("judge.name", judge::judgeNames(), "Who labels turn roles; judge.<key> sets its parameters"),
        integer("eval.episodes", "50", 0, 1000000, "Held-out tasks evaluated greedily"),
        integer("eval.every", "5", 1, 1000000, "Evaluate every N iterations (and after SFT and the last iteration)"),
        choice("eval.split", { "eval", "train" },
            "Which tasks evaluation plays: the held-out eval split (seeds 0..eval.episodes-1), or the train split's "
            "seeds "
            "0..eval.episodes-1 (the expert demonstrations' own tasks: an overfit check)"),
        flag("eval.store", true, "Store the evaluation episodes with the run (trajectories marked \"eval\": true)"),
        integer("checkpoint.every", "10", 1, 1000000, "Save model and optimizer every N iterations"),
        integer("checkpoint.keep", "3", 1, 1000000, "Checkpoints kept per run (older ones are deleted)"),
    };
    std::sort(s.begin(), s.end(), [](const ParamSpec& a, const ParamSpec& b) { return a.name < b.name; });
    return s;
}

void flattenNode(const YAML::Node& node, const std::string& prefix, const std::string& source,
    std::vector<ConfigEntry>& out, std::set<std::string>& seen)
{
    const auto where = [&](const YAML::Node& n) { return source + ":" + std::to_string(n.Mark().line + 1); };
    for (const auto& item : node) {
        const auto& keyNode = item.first;
        if (!keyNode.IsScalar())
            throw ConfigError(where(keyNode) + ": keys must be plain text");
        const std::string key = prefix.empty() ? keyNode.Scalar() : prefix + "." + keyNode.Scalar();
        const auto& value = item.second;
        if (value.IsMap()) {
            flattenNode(value, key, source, out, seen);
        } else if (value.IsScalar() || value.IsNull()) {
            if (!seen.insert(key).second)
                throw ConfigError(where(keyNode) + ": " + key + ": given twice");
            out.push_back({ key, value.IsNull() ? std::string() : value.Scalar(), where(keyNode) });
        } else {
            throw ConfigError(where(keyNode) + ": " + key + ": expected a value or a map, not a list");
        }
    }
}

} // namespace

const std::vector<ParamSpec>& TrainConfig::specs()
{
    static const std::vector<ParamSpec> s = buildSpecs();
    return s;
}

std::vector<ConfigEntry> flattenYaml(const std::string& yamlText, const std::string& source)
{
    YAML::Node root;
    try {
        root = YAML::Load(yamlText);
    } catch (const YAML::Exception& e) {
        throw ConfigError(source + ":" + std::to_string(e.mark.line + 1) + ": malformed YAML: " + e.msg);
    }
    std::vector<ConfigEntry> out;
    if (root.IsNull())
        return out;
    if (!root.IsMap())
        throw ConfigError(source + ":1: a config is a map of keys to values");
    std::set<std::string> seen;
    flattenNode(root, "", source, out, seen);
    return out;
}

TrainConfig TrainConfig::parse(const std::string& yamlText, const std::string& source,
    const std::vector<std::pair<std::string, std::string>>& overrides)
{
    auto entries = flattenYaml(yamlText, source);
    for (const auto& [key, value] : overrides)
        entries.push_back({ key, value, "--set" });

    std::map<std::string, const ParamSpec*> known;
    for (const auto& spec : specs())
        known[spec.name] = &spec;
    // The last assignment of a key wins (--set over the file); sections keep their order.
    std::map<std::string, ConfigEntry> own;
    std::vector<ConfigEntry> envEntries, creditEntries, judgeEntries;
    const auto sectionOf = [](const std::string& key, const char* prefix) {
        const std::string p = std::string(prefix) + ".";
        return key.rfind(p, 0) == 0 ? std::optional<std::string>(key.substr(p.size())) : std::nullopt;
    };
    // A config written before episode sequences (a stored run's): rl.loss_agg is the window engine's averaging, and
    // such a run trained in window mode; read it as it ran.
    std::vector<ConfigEntry> legacy;
    bool hasMemory = false, hasLegacy = false;
    for (const auto& entry : entries) {
        hasMemory = hasMemory || entry.key == "policy.memory";
        if (entry.key == "rl.loss_agg") {
            hasLegacy = true;
            legacy.push_back(
                { "rl.loss_norm", entry.value == "seq-mean-token-mean" ? "sequence" : "token", entry.where });
        }
    }
    if (hasLegacy && !hasMemory) {
        legacy.push_back({ "policy.memory", "window", legacy.front().where });
        legacy.push_back({ "policy.positions", "learned", legacy.front().where });
    }
    std::vector<ConfigEntry> current;
    for (const auto& entry : legacy)
        current.push_back(entry);
    for (const auto& entry : entries)
        if (entry.key != "rl.loss_agg")
            current.push_back(entry);
    for (const auto& entry : current) {
        if (known.count(entry.key)) {
            // Validate alone first, so that the error names this entry's line.
            try {
                credit::Params::resolve("config", { *known[entry.key] }, { { entry.key, entry.value } });
            } catch (const credit::ParamError& e) {
                std::string message = e.what();
                const auto colon = message.find(": ");
                throw ConfigError(entry.where + ": " + entry.key + ": "
                    + (colon == std::string::npos ? message : message.substr(colon + 2)));
            }
            own[entry.key] = entry;
            continue;
        }
        std::vector<ConfigEntry>* section = nullptr;
        std::optional<std::string> rest;
        if ((rest = sectionOf(entry.key, "env")))
            section = &envEntries;
        else if ((rest = sectionOf(entry.key, "credit")))
            section = &creditEntries;
        else if ((rest = sectionOf(entry.key, "judge")))
            section = &judgeEntries;
        if (!section) {
            // Suggest keys sharing the first component.
            const auto dot = entry.key.find('.');
            std::string hint;
            for (const auto& spec : specs())
                if (dot != std::string::npos && spec.name.compare(0, dot + 1, entry.key, 0, dot + 1) == 0)
                    hint += (hint.empty() ? "" : ", ") + spec.name;
            throw ConfigError(entry.where + ": unknown key '" + entry.key + "'"
                + (hint.empty() ? " (see 'creditlab-cli train --list-keys')" : " (known: " + hint + ")"));
        }
        section->push_back({ *rest, entry.value, entry.where });
    }

    TrainConfig config;
    std::vector<std::pair<std::string, std::string>> assignments;
    for (const auto& [key, entry] : own) {
        assignments.emplace_back(key, entry.value);
        config.m_given.push_back(key); // std::map: sorted
    }
    config.m_params = credit::Params::resolve("config", specs(), assignments);

    const auto assign = [](const std::vector<ConfigEntry>& section) {
        std::map<std::string, std::string> last;
        std::vector<std::pair<std::string, std::string>> out;
        for (const auto& e : section)
            last[e.key] = e.value;
        for (const auto& [k, v] : last)
            out.emplace_back(k, v);
        return out;
    };
    config.m_env = assign(envEntries);
    config.m_credit = assign(creditEntries);
    config.m_judge = assign(judgeEntries);
    const auto whereOf
        = [](const std::vector<ConfigEntry>& section, const std::string& prefix, const std::string& what) {
              for (auto it = section.rbegin(); it != section.rend(); ++it)
                  if (what.find("'" + it->key + "'") != std::string::npos)
                      return it->where + ": " + prefix + "." + it->key + ": ";
              return section.empty() ? std::string() : section.back().where + ": " + prefix + ": ";
          };
    const auto check = [&](const std::vector<ConfigEntry>& section, const std::string& prefix, auto&& validate) {
        try {
            validate();
        } catch (const std::invalid_argument& e) {
            const std::string what = e.what();
            throw ConfigError(whereOf(section, prefix, what) + what);
        }
    };
    check(envEntries, "env", [&] { env::makeEnvironment(config.envName(), config.m_env); });
    check(creditEntries, "credit", [&] { credit::requireEstimator(config.method()).resolve(config.m_credit); });
    check(judgeEntries, "judge", [&] { judge::makeJudge(config.judgeName(), config.m_judge); });
    if (config.getInt("policy.width") % config.getInt("policy.heads") != 0)
        throw ConfigError(source + ": policy.width (" + std::to_string(config.getInt("policy.width"))
            + ") must be a multiple of policy.heads (" + std::to_string(config.getInt("policy.heads")) + ")");
    if (!config.getText("policy.pretrained").empty() && config.getText("policy.memory") == "window")
        throw ConfigError(source
            + ": policy.memory: window needs a built-in policy; a pretrained one (policy.pretrained) "
              "runs in episode mode, its episode a chat in its own template");
    loraTargets(config.getText("policy.lora.targets"), source);
    if (config.getInt("policy.max_action_tokens") + 8 > config.getInt("policy.context"))
        throw ConfigError(
            source + ": policy.context must leave at least 8 prompt tokens beside policy.max_action_tokens");
    return config;
}

bool TrainConfig::given(const std::string& key) const
{
    return std::binary_search(m_given.begin(), m_given.end(), key);
}

std::vector<std::string> loraTargets(const std::string& text, const std::string& source)
{
    static const std::vector<std::string> all { "q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj",
        "down_proj" };
    if (text == "all-linear")
        return all;
    std::vector<std::string> out;
    std::string item;
    std::istringstream in(text);
    while (std::getline(in, item, ',')) {
        item.erase(0, item.find_first_not_of(" \t"));
        item.erase(item.find_last_not_of(" \t") + 1);
        if (std::find(all.begin(), all.end(), item) == all.end())
            throw ConfigError(source + ": policy.lora.targets: '" + item
                + "' is not a projection (q_proj, k_proj, v_proj, o_proj, gate_proj, up_proj, down_proj) nor "
                  "all-linear");
        if (std::find(out.begin(), out.end(), item) == out.end())
            out.push_back(item);
    }
    if (out.empty())
        throw ConfigError(source + ": policy.lora.targets: names no projection (all-linear for all seven)");
    return out;
}

TrainConfig TrainConfig::load(
    const std::string& path, const std::vector<std::pair<std::string, std::string>>& overrides)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw ConfigError(path + ": cannot read the config file");
    std::ostringstream text;
    text << in.rdbuf();
    return parse(text.str(), path, overrides);
}

std::string TrainConfig::getText(const std::string& key) const
{
    for (const auto& spec : specs())
        if (spec.name == key)
            return spec.type == ParamType::Choice ? m_params.getChoice(key) : m_params.getText(key);
    throw std::logic_error("unknown config key '" + key + "'");
}

std::string TrainConfig::runName() const
{
    const std::string name = m_params.getText("name");
    return name.empty() ? envName() + "-" + method() + "-s" + std::to_string(getInt("seed")) : name;
}

std::string TrainConfig::toYaml() const
{
    // One `key: value` line per key, quoted where YAML would read the text differently.
    YAML::Emitter out;
    out << YAML::BeginMap;
    std::vector<std::pair<std::string, std::string>> all;
    for (const auto& spec : specs())
        all.emplace_back(spec.name, m_params.textOf(spec.name));
    for (const auto& [k, v] : m_env)
        all.emplace_back("env." + k, v);
    for (const auto& [k, v] : m_credit)
        all.emplace_back("credit." + k, v);
    for (const auto& [k, v] : m_judge)
        all.emplace_back("judge." + k, v);
    std::sort(all.begin(), all.end());
    for (const auto& [k, v] : all)
        out << YAML::Key << k << YAML::Value << v;
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

} // namespace creditlab::learn
