#pragma once

#include <vector>

namespace creditlab::probe {

/// Area under the ROC curve: the probability that a positive (label ≠ 0) scores above a negative, ties
/// counting one half. Computed as the Mann–Whitney statistic with average ranks, which equals
/// sklearn.roc_auc_score (pair.md §2.8):  AUROC = (Σ_{i:y=1} rank_i − n₊(n₊+1)/2) / (n₊ n₋).
/// Returns NaN when either class is absent. Throws std::invalid_argument on different lengths. Any thread.
double auroc(const std::vector<double>& scores, const std::vector<int>& labels);

/// Mean squared error between probabilities and labels (Brier score); NaN for no samples.
double brierScore(const std::vector<double>& probabilities, const std::vector<int>& labels);

/// Expected calibration error over `bins` equal-width, right-closed bins (lo, hi] with p = 0 in the first bin
/// (pair.md §2.8 [CHOICE], 15 bins as the authors' code): Σ_b (|B_b|/n) |mean(y ∈ B_b) − mean(p ∈ B_b)|.
double expectedCalibrationError(
    const std::vector<double>& probabilities, const std::vector<int>& labels, int bins = 15);

} // namespace creditlab::probe
