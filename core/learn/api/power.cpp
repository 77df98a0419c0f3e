// Power planning: variance components of paired differences and the t-based number of seeds.
#include "core/learn/api/power.h"
#include "core/learn/api/distributions.h"

#include <algorithm>
#include <cmath>

namespace creditlab::learn {

namespace {

double sampleVariance(const std::vector<double>& v)
{
    if (v.size() < 2)
        return 0.0;
    double m = 0.0;
    for (double x : v)
        m += x;
    m /= static_cast<double>(v.size());
    double ss = 0.0;
    for (double x : v)
        ss += (x - m) * (x - m);
    return ss / static_cast<double>(v.size() - 1);
}

} // namespace

double VarianceComponents::seedDifferenceVariance(int newTasks) const
{
    if (design != PairingDesign::PerTask || tasks <= 0 || newTasks <= 0)
        return differenceVariance;
    // The observed variance, less (or plus) the task noise the change of task count removes (adds): seedVariance +
    // taskVariance / newTasks, except where the pilot's seeds varied less than its task noise predicts (seedVariance
    // clamped at 0), where it stays monotone in the task count instead of jumping to the model's value.
    const double change = taskVariance * (1.0 / tasks - 1.0 / static_cast<double>(newTasks));
    return std::max(seedVariance, differenceVariance - change);
}

VarianceComponents estimateVariance(const PairedData& data)
{
    VarianceComponents c;
    c.design = data.design;
    if (!data.paired()) {
        c.seeds = static_cast<int>(std::min(data.left.size(), data.right.size()));
        c.differenceVariance = c.seedVariance = sampleVariance(data.left) + sampleVariance(data.right);
        return c;
    }
    const auto d = data.differences();
    c.seeds = static_cast<int>(d.size());
    c.differenceVariance = c.seedVariance = sampleVariance(d);
    const int tasks = data.tasks();
    if (data.design != PairingDesign::PerTask || tasks < 2 || d.size() < 2)
        return c;
    c.tasks = tasks;
    // The residual mean square of the seeds x tasks table of paired differences (tasks beyond the fewest are left out,
    // so that the table is complete).
    const auto S = d.size();
    const auto T = static_cast<std::size_t>(tasks);
    std::vector<double> seedMean(S, 0.0), taskMean(T, 0.0);
    double grand = 0.0;
    for (std::size_t s = 0; s < S; ++s)
        for (std::size_t t = 0; t < T; ++t) {
            const double e = data.leftTasks[s][t] - data.rightTasks[s][t];
            seedMean[s] += e / static_cast<double>(T);
            taskMean[t] += e / static_cast<double>(S);
            grand += e / static_cast<double>(S * T);
        }
    double ss = 0.0;
    for (std::size_t s = 0; s < S; ++s)
        for (std::size_t t = 0; t < T; ++t) {
            const double r = data.leftTasks[s][t] - data.rightTasks[s][t] - seedMean[s] - taskMean[t] + grand;
            ss += r * r;
        }
    c.taskVariance = ss / static_cast<double>((S - 1) * (T - 1));
    c.differenceVariance = sampleVariance(seedMean);
    c.seedVariance = std::max(0.0, c.differenceVariance - c.taskVariance / static_cast<double>(T));
    return c;
}

double powerAt(int seeds, double effect, double variance, const PowerOptions& options, bool paired)
{
    if (seeds < 2)
        return 0.0;
    const double n = seeds;
    const double df = paired ? n - 1.0 : 2.0 * n - 2.0;
    const double critical = studentTQuantile(1.0 - (1.0 - options.level) / 2.0, df);
    if (!(variance > 0.0))
        return effect > 0.0 ? 1.0 : 0.0;
    const double shift = std::abs(effect) * std::sqrt(n / variance);
    return studentTCdf(shift - critical, df);
}

int seedsNeeded(double effect, double variance, const PowerOptions& options, bool paired)
{
    if (!(variance > 0.0))
        return 2;
    if (!(std::abs(effect) > 0.0))
        return options.maxSeeds + 1;
    for (int n = 2; n <= options.maxSeeds; ++n) {
        const double df = paired ? n - 1.0 : 2.0 * n - 2.0;
        const double needed
            = studentTQuantile(1.0 - (1.0 - options.level) / 2.0, df) + studentTQuantile(options.power, df);
        if (std::sqrt(static_cast<double>(n) / variance) * std::abs(effect) >= needed)
            return n;
    }
    return options.maxSeeds + 1;
}

} // namespace creditlab::learn
