#pragma once

// How much memory a trial needs, and how many trials fit side by side (issue 38). `sweep run`, `experiment run` and
// their resume check it before they start trials in parallel, and run fewer at once when the machine has too little.
// Torch-free; any thread.

#include "core/learn/api/trainconfig.h"

#include <optional>
#include <string>

namespace creditlab::learn {

/// A trial's memory on the CPU, in bytes.
struct TrialMemory {
    /// The largest working set of one iteration: the policy, its reference and optimizer state, the KV caches of
    /// generation and of one evaluation chunk, and one update micro-batch's activations and logits.
    double live = 0;
    /// What the process holds for the trial at its peak: `live` times the allocator's overhead
    /// (kResidentPerLive, measured: docs/benchmarks.md, "Memory: trials side by side").
    double resident = 0;
};

/// Resident memory per byte of the estimated working set. The allocator keeps freed blocks for reuse (process.cpp's
/// settings, for speed), and each trial's thread has its own arena, so a process holds far more than one iteration's
/// working set: measured two-trial experiments of the 256 x 2 household configs (an estimate of 1.45 GiB a trial) held
/// 1.6x (has, 10 iterations), 2.4x (triage), 5.5x (has) and 6.2x (mgr) of it per trial (docs/benchmarks.md, "Memory:
/// trials side by side"). The largest, rounded up, is taken.
inline constexpr double kResidentPerLive = 6.5;

/// The estimate for `config`: a built-in policy from policy.width, .layers and .context; a pretrained one from its
/// config.json (policy.pretrained), with LoRA or full fine-tuning as configured. On a CUDA device the working set is
/// on the GPU: only the weights' host copy counts. Throws what reading a pretrained model's config throws.
TrialMemory estimateTrialMemory(const TrainConfig& config, const std::string& device = "cpu");

/// MemAvailable of /proc/meminfo, in bytes; nullopt where it cannot be read. CREDITLAB_MEMAVAILABLE_MIB, when set,
/// stands in for it (tests).
std::optional<double> availableMemoryBytes();

/// How many trials run at once: `workers`, or as many of `trialBytes` each as fit in `available` bytes (at least 1).
/// `note` says so when that is fewer than `workers` (empty otherwise), e.g. "memory: 2 trials at once need about
/// 17.2 GiB and 11.0 GiB is available: running 1 at a time".
struct WorkerFit {
    int workers = 1;
    std::string note;
};
WorkerFit fitWorkers(int workers, double trialBytes, std::optional<double> available);

} // namespace creditlab::learn
