// report.md's sections on the claims (the paired intervals and verdicts) and on rliable's aggregates, and the
// performance-profile figures. Torch-free.
#include "core/learn/api/experiment_p.h"

#include <algorithm>
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

std::string profileFigureName(const std::string& measure) { return "profile_" + figureName(measure); }

std::string profileSvg(const ExperimentReport& report, const std::string& measure)
{
    std::vector<const ArmProfile*> profiles;
    std::size_t legendChars = 0;
    bool overTasks = true;
    for (const auto& p : report.profiles)
        if (p.measure == measure) {
            profiles.push_back(&p);
            overTasks = overTasks && p.overTasks;
            legendChars = std::max(legendChars, p.arm.size() + 22);
        }
    constexpr double W = 720, H = 420, left = 70, top = 40, bottom = 55;
    const double right = std::max(170.0, 40.0 + 7.2 * static_cast<double>(legendChars) + 12.0);
    const double plotW = W - left - right, plotH = H - top - bottom;
    double xMin = 0.0, xMax = 1.0;
    if (!profiles.empty() && !profiles.front()->profile.taus.empty()) {
        xMin = profiles.front()->profile.taus.front();
        xMax = profiles.front()->profile.taus.back();
    }
    if (!(xMax > xMin))
        xMax = xMin + 1.0;
    const auto X = [&](double x) { return left + (x - xMin) / (xMax - xMin) * plotW; };
    const auto Y = [&](double y) { return top + (1.0 - y) * plotH; };

    std::ostringstream s;
    s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H << "\" viewBox=\"0 0 " << W
      << " " << H << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    s << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    s << "<text x=\"" << left << "\" y=\"22\" font-size=\"15\" font-weight=\"bold\">" << escapeXml(report.spec.name)
      << ": " << escapeXml(measure) << " (performance profile" << (report.partial ? ", partial" : "") << ")</text>\n";
    for (double t : niceTicks(0.0, 1.0)) {
        s << "<line x1=\"" << left << "\" x2=\"" << left + plotW << "\" y1=\"" << Y(t) << "\" y2=\"" << Y(t)
          << "\" stroke=\"#e5e5e5\"/>\n";
        s << "<text x=\"" << left - 6 << "\" y=\"" << Y(t) + 4 << "\" text-anchor=\"end\">" << tickText(t)
          << "</text>\n";
    }
    for (double t : niceTicks(xMin, xMax)) {
        s << "<line x1=\"" << X(t) << "\" x2=\"" << X(t) << "\" y1=\"" << top + plotH << "\" y2=\"" << top + plotH + 5
          << "\" stroke=\"#444\"/>\n";
        s << "<text x=\"" << X(t) << "\" y=\"" << top + plotH + 19 << "\" text-anchor=\"middle\">" << tickText(t)
          << "</text>\n";
    }
    s << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << plotW << "\" height=\"" << plotH
      << "\" fill=\"none\" stroke=\"#444\"/>\n";
    s << "<text x=\"" << left + plotW / 2 << "\" y=\"" << H - 12 << "\" text-anchor=\"middle\">τ ("
      << (overTasks ? "success rate of an eval task over the seeds" : "a run's score") << ")</text>\n";
    s << "<text x=\"16\" y=\"" << top + plotH / 2 << "\" transform=\"rotate(-90 16 " << top + plotH / 2
      << ")\" text-anchor=\"middle\">" << (overTasks ? "fraction of tasks above τ" : "fraction of runs above τ")
      << "</text>\n";
    if (profiles.empty())
        s << "<text x=\"" << left + plotW / 2 << "\" y=\"" << top + plotH / 2
          << "\" text-anchor=\"middle\" fill=\"#888\">no values yet</text>\n";
    std::size_t armIndex = 0;
    for (const auto& arm : report.spec.arms) {
        const auto it
            = std::find_if(profiles.begin(), profiles.end(), [&](const ArmProfile* p) { return p->arm == arm.name; });
        const char* colour = colourOf(armIndex);
        const double ly = top + 14 + 20.0 * static_cast<double>(armIndex);
        ++armIndex;
        if (it == profiles.end())
            continue;
        const auto& p = (*it)->profile;
        s << "<polygon fill=\"" << colour << "\" fill-opacity=\"0.15\" stroke=\"none\" points=\"";
        for (std::size_t k = 0; k < p.taus.size(); ++k)
            s << X(p.taus[k]) << "," << Y(p.high[k]) << " ";
        for (std::size_t k = p.taus.size(); k-- > 0;)
            s << X(p.taus[k]) << "," << Y(p.low[k]) << " ";
        s << "\"/>\n";
        s << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"2\" points=\"";
        for (std::size_t k = 0; k < p.taus.size(); ++k)
            s << X(p.taus[k]) << "," << Y(p.fraction[k]) << " ";
        s << "\"/>\n";
        s << "<line x1=\"" << left + plotW + 12 << "\" x2=\"" << left + plotW + 34 << "\" y1=\"" << ly << "\" y2=\""
          << ly << "\" stroke=\"" << colour << "\" stroke-width=\"3\"/>\n";
        s << "<text x=\"" << left + plotW + 40 << "\" y=\"" << ly + 4 << "\">" << escapeXml(arm.name) << " ("
          << (*it)->runs << ((*it)->runs == 1 ? " run" : " runs");
        if ((*it)->overTasks)
            s << " × " << (*it)->tasks << " tasks";
        s << ")</text>\n";
    }
    s << "</svg>\n";
    return s.str();
}

} // namespace creditlab::learn
