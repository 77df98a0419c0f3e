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
// Cost: O(turns) with hashed keys (rtmc.md §2.12: "two linear passes"), no allocation per turn.
#include "core/credit/common.h"
#include "core/credit/keyindex.h"
#include "core/credit/methods.h"

#include <cmath>
#include <limits>
#include <string>

namespace creditlab::credit {

namespace {

/// Below this population std the group's advantages are left unnormalised (CONVENTIONS.md "rtmc").
constexpr double kNormalizeFloor = 1e-8;

/// Appends actionKey(action) to `out` without a temporary string (same rules as common.cpp).
void appendActionKey(std::string& out, std::string_view action)
{
    const auto isSpace
        = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
    const std::size_t start = out.size();
    bool pendingSpace = false;
    for (char c : action) {
        if (isSpace(c)) {
            pendingSpace = out.size() > start;
            continue;
        }
        if (pendingSpace)
            out.push_back(' ');
        pendingSpace = false;
        out.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
    }
}

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

    CreditResult compute(const Batch& batch, const Params& params) const override
    {
        const double gamma = params.getDouble("gamma");
        const double kappa = params.getDouble("kappa");
        const bool normalize = params.getBool("normalize");

        CreditResult r(batch);
        r.details.reserve(6); // addDetail push_backs: keep the references below valid
        DetailColumn& nsaCol = r.addDetail("N_sa");
        DetailColumn& nsCol = r.addDetail("N_s");
        DetailColumn& qCol = r.addDetail("Q");
        DetailColumn& vCol = r.addDetail("V");
        DetailColumn& vpCol = r.addDetail("V_prime");
        DetailColumn& gCol = r.addDetail("G");

        // Reused across groups: no allocation per turn once they have grown to the largest group.
        KeyIndex<std::string_view> states;
        KeyIndex<std::string_view> actions;
        KeyIndex<std::uint64_t, MixHash> pairs;
        std::string actionArena; // the group's distinct action keys, back to back
        std::vector<std::size_t> flat; // the group's turns as indices into r.advantages
        std::vector<std::uint32_t> stateOf, pairOf; // parallel to flat
        std::vector<double> pairN, pairW, stateN, stateW;
        std::vector<std::uint32_t> pairLastVisit; // member index that last counted the pair

        for (const Group& g : batch.groups) {
            std::size_t n = 0;
            std::size_t actionBytes = 0;
            double successes = 0.0;
            for (std::size_t i : g.members) {
                const Trajectory& t = batch.trajectories[i];
                n += t.turns.size();
                for (const Turn& u : t.turns)
                    actionBytes += u.action.size();
                successes += successValue(t);
            }
            if (n == 0)
                continue;
            const double p = successes / static_cast<double>(g.members.size()); // p = mean_g S

            // Returns (Eq. 5) and the signatures of every turn.
            states.reset(n);
            actions.reset(n);
            pairs.reset(n);
            actionArena.clear();
            actionArena.reserve(actionBytes); // keys are never longer than the action: views stay valid
            flat.clear();
            stateOf.clear();
            pairOf.clear();
            for (std::size_t i : g.members) {
                const Trajectory& t = batch.trajectories[i];
                const std::size_t base = r.offsets[i];
                double running = 0.0;
                for (std::size_t k = t.turns.size(); k-- > 0;) {
                    running = stepReward(t, k) + gamma * running; // G_t = rho_t + gamma * G_{t+1}
                    gCol.numbers[base + k] = running;
                }
                for (std::size_t k = 0; k < t.turns.size(); ++k) {
                    const Turn& u = t.turns[k];
                    const std::uint32_t s = states.intern(u.stateKey());
                    const std::size_t start = actionArena.size();
                    appendActionKey(actionArena, u.action);
                    bool inserted = false;
                    const std::uint32_t a = actions.intern(
                        std::string_view(actionArena.data() + start, actionArena.size() - start), inserted);
                    if (!inserted)
                        actionArena.resize(start); // already stored: reuse the bytes
                    flat.push_back(base + k);
                    stateOf.push_back(s);
                    pairOf.push_back(pairs.intern((static_cast<std::uint64_t>(s) << 32) | a));
                }
            }

            // The table (Eq. 6), first visit only: a pair counts once per trajectory, with the return of
            // its first occurrence. N(s) and W(s) sum the same visits over the actions.
            pairN.assign(pairs.size(), 0.0);
            pairW.assign(pairs.size(), 0.0);
            stateN.assign(states.size(), 0.0);
            stateW.assign(states.size(), 0.0);
            pairLastVisit.assign(pairs.size(), KeyIndex<std::uint64_t>::kNone);
            std::size_t f = 0;
            for (std::uint32_t m = 0; m < g.members.size(); ++m) {
                const std::size_t turns = batch.trajectories[g.members[m]].turns.size();
                for (std::size_t k = 0; k < turns; ++k, ++f) {
                    const std::uint32_t pr = pairOf[f];
                    if (pairLastVisit[pr] == m)
                        continue;
                    pairLastVisit[pr] = m;
                    const double ret = gCol.numbers[flat[f]];
                    pairN[pr] += 1.0; // N(s,a) += 1
                    pairW[pr] += ret; // W(s,a) += G
                    stateN[stateOf[f]] += 1.0;
                    stateW[stateOf[f]] += ret;
                }
            }

            // Advantages: every turn reads the table, repeats included.
            double sumA = 0.0;
            for (std::size_t k = 0; k < n; ++k) {
                const std::size_t at = flat[k];
                const std::uint32_t pr = pairOf[k];
                const std::uint32_t s = stateOf[k];
                const double q = pairW[pr] / pairN[pr]; // Eq. 7: Q = W(s,a) / N(s,a)
                const double v = stateW[s] / stateN[s]; // Eq. 8: V = W(s) / N(s)
                const double vPrime = (stateN[s] * v + kappa * p) / (stateN[s] + kappa); // Eq. 11
                nsaCol.numbers[at] = pairN[pr];
                nsCol.numbers[at] = stateN[s];
                qCol.numbers[at] = q;
                vCol.numbers[at] = v;
                vpCol.numbers[at] = vPrime;
                r.advantages[at] = q - vPrime; // Eq. 9 with the smoothed V
                sumA += r.advantages[at];
            }

            // §3.3: divide by the population std over the group's (trajectory, turn) entries; no centring.
            if (normalize) {
                const double meanA = sumA / static_cast<double>(n);
                double ss = 0.0;
                for (std::size_t at : flat)
                    ss += (r.advantages[at] - meanA) * (r.advantages[at] - meanA);
                const double sigma = std::sqrt(ss / static_cast<double>(n));
                if (sigma >= kNormalizeFloor)
                    for (std::size_t at : flat)
                        r.advantages[at] /= sigma;
            }
        }
        return r;
    }
};

} // namespace

std::unique_ptr<Estimator> makeRtmc() { return std::make_unique<Rtmc>(); }

} // namespace creditlab::credit
