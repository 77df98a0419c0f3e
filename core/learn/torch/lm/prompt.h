#pragma once

// Builds the policy's prompt from a trajectory in progress. Torch-free.

#include "core/learn/torch/lm/tokenizer.h"
#include "core/model/trajectory.h"

#include <cstdint>
#include <string>
#include <vector>

namespace creditlab::learn {

struct PromptOptions {
    int history = 4; ///< H: how many previous turns (observation + action) to show
    bool initialObservation = true; ///< always show the episode's first observation (the scene) after the goal
    int budget = 256; ///< most tokens the prompt may take (context length minus the action budget)
};

/// The prompt for the next action of a trajectory whose turns so far are `turns` and whose current
/// observation is `observation`:
///
///     <goal> goal [<obs> initial observation]  (<obs> o_k <act> a_k </act>) for the last H turns
///     <obs> observation <act>
///
/// The sampled action follows the final <act> and ends with </act>. When `initialObservation` is set
/// and there are earlier turns, the first turn's observation is shown once after the goal (and not again
/// when turn 0 is inside the window). When the prompt exceeds `budget`, whole history turns are dropped
/// oldest first (when that drops turn 0, the initial observation takes its place, as it is shorter); if it
/// still does not fit, the initial observation is dropped, then tokens are cut from the front of the current
/// observation, and last, for a goal longer than the whole budget, from the end of the goal. The result
/// always starts with <goal> and ends with <act> and is never longer than `budget` (budget must be at least
/// 8; throws std::invalid_argument otherwise). A negative `history` counts as 0. Any thread.
std::vector<std::int32_t> buildPrompt(const Tokenizer& tokenizer, const PromptOptions& options, const std::string& goal,
    const std::vector<Turn>& turns, const std::string& observation);

} // namespace creditlab::learn
