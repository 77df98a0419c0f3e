#include "core/env/episode.h"

namespace creditlab::env {

Trajectory runEpisode(Environment& env, Policy& policy, std::uint64_t seed, Split split, const EpisodeOptions& options)
{
    Trajectory t;
    std::string observation = env.reset(seed, split);
    policy.reset(options.policySeed);
    const std::string key = env.taskKey();
    t.id = options.id.empty() ? key : options.id;
    t.group = options.group.empty() ? key : options.group;
    t.task.key = key;
    t.task.env = std::string(env.name());
    t.task.goal = env.goal();
    bool success = false;
    double outcome = 0.0;
    t.turns.reserve(static_cast<std::size_t>(env.maxSteps()));
    while (!env.done()) {
        Turn turn;
        turn.observation = std::move(observation);
        turn.action = std::string(policy.act(env));
        const StepResult& r = env.step(turn.action);
        turn.feedback = r.feedback;
        turn.reward = 0.0;
        turn.valid = r.info.valid;
        turn.state = r.info.stateBefore;
        turn.progress = r.info.progress;
        turn.role = r.info.role;
        if (turn.role)
            turn.roleSource = "judge:oracle";
        observation = r.feedback;
        success = r.success;
        outcome = r.reward;
        t.turns.push_back(std::move(turn));
    }
    t.reward = outcome; // the last step's reward: 1 on success in household, WebShop's graded score in shop
    t.success = success;
    return t;
}

} // namespace creditlab::env
