#include "core/probe/linearprobe.h"

#include "core/probe/metrics.h"

#include <stdexcept>

namespace creditlab::probe {

LogisticFitReport LinearProbe::fit(const FeatureMatrix& x, const std::vector<int>& y, const LogisticOptions& options)
{
    FeatureMatrix clean = x;
    sanitizeFeatures(clean);
    StandardScaler scaler;
    scaler.fit(clean);
    LogisticRegression model(options);
    const LogisticFitReport report = model.fit(scaler.transform(clean), y);
    m_scaler = std::move(scaler);
    m_model = std::move(model);
    return report;
}

FeatureMatrix LinearProbe::prepare(const FeatureMatrix& x) const
{
    if (!fitted())
        throw std::logic_error("LinearProbe: not fitted");
    FeatureMatrix clean = x;
    sanitizeFeatures(clean);
    return m_scaler.transform(clean);
}

std::vector<double> LinearProbe::logit(const FeatureMatrix& x) const { return m_model.decision(prepare(x)); }

std::vector<double> LinearProbe::score(const FeatureMatrix& x) const { return m_model.probability(prepare(x)); }

double LinearProbe::evaluate(const FeatureMatrix& x, const std::vector<int>& y) const { return auroc(score(x), y); }

void LinearProbe::restore(StandardScaler scaler, LogisticRegression model)
{
    if (!scaler.fitted() || !model.fitted() || scaler.features() != model.weights().size())
        throw std::invalid_argument("LinearProbe: scaler and classifier sizes disagree");
    m_scaler = std::move(scaler);
    m_model = std::move(model);
}

} // namespace creditlab::probe
