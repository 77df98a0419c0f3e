#pragma once

// The training configuration: every key the trainer reads, with metadata, and its YAML form. Torch-free.

#include "core/credit/params.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace creditlab::learn {

/// A bad config: `what()` names the file, the line when known, and the key, e.g.
/// `run.yaml:12: rl.lr: expected a number, got 'fast'`.
class ConfigError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

/// One `key: value` of a config file, flattened to a dotted key.
struct ConfigEntry {
    std::string key;
    std::string value;
    std::string where; ///< "run.yaml:12" or "--set"
};

/// A validated training configuration. The trainer's own keys (seed, policy.*, sft.*, rl.*, kl.*, critic.*,
/// eval.*, checkpoint.*, ...) are described by specs(); three sections are validated against the object they
/// configure: `env.*` against the environment named by env.name, `credit.*` against the estimator named by
/// credit.method and `judge.*` against the judge named by judge.name. Immutable; any thread.
class TrainConfig {
public:
    /// The trainer's keys with types, ranges, defaults and docs (what the GUI form and `train --help-config`
    /// show).
    static const std::vector<credit::ParamSpec>& specs();

    /// Parses YAML text (nested maps flatten to dotted keys; dotted keys are accepted as they are), applies
    /// `overrides` (`--set key=value`, last wins) and validates everything. Throws ConfigError naming
    /// `source`, the line and the key for malformed YAML, an unknown key, a bad value or a bad section.
    static TrainConfig parse(const std::string& yamlText, const std::string& source = "config",
        const std::vector<std::pair<std::string, std::string>>& overrides = {});
    /// Reads and parses a file; throws ConfigError naming the path when it cannot be read.
    static TrainConfig load(
        const std::string& path, const std::vector<std::pair<std::string, std::string>>& overrides = {});
    /// All defaults.
    static TrainConfig defaults() { return parse("{}", "defaults"); }

    const credit::Params& params() const { return m_params; }
    long long getInt(const std::string& key) const { return m_params.getInt(key); }
    double getDouble(const std::string& key) const { return m_params.getDouble(key); }
    bool getBool(const std::string& key) const { return m_params.getBool(key); }
    std::string getText(const std::string& key) const;

    /// Whether `key` (one of specs()) was assigned in the text or an override, not left to its default. A stored run's
    /// config assigns every key.
    bool given(const std::string& key) const;

    std::string envName() const { return m_params.getChoice("env.name"); }
    std::string method() const { return m_params.getChoice("credit.method"); }
    std::string judgeName() const { return m_params.getChoice("judge.name"); }
    /// The section assignments, without their prefix ("max_steps", "30").
    const std::vector<std::pair<std::string, std::string>>& envAssignments() const { return m_env; }
    const std::vector<std::pair<std::string, std::string>>& creditAssignments() const { return m_credit; }
    const std::vector<std::pair<std::string, std::string>>& judgeAssignments() const { return m_judge; }

    /// The run name: `name` when set, else "<env>-<method>-s<seed>".
    std::string runName() const;
    /// Every resolved key, one `key: value` line each in key order: what the store keeps and
    /// `train --resume` reads back with parse().
    std::string toYaml() const;

private:
    credit::Params m_params;
    std::vector<std::string> m_given; ///< sorted
    std::vector<std::pair<std::string, std::string>> m_env;
    std::vector<std::pair<std::string, std::string>> m_credit;
    std::vector<std::pair<std::string, std::string>> m_judge;
};

/// policy.lora.targets as projection names: "all-linear" is all seven, else a comma-separated list of them. Throws
/// ConfigError naming `source` and an unknown name.
std::vector<std::string> loraTargets(const std::string& text, const std::string& source = "config");

/// Flattens YAML text into entries in file order; throws ConfigError for malformed YAML, a sequence, or a
/// key given twice.
std::vector<ConfigEntry> flattenYaml(const std::string& yamlText, const std::string& source);

} // namespace creditlab::learn
