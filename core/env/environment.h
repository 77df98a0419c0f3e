#pragma once

// The text-environment interface, its step result, and the registry of built-in environments.
// Environments are plain C++: no printing, no Qt; one instance per thread.

#include "core/credit/params.h"
#include "core/model/trajectory.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace creditlab::env {

/// Which half of the task space an episode is drawn from; the two hold disjoint task specs
/// (like ALFWorld's seen and unseen splits).
enum class Split : std::uint8_t { Train, Eval };

/// "train" or "eval".
std::string_view splitName(Split split);
/// Parses exactly "train" or "eval".
std::optional<Split> parseSplit(std::string_view text);

/// What the simulator knows about one step and the agent's policy never sees.
struct StepInfo {
    bool valid = true; ///< false when the feedback is "Nothing happens."
    double progress = 0.0; ///< progress potential after the step, in [0, 1]
    double progressBefore = 0.0; ///< progress potential before the step
    std::string stateBefore; ///< canonical state key before the step
    std::string stateAfter; ///< canonical state key after the step
    bool gainedInformation = false; ///< the step revealed something the agent had not observed before
    std::optional<Role> role; ///< the oracle's role label, when the environment has an oracle
};

/// The answer to one action. The admissible commands of the new state come from
/// Environment::admissibleCommands(), computed lazily.
struct StepResult {
    std::string feedback;
    /// The outcome reward, given on the step that ends the episode (0 on every other step): 1 on success and 0
    /// otherwise in household; WebShop's graded purchase score in [0, 1] in shop (success = a score of 1).
    double reward = 0.0;
    bool done = false; ///< success or step limit
    bool success = false;
    StepInfo info;
};

/// A procedurally generated text environment. Deterministic per (seed, split). Not thread-safe: use one
/// instance per thread. Nothing here cancels: a step takes microseconds.
class Environment {
public:
    virtual ~Environment() = default;

    virtual std::string_view name() const = 0;
    /// Starts a new episode; returns the initial observation (scene description and "Your task is to: ...").
    virtual const std::string& reset(std::uint64_t seed, Split split) = 0;
    /// Executes one action text; throws std::logic_error before reset() or after the episode is done.
    /// The reference stays valid until the next step() or reset().
    virtual const StepResult& step(std::string_view action) = 0;
    /// The commands that are valid now (ALFWorld's admissible commands), computed on first use per state.
    virtual const std::vector<std::string>& admissibleCommands() const = 0;

    /// The goal text, e.g. "put a clean mug in coffeemachine."
    virtual const std::string& goal() const = 0;
    /// The initial observation of the current episode.
    virtual const std::string& initialObservation() const = 0;
    /// "household:seed=17" (train) or "household:seed=17:split=eval".
    virtual std::string taskKey() const = 0;
    /// The task spec that decides the split, e.g. "pick_heat_then_place/kitchen/apple/fridge".
    virtual std::string taskSpec() const = 0;
    /// The canonical state key and the progress potential of the current state.
    virtual std::string stateKey() const = 0;
    virtual double progress() const = 0;
    virtual bool done() const = 0;
    virtual int stepCount() const = 0;
    virtual int maxSteps() const = 0;

    /// Writes the expert's next command into `out`; false when the environment has no expert or is done.
    virtual bool expertAction(std::string& out) const = 0;
    /// As expertAction(), but deciding only from what the agent has observed so far: the demonstrator a
    /// text-only policy can imitate under partial observability. Fully observed environments use the expert.
    virtual bool searchExpertAction(std::string& out) const { return expertAction(out); }
    /// The expert's next command for a plausible wrong version of the task, one that differs in one decision (the
    /// household: another object type, or another destination), chosen by `mistake`: the same value gives the
    /// same wrong task for the whole episode. A noisy policy follows it to make a mistake that persists. False
    /// when the environment offers no such mistake (the default) or the wrong task is done already.
    virtual bool mistakenExpertAction(std::uint64_t mistake, std::string& out) const
    {
        (void)mistake;
        out.clear();
        return false;
    }
};

/// A registered environment: its name, one-line summary, parameters (dotted keys) and factory.
struct EnvironmentInfo {
    std::string name;
    std::string summary;
    std::vector<credit::ParamSpec> params;
    std::function<std::unique_ptr<Environment>(const credit::Params&)> create;
};

/// Every built-in environment, in the order `env list` shows them.
const std::vector<EnvironmentInfo>& environments();
/// nullptr when unknown.
const EnvironmentInfo* findEnvironment(std::string_view name);
/// Creates `name` configured by `assignments` ("max_steps", "50"). Throws std::invalid_argument listing
/// the known names for an unknown one, credit::ParamError for a bad parameter.
std::unique_ptr<Environment> makeEnvironment(
    std::string_view name, const std::vector<std::pair<std::string, std::string>>& assignments = {});

} // namespace creditlab::env
