// GiGPO: Group-in-Group Policy Optimization (Feng et al. 2025, arXiv 2505.10978), as verl-agent's
// gigpo/core_gigpo.py computes it (CONVENTIONS.md "gigpo"; notes in shared/methods/gigpo.md).
//
// Per group: an episode-relative advantage A_E from the episode scores (Eq. 3), anchor-state groups of the
// turns that share a state (Eq. 6), a step-relative advantage A_S from the discounted step returns inside
// each anchor group (Eqs. 5, 7), and A = A_E + step_weight * A_S (Eq. 8). States are grouped only within a
// group: the same state in two groups gives two anchor groups.
//
// Two of verl-agent's conventions are parameters (conventions=verl-agent sets both; docs/conventions.md):
// `invalid_penalty` (its invalid_action_penalty_coef, on the invalid turns' episode-score copies and step returns)
// and `anchor=observation` (anchor by the observation text even where a turn has a `state`).
//
// Details per turn: `anchor` (the anchor group's id, 0, 1, ... numbered group after group in batch.groups
// order and by first appearance inside a group), `anchor_size` (its number of turns), `U`, `A_E`, `A_S`.
//
// Cost: exact matching is O(turns) with no hashing: the CreditBatch interned the state keys once, when it was
// built, and a group maps those ids to its anchors through an array. Similarity clustering compares each
// new distinct state with the first member of every cluster of its group, so it is quadratic in the number
// of distinct states per group (each comparison a banded edit distance, O(length * allowed edits)).
#include "core/credit/common.h"
#include "core/credit/conventions.h"
#include "core/credit/keyindex.h"
#include "core/credit/methods.h"
#include "core/model/text.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>

namespace creditlab::credit {

namespace {

/// Greedy single-pass clustering of one group's states (core_gigpo.py build_step_group with
/// enable_similarity): a state joins the first cluster whose first member is similar enough, else it
/// starts a new cluster. Similarity of a and b, over Unicode code points:
///     sim(a, b) = 1 - lev(a, b) / max(|a|, |b|),   and sim = 1 for two empty strings;
/// a joins when sim >= threshold. verl-agent uses difflib's ratio() instead (CONVENTIONS.md).
class SimilarityClusters {
public:
    void reset(double threshold)
    {
        m_threshold = threshold;
        m_points.clear();
        m_firstStart.clear();
        m_firstStart.push_back(0);
    }

