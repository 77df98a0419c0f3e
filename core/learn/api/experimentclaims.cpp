// An experiment's claims: each arm's values per seed, the eval episodes' per-task outcomes behind them, the paired
// interval and verdict of every claim, and rliable's aggregates and profiles of the claims' measures. Torch-free.
#include "core/learn/api/experiment_p.h"

#include "core/learn/torch/pair/probepipeline.h"
#include "core/storage/store.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>

namespace creditlab::learn::detail {

namespace {

/// The iteration a claim reads from a curve (claimValue()'s choice): nullopt for auc, or when it reads none.
std::optional<std::int64_t> claimIteration(const Claim& claim, const Curve& curve)
{
    if (curve.empty() || claim.statistic == ClaimStatistic::Auc)
        return std::nullopt;
    if (claim.statistic == ClaimStatistic::End)
        return curve.back().first;
    std::optional<std::int64_t> it;
    for (const auto& [i, value] : curve)
        if (i <= claim.iteration)
            it = i;
    return it;
}

/// One eval episode's outcome on a metric that is the mean of its episodes' outcomes (engine/evaluation.cpp's
/// evaluate()); nullopt for the other metrics (rates per turn, turns of successful episodes).
std::optional<double> episodeOutcome(const TrajectoryInfo& t, const std::string& metric)
{
    if (metric == "eval/success")
        return t.successOrDefault() ? 1.0 : 0.0;
    if (metric == "eval/return")
        return t.reward;
    return std::nullopt;
}

/// "eval-it<N>-<k>" → k; nullopt for another id.
std::optional<std::size_t> episodeIndex(const std::string& id)
{
    const auto dash = id.rfind('-');
    if (id.rfind("eval-it", 0) != 0 || dash == std::string::npos || dash + 1 >= id.size())
        return std::nullopt;
    std::size_t k = 0;
    const auto r = std::from_chars(id.data() + dash + 1, id.data() + id.size(), k);
    if (r.ec != std::errc() || r.ptr != id.data() + id.size())
        return std::nullopt;
    return k;
}

/// Success rates and returns at a point lie in [0, 1], higher is better: their optimality gap and [0, 1] profile axis
/// mean something.
bool isRate(const Claim& claim)
{
    const auto& m = claim.metric;
    const auto endsWith = [&](const std::string& tail) {
        return m.size() >= tail.size() && m.compare(m.size() - tail.size(), tail.size(), tail) == 0;
    };
    return claim.statistic != ClaimStatistic::Auc && (endsWith("/success") || m == "eval/return");
}

/// One arm's values of a measure: per seed in trial order, with the eval episodes' outcomes where stored.
struct ArmValues {
    std::vector<std::string> seeds;
    std::vector<double> values;
    std::vector<std::vector<double>> tasks; ///< per seed; empty where the seed has none
    bool allTasks() const
    {
        return !tasks.empty() && std::all_of(tasks.begin(), tasks.end(), [&](const auto& t) {
            return !t.empty() && t.size() == tasks[0].size();
        });
    }
};

/// Reads the claims' values, caching the episode queries (a run's iteration is read once whichever claims use it).
class ClaimReader {
public:
    ClaimReader(Store& store, const std::vector<TrialData>& trials)
        : m_store(store)
        , m_trials(trials)
    {
    }

    ArmValues values(const Claim& claim, const std::string& arm)
    {
        ArmValues out;
        for (const auto& trial : m_trials) {
            if (trial.arm != arm)
                continue;
            const auto it = trial.curves.find(claim.metric);
            if (it == trial.curves.end())
                continue;
            const auto v = claimValue(claim, it->second);
            if (!v)
                continue;
            out.seeds.push_back(trial.seed);
            out.values.push_back(*v);
            std::vector<double> tasks;
            if (const auto at = claimIteration(claim, it->second))
                tasks = outcomes(trial.runId, *at, claim.metric, *v);
            out.tasks.push_back(std::move(tasks));
        }
        return out;
    }

private:
    /// The outcomes of a run's eval episodes at an iteration, in task order (episode k plays the eval split's task
    /// with seed k, in every arm); empty when the metric is not a mean over episodes, when they were not stored
    /// (eval.store: false, or a run older than schema 4) or do not reproduce the metric's value.
    std::vector<double> outcomes(std::int64_t runId, std::int64_t iteration, const std::string& metric, double expected)
    {
        if (runId <= 0 || metric.rfind("eval/", 0) != 0)
            return {};
        const auto key = std::make_tuple(runId, iteration, metric);
        if (const auto it = m_cache.find(key); it != m_cache.end())
            return it->second;
        std::vector<double>& out = m_cache[key];
        std::map<std::size_t, double> byTask;
        for (const auto& t : m_store.trajectories(runId, iteration, Store::Which::Evaluation)) {
            const auto k = episodeIndex(t.id);
            const auto v = episodeOutcome(t, metric);
            if (!k || !v)
                return out = {};
            byTask[*k] = *v;
        }
        // Tasks 0..T-1, each once, whose mean is the stored metric: anything else is not the evaluation it reports.
        if (byTask.empty() || byTask.rbegin()->first + 1 != byTask.size())
            return out = {};
        double sum = 0.0;
        for (const auto& [k, v] : byTask) {
            out.push_back(v);
            sum += v;
        }
        if (std::abs(sum / static_cast<double>(out.size()) - expected) > 1e-9)
            out.clear();
        return out;
    }

