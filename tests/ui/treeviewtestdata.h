#pragma once

// Rollout groups for the tree view's tests (tst_ui_treeview, tst_ui_treeloops): a hand-made group and a large random
// one.

#include "core/model/trajectory.h"

#include <random>
#include <string>
#include <utility>
#include <vector>

namespace creditlab::ui::testing {

inline Trajectory traj(
    const std::string& id, double reward, const std::vector<std::pair<std::string, std::string>>& steps)
{
    Trajectory t;
    t.id = id;
    t.group = "g";
    t.reward = reward;
    for (const auto& [state, action] : steps) {
        Turn u;
        u.observation = "You see " + state;
        u.state = state;
        u.action = action;
        u.feedback = "ok " + action;
        t.turns.push_back(u);
    }
    return t;
}

/// root → {a, b}; a → {a1, a2}; b → b1. Terminals after each last turn.
inline std::vector<Trajectory> handMade()
{
    return {
        traj("R1", 1.0, { { "root", "go a" }, { "a", "go a1" }, { "a1", "finish" } }),
        traj("R2", 0.0, { { "root", "go a" }, { "a", "go a2" }, { "a2", "finish" } }),
        traj("R3", 0.0, { { "root", "go b" }, { "b", "go b1" }, { "b1", "finish" } }),
    };
}

/// A random prefix tree of about `nodes` state nodes: `rollouts` trajectories branching off shared prefixes.
inline std::vector<Trajectory> bigGroup(int rollouts, int depth)
{
    std::vector<Trajectory> out;
    std::mt19937 rng(7);
    for (int i = 0; i < rollouts; ++i) {
        std::vector<std::pair<std::string, std::string>> steps;
        std::string key = "s";
        const int share = i == 0 ? 0 : int(rng() % depth); // shares `share` steps with an earlier rollout
        const int other = i == 0 ? 0 : int(rng() % i);
        for (int k = 0; k < depth; ++k) {
            const std::string branch = k < share ? std::to_string(other) : std::to_string(i);
            key += "/" + branch;
            steps.push_back({ key, "act " + branch + "." + std::to_string(k) });
        }
        out.push_back(traj("R" + std::to_string(i), double(i % 2), steps));
    }
    return out;
}

} // namespace creditlab::ui::testing
