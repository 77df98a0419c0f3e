#include "ui/heatmap/heatmapmath.h"

#include <algorithm>
#include <cmath>

namespace creditlab::ui::heatmap {

namespace {

QRgb mix(QRgb from, QRgb to, double t)
{
    const auto channel = [t](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * t)); };
    return qRgb(channel(qRed(from), qRed(to)), channel(qGreen(from), qGreen(to)), channel(qBlue(from), qBlue(to)));
}

} // namespace

DivergingColorMap::DivergingColorMap(double limit)
    : m_limit(std::isfinite(limit) && limit > 0.0 ? limit : 0.0)
{
    for (int i = 0; i <= 2 * kSteps; ++i) {
        const double t = static_cast<double>(i - kSteps) / kSteps; // −1 … 1
        m_table[i] = t < 0 ? mix(kZero, kNegative, -t) : mix(kZero, kPositive, t);
    }
}

QRgb DivergingColorMap::rgb(double value) const { return colours::signedRgb(value, m_limit); }

QRgb DivergingColorMap::tableRgb(double value) const
{
    if (std::isnan(value))
        return kMissing;
    if (m_limit <= 0.0)
        return kZero;
    const double t = std::clamp(value / m_limit, -1.0, 1.0);
    return m_table[static_cast<std::size_t>(std::lround((t + 1.0) * kSteps))];
}

double maxAbsValue(const std::vector<std::vector<double>>& matrices)
{
    double result = 0.0;
    for (const auto& matrix : matrices)
        for (const double v : matrix)
            if (std::isfinite(v))
                result = std::max(result, std::abs(v));
    return result;
}

double absQuantile(std::span<const std::vector<double>* const> matrices, double quantile)
{
    std::vector<double> magnitudes;
    for (const auto* matrix : matrices)
        if (matrix)
            for (const double v : *matrix)
                if (std::isfinite(v) && v != 0.0)
                    magnitudes.push_back(std::abs(v));
    if (magnitudes.empty())
        return 0.0;
    const double h = std::clamp(quantile, 0.0, 1.0) * static_cast<double>(magnitudes.size() - 1);
    const auto lower = static_cast<std::size_t>(std::floor(h));
    // Two order statistics by selection, not a full sort: heatmaps hold up to millions of cells.
    std::nth_element(magnitudes.begin(), magnitudes.begin() + static_cast<std::ptrdiff_t>(lower), magnitudes.end());
    const double lo = magnitudes[lower];
    if (lower + 1 >= magnitudes.size())
        return lo;
    const double hi = *std::min_element(magnitudes.begin() + static_cast<std::ptrdiff_t>(lower) + 1, magnitudes.end());
    return lo + (h - static_cast<double>(lower)) * (hi - lo);
}

ColorScale robustColorScale(std::span<const std::vector<double>* const> matrices, double quantile)
{
    ColorScale scale;
    for (const auto* matrix : matrices)
        if (matrix)
            scale.maxAbs = std::max(scale.maxAbs, maxAbsValue({ *matrix }));
    scale.limit = absQuantile(matrices, quantile);
    if (scale.limit <= 0.0)
        scale.limit = scale.maxAbs;
    return scale;
}

std::vector<std::uint8_t> signDisagreementMask(std::span<const double> a, std::span<const double> b)
{
    const std::size_t n = std::min(a.size(), b.size());
    std::vector<std::uint8_t> mask(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        // NaN compares false both ways, so absent cells never disagree.
        mask[i] = (a[i] > 0.0 && b[i] < 0.0) || (a[i] < 0.0 && b[i] > 0.0) ? 1 : 0;
    }
    return mask;
}

