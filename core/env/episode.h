#pragma once

// Runs one episode of an environment under a policy and records it as a creditlab::Trajectory.

#include "core/env/environment.h"
#include "core/env/policy.h"
#include "core/model/trajectory.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace creditlab::env {

struct EpisodeOptions {
    std::string id; ///< trajectory id; empty: the task key
    std::string group; ///< group key; empty: the task key
    std::uint64_t policySeed = 0; ///< seeds the policy's random stream
};

/// Resets `env` to (seed, split), lets `policy` act until the episode ends, and returns the trajectory with every
/// field filled: per turn the observation the action answered (the initial observation, then the previous
/// feedback), action, feedback, reward 0 (the outcome is the trajectory's reward), valid, state (the canonical
/// key before the action), progress (after the action), the oracle role and role_source "judge:oracle"; task key,
/// env, goal, terminal reward and success. Deterministic for the same arguments. Does not cancel.
/// When the environment fails mid-episode (std::runtime_error from a step or its commands, e.g. a remote server
/// gone), the trajectory ends there with the turns played so far and is marked failed (markFailed()): callers
/// store it rather than drop it. A failing reset() throws (there is no task to record).
Trajectory runEpisode(
    Environment& env, Policy& policy, std::uint64_t seed, Split split, const EpisodeOptions& options = {});

/// Marks a rollout the environment broke off: success false, reward 0, and the members "failed":true and
/// "error":"<what>" added to Trajectory::extra, so the store and JSONL exports keep the mark. Any thread.
void markFailed(Trajectory& trajectory, std::string_view error);
/// Whether markFailed() marked `trajectory` (also after a store or JSONL round trip).
bool isFailed(const Trajectory& trajectory);

} // namespace creditlab::env
