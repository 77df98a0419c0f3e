#pragma once

#include "core/model/trajectory.h"
#include "ui/charts/colours.h"
#include "ui/heatmap/heatmapdata.h"

#include <QColor>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
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

/// The share of |value| the colour scale keeps unclipped by default: a few outlier turns would otherwise stretch
/// the scale so that most cells are near white.
inline constexpr double kClipQuantile = 0.98;

/// The `quantile` (clamped to [0, 1]) of |value| over the finite, non-zero entries of `matrices`, by linear
/// interpolation between order statistics (Hyndman & Fan type 7, numpy's default): with the n magnitudes sorted
/// x₀ ≤ … ≤ xₙ₋₁ and h = quantile·(n − 1), it is x⌊h⌋ + (h − ⌊h⌋)·(x⌊h⌋₊₁ − x⌊h⌋). Zeros are left out: methods
/// such as GRPO give exact zeros to whole groups, which would pull the quantile to 0. 0 when there is no such
/// entry. Pure; any thread.
double absQuantile(std::span<const std::vector<double>* const> matrices, double quantile);

/// A robust symmetric colour scale: ±limit, clipping the few values beyond it.
struct ColorScale {
    double limit = 0.0; ///< the colour map's ±limit
    double maxAbs = 0.0; ///< the largest finite |value| shown
    /// Some values lie beyond ±limit (their cells take the end colours).
    bool clipped() const { return limit < maxAbs; }
};

/// The robust scale of `matrices`: the limit is absQuantile(`quantile`), or the largest |value| when that is 0.
/// Pure; any thread.
ColorScale robustColorScale(std::span<const std::vector<double>* const> matrices, double quantile = kClipQuantile);

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

/// The sign comparison of two methods over the turns of a heatmap.
struct PairDisagreement {
    int a = 0; ///< method index into HeatmapData::methods
    int b = 0;
    /// Turns where both methods have a finite, non-zero value: the only turns whose signs can disagree.
    std::size_t compared = 0;
    std::size_t disagreeing = 0; ///< of those, the turns with opposite signs
    /// disagreeing / compared; NaN when nothing was compared.
    double share() const
    {
        return compared == 0 ? std::numeric_limits<double>::quiet_NaN()
                             : static_cast<double>(disagreeing) / static_cast<double>(compared);
    }
};

/// The sign disagreement of methods `a` and `b` of `data`. Pure; any thread.
PairDisagreement pairDisagreement(const HeatmapData& data, int a, int b);

/// pairDisagreement for every pair (i < j in `methods` order) of `methods` (indices into data.methods; unknown
/// indices are skipped). Pure; any thread.
std::vector<PairDisagreement> pairDisagreements(const HeatmapData& data, std::span<const int> methods);

/// A turn where two methods disagree in sign.
struct DisagreeingTurn {
    std::size_t row = 0; ///< data row
    int turn = 0; ///< 0-based turn index
    double a = 0.0; ///< method a's value
    double b = 0.0; ///< method b's value
    double gap() const { return std::abs(a - b); }
};

/// The `count` turns where methods `a` and `b` disagree in sign most: largest |a − b| first; ties in data order
/// (row, then turn). Pure; any thread.
std::vector<DisagreeingTurn> topDisagreements(const HeatmapData& data, int a, int b, std::size_t count);

/// The turns of `values` with a finite, non-zero value.
std::size_t nonZeroCount(std::span<const double> values);

/// The methods the heatmap shows before the user picks any (indices into data.methods, at most two): the run's
/// own method and its nearest rival, so that the view opens on a comparison that says something.
///   1. Methods whose credits are all zero or missing (GRPO on a run without successes) are skipped while any method
///      has a non-zero credit; when none has, nothing is skipped.
///   2. First: `trained` (the method the run trained with) when it is left; else the method with the most non-zero
///      turns (ties: data order, i.e. alphabetical).
///   3. Rival: the standard rival when it is left: GRPO (the baseline every method is measured against) for any
///      method but GRPO, and for GRPO TRIAGE, then GiGPO. Else the method that disagrees in sign with the first on the
///      most turns (the most to look at), ties by the most non-zero turns, then data order.
/// Pure; any thread.
std::vector<int> defaultMethods(const HeatmapData& data, const std::string& trained);

} // namespace creditlab::ui::heatmap
