// HAS: Hybrid Advantage Shaping (Li, Rodriguez, Leventis; CONVENTIONS.md "has", has_turnrd.md §2.1-2.3).
// A convex blend of the GRPO trajectory advantage and a position-wise normalised per-turn credit from a
// pluggable decomposer. The learned TurnRD decomposer (has_turnrd.md §2.7, Eq. 5) needs a trained model and
// comes with the learned models; this file has the two that work from plain JSONL:
//   progressive  x_{i,t} = p_{i,t} - p_{i,t-1}, p_{i,0} = 0, p = `progress` (CONVENTIONS.md).
//   turnrd       x_{i,t} = r̂_{i,t}, TurnRD's per-turn credit (has_turnrd.md §2.7, Eq. 5), which the trainer
//                computes with the learned decomposer and hands over as the turn's credit entry "turnrd"
//                (JSONL `"credit": {"turnrd": x}`), so an externally trained decomposer can feed it too.
//   judge        x_{i,t} = 2 * score_{i,t} - 1. The paper gives no formula for its LLM-Judge decomposer
//                ("cached turn labels"); has_turnrd.md §2.11 proposes a judge score in [-1, 1], or one in
//                [0, 1] mapped to [-1, 1]. CreditLab's `score` is in [0, 1], and 2 * score - 1 is the map
//                scalar_judge uses. No sum-to-R shift (the note's optional extra). The position-wise
//                normalisation makes A_turn independent of this affine map, up to eps.
#include "core/credit/common.h"
#include "core/credit/conventions.h"
#include "core/credit/methods.h"

#include <algorithm>

namespace creditlab::credit {

namespace {

class Has final : public Estimator {
public:
    std::string_view name() const override { return "has"; }
    std::string_view summary() const override
    {
        return "HAS (Li et al.): alpha * GRPO + (1 - alpha) * position-wise normalised per-turn credit";
    }
    const std::vector<ParamSpec>& params() const override
    {
        static const std::vector<ParamSpec> specs = [] {
            std::vector<ParamSpec> s {
                { "alpha", ParamType::Double, "0.5", 0.0, 1.0, {},
                    "weight of the trajectory advantage; 1 is GRPO (HAS Eq. 2)" },
                { "decomposer", ParamType::Choice, "progressive", {}, {}, { "progressive", "judge", "turnrd" },
                    "per-turn credit: progress differences, the judge's 2 score - 1, or TurnRD's r_hat (the "
                    "turn's credit entry \"turnrd\"; the trainer fills it)" },
            };
            for (ParamSpec& g : grpoParamSpecs())
                s.push_back(std::move(g));
            return withConventions(std::move(s), { "verl" });
        }();
        return specs;
    }
    void validate(const Batch& batch, const Params& params) const override
    {
        const auto& decomposer = params.getChoice("decomposer");
        if (decomposer == "turnrd")
            requireTurnCredit(batch, "turnrd", "has decomposer=turnrd");
        else
            requireTurnField(batch, decomposer == "judge" ? "score" : "progress", "has");
    }
    CreditResult computeColumns(const CreditBatch& columns, const Params& params) const override
    {
        const Batch& batch = columns.source();
        CreditResult r(columns);
        const std::vector<double> aTraj = grpoAdvantages(columns, params); // HAS Eq. 1
        const double alpha = params.getDouble("alpha");
        const std::string& decomposer = params.getChoice("decomposer");
        const bool judge = decomposer == "judge";
        const bool turnrd = decomposer == "turnrd";

        r.details.reserve(3); // addDetail push_backs: keep the references below valid
        DetailColumn& trajCol = r.addDetail("A_traj");
        DetailColumn& xCol = r.addDetail("x");
        DetailColumn& turnCol = r.addDetail("A_turn");
        std::vector<double>& x = xCol.numbers;
        for (std::size_t i = 0; i < batch.trajectories.size(); ++i) {
            const Trajectory& t = batch.trajectories[i];
            const std::size_t base = r.offsets[i];
            double previous = 0.0; // p_{i,0} = 0
            for (std::size_t k = 0; k < t.turns.size(); ++k) {
                const Turn& u = t.turns[k];
                if (turnrd) {
                    x[base + k] = turnCredit(u, "turnrd").value(); // validate() guarantees it
                } else if (judge) {
                    x[base + k] = 2.0 * u.score.value() - 1.0;
                } else {
                    const double p = u.progress.value(); // validate() guarantees it
                    x[base + k] = p - previous;
                    previous = p;
                }
                trajCol.numbers[base + k] = aTraj[i];
            }
        }

        normalisePositionWise(batch, r.offsets, x, turnCol.numbers);

        for (std::size_t i = 0; i < batch.trajectories.size(); ++i)
            for (std::size_t n = r.offsets[i]; n < r.offsets[i + 1]; ++n)
                r.advantages[n] = alpha * aTraj[i] + (1.0 - alpha) * turnCol.numbers[n]; // HAS Eq. 2-3, no re-norm
        return r;
    }

private:
    /// HAS §3.2 (has_turnrd.md §2.3): at position t, normalise over the group's trajectories with T_j >= t,
    /// sample std + eps; fewer than two such trajectories give 0. `out` is zero-filled on entry.
    static void normalisePositionWise(const Batch& batch, const std::vector<std::size_t>& offsets,
        const std::vector<double>& x, std::vector<double>& out)
    {
        auto length = [&](std::size_t i) { return offsets[i + 1] - offsets[i]; };
        std::vector<std::size_t> order;
        for (const Group& g : batch.groups) {
            // Longest first: the trajectories that reach position t are then a prefix of `order`, so each
            // group costs the sum of its lengths even when one trajectory is much longer than the rest.
            order.assign(g.members.begin(), g.members.end());
            std::stable_sort(
                order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return length(a) > length(b); });
            std::size_t active = order.size();
            for (std::size_t t = 0;; ++t) {
                while (active > 0 && length(order[active - 1]) <= t)
                    --active;
                if (active < 2)
                    break; // this position and all later ones stay 0
                double sum = 0.0;
                for (std::size_t k = 0; k < active; ++k)
                    sum += x[offsets[order[k]] + t];
                const double m = sum / static_cast<double>(active);
                double ss = 0.0;
                for (std::size_t k = 0; k < active; ++k) {
                    const double d = x[offsets[order[k]] + t] - m;
                    ss += d * d;
                }
                const double sd = std::sqrt(ss / static_cast<double>(active - 1));
                for (std::size_t k = 0; k < active; ++k)
                    out[offsets[order[k]] + t] = (x[offsets[order[k]] + t] - m) / (sd + kEps);
            }
        }
    }
};

} // namespace

std::unique_ptr<Estimator> makeHas() { return std::make_unique<Has>(); }

} // namespace creditlab::credit
