#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace creditlab {

/// A segment role as TRIAGE defines it: decisive progress, useful exploration,
/// no-progress infrastructure, regression.
enum class Role : std::uint8_t { D, E, N, R };

/// "D", "E", "N" or "R".
std::string_view roleName(Role role);
/// Parses exactly "D", "E", "N" or "R"; anything else gives nullopt.
std::optional<Role> parseRole(std::string_view text);

/// One environment instance: which environment, which seed or parameters, and the goal text.
struct Task {
    std::optional<std::string> key; ///< e.g. "household:seed=17"
    std::optional<std::string> env;
    std::optional<std::string> goal;

    bool operator==(const Task&) const = default;
};

/// The token span of a turn's action inside the policy's sequence (trained runs only).
struct TokenSpan {
    std::int32_t begin = 0;
    std::int32_t end = 0;
    bool operator==(const TokenSpan&) const = default;
};

/// One turn (= segment) of a trajectory. Optional fields keep "absent" distinct from a default,
/// so that a JSONL file survives import and export unchanged.
struct Turn {
    std::string observation;
    std::string action;
    std::optional<std::string> feedback;
    std::optional<double> reward; ///< intermediate reward, excluding the outcome reward
    std::optional<bool> valid;
    std::optional<std::string> state;
    std::optional<double> progress;
    std::optional<Role> role;
    std::optional<std::string> roleSource; ///< "judge:<name>" or "human:<name>"
    std::optional<double> score;
    std::optional<TokenSpan> tokens;
    /// Unknown JSONL fields, as the members of a JSON object without braces: `"k":v,"k2":v2`.
    std::string extra;
    /// Per-method credit of this turn, (method, advantage), in method-name order. JSONL: `"credit": {"grpo": 0.5}`.
    std::vector<std::pair<std::string, double>> credits;

    double rewardOrDefault() const { return reward.value_or(0.0); }
    bool validOrDefault() const { return valid.value_or(true); }
    /// The canonical state key: the `state` field, or the observation text.
    const std::string& stateKey() const { return state ? *state : observation; }

    bool operator==(const Turn&) const = default;
};

/// One rollout: ordered turns, terminal reward and success, group and task.
struct Trajectory {
    std::string id;
    std::string group;
    Task task;
    double reward = 0.0; ///< terminal (outcome) reward
    std::optional<bool> success;
    std::optional<std::int64_t> iteration;
    std::vector<Turn> turns;
    /// Unknown JSONL fields, as the members of a JSON object without braces.
    std::string extra;

    /// `success` when given, else `reward > 0`.
    bool successOrDefault() const { return success.value_or(reward > 0.0); }
    std::int64_t iterationOrDefault() const { return iteration.value_or(0); }

    bool operator==(const Trajectory&) const = default;
};

/// The rollouts of one task at one policy version: what GRPO normalises over.
/// Holds indices into the batch's trajectories, in input order.
struct Group {
    std::string key;
    std::vector<std::size_t> members;
};

/// Everything an estimator sees at once: trajectories in input order and their groups,
/// groups ordered by first appearance.
struct Batch {
    std::vector<Trajectory> trajectories;
    std::vector<Group> groups;

    /// Builds the groups from the trajectories' `group` fields.
    static Batch fromTrajectories(std::vector<Trajectory> trajectories);
    std::size_t turnCount() const;
};

} // namespace creditlab
