// GRPO + Step Reward: the baseline of "RTMC: Step-Level Credit Assignment via Rollout Trees" (§5.1), which
// feeds per-step rewards through discounted returns and normalises them GRPO-style over the group's
// episode returns (CONVENTIONS.md "Baselines named by the papers").
#include "core/credit/common.h"
#include "core/credit/methods.h"

#include <span>

namespace creditlab::credit {

namespace {

/// Below this group std the returns are only centred, not divided (CONVENTIONS.md "step_reward").
constexpr double kStdFloor = 1e-8;

class StepRewardEstimator final : public Estimator {
public:
    std::string_view name() const override { return "step_reward"; }
    std::string_view summary() const override
    {
        return "GRPO + Step Reward (RTMC's baseline): (G_t - mean G_1) / (std G_1 + eps) over the group's "
               "discounted step-reward returns";
    }
    const std::vector<ParamSpec>& params() const override
    {
        static const std::vector<ParamSpec> specs = {
            { "gamma", ParamType::Double, "1.0", 0.0, 1.0, {}, "discount of the step-reward returns" },
        };
        return specs;
    }
    Columns columns() const override { return Columns::StepRewards; }

protected:
    CreditResult computeColumns(const CreditBatch& batch, const Params& params) const override
    {
        const double gamma = params.getDouble("gamma");
        CreditResult r(batch);
        double* returns = r.addDetail("G").numbers.data();
        double* adv = r.advantages.data();
        const std::vector<std::size_t>& offsets = batch.offsets();
        const std::span<const double> rho = batch.stepRewards();

        // RTMC Eq. 5: G_{i,t} = rho_{i,t} + gamma * G_{i,t+1}, backwards over each trajectory.
        for (std::size_t i = 0; i < batch.trajectoryCount(); ++i) {
            double g = 0.0;
            for (std::size_t k = offsets[i + 1]; k-- > offsets[i];) {
                g = rho[k] + gamma * g;
                returns[k] = g;
            }
        }

        // Mean and sample std over the group's episode returns G_{j,1}; a trajectory without turns has
        // none and is left out.
        std::vector<double> episode;
        for (const Group& group : batch.groups()) {
            episode.clear();
            for (std::size_t j : group.members)
                if (offsets[j + 1] > offsets[j])
                    episode.push_back(returns[offsets[j]]);
            const double m = mean(episode);
            const double sd = sampleStd(episode);
            for (std::size_t j : group.members)
                for (std::size_t k = offsets[j]; k < offsets[j + 1]; ++k)
                    adv[k] = sd >= kStdFloor ? (returns[k] - m) / (sd + kEps) : returns[k] - m;
        }
        return r;
    }
};

} // namespace

std::unique_ptr<Estimator> makeStepReward() { return std::make_unique<StepRewardEstimator>(); }

} // namespace creditlab::credit
