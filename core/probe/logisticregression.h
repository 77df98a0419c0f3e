#pragma once

#include "core/probe/featurematrix.h"

#include <vector>

namespace creditlab::probe {

/// How LogisticRegression minimises its objective. Auto: Newton below kNewtonMaxFeatures, else L-BFGS.
enum class LogisticSolver { Auto, Newton, Lbfgs };

/// Options of LogisticRegression. `c` is sklearn's inverse regularisation strength (PAIR: 0.01, pair.md §3).
struct LogisticOptions {
    double c = 0.01;
    LogisticSolver solver = LogisticSolver::Auto;
    int maxIterations = 5000;
    /// Converged when the largest gradient component of the per-sample objective (below) is under this.
    double tolerance = 1e-10;
    bool fitIntercept = true;
};

/// What a fit did: solver iterations, the final objective and gradient size, and whether it met the tolerance.
/// When `converged` is false the coefficients are the best point reached within maxIterations (or where the
/// line search could no longer make progress); callers that need the exact optimum check it.
struct LogisticFitReport {
    int iterations = 0;
    double objective = 0.0;
    double gradientNorm = 0.0; ///< max |component| of the per-sample objective's gradient
    bool converged = false;
};

/// ℓ2-regularised binary logistic regression with sklearn's semantics (pair.md §2.3):
///   min_{w,b}  ½‖w‖² + C Σ_i [−y_i log σ(z_i) − (1−y_i) log(1−σ(z_i))],   z_i = wᵀx_i + b + o_i,
/// the intercept b not penalised. Solved in float64 by damped Newton (Cholesky, Armijo backtracking) or L-BFGS,
/// both deterministic, to a tight gradient tolerance; the objective is strictly convex in w so the answer is
/// unique. `o_i` is an optional fixed per-sample offset in logit space (PAIR's logit-residual Stage 2, §2.4).
/// Internally the objective is divided by C·n (same minimiser) so that tolerances do not depend on n.
/// A value type; fit and predict on any thread, no cancellation (a fit of 10⁴ × 10³ takes about a second).
class LogisticRegression {
public:
    static constexpr std::size_t kNewtonMaxFeatures = 256;

    explicit LogisticRegression(LogisticOptions options = {})
        : m_options(options)
    {
    }

    /// Fits to labels `y` (1 = positive class, 0 = negative; any nonzero counts as 1) and optional offsets
    /// (empty = none). Throws std::invalid_argument on size mismatches, an empty set, C ≤ 0, or, with an
    /// intercept, labels of one class only (the unregularised intercept would diverge).
    LogisticFitReport fit(const FeatureMatrix& x, const std::vector<int>& y, const std::vector<double>& offsets = {});

    /// Decision values wᵀx + b (+ offset) per row.
    std::vector<double> decision(const FeatureMatrix& x, const std::vector<double>& offsets = {}) const;
    /// P(y = 1) = σ(decision) per row.
    std::vector<double> probability(const FeatureMatrix& x, const std::vector<double>& offsets = {}) const;

    const LogisticOptions& options() const { return m_options; }
    const std::vector<double>& weights() const { return m_weights; }
    double intercept() const { return m_intercept; }
    bool fitted() const { return m_fitted; }
    /// Restores saved coefficients (probe JSON).
    void setCoefficients(std::vector<double> weights, double intercept);

private:
    LogisticOptions m_options;
    std::vector<double> m_weights;
    double m_intercept = 0.0;
    bool m_fitted = false;
};

/// The logistic function, overflow-safe.
double sigmoid(double z);
/// log(p / (1 − p)) with p clamped to [1e-6, 1 − 1e-6] as the authors' code does (pair.md §2.5).
double clampedLogit(double p);

} // namespace creditlab::probe
