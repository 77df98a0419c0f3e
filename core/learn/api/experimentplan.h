#pragma once

// The power plan of an experiment: from a pilot (an experiment's finished seeds so far, or a smoke run), each claim's
// variance components (power.h), the seeds and eval tasks its t interval needs to detect an effect with the wanted
// power, and what they cost on this machine, estimated from the pilot's own run times. Torch-free; reads a Store, so
// call it on the thread that owns it. The CLI prints planText() (creditlab-cli experiment plan); the workbench can
// show the same text or the structure.

#include "core/learn/api/claims.h"
#include "core/learn/api/power.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace creditlab {
class Store;
}

namespace creditlab::learn {

struct PlanOptions {
    /// The effect a claim without a margin (>, <) should detect, in its metric's units; a >= or <= claim uses its
    /// `within` margin (the distance from a true difference of 0 to the boundary).
    double effect = 0.03;
    double power = 0.8;
    double level = 0.95; ///< the claims' interval
};

/// Eval tasks per evaluation, the seeds per arm they need, and the compute hours of the trials that takes.
struct PlanOption {
    int tasks = 0; ///< 0: unlimited (only the seed variance left); no hours
    int seeds = 0;
    double hours = 0.0; ///< NaN when the pilot has no run times
    bool newRun = false; ///< another task count: every seed of the claim's arms runs again (the eval set changes)
};

struct ClaimPlan {
    Claim claim;
    ClaimResult now; ///< the claim as judged on the pilot
    VarianceComponents variance;
    double effect = 0.0;
    bool effectIsMargin = false;
    double power = 0.0; ///< of the pilot's seeds, for `effect`
    int seedsNeeded = 0; ///< at the pilot's eval tasks; 0 when it cannot be planned (see note)
    std::vector<PlanOption> options; ///< the pilot's task count first, then more tasks, then unlimited
    std::string note;
};

struct ExperimentPlan {
    std::int64_t sweepId = 0;
    std::string name;
    std::string scale;
    bool partial = false; ///< the pilot has unfinished trials
    std::string sftNote; ///< whether the seed variance includes the SFT start's
    int workers = 1;
    /// Mean compute seconds of a finished trial, and of its evaluations, per arm (arm order; 0 without data).
    std::vector<std::pair<std::string, std::pair<double, double>>> armSeconds;
    std::string timeSource; ///< what the times come from
    PlanOptions options;
    std::vector<ClaimPlan> claims;
};

/// Plans the claims of experiment `sweepId` from its trials so far. Throws std::invalid_argument when there is no
/// such experiment (buildReport()).
ExperimentPlan planExperiment(Store& store, std::int64_t sweepId, const PlanOptions& options = {});

/// The pilot for an experiment file: the latest experiment named `name` in `store` that has a claim with two paired
/// seeds, a finished one first; nullopt when there is none.
std::optional<std::int64_t> findPilot(Store& store, const std::string& name);

/// The plan as text: the pilot, the times, then per claim its seeds now, variance components, seeds and tasks needed
/// and hours.
std::string planText(const ExperimentPlan& plan);

} // namespace creditlab::learn
