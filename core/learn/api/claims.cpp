// Claims: parsing, the value a claim reads from a curve, the old unpaired bootstrap interval, the verdict and the
// evaluation of a claim on its (paired) data.
#include "core/learn/api/claims.h"
#include "core/learn/api/rng.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace creditlab::learn {

const std::vector<std::string>& probeClaimMetrics()
{
    static const std::vector<std::string> metrics { "probe/auroc_clean", "probe/auroc_contaminated",
        "probe/auroc_union", "probe/auroc_drop", "probe/ece", "probe/brier" };
    return metrics;
}

bool isProbeMetric(const std::string& metric) { return metric.rfind("probe/", 0) == 0; }

namespace {

constexpr const char* kForm = "expected 'A > B on METRIC [at end | at N | auc] [within X]', with > < >= or <=, or "
                              "'METRIC(A) rises faster than METRIC(B)'";

std::vector<std::string> words(const std::string& text)
{
    std::istringstream in(text);
    std::vector<std::string> out;
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

bool isName(const std::string& s)
{
    if (s.empty())
        return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '/'))
            return false;
    return true;
}

double parseNumber(const std::string& text, const std::string& what)
{
    double v = 0.0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size() || !std::isfinite(v))
        throw std::invalid_argument(what + ": expected a number, got '" + text + "'");
    return v;
}

/// "metric(arm)" → (metric, arm).
std::pair<std::string, std::string> call(const std::string& w)
{
    const auto open = w.find('(');
    if (open == std::string::npos || w.back() != ')' || open == 0)
        throw std::invalid_argument(std::string("'") + w + "': " + kForm);
    const std::string metric = w.substr(0, open), arm = w.substr(open + 1, w.size() - open - 2);
    if (!isName(metric) || !isName(arm))
        throw std::invalid_argument(std::string("'") + w + "': " + kForm);
    return { metric, arm };
}

} // namespace

Claim Claim::parse(const std::string& text)
{
    Claim c;
    c.text = text;
    const auto w = words(text);
    if (w.size() == 5 && w[1] == "rises" && w[2] == "faster" && w[3] == "than") {
        const auto [metricA, armA] = call(w[0]);
        const auto [metricB, armB] = call(w[4]);
        if (metricA != metricB)
            throw std::invalid_argument("'" + text + "': both sides must name the same metric");
        if (armA == armB)
            throw std::invalid_argument("'" + text + "': compares " + armA + " with itself");
        c.left = armA;
        c.right = armB;
        c.metric = metricA;
        c.statistic = ClaimStatistic::Auc;
        return c;
    }
    if (w.size() < 5 || w[3] != "on")
        throw std::invalid_argument("'" + text + "': " + kForm);
    c.left = w[0];
    c.right = w[2];
    if (!isName(c.left) || !isName(c.right))
        throw std::invalid_argument("'" + text + "': arm names are letters, digits, '_', '-' and '.'");
    if (c.left == c.right)
        throw std::invalid_argument("'" + text + "': compares " + c.left + " with itself");
    if (w[1] == ">")
        c.direction = ClaimDirection::Greater;
    else if (w[1] == "<")
        c.direction = ClaimDirection::Less;
    else if (w[1] == ">=")
        c.direction = ClaimDirection::NotWorse;
    else if (w[1] == "<=")
        c.direction = ClaimDirection::NotBetter;
    else
        throw std::invalid_argument("'" + text + "': unknown comparison '" + w[1] + "' (> < >= <=)");
    c.metric = w[4];
    if (!isName(c.metric))
        throw std::invalid_argument("'" + text + "': '" + c.metric + "' is not a metric name");
    std::size_t i = 5;
    if (i < w.size() && w[i] == "at") {
        if (i + 1 >= w.size())
            throw std::invalid_argument("'" + text + "': 'at' needs 'end' or an iteration");
        if (w[i + 1] != "end") {
            const double it = parseNumber(w[i + 1], "'" + text + "': at");
            if (it < 0 || it != std::floor(it))
                throw std::invalid_argument("'" + text + "': at: an iteration is a whole number >= 0");
            c.statistic = ClaimStatistic::At;
            c.iteration = static_cast<std::int64_t>(it);
        }
        i += 2;
    } else if (i < w.size() && w[i] == "auc") {
        c.statistic = ClaimStatistic::Auc;
        ++i;
    }
    if (i < w.size() && w[i] == "within") {
        if (c.direction != ClaimDirection::NotWorse && c.direction != ClaimDirection::NotBetter)
            throw std::invalid_argument("'" + text + "': 'within' goes with >= or <=");
        if (i + 1 >= w.size())
            throw std::invalid_argument("'" + text + "': 'within' needs a margin");
        c.margin = parseNumber(w[i + 1], "'" + text + "': within");
        if (c.margin < 0)
            throw std::invalid_argument("'" + text + "': within: the margin must be >= 0");
        i += 2;
    }
    if (i != w.size())
        throw std::invalid_argument("'" + text + "': unexpected '" + w[i] + "'; " + kForm);
    return c;
}

