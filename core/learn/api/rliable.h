#pragma once

// Aggregate scores after rliable (Agarwal et al. 2021, "Deep Reinforcement Learning at the Edge of the Statistical
// Precipice"): the interquartile mean, the optimality gap, the probability of improvement and performance profiles,
// with stratified bootstrap intervals. Torch-free, any thread.
//
// rliable's scores form a runs x tasks matrix, where its tasks are environments (Atari games). An experiment here has
// one environment, so its claims' aggregates use one task: each run's (seed's) score on the claim's measure. Its eval
// episodes are instances of that task, not rliable tasks: their outcomes are 0 or 1, and pooled over (seed, episode)
// the IQM of 0/1 values is a step function of the success rate (0 below 25%, 1 above 75%). So:
//   - IQM, optimality gap and P(A > B) are over runs' scores (one per seed). rliable's IQM trims 25% of the scores
//     from each end (scipy.stats.trim_mean): none of 3 runs, one of 4 to 7, two of 8 to 11; at 3 seeds it is the
//     mean, and it departs from it as seeds are added.
//   - A performance profile with per-episode outcomes is over eval tasks: the fraction of tasks whose success rate
//     over the seeds exceeds tau (with 3 seeds: solved by at least one, two, all three); without them it is rliable's
//     run-score distribution, the fraction of runs scoring above tau.

#include <cstdint>
#include <vector>

namespace creditlab::learn {

/// Scores of one arm: runs x tasks, every run with the same tasks.
using ScoreMatrix = std::vector<std::vector<double>>;

/// The mean of the middle half of `scores`: rliable's IQM, scipy.stats.trim_mean(scores, 0.25), which removes
/// floor(n / 4) scores from each end.
double interquartileMean(std::vector<double> scores);
/// The mean of max(0, gamma - score): how far the scores fall short of `gamma` (rliable: normalised scores, gamma = 1).
double optimalityGap(const std::vector<double>& scores, double gamma = 1.0);
/// P(A > B): for each task, the probability that a random run of A scores above a random run of B (ties count one
/// half), averaged over tasks. The matrices have the same tasks; their runs may differ in number.
double probabilityOfImprovement(const ScoreMatrix& a, const ScoreMatrix& b);
/// Every score of a matrix, run by run.
std::vector<double> pooled(const ScoreMatrix& scores);

/// An aggregate with its 95% (or `level`) percentile interval from a stratified bootstrap: each task's runs are
/// resampled with replacement, independently per task (rliable's StratifiedBootstrap).
struct Estimate {
    double value = 0.0;
    double low = 0.0, high = 0.0;
};

struct BootstrapOptions {
    double level = 0.95;
    int resamples = 2000;
    std::uint64_t seed = 1;
};

Estimate interquartileMeanEstimate(const ScoreMatrix& scores, const BootstrapOptions& options = {});
Estimate optimalityGapEstimate(const ScoreMatrix& scores, double gamma = 1.0, const BootstrapOptions& options = {});
/// Resamples A's and B's runs independently, task by task.
Estimate probabilityOfImprovementEstimate(
    const ScoreMatrix& a, const ScoreMatrix& b, const BootstrapOptions& options = {});

/// The fraction of scores above each tau, with pointwise bootstrap bands.
struct PerformanceProfile {
    std::vector<double> taus;
    std::vector<double> fraction, low, high;
};

/// rliable's run-score distribution: the fraction of the (run, task) scores above each tau; bands from the stratified
/// bootstrap over runs.
PerformanceProfile runScoreProfile(
    const ScoreMatrix& scores, const std::vector<double>& taus, const BootstrapOptions& options = {});
/// The profile over tasks of runs' mean scores: the fraction of tasks whose mean over the runs is above each tau;
/// bands from resampling runs, then tasks.
PerformanceProfile taskMeanProfile(
    const ScoreMatrix& scores, const std::vector<double>& taus, const BootstrapOptions& options = {});

/// `count` evenly spaced values from lo to hi (both included).
std::vector<double> tauGrid(double lo, double hi, int count);

} // namespace creditlab::learn
