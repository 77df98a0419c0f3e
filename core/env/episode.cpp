#include "core/env/episode.h"

#include "core/interchange/jsonscanner.h"

#include <stdexcept>

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
        try {
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
        } catch (const std::runtime_error& e) {
            // The environment broke off (a remote server died): keep what was played, marked, rather than drop it.
            markFailed(t, e.what());
            return t;
        }
    }
    t.reward = outcome; // the last step's reward: 1 on success in household, WebShop's graded score in shop
    t.success = success;
    return t;
}

void markFailed(Trajectory& trajectory, std::string_view error)
{
    trajectory.success = false;
    trajectory.reward = 0.0;
    if (isFailed(trajectory))
        return;
    std::string members = "\"failed\":true,\"error\":";
    appendJsonString(members, error);
    trajectory.extra = trajectory.extra.empty() ? members : trajectory.extra + "," + members;
}

bool isFailed(const Trajectory& trajectory)
{
    const std::string_view extra = trajectory.extra;
    return extra.rfind("\"failed\":true", 0) == 0 || extra.find(",\"failed\":true") != std::string_view::npos;
}

} // namespace creditlab::env