    Store& m_store;
    const std::vector<TrialData>& m_trials;
    std::map<std::tuple<std::int64_t, std::int64_t, std::string>, std::vector<double>> m_cache;
};

/// A probe claim's values: one per contamination seed, each table a "seed" both probes share.
ArmValues probeValues(const ExperimentReport& report, const Claim& claim, const std::string& probe)
{
    ArmValues out;
    for (const auto& row : report.probeRows)
        if (row.probe == probe)
            if (const auto v = probeValue(row, claim.metric)) {
                out.seeds.push_back(std::to_string(row.seed));
                out.values.push_back(*v);
            }
    return out;
}

void addAggregates(ExperimentReport& report, ClaimReader& reader, const Claim& claim)
{
    const auto measure = claimMeasure(claim);
    const bool rate = isRate(claim);
    BootstrapOptions boot;
    std::vector<std::pair<std::string, ArmValues>> arms;
    double lo = 1e300, hi = -1e300;
    for (const auto& arm : report.spec.arms) {
        auto v = reader.values(claim, arm.name);
        ArmAggregate a;
        a.measure = measure;
        a.arm = arm.name;
        a.runs = static_cast<int>(v.values.size());
        if (!v.values.empty()) {
            std::tie(a.mean, a.std) = meanStd(v.values);
            ScoreMatrix runs;
            for (double x : v.values) {
                runs.push_back({ x });
                lo = std::min(lo, x);
                hi = std::max(hi, x);
            }
            a.iqm = interquartileMeanEstimate(runs, boot);
            if (rate)
                a.optimalityGap = optimalityGapEstimate(runs, 1.0, boot);
            arms.emplace_back(arm.name, std::move(v));
        }
        report.aggregates.push_back(std::move(a));
    }
    // The profile's axis: [0, 1] for rates, else the values' range, padded.
    if (!rate) {
        const double pad = hi > lo ? 0.05 * (hi - lo) : 0.5;
        lo -= pad;
        hi += pad;
    }
    const auto taus = rate ? tauGrid(0.0, 1.0, 51) : tauGrid(lo, hi, 51);
    for (const auto& [arm, v] : arms) {
        ArmProfile p;
        p.measure = measure;
        p.arm = arm;
        p.runs = static_cast<int>(v.values.size());
        p.overTasks = v.allTasks();
        if (p.overTasks) {
            p.tasks = static_cast<int>(v.tasks.front().size());
            p.profile = taskMeanProfile(v.tasks, taus, boot);
        } else {
            ScoreMatrix runs;
            for (double x : v.values)
                runs.push_back({ x });
            p.profile = runScoreProfile(runs, taus, boot);
        }
        report.profiles.push_back(std::move(p));
    }
}

} // namespace

void judgeClaims(Store& store, ExperimentReport& report, const std::vector<TrialData>& trials)
{
    ClaimReader reader(store, trials);
    for (const auto& claim : report.spec.claims) {
        const bool probe = isProbeMetric(claim.metric);
        const auto left = probe ? probeValues(report, claim, claim.left) : reader.values(claim, claim.left);
        const auto right = probe ? probeValues(report, claim, claim.right) : reader.values(claim, claim.right);
        const auto data = pairBySeed(left.seeds, left.values, right.seeds, right.values, left.tasks, right.tasks);
        auto result = evaluateClaim(claim, data);
        // The arms' own values, every seed of each, for the means and the per-seed list (the interval uses the
        // shared seeds).
        result.left = left.values;
        result.right = right.values;
        std::tie(result.leftMean, result.leftStd) = meanStd(left.values);
        std::tie(result.rightMean, result.rightStd) = meanStd(right.values);
        report.claims.push_back(std::move(result));
        if (!probe
            && std::find(report.measures.begin(), report.measures.end(), claimMeasure(claim))
                == report.measures.end()) {
            report.measures.push_back(claimMeasure(claim));
            addAggregates(report, reader, claim);
        }
    }
}

} // namespace creditlab::learn::detail
