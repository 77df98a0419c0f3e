#include "core/learn/torch/lm/prompt.h"

#include <algorithm>
#include <stdexcept>

namespace creditlab::learn {

namespace {

constexpr int kMinimumBudget = 8;

/// <obs> o <act> a </act>
std::vector<std::int32_t> encodeTurn(const Tokenizer& tokenizer, const Turn& turn)
{
    std::vector<std::int32_t> ids { Tokenizer::kObs };
    tokenizer.encode(turn.observation, ids);
    ids.push_back(Tokenizer::kAct);
    tokenizer.encode(turn.action, ids);
    ids.push_back(Tokenizer::kEnd);
    return ids;
}

} // namespace

std::vector<std::int32_t> buildPrompt(const Tokenizer& tokenizer, const PromptOptions& options, const std::string& goal,
    const std::vector<Turn>& turns, const std::string& observation)
{
    if (options.budget < kMinimumBudget)
        throw std::invalid_argument("prompt budget must be at least " + std::to_string(kMinimumBudget) + " tokens, got "
            + std::to_string(options.budget));
    const std::size_t budget = static_cast<std::size_t>(options.budget);
    const std::size_t count = turns.size();
    const std::size_t history = static_cast<std::size_t>(std::max(options.history, 0));

    std::vector<std::int32_t> goalIds { Tokenizer::kGoal };
    tokenizer.encode(goal, goalIds);
    std::vector<std::int32_t> observationIds = tokenizer.encode(observation);

    // The window of history turns is [first, count); each shown turn is encoded once, on demand.
    std::size_t first = count - std::min(count, history);
    std::vector<std::vector<std::int32_t>> turnIds(count);
    std::size_t historyLength = 0;
    for (std::size_t k = first; k < count; ++k) {
        turnIds[k] = encodeTurn(tokenizer, turns[k]);
        historyLength += turnIds[k].size();
    }
    // The scene: turn 0's observation, shown after the goal while turn 0 itself is outside the window.
    std::vector<std::int32_t> initialIds;
    if (options.initialObservation && count > 0) {
        initialIds.push_back(Tokenizer::kObs);
        tokenizer.encode(turns.front().observation, initialIds);
    }
    bool showInitial = !initialIds.empty() && first > 0;
    const auto length = [&] {
        return goalIds.size() + (showInitial ? initialIds.size() : 0) + historyLength + observationIds.size() + 2;
    };

    // Over budget: drop history turns oldest first (once turn 0 leaves, the scene takes its place: it is
    // shorter and ranks above any history turn), then the scene, then cut the current observation's front.
    while (length() > budget && first < count) {
        historyLength -= turnIds[first].size();
        ++first;
        showInitial = !initialIds.empty();
    }
    if (length() > budget)
        showInitial = false;
    if (length() > budget) {
        const std::size_t excess = std::min(length() - budget, observationIds.size());
        observationIds.erase(observationIds.begin(), observationIds.begin() + static_cast<std::ptrdiff_t>(excess));
    }
    // Only a goal longer than the whole budget is left: keep its front.
    if (length() > budget)
        goalIds.resize(goalIds.size() - (length() - budget));

    std::vector<std::int32_t> prompt;
    prompt.reserve(length());
    prompt.insert(prompt.end(), goalIds.begin(), goalIds.end());
    if (showInitial)
        prompt.insert(prompt.end(), initialIds.begin(), initialIds.end());
    for (std::size_t k = first; k < count; ++k)
        prompt.insert(prompt.end(), turnIds[k].begin(), turnIds[k].end());
    prompt.push_back(Tokenizer::kObs);
    prompt.insert(prompt.end(), observationIds.begin(), observationIds.end());
    prompt.push_back(Tokenizer::kAct);
    return prompt;
}

} // namespace creditlab::learn