std::vector<std::size_t> orderRows(const HeatmapData& data, RowOrder order, std::span<const std::uint8_t> mask)
{
    std::vector<std::size_t> rows(data.rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i)
        rows[i] = i;
    switch (order) {
    case RowOrder::Stored:
        break;
    case RowOrder::Group:
        std::stable_sort(rows.begin(), rows.end(),
            [&data](std::size_t a, std::size_t b) { return data.rows[a].group < data.rows[b].group; });
        break;
    case RowOrder::Outcome:
        std::stable_sort(rows.begin(), rows.end(),
            [&data](std::size_t a, std::size_t b) { return data.rows[a].success && !data.rows[b].success; });
        break;
    case RowOrder::Disagreement: {
        const std::size_t columns = static_cast<std::size_t>(data.columns);
        if (mask.size() != rows.size() * columns)
            break;
        std::vector<int> counts(rows.size(), 0);
        for (std::size_t r = 0; r < rows.size(); ++r)
            for (std::size_t c = 0; c < columns; ++c)
                counts[r] += mask[r * columns + c];
        std::stable_sort(
            rows.begin(), rows.end(), [&counts](std::size_t a, std::size_t b) { return counts[a] > counts[b]; });
        break;
    }
    }
    return rows;
}

std::vector<AdvantageHistogram> advantageHistograms(const HeatmapData& data, int bins, std::optional<double> limit)
{
    std::vector<AdvantageHistogram> result;
    if (bins <= 0)
        return result;
    double range = limit && std::isfinite(*limit) && *limit > 0.0 ? *limit : maxAbsValue(data.values);
    if (range <= 0.0)
        range = 1.0; // all zero (or empty): a unit range keeps the zeros in the middle bin
    constexpr int kRoleSlots = 5; // D, E, N, R, unlabelled
    for (std::size_t m = 0; m < data.methods.size(); ++m) {
        const std::size_t first = result.size();
        for (int slot = 0; slot < kRoleSlots; ++slot) {
            AdvantageHistogram h;
            h.method = data.methods[m];
            if (slot < 4)
                h.role = static_cast<Role>(slot);
            h.lo = -range;
            h.hi = range;
            h.counts.assign(static_cast<std::size_t>(bins), 0);
            result.push_back(std::move(h));
        }
        const std::vector<double>& values = data.values[m];
        for (std::size_t i = 0; i < values.size(); ++i) {
            const double v = values[i];
            if (!std::isfinite(v))
                continue;
            const std::int8_t role = data.roles[i];
            const int slot = role == HeatmapData::kNoRole ? 4 : role;
            const double t = (std::clamp(v, -range, range) + range) / (2.0 * range);
            const int bin = std::min(bins - 1, static_cast<int>(t * bins));
            AdvantageHistogram& h = result[first + static_cast<std::size_t>(slot)];
            ++h.counts[static_cast<std::size_t>(bin)];
            ++h.total;
        }
    }
    return result;
}

namespace {

bool opposite(double a, double b) { return (a > 0.0 && b < 0.0) || (a < 0.0 && b > 0.0); }

bool comparable(double a, double b) { return std::isfinite(a) && std::isfinite(b) && a != 0.0 && b != 0.0; }

bool validMethod(const HeatmapData& data, int m) { return m >= 0 && static_cast<std::size_t>(m) < data.values.size(); }

} // namespace

PairDisagreement pairDisagreement(const HeatmapData& data, int a, int b)
{
    PairDisagreement result;
    result.a = a;
    result.b = b;
    if (!validMethod(data, a) || !validMethod(data, b))
        return result;
    const std::vector<double>& va = data.values[static_cast<std::size_t>(a)];
    const std::vector<double>& vb = data.values[static_cast<std::size_t>(b)];
    for (std::size_t i = 0; i < std::min(va.size(), vb.size()); ++i) {
        if (!comparable(va[i], vb[i]))
            continue;
        ++result.compared;
        if (opposite(va[i], vb[i]))
            ++result.disagreeing;
    }
    return result;
}

