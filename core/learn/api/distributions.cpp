// The normal and Student's t distributions, the incomplete beta function behind t, and a binomial draw.
#include "core/learn/api/distributions.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace creditlab::learn {

namespace {

/// Bisection for the x in [lo, hi] with f(x) = p, f increasing: to the last bit of a double, in at most 200 steps.
template <typename F> double invert(F f, double p, double lo, double hi)
{
    for (int k = 0; k < 200; ++k) {
        const double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi)
            break;
        (f(mid) < p ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

/// The continued fraction of I_x(a, b) (Abramowitz and Stegun 26.5.8), by the modified Lentz method; converges fast
/// for x < (a + 1) / (a + b + 2).
double betaFraction(double x, double a, double b)
{
    constexpr double tiny = 1e-300, eps = 1e-15;
    // f = 0 + 1 / (1 + d1 / (1 + d2 / (1 + ...))): numerators 1, d1, d2, ..., every denominator 1; f_0 = 0 is
    // replaced by `tiny` so that the first ratio is defined.
    double f = tiny, c = tiny, d = 0.0;
    for (int j = 1; j < 10000; ++j) {
        double numerator = 1.0;
        if (j > 1) {
            const int i = j - 1; // d_i
            const double m = std::floor(i / 2.0);
            numerator = i % 2 == 1 ? -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
                                   : m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
        }
        d = 1.0 + numerator * d;
        if (std::abs(d) < tiny)
            d = tiny;
        c = 1.0 + numerator / c;
        if (std::abs(c) < tiny)
            c = tiny;
        d = 1.0 / d;
        const double delta = c * d;
        f *= delta;
        if (std::abs(delta - 1.0) < eps)
            break;
    }
    return f;
}

} // namespace

double normalCdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

double normalQuantile(double p)
{
    if (!(p > 0.0))
        return -std::numeric_limits<double>::infinity();
    if (!(p < 1.0))
        return std::numeric_limits<double>::infinity();
    return invert(normalCdf, p, -40.0, 40.0);
}

double incompleteBeta(double x, double a, double b)
{
    if (x <= 0.0)
        return 0.0;
    if (x >= 1.0)
        return 1.0;
    if (x > (a + 1.0) / (a + b + 2.0))
        return 1.0 - incompleteBeta(1.0 - x, b, a);
    const double logFront
        = a * std::log(x) + b * std::log1p(-x) - (std::lgamma(a) + std::lgamma(b) - std::lgamma(a + b));
    return std::exp(logFront) / a * betaFraction(x, a, b);
}

double studentTCdf(double t, double df)
{
    if (std::isinf(t))
        return t > 0 ? 1.0 : 0.0;
    const double tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2.0, 0.5); // P(T > |t|)
    return t >= 0 ? 1.0 - tail : tail;
}

double studentTQuantile(double p, double df)
{
    if (!(p > 0.0))
        return -std::numeric_limits<double>::infinity();
    if (!(p < 1.0))
        return std::numeric_limits<double>::infinity();
    if (p < 0.5)
        return -studentTQuantile(1.0 - p, df);
    double hi = 1.0;
    while (studentTCdf(hi, df) < p && hi < 1e12)
        hi *= 2.0;
    return invert([df](double t) { return studentTCdf(t, df); }, p, 0.0, hi);
}

std::int64_t binomialDraw(Rng& rng, std::int64_t n, double p)
{
    if (n <= 0 || p <= 0.0)
        return 0;
    if (p >= 1.0)
        return n;
    const auto dn = static_cast<double>(n);
    auto mode = static_cast<std::int64_t>(std::floor((dn + 1.0) * p));
    mode = std::min(mode, n);
    const auto dm = static_cast<double>(mode);
    const double atMode = std::exp(std::lgamma(dn + 1.0) - std::lgamma(dm + 1.0) - std::lgamma(dn - dm + 1.0)
        + dm * std::log(p) + (dn - dm) * std::log1p(-p));
    // Inversion from the mode outwards (Kemp 1986): subtract the probabilities of mode, mode + 1, mode - 1, mode + 2,
    // ... from a uniform until it falls inside one; each neighbour's probability follows from the last one's.
    double u = rng.uniform();
    if (u < atMode)
        return mode;
    u -= atMode;
    const double odds = p / (1.0 - p);
    double up = atMode, down = atMode;
    std::int64_t hi = mode, lo = mode;
    while (hi < n || lo > 0) {
        if (hi < n) {
            up *= static_cast<double>(n - hi) / static_cast<double>(hi + 1) * odds;
            ++hi;
            if (u < up)
                return hi;
            u -= up;
        }
        if (lo > 0) {
            down *= static_cast<double>(lo) / static_cast<double>(n - lo + 1) / odds;
            --lo;
            if (u < down)
                return lo;
            u -= down;
        }
    }
    return mode; // rounding left a sliver of probability unassigned: it belongs nowhere, the mode is as good as any
}

} // namespace creditlab::learn
