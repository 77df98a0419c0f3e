#pragma once

// What the resume tests share: a run stopped after its first RL iteration (as a kill after a checkpoint leaves it),
// and the first difference between two runs' deterministic metrics.

#include "core/learn/torch/engine/trainer.h"
#include "tinyconfig.h"

#include <atomic>
#include <cmath>
#include <string>

namespace creditlab::testing {

/// Trains `config` in `database` until its first RL iteration has ended, then stops. Returns the result (its
/// iterationsDone is 1 when the stop landed there).
inline learn::TrainResult trainFirstIteration(const learn::TrainConfig& config, const std::string& database)
{
    learn::Trainer trainer(config, { database, "cpu" });
    std::atomic<bool> stop { false };
    return trainer.run(
        [&](const learn::TrainProgress& p) {
            if (p.phase == Phase::Rl)
                stop.store(true);
            return true;
        },
        &stop);
}

/// The first way `actual` differs from `expected` ("iteration 2 train/kl: 0.25 != 0.5"), or "" when every metric is
/// there with the same value (within `tolerance`, relative to the larger of 1 and the value).
inline std::string metricDifference(const MetricMap& expected, const MetricMap& actual, double tolerance = 0.0)
{
    if (actual.size() != expected.size())
        return std::to_string(actual.size()) + " metrics, expected " + std::to_string(expected.size());
    for (const auto& [key, value] : expected) {
        const auto it = actual.find(key);
        const std::string name = "iteration " + std::to_string(key.first) + " " + key.second;
        if (it == actual.end())
            return name + ": missing";
        if (!(std::abs(it->second - value) <= tolerance * std::max(1.0, std::abs(value))))
            return name + ": " + std::to_string(it->second) + " != " + std::to_string(value);
    }
    return {};
}

} // namespace creditlab::testing
