#pragma once

// Power planning for claims: the variance components of a claim's paired differences, estimated from pilot data, and
// the seeds (and eval tasks) the claims' t interval needs to detect an effect. Torch-free, any thread.
//
// With per-task outcomes the paired difference of seed s on eval task t decomposes as (two-way random effects)
//   e(s, t) = mean + u(s) + v(t) + w(s, t)
// u: the seed's effect on the difference (training randomness: the RL seed, and, when every seed trains its own SFT,
//    the SFT start; with one shared start the start is one fixed draw, and u does not contain its variance);
// v: the task's effect, the same in every seed: the eval tasks are fixed (seeds 0..T-1 of the eval split), so the
//    claim's interval is about them, and v does not enter it;
// w: the rest, one task's outcome in one seed: the binomial noise of the eval episodes.
// One seed's difference, the mean over T tasks, then has variance var(u) + var(w) / T; the claim's t interval over
// S seeds has half-width t(S - 1) * sqrt((var(u) + var(w) / T) / S).

#include "core/learn/api/pairedstats.h"

namespace creditlab::learn {

struct VarianceComponents {
    PairingDesign design = PairingDesign::Unpaired;
    int seeds = 0; ///< paired seeds (Unpaired: the smaller arm's)
    int tasks = 0; ///< eval tasks per seed; 0 without per-task data
    /// Paired: the sample variance of the per-seed differences. Unpaired: var(left) + var(right).
    double differenceVariance = 0.0;
    /// var(u): what more eval tasks cannot reduce. Without per-task data, all of differenceVariance.
    double seedVariance = 0.0;
    /// var(w): one task's paired difference within a seed (the residual mean square); 0 without per-task data.
    double taskVariance = 0.0;

    /// The variance of one seed's difference (Unpaired: of one seed per arm) with `tasks` eval tasks: the observed
    /// one, less the task noise that more tasks remove (seedVariance + taskVariance / tasks when the pilot's seeds
    /// vary at least as much as its task noise predicts), never below seedVariance; 0 tasks or no per-task data: as
    /// observed.
    double seedDifferenceVariance(int tasks = 0) const;
};

/// The components of `data` (at least two seeds, paired or per arm, for a variance). With per-task data, the
/// residual of the seeds x tasks table gives var(w), and var(u) = max(0, differenceVariance - var(w) / T).
VarianceComponents estimateVariance(const PairedData& data);

struct PowerOptions {
    double level = 0.95; ///< the claim's interval
    double power = 0.8;
    int maxSeeds = 10000; ///< the search stops here: an effect of 0 is never detected
};

/// The fewest seeds per arm (>= 2) with which the claim's t interval (two-sided at `level`) excludes the null
/// boundary with probability `power`, when the truth lies `effect` beyond it and one seed's difference has variance
/// `variance` (paired), or each arm's seed values have variances summing to it (unpaired, Welch's df taken as
/// 2n - 2). The usual t-based sample size, n >= ((t(1 - alpha / 2, df) + t(power, df)) * sd / effect)^2, searched
/// over n so that the quantiles use that n's df. maxSeeds + 1 when even maxSeeds does not reach it.
int seedsNeeded(double effect, double variance, const PowerOptions& options = {}, bool paired = true);
/// The power of that interval at `seeds` (the same approximation: the central t shifted by the effect).
double powerAt(int seeds, double effect, double variance, const PowerOptions& options = {}, bool paired = true);

} // namespace creditlab::learn
