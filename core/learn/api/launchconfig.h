#pragma once

// The launcher's document, without widgets: what the Launch page edits, with YAML in and out and one set of
// defaults (TrainConfig::specs()). The page shows it; the tests drive it without a screen.

#include "core/credit/params.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace creditlab::learn {

class TrainConfig;

/// A run config being edited: the environment, credit method and judge (env.name, credit.method, judge.name),
/// and the text of every other key, validated against its spec when it is set. Keys are full dotted config keys
/// ("rl.lr", "credit.alpha", "env.max_steps"). The keys on offer follow the chosen environment, method and judge:
/// choosing another method drops the old one's credit keys. Defaults are TrainConfig's, for the three choices too.
/// A value; not thread-safe.
class LaunchConfig {
public:
    /// A group of keys shown together. `group` is the trainer prefix ("" for run keys like seed, "policy", "rl",
    /// ...), or "credit", "env" or "judge" for the chosen method's, environment's and judge's keys.
    struct Section {
        std::string group;
        std::string prefix; ///< prepended to each spec's name to form its key ("credit." or "")
        std::vector<credit::ParamSpec> specs;
    };

    /// Every key at its default.
    LaunchConfig();

    const std::string& env() const { return m_env; }
    const std::string& method() const { return m_method; }
    const std::string& judge() const { return m_judge; }

    /// The keys on offer, in the order a form shows them: run keys, policy, tokenizer, sft, rl, kl, critic, then
    /// credit, env and judge, then eval, checkpoint and any other trainer prefix.
    std::vector<Section> sections() const;
    /// Whether `key` is on offer (one of the three choices or a key of sections()).
    bool hasKey(const std::string& key) const;
    /// The text of a key: its value, else its default; empty for a key not on offer.
    std::string value(const std::string& key) const;
    std::string defaultValue(const std::string& key) const;
    bool isDefault(const std::string& key) const;

    /// Sets a key. The three choices take a known name; any other key must be on offer and its text must
    /// validate against its spec. Returns the reason, naming the key, when refused (the document is then
    /// unchanged); empty when set.
    std::string set(const std::string& key, const std::string& text);
    /// Puts a key back to its default (the three choices too).
    void reset(const std::string& key);
    /// Every key but the three choices back to its default.
    void resetValues();

    /// Replaces the document with a YAML config; a choice it leaves out takes its default. Throws ConfigError
    /// naming `source`, the line and the key when the file is not a valid run config; the document is then
    /// unchanged.
    void load(const std::string& yamlText, const std::string& source);
    /// The keys whose text differs from their default, in sections() order, as (key, text).
    std::vector<std::pair<std::string, std::string>> changedValues() const;
    /// The config as `creditlab-cli train --config` reads it: a comment, the three choices, then every changed
    /// key.
    std::string toYaml() const;
    /// The document as a validated run config; throws ConfigError.
    TrainConfig toTrainConfig() const;
    /// The name a run of this document gets. A name typed in (one that differs from the loaded file's) is kept;
    /// otherwise it is "<loaded name, else env> · <method> · s<seed>", then up to three keys that differ from the
    /// loaded file as "key=value" and "+N" for the rest: two runs of one preset can be told apart everywhere.
    std::string runName() const;
    /// toTrainConfig() with `name` set to runName(): what the launcher starts. Throws ConfigError.
    TrainConfig toRunConfig() const;

private:
    const credit::ParamSpec* findSpec(const std::string& key, std::string* prefix = nullptr) const;
    const std::string* choiceOf(const std::string& key) const; ///< the member of a choice key, else nullptr
    std::string* choice(const std::string& key);
    void dropKeysNotOnOffer();

    std::string m_env;
    std::string m_method;
    std::string m_judge;
    std::map<std::string, std::string> m_values; ///< keys set away from their default
    std::string m_loadedName; ///< `name` of the last loaded file
    std::map<std::string, std::string> m_loaded; ///< the choices and m_values as the last file loaded them
    mutable std::vector<Section> m_sections; ///< sections() for m_sectionsFor, the choices they were built for
    mutable std::string m_sectionsFor;
};

/// `text` as a YAML scalar: as it is when YAML reads it back the same, else double-quoted. Any thread.
std::string yamlScalar(const std::string& text);

} // namespace creditlab::learn