std::string Claim::canonical() const
{
    const char* op = direction == ClaimDirection::Greater ? ">"
        : direction == ClaimDirection::Less               ? "<"
        : direction == ClaimDirection::NotWorse           ? ">="
                                                          : "<=";
    std::string out = left + " " + op + " " + right + " on " + metric;
    if (statistic == ClaimStatistic::End)
        out += " at end";
    else if (statistic == ClaimStatistic::At)
        out += " at " + std::to_string(iteration);
    else
        out += " auc";
    if (direction == ClaimDirection::NotWorse || direction == ClaimDirection::NotBetter) {
        std::ostringstream m;
        m << margin;
        out += " within " + m.str();
    }
    return out;
}

std::string claimMeasure(const Claim& claim)
{
    if (claim.statistic == ClaimStatistic::End)
        return claim.metric + " at end";
    if (claim.statistic == ClaimStatistic::At)
        return claim.metric + " at " + std::to_string(claim.iteration);
    return claim.metric + " auc";
}

std::optional<double> claimValue(const Claim& claim, const Curve& curve)
{
    if (curve.empty())
        return std::nullopt;
    switch (claim.statistic) {
    case ClaimStatistic::End:
        return curve.back().second;
    case ClaimStatistic::At: {
        std::optional<double> v;
        for (const auto& [it, value] : curve)
            if (it <= claim.iteration)
                v = value;
        return v;
    }
    case ClaimStatistic::Auc: {
        if (curve.size() < 2)
            return std::nullopt;
        // Trapezoids over the iterations, of the curve minus its first value, divided by the span.
        const double first = curve.front().second;
        double area = 0.0;
        for (std::size_t k = 1; k < curve.size(); ++k)
            area += 0.5 * (curve[k].second + curve[k - 1].second - 2.0 * first)
                * static_cast<double>(curve[k].first - curve[k - 1].first);
        const auto span = static_cast<double>(curve.back().first - curve.front().first);
        return span > 0 ? area / span : 0.0;
    }
    }
    return std::nullopt;
}

const char* verdictName(Verdict v)
{
    switch (v) {
    case Verdict::Supported:
        return "supported";
    case Verdict::Contradicted:
        return "contradicted";
    case Verdict::Inconclusive:
        return "inconclusive";
    }
    return "inconclusive";
}

std::pair<double, double> meanStd(const std::vector<double>& v)
{
    if (v.empty())
        return { 0.0, 0.0 };
    double mean = 0.0;
    for (double x : v)
        mean += x;
    mean /= static_cast<double>(v.size());
    if (v.size() < 2)
        return { mean, 0.0 };
    double ss = 0.0;
    for (double x : v)
        ss += (x - mean) * (x - mean);
    return { mean, std::sqrt(ss / static_cast<double>(v.size() - 1)) };
}

