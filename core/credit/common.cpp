#include "core/credit/common.h"

#include <algorithm>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace creditlab::credit {

double mean(std::span<const double> values)
{
    if (values.empty())
        return 0.0;
    double s = 0.0;
    for (double v : values)
        s += v;
    return s / static_cast<double>(values.size());
}

double sampleStd(std::span<const double> values)
{
    if (values.size() < 2)
        return 0.0;
    const double m = mean(values);
    double ss = 0.0;
    for (double v : values)
        ss += (v - m) * (v - m);
    return std::sqrt(ss / static_cast<double>(values.size() - 1));
}

double populationStd(std::span<const double> values)
{
    if (values.empty())
        return 0.0;
    const double m = mean(values);
    double ss = 0.0;
    for (double v : values)
        ss += (v - m) * (v - m);
    return std::sqrt(ss / static_cast<double>(values.size()));
}

double stepReward(const Trajectory& t, std::size_t turn)
{
    double r = t.turns[turn].rewardOrDefault();
    if (turn + 1 == t.turns.size())
        r += t.reward;
    return r;
}

namespace {
/// singleton=pass: verl's core_algos.py sets mean 0 and std 1 for a group of one, so (x - 0) / (1 + eps).
double singletonAdvantage(double x, bool normStd) { return normStd ? x / (1.0 + kEps) : x; }
} // namespace

std::vector<ParamSpec> grpoParamSpecs()
{
    return {
        { "binarize", ParamType::Bool, "false", {}, {}, {}, "use success (1/0) instead of the reward" },
        { "norm_std", ParamType::Bool, "true", {}, {}, {},
            "divide by the group's std + eps (false: only subtract the mean)" },
        singletonParamSpec(),
    };
}

ParamSpec singletonParamSpec()
{
    return { "singleton", ParamType::Choice, "zero", {}, {}, { "zero", "pass" },
        "a group of one trajectory: zero gives 0; pass takes mean 0 and std 1, so the outcome passes through "
        "(verl)" };
}

std::vector<ParamSpec> whiteningParamSpecs()
{
    return {
        { "whiten_eps", ParamType::Double, "1e-6", 0.0, 1.0, {}, "epsilon of the whitening", /*minExclusive=*/true },
        { "whiten_eps_on", ParamType::Choice, "std", {}, {}, { "std", "var" },
            "std: (x - mean) / (std + whiten_eps); var: (x - mean) / sqrt(var + whiten_eps), verl's masked_whiten" },
    };
}

Whitening whitening(const Params& params)
{
    return { params.getDouble("whiten_eps"), params.getChoice("whiten_eps_on") == "var" };
}

std::vector<double> grpoAdvantages(const Batch& batch, const Params& params)
{
    const bool binarize = params.getBool("binarize");
    const bool normStd = params.getBool("norm_std");
    const bool pass = singletonPasses(params);
    std::vector<double> a(batch.trajectories.size(), 0.0);
    std::vector<double> values;
    for (const Group& g : batch.groups) {
        if (g.members.size() == 1 && pass) {
            const Trajectory& t = batch.trajectories[g.members[0]];
            a[g.members[0]] = singletonAdvantage(binarize ? successValue(t) : t.reward, normStd);
            continue;
        }
        if (g.members.size() < 2)
            continue; // a group of one gives 0 (singleton=zero)
        values.clear();
        for (std::size_t i : g.members) {
            const Trajectory& t = batch.trajectories[i];
            values.push_back(binarize ? successValue(t) : t.reward);
        }
        const double m = mean(values);
        const double sd = normStd ? sampleStd(values) : 0.0;
        for (std::size_t k = 0; k < g.members.size(); ++k)
            a[g.members[k]] = normStd ? (values[k] - m) / (sd + kEps) : values[k] - m; // GRPO: (R - mean) / std
    }
    return a;
}

