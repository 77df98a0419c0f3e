#include "ui/charts/chartmath.h"

#include "ui/charts/colours.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace creditlab::ui::charts {

std::vector<double> debiasedEma(const std::vector<double>& y, double weight)
{
    const double w = std::clamp(weight, 0.0, 0.999);
    if (w <= 0.0)
        return y;
    std::vector<double> out(y.size());
    double ema = 0.0;
    double wPow = 1.0; // w^k, k = finite values seen so far
    for (std::size_t i = 0; i < y.size(); ++i) {
        if (!std::isfinite(y[i])) {
            out[i] = y[i];
            continue;
        }
        ema = w * ema + (1.0 - w) * y[i];
        wPow *= w;
        out[i] = ema / (1.0 - wPow);
    }
    return out;
}

QList<QPointF> decimateMinMax(
    const std::vector<double>& x, const std::vector<double>& y, double x0, double x1, int columns)
{
    return decimateMinMax(x, y, x0, x1, columns, Decimation::FirstMinMaxLast);
}

QList<QPointF> decimateMinMax(
    const std::vector<double>& x, const std::vector<double>& y, double x0, double x1, int columns, Decimation mode)
{
    QList<QPointF> out;
    const std::size_t n = std::min(x.size(), y.size());
    if (n == 0 || columns <= 0 || !(x1 >= x0))
        return out;
    const auto xEnd = x.begin() + static_cast<std::ptrdiff_t>(n);
    const std::size_t lo = static_cast<std::size_t>(std::lower_bound(x.begin(), xEnd, x0) - x.begin());
    const std::size_t hi = static_cast<std::size_t>(std::upper_bound(x.begin(), xEnd, x1) - x.begin());
    auto push = [&](std::size_t i) {
        if (std::isfinite(y[i]))
            out.append(QPointF(x[i], y[i]));
    };
    // The neighbours just outside the range, so the line continues to the plot edges.
    const bool before = lo > 0;
    const bool after = hi < n;
    const std::size_t inside = hi - lo;
    const bool ends = mode == Decimation::FirstMinMaxLast;
    const std::size_t budget = (ends ? 4 : 2) * static_cast<std::size_t>(columns);
    out.reserve(static_cast<qsizetype>(std::min(inside, budget) + 2));
    if (before)
        push(lo - 1);
    if (inside <= budget) {
        for (std::size_t i = lo; i < hi; ++i)
            push(i);
    } else {
        const double scale = x1 > x0 ? columns / (x1 - x0) : 0.0;
        constexpr double kMax = std::numeric_limits<double>::max();
        std::size_t i = lo;
        while (i < hi) {
            // One bucket per pass: its right edge bounds a tight min/max loop (NaN and infinities fail both
            // comparisons, so they are never chosen).
            const int b = std::clamp(static_cast<int>((x[i] - x0) * scale), 0, columns - 1);
            const double edge = b == columns - 1 ? std::numeric_limits<double>::infinity() : x0 + (b + 1) / scale;
            const std::size_t first = i;
            std::size_t minI = n, maxI = n;
            double mn = kMax, mx = -kMax;
            do {
                const double v = y[i];
                if (v <= mn && v >= -kMax && (v < mn || minI == n)) {
                    mn = v;
                    minI = i;
                }
                if (v >= mx && v <= kMax && (v > mx || maxI == n)) {
                    mx = v;
                    maxI = i;
                }
                ++i;
            } while (i < hi && x[i] < edge);
            std::array<std::size_t, 4> idx = { ends ? first : n, minI, maxI, ends ? i - 1 : n };
            std::sort(idx.begin(), idx.end()); // x order; n (none) sorts last and is skipped
            std::size_t prev = n;
            for (std::size_t k : idx) {
                if (k != prev && k < n)
                    push(k);
                prev = k;
            }
        }
    }
    if (after)
        push(hi);
    return out;
}

QRectF widenedRange(const QRectF& r)
{
    double x0 = r.left(), x1 = r.right(), y0 = r.top(), y1 = r.bottom();
    const auto widen = [](double& lo, double& hi) {
        const double minSpan = std::max(1e-9, 1e-7 * std::max(std::abs(lo), std::abs(hi)));
        if (!(hi - lo >= minSpan)) {
            const double mid = lo / 2 + hi / 2;
            lo = mid - minSpan / 2;
            hi = mid + minSpan / 2;
        }
    };
    widen(x0, x1);
    widen(y0, y1);
    return QRectF(QPointF(x0, y0), QPointF(x1, y1));
}

double niceTickStep(double span, int targetTicks)
{
    if (!(span > 0.0) || !std::isfinite(span))
        return 1.0;
    const double raw = span / std::max(1, targetTicks);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / mag;
    const double nice = f < 1.5 ? 1.0 : f < 3.5 ? 2.0 : f < 7.5 ? 5.0 : 10.0;
    return nice * mag;
}

QString axisLabelFormat(double step, double lo, double hi)
{
    const double maxAbs = std::max(std::abs(lo), std::abs(hi));
    if (!(step > 0.0) || maxAbs >= 1e7 || step < 1e-6)
        return QStringLiteral("%.3g");
    // Nice steps are 1, 2 or 5 times 10^k, so -k decimals show every tick exactly.
    const int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
    return QStringLiteral("%.%1f").arg(decimals);
}

QColor tableau10(int index)
{
    // Tableau 10 (2016 revision), the default qualitative palette of Tableau and matplotlib's "tab10" successor.
    static constexpr std::array<QRgb, 10> kColors
        = { 0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f, 0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac };
    const int i = ((index % 10) + 10) % 10;
    return QColor(kColors[static_cast<std::size_t>(i)]);
}

QColor viridis(double t) { return colours::sequential(std::isfinite(t) ? t : 0.0); }

} // namespace creditlab::ui::charts