Interval bootstrapDifference(
    const std::vector<double>& a, const std::vector<double>& b, double level, int resamples, std::uint64_t seed)
{
    if (a.empty() || b.empty())
        throw std::invalid_argument("bootstrapDifference: each arm needs at least one value");
    Interval out;
    out.difference = meanStd(a).first - meanStd(b).first;
    Rng rng(seed);
    std::vector<double> diffs(static_cast<std::size_t>(std::max(1, resamples)));
    for (auto& d : diffs) {
        double sa = 0.0, sb = 0.0;
        for (std::size_t k = 0; k < a.size(); ++k)
            sa += a[rng.below(a.size())];
        for (std::size_t k = 0; k < b.size(); ++k)
            sb += b[rng.below(b.size())];
        d = sa / static_cast<double>(a.size()) - sb / static_cast<double>(b.size());
    }
    std::sort(diffs.begin(), diffs.end());
    const double tail = (1.0 - level) / 2.0;
    const auto at = [&](double q) {
        // Linear interpolation between order statistics.
        const double pos = q * static_cast<double>(diffs.size() - 1);
        const auto lo = static_cast<std::size_t>(std::floor(pos));
        const auto hi = std::min(diffs.size() - 1, lo + 1);
        return diffs[lo] + (pos - static_cast<double>(lo)) * (diffs[hi] - diffs[lo]);
    };
    out.low = at(tail);
    out.high = at(1.0 - tail);
    return out;
}

Verdict verdictOf(const Claim& claim, const Interval& i)
{
    switch (claim.direction) {
    case ClaimDirection::Greater:
        return i.low > 0.0 ? Verdict::Supported : i.high < 0.0 ? Verdict::Contradicted : Verdict::Inconclusive;
    case ClaimDirection::Less:
        return i.high < 0.0 ? Verdict::Supported : i.low > 0.0 ? Verdict::Contradicted : Verdict::Inconclusive;
    case ClaimDirection::NotWorse:
        return i.low > -claim.margin ? Verdict::Supported
            : i.high < -claim.margin ? Verdict::Contradicted
                                     : Verdict::Inconclusive;
    case ClaimDirection::NotBetter:
        return i.high < claim.margin ? Verdict::Supported
            : i.low > claim.margin   ? Verdict::Contradicted
                                     : Verdict::Inconclusive;
    }
    return Verdict::Inconclusive;
}

ClaimResult evaluateClaim(const Claim& claim, const PairedData& data, const IntervalOptions& options)
{
    ClaimResult r;
    r.claim = claim;
    r.data = data;
    r.method = options.method;
    // The arms' own values: every seed of each (Unpaired keeps them all; paired data only the shared seeds).
    r.left = data.left;
    r.right = data.right;
    std::tie(r.leftMean, r.leftStd) = meanStd(r.left);
    std::tie(r.rightMean, r.rightStd) = meanStd(r.right);
    r.seeds = static_cast<int>(data.paired() ? data.left.size() : std::min(data.left.size(), data.right.size()));
    r.tasks = data.tasks();
    if (data.left.empty() || data.right.empty()) {
        r.verdict = Verdict::Inconclusive;
        r.note = "no seed of " + (data.left.empty() ? claim.left : claim.right) + " has " + claim.metric + " yet";
        return r;
    }
    r.interval = differenceInterval(data, options);
    if (data.left.size() < 2 || data.right.size() < 2) {
        // One seed has no spread: its interval is a point, and no verdict can rest on it.
        r.verdict = Verdict::Inconclusive;
        r.note = "one seed of " + (data.left.size() < 2 ? claim.left : claim.right) + ": no interval over seeds";
        return r;
    }
    r.verdict = verdictOf(claim, r.interval);
    if (r.verdict == Verdict::Inconclusive)
        r.excludable = claim.direction == ClaimDirection::Greater || claim.direction == ClaimDirection::NotWorse
            ? r.interval.high
            : r.interval.low;
    ScoreMatrix a, b;
    for (double x : data.left)
        a.push_back({ x });
    for (double x : data.right)
        b.push_back({ x });
    BootstrapOptions boot;
    boot.level = options.level;
    boot.seed = options.seed;
    r.improvement = probabilityOfImprovementEstimate(a, b, boot);
    return r;
}

ClaimResult evaluateClaim(const Claim& claim, const std::vector<double>& left, const std::vector<double>& right)
{
    return evaluateClaim(claim, unpairedData(left, right));
}

} // namespace creditlab::learn
