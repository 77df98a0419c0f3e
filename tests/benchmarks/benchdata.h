#pragma once

// The benchmarks' generated data: household-like trajectories of ten turns, eight rollouts per task, fixed seed.
// Shared by bench_import (file import) and bench_serve (the same rows posted over loopback HTTP).

#include "core/model/trajectory.h"

#include <random>
#include <string>
#include <vector>

namespace creditlab::bench {

constexpr int kTurnsPerTrajectory = 10;

inline std::vector<Trajectory> generate(std::size_t turns)
{
    static const char* kPlaces[] = { "countertop 1", "cabinet 3", "fridge 1", "sinkbasin 1", "drawer 2", "shelf 4" };
    static const char* kVerbs[] = { "go to", "open", "take mug 1 from", "clean mug 1 with", "put mug 1 in/on" };
    std::mt19937 rng(7);
    std::vector<Trajectory> out;
    const std::size_t n = turns / kTurnsPerTrajectory;
    for (std::size_t i = 0; i < n; ++i) {
        Trajectory t;
        t.id = "it0-task" + std::to_string(i / 8) + "-r" + std::to_string(i % 8);
        t.group = "it0-task" + std::to_string(i / 8);
        t.task.key = "household:seed=" + std::to_string(i / 8);
        t.task.env = "household";
        t.task.goal = "put a clean mug in coffeemachine.";
        t.reward = (rng() % 2) ? 1.0 : 0.0;
        for (int k = 0; k < kTurnsPerTrajectory; ++k) {
            Turn u;
            const char* place = kPlaces[rng() % 6];
            u.observation = std::string("You are in the middle of a room. Looking quickly around you, you see a ")
                + place + ", a cabinet 2, a coffeemachine 1 and a toaster 1. Step " + std::to_string(k) + ".";
            u.action = std::string(kVerbs[rng() % 5]) + " " + place;
            u.feedback = rng() % 4 == 0 ? std::string("Nothing happens.")
                                        : std::string("On the ") + place + ", you see a mug 1 and a spoon 2.";
            u.reward = 0.0;
            u.valid = rng() % 4 != 0;
            u.state = std::string("loc=") + place + "|holding=-|step=" + std::to_string(k);
            u.progress = (k + 1) / static_cast<double>(kTurnsPerTrajectory);
            t.turns.push_back(std::move(u));
        }
        out.push_back(std::move(t));
    }
    return out;
}

} // namespace creditlab::bench
