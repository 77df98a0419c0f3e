// The power plan of an experiment: variance components per claim, seeds and tasks needed, and their hours.
#include "core/learn/api/experimentplan.h"
#include "core/learn/api/experiment.h"
#include "core/learn/api/experiment_p.h"

#include "core/storage/store.h"

#include <cmath>
#include <ctime>
#include <limits>
#include <map>
#include <sstream>

namespace creditlab::learn {

namespace {

constexpr double kNoTime = std::numeric_limits<double>::quiet_NaN();

/// Seconds between two ISO 8601 UTC timestamps ("2026-11-22T03:40:00Z"); NaN when either does not parse.
double secondsBetween(const std::string& from, const std::string& to)
{
    const auto parse = [](const std::string& s) -> double {
        std::tm tm {};
        if (std::sscanf(s.c_str(), "%d-%d-%dT%d:%d:%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
                &tm.tm_sec)
            != 6)
            return kNoTime;
        tm.tm_year -= 1900;
        tm.tm_mon -= 1;
        return static_cast<double>(timegm(&tm));
    };
    return parse(to) - parse(from);
}

struct TrialTime {
    double total = 0.0, eval = 0.0;
    bool fromMetrics = false;
};

/// A finished trial's compute time: its time/total_s summed over iterations (and time/sft_s when it trained its own
/// SFT), with time/eval_s's share; without those metrics, the run's created-to-finished span (wall time, pauses
/// included).
std::optional<TrialTime> trialTime(Store& store, std::int64_t runId)
{
    TrialTime t;
    for (const auto& m : store.metrics(runId)) {
        if (m.name == "time/total_s" || m.name == "time/sft_s") {
            t.total += m.value;
            t.fromMetrics = true;
        } else if (m.name == "time/eval_s")
            t.eval += m.value;
    }
    if (t.fromMetrics)
        return t;
    const auto run = store.run(runId);
    if (!run || !run->finishedAt)
        return std::nullopt;
    const double span = secondsBetween(run->createdAt, *run->finishedAt);
    if (!(span > 0.0))
        return std::nullopt;
    t.total = span;
    return t;
}

/// A number with `digits` decimals ("–" when not finite), as report.md writes it.
std::string fixed(double v, int digits) { return detail::number(v, digits); }

} // namespace

std::optional<std::int64_t> findPilot(Store& store, const std::string& name)
{
    const auto sweeps = store.sweeps();
    for (auto it = sweeps.rbegin(); it != sweeps.rend(); ++it)
        if (it->name == name && it->status == TrialStatus::Finished)
            return it->id;
    for (auto it = sweeps.rbegin(); it != sweeps.rend(); ++it) {
        if (it->name != name)
            continue;
        int finished = 0;
        for (const auto& t : store.trials(it->id))
            finished += t.status == TrialStatus::Finished;
        if (finished >= 2)
            return it->id;
    }
    return std::nullopt;
}

ExperimentPlan planExperiment(Store& store, std::int64_t sweepId, const PlanOptions& options)
{
    const auto report = buildReport(store, sweepId);
    ExperimentPlan plan;
    plan.sweepId = sweepId;
    plan.name = report.spec.name;
    plan.scale = report.spec.scale;
    plan.partial = report.partial;
    plan.workers = std::max(1, report.spec.workers);
    plan.options = options;
    const auto& sft = report.spec.sft;
    plan.sftNote = sft == "none" || sft == "per_seed"
        ? "every seed trains its own SFT start, so the seed variance includes the start's"
        : "one SFT start shared by every seed ("
            + (sft == "shared" ? std::string("trained with the experiment") : "run " + sft)
            + "): it is one fixed draw, so the seed variance leaves out the start's variance, and the claims are about "
              "this start";

    // Times per arm, from its finished trials.
    std::map<std::string, std::vector<TrialTime>> times;
    bool anyMetrics = false, anySpan = false;
    for (const auto& run : report.runs)
        if (run.status == TrialStatus::Finished && run.runId > 0)
            if (const auto t = trialTime(store, run.runId)) {
                times[run.arm].push_back(*t);
                (t->fromMetrics ? anyMetrics : anySpan) = true;
            }
    for (const auto& arm : report.spec.arms) {
        double total = 0.0, eval = 0.0;
        const auto& ts = times[arm.name];
        for (const auto& t : ts) {
            total += t.total / static_cast<double>(ts.size());
            eval += t.eval / static_cast<double>(ts.size());
        }
        plan.armSeconds.push_back({ arm.name, { ts.empty() ? kNoTime : total, ts.empty() ? kNoTime : eval } });
    }
    plan.timeSource = anyMetrics
        ? "the trials' compute time: time/total_s summed over their iterations (time/eval_s: the evaluations' share), "
          "without pauses"
        : anySpan ? "the runs' created-to-finished times (no time/* metrics): wall time, pauses included"
                  : "none: no finished trial";
    if (plan.scale == "smoke")
        plan.timeSource += "; a smoke-scale pilot: its times and variances are of the smoke configuration, a rough "
                           "guide to the full scale at best";
    const auto secondsOf = [&](const std::string& arm, double taskFactor) {
        for (const auto& [name, s] : plan.armSeconds)
            if (name == arm)
                return s.first - s.second + s.second * taskFactor;
        return kNoTime;
    };

    PowerOptions power;
    power.level = options.level;
    power.power = options.power;
    for (const auto& r : report.claims) {
        ClaimPlan c;
        c.claim = r.claim;
        c.now = r;
        const bool margin
            = (r.claim.direction == ClaimDirection::NotWorse || r.claim.direction == ClaimDirection::NotBetter)
            && r.claim.margin > 0.0;
        c.effect = margin ? r.claim.margin : options.effect;
        c.effectIsMargin = margin;
        const bool paired = r.data.paired();
        if (r.seeds < 2) {
            c.note = "needs two seeds of each arm with values for a variance";
            plan.claims.push_back(std::move(c));
            continue;
        }
        c.variance = estimateVariance(r.data);
        const double variance = c.variance.seedDifferenceVariance();
        if (!(variance > 0.0)) {
            // Nothing to scale: a plan from no spread would say two seeds suffice for any effect.
            c.note = "the pilot's seeds do not vary on it (a smoke-scale policy that never succeeds, say): no "
                     "variance to plan from";
            plan.claims.push_back(std::move(c));
            continue;
        }
        c.power = powerAt(r.seeds, c.effect, variance, power, paired);
        c.seedsNeeded = seedsNeeded(c.effect, variance, power, paired);
        const bool probe = isProbeMetric(r.claim.metric);
        if (probe)
            c.note = "a probe claim: its seeds are the probe tables' contamination seeds, not trials (no hours)";
        const int tasks = c.variance.tasks;
        const auto hours = [&](int seeds, double factor, bool newRun) {
            if (probe)
                return kNoTime;
            const int extra = newRun ? seeds : std::max(0, seeds - r.seeds);
            return extra * (secondsOf(r.claim.left, factor) + secondsOf(r.claim.right, factor)) / 3600.0;
        };
        c.options.push_back({ tasks, c.seedsNeeded, hours(c.seedsNeeded, 1.0, false), false });
        if (tasks > 0) {
            for (const int factor : { 2, 5 }) {
                const int n = seedsNeeded(c.effect, c.variance.seedDifferenceVariance(tasks * factor), power, paired);
                c.options.push_back({ tasks * factor, n, hours(n, factor, true), true });
            }
            c.options.push_back({ 0, seedsNeeded(c.effect, c.variance.seedVariance, power, paired), kNoTime, true });
        }
        plan.claims.push_back(std::move(c));
    }
    return plan;
}

std::string planText(const ExperimentPlan& plan)
{
    std::ostringstream out;
    out << "experiment " << plan.sweepId << " '" << plan.name << "' (" << plan.scale << " scale"
        << (plan.partial ? ", not finished: the seeds so far" : "") << ") as the pilot\n";
    out << "SFT start: " << plan.sftNote << ".\n";
    out << "times: " << plan.timeSource << ".\n";
    for (const auto& [arm, s] : plan.armSeconds)
        out << "  " << arm << ": "
            << (std::isfinite(s.first) ? fixed(s.first, s.first < 10 ? 2 : 0) + " s a trial, "
                           + fixed(s.second, s.first < 10 ? 2 : 0) + " s of it evaluating"
                                       : "no finished trial")
            << "\n";
    out << "trials run " << plan.workers << " at a time (workers); hours below are compute hours, about "
        << plan.workers << "x fewer on the clock.\n";
    out << "effect to detect: a >= or <= claim's margin, else " << plan.options.effect
        << " (--effect), in the metric's units; power " << plan.options.power << " with the claims' "
        << static_cast<int>(std::lround(plan.options.level * 100)) << "% t interval.\n";
    for (const auto& c : plan.claims) {
        out << "\nclaim  " << c.claim.canonical() << "\n";
        const auto& r = c.now;
        out << "  now: " << r.seeds << (r.seeds == 1 ? " seed" : " seeds");
        if (r.tasks > 0)
            out << " x " << r.tasks << " tasks";
        out << " (" << pairingDesignName(r.data.design) << ")";
        if (!r.left.empty() && !r.right.empty())
            out << ", difference " << fixed(r.interval.difference, 4) << " [" << fixed(r.interval.low, 4) << ", "
                << fixed(r.interval.high, 4) << "], " << verdictName(r.verdict);
        out << "\n";
        if (c.seedsNeeded == 0) {
            out << "  " << c.note << "\n";
            continue;
        }
        const auto& v = c.variance;
        out << "  variance: one seed's difference sd " << fixed(std::sqrt(v.differenceVariance), 4);
        if (v.tasks > 0)
            out << " = seed sd " << fixed(std::sqrt(v.seedVariance), 4) << " (training randomness) with task sd "
                << fixed(std::sqrt(v.taskVariance), 4) << " / sqrt(" << v.tasks << ") (an eval episode's noise)";
        else if (v.design == PairingDesign::PerSeed)
            out << " (no per-task outcomes: seed and task noise together)";
        else
            out << " (unpaired: var(left) + var(right))";
        out << "\n";
        out << "  effect " << c.effect << (c.effectIsMargin ? " (the margin)" : "") << ": power " << fixed(c.power, 2)
            << " at " << r.seeds << " seeds\n";
        if (r.seeds < 10)
            out << "  (a variance from " << r.seeds << " seeds has " << r.seeds - 1
                << " degrees of freedom: read the counts as an order of magnitude, and plan again as seeds finish)\n";
        for (const auto& o : c.options) {
            out << "  needed: ";
            if (o.seeds > PowerOptions {}.maxSeeds)
                out << "more than " << PowerOptions {}.maxSeeds << " seeds";
            else
                out << o.seeds << " seeds";
            if (o.tasks > 0)
                out << " at " << o.tasks << " tasks";
            else if (v.tasks > 0)
                out << " with unlimited tasks (the seed variance alone: the floor)";
            if (std::isfinite(o.hours))
                out << ": " << fixed(o.hours, 1) << " h"
                    << (o.newRun ? " (a new run of both arms at that task count)" : " for the seeds to add");
            out << "\n";
        }
        if (!c.note.empty())
            out << "  " << c.note << "\n";
    }
    return out.str();
}

} // namespace creditlab::learn
