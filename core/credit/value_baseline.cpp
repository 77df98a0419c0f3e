// TRIAGE's shared-backbone value baseline (Xu et al. 2026, arXiv 2606.32017, App. D, Eq. 11-12; notes in
// shared/methods/triage.md §4 "Shared-backbone value baseline details" and ambiguity 24):
//   A_{i,k} = A_i^GRPO + lambda * clip(dV_{i,k}, -c, c),   dV_{i,k} = V(s_{i,k}) - V(s_{i,k-1}),
// then the batch whitening of triage (Eq. 4). The clip comes first, then the lambda scale (ambiguity 24).
//
// The value difference is an input, not computed here: the trainer's EMA value head (core/learn/torch/valuebaseline/valuehead.h) fills
// each turn's `credits` entry "value_delta" (JSONL `"credit": {"value_delta": x}`), and external tools can do the
// same. The warm-up of App. D (lambda = 0 for the first 10 steps) is the trainer's: it passes lambda=0 then.
#include "core/credit/common.h"
#include "core/credit/conventions.h"
#include "core/credit/methods.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace creditlab::credit {

namespace {

constexpr std::string_view kField = "value_delta";

/// The turn's "value_delta" credit entry, when present.
std::optional<double> valueDelta(const Turn& turn)
{
    for (const auto& [method, value] : turn.credits)
        if (method == kField)
            return value;
    return std::nullopt;
}

class ValueBaseline final : public Estimator {
public:
    std::string_view name() const override { return "value_baseline"; }
    std::string_view summary() const override
    {
        return "TRIAGE's shared-backbone value baseline (Xu et al. 2026, App. D): GRPO + lambda * clip(dV, -c, c), "
               "whitened";
    }
    const std::vector<ParamSpec>& params() const override
    {
        static const std::vector<ParamSpec> specs = [] {
            const double inf = std::numeric_limits<double>::infinity();
            std::vector<ParamSpec> s {
                { "lambda", ParamType::Double, "0.2", 0.0, inf, {},
                    "weight of the clipped value difference, matched to triage's (TRIAGE App. D)" },
                { "clip", ParamType::Double, "0.5", 0.0, inf, {},
                    "c: dV = V(s_k) - V(s_k-1) is clipped to [-c, c] before the lambda scale (App. D)" },
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
        for (const Trajectory& t : batch.trajectories) {
            for (std::size_t k = 0; k < t.turns.size(); ++k) {
                const std::optional<double> dv = valueDelta(t.turns[k]);
                if (dv && std::isfinite(*dv))
                    continue;
                // The message is built only on failure: validate() runs on every training iteration.
                throw CreditInputError("trajectory \"" + t.id + "\", turn " + std::to_string(k + 1)
                    + ": field \"credit." + std::string(kField) + "\" "
                    + (dv ? "is not finite" : "is required by value_baseline (V(s_k) - V(s_k-1) from the value head)"));
            }
        }
    }
    CreditResult computeColumns(const CreditBatch& columns, const Params& params) const override
    {
        const Batch& batch = columns.source();
        CreditResult r(columns);
        const std::vector<double> grpo = grpoAdvantages(columns, params);
        const double lambda = params.getDouble("lambda");
        const double c = params.getDouble("clip");

        r.details.reserve(4); // addDetail push_backs: keep the references below valid
        DetailColumn& deltaCol = r.addDetail(std::string(kField));
        DetailColumn& clippedCol = r.addDetail("clipped");
        DetailColumn& grpoCol = r.addDetail("grpo");
        DetailColumn& rawCol = r.addDetail("raw");
        for (std::size_t i = 0; i < batch.trajectories.size(); ++i) {
            const Trajectory& t = batch.trajectories[i];
            const std::size_t base = r.offsets[i];
            for (std::size_t k = 0; k < t.turns.size(); ++k) {
                const double dv = valueDelta(t.turns[k]).value(); // validate() guarantees it
                const double clipped = std::clamp(dv, -c, c);
                deltaCol.numbers[base + k] = dv;
                clippedCol.numbers[base + k] = clipped;
                grpoCol.numbers[base + k] = grpo[i];
                r.advantages[base + k] = grpo[i] + lambda * clipped; // TRIAGE App. D, Eq. 12
            }
        }
        rawCol.numbers = r.advantages;
        if (params.getBool("whiten"))
            whiten(r.advantages, whitening(params)); // TRIAGE Eq. 4, exactly as triage
        return r;
    }
};

} // namespace

std::unique_ptr<Estimator> makeValueBaseline() { return std::make_unique<ValueBaseline>(); }

} // namespace creditlab::credit
