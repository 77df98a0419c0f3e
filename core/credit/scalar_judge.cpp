// Scalar judge process reward: TRIAGE's dense-reward baseline (Xu et al. 2026, arXiv 2606.32017, Eq. 9;
// CONVENTIONS.md "scalar_judge"). Like triage, with the judge's score in place of the role constant.
//
// The paper's judge gives s in [-1, 1]; CreditLab stores `score` in [0, 1] (the scale pair's probes and the
// judge share), so s = 2 * score - 1 as CONVENTIONS.md fixes it.
#include "core/credit/common.h"
#include "core/credit/conventions.h"
#include "core/credit/methods.h"

#include <limits>

namespace creditlab::credit {

namespace {

class ScalarJudge final : public Estimator {
public:
    std::string_view name() const override { return "scalar_judge"; }
    std::string_view summary() const override
    {
        return "TRIAGE's scalar-judge baseline (Xu et al. 2026, Eq. 9): GRPO + lambda * (2 score - 1), whitened";
    }
    const std::vector<ParamSpec>& params() const override
    {
        static const std::vector<ParamSpec> specs = [] {
            std::vector<ParamSpec> s {
                { "lambda", ParamType::Double, "0.2", 0.0, std::numeric_limits<double>::infinity(), {},
                    "weight of the judge's score (TRIAGE Eq. 9)" },
                { "whiten", ParamType::Bool, "true", {}, {}, {},
                    "subtract the batch mean over all turns, divide by batch std + eps (TRIAGE Eq. 4)" },
            };
            for (ParamSpec& g : grpoParamSpecs())
                s.push_back(std::move(g));
            for (ParamSpec& w : whiteningParamSpecs())
                s.push_back(std::move(w));
            return withConventions(std::move(s), { "verl" });
        }();
        return specs;
    }
    void validate(const Batch& batch, const Params&) const override
    {
        requireTurnField(batch, "score", "scalar_judge");
    }
    CreditResult computeColumns(const CreditBatch& columns, const Params& params) const override
    {
        const Batch& batch = columns.source();
        CreditResult r(columns);
        const std::vector<double> grpo = grpoAdvantages(columns, params);
        const double lambda = params.getDouble("lambda");

        r.details.reserve(3); // addDetail push_backs: keep the references below valid
        DetailColumn& scoreCol = r.addDetail("score");
        DetailColumn& grpoCol = r.addDetail("grpo");
        DetailColumn& rawCol = r.addDetail("raw");
        for (std::size_t i = 0; i < batch.trajectories.size(); ++i) {
            const Trajectory& t = batch.trajectories[i];
            const std::size_t base = r.offsets[i];
            for (std::size_t k = 0; k < t.turns.size(); ++k) {
                const double score = t.turns[k].score.value(); // validate() guarantees it
                scoreCol.numbers[base + k] = score;
                grpoCol.numbers[base + k] = grpo[i];
                r.advantages[base + k] = grpo[i] + lambda * (2.0 * score - 1.0); // TRIAGE Eq. 9
            }
        }
        rawCol.numbers = r.advantages;
        if (params.getBool("whiten"))
            whiten(r.advantages, whitening(params)); // TRIAGE Eq. 4, exactly as triage
        return r;
    }
};

} // namespace

std::unique_ptr<Estimator> makeScalarJudge() { return std::make_unique<ScalarJudge>(); }

} // namespace creditlab::credit
