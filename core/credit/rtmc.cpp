// RTMC: Rollout-Tree Monte Carlo advantage (arXiv 2604.11037, "RTMC: Step-Level Credit Assignment via
// Rollout Trees"; CONVENTIONS.md "rtmc"; notes in shared/methods/rtmc.md). The paper's text lost its
// equation bodies; the equations cited here are the reconstructions of rtmc.md §2, tagged [R] there.
//
// Per group: a first-visit Monte Carlo table over (state key, action key) pairs gives Q(s,a) and V(s);
// V is shrunk toward the group success rate p, the step advantage is Q - V', and the group's advantages
// are optionally divided by their population std. The signatures are the turn's state key (`state`, or
// the observation) and its action key (CONVENTIONS.md: trimmed, whitespace collapsed, lower-cased), so
// "Go  North" and "go north" are one action. States and pairs are matched only within a group.
//
// Details per turn: `N_sa` and `N_s` (first-visit counts of the turn's pair and state), `Q`, `V`, `V_prime`
// (the smoothed V) and `G` (this turn's own return, which a repeated pair does not add to the table).
//
// Cost: O(turns) (rtmc.md §2.12: "two linear passes"), no allocation per turn. The keys are hashed once, when
// the CreditBatch is built: its (state, action) pair ids are batch-wide, and the table is indexed by them and
// cleared again after each group, so that pairs and states still match only within a group.
#include "core/credit/common.h"
#include "core/credit/methods.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>

namespace creditlab::credit {

namespace {

/// Below this population std the group's advantages are left unnormalised (CONVENTIONS.md "rtmc").
constexpr double kNormalizeFloor = 1e-8;

class Rtmc final : public Estimator {
public:
    std::string_view name() const override { return "rtmc"; }
    std::string_view summary() const override
    {
        return "RTMC (arXiv 2604.11037): first-visit MC Q(s,a) - prior-smoothed V(s) over the group's "
               "(state, action) table";
    }
    const std::vector<ParamSpec>& params() const override
    {
        static const std::vector<ParamSpec> specs = [] {
            const double inf = std::numeric_limits<double>::infinity();
            return std::vector<ParamSpec> {
                { "gamma", ParamType::Double, "1", 0.0, 1.0, {},
                    "discount of the returns G = rho + gamma * G_next (RTMC Eq. 5)" },
                { "kappa", ParamType::Double, "2", 0.0, inf, {},
                    "prior strength: V' = (N(s) V + kappa p) / (N(s) + kappa), p = group success rate (Eq. 11)" },
                { "normalize", ParamType::Bool, "true", {}, {}, {},
                    "divide the group's advantages by their population std, without centring (§3.3)" },
            };
        }();
        return specs;
    }

