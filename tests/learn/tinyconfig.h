#pragma once

// The tests' tiny training run (a few seconds on one thread): a one-layer policy, short episodes, a handful of
// tasks. Shared by the trainer, sweep and GUI tests.

#include "core/storage/store.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace creditlab::testing {

inline const char* const kTinyConfig = R"(seed: 3
threads: 1
env:
  name: household
  max_steps: 6
policy:
  width: 32
  layers: 1
  heads: 2
  context: 160
  history: 1
  max_action_tokens: 8
tokenizer.episodes: 8
sft:
  expert_episodes: 12
  noisy_episodes: 4
  epochs: 1
  batch_size: 32
rl:
  iterations: 3
  tasks: 2
  group_size: 2
  epochs: 1
  minibatches: 2
eval:
  episodes: 3
  every: 1
checkpoint.every: 1
)";

using MetricMap = std::map<std::pair<std::int64_t, std::string>, double>;

/// Every metric of a run except wall-clock times, throughputs and peak memory, which vary between runs.
inline MetricMap deterministicMetrics(Store& store, std::int64_t runId)
{
    MetricMap out;
    for (const auto& m : store.metrics(runId))
        if (m.name.rfind("time/", 0) != 0 && m.name.rfind("throughput/", 0) != 0 && m.name.rfind("device/", 0) != 0)
            out[{ m.iteration, m.name }] = m.value;
    return out;
}

} // namespace creditlab::testing
