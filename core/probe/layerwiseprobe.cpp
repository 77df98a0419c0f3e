#include "core/probe/layerwiseprobe.h"

#include "core/probe/metrics.h"

#include <cmath>
#include <stdexcept>

namespace creditlab::probe {

std::vector<double> LayerwiseProbe::fit(const std::vector<FeatureMatrix>& train, const std::vector<int>& trainLabels,
    const std::vector<FeatureMatrix>& validation, const std::vector<int>& validationLabels,
    const LogisticOptions& options)
{
    if (train.empty() || train.size() != validation.size())
        throw std::invalid_argument("LayerwiseProbe: need the same, nonzero number of train and validation layers");
    std::vector<LinearProbe> probes(train.size());
    std::vector<double> aurocs(train.size());
    std::size_t best = 0;
    for (std::size_t l = 0; l < train.size(); ++l) {
        if (validation[l].rows() != validationLabels.size())
            throw std::invalid_argument("LayerwiseProbe: validation rows and labels differ");
        probes[l].fit(train[l], trainLabels, options);
        aurocs[l] = probes[l].evaluate(validation[l], validationLabels);
        if (std::isnan(aurocs[l]))
            throw std::invalid_argument("LayerwiseProbe: the validation labels hold a single class");
        if (aurocs[l] > aurocs[best])
            best = l;
    }
    m_probes = std::move(probes);
    m_validationAuroc = aurocs;
    m_best = best;
    return aurocs;
}

std::vector<double> LayerwiseProbe::score(const std::vector<FeatureMatrix>& layers) const
{
    if (!fitted())
        throw std::logic_error("LayerwiseProbe: not fitted");
    if (layers.size() != m_probes.size())
        throw std::invalid_argument("LayerwiseProbe: a different number of layers than fitted");
    return m_probes[m_best].score(layers[m_best]);
}

double LayerwiseProbe::evaluate(const std::vector<FeatureMatrix>& layers, const std::vector<int>& labels) const
{
    return auroc(score(layers), labels);
}

void LayerwiseProbe::restore(std::vector<LinearProbe> probes, std::vector<double> validationAuroc, std::size_t best)
{
    if (probes.empty() || validationAuroc.size() != probes.size() || best >= probes.size())
        throw std::invalid_argument("LayerwiseProbe: inconsistent saved probe");
    for (const LinearProbe& p : probes)
        if (!p.fitted())
            throw std::invalid_argument("LayerwiseProbe: a layer's probe is not fitted");
    m_probes = std::move(probes);
    m_validationAuroc = std::move(validationAuroc);
    m_best = best;
}

} // namespace creditlab::probe
