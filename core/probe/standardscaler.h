#pragma once

#include "core/probe/featurematrix.h"

#include <vector>

namespace creditlab::probe {

/// Per-feature z-scoring with sklearn's StandardScaler semantics (pair.md §2.3): the mean and the population
/// standard deviation (ddof 0) of the training rows; a feature whose deviation is below 10·machine epsilon
/// (constant) gets scale 1, so it is centred but not blown up. A value type; fit and transform on any thread.
class StandardScaler {
public:
    /// Learns mean and scale per column. Throws std::invalid_argument when `x` has no rows.
    void fit(const FeatureMatrix& x);
    /// (x − mean) / scale per column. Throws std::invalid_argument when the column count differs from fit().
    FeatureMatrix transform(const FeatureMatrix& x) const;
    /// One row, in place; same contract as transform().
    void transformRow(std::span<double> row) const;

    bool fitted() const { return !m_mean.empty(); }
    std::size_t features() const { return m_mean.size(); }
    const std::vector<double>& mean() const { return m_mean; }
    const std::vector<double>& scale() const { return m_scale; }
    /// Restores a saved scaler (probe JSON). Throws std::invalid_argument on different lengths or a scale ≤ 0.
    void setParameters(std::vector<double> mean, std::vector<double> scale);

private:
    std::vector<double> m_mean;
    std::vector<double> m_scale;
};

/// Replaces NaN and ±inf by 0 in place, as the authors' probe code does before scaling (pair.md §2.3).
void sanitizeFeatures(FeatureMatrix& x);

} // namespace creditlab::probe
