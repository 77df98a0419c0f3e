#include "core/probe/logisticregression.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <stdexcept>

namespace creditlab::probe {

double sigmoid(double z)
{
    if (z >= 0.0)
        return 1.0 / (1.0 + std::exp(-z));
    const double e = std::exp(z);
    return e / (1.0 + e);
}

double clampedLogit(double p)
{
    p = std::clamp(p, 1e-6, 1.0 - 1e-6);
    return std::log(p / (1.0 - p));
}

namespace {

/// log(1 + eˣ) without overflow.
double softplus(double x) { return x > 0.0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); }

/// The scaled objective F(θ) = (1/n) Σ logloss_i + (1/(2Cn)) ‖w‖², θ = [w ; b], and its derivatives.
class Objective {
public:
    Objective(const FeatureMatrix& x, const std::vector<double>& y, const std::vector<double>& offsets, double c,
        bool intercept)
        : m_x(x)
        , m_y(y)
        , m_offsets(offsets)
        , m_lambda(1.0 / (c * static_cast<double>(x.rows())))
        , m_intercept(intercept)
    {
    }

    std::size_t dims() const { return m_x.cols() + (m_intercept ? 1 : 0); }

    double z(const std::vector<double>& theta, std::size_t i) const
    {
        const auto row = m_x.row(i);
        double s = m_intercept ? theta[m_x.cols()] : 0.0;
        for (std::size_t c = 0; c < row.size(); ++c)
            s += theta[c] * row[c];
        return m_offsets.empty() ? s : s + m_offsets[i];
    }

    /// Value; fills `grad` (dims()) when non-null, and `prob` (n) when non-null.
    double evaluate(const std::vector<double>& theta, std::vector<double>* grad, std::vector<double>* prob) const
    {
        const std::size_t n = m_x.rows();
        const std::size_t d = m_x.cols();
        const double invN = 1.0 / static_cast<double>(n);
        double loss = 0.0;
        if (grad)
            grad->assign(dims(), 0.0);
        if (prob)
            prob->resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            const double zi = z(theta, i);
            // −y log σ(z) − (1−y) log(1−σ(z)) = softplus(z) − y z
            loss += softplus(zi) - m_y[i] * zi;
            const double p = sigmoid(zi);
            if (prob)
                (*prob)[i] = p;
            if (grad) {
                const double r = (p - m_y[i]) * invN;
                const auto row = m_x.row(i);
                for (std::size_t c = 0; c < d; ++c)
                    (*grad)[c] += r * row[c];
                if (m_intercept)
                    (*grad)[d] += r;
            }
        }
        double penalty = 0.0;
        for (std::size_t c = 0; c < d; ++c) {
            penalty += theta[c] * theta[c];
            if (grad)
                (*grad)[c] += m_lambda * theta[c];
        }
        return loss * invN + 0.5 * m_lambda * penalty;
    }

    /// The Hessian (dims × dims, row-major) at the probabilities `prob`.
    std::vector<double> hessian(const std::vector<double>& prob) const
    {
        const std::size_t n = m_x.rows();
        const std::size_t d = m_x.cols();
        const std::size_t k = dims();
        const double invN = 1.0 / static_cast<double>(n);
        std::vector<double> h(k * k, 0.0);
        std::vector<double> xt(k, 1.0);
        for (std::size_t i = 0; i < n; ++i) {
            const double wi = prob[i] * (1.0 - prob[i]) * invN;
            const auto row = m_x.row(i);
            std::copy(row.begin(), row.end(), xt.begin());
            for (std::size_t a = 0; a < k; ++a) {
                const double va = wi * xt[a];
                for (std::size_t b = 0; b <= a; ++b)
                    h[a * k + b] += va * xt[b];
            }
        }
        for (std::size_t a = 0; a < k; ++a)
            for (std::size_t b = 0; b < a; ++b)
                h[b * k + a] = h[a * k + b];
        for (std::size_t c = 0; c < d; ++c)
            h[c * k + c] += m_lambda;
        return h;
    }

private:
    const FeatureMatrix& m_x;
    const std::vector<double>& m_y;
    const std::vector<double>& m_offsets;
    double m_lambda;
    bool m_intercept;
};

double maxAbs(const std::vector<double>& v)
{
    double m = 0.0;
    for (double x : v)
        m = std::max(m, std::abs(x));
    return m;
}

double dot(const std::vector<double>& a, const std::vector<double>& b)
{
    double s = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i)
        s += a[i] * b[i];
    return s;
}

