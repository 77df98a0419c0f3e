#pragma once

// Claims of an experiment and their statistics: a small declarative form parsed from text, evaluated on the
// per-seed (and, where stored, per-eval-task) results of two arms, paired by seed, with the interval of
// pairedstats.h. Torch-free.
//
//   triage > grpo on eval/success                  the last value (also: "at end")
//   triage > grpo on eval/success at 20            the value at iteration 20 (the last one at or before it)
//   mgr > grpo on eval/valid_rate auc              the area under the curve above its first value, per iteration
//   mgr >= grpo on eval/success within 0.05        not worse by more than 0.05
//   eval/valid_rate(mgr) rises faster than eval/valid_rate(grpo)     the same as "mgr > grpo on ... auc"
//   last_token > attention on probe/auroc_drop     a probe claim: two probes of an experiment's probe tables
//                                                  (`probes:`), one value per contamination seed

#include "core/learn/api/pairedstats.h"
#include "core/learn/api/rliable.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace creditlab::learn {

/// What a claim reads from each run's curve of `metric`.
enum class ClaimStatistic {
    End, ///< the last value
    At, ///< the value at `iteration` (the last recorded at or before it)
    Auc, ///< the mean over iterations of (value - the first value): how fast it rises
};

enum class ClaimDirection {
    Greater, ///< a > b: the difference a - b is positive
    Less, ///< a < b
    NotWorse, ///< a >= b within `margin`: a - b > -margin
    NotBetter, ///< a <= b within `margin`: a - b < margin
};

struct Claim {
    std::string text; ///< as written
    std::string left, right; ///< arm names
    ClaimDirection direction = ClaimDirection::Greater;
    std::string metric;
    ClaimStatistic statistic = ClaimStatistic::End;
    std::int64_t iteration = 0; ///< for At
    double margin = 0.0; ///< for NotWorse / NotBetter

    /// Parses one claim; throws std::invalid_argument saying what is wrong and what the form is.
    static Claim parse(const std::string& text);
    /// The claim in the canonical form ("a > b on metric at end").
    std::string canonical() const;
};

/// What a claim compares, without its arms and direction: "eval/success at end", "eval/success at 20",
/// "eval/valid_rate auc".
std::string claimMeasure(const Claim& claim);

/// The metrics of probe claims: a probe table row's AUROC on the clean-prefix test records, on the
/// contaminated-prefix ones, on both, the drop from clean to contaminated, ECE and Brier (probe/auroc_clean, ...).
const std::vector<std::string>& probeClaimMetrics();
/// Whether `metric` names a probe table column ("probe/..."), known or not.
bool isProbeMetric(const std::string& metric);

/// A metric's curve of one run: (iteration, value) in iteration order.
using Curve = std::vector<std::pair<std::int64_t, double>>;

/// The number a claim reads from one curve; nullopt when the curve has no value it can use.
std::optional<double> claimValue(const Claim& claim, const Curve& curve);

enum class Verdict { Supported, Contradicted, Inconclusive };
const char* verdictName(Verdict v);

/// The interval the claims used before the paired analysis (kept for comparisons, docs/reproductions.md): a two-sided
/// percentile bootstrap of mean(a) - mean(b), resampling each arm's seeds independently. `resamples` draws from a
/// fixed seed, so a result is reproducible. Needs at least one value per arm.
Interval bootstrapDifference(const std::vector<double>& a, const std::vector<double>& b, double level = 0.95,
    int resamples = 10000, std::uint64_t seed = 1);

struct ClaimResult {
    Claim claim;
    std::vector<double> left, right; ///< each arm's per-seed values, in seed order
    double leftMean = 0.0, leftStd = 0.0, rightMean = 0.0, rightStd = 0.0;
    /// The interval of left - right by `method` on `data` (paired where the arms share seeds). Its difference is the
    /// mean over the paired seeds, which is mean(left) - mean(right) unless an arm has seeds the other lacks.
    Interval interval;
    IntervalMethod method = kClaimIntervalMethod;
    PairedData data; ///< what the interval was computed on: its design, seeds and per-task outcomes
    int seeds = 0; ///< paired seeds (unpaired: the smaller arm's count)
    int tasks = 0; ///< eval tasks per seed, 0 without per-task data
    Verdict verdict = Verdict::Inconclusive;
    /// Inconclusive with an interval: the interval's bound in the claimed direction (for >, >=: its high end; for <,
    /// <=: its low end). The data exclude a true difference beyond it; nullopt otherwise.
    std::optional<double> excludable;
    /// P(left > right) over runs (rliable.h) with its stratified bootstrap interval; nullopt without two values per
    /// arm.
    std::optional<Estimate> improvement;
    std::string note; ///< why it is inconclusive without data, e.g. "no seed of grpo has eval/success"
};

/// The verdict of a claim on an interval of left - right (the same whatever the interval's method):
/// - Greater: supported when the interval lies above 0, contradicted when below;
/// - Less: the mirror;
/// - NotWorse: supported when it lies above -margin, contradicted when it lies below -margin;
/// - NotBetter: the mirror.
/// Otherwise inconclusive.
Verdict verdictOf(const Claim& claim, const Interval& interval);

/// Evaluates a claim on its data: the interval (options.method, kClaimIntervalMethod by default), the verdict, the
/// excludable effect and P(left > right). Fewer than two paired seeds (or two values per arm, unpaired) give an
/// inconclusive verdict with a note: one seed has no spread.
ClaimResult evaluateClaim(const Claim& claim, const PairedData& data, const IntervalOptions& options = {});
/// The same on two arms' per-seed values whose seeds are not known to match: unpaired.
ClaimResult evaluateClaim(const Claim& claim, const std::vector<double>& left, const std::vector<double>& right);

/// Mean and sample standard deviation (0 for fewer than two values).
std::pair<double, double> meanStd(const std::vector<double>& v);

} // namespace creditlab::learn
