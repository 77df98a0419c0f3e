#pragma once

// `household`: a procedurally generated text household in the style of ALFWorld (Shridhar et al. 2021):
// its six task types, its command grammar, its "Nothing happens." feedback, and its seen/unseen split.
// Unlike ALFWorld it exposes what the simulator knows: validity, progress potential, information gain,
// a canonical state key and an oracle role label per step (the rules are in household_oracle.cpp).

#include "core/env/environment.h"
#include "core/env/household_world.h"

#include <cstdint>
#include <string>
#include <vector>

namespace creditlab::env::household {

/// Why a command answered "Nothing happens.".
enum class InvalidReason : std::uint8_t {
    None, ///< the command was valid
    Malformed, ///< no such verb, or the wrong shape ("take apple 1", "go to")
    UnknownName, ///< names no object or receptacle of this kind in the room ("go to cabinet 99", "take unicorn 1 ...")
    Impossible, ///< well formed but not possible now (take while holding, open an open thing, ...)
};

/// The household environment. One instance per thread; reset() before step().
class HouseholdEnv final : public Environment {
public:
    /// `max_steps` (default 50), `task` (any, or one or more of the six types separated by commas), `scene` (any
    /// or one of four), `receptacles` (0: the scene's own counts; else that many, at least 2).
    static std::vector<credit::ParamSpec> paramSpecs();
    /// Throws credit::ParamError when the task and scene filters admit no task, naming a task type it does not
    /// know, or for receptacles=1.
    explicit HouseholdEnv(const credit::Params& params);
    /// The defaults: 50 steps, any task, any scene.
    HouseholdEnv();

    std::string_view name() const override { return "household"; }
    const std::string& reset(std::uint64_t seed, Split split) override;
    const StepResult& step(std::string_view action) override;
    const std::vector<std::string>& admissibleCommands() const override;
    const std::string& goal() const override { return m_world.goal; }
    const std::string& initialObservation() const override { return m_initial; }
    std::string taskKey() const override;
    std::string taskSpec() const override { return m_world.task.spec(); }
    std::string stateKey() const override;
    double progress() const override { return m_progress; }
    bool done() const override { return m_done; }
    int stepCount() const override { return m_steps; }
    int maxSteps() const override { return m_maxSteps; }
    bool expertAction(std::string& out) const override;
    bool searchExpertAction(std::string& out) const override;
    /// The wrong task: another object type lying in the room that the task's transformation applies to, or
    /// another receptacle type in the room as the destination (household_expert.cpp, mistakenTask()).
    bool mistakenExpertAction(std::uint64_t mistake, std::string& out) const override;

    /// Why the last step was invalid (None when it was valid).
    InvalidReason lastInvalidReason() const { return m_lastInvalid; }
    /// The full simulator state: for tests and tools, never for the agent.
    const World& world() const { return m_world; }

private:
    InvalidReason execute(std::string_view action, std::string& feedback, std::uint64_t& commandHash);

    int m_maxSteps = 50;
    int m_receptacles = 0; ///< 0: the scene's own counts
    TaskFilter m_filter;
    World m_world;
    std::uint64_t m_seed = 0;
    Split m_split = Split::Train;
    bool m_ready = false;
    bool m_done = false;
    int m_steps = 0;
    double m_progress = 0.0;
    int m_knowledge = 0; ///< visited + seen flags set: grows exactly when a step gains information
    InvalidReason m_lastInvalid = InvalidReason::None;
    std::string m_initial;
    StepResult m_result;
    std::vector<std::uint64_t> m_states; ///< physical-state hashes met this episode (initial included)
    std::vector<std::uint64_t> m_pairs; ///< (physical state, command) hashes of valid steps this episode
    mutable std::vector<std::string> m_admissible;
    mutable bool m_admissibleStale = true;
};

} // namespace creditlab::env::household
