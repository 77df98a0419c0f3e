#include "core/judge/agreement.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <stdexcept>

namespace creditlab::judge {

namespace {

std::optional<double> ratio(std::int64_t num, std::int64_t den)
{
    if (den == 0)
        return std::nullopt;
    return static_cast<double>(num) / static_cast<double>(den);
}

void finish(ConflictCell& c) { c.rate = ratio(c.missed, c.total); }

} // namespace

std::optional<double> cohenKappa(std::span<const std::int64_t> counts, std::size_t categories)
{
    if (counts.size() != categories * categories)
        throw std::invalid_argument("cohenKappa: expected a square count matrix");
    std::vector<double> rows(categories, 0.0);
    std::vector<double> cols(categories, 0.0);
    double n = 0.0;
    double agree = 0.0;
    for (std::size_t i = 0; i < categories; ++i)
        for (std::size_t j = 0; j < categories; ++j) {
            const double c = static_cast<double>(counts[i * categories + j]);
            rows[i] += c;
            cols[j] += c;
            n += c;
            if (i == j)
                agree += c;
        }
    if (n == 0.0)
        return std::nullopt;
    const double po = agree / n;
    double pe = 0.0;
    for (std::size_t k = 0; k < categories; ++k)
        pe += (rows[k] / n) * (cols[k] / n);
    // p_e = 1 only when both raters use one and the same category: 0/0.
    if (pe >= 1.0 - 1e-15)
        return std::nullopt;
    return (po - pe) / (1.0 - pe); // Cohen 1960, Eq. 1
}

std::optional<double> cohenKappa(const RoleCounts& counts)
{
    std::array<std::int64_t, kRoleCount * kRoleCount> flat {};
    for (std::size_t i = 0; i < kRoleCount; ++i)
        for (std::size_t j = 0; j < kRoleCount; ++j)
            flat[i * kRoleCount + j] = counts[i][j];
    return cohenKappa(flat, kRoleCount);
}

PairAgreement comparePair(std::span<const std::optional<Role>> reference, std::span<const std::optional<Role>> other,
    const std::vector<bool>& success)
{
    if (reference.size() != other.size() || reference.size() != success.size())
        throw std::invalid_argument("comparePair: the label and success vectors differ in length");
    PairAgreement r;
    // [outcome][reference][other]
    std::array<RoleCounts, 2> byOutcome {};
    for (std::size_t i = 0; i < reference.size(); ++i) {
        const auto& a = reference[i];
        const auto& b = other[i];
        if (a && !b)
            ++r.onlyReference;
        if (b && !a)
            ++r.onlyOther;
        if (!a || !b)
            continue;
        ++r.count;
        ++r.confusion[roleIndex(*a)][roleIndex(*b)];
        ++byOutcome[success[i] ? 1 : 0][roleIndex(*a)][roleIndex(*b)];
        // TRIAGE's two conflict cells, where role and outcome point in opposite directions.
        if (*a == Role::R && success[i]) {
            ++r.regressionInSuccess.total;
            r.regressionInSuccess.missed += *b != Role::R;
        }
        if (*a == Role::E && !success[i]) {
            ++r.explorationInFailure.total;
            r.explorationInFailure.missed += *b != Role::E;
        }
    }
    finish(r.regressionInSuccess);
    finish(r.explorationInFailure);
    std::int64_t agree = 0;
    for (std::size_t k = 0; k < kRoleCount; ++k)
        agree += r.confusion[k][k];
    r.accuracy = ratio(agree, r.count);
    r.kappa = cohenKappa(r.confusion);

    double f1Sum = 0.0;
    int f1Count = 0;
    for (std::size_t k = 0; k < kRoleCount; ++k) {
        RoleScores& s = r.roles[k];
        for (std::size_t j = 0; j < kRoleCount; ++j) {
            s.support += r.confusion[k][j];
            s.predicted += r.confusion[j][k];
        }
        s.truePositives = r.confusion[k][k];
        s.precision = ratio(s.truePositives, s.predicted);
        s.recall = ratio(s.truePositives, s.support);
        s.f1 = ratio(2 * s.truePositives, s.support + s.predicted);
        if (s.f1) {
            f1Sum += *s.f1;
            ++f1Count;
        }
        for (int o = 0; o < 2; ++o) {
            std::int64_t support = 0;
            std::int64_t predicted = 0;
            for (std::size_t j = 0; j < kRoleCount; ++j) {
                support += byOutcome[o][k][j];
                predicted += byOutcome[o][j][k];
            }
            r.cellF1[k][o] = ratio(2 * byOutcome[o][k][k], support + predicted);
        }
    }
    if (f1Count > 0)
        r.macroF1 = f1Sum / f1Count;
    return r;
}

KappaInterval bootstrapKappa(std::span<const std::optional<Role>> reference, std::span<const std::optional<Role>> other,
    int resamples, double level, std::uint64_t seed)
{
    if (reference.size() != other.size())
        throw std::invalid_argument("bootstrapKappa: the label vectors differ in length");
    if (resamples < 1 || !(level > 0.0 && level < 1.0))
        throw std::invalid_argument("bootstrapKappa: expected resamples >= 1 and a level in (0, 1)");
    // Each pairable turn as its confusion cell (reference role × kRoleCount + other role).
    std::vector<std::uint8_t> cells;
    for (std::size_t i = 0; i < reference.size(); ++i)
        if (reference[i] && other[i])
            cells.push_back(static_cast<std::uint8_t>(roleIndex(*reference[i]) * kRoleCount + roleIndex(*other[i])));
    KappaInterval r;
    r.resamples = resamples;
    if (cells.empty())
        return r;
    const std::uint64_t n = cells.size();
    std::mt19937_64 rng(seed); // its output sequence is fixed by the standard, unlike the distributions'
    std::vector<double> kappas;
    kappas.reserve(static_cast<std::size_t>(resamples));
    std::array<std::int64_t, kRoleCount * kRoleCount> counts {};
    for (int b = 0; b < resamples; ++b) {
        counts.fill(0);
        for (std::uint64_t k = 0; k < n; ++k)
            ++counts[cells[rng() % n]]; // modulo bias ≤ n / 2^64: nil
        if (const auto kappa = cohenKappa(counts, kRoleCount))
            kappas.push_back(*kappa);
    }
    r.defined = static_cast<int>(kappas.size());
    if (kappas.empty())
        return r;
    std::sort(kappas.begin(), kappas.end());
    const auto quantile = [&](double p) {
        const double at = p * static_cast<double>(kappas.size() - 1);
        const auto below = static_cast<std::size_t>(std::floor(at));
        const std::size_t above = std::min(below + 1, kappas.size() - 1);
        return kappas[below] + (at - static_cast<double>(below)) * (kappas[above] - kappas[below]);
    };
    r.low = quantile((1.0 - level) / 2.0);
    r.high = quantile((1.0 + level) / 2.0);
    return r;
}

AlphaResult krippendorffAlphaNominal(const std::vector<std::vector<std::optional<int>>>& coders)
{
    AlphaResult r;
    r.coders = static_cast<std::int64_t>(coders.size());
    if (coders.empty())
        return r;
    const std::size_t units = coders.front().size();
    for (const auto& c : coders)
        if (c.size() != units)
            throw std::invalid_argument("krippendorffAlpha: the coders' value vectors differ in length");
    // Coincidences o_ck and value totals n_c (Krippendorff 2011, §C).
    std::map<std::pair<int, int>, double> o;
    std::map<int, double> nc;
    std::map<int, int> counts;
    for (std::size_t u = 0; u < units; ++u) {
        counts.clear();
        int m = 0;
        for (const auto& c : coders)
            if (c[u]) {
                if (*c[u] < 0)
                    throw std::invalid_argument("krippendorffAlpha: negative category code");
                ++counts[*c[u]];
                ++m;
            }
        if (m < 2)
            continue; // not pairable
        ++r.units;
        r.values += m;
        for (const auto& [c, nuc] : counts)
            for (const auto& [k, nuk] : counts) {
                const double pairs = c == k ? static_cast<double>(nuc) * (nuc - 1) : static_cast<double>(nuc) * nuk;
                o[{ c, k }] += pairs / (m - 1);
            }
    }
    double diagonal = 0.0;
    for (const auto& [ck, v] : o) {
        nc[ck.first] += v;
        if (ck.first == ck.second)
            diagonal += v;
    }
    const double n = static_cast<double>(r.values);
    double expected = 0.0; // Σ_c n_c(n_c − 1)
    for (const auto& [c, v] : nc)
        expected += v * (v - 1.0);
    const double denominator = n * (n - 1.0) - expected;
    if (r.values == 0 || denominator <= 1e-12)
        return r; // no pairable values, or every value the same: D_e = 0
    r.alpha = ((n - 1.0) * diagonal - expected) / denominator;
    return r;
}

AlphaResult krippendorffAlpha(const std::vector<std::vector<std::optional<Role>>>& coders)
{
    std::vector<std::vector<std::optional<int>>> codes;
    codes.reserve(coders.size());
    for (const auto& c : coders) {
        auto& out = codes.emplace_back();
        out.reserve(c.size());
        for (const auto& v : c)
            out.push_back(v ? std::optional<int>(static_cast<int>(roleIndex(*v))) : std::nullopt);
    }
    return krippendorffAlphaNominal(codes);
}

} // namespace creditlab::judge
