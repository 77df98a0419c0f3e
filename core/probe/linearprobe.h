#pragma once

#include "core/probe/logisticregression.h"
#include "core/probe/standardscaler.h"

namespace creditlab::probe {

/// One supervised correctness probe (pair.md §2.3): NaN/±inf → 0, StandardScaler, then ℓ2 logistic regression
/// (C = 0.01 by default). The score is P(correct) for each evaluation turn (label 1 = correct).
/// Used for every single-feature-type baseline of Table 1 (Last-Token, Mean-Pooled, Multi-Layer, Attention,
/// Hidden+Attn, Multi-Attn, Lookback) and as both PAIR stages. A value type; any thread, no cancellation.
class LinearProbe {
public:
    /// Fits scaler and classifier on `x` (samples × features) and labels `y`. Throws std::invalid_argument on
    /// mismatched sizes, no samples or a single class.
    LogisticFitReport fit(const FeatureMatrix& x, const std::vector<int>& y, const LogisticOptions& options = {});
    /// Logit wᵀx̂ + b per row.
    std::vector<double> logit(const FeatureMatrix& x) const;
    /// P(y = 1) per row.
    std::vector<double> score(const FeatureMatrix& x) const;
    /// AUROC of score(x) against `y` (NaN when one class is absent).
    double evaluate(const FeatureMatrix& x, const std::vector<int>& y) const;

    bool fitted() const { return m_model.fitted(); }
    std::size_t features() const { return m_scaler.features(); }
    const StandardScaler& scaler() const { return m_scaler; }
    const LogisticRegression& model() const { return m_model; }
    /// Restores a saved probe (probe JSON). Throws std::invalid_argument when the sizes disagree.
    void restore(StandardScaler scaler, LogisticRegression model);

private:
    FeatureMatrix prepare(const FeatureMatrix& x) const;

    StandardScaler m_scaler;
    LogisticRegression m_model;
};

} // namespace creditlab::probe
