#pragma once

// The distribution functions the claim statistics need: the standard normal and Student's t, their CDFs and
// quantiles, and a binomial draw from the trainer's random stream (rng.h). Torch-free, any thread.

#include "core/learn/api/rng.h"

#include <cstdint>

namespace creditlab::learn {

/// P(Z <= x) for a standard normal Z.
double normalCdf(double x);
/// The x with normalCdf(x) = p, for 0 < p < 1 (-inf at 0, +inf at 1).
double normalQuantile(double p);
/// P(T <= t) for Student's t with `df` > 0 degrees of freedom (not necessarily whole: Welch's are not).
double studentTCdf(double t, double df);
/// The t with studentTCdf(t, df) = p, for 0 < p < 1.
double studentTQuantile(double p, double df);
/// The regularized incomplete beta function I_x(a, b), for a, b > 0 and 0 <= x <= 1.
double incompleteBeta(double x, double a, double b);
/// A Binomial(n, p) draw from `rng`: inversion, searching outwards from the mode, so that it takes about
/// sqrt(n p (1 - p)) steps and the same stream gives the same draws on every platform (std::binomial_distribution's
/// algorithm is the library's choice).
std::int64_t binomialDraw(Rng& rng, std::int64_t n, double p);

} // namespace creditlab::learn