    Columns columns() const override
    {
        return Columns::StepRewards | Columns::States | Columns::Actions | Columns::Outcomes;
    }

protected:
    CreditResult computeColumns(const CreditBatch& batch, const Params& params) const override
    {
        const double gamma = params.getDouble("gamma");
        const double kappa = params.getDouble("kappa");
        const bool normalize = params.getBool("normalize");

        CreditResult r(batch);
        r.details.reserve(6); // addDetail push_backs: keep the references below valid
        double* nsaCol = r.addDetail("N_sa").numbers.data();
        double* nsCol = r.addDetail("N_s").numbers.data();
        double* qCol = r.addDetail("Q").numbers.data();
        double* vCol = r.addDetail("V").numbers.data();
        double* vpCol = r.addDetail("V_prime").numbers.data();
        double* gCol = r.addDetail("G").numbers.data();
        double* adv = r.advantages.data();
        const std::vector<std::size_t>& offsets = batch.offsets();
        const std::span<const double> rho = batch.stepRewards();
        const std::span<const double> success = batch.successes();
        const std::span<const std::uint32_t> stateOf = batch.stateIds();
        const std::span<const std::uint32_t> pairOf = batch.pairIds();

        // The table by batch-wide id; entries a group touched are zeroed again after it.
        std::vector<double> pairN(batch.pairCount(), 0.0), pairW(batch.pairCount(), 0.0);
        std::vector<double> stateN(batch.stateCount(), 0.0), stateW(batch.stateCount(), 0.0);
        // The visit (group member, numbered across the batch from 1) that last counted the pair.
        std::vector<std::size_t> pairLastVisit(batch.pairCount(), 0);
        std::size_t visit = 0;

        for (const Group& g : batch.groups()) {
            std::size_t n = 0;
            double successes = 0.0;
            for (std::size_t i : g.members) {
                n += offsets[i + 1] - offsets[i];
                successes += success[i];
            }
            if (n == 0)
                continue;
            const double p = successes / static_cast<double>(g.members.size()); // p = mean_g S

            // Returns (Eq. 5), then the table (Eq. 6), first visit only: a pair counts once per trajectory, with
            // the return of its first occurrence. N(s) and W(s) sum the same visits over the actions.
            for (std::size_t i : g.members) {
                ++visit;
                double running = 0.0;
                for (std::size_t k = offsets[i + 1]; k-- > offsets[i];) {
                    running = rho[k] + gamma * running; // G_t = rho_t + gamma * G_{t+1}
                    gCol[k] = running;
                }
                for (std::size_t k = offsets[i]; k < offsets[i + 1]; ++k) {
                    const std::uint32_t pr = pairOf[k];
                    if (pairLastVisit[pr] == visit)
                        continue;
                    pairLastVisit[pr] = visit;
                    pairN[pr] += 1.0; // N(s,a) += 1
                    pairW[pr] += gCol[k]; // W(s,a) += G
                    stateN[stateOf[k]] += 1.0;
                    stateW[stateOf[k]] += gCol[k];
                }
            }

            // Advantages: every turn reads the table, repeats included.
            double sumA = 0.0;
            for (std::size_t i : g.members) {
                for (std::size_t k = offsets[i]; k < offsets[i + 1]; ++k) {
                    const std::uint32_t pr = pairOf[k];
                    const std::uint32_t s = stateOf[k];
                    const double q = pairW[pr] / pairN[pr]; // Eq. 7: Q = W(s,a) / N(s,a)
                    const double v = stateW[s] / stateN[s]; // Eq. 8: V = W(s) / N(s)
                    const double vPrime = (stateN[s] * v + kappa * p) / (stateN[s] + kappa); // Eq. 11
                    nsaCol[k] = pairN[pr];
                    nsCol[k] = stateN[s];
                    qCol[k] = q;
                    vCol[k] = v;
                    vpCol[k] = vPrime;
                    adv[k] = q - vPrime; // Eq. 9 with the smoothed V
                    sumA += adv[k];
                }
            }
            for (std::size_t i : g.members) { // clear the group's entries for the next group
                for (std::size_t k = offsets[i]; k < offsets[i + 1]; ++k) {
                    pairN[pairOf[k]] = pairW[pairOf[k]] = 0.0;
                    stateN[stateOf[k]] = stateW[stateOf[k]] = 0.0;
                }
            }

            // §3.3: divide by the population std over the group's (trajectory, turn) entries; no centring.
            if (normalize) {
                const double meanA = sumA / static_cast<double>(n);
                double ss = 0.0;
                for (std::size_t i : g.members)
                    for (std::size_t k = offsets[i]; k < offsets[i + 1]; ++k)
                        ss += (adv[k] - meanA) * (adv[k] - meanA);
                const double sigma = std::sqrt(ss / static_cast<double>(n));
                if (sigma >= kNormalizeFloor)
                    for (std::size_t i : g.members)
                        for (std::size_t k = offsets[i]; k < offsets[i + 1]; ++k)
                            adv[k] /= sigma;
            }
        }
        return r;
    }
};

} // namespace

std::unique_ptr<Estimator> makeRtmc() { return std::make_unique<Rtmc>(); }

} // namespace creditlab::credit
