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

} // namespace creditlab::ui::heatmap