    /// The cluster id (0, 1, ... in order of creation) of a state new to this group. A repeated state gets
    /// its first occurrence's cluster, which the caller remembers: clusters are only appended and their first
    /// members never change, so the greedy scan would find the same cluster again.
    std::uint32_t assign(std::string_view state)
    {
        m_candidate.clear();
        text::appendCodePoints(state, m_candidate);
        const std::uint32_t clusters = static_cast<std::uint32_t>(m_firstStart.size() - 1);
        std::uint32_t found = clusters;
        for (std::uint32_t c = 0; c < clusters && found == clusters; ++c) {
            const std::u32string_view first(m_points.data() + m_firstStart[c], m_firstStart[c + 1] - m_firstStart[c]);
            if (text::similarAtLeast(m_candidate, first, m_threshold, m_rowA, m_rowB))
                found = c;
        }
        if (found == clusters) {
            m_points += m_candidate;
            m_firstStart.push_back(m_points.size());
        }
        return found;
    }

private:
    double m_threshold = 0.0;
    std::u32string m_points; ///< the first members of all clusters, back to back
    std::vector<std::size_t> m_firstStart; ///< cluster c's first member is m_points[start[c], start[c+1])
    std::u32string m_candidate;
    std::vector<std::size_t> m_rowA, m_rowB;
};

/// One value normalised within its list by `mode` (core_gigpo.py: remove_std is mode == mean_norm).
double normalise(double x, double mean, double std, bool divideByStd)
{
    return divideByStd ? (x - mean) / (std + kEps) : x - mean;
}

/// Episode-relative advantage of one group (Eq. 3, episode_norm_reward with compute_mean_std_cross_steps): the list
/// holds s_i once per turn of trajectory i (n entries, summing to `weightedSum`); a list of one has mean 0 and
/// std 1. Writes A_E onto every turn of the group.
void episodeAdvantages(const CreditBatch& batch, const Group& g, const std::vector<double>& score, std::size_t n,
    double weightedSum, bool divideByStd, double* aeCol)
{
    const std::vector<std::size_t>& offsets = batch.offsets();
    double epMean = 0.0;
    double epStd = 1.0;
    if (n > 1) {
        epMean = weightedSum / static_cast<double>(n);
        double ss = 0.0;
        for (std::size_t m = 0; m < g.members.size(); ++m) {
            const double d = score[m] - epMean;
            const std::size_t i = g.members[m];
            ss += static_cast<double>(offsets[i + 1] - offsets[i]) * d * d;
        }
        epStd = std::sqrt(ss / static_cast<double>(n - 1)); // sample std (torch.std)
    }
    for (std::size_t m = 0; m < g.members.size(); ++m) {
        const double ae = normalise(score[m], epMean, epStd, divideByStd);
        const std::size_t i = g.members[m];
        std::fill(aeCol + offsets[i], aeCol + offsets[i + 1], ae);
    }
}

/// The same with invalid_penalty > 0: verl-agent subtracts the penalty from each invalid step row's own copy of the
/// episode score (its token_level_scores) before episode_norm_reward, so the list holds s_i - penalty on the
/// invalid turns of trajectory i and s_i on the others, and A_E varies across the turns of one trajectory.
void penalisedEpisodeAdvantages(const CreditBatch& batch, const Group& g, const std::vector<double>& score,
    std::span<const std::uint8_t> valid, double penalty, bool divideByStd, double* aeCol)
{
    const std::vector<std::size_t>& offsets = batch.offsets();
    const auto entry = [&](std::size_t m, std::size_t k) { return score[m] - (valid[k] ? 0.0 : penalty); };
    std::size_t n = 0;
    double sum = 0.0;
    for (std::size_t m = 0; m < g.members.size(); ++m)
        for (std::size_t k = offsets[g.members[m]]; k < offsets[g.members[m] + 1]; ++k, ++n)
            sum += entry(m, k);
    double epMean = 0.0;
    double epStd = 1.0;
    if (n > 1) {
        epMean = sum / static_cast<double>(n);
        double ss = 0.0;
        for (std::size_t m = 0; m < g.members.size(); ++m)
            for (std::size_t k = offsets[g.members[m]]; k < offsets[g.members[m] + 1]; ++k)
                ss += (entry(m, k) - epMean) * (entry(m, k) - epMean);
        epStd = std::sqrt(ss / static_cast<double>(n - 1));
    }
    for (std::size_t m = 0; m < g.members.size(); ++m)
        for (std::size_t k = offsets[g.members[m]]; k < offsets[g.members[m] + 1]; ++k)
            aeCol[k] = normalise(entry(m, k), epMean, epStd, divideByStd);
}

class Gigpo final : public Estimator {
public:
    std::string_view name() const override { return "gigpo"; }
    std::string_view summary() const override
    {
        return "GiGPO (Feng et al. 2025): episode-relative + anchor-state step-relative advantage (verl-agent)";
    }
    const std::vector<ParamSpec>& params() const override
    {
        static const std::vector<ParamSpec> specs = [] {
            const double inf = std::numeric_limits<double>::infinity();
            std::vector<ParamSpec> s {
                { "gamma", ParamType::Double, "0.95", 0.0, 1.0, {},
                    "discount of the step returns U = rho + gamma * U_next (GiGPO Eq. 5)" },
                { "mode", ParamType::Choice, "mean_std_norm", {}, {}, { "mean_std_norm", "mean_norm" },
                    "mean_std_norm: (x - mean) / (std + eps); mean_norm: x - mean (Eqs. 3 and 7)" },
                { "step_weight", ParamType::Double, "1", -inf, inf, {},
                    "weight of the step advantage: A = A_E + step_weight * A_S (Eq. 8)" },
                // [0, 1): 1 would be exact matching, which 0 already selects.
                { "similarity", ParamType::Double, "0", 0.0, 1.0, {},
                    "0: exact state matching; in (0, 1): greedy clustering by 1 - edit distance / longer "
                    "length >= similarity (Eq. 6)",
                    false, /*maxExclusive=*/true },
                { "invalid_penalty", ParamType::Double, "0", 0.0, inf, {},
                    "subtracted, on each invalid turn, from that turn's copy of the episode score and from its step "
                    "return U (verl-agent's invalid_action_penalty_coef)" },
                { "anchor", ParamType::Choice, "state", {}, {}, { "state", "observation" },
                    "anchor states by the state key (the state field, else the observation) or always by the "
                    "observation text (verl-agent's anchor_obs)" },
            };
            return withConventions(std::move(s), { "verl-agent" });
        }();
        return specs;
    }

