#include "ui/charts/colours.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace creditlab::ui::colours {

namespace {

QRgb mix(QRgb from, QRgb to, double t)
{
    const auto channel = [t](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * t)); };
    return qRgb(channel(qRed(from), qRed(to)), channel(qGreen(from), qGreen(to)), channel(qBlue(from), qBlue(to)));
}

double linear(int channel)
{
    const double c = channel / 255.0;
    return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

} // namespace

QRgb signedRgb(double value, double limit)
{
    if (std::isnan(value))
        return kMissing;
    if (!(std::isfinite(limit) && limit > 0.0))
        return kZero;
    const double t = std::clamp(value / limit, -1.0, 1.0);
    return t < 0 ? mix(kZero, kNegative, -t) : mix(kZero, kPositive, t);
}

QColor sequential(double t)
{
    // Nine samples of matplotlib's viridis at indices 0, 32, ..., 255 of its 256-entry table (as in Bokeh's
    // Viridis9), linearly interpolated in between.
    static constexpr std::array<QRgb, 9> kStops
        = { 0x440154, 0x472b7a, 0x3b518a, 0x2c718e, 0x208f8c, 0x27ad80, 0x5bc862, 0xaadb32, 0xfde724 };
    if (!std::isfinite(t))
        return QColor::fromRgb(kMissing);
    const double s = std::clamp(t, 0.0, 1.0) * (kStops.size() - 1);
    const std::size_t i = std::min<std::size_t>(static_cast<std::size_t>(s), kStops.size() - 2);
    return QColor::fromRgb(mix(kStops[i], kStops[i + 1], s - static_cast<double>(i)));
}

QColor role(char code)
{
    switch (code) {
    case 'D':
        return QColor(0xD5, 0x5E, 0x00); // vermillion: the turns that decided the outcome
    case 'E':
        return QColor(0x00, 0x72, 0xB2); // blue
    case 'N':
        return QColor(0x99, 0x99, 0x99); // grey-ish: neither helped nor hurt
    case 'R':
        return QColor(0xCC, 0x79, 0xA7); // reddish purple
    default:
        return QColor(0xBB, 0xBB, 0xBB);
    }
}

QColor textOn(const QColor& background)
{
    const QRgb c = background.rgb();
    const double l = 0.2126 * linear(qRed(c)) + 0.7152 * linear(qGreen(c)) + 0.0722 * linear(qBlue(c));
    // Contrast against black (l + 0.05) / 0.05 vs against white 1.05 / (l + 0.05): equal at l ≈ 0.179.
    return l > 0.179 ? QColor(Qt::black) : QColor(Qt::white);
}

} // namespace creditlab::ui::colours
