#pragma once

// Claims of an experiment and their statistics: a small declarative form parsed from text, evaluated on the
// per-seed results of two arms with a bootstrap confidence interval over seeds. Torch-free.
//
//   triage > grpo on eval/success                  the last value (also: "at end")
//   triage > grpo on eval/success at 20            the value at iteration 20 (the last one at or before it)
//   mgr > grpo on eval/valid_rate auc              the area under the curve above its first value, per iteration
//   mgr >= grpo on eval/success within 0.05        not worse by more than 0.05
//   eval/valid_rate(mgr) rises faster than eval/valid_rate(grpo)     the same as "mgr > grpo on ... auc"
//   last_token > attention on probe/auroc_drop     a probe claim: two probes of an experiment's probe tables
//                                                  (`probes:`), one value per contamination seed

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

/// A two-sided percentile bootstrap interval of mean(a) - mean(b), resampling each arm's seeds independently.
struct Interval {
    double difference = 0.0; ///< mean(a) - mean(b) on the data
    double low = 0.0, high = 0.0;
};
/// `resamples` bootstrap draws from a fixed seed, so a report is reproducible. Needs at least one value per arm.
Interval bootstrapDifference(const std::vector<double>& a, const std::vector<double>& b, double level = 0.95,
    int resamples = 10000, std::uint64_t seed = 1);

struct ClaimResult {
    Claim claim;
    std::vector<double> left, right; ///< the per-seed values
    double leftMean = 0.0, leftStd = 0.0, rightMean = 0.0, rightStd = 0.0;
    Interval interval;
    Verdict verdict = Verdict::Inconclusive;
    std::string note; ///< why it is inconclusive without data, e.g. "no seed of grpo has eval/success"
};

/// The verdict of a claim on an interval of left - right:
/// - Greater: supported when the interval lies above 0, contradicted when below;
/// - Less: the mirror;
/// - NotWorse: supported when it lies above -margin, contradicted when it lies below -margin;
/// - NotBetter: the mirror.
/// Otherwise inconclusive.
Verdict verdictOf(const Claim& claim, const Interval& interval);

/// Evaluates a claim on the per-seed values of its two arms. An arm with fewer than two values gives an inconclusive
/// verdict with a note: one seed has no spread to resample.
ClaimResult evaluateClaim(const Claim& claim, const std::vector<double>& left, const std::vector<double>& right);

/// Mean and sample standard deviation (0 for fewer than two values).
std::pair<double, double> meanStd(const std::vector<double>& v);

} // namespace creditlab::learn
