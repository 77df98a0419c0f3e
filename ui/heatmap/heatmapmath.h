#pragma once

#include "core/model.h"
#include "ui/charts/colours.h"
#include "ui/heatmap/heatmapdata.h"

#include <QColor>

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace creditlab::ui::heatmap {

/// The workbench's diverging map for signed credit (ui/charts/colours.h) with a lookup table: −limit is red, 0
/// white, +limit blue (ColorBrewer RdBu), linear in RGB between them, clamped outside ±limit; NaN is light grey.
/// Pure; any thread.
class DivergingColorMap {
public:
    static constexpr QRgb kNegative = colours::kNegative;
    static constexpr QRgb kZero = colours::kZero;
    static constexpr QRgb kPositive = colours::kPositive;
    static constexpr QRgb kMissing = colours::kMissing;
    static constexpr int kSteps = 256; ///< table entries per side

    /// `limit` ≤ 0 or non-finite maps every finite value to white.
    explicit DivergingColorMap(double limit = 1.0);
    double limit() const { return m_limit; }
    /// The exact colour of `value` (no table).
    QRgb rgb(double value) const;
    QColor color(double value) const { return QColor::fromRgb(rgb(value)); }
    /// The colour from a 2·kSteps+1 entry table: what the view paints with (fast).
    QRgb tableRgb(double value) const;

private:
    double m_limit = 1.0;
    std::array<QRgb, 2 * kSteps + 1> m_table {};
};

/// The largest |value| over the finite entries of every matrix; 0 when there is none. Any thread.
double maxAbsValue(const std::vector<std::vector<double>>& matrices);

/// Cells where both methods have a non-zero finite value and their signs differ (1), else 0.
/// `a` and `b` must have the same size. Pure; any thread.
std::vector<std::uint8_t> signDisagreementMask(std::span<const double> a, std::span<const double> b);

/// Row orders for the heatmap. Every order is stable (ties keep store order).
enum class RowOrder { Stored, Group, Outcome, Disagreement };

/// The row indices of `data` in `order`. Disagreement: rows with the most set cells in `mask` (rows ×
/// columns, as signDisagreementMask gives) first; an empty mask keeps store order. Pure; any thread.
std::vector<std::size_t> orderRows(const HeatmapData& data, RowOrder order, std::span<const std::uint8_t> mask = {});

/// A histogram of the advantages of one method over the turns of one role (role nullopt: unlabelled).
struct AdvantageHistogram {
    std::string method;
    std::optional<Role> role;
    double lo = 0.0; ///< left edge of bin 0
    double hi = 0.0; ///< right edge of the last bin (inclusive)
    std::vector<int> counts;
    int total = 0;
    double binWidth() const { return counts.empty() ? 0.0 : (hi - lo) / static_cast<double>(counts.size()); }
};

/// Per method, per role (D, E, N, R, then unlabelled) a histogram of the finite advantages with `bins`
/// equal bins over the common symmetric range [−L, L], L = max |advantage| (or `limit` when given; values
/// outside are clamped into the end bins). Bin i is [lo + i·w, lo + (i+1)·w), the last one closed.
/// Order: methods in data order, roles within. Pure; any thread.
std::vector<AdvantageHistogram> advantageHistograms(
    const HeatmapData& data, int bins, std::optional<double> limit = std::nullopt);

} // namespace creditlab::ui::heatmap