    Columns columns() const override { return Columns::StepRewards | Columns::States | Columns::Validity; }

protected:
    CreditResult computeColumns(const CreditBatch& batch, const Params& params) const override
    {
        const double gamma = params.getDouble("gamma");
        const bool divideByStd = params.getChoice("mode") == "mean_std_norm";
        const double stepWeight = params.getDouble("step_weight");
        const double threshold = params.getDouble("similarity");
        const double penalty = params.getDouble("invalid_penalty");

        CreditResult r(batch);
        r.details.reserve(5); // addDetail push_backs: keep the references below valid
        double* anchorCol = r.addDetail("anchor").numbers.data();
        double* sizeCol = r.addDetail("anchor_size").numbers.data();
        double* uCol = r.addDetail("U").numbers.data();
        double* aeCol = r.addDetail("A_E").numbers.data();
        double* asCol = r.addDetail("A_S").numbers.data();
        double* adv = r.advantages.data();
        const std::vector<std::size_t>& offsets = batch.offsets();
        const std::span<const double> rho = batch.stepRewards();
        const std::span<const std::uint8_t> valid = batch.valid();

        // Anchor keys: the batch's interned state keys, or (anchor=observation) the observation texts interned here.
        std::span<const std::uint32_t> stateOf = batch.stateIds();
        std::size_t stateCount = batch.stateCount();
        std::vector<std::uint32_t> observationIds;
        KeyIndex<std::string_view, StringHash> observations;
        const bool byObservation = params.getChoice("anchor") == "observation";
        if (byObservation) {
            observations.reset(1024);
            observationIds.reserve(batch.turnCount());
            for (const Trajectory& t : batch.source().trajectories)
                for (const Turn& u : t.turns)
                    observationIds.push_back(observations.intern(u.observation));
            stateOf = observationIds;
            stateCount = observations.size();
        }
        const auto anchorText
            = [&](std::uint32_t id) { return byObservation ? observations.key(id) : batch.stateText(id); };

        // Reused across groups: no allocation per turn once they have grown to the largest group.
        constexpr std::uint32_t kUnseen = 0xffffffffu;
        std::vector<std::uint32_t> anchorOfState(stateCount, kUnseen); // this group's anchor of a state id
        SimilarityClusters clusters;
        std::vector<std::uint32_t> anchorOf(batch.turnCount()); // by flat turn, written group by group
        std::vector<double> score; // s_i per member
        std::vector<std::size_t> count;
        std::vector<double> sum, squares;
        double anchorBase = 0.0; // anchors are numbered across the batch, group after group

        for (const Group& g : batch.groups()) {
            // Step returns (Eq. 5, core_gigpo.py compute_step_discounted_returns) and episode scores.
            score.clear();
            std::size_t n = 0;
            double weightedSum = 0.0;
            for (std::size_t i : g.members) {
                double running = 0.0;
                double s = 0.0;
                for (std::size_t k = offsets[i + 1]; k-- > offsets[i];) {
                    running = rho[k] + gamma * running; // U_{i,t} = rho_{i,t} + gamma * U_{i,t+1}
                    // verl-agent's apply_invalid_action_penalty subtracts from the step return once computed, so the
                    // penalty does not flow into earlier turns' returns.
                    uCol[k] = running - (valid[k] ? 0.0 : penalty);
                    s += rho[k]; // s_i = sum_t rho_{i,t}
                }
                score.push_back(s);
                const std::size_t turns = offsets[i + 1] - offsets[i];
                weightedSum += static_cast<double>(turns) * s;
                n += turns;
            }
            if (n == 0)
                continue;

            // Episode-relative advantage (Eq. 3, episode_norm_reward with compute_mean_std_cross_steps):
            // the list holds s_i once per turn of trajectory i; a list of one has mean 0 and std 1.
            if (penalty > 0.0)
                penalisedEpisodeAdvantages(batch, g, score, valid, penalty, divideByStd, aeCol);
            else
                episodeAdvantages(batch, g, score, n, weightedSum, divideByStd, aeCol);

            // Anchor-state groups (Eq. 6, build_step_group): same state key within this group, across
            // trajectories and within one, numbered by first appearance; or similarity clusters.
            if (threshold > 0.0)
                clusters.reset(threshold);
            std::uint32_t anchors = 0;
            for (std::size_t i : g.members) {
                for (std::size_t k = offsets[i]; k < offsets[i + 1]; ++k) {
                    std::uint32_t& a = anchorOfState[stateOf[k]];
                    if (a == kUnseen) {
                        a = threshold > 0.0 ? clusters.assign(anchorText(stateOf[k])) : anchors;
                        anchors = std::max(anchors, a + 1);
                    }
                    anchorOf[k] = a;
                }
            }

            // Step-relative advantage (Eq. 7, step_norm_reward): normalise U within each anchor group;
            // a group of one gets mean = its own value and std = 1, hence 0.
            count.assign(anchors, 0);
            sum.assign(anchors, 0.0);
            squares.assign(anchors, 0.0);
            for (std::size_t i : g.members) {
                for (std::size_t k = offsets[i]; k < offsets[i + 1]; ++k) {
                    ++count[anchorOf[k]];
                    sum[anchorOf[k]] += uCol[k];
                }
            }
            for (std::size_t a = 0; a < anchors; ++a)
                sum[a] /= static_cast<double>(count[a]); // now the mean
            for (std::size_t i : g.members) {
                for (std::size_t k = offsets[i]; k < offsets[i + 1]; ++k) {
                    const double d = uCol[k] - sum[anchorOf[k]];
                    squares[anchorOf[k]] += d * d;
                }
            }
            for (std::size_t i : g.members) {
                for (std::size_t k = offsets[i]; k < offsets[i + 1]; ++k) {
                    const std::uint32_t a = anchorOf[k];
                    double as = 0.0;
                    if (count[a] > 1) {
                        const double sd = std::sqrt(squares[a] / static_cast<double>(count[a] - 1));
                        as = normalise(uCol[k], sum[a], sd, divideByStd);
                    }
                    anchorCol[k] = anchorBase + a;
                    sizeCol[k] = static_cast<double>(count[a]);
                    asCol[k] = as;
                    adv[k] = aeCol[k] + stepWeight * as; // Eq. 8
                    anchorOfState[stateOf[k]] = kUnseen; // ready for the next group
                }
            }
            anchorBase += static_cast<double>(anchors);
        }
        return r;
    }
};

} // namespace

std::unique_ptr<Estimator> makeGigpo() { return std::make_unique<Gigpo>(); }

} // namespace creditlab::credit
