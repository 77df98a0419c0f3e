// TRIAGE: role-typed credit (Xu et al. 2026, arXiv 2606.32017; CONVENTIONS.md "triage"). Each turn's judge
// role D/E/N/R adds a fixed, lambda-scaled process reward to the GRPO advantage, and the batch is whitened.
#include "core/credit/common.h"
#include "core/credit/conventions.h"
#include "core/credit/methods.h"

#include <array>
#include <cstdint>
#include <limits>
#include <span>

namespace creditlab::credit {

namespace {

class Triage final : public Estimator {
public:
    std::string_view name() const override { return "triage"; }
    std::string_view summary() const override
    {
        return "TRIAGE (Xu et al. 2026): GRPO + lambda * c[role] per turn, whitened over the batch";
    }
    const std::vector<ParamSpec>& params() const override
    {
        static const std::vector<ParamSpec> specs = [] {
            const double inf = std::numeric_limits<double>::infinity();
            std::vector<ParamSpec> s {
                { "lambda", ParamType::Double, "0.2", 0.0, inf, {}, "weight of the role reward (TRIAGE Eq. 2)" },
                { "c.D", ParamType::Double, "1", -inf, inf, {}, "reward of role D, decisive progress (Eq. 3)" },
                { "c.E", ParamType::Double, "0.5", -inf, inf, {}, "reward of role E, useful exploration (Eq. 3)" },
                { "c.N", ParamType::Double, "-0.1", -inf, inf, {}, "reward of role N, no progress (Eq. 3)" },
                { "c.R", ParamType::Double, "-0.5", -inf, inf, {}, "reward of role R, regression (Eq. 3)" },
                { "whiten", ParamType::Bool, "true", {}, {}, {},
                    "subtract the batch mean over all turns, divide by batch std + eps (Eq. 4)" },
                { "unlabelled", ParamType::Choice, "error", {}, {}, { "error", "grpo" },
                    "a turn without a role (a judge that failed on it): refuse the batch, or no role correction "
                    "for that turn (lambda c = 0, pure GRPO; triage.md ambiguity 4)" },
            };
            for (ParamSpec& g : grpoParamSpecs())
                s.push_back(std::move(g));
            for (ParamSpec& w : whiteningParamSpecs())
                s.push_back(std::move(w));
            return withConventions(std::move(s), { "verl" });
        }();
        return specs;
    }
    void validate(const Batch& batch, const Params& params) const override
    {
        if (params.getChoice("unlabelled") == "error")
            requireTurnField(
                batch, "role", "triage (credit.unlabelled=grpo trains such turns without a role correction)");
    }
    Columns columns() const override { return Columns::Roles; }

protected:
    CreditResult computeColumns(const CreditBatch& batch, const Params& params) const override
    {
        CreditResult r(batch);
        const std::vector<double> grpo = grpoAdvantages(batch, params);
        const double lambda = params.getDouble("lambda");
        // Indexed by Role (D, E, N, R): TRIAGE Eq. 3, (c_D, c_E, c_N, c_R) = (1, 0.5, -0.1, -0.5) by default;
        // index 4 is a turn without a role (unlabelled=grpo), which gets no correction.
        const std::array<double, 5> c { params.getDouble("c.D"), params.getDouble("c.E"), params.getDouble("c.N"),
            params.getDouble("c.R"), 0.0 };

        r.details.reserve(4); // addDetail push_backs: keep the references below valid
        // Indexed by Role; "-" marks a turn without a role (unlabelled=grpo).
        double* roleCol = r.addTextDetail("role", { "D", "E", "N", "R", "-" }).numbers.data();
        double* cCol = r.addDetail("c").numbers.data();
        double* grpoCol = r.addDetail("grpo").numbers.data();
        std::vector<double>& raw = r.addDetail("raw").numbers;
        const std::vector<std::size_t>& offsets = batch.offsets();
        const std::span<const std::uint8_t> roles = batch.roles(); // present unless unlabelled=grpo
        for (std::size_t i = 0; i < batch.trajectoryCount(); ++i) {
            for (std::size_t k = offsets[i]; k < offsets[i + 1]; ++k) {
                const std::size_t role = roles[k] == CreditBatch::kNoRole ? 4 : roles[k];
                roleCol[k] = static_cast<double>(role);
                cCol[k] = c[role];
                grpoCol[k] = grpo[i];
                raw[k] = grpo[i] + lambda * c[role]; // TRIAGE Eq. 2
            }
        }
        if (params.getBool("whiten"))
            whitenInto(raw, r.advantages, whitening(params)); // TRIAGE Eq. 4
        else
            r.advantages = raw;
        return r;
    }
};

} // namespace

std::unique_ptr<Estimator> makeTriage() { return std::make_unique<Triage>(); }

} // namespace creditlab::credit
