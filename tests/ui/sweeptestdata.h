#pragma once

// What the sweep page and main window tests share: a tiny experiment they run in the workbench.

namespace creditlab::ui::testing {

/// A tiny experiment: two arms, two seeds, a shared SFT, two claims.
inline constexpr const char* kTinyExperiment = R"(name: tiny-exp
base:
  seed: 3
  env: {name: household, max_steps: 6}
  policy: {width: 32, layers: 1, heads: 2, context: 160, max_action_tokens: 8}
  tokenizer.episodes: 8
  sft: {expert_episodes: 12, noisy_episodes: 4, epochs: 1, batch_size: 32}
  rl: {iterations: 2, tasks: 2, group_size: 2, epochs: 1, minibatches: 2}
  eval: {episodes: 3, every: 1}
arms:
  triage: {credit.method: triage}
  grpo: {credit.method: grpo}
seeds: [0, 1]
metrics: [eval/success, rollout/invalid_rate]
probes: {seeds: [42, 43], episodes: 20}
claims:
  - triage > grpo on eval/success
  - triage < grpo on rollout/invalid_rate auc
  - last_token > attention on probe/auroc_drop
workers: 1
threads: 1
)";

} // namespace creditlab::ui::testing
