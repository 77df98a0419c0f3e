#include "core/probe/standardscaler.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace creditlab::probe {

void StandardScaler::fit(const FeatureMatrix& x)
{
    if (x.rows() == 0)
        throw std::invalid_argument("StandardScaler: no samples to fit");
    const std::size_t n = x.rows();
    const std::size_t d = x.cols();
    std::vector<double> mean(d, 0.0);
    for (std::size_t r = 0; r < n; ++r)
        for (std::size_t c = 0; c < d; ++c)
            mean[c] += x.at(r, c);
    for (double& m : mean)
        m /= static_cast<double>(n);
    // Two-pass variance: exact for the constant columns that the zero-scale rule must catch.
    std::vector<double> var(d, 0.0);
    for (std::size_t r = 0; r < n; ++r)
        for (std::size_t c = 0; c < d; ++c) {
            const double dev = x.at(r, c) - mean[c];
            var[c] += dev * dev;
        }
    std::vector<double> scale(d);
    for (std::size_t c = 0; c < d; ++c) {
        const double s = std::sqrt(var[c] / static_cast<double>(n));
        scale[c] = s < 10.0 * std::numeric_limits<double>::epsilon() ? 1.0 : s;
    }
    m_mean = std::move(mean);
    m_scale = std::move(scale);
}

FeatureMatrix StandardScaler::transform(const FeatureMatrix& x) const
{
    FeatureMatrix out = x;
    if (x.rows() > 0 && x.cols() != m_mean.size())
        throw std::invalid_argument("StandardScaler: feature count differs from the fitted one");
    for (std::size_t r = 0; r < out.rows(); ++r)
        transformRow(out.row(r));
    return out;
}

void StandardScaler::transformRow(std::span<double> row) const
{
    if (row.size() != m_mean.size())
        throw std::invalid_argument("StandardScaler: feature count differs from the fitted one");
    for (std::size_t c = 0; c < row.size(); ++c)
        row[c] = (row[c] - m_mean[c]) / m_scale[c];
}

void StandardScaler::setParameters(std::vector<double> mean, std::vector<double> scale)
{
    if (mean.size() != scale.size())
        throw std::invalid_argument("StandardScaler: mean and scale lengths differ");
    for (double s : scale)
        if (!(s > 0.0) || !std::isfinite(s))
            throw std::invalid_argument("StandardScaler: scale must be positive and finite");
    m_mean = std::move(mean);
    m_scale = std::move(scale);
}

void sanitizeFeatures(FeatureMatrix& x)
{
    for (std::size_t r = 0; r < x.rows(); ++r)
        for (double& v : x.row(r))
            if (!std::isfinite(v))
                v = 0.0;
}

} // namespace creditlab::probe
