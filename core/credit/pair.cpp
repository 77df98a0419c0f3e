// PAIR: Prefix-Aware Internal Reward (Kim et al.; CONVENTIONS.md "pair", pair.md §2.5-2.6). Turns the
// probe's per-turn score (`score`, PAIR's s_final) into a softened momentum reward, and the advantage is the
// one the authors' released code computes (grpo_loop.py): the paper itself gives no advantage formula.
#include "core/credit/common.h"
#include "core/credit/methods.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace creditlab::credit {

namespace {

double sigmoid(double z) { return 1.0 / (1.0 + std::exp(-z)); }

/// The released code's logit: its input is clamped to [1e-6, 1 - 1e-6] first.
double logit(double p)
{
    p = std::clamp(p, 1e-6, 1.0 - 1e-6);
    return std::log(p / (1.0 - p));
}

class Pair final : public Estimator {
public:
    std::string_view name() const override { return "pair"; }
    std::string_view summary() const override
    {
        return "PAIR (Kim et al.): softened probe score with logit momentum; centred step reward + group "
               "advantage of the summed reward";
    }
    const std::vector<ParamSpec>& params() const override
    {
        const double inf = std::numeric_limits<double>::infinity();
        static const std::vector<ParamSpec> specs {
            { "T", ParamType::Double, "2", 0.0, inf, {}, "temperature of the score softening (PAIR Eq. 5)",
                /*minExclusive=*/true },
            { "clip_eps", ParamType::Double, "0.05", 0.0, 0.5, {},
                "softened scores are clipped to [clip_eps, 1 - clip_eps] (PAIR Eq. 5)", false,
                /*maxExclusive=*/true },
            { "momentum", ParamType::Bool, "true", {}, {}, {},
                "momentum reward (PAIR Eq. 7); false: the softened score itself (vanilla PAIR)" },
            { "alpha", ParamType::Double, "5", 0.0, inf, {}, "momentum strength (PAIR Eq. 7)" },
            { "advantage", ParamType::Choice, "pair_code", {}, {},
                { "pair_code", "pair_code_mean", "process_sum", "outcome", "mixed" },
                "advantage estimator (pair.md 2.6): the released code's (default); the same with Q_i the mean "
                "over turns (no length bias); DeepSeekMath process supervision; the outcome alone (GRPO); or "
                "pair_code on q_t + lambda * 1[t = T] * R_i" },
            { "lambda", ParamType::Double, "0", 0.0, inf, {},
                "advantage=mixed: weight of the outcome reward added to the last turn's reward" },
        };
        return specs;
    }
    void validate(const Batch& batch, const Params&) const override { requireTurnField(batch, "score", "pair"); }
    CreditResult computeColumns(const CreditBatch& columns, const Params& params) const override
    {
        const Batch& batch = columns.source();
        CreditResult r(columns);
        const double temperature = params.getDouble("T");
        const double clipEps = params.getDouble("clip_eps");
        const bool momentum = params.getBool("momentum");
        const double alpha = params.getDouble("alpha");
        const std::string& estimator = params.getChoice("advantage");
        const double lambda = estimator == "mixed" ? params.getDouble("lambda") : 0.0;

        r.details.reserve(3); // addDetail push_backs: keep the references below valid
        DetailColumn& softCol = r.addDetail("s_soft");
        DetailColumn& qCol = r.addDetail("q");
        DetailColumn& bCol = r.addDetail("B");

        // Per-turn rewards q and their per-trajectory sum Q_i and mean.
        std::vector<double> total(batch.trajectories.size(), 0.0);
        for (std::size_t i = 0; i < batch.trajectories.size(); ++i) {
            const Trajectory& t = batch.trajectories[i];
            const std::size_t base = r.offsets[i];
            double softSum = 0.0; // sum of s'_j over j < t
            double qSum = 0.0;
            for (std::size_t k = 0; k < t.turns.size(); ++k) {
                const double score = t.turns[k].score.value(); // validate() guarantees it
                // PAIR Eq. 5: s' = clip(sigmoid(logit(s) / T), eps, 1 - eps).
                const double soft = std::clamp(sigmoid(logit(score) / temperature), clipEps, 1.0 - clipEps);
                double q = soft;
                if (momentum && k > 0) {
                    const double runningMean = softSum / static_cast<double>(k); // PAIR Eq. 6
                    q = sigmoid(logit(soft) + alpha * (soft - runningMean)); // PAIR Eq. 7
                } // t = 1: the running mean is s'_1 itself, so q_1 = s'_1
                softSum += soft;
                qSum += q;
                softCol.numbers[base + k] = soft;
                qCol.numbers[base + k] = q;
            }
            if (lambda != 0.0 && !t.turns.empty()) { // mixed: the outcome joins the last turn's reward
                qCol.numbers[base + t.turns.size() - 1] += lambda * t.reward;
                qSum += lambda * t.reward;
            }
            const double qMean = t.turns.empty() ? 0.0 : qSum / static_cast<double>(t.turns.size());
            total[i] = estimator == "pair_code_mean" ? qMean : qSum; // Q_i = sum_t q_{i,t} (or the mean)
            for (std::size_t k = 0; k < t.turns.size(); ++k)
                r.advantages[base + k] = qCol.numbers[base + k] - qMean; // q_{i,t} - mean_t q_{i,.}
        }
        if (estimator == "process_sum" || estimator == "outcome") {
            otherAdvantage(batch, estimator == "outcome", qCol.numbers, r);
            return r;
        }

        // B_i = (Q_i - mean_g Q) / popstd_g Q, or Q_i - mean_g Q when that std <= 1e-8 (no eps: the code's).
        std::vector<double> values;
        for (const Group& g : batch.groups) {
            values.clear();
            for (std::size_t i : g.members)
                values.push_back(total[i]);
            const double m = mean(values);
            const double sd = populationStd(values);
            for (std::size_t k = 0; k < g.members.size(); ++k) {
                const std::size_t i = g.members[k];
                const double b = sd <= 1e-8 ? values[k] - m : (values[k] - m) / sd;
                for (std::size_t n = r.offsets[i]; n < r.offsets[i + 1]; ++n) {
                    bCol.numbers[n] = b;
                    r.advantages[n] += b; // A_{i,t} = q_{i,t} - mean_t q_{i,.} + B_i
                }
            }
        }
        return r;
    }

private:
    /// The advantages pair.md §2.6 offers beside the released code's, written over r.advantages (B stays 0):
    /// - process_sum (DeepSeekMath process supervision): r~_{i,j} = (q_{i,j} − mean R) / std R over every turn
    ///   reward R of the group (population std; ≤ 1e-8: not divided), A_{i,k} = Σ_{j ≥ k} r~_{i,j};
    /// - outcome: A_{i,k} = (R_i − mean_g R) / std_g R (population std; ≤ 1e-8: not divided), the probe unused.
    static void otherAdvantage(const Batch& batch, bool outcome, const std::vector<double>& q, CreditResult& r)
    {
        std::vector<double> values;
        for (const Group& g : batch.groups) {
            values.clear();
            for (std::size_t i : g.members) {
                if (outcome)
                    values.push_back(batch.trajectories[i].reward);
                else
                    values.insert(values.end(), q.begin() + static_cast<std::ptrdiff_t>(r.offsets[i]),
                        q.begin() + static_cast<std::ptrdiff_t>(r.offsets[i + 1]));
            }
            const double m = values.empty() ? 0.0 : mean(values);
            const double sd = values.empty() ? 0.0 : populationStd(values);
            auto normalised = [&](double v) { return sd <= 1e-8 ? v - m : (v - m) / sd; };
            for (std::size_t i : g.members) {
                if (outcome) {
                    const double a = normalised(batch.trajectories[i].reward);
                    for (std::size_t n = r.offsets[i]; n < r.offsets[i + 1]; ++n)
                        r.advantages[n] = a;
                    continue;
                }
                double suffix = 0.0; // Σ_{j ≥ k}, walking backwards
                for (std::size_t n = r.offsets[i + 1]; n-- > r.offsets[i];) {
                    suffix += normalised(q[n]);
                    r.advantages[n] = suffix;
                }
            }
        }
    }
};

} // namespace

std::unique_ptr<Estimator> makePair() { return std::make_unique<Pair>(); }

} // namespace creditlab::credit
