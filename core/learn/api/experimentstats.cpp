// report.md's sections on the claims (the paired intervals and verdicts) and on rliable's aggregates. Torch-free.
#include "core/learn/api/experiment_p.h"

#include <sstream>

namespace creditlab::learn {

using namespace detail;

namespace {

std::string pairedOver(const ClaimResult& c)
{
    const auto& d = c.data;
    std::string out;
    if (d.design == PairingDesign::PerTask)
        out = std::to_string(c.seeds) + " seeds × " + std::to_string(c.tasks) + " tasks";
    else if (d.design == PairingDesign::PerSeed)
        out = std::to_string(c.seeds) + (c.seeds == 1 ? " seed" : " seeds");
    else
        out = "unpaired, " + std::to_string(d.left.size()) + " / " + std::to_string(d.right.size()) + " seeds";
    return out + " (" + intervalMethodName(c.method) + ")";
}

std::string estimateText(const Estimate& e)
{
    return number(e.value) + " [" + number(e.low) + ", " + number(e.high) + "]";
}

} // namespace

namespace detail {

std::string claimsMarkdown(const ExperimentReport& report)
{
    std::ostringstream md;
    md << "## Claims\n\n";
    if (report.claims.empty()) {
        md << "This experiment states no claims.\n\n";
        return md.str();
    }
    md << "Each claim compares two arms (or, on a probe/ metric, two probes) on the seeds they share: seed i of every "
          "arm starts from the same SFT run with the same seed, and every evaluation plays the same eval tasks (a "
          "probe "
          "table's seed is its contamination seed). So the difference is judged on paired differences, one per seed; "
          "where the eval episodes are stored, each is the mean over the eval tasks of the per-task differences "
          "(\"seeds × tasks\"). The interval is a 95% t interval over the seeds' differences (Welch's t when the arms "
          "share fewer than two seeds), the method that held its 95% coverage at 3, 5 and 10 seeds in simulations of "
          "these experiments, where a bootstrap over 3 seeds covers 77% (docs/reproductions.md). "
          "**Supported**: the interval excludes 0 in the claimed direction (for `>=`/`<=`, it clears the margin); "
          "**contradicted**: it excludes 0 the other way; **inconclusive**: otherwise, with the effect the data do "
          "exclude: a true difference beyond the interval's end in the claimed direction.\n\n";
    md << "| claim | left: mean ± std (n) | right: mean ± std (n) | difference [95% CI] | paired over | verdict |\n";
    md << "|---|---|---|---|---|---|\n";
    for (const auto& c : report.claims) {
        md << "| `" << c.claim.canonical() << "` | " << c.claim.left << ": " << number(c.leftMean) << " ± "
           << number(c.leftStd) << " (" << c.left.size() << ") | " << c.claim.right << ": " << number(c.rightMean)
           << " ± " << number(c.rightStd) << " (" << c.right.size() << ") | ";
        if (c.left.empty() || c.right.empty())
            md << "– | – | ";
        else
            md << signedNumber(c.interval.difference) << " [" << number(c.interval.low) << ", "
               << number(c.interval.high) << "] | " << pairedOver(c) << " | ";
        md << "**" << verdictName(c.verdict) << "**";
        if (c.excludable) {
            const bool up
                = c.claim.direction == ClaimDirection::Greater || c.claim.direction == ClaimDirection::NotWorse;
            md << "; excludes " << (up ? "> " : "< ") << signedNumber(*c.excludable);
        }
        md << (c.note.empty() ? "" : " (" + c.note + ")") << " |\n";
    }
    md << "\n";
    for (const auto& c : report.claims) {
        md << "- `" << c.claim.text << "`: per seed " << c.claim.left << " [";
        for (std::size_t k = 0; k < c.left.size(); ++k)
            md << (k ? ", " : "") << number(c.left[k]);
        md << "], " << c.claim.right << " [";
        for (std::size_t k = 0; k < c.right.size(); ++k)
            md << (k ? ", " : "") << number(c.right[k]);
        md << "]";
        if (isProbeMetric(c.claim.metric))
            md << " (one probe table per contamination seed)";
        else if (c.claim.statistic == ClaimStatistic::Auc)
            md << " (area under the curve above its first value, per iteration)";
        else if (c.claim.statistic == ClaimStatistic::At)
            md << " (at iteration " << c.claim.iteration << ")";
        else
            md << " (last value)";
        if (c.data.paired()) {
            md << "; paired differences";
            const auto d = c.data.differences();
            for (std::size_t k = 0; k < d.size(); ++k)
                md << (k ? ", " : " ") << "seed " << c.data.seeds[k] << ": " << signedNumber(d[k]);
        }
        md << ".\n";
    }
    md << "\n";
    return md.str();
}

std::string aggregatesMarkdown(const ExperimentReport& report)
{
    if (report.measures.empty() && report.claims.empty())
        return {};
    std::ostringstream md;
    md << "## Aggregates (rliable)\n\n"
          "rliable's aggregates (Agarwal et al. 2021) of each claim's measure, per arm, over its runs: one score per "
          "seed. The experiment has one environment, so rliable's tasks (environments) are one, and its eval episodes "
          "are instances of that task: pooled 0/1 outcomes would make the IQM a step function of the success rate. "
          "IQM: the mean of the middle half of the runs' scores (scipy's trim_mean(0.25), as rliable: with 3 runs "
          "nothing is cut and it is the mean; one run of each end from 4). Optimality gap: the mean of max(0, 1 − "
          "score), for success rates. P(A > B): the probability that a random run of A scores above a random run of "
          "B, ties one half. Intervals: 95% stratified bootstrap over runs (2,000 resamples).\n\n";
    if (!report.aggregates.empty()) {
        md << "| measure | arm | runs | mean ± std | IQM [95% CI] | optimality gap [95% CI] "
              "|\n|---|---|---|---|---|---|\n";
        for (const auto& a : report.aggregates) {
            md << "| " << a.measure << " | " << a.arm << " | " << a.runs << " | ";
            if (a.runs == 0) {
                md << "– | – | – |\n";
                continue;
            }
            md << number(a.mean) << " ± " << number(a.std) << " | " << estimateText(a.iqm) << " | "
               << (a.optimalityGap ? estimateText(*a.optimalityGap) : "–") << " |\n";
        }
        md << "\n";
    }
    md << "| claim | P(left > right) [95% CI] |\n|---|---|\n";
    for (const auto& c : report.claims)
        md << "| `" << c.claim.canonical() << "` | " << (c.improvement ? estimateText(*c.improvement) : "–") << " |\n";
    md << "\n";
    for (const auto& m : report.measures) {
        md << "![performance profile: " << m << "](" << profileFigureName(m) << ")\n\n";
    }
    if (!report.measures.empty())
        md << "Performance profiles: where every seed has its eval episodes, the fraction of eval tasks whose success "
              "rate over the seeds exceeds τ (with 3 seeds: solved by at least one, two, all three); otherwise the "
              "fraction of runs scoring above τ. Bands: 95% pointwise bootstrap over seeds (and tasks).\n\n";
    return md.str();
}

} // namespace detail

} // namespace creditlab::learn