/// Solves H x = rhs for symmetric positive definite H (Cholesky, in place); false when H is not SPD.
bool choleskySolve(std::vector<double> h, std::size_t k, std::vector<double>& x)
{
    for (std::size_t j = 0; j < k; ++j) {
        double s = h[j * k + j];
        for (std::size_t p = 0; p < j; ++p)
            s -= h[j * k + p] * h[j * k + p];
        if (!(s > 0.0))
            return false;
        const double ljj = std::sqrt(s);
        h[j * k + j] = ljj;
        for (std::size_t i = j + 1; i < k; ++i) {
            double t = h[i * k + j];
            for (std::size_t p = 0; p < j; ++p)
                t -= h[i * k + p] * h[j * k + p];
            h[i * k + j] = t / ljj;
        }
    }
    for (std::size_t i = 0; i < k; ++i) { // L y = rhs
        double t = x[i];
        for (std::size_t p = 0; p < i; ++p)
            t -= h[i * k + p] * x[p];
        x[i] = t / h[i * k + i];
    }
    for (std::size_t i = k; i-- > 0;) { // Lᵀ x = y
        double t = x[i];
        for (std::size_t p = i + 1; p < k; ++p)
            t -= h[p * k + i] * x[p];
        x[i] = t / h[i * k + i];
    }
    return true;
}

/// Backtracking Armijo search along `dir` from `theta`; returns the accepted step (0 when none decreases f).
double lineSearch(const Objective& f, const std::vector<double>& theta, double value, const std::vector<double>& grad,
    const std::vector<double>& dir, double step, std::vector<double>& next, double& nextValue)
{
    const double slope = dot(grad, dir);
    for (int tries = 0; tries < 60; ++tries, step *= 0.5) {
        for (std::size_t i = 0; i < theta.size(); ++i)
            next[i] = theta[i] + step * dir[i];
        nextValue = f.evaluate(next, nullptr, nullptr);
        // Near the optimum the decrease falls below the objective's rounding (about 1e-16·|f|), while the gradient
        // is still above tolerance; a step that keeps f within that rounding is accepted so the solver can finish.
        const double rounding = 8.0 * std::numeric_limits<double>::epsilon() * std::abs(value);
        if (nextValue <= value + 1e-4 * step * slope + rounding)
            return step;
    }
    return 0.0;
}

LogisticFitReport newton(const Objective& f, std::vector<double>& theta, const LogisticOptions& o)
{
    LogisticFitReport report;
    std::vector<double> grad, prob, next(theta.size());
    double value = f.evaluate(theta, &grad, &prob);
    for (; report.iterations < o.maxIterations; ++report.iterations) {
        report.gradientNorm = maxAbs(grad);
        if (report.gradientNorm < o.tolerance)
            break;
        std::vector<double> dir = grad;
        auto h = f.hessian(prob);
        if (!choleskySolve(h, theta.size(), dir)) {
            // Only the intercept direction can be singular (all probabilities saturated); a tiny ridge fixes it.
            for (std::size_t a = 0; a < theta.size(); ++a)
                h[a * theta.size() + a] += 1e-10;
            dir = grad;
            if (!choleskySolve(h, theta.size(), dir))
                break;
        }
        for (double& v : dir)
            v = -v;
        double nextValue = 0.0;
        if (lineSearch(f, theta, value, grad, dir, 1.0, next, nextValue) == 0.0)
            break;
        theta = next;
        value = f.evaluate(theta, &grad, &prob);
    }
    report.objective = value;
    report.gradientNorm = maxAbs(grad);
    report.converged = report.gradientNorm < o.tolerance;
    return report;
}

