// The paired interval of a claim: data by design (per task, per seed, unpaired), the hierarchical bootstrap and the
// four interval methods.
#include "core/learn/api/pairedstats.h"
#include "core/learn/api/distributions.h"
#include "core/learn/api/rng.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>

namespace creditlab::learn {

const char* pairingDesignName(PairingDesign design)
{
    switch (design) {
    case PairingDesign::PerTask:
        return "paired over seeds and eval tasks";
    case PairingDesign::PerSeed:
        return "paired over seeds";
    case PairingDesign::Unpaired:
        return "unpaired";
    }
    return "unpaired";
}

const char* intervalMethodName(IntervalMethod method)
{
    switch (method) {
    case IntervalMethod::Percentile:
        return "percentile bootstrap";
    case IntervalMethod::Studentized:
        return "bootstrap-t";
    case IntervalMethod::Bca:
        return "BCa bootstrap";
    case IntervalMethod::T:
        return "t";
    }
    return "t";
}

int PairedData::tasks() const
{
    if (design != PairingDesign::PerTask || leftTasks.empty())
        return 0;
    std::size_t fewest = leftTasks.front().size();
    for (const auto& t : leftTasks)
        fewest = std::min(fewest, t.size());
    return static_cast<int>(fewest);
}

std::vector<double> PairedData::differences() const
{
    if (!paired())
        return {};
    std::vector<double> out(left.size());
    for (std::size_t k = 0; k < left.size(); ++k)
        out[k] = left[k] - right[k];
    return out;
}

PairedData unpairedData(const std::vector<double>& left, const std::vector<double>& right)
{
    PairedData d;
    d.left = left;
    d.right = right;
    return d;
}

PairedData pairBySeed(const std::vector<std::string>& leftSeeds, const std::vector<double>& left,
    const std::vector<std::string>& rightSeeds, const std::vector<double>& right,
    const std::vector<std::vector<double>>& leftTasks, const std::vector<std::vector<double>>& rightTasks)
{
    if (leftSeeds.size() != left.size() || rightSeeds.size() != right.size())
        throw std::invalid_argument("pairBySeed: one seed label per value");
    std::map<std::string, std::size_t> rightAt;
    for (std::size_t k = 0; k < rightSeeds.size(); ++k)
        rightAt.emplace(rightSeeds[k], k);
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    for (std::size_t k = 0; k < leftSeeds.size(); ++k)
        if (const auto it = rightAt.find(leftSeeds[k]); it != rightAt.end())
            pairs.emplace_back(k, it->second);
    PairedData d;
    if (pairs.size() < 2) {
        d = unpairedData(left, right);
        d.leftSeeds = leftSeeds;
        d.rightSeeds = rightSeeds;
        return d;
    }
    d.design = PairingDesign::PerSeed;
    bool perTask = leftTasks.size() == left.size() && rightTasks.size() == right.size();
    for (const auto& [l, r] : pairs) {
        d.seeds.push_back(leftSeeds[l]);
        d.left.push_back(left[l]);
        d.right.push_back(right[r]);
        perTask = perTask && !leftTasks[l].empty() && leftTasks[l].size() == rightTasks[r].size();
    }
    d.leftSeeds = d.rightSeeds = d.seeds;
    if (perTask) {
        d.design = PairingDesign::PerTask;
        for (const auto& [l, r] : pairs) {
            d.leftTasks.push_back(leftTasks[l]);
            d.rightTasks.push_back(rightTasks[r]);
        }
    }
    return d;
}

namespace {

double mean(const std::vector<double>& v)
{
    return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

double variance(const std::vector<double>& v)
{
    if (v.size() < 2)
        return 0.0;
    const double m = mean(v);
    double ss = 0.0;
    for (double x : v)
        ss += (x - m) * (x - m);
    return ss / static_cast<double>(v.size() - 1);
}

double welchStandardError(const std::vector<double>& a, const std::vector<double>& b)
{
    return std::sqrt(variance(a) / static_cast<double>(a.size()) + variance(b) / static_cast<double>(b.size()));
}

/// The q-quantile of sorted values, interpolating linearly between order statistics (not across an infinity).
double quantile(const std::vector<double>& sorted, double q)
{
    const double pos = std::clamp(q, 0.0, 1.0) * static_cast<double>(sorted.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const auto hi = std::min(sorted.size() - 1, lo + 1);
    const double frac = pos - static_cast<double>(lo);
    if (!std::isfinite(sorted[lo]) || !std::isfinite(sorted[hi]))
        return frac < 0.5 ? sorted[lo] : sorted[hi];
    return sorted[lo] + frac * (sorted[hi] - sorted[lo]);
}

/// One seed's per-task differences as a distribution to resample from: its distinct values and their counts. The
/// mean of `count` draws with replacement is a multinomial over the distinct values, so with binary outcomes (three
/// distinct differences) a resampled seed costs two binomial draws instead of 200 uniform ones.
struct TaskPool {
    std::vector<double> values; ///< all of them, for the direct draw
    std::vector<double> distinct;
    std::vector<std::int64_t> counts;

    explicit TaskPool(std::vector<double> v)
        : values(std::move(v))
    {
        std::map<double, std::int64_t> c;
        for (double x : values)
            ++c[x];
        for (const auto& [x, n] : c) {
            distinct.push_back(x);
            counts.push_back(n);
        }
    }
    double resampledMean(Rng& rng) const
    {
        const auto n = static_cast<std::int64_t>(values.size());
        double sum = 0.0;
        if (distinct.size() * 16 <= values.size()) {
            std::int64_t left = n, leftCount = n;
            for (std::size_t j = 0; j + 1 < distinct.size() && left > 0; ++j) {
                const std::int64_t k
                    = binomialDraw(rng, left, static_cast<double>(counts[j]) / static_cast<double>(leftCount));
                sum += static_cast<double>(k) * distinct[j];
                left -= k;
                leftCount -= counts[j];
            }
            sum += static_cast<double>(left) * distinct.back();
        } else {
            for (std::int64_t k = 0; k < n; ++k)
                sum += values[rng.below(values.size())];
        }
        return sum / static_cast<double>(n);
    }
};

/// The bootstrap replicates of the estimate and of its standard error, on the data's design.
struct Replicates {
    std::vector<double> estimate, standardError;
};

Replicates bootstrap(const PairedData& data, int resamples, std::uint64_t seed)
{
    Rng rng(seed);
    Replicates out;
    const auto count = static_cast<std::size_t>(std::max(1, resamples));
    out.estimate.reserve(count);
    out.standardError.reserve(count);
    if (!data.paired()) {
        std::vector<double> a(data.left.size()), b(data.right.size());
        for (std::size_t r = 0; r < count; ++r) {
            for (auto& x : a)
                x = data.left[rng.below(data.left.size())];
            for (auto& x : b)
                x = data.right[rng.below(data.right.size())];
            out.estimate.push_back(mean(a) - mean(b));
            out.standardError.push_back(welchStandardError(a, b));
        }
        return out;
    }
    const auto seeds = data.left.size();
    const double root = std::sqrt(static_cast<double>(seeds));
    std::vector<double> d(seeds);
    if (data.design == PairingDesign::PerSeed) {
        const auto diffs = data.differences();
        for (std::size_t r = 0; r < count; ++r) {
            for (auto& x : d)
                x = diffs[rng.below(seeds)];
            out.estimate.push_back(mean(d));
            out.standardError.push_back(std::sqrt(variance(d)) / root);
        }
        return out;
    }
    // Hierarchical: seeds with replacement, then each drawn seed's tasks with replacement.
    std::vector<TaskPool> pools;
    for (std::size_t s = 0; s < seeds; ++s) {
        std::vector<double> e(data.leftTasks[s].size());
        for (std::size_t t = 0; t < e.size(); ++t)
            e[t] = data.leftTasks[s][t] - data.rightTasks[s][t];
        pools.emplace_back(std::move(e));
    }
    for (std::size_t r = 0; r < count; ++r) {
        for (auto& x : d)
            x = pools[rng.below(seeds)].resampledMean(rng);
        out.estimate.push_back(mean(d));
        out.standardError.push_back(std::sqrt(variance(d)) / root);
    }
    return out;
}

/// Leave-one-out estimates: one seed at a time when paired, one value of either arm at a time when not.
std::vector<double> jackknife(const PairedData& data)
{
    std::vector<double> out;
    if (data.paired()) {
        const auto d = data.differences();
        const double sum = std::accumulate(d.begin(), d.end(), 0.0);
        for (double x : d)
            out.push_back((sum - x) / static_cast<double>(d.size() - 1));
        return out;
    }
    const double sa = std::accumulate(data.left.begin(), data.left.end(), 0.0);
    const double sb = std::accumulate(data.right.begin(), data.right.end(), 0.0);
    const auto na = static_cast<double>(data.left.size()), nb = static_cast<double>(data.right.size());
    for (double x : data.left)
        out.push_back((sa - x) / (na - 1) - sb / nb);
    for (double x : data.right)
        out.push_back(sa / na - (sb - x) / (nb - 1));
    return out;
}

} // namespace

double differenceStandardError(const PairedData& data)
{
    if (data.paired())
        return std::sqrt(variance(data.differences()) / static_cast<double>(data.left.size()));
    return welchStandardError(data.left, data.right);
}

Interval differenceInterval(const PairedData& data, const IntervalOptions& options)
{
    if (data.left.empty() || data.right.empty())
        throw std::invalid_argument("differenceInterval: each arm needs at least one value");
    if (data.paired() && data.left.size() != data.right.size())
        throw std::invalid_argument("differenceInterval: paired data needs one value per seed in each arm");
    Interval out;
    out.difference = mean(data.left) - mean(data.right);
    out.low = out.high = out.difference;
    const bool enough = data.paired() ? data.left.size() >= 2 : data.left.size() >= 2 && data.right.size() >= 2;
    if (!enough)
        return out;
    const double alpha = 1.0 - options.level;
    const double se = differenceStandardError(data);

    if (options.method == IntervalMethod::T) {
        if (!(se > 0.0))
            return out;
        double df = static_cast<double>(data.left.size() - 1);
        if (!data.paired()) {
            // Welch-Satterthwaite degrees of freedom.
            const double va = variance(data.left) / static_cast<double>(data.left.size());
            const double vb = variance(data.right) / static_cast<double>(data.right.size());
            df = (va + vb) * (va + vb)
                / (va * va / static_cast<double>(data.left.size() - 1)
                    + vb * vb / static_cast<double>(data.right.size() - 1));
        }
        const double q = studentTQuantile(1.0 - alpha / 2.0, df);
        out.low = out.difference - q * se;
        out.high = out.difference + q * se;
        return out;
    }

    auto reps = bootstrap(data, options.resamples, options.seed);
    switch (options.method) {
    case IntervalMethod::Percentile: {
        std::sort(reps.estimate.begin(), reps.estimate.end());
        out.low = quantile(reps.estimate, alpha / 2.0);
        out.high = quantile(reps.estimate, 1.0 - alpha / 2.0);
        return out;
    }
    case IntervalMethod::Studentized: {
        if (!(se > 0.0))
            return out;
        std::vector<double> t(reps.estimate.size());
        for (std::size_t r = 0; r < t.size(); ++r) {
            const double dev = reps.estimate[r] - out.difference;
            // A resample without spread (one seed drawn every time) has no t: an infinite one when it is off the
            // estimate, which makes the interval infinite if such resamples fill a tail (3 seeds: 3 of 27).
            t[r] = reps.standardError[r] > 0.0 ? dev / reps.standardError[r]
                : dev == 0.0                   ? 0.0
                                               : std::copysign(std::numeric_limits<double>::infinity(), dev);
        }
        std::sort(t.begin(), t.end());
        out.low = out.difference - quantile(t, 1.0 - alpha / 2.0) * se;
        out.high = out.difference - quantile(t, alpha / 2.0) * se;
        return out;
    }
    case IntervalMethod::Bca: {
        const auto b = static_cast<double>(reps.estimate.size());
        double below = 0.0;
        for (double x : reps.estimate)
            below += x < out.difference ? 1.0 : x == out.difference ? 0.5 : 0.0;
        const double z0 = normalQuantile(std::clamp(below / b, 0.5 / b, 1.0 - 0.5 / b));
        // Acceleration (Efron and Tibshirani 1993, Eq. 14.15) from the jackknife.
        const auto jack = jackknife(data);
        const double jm = mean(jack);
        double num = 0.0, den = 0.0;
        for (double x : jack) {
            num += std::pow(jm - x, 3);
            den += std::pow(jm - x, 2);
        }
        const double a = den > 0.0 ? num / (6.0 * std::pow(den, 1.5)) : 0.0;
        const auto adjusted = [&](double z) { return normalCdf(z0 + (z0 + z) / (1.0 - a * (z0 + z))); };
        std::sort(reps.estimate.begin(), reps.estimate.end());
        out.low = quantile(reps.estimate, adjusted(normalQuantile(alpha / 2.0)));
        out.high = quantile(reps.estimate, adjusted(normalQuantile(1.0 - alpha / 2.0)));
        return out;
    }
    case IntervalMethod::T:
        break;
    }
    return out;
}

} // namespace creditlab::learn
