#pragma once

// The workbench's one colour language (issue 20 §8). Every page takes its colours from here:
//   - signed credit (advantages, credit, mean advantage): a diverging map, ColorBrewer RdBu in its own order,
//     negative red → 0 white → positive blue, so red means "worse" on every page;
//   - values in [0, 1] (V, success rates, κ, shares): viridis, sequential and colour-blind safe;
//   - roles D/E/N/R and unlabelled: fixed Okabe–Ito colours, the same on every page and every redraw;
//   - a trajectory's outcome: success green, failure black, apart from the diverging map's ends;
//   - missing values: light grey.
// Qt only (no core types), so the charts, heatmap and treeview libraries can share it.

#include <QColor>

namespace creditlab::ui::colours {

inline constexpr QRgb kNegative = qRgb(178, 24, 43); ///< RdBu's red end: −limit
inline constexpr QRgb kZero = qRgb(255, 255, 255);
inline constexpr QRgb kPositive = qRgb(33, 102, 172); ///< RdBu's blue end: +limit
inline constexpr QRgb kMissing = qRgb(221, 221, 221);
/// The highlight of a selected or followed item (a node, a row): orange, apart from both maps.
inline constexpr QRgb kHighlight = qRgb(230, 120, 0);
/// A trajectory's outcome, as the heatmap's row strip shows it. Failure was a red (207, 34, 46) that read as the
/// diverging map's most negative credit (CIE76 ΔE 12) and that deuteranopes could not tell from the success green
/// (ΔE 12); black stands ΔE ≥ 34 apart from both ends of the map, from white, from the missing grey and from success,
/// in normal vision and under simulated protanopia, deuteranopia and tritanopia (Machado et al. 2009).
inline constexpr QRgb kSuccess = qRgb(46, 160, 67);
inline constexpr QRgb kFailure = qRgb(0, 0, 0);

/// Signed `value` on a diverging scale of ±`limit` (clamped outside); NaN is kMissing; `limit` ≤ 0 or
/// non-finite maps every finite value to white. Linear in RGB between the ends. Pure; any thread.
QRgb signedRgb(double value, double limit);
inline QColor signedColor(double value, double limit) { return QColor::fromRgb(signedRgb(value, limit)); }

/// A value in [0, 1] (clamped; non-finite is kMissing) on viridis: 0 dark purple … 1 yellow. Pure.
QColor sequential(double t);

/// The fixed colour of a role by its letter: 'D' decisive, 'E' enabling, 'N' neutral, 'R' redundant; any other
/// letter (unlabelled) is grey. Okabe–Ito, distinguishable under the common colour-vision deficiencies. Pure.
QColor role(char code);

/// Black or white, whichever reads better on `background` (WCAG relative luminance). Pure.
QColor textOn(const QColor& background);

} // namespace creditlab::ui::colours