std::vector<PairDisagreement> pairDisagreements(const HeatmapData& data, std::span<const int> methods)
{
    std::vector<int> valid;
    for (const int m : methods)
        if (validMethod(data, m))
            valid.push_back(m);
    std::vector<PairDisagreement> result;
    for (std::size_t i = 0; i < valid.size(); ++i)
        for (std::size_t j = i + 1; j < valid.size(); ++j)
            result.push_back(pairDisagreement(data, valid[i], valid[j]));
    return result;
}

std::vector<DisagreeingTurn> topDisagreements(const HeatmapData& data, int a, int b, std::size_t count)
{
    std::vector<DisagreeingTurn> result;
    if (!validMethod(data, a) || !validMethod(data, b) || data.columns <= 0)
        return result;
    const std::vector<double>& va = data.values[static_cast<std::size_t>(a)];
    const std::vector<double>& vb = data.values[static_cast<std::size_t>(b)];
    const std::size_t columns = static_cast<std::size_t>(data.columns);
    for (std::size_t i = 0; i < std::min(va.size(), vb.size()); ++i)
        if (opposite(va[i], vb[i])) // NaN compares false: absent turns never disagree
            result.push_back(DisagreeingTurn { i / columns, static_cast<int>(i % columns), va[i], vb[i] });
    // Stable: equal gaps keep data order, which the cells were collected in.
    const auto larger = [](const DisagreeingTurn& x, const DisagreeingTurn& y) { return x.gap() > y.gap(); };
    std::stable_sort(result.begin(), result.end(), larger);
    if (result.size() > count)
        result.resize(count);
    return result;
}

std::size_t nonZeroCount(std::span<const double> values)
{
    return static_cast<std::size_t>(
        std::count_if(values.begin(), values.end(), [](double v) { return std::isfinite(v) && v != 0.0; }));
}

std::vector<int> defaultMethods(const HeatmapData& data, const std::string& trained)
{
    const int methods = static_cast<int>(std::min(data.methods.size(), data.values.size()));
    std::vector<std::size_t> nonZero(static_cast<std::size_t>(methods));
    for (int m = 0; m < methods; ++m)
        nonZero[static_cast<std::size_t>(m)] = nonZeroCount(data.values[static_cast<std::size_t>(m)]);
    const bool anyNonZero = std::any_of(nonZero.begin(), nonZero.end(), [](std::size_t n) { return n > 0; });
    std::vector<int> left; // rule 1
    for (int m = 0; m < methods; ++m)
        if (!anyNonZero || nonZero[static_cast<std::size_t>(m)] > 0)
            left.push_back(m);
    if (left.empty())
        return {};
    const auto isLeft = [&left](int m) { return std::find(left.begin(), left.end(), m) != left.end(); };

    // Rule 2.
    int first = data.methodIndex(trained);
    if (!isLeft(first)) {
        first = left.front();
        for (const int m : left)
            if (nonZero[static_cast<std::size_t>(m)] > nonZero[static_cast<std::size_t>(first)])
                first = m;
    }
    // Rule 3.
    const std::vector<std::string> standard = data.methods[static_cast<std::size_t>(first)] == "grpo"
        ? std::vector<std::string> { "triage", "gigpo" }
        : std::vector<std::string> { "grpo" };
    for (const auto& name : standard)
        if (const int m = data.methodIndex(name); m != first && isLeft(m))
            return { first, m };
    int rival = -1;
    std::size_t rivalDisagreeing = 0;
    for (const int m : left) {
        if (m == first)
            continue;
        const std::size_t disagreeing = pairDisagreement(data, first, m).disagreeing;
        if (rival < 0 || disagreeing > rivalDisagreeing
            || (disagreeing == rivalDisagreeing
                && nonZero[static_cast<std::size_t>(m)] > nonZero[static_cast<std::size_t>(rival)])) {
            rival = m;
            rivalDisagreeing = disagreeing;
        }
    }
    if (rival < 0)
        return { first };
    return { first, rival };
}

} // namespace creditlab::ui::heatmap
