#pragma once

#include "core/probe/linearprobe.h"

namespace creditlab::probe {

/// The layer-wise extension of PAIR's probes (pair.md §6, "layer-wise AUROC"): one LinearProbe per layer on
/// that layer's features (e.g. the last-token residual stream after block l), the layer chosen by the best
/// validation AUROC (ties: the lowest layer). A value type; any thread, no cancellation.
class LayerwiseProbe {
public:
    /// Fits one probe per layer on `train[l]` and scores `validation[l]`; returns the validation AUROC per layer.
    /// Throws std::invalid_argument when there are no layers, the lists differ in length, a layer's row count
    /// disagrees with its labels, or the validation labels hold a single class.
    std::vector<double> fit(const std::vector<FeatureMatrix>& train, const std::vector<int>& trainLabels,
        const std::vector<FeatureMatrix>& validation, const std::vector<int>& validationLabels,
        const LogisticOptions& options = {});

    /// P(correct) per row from the chosen layer's probe; `layers` holds every layer's features, as in fit().
    std::vector<double> score(const std::vector<FeatureMatrix>& layers) const;
    /// AUROC of score(layers) against `labels`.
    double evaluate(const std::vector<FeatureMatrix>& layers, const std::vector<int>& labels) const;

    bool fitted() const { return !m_probes.empty(); }
    std::size_t layers() const { return m_probes.size(); }
    std::size_t bestLayer() const { return m_best; }
    const std::vector<double>& validationAuroc() const { return m_validationAuroc; }
    const LinearProbe& probe(std::size_t layer) const { return m_probes.at(layer); }
    /// Restores a saved probe (probe JSON). Throws std::invalid_argument on inconsistent sizes.
    void restore(std::vector<LinearProbe> probes, std::vector<double> validationAuroc, std::size_t best);

private:
    std::vector<LinearProbe> m_probes;
    std::vector<double> m_validationAuroc;
    std::size_t m_best = 0;
};

} // namespace creditlab::probe