LogisticFitReport lbfgs(const Objective& f, std::vector<double>& theta, const LogisticOptions& o)
{
    constexpr std::size_t kHistory = 10;
    LogisticFitReport report;
    std::deque<std::vector<double>> sHist, yHist;
    std::deque<double> rhoHist;
    std::vector<double> grad, nextGrad, next(theta.size());
    double value = f.evaluate(theta, &grad, nullptr);
    for (; report.iterations < o.maxIterations; ++report.iterations) {
        report.gradientNorm = maxAbs(grad);
        if (report.gradientNorm < o.tolerance)
            break;
        // Two-loop recursion: dir = −H⁻¹ grad with the implicit L-BFGS inverse Hessian.
        std::vector<double> q = grad;
        std::vector<double> alpha(sHist.size());
        for (std::size_t j = sHist.size(); j-- > 0;) {
            alpha[j] = rhoHist[j] * dot(sHist[j], q);
            for (std::size_t i = 0; i < q.size(); ++i)
                q[i] -= alpha[j] * yHist[j][i];
        }
        double gamma = 1.0;
        if (!sHist.empty())
            gamma = dot(sHist.back(), yHist.back()) / dot(yHist.back(), yHist.back());
        for (double& v : q)
            v *= gamma;
        for (std::size_t j = 0; j < sHist.size(); ++j) {
            const double beta = rhoHist[j] * dot(yHist[j], q);
            for (std::size_t i = 0; i < q.size(); ++i)
                q[i] += (alpha[j] - beta) * sHist[j][i];
        }
        for (double& v : q)
            v = -v;
        const double first = sHist.empty() ? std::min(1.0, 1.0 / std::sqrt(dot(grad, grad))) : 1.0;
        double nextValue = 0.0;
        if (lineSearch(f, theta, value, grad, q, first, next, nextValue) == 0.0)
            break;
        nextValue = f.evaluate(next, &nextGrad, nullptr);
        std::vector<double> s(theta.size()), y(theta.size());
        for (std::size_t i = 0; i < theta.size(); ++i) {
            s[i] = next[i] - theta[i];
            y[i] = nextGrad[i] - grad[i];
        }
        const double sy = dot(s, y);
        if (sy > 1e-300) {
            sHist.push_back(std::move(s));
            yHist.push_back(std::move(y));
            rhoHist.push_back(1.0 / sy);
            if (sHist.size() > kHistory) {
                sHist.pop_front();
                yHist.pop_front();
                rhoHist.pop_front();
            }
        }
        theta = next;
        grad = nextGrad;
        value = nextValue;
    }
    report.objective = value;
    report.gradientNorm = maxAbs(grad);
    report.converged = report.gradientNorm < o.tolerance;
    return report;
}

} // namespace

LogisticFitReport LogisticRegression::fit(
    const FeatureMatrix& x, const std::vector<int>& y, const std::vector<double>& offsets)
{
    if (x.rows() == 0)
        throw std::invalid_argument("LogisticRegression: no samples to fit");
    if (y.size() != x.rows() || (!offsets.empty() && offsets.size() != x.rows()))
        throw std::invalid_argument("LogisticRegression: labels or offsets do not match the sample count");
    if (!(m_options.c > 0.0))
        throw std::invalid_argument("LogisticRegression: C must be positive");
    std::vector<double> target(y.size());
    std::size_t positives = 0;
    for (std::size_t i = 0; i < y.size(); ++i) {
        target[i] = y[i] != 0 ? 1.0 : 0.0;
        positives += y[i] != 0 ? 1 : 0;
    }
    if (m_options.fitIntercept && (positives == 0 || positives == y.size()))
        throw std::invalid_argument("LogisticRegression: both classes are needed to fit");
    const Objective f(x, target, offsets, m_options.c, m_options.fitIntercept);
    std::vector<double> theta(f.dims(), 0.0);
    const bool useNewton = m_options.solver == LogisticSolver::Newton
        || (m_options.solver == LogisticSolver::Auto && x.cols() <= kNewtonMaxFeatures);
    const LogisticFitReport report = useNewton ? newton(f, theta, m_options) : lbfgs(f, theta, m_options);
    m_weights.assign(theta.begin(), theta.begin() + static_cast<std::ptrdiff_t>(x.cols()));
    m_intercept = m_options.fitIntercept ? theta[x.cols()] : 0.0;
    m_fitted = true;
    return report;
}

std::vector<double> LogisticRegression::decision(const FeatureMatrix& x, const std::vector<double>& offsets) const
{
    if (!m_fitted)
        throw std::logic_error("LogisticRegression: not fitted");
    if ((x.rows() > 0 && x.cols() != m_weights.size()) || (!offsets.empty() && offsets.size() != x.rows()))
        throw std::invalid_argument("LogisticRegression: features or offsets do not match the fitted model");
    std::vector<double> z(x.rows());
    for (std::size_t i = 0; i < x.rows(); ++i) {
        const auto row = x.row(i);
        double s = m_intercept;
        for (std::size_t c = 0; c < row.size(); ++c)
            s += m_weights[c] * row[c];
        z[i] = offsets.empty() ? s : s + offsets[i];
    }
    return z;
}

std::vector<double> LogisticRegression::probability(const FeatureMatrix& x, const std::vector<double>& offsets) const
{
    std::vector<double> p = decision(x, offsets);
    for (double& v : p)
        v = sigmoid(v);
    return p;
}

void LogisticRegression::setCoefficients(std::vector<double> weights, double intercept)
{
    m_weights = std::move(weights);
    m_intercept = intercept;
    m_fitted = true;
}

} // namespace creditlab::probe