std::vector<double> grpoAdvantages(const CreditBatch& batch, const Params& params)
{
    if (!hasColumns(batch.columns(), Columns::Outcomes))
        return grpoAdvantages(batch.source(), params); // a method that reads no other column: no copy for this
    const bool binarize = params.getBool("binarize");
    const bool normStd = params.getBool("norm_std");
    const bool pass = singletonPasses(params);
    const std::span<const double> outcome = binarize ? batch.successes() : batch.rewards();
    std::vector<double> a(batch.trajectoryCount(), 0.0);
    std::vector<double> values;
    for (const Group& g : batch.groups()) {
        if (g.members.size() == 1 && pass) {
            a[g.members[0]] = singletonAdvantage(outcome[g.members[0]], normStd);
            continue;
        }
        if (g.members.size() < 2)
            continue; // a group of one gives 0 (singleton=zero)
        values.clear();
        for (std::size_t i : g.members)
            values.push_back(outcome[i]);
        const double m = mean(values);
        const double sd = normStd ? sampleStd(values) : 0.0;
        for (std::size_t k = 0; k < g.members.size(); ++k)
            a[g.members[k]] = normStd ? (values[k] - m) / (sd + kEps) : values[k] - m; // GRPO: (R - mean) / std
    }
    return a;
}

void requireTurnField(const Batch& batch, std::string_view field, std::string_view method)
{
    for (const Trajectory& t : batch.trajectories) {
        for (std::size_t k = 0; k < t.turns.size(); ++k) {
            const Turn& u = t.turns[k];
            const bool present = field == "role" ? u.role.has_value()
                : field == "progress"            ? u.progress.has_value()
                : field == "score"               ? u.score.has_value()
                                                 : true;
            if (!present)
                throw CreditInputError("trajectory \"" + t.id + "\", turn " + std::to_string(k + 1) + ": field \""
                    + std::string(field) + "\" is required by " + std::string(method));
        }
    }
}

std::optional<double> turnCredit(const Turn& turn, std::string_view name)
{
    for (const auto& [method, value] : turn.credits)
        if (method == name)
            return value;
    return std::nullopt;
}

void requireTurnCredit(const Batch& batch, std::string_view name, std::string_view method)
{
    for (const Trajectory& t : batch.trajectories)
        for (std::size_t k = 0; k < t.turns.size(); ++k)
            if (!turnCredit(t.turns[k], name))
                throw CreditInputError("trajectory \"" + t.id + "\", turn " + std::to_string(k + 1) + ": credit \""
                    + std::string(name) + "\" is required by " + std::string(method));
}

void whiten(std::vector<double>& values, Whitening how) { whitenInto(values, values, how); }

void whitenInto(std::span<const double> raw, std::vector<double>& out, Whitening how)
{
    const double m = mean(raw);
    out.resize(raw.size());
    if (how.onVariance) {
        // verl's masked_whiten: (x - mean) * rsqrt(var + eps), the sample variance (Bessel-corrected).
        double ss = 0.0;
        for (double v : raw)
            ss += (v - m) * (v - m);
        const double var = raw.size() < 2 ? 0.0 : ss / static_cast<double>(raw.size() - 1);
        const double rsqrt = 1.0 / std::sqrt(var + how.eps);
        for (std::size_t k = 0; k < raw.size(); ++k)
            out[k] = (raw[k] - m) * rsqrt;
        return;
    }
    const double sd = sampleStd(raw);
    for (std::size_t k = 0; k < raw.size(); ++k)
        out[k] = (raw[k] - m) / (sd + how.eps);
}

void prepareLargeBuffer(const void* data, std::size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t kHugePage = std::uintptr_t(2) << 20;
    if (bytes < 2 * kHugePage)
        return;
    const auto begin = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1);
    const std::uintptr_t last = (begin + bytes) & ~(kHugePage - 1);
    if (last > first)
        madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE); // a hint: failure is harmless
#if defined(MADV_POPULATE_WRITE)
    // One call maps the whole buffer instead of a fault per page (Linux 5.14; older kernels refuse it).
    static const std::uintptr_t pageSize = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    const std::uintptr_t page = (begin + pageSize - 1) & ~(pageSize - 1);
    const std::uintptr_t end = (begin + bytes) & ~(pageSize - 1);
    if (end > page)
        madvise(reinterpret_cast<void*>(page), end - page, MADV_POPULATE_WRITE);
#endif
#else
    (void)data;
    (void)bytes;
#endif
}

} // namespace creditlab::credit
