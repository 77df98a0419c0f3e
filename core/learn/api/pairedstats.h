#pragma once

// The interval of a claim's difference between two arms, on paired data. Torch-free, any thread.
//
// Every arm of an experiment runs the same seeds, and seed i of every arm starts from the same SFT run with the same
// seed; every evaluation plays the same eval tasks (episode k is the eval split's task with seed k). So the natural
// unit is the pair: per seed, and per eval task within a seed, the outcome of arm A against arm B.
//
//   PerTask   both arms have every seed's per-task outcomes: the seed's difference is the mean over its tasks of the
//             per-task differences, and a bootstrap resamples seeds, then tasks within each resampled seed;
//   PerSeed   one value per seed and arm (auc claims, probe claims, metrics without per-task data, old data):
//             paired per-seed differences;
//   Unpaired  the arms share fewer than two seeds: each arm's values on their own.

#include <cstdint>
#include <string>
#include <vector>

namespace creditlab::learn {

/// A two-sided interval of left - right.
struct Interval {
    double difference = 0.0; ///< mean(left) - mean(right) on the data
    double low = 0.0, high = 0.0;
};

enum class PairingDesign { PerTask, PerSeed, Unpaired };
/// "paired over seeds and eval tasks", "paired over seeds", "unpaired".
const char* pairingDesignName(PairingDesign design);

enum class IntervalMethod {
    Percentile, ///< the bootstrap distribution's quantiles
    Studentized, ///< bootstrap-t: the quantiles of (mean* - mean) / se*, scaled by the data's se
    Bca, ///< bias-corrected and accelerated percentiles (Efron 1987), acceleration from the jackknife over seeds
    T, ///< Student's t over the paired seed differences (Welch's t when unpaired); no resampling
};
/// "percentile bootstrap", "bootstrap-t", "BCa bootstrap", "t".
const char* intervalMethodName(IntervalMethod method);

/// The method the claims use, chosen by simulation (tst_learn_stats::claimIntervalCoverage, run with
/// CREDITLAB_STATS_FULL=1): the coverage of each 95% interval in 2000 simulated experiments like the shipped ones
/// (200 eval tasks at about 0.5 success whose outcomes mostly repeat across seeds, a per-seed sd of eval success of
/// 0.028-0.030 on average over designs from about 0.02 to 0.04, differences 0, 0.025 and 0.05; 2000 resamples):
///
///   seeds x tasks (hierarchical bootstrap)       seeds only (paired seed differences)
///   seeds  percentile  bootstrap-t  BCa    t      percentile  bootstrap-t  BCa    t
///   3      0.905       0.950        0.902  0.950  0.768       0.999 (inf)  0.705  0.950
///   5      0.946       0.948        0.942  0.955  0.846       0.952        0.841  0.955
///   10     0.960       0.946        0.954  0.951  0.902       0.948        0.901  0.951
///
/// t holds its level in both designs at every seed count, and is the narrowest that does (median width at 3, 5, 10
/// seeds: 0.155, 0.086, 0.051; bootstrap-t with tasks 0.171, 0.090, 0.052). Over 3 seeds alone a bootstrap sees at
/// most ten distinct resamples: the percentile and BCa intervals are too narrow, and bootstrap-t is infinite whenever
/// a resample repeats one seed. Resampling tasks as well restores the percentile interval at 5 and 10 seeds, and then
/// makes it too wide (it counts the task noise twice: once in the seeds' spread, once in the tasks').
constexpr IntervalMethod kClaimIntervalMethod = IntervalMethod::T;

/// One claim's data: two arms' values, paired by seed where the arms share seeds.
struct PairedData {
    PairingDesign design = PairingDesign::Unpaired;
    /// The shared seeds, in order (PerTask and PerSeed); each arm's seeds (Unpaired: leftSeeds / rightSeeds).
    std::vector<std::string> seeds;
    std::vector<std::string> leftSeeds, rightSeeds;
    /// Per seed: PerTask and PerSeed pair them by index; Unpaired, each arm has its own.
    std::vector<double> left, right;
    /// PerTask: per seed, the outcome of each eval task, the same tasks in the same order in both arms; the seed's
    /// value is their mean. Empty otherwise.
    std::vector<std::vector<double>> leftTasks, rightTasks;

    bool paired() const { return design != PairingDesign::Unpaired; }
    /// Eval tasks per seed (the fewest, if seeds differ); 0 without per-task data.
    int tasks() const;
    /// Paired: left - right per seed. Unpaired: empty.
    std::vector<double> differences() const;
};

/// Pairs two arms' per-seed values by their seed labels: PerSeed over the seeds both have (in `leftSeeds` order) when
/// there are at least two of them, else Unpaired with every value. `leftTasks`/`rightTasks`, when given (one entry per
/// seed, possibly empty), make it PerTask when every shared seed has per-task outcomes of the same length in both arms.
PairedData pairBySeed(const std::vector<std::string>& leftSeeds, const std::vector<double>& left,
    const std::vector<std::string>& rightSeeds, const std::vector<double>& right,
    const std::vector<std::vector<double>>& leftTasks = {}, const std::vector<std::vector<double>>& rightTasks = {});
/// The unpaired data of two arms' values (seeds unknown).
PairedData unpairedData(const std::vector<double>& left, const std::vector<double>& right);

struct IntervalOptions {
    IntervalMethod method = kClaimIntervalMethod;
    double level = 0.95;
    int resamples = 10000; ///< bootstrap methods
    std::uint64_t seed = 1; ///< bootstrap methods: a fixed stream, so a report is reproducible
};

/// The interval of mean(left) - mean(right) by `options.method` on `data`'s design. Needs a value in each arm; with
/// fewer than two seeds (paired) or two values per arm (unpaired) the interval is the point difference. A
/// bootstrap-t interval can be infinite (a resample of one seed, repeated, has no spread).
Interval differenceInterval(const PairedData& data, const IntervalOptions& options = {});

/// The standard error of the difference's estimate: sd(differences) / sqrt(seeds) paired, Welch's unpaired.
double differenceStandardError(const PairedData& data);

} // namespace creditlab::learn
