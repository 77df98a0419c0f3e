// GRPO: group-relative advantage, broadcast to every turn (DeepSeekMath, Shao et al. 2024, Eq. 3
// outcome supervision; CONVENTIONS.md "grpo").
#include "core/credit/common.h"
#include "core/credit/conventions.h"
#include "core/credit/methods.h"

namespace creditlab::credit {

namespace {

class Grpo final : public Estimator {
public:
    std::string_view name() const override { return "grpo"; }
    std::string_view summary() const override
    {
        return "GRPO: (R - group mean) / (group std + eps), the same on every turn";
    }
    const std::vector<ParamSpec>& params() const override
    {
        static const std::vector<ParamSpec> specs = withConventions(grpoParamSpecs(), { "verl" });
        return specs;
    }
    CreditResult computeColumns(const CreditBatch& batch, const Params& params) const override
    {
        CreditResult r(batch);
        const std::vector<double> a = grpoAdvantages(batch, params);
        for (std::size_t i = 0; i < batch.trajectoryCount(); ++i)
            std::fill(r.advantages.begin() + r.offsets[i], r.advantages.begin() + r.offsets[i + 1], a[i]);
        return r;
    }
};

} // namespace

std::unique_ptr<Estimator> makeGrpo() { return std::make_unique<Grpo>(); }

} // namespace creditlab::credit
