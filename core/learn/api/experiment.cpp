// An experiment's report: what it reads from the store, its curves, report.md and the folder writeReport() fills; the
// claims' statistics are experimentclaims.cpp, their sections of report.md experimentstats.cpp, the figures (SVG, and
// PNG through the figures module) experimentfigures.cpp. Torch-free (the GUI's report view links it); running an
// experiment is sweeprunner.cpp.
#include "core/learn/api/experiment.h"
#include "core/learn/api/experiment_p.h"

#include "core/learn/torch/pair/probepipeline.h"
#include "core/storage/atomicfile.h"
#include "core/storage/store.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

namespace creditlab::learn {

namespace fs = std::filesystem;

namespace detail {

std::string number(double v, int digits)
{
    if (!std::isfinite(v))
        return "–";
    char out[64];
    std::snprintf(out, sizeof out, "%.*f", digits, v);
    return out;
}

std::string signedNumber(double v, int digits) { return (v > 0 ? "+" : "") + number(v, digits); }

} // namespace detail

using namespace detail;

std::optional<double> probeValue(const ProbeResult& row, const std::string& metric)
{
    if (metric == "probe/auroc_clean")
        return row.aurocClean;
    if (metric == "probe/auroc_contaminated")
        return row.aurocContaminated;
    if (metric == "probe/auroc_union")
        return row.aurocUnion;
    if (metric == "probe/auroc_drop")
        return row.aurocClean - row.aurocContaminated;
    if (metric == "probe/ece")
        return row.ece;
    if (metric == "probe/brier")
        return row.brier;
    return std::nullopt;
}

ExperimentReport buildReport(Store& store, std::int64_t sweepId)
{
    const auto info = store.sweep(sweepId);
    if (!info)
        throw std::invalid_argument("sweep " + std::to_string(sweepId) + " does not exist");
    ExperimentReport report;
    report.sweepId = sweepId;
    report.status = info->status;
    report.storedText = info->config;
    report.spec = SweepSpec::parse(info->config, "experiment " + std::to_string(sweepId), {});
    report.spec.name = info->name;
    if (!report.spec.isExperiment())
        throw std::invalid_argument(
            "sweep " + std::to_string(sweepId) + " (" + info->name + ") is a sweep, not an experiment: it has no arms");
    const auto& spec = report.spec;

    // Every trial's run and every metric the report reads, per arm in arm order, seeds in trial order.
    std::map<std::string, std::vector<std::map<std::string, Curve>>> curvesOf; // arm -> per seed: metric -> curve
    std::vector<TrialData> trials;
    for (const auto& trial : store.trials(sweepId)) {
        const auto point = SweepTrialSpec::parseParams(trial.params);
        ArmRun run;
        for (const auto& [k, v] : point) {
            if (k == "arm")
                run.arm = v;
            else if (k == "seed")
                run.seed = v;
        }
        run.status = trial.status;
        run.runId = trial.runId.value_or(0);
        std::map<std::string, Curve> curves;
        if (run.runId > 0) {
            if (const auto r = store.run(run.runId))
                run.iterationsDone = r->iterationsDone;
            for (const auto& m : store.metrics(run.runId))
                if (std::find(spec.metrics.begin(), spec.metrics.end(), m.name) != spec.metrics.end())
                    curves[m.name].emplace_back(m.iteration, m.value);
            for (auto& [name, curve] : curves)
                std::sort(curve.begin(), curve.end());
        }
        try {
            run.iterations = spec.trialConfig({ 0, point }).getInt("rl.iterations");
        } catch (const std::exception&) {
            run.iterations = 0;
        }
        if (run.status != TrialStatus::Finished)
            report.partial = true;
        trials.push_back({ run.arm, run.seed, run.runId, curves });
        curvesOf[run.arm].push_back(std::move(curves));
        report.runs.push_back(std::move(run));
    }

    for (const auto& metric : spec.metrics) {
        bool any = false;
        for (const auto& arm : spec.arms) {
            const auto& seeds = curvesOf[arm.name];
            // Curves: the iterations every seed with this metric has (a band needs them all).
            ArmCurve curve;
            curve.arm = arm.name;
            curve.metric = metric;
            std::optional<std::set<std::int64_t>> common;
            std::vector<const Curve*> withMetric;
            for (const auto& s : seeds) {
                const auto it = s.find(metric);
                if (it == s.end() || it->second.empty())
                    continue;
                withMetric.push_back(&it->second);
                std::set<std::int64_t> its;
                for (const auto& [i, v] : it->second)
                    its.insert(i);
                if (!common)
                    common = its;
                else {
                    std::set<std::int64_t> both;
                    std::set_intersection(common->begin(), common->end(), its.begin(), its.end(),
                        std::inserter(both, both.begin()));
                    common = both;
                }
            }
            curve.seeds = static_cast<int>(withMetric.size());
            any = any || !withMetric.empty();
            if (common)
                for (std::int64_t i : *common) {
                    std::vector<double> values;
                    for (const Curve* c : withMetric)
                        for (const auto& [it, v] : *c)
                            if (it == i)
                                values.push_back(v);
                    const auto [mean, sd] = meanStd(values);
                    curve.iterations.push_back(i);
                    curve.mean.push_back(mean);
                    curve.std.push_back(sd);
                }
            report.curves.push_back(std::move(curve));

            ArmFinal final;
            final.arm = arm.name;
            final.metric = metric;
            for (const Curve* c : withMetric)
                final.values.push_back(c->back().second);
            std::tie(final.mean, final.std) = meanStd(final.values);
            report.finals.push_back(std::move(final));
        }
        if (!any)
            report.warnings.push_back("no run has the metric " + metric + " yet");
    }

    // The probe tables: the rows of the experiment's SFT run and episodes, for the seeds the file names.
    if (spec.probes) {
        std::set<std::int64_t> seen;
        for (auto& row : store.probeResults(sweepId))
            if (row.episodes == spec.probes->episodes && spec.sft == std::to_string(row.runId)
                && std::find(spec.probes->seeds.begin(), spec.probes->seeds.end(), row.seed) != spec.probes->seeds.end()) {
                seen.insert(row.seed);
                report.probeRows.push_back(std::move(row));
            }
        for (const auto seed : spec.probes->seeds)
            if (!seen.count(seed))
                report.probeSeedsMissing.push_back(seed);
        if (!report.probeSeedsMissing.empty())
            report.partial = true;
        for (const auto& name : probeNames()) {
            ProbeSummary summary;
            summary.probe = name;
            std::vector<double> clean, contaminated, both, drop, ece, brier;
            for (const auto& row : report.probeRows)
                if (row.probe == name) {
                    summary.features = row.features;
                    clean.push_back(row.aurocClean);
                    contaminated.push_back(row.aurocContaminated);
                    both.push_back(row.aurocUnion);
                    drop.push_back(row.aurocClean - row.aurocContaminated);
                    ece.push_back(row.ece);
                    brier.push_back(row.brier);
                }
            if (clean.empty())
                continue;
            summary.seeds = static_cast<int>(clean.size());
            std::tie(summary.clean, summary.cleanStd) = meanStd(clean);
            std::tie(summary.contaminated, summary.contaminatedStd) = meanStd(contaminated);
            std::tie(summary.both, summary.bothStd) = meanStd(both);
            std::tie(summary.drop, summary.dropStd) = meanStd(drop);
            summary.ece = meanStd(ece).first;
            summary.brier = meanStd(brier).first;
            report.probes.push_back(summary);
        }
    }

    judgeClaims(store, report, trials);
    return report;
}

std::string reportMarkdown(const ExperimentReport& report, const std::string& database)
{
    const auto& spec = report.spec;
    std::ostringstream md;
    md << "# Experiment " << report.sweepId << ": " << spec.name << "\n\n";
    if (report.partial)
        md << "**Partial report**: the experiment is " << trialStatusName(report.status)
           << " and not every trial" << (spec.probes ? " or probe table" : "")
           << " has finished; the numbers are those so far.\n\n";
    if (!spec.paper.empty())
        md << "- Source: " << spec.paper << "\n";
    if (!spec.quote.empty())
        md << "- The claim as stated there: \"" << spec.quote << "\"\n";
    md << "- Scale: " << spec.scale << "; arms: " << spec.arms.size() << "; trials: " << report.runs.size()
       << "; SFT start: " << spec.sftText() << "\n- Status: " << trialStatusName(report.status) << "\n\n";

    md << claimsMarkdown(report);

    if (spec.probes) {
        md << "## Probe tables\n\nPAIR's Table 1 (pair.md §2.8) on the shared SFT policy";
        if (!report.probeRows.empty())
            md << " (" << report.probeRows.front().policy << ")";
        md << ": every probe fitted on matched clean- and contaminated-prefix records of " << spec.probes->episodes
           << " household episodes and scored on the held-out fifth, one table per contamination seed. AUROC mean ± "
              "std over seeds (n); the drop is clean − contaminated, per seed. The seeds change which turns are "
              "corrupted and how, not the policy: the spread is not a training variance.\n\n";
        if (report.probes.empty())
            md << "No probe table yet: they are computed after the trials.\n\n";
        else {
            md << "| probe | dims | clean | contaminated | union | drop | ECE | Brier |\n|---|---|---|---|---|---|---|---|\n";
            for (const auto& p : report.probes)
                md << "| " << p.probe << " | " << p.features << " | " << number(p.clean) << " ± " << number(p.cleanStd)
                   << " (" << p.seeds << ") | " << number(p.contaminated) << " ± " << number(p.contaminatedStd)
                   << " | " << number(p.both) << " ± " << number(p.bothStd) << " | " << signedNumber(p.drop) << " ± "
                   << number(p.dropStd) << " | " << number(p.ece) << " | " << number(p.brier) << " |\n";
            md << "\n";
        }
        if (!report.probeSeedsMissing.empty()) {
            md << "*Probe tables not computed yet for seed";
            md << (report.probeSeedsMissing.size() > 1 ? "s " : " ");
            for (std::size_t k = 0; k < report.probeSeedsMissing.size(); ++k)
                md << (k ? ", " : "") << report.probeSeedsMissing[k];
            md << ".*\n\n";
        }
    }

    md << "## Final metrics\n\nThe last value of each run, mean ± std over seeds (n runs).\n\n| arm |";
    for (const auto& m : spec.metrics)
        md << " " << m << " |";
    md << "\n|---|";
    for (std::size_t k = 0; k < spec.metrics.size(); ++k)
        md << "---|";
    md << "\n";
    for (const auto& arm : spec.arms) {
        md << "| " << arm.name << " |";
        for (const auto& m : spec.metrics) {
            const auto it = std::find_if(report.finals.begin(), report.finals.end(),
                [&](const ArmFinal& f) { return f.arm == arm.name && f.metric == m; });
            if (it == report.finals.end() || it->values.empty())
                md << " – |";
            else
                md << " " << number(it->mean) << " ± " << number(it->std) << " (" << it->values.size() << ") |";
        }
        md << "\n";
    }
    md << "\n" << aggregatesMarkdown(report);
    md << "## Learning curves\n\n";
    for (const auto& m : spec.metrics)
        md << "![" << m << "](" << figureName(m) << ")\n\n";
    for (const auto& w : report.warnings)
        md << "*Note: " << w << ".*\n\n";

    md << "## Runs\n\n| arm | seed | run | status | iterations |\n|---|---|---|---|---|\n";
    for (const auto& r : report.runs)
        md << "| " << r.arm << " | " << (r.seed.empty() ? "base" : r.seed) << " | "
           << (r.runId > 0 ? std::to_string(r.runId) : "–") << " | " << trialStatusName(r.status) << " | " << r.iterationsDone << " / "
           << r.iterations << " |\n";
    md << "\n## Reproduce\n\nThe experiment as stored (its base config inline, its SFT start and scale as run); "
          "save it as `"
       << spec.name << ".yaml` and run:\n\n```sh\ncreditlab-cli experiment run " << spec.name
       << ".yaml --db runs.db\ncreditlab-cli report --experiment ID --db runs.db --output report/   # ID: the number it prints\n```\n\n"
       << "(this report: `creditlab-cli report --experiment " << report.sweepId << " --db " << database
       << "`; a stored `sft:` run id only exists in that database: set `sft: shared` to train a new one)\n\n"
       << "```yaml\n"
       << report.storedText << (report.storedText.empty() || report.storedText.back() == '\n' ? "" : "\n") << "```\n";
    return md.str();
}

std::vector<std::string> writeReport(const ExperimentReport& report, const std::string& directory,
    const std::string& database, const PngPainter& png)
{
    std::error_code ec;
    fs::create_directories(directory, ec);
    if (ec)
        throw std::runtime_error(directory + ": cannot create the folder: " + ec.message());
    std::vector<std::string> written;
    for (const auto& metric : report.spec.metrics) {
        const auto path = (fs::path(directory) / figureName(metric)).string();
        writeFileAtomically(path, curveSvg(report, metric));
        written.push_back(path);
        if (png) {
            const auto pngPath = (fs::path(directory) / figureName(metric, "png")).string();
            const auto partial = pngPath + ".part";
            try {
                png(report, metric, partial);
                fs::rename(partial, pngPath);
            } catch (const std::exception& e) {
                fs::remove(partial, ec);
                throw std::runtime_error(e.what());
            }
            written.push_back(pngPath);
        }
    }
    for (const auto& measure : report.measures) {
        const auto path = (fs::path(directory) / profileFigureName(measure)).string();
        writeFileAtomically(path, profileSvg(report, measure));
        written.push_back(path);
    }
    const auto path = (fs::path(directory) / "report.md").string();
    writeFileAtomically(path, reportMarkdown(report, database));
    written.push_back(path);
    return written;
}

} // namespace creditlab::learn
