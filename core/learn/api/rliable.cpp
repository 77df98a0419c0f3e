// rliable's aggregates (Agarwal et al. 2021): IQM, optimality gap, probability of improvement, performance profiles.
#include "core/learn/api/rliable.h"
#include "core/learn/api/rng.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

namespace creditlab::learn {

namespace {

std::size_t taskCount(const ScoreMatrix& scores)
{
    if (scores.empty())
        throw std::invalid_argument("rliable: no runs");
    const auto tasks = scores.front().size();
    for (const auto& run : scores)
        if (run.size() != tasks || tasks == 0)
            throw std::invalid_argument("rliable: every run needs a score on every task");
    return tasks;
}

double percentile(std::vector<double>& values, double q)
{
    std::sort(values.begin(), values.end());
    const double pos = q * static_cast<double>(values.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const auto hi = std::min(values.size() - 1, lo + 1);
    return values[lo] + (pos - static_cast<double>(lo)) * (values[hi] - values[lo]);
}

/// Each task's runs resampled with replacement, independently per task.
ScoreMatrix stratifiedResample(const ScoreMatrix& scores, Rng& rng)
{
    ScoreMatrix out(scores.size(), std::vector<double>(scores.front().size()));
    for (std::size_t task = 0; task < scores.front().size(); ++task)
        for (auto& run : out)
            run[task] = scores[rng.below(scores.size())][task];
    return out;
}

Estimate bootstrapEstimate(const std::vector<const ScoreMatrix*>& inputs,
    const std::function<double(const std::vector<const ScoreMatrix*>&)>& statistic, const BootstrapOptions& options)
{
    Estimate e;
    e.value = statistic(inputs);
    Rng rng(options.seed);
    std::vector<double> reps;
    for (int r = 0; r < std::max(1, options.resamples); ++r) {
        std::vector<ScoreMatrix> resampled;
        for (const auto* m : inputs)
            resampled.push_back(stratifiedResample(*m, rng));
        std::vector<const ScoreMatrix*> pointers;
        for (const auto& m : resampled)
            pointers.push_back(&m);
        reps.push_back(statistic(pointers));
    }
    const double tail = (1.0 - options.level) / 2.0;
    e.low = percentile(reps, tail);
    e.high = percentile(reps, 1.0 - tail);
    return e;
}

double fractionAbove(const std::vector<double>& sorted, double tau)
{
    const auto above = sorted.end() - std::upper_bound(sorted.begin(), sorted.end(), tau);
    return static_cast<double>(above) / static_cast<double>(sorted.size());
}

PerformanceProfile profile(const std::vector<double>& taus, const std::function<std::vector<double>(Rng*)>& scoresOf,
    const BootstrapOptions& options)
{
    PerformanceProfile p;
    p.taus = taus;
    auto data = scoresOf(nullptr);
    std::sort(data.begin(), data.end());
    for (double tau : taus)
        p.fraction.push_back(fractionAbove(data, tau));
    Rng rng(options.seed);
    std::vector<std::vector<double>> reps(taus.size());
    for (int r = 0; r < std::max(1, options.resamples); ++r) {
        auto s = scoresOf(&rng);
        std::sort(s.begin(), s.end());
        for (std::size_t k = 0; k < taus.size(); ++k)
            reps[k].push_back(fractionAbove(s, taus[k]));
    }
    const double tail = (1.0 - options.level) / 2.0;
    for (auto& r : reps) {
        p.low.push_back(percentile(r, tail));
        p.high.push_back(percentile(r, 1.0 - tail));
    }
    return p;
}

} // namespace

double interquartileMean(std::vector<double> scores)
{
    if (scores.empty())
        throw std::invalid_argument("interquartileMean: no scores");
    std::sort(scores.begin(), scores.end());
    const std::size_t cut = scores.size() / 4; // int(0.25 * n)
    double sum = 0.0;
    for (std::size_t k = cut; k < scores.size() - cut; ++k)
        sum += scores[k];
    return sum / static_cast<double>(scores.size() - 2 * cut);
}

double optimalityGap(const std::vector<double>& scores, double gamma)
{
    if (scores.empty())
        throw std::invalid_argument("optimalityGap: no scores");
    double sum = 0.0;
    for (double x : scores)
        sum += std::max(0.0, gamma - x);
    return sum / static_cast<double>(scores.size());
}

std::vector<double> pooled(const ScoreMatrix& scores)
{
    std::vector<double> out;
    for (const auto& run : scores)
        out.insert(out.end(), run.begin(), run.end());
    return out;
}

double probabilityOfImprovement(const ScoreMatrix& a, const ScoreMatrix& b)
{
    const auto tasks = taskCount(a);
    if (taskCount(b) != tasks)
        throw std::invalid_argument("probabilityOfImprovement: the arms have different tasks");
    double sum = 0.0;
    for (std::size_t task = 0; task < tasks; ++task) {
        double wins = 0.0;
        for (const auto& x : a)
            for (const auto& y : b)
                wins += x[task] > y[task] ? 1.0 : x[task] == y[task] ? 0.5 : 0.0;
        sum += wins / static_cast<double>(a.size() * b.size());
    }
    return sum / static_cast<double>(tasks);
}

Estimate interquartileMeanEstimate(const ScoreMatrix& scores, const BootstrapOptions& options)
{
    (void)taskCount(scores);
    return bootstrapEstimate(
        { &scores }, [](const auto& m) { return interquartileMean(pooled(*m[0])); }, options);
}

Estimate optimalityGapEstimate(const ScoreMatrix& scores, double gamma, const BootstrapOptions& options)
{
    (void)taskCount(scores);
    return bootstrapEstimate(
        { &scores }, [gamma](const auto& m) { return optimalityGap(pooled(*m[0]), gamma); }, options);
}

Estimate probabilityOfImprovementEstimate(const ScoreMatrix& a, const ScoreMatrix& b, const BootstrapOptions& options)
{
    (void)probabilityOfImprovement(a, b); // checks the shapes
    return bootstrapEstimate(
        { &a, &b }, [](const auto& m) { return probabilityOfImprovement(*m[0], *m[1]); }, options);
}

PerformanceProfile runScoreProfile(
    const ScoreMatrix& scores, const std::vector<double>& taus, const BootstrapOptions& options)
{
    (void)taskCount(scores);
    return profile(
        taus, [&](Rng* rng) { return pooled(rng ? stratifiedResample(scores, *rng) : scores); }, options);
}

PerformanceProfile taskMeanProfile(
    const ScoreMatrix& scores, const std::vector<double>& taus, const BootstrapOptions& options)
{
    const auto tasks = taskCount(scores);
    return profile(
        taus,
        [&](Rng* rng) {
            // Runs with replacement (whole runs: a run's tasks stay together), then tasks with replacement.
            std::vector<std::size_t> runs(scores.size()), columns(tasks);
            for (std::size_t k = 0; k < runs.size(); ++k)
                runs[k] = rng ? rng->below(scores.size()) : k;
            for (std::size_t k = 0; k < tasks; ++k)
                columns[k] = rng ? rng->below(tasks) : k;
            std::vector<double> means(tasks, 0.0);
            for (std::size_t k = 0; k < tasks; ++k) {
                for (const auto r : runs)
                    means[k] += scores[r][columns[k]];
                means[k] /= static_cast<double>(runs.size());
            }
            return means;
        },
        options);
}

std::vector<double> tauGrid(double lo, double hi, int count)
{
    std::vector<double> out;
    if (count < 2)
        return { lo };
    for (int k = 0; k < count; ++k)
        out.push_back(lo + (hi - lo) * k / (count - 1));
    return out;
}

} // namespace creditlab::learn
