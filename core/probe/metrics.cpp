#include "core/probe/metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace creditlab::probe {

namespace {

void checkSizes(std::size_t a, std::size_t b)
{
    if (a != b)
        throw std::invalid_argument("probe metrics: scores and labels have different lengths");
}

} // namespace

double auroc(const std::vector<double>& scores, const std::vector<int>& labels)
{
    checkSizes(scores.size(), labels.size());
    const std::size_t n = scores.size();
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t { 0 });
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return scores[a] < scores[b]; });
    double positiveRankSum = 0.0;
    double positives = 0.0;
    for (std::size_t i = 0; i < n;) {
        std::size_t j = i;
        while (j < n && scores[order[j]] == scores[order[i]])
            ++j;
        // Ranks are 1-based; a tie block [i, j) shares the average rank.
        const double averageRank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
        for (std::size_t k = i; k < j; ++k)
            if (labels[order[k]] != 0) {
                positiveRankSum += averageRank;
                positives += 1.0;
            }
        i = j;
    }
    const double negatives = static_cast<double>(n) - positives;
    if (positives == 0.0 || negatives == 0.0)
        return std::numeric_limits<double>::quiet_NaN();
    return (positiveRankSum - positives * (positives + 1.0) / 2.0) / (positives * negatives);
}

double brierScore(const std::vector<double>& probabilities, const std::vector<int>& labels)
{
    checkSizes(probabilities.size(), labels.size());
    if (probabilities.empty())
        return std::numeric_limits<double>::quiet_NaN();
    double sum = 0.0;
    for (std::size_t i = 0; i < probabilities.size(); ++i) {
        const double e = probabilities[i] - (labels[i] != 0 ? 1.0 : 0.0);
        sum += e * e;
    }
    return sum / static_cast<double>(probabilities.size());
}

double expectedCalibrationError(const std::vector<double>& probabilities, const std::vector<int>& labels, int bins)
{
    checkSizes(probabilities.size(), labels.size());
    if (bins < 1)
        throw std::invalid_argument("probe metrics: ECE needs at least one bin");
    if (probabilities.empty())
        return std::numeric_limits<double>::quiet_NaN();
    std::vector<double> count(static_cast<std::size_t>(bins), 0.0), sumP(count), sumY(count);
    for (std::size_t i = 0; i < probabilities.size(); ++i) {
        const double p = std::clamp(probabilities[i], 0.0, 1.0);
        // Right-closed (lo, hi]: bin b holds b/B < p ≤ (b+1)/B; p = 0 joins bin 0.
        auto b = static_cast<int>(std::ceil(p * bins)) - 1;
        b = std::clamp(b, 0, bins - 1);
        count[static_cast<std::size_t>(b)] += 1.0;
        sumP[static_cast<std::size_t>(b)] += p;
        sumY[static_cast<std::size_t>(b)] += labels[i] != 0 ? 1.0 : 0.0;
    }
    double ece = 0.0;
    for (std::size_t b = 0; b < count.size(); ++b)
        if (count[b] > 0.0)
            ece += std::abs(sumY[b] - sumP[b]); // (|B|/n)·|mean y − mean p| = |Σy − Σp| / n
    return ece / static_cast<double>(probabilities.size());
}

} // namespace creditlab::probe
