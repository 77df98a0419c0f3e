#include "core/credit/estimator.h"

#include "core/credit/common.h"
#include "core/credit/conventions.h"
#include "core/credit/methods.h"
#include "core/interchange/jsonscanner.h"

namespace creditlab::credit {

CreditResult::CreditResult(const Batch& batch)
{
    offsets.reserve(batch.trajectories.size() + 1);
    std::size_t n = 0;
    offsets.push_back(0);
    for (const Trajectory& t : batch.trajectories) {
        n += t.turns.size();
        offsets.push_back(n);
    }
    advantages = largeColumn<double>(n);
}

CreditResult::CreditResult(const CreditBatch& batch)
    : offsets(batch.offsets())
{
    advantages = largeColumn<double>(batch.turnCount());
}

DetailColumn& CreditResult::addDetail(std::string name)
{
    DetailColumn c;
    c.name = std::move(name);
    c.numbers = largeColumn<double>(advantages.size());
    details.push_back(std::move(c));
    return details.back();
}

std::string CreditResult::turnDetailsJson(std::size_t k) const
{
    std::string out = "{";
    for (std::size_t c = 0; c < details.size(); ++c) {
        if (c > 0)
            out += ',';
        appendJsonString(out, details[c].name);
        out += ':';
        if (details[c].isText)
            appendJsonString(out, details[c].text(k));
        else
            appendJsonNumber(out, details[c].numbers[k]);
    }
    return out + "}";
}

DetailColumn& CreditResult::addTextDetail(std::string name, std::vector<std::string> labels)
{
    DetailColumn& c = addDetail(std::move(name));
    c.isText = true;
    c.labels = std::move(labels);
    return c;
}

const DetailColumn* CreditResult::detail(std::string_view name) const
{
    for (const DetailColumn& c : details)
        if (c.name == name)
            return &c;
    return nullptr;
}

void Estimator::validate(const Batch&, const Params&) const { }

CreditResult Estimator::compute(const Batch& batch, const Params& params) const
{
    return computeColumns(CreditBatch(batch, columns()), params);
}

CreditResult Estimator::compute(const CreditBatch& batch, const Params& params) const
{
    if (!hasColumns(batch.columns(), columns()))
        return computeColumns(CreditBatch(batch.source(), batch.columns() | columns()), params);
    return computeColumns(batch, params);
}

Params Estimator::resolve(const std::vector<std::pair<std::string, std::string>>& assignments) const
{
    const std::string method(name());
    return Params::resolve(method, params(), expandConventions(method, params(), assignments));
}

const std::vector<const Estimator*>& estimators()
{
    // An explicit list, not self-registration: static libraries drop unreferenced registrars.
    static const std::vector<std::unique_ptr<Estimator>> owned = [] {
        std::vector<std::unique_ptr<Estimator>> v;
        for (auto make : builtinEstimatorFactories())
            v.push_back(make());
        return v;
    }();
    static const std::vector<const Estimator*> list = [] {
        std::vector<const Estimator*> v;
        for (const auto& e : owned)
            v.push_back(e.get());
        return v;
    }();
    return list;
}

const Estimator* findEstimator(std::string_view name)
{
    for (const Estimator* e : estimators())
        if (e->name() == name)
            return e;
    return nullptr;
}

const Estimator& requireEstimator(std::string_view name)
{
    if (const Estimator* e = findEstimator(name))
        return *e;
    std::string known;
    for (const Estimator* e : estimators())
        known += (known.empty() ? "" : ", ") + std::string(e->name());
    throw std::invalid_argument("unknown method '" + std::string(name) + "' (methods: " + known + ")");
}

} // namespace creditlab::credit
