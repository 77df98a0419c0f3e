// gigpo, triage and step_reward as of commit 806d4cd (see credit_legacy.h).
#include "credit_legacy.h"

#include "core/credit/common.h"
#include "core/credit/keyindex.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

using namespace creditlab::credit;

namespace creditlab::test::legacy {

namespace gigpo_impl {

/// Absolute tolerance of the similarity test on the count scale, so that "2 edits in 10 characters
/// is similarity 0.8" holds at threshold 0.8 although 1 - 2/10 < 0.8 in binary floating point.
constexpr double kSimilarityTolerance = 1e-9;

/// Appends the Unicode code points of UTF-8 `text` to `out`. A byte that does not start a valid
/// sequence becomes 0x110000 + byte, a value no code point has, so it only equals the same bad byte.
void appendCodePoints(std::string_view text, std::u32string& out)
{
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char c = byte(i);
        const std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
        bool ok = len > 0 && i + len <= text.size();
        for (std::size_t k = 1; ok && k < len; ++k)
            ok = (byte(i + k) & 0xc0) == 0x80;
        if (!ok) {
            out.push_back(static_cast<char32_t>(0x110000 + c));
            ++i;
            continue;
        }
        char32_t cp = len == 1 ? c : len == 2 ? (c & 0x1f) : len == 3 ? (c & 0x0f) : (c & 0x07);
        for (std::size_t k = 1; k < len; ++k)
            cp = (cp << 6) | (byte(i + k) & 0x3f);
        out.push_back(cp);
        i += len;
    }
}

/// The Levenshtein distance (unit-cost insert, delete, substitute) between `a` and `b` when it is at
/// most `k`, else k + 1. Ukkonen's band: only cells with |i - j| <= k can hold a value <= k.
std::size_t boundedLevenshtein(std::u32string_view a, std::u32string_view b, std::size_t k,
    std::vector<std::size_t>& prev, std::vector<std::size_t>& cur)
{
    if (a.size() > b.size())
        std::swap(a, b);
    const std::size_t n = a.size();
    const std::size_t m = b.size();
    const std::size_t big = k + 1;
    if (m - n > k)
        return big;
    if (n == 0)
        return m;
    prev.resize(m + 1);
    cur.resize(m + 1);
    for (std::size_t j = 0; j <= m; ++j)
        prev[j] = std::min(j, big);
    for (std::size_t i = 1; i <= n; ++i) {
        const std::size_t lo = i > k ? i - k : 1;
        const std::size_t hi = std::min(m, i + k);
        cur[lo - 1] = lo == 1 ? std::min(i, big) : big;
        std::size_t rowMin = cur[lo - 1];
        for (std::size_t j = lo; j <= hi; ++j) {
            const std::size_t substitute = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            const std::size_t v = std::min({ substitute, prev[j] + 1, cur[j - 1] + 1, big });
            cur[j] = v;
            rowMin = std::min(rowMin, v);
        }
        if (hi < m)
            cur[hi + 1] = big; // the next row reads one cell past this band
        if (rowMin >= big)
            return big;
        std::swap(prev, cur);
    }
    return std::min(prev[m], big);
}

/// Greedy single-pass clustering of one group's states (core_gigpo.py build_step_group with
/// enable_similarity): a state joins the first cluster whose first member is similar enough, else it
/// starts a new cluster. Similarity of a and b, over Unicode code points:
///     sim(a, b) = 1 - lev(a, b) / max(|a|, |b|),   and sim = 1 for two empty strings;
/// a joins when sim >= threshold. verl-agent uses difflib's ratio() instead (CONVENTIONS.md).
class SimilarityClusters {
public:
    void reset(std::size_t expectedStates, double threshold)
    {
        m_threshold = threshold;
        m_exact.reset(expectedStates);
        m_clusterOfState.clear();
        m_points.clear();
        m_firstStart.clear();
        m_firstStart.push_back(0);
    }

    /// The cluster id (0, 1, ... in order of creation) of `state`, which must outlive reset().
    std::uint32_t assign(std::string_view state)
    {
        // A repeated state gets its first occurrence's cluster: clusters are only appended and their
        // first members never change, so the greedy scan would find the same cluster again.
        bool inserted = false;
        const std::uint32_t sid = m_exact.intern(state, inserted);
        if (!inserted)
            return m_clusterOfState[sid];
        m_candidate.clear();
        appendCodePoints(state, m_candidate);
        const std::uint32_t clusters = static_cast<std::uint32_t>(m_firstStart.size() - 1);
        std::uint32_t found = clusters;
        for (std::uint32_t c = 0; c < clusters && found == clusters; ++c) {
            const std::u32string_view first(m_points.data() + m_firstStart[c], m_firstStart[c + 1] - m_firstStart[c]);
            if (similar(m_candidate, first))
                found = c;
        }
        if (found == clusters) {
            m_points += m_candidate;
            m_firstStart.push_back(m_points.size());
        }
        m_clusterOfState.push_back(found);
        return found;
    }

private:
    bool similar(std::u32string_view a, std::u32string_view b)
    {
        const std::size_t longest = std::max(a.size(), b.size());
        if (longest == 0)
            return true;
        // sim >= t  <=>  longest - lev >= t * longest  <=>  lev <= longest - ceil(t * longest)
        const double need = std::ceil(m_threshold * static_cast<double>(longest) - kSimilarityTolerance);
        const std::size_t maxEdits = longest - std::min(longest, static_cast<std::size_t>(std::max(0.0, need)));
        return boundedLevenshtein(a, b, maxEdits, m_rowA, m_rowB) <= maxEdits;
    }

    double m_threshold = 0.0;
    KeyIndex<std::string_view> m_exact;
    std::vector<std::uint32_t> m_clusterOfState; ///< by m_exact id
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

class Gigpo {
public:

    CreditResult compute(const Batch& batch, const Params& params) const
    {
        const double gamma = params.getDouble("gamma");
        const bool divideByStd = params.getChoice("mode") == "mean_std_norm";
        const double stepWeight = params.getDouble("step_weight");
        const double threshold = params.getDouble("similarity");

        CreditResult r(batch);
        r.details.reserve(5); // addDetail push_backs: keep the references below valid
        DetailColumn& anchorCol = r.addDetail("anchor");
        DetailColumn& sizeCol = r.addDetail("anchor_size");
        DetailColumn& uCol = r.addDetail("U");
        DetailColumn& aeCol = r.addDetail("A_E");
        DetailColumn& asCol = r.addDetail("A_S");

        // Reused across groups: no allocation per turn once they have grown to the largest group.
        KeyIndex<std::string_view> exact;
        SimilarityClusters clusters;
        std::vector<std::size_t> flat; // the group's turns as indices into r.advantages
        std::vector<std::uint32_t> anchorOf; // parallel to flat
        std::vector<double> score; // s_i per member
        std::vector<std::size_t> count;
        std::vector<double> sum, squares;
        double anchorBase = 0.0; // anchors are numbered across the batch, group after group

        for (const Group& g : batch.groups) {
            // Step returns (Eq. 5, core_gigpo.py compute_step_discounted_returns) and episode scores.
            score.clear();
            flat.clear();
            double weightedSum = 0.0;
            for (std::size_t i : g.members) {
                const Trajectory& t = batch.trajectories[i];
                const std::size_t base = r.offsets[i];
                double running = 0.0;
                double s = 0.0;
                for (std::size_t k = t.turns.size(); k-- > 0;) {
                    const double rho = credit::stepReward(t, k);
                    running = rho + gamma * running; // U_{i,t} = rho_{i,t} + gamma * U_{i,t+1}
                    uCol.numbers[base + k] = running;
                    s += rho; // s_i = sum_t rho_{i,t}
                }
                score.push_back(s);
                weightedSum += static_cast<double>(t.turns.size()) * s;
                for (std::size_t k = 0; k < t.turns.size(); ++k)
                    flat.push_back(base + k);
            }
            const std::size_t n = flat.size();
            if (n == 0)
                continue;

            // Episode-relative advantage (Eq. 3, episode_norm_reward with compute_mean_std_cross_steps):
            // the list holds s_i once per turn of trajectory i; a list of one has mean 0 and std 1.
            double epMean = 0.0;
            double epStd = 1.0;
            if (n > 1) {
                epMean = weightedSum / static_cast<double>(n);
                double ss = 0.0;
                for (std::size_t m = 0; m < g.members.size(); ++m) {
                    const double d = score[m] - epMean;
                    ss += static_cast<double>(batch.trajectories[g.members[m]].turns.size()) * d * d;
                }
                epStd = std::sqrt(ss / static_cast<double>(n - 1)); // sample std (torch.std)
            }
            for (std::size_t m = 0; m < g.members.size(); ++m) {
                const double ae = normalise(score[m], epMean, epStd, divideByStd);
                const std::size_t i = g.members[m];
                std::fill(aeCol.numbers.begin() + r.offsets[i], aeCol.numbers.begin() + r.offsets[i + 1], ae);
            }

            // Anchor-state groups (Eq. 6, build_step_group): same state key within this group, across
            // trajectories and within one; or similarity clusters.
            anchorOf.resize(n);
            if (threshold > 0.0)
                clusters.reset(n, threshold);
            else
                exact.reset(n);
            std::size_t f = 0;
            for (std::size_t i : g.members)
                for (const Turn& u : batch.trajectories[i].turns)
                    anchorOf[f++] = threshold > 0.0 ? clusters.assign(u.stateKey()) : exact.intern(u.stateKey());
            const std::size_t anchors = 1 + *std::max_element(anchorOf.begin(), anchorOf.end());

            // Step-relative advantage (Eq. 7, step_norm_reward): normalise U within each anchor group;
            // a group of one gets mean = its own value and std = 1, hence 0.
            count.assign(anchors, 0);
            sum.assign(anchors, 0.0);
            squares.assign(anchors, 0.0);
            for (std::size_t k = 0; k < n; ++k) {
                ++count[anchorOf[k]];
                sum[anchorOf[k]] += uCol.numbers[flat[k]];
            }
            for (std::size_t a = 0; a < anchors; ++a)
                sum[a] /= static_cast<double>(count[a]); // now the mean
            for (std::size_t k = 0; k < n; ++k) {
                const double d = uCol.numbers[flat[k]] - sum[anchorOf[k]];
                squares[anchorOf[k]] += d * d;
            }
            for (std::size_t k = 0; k < n; ++k) {
                const std::uint32_t a = anchorOf[k];
                const std::size_t at = flat[k];
                double as = 0.0;
                if (count[a] > 1) {
                    const double sd = std::sqrt(squares[a] / static_cast<double>(count[a] - 1));
                    as = normalise(uCol.numbers[at], sum[a], sd, divideByStd);
                }
                anchorCol.numbers[at] = anchorBase + a;
                sizeCol.numbers[at] = static_cast<double>(count[a]);
                asCol.numbers[at] = as;
                r.advantages[at] = aeCol.numbers[at] + stepWeight * as; // Eq. 8
            }
            anchorBase += static_cast<double>(anchors);
        }
        return r;
    }
};

} // namespace gigpo_impl

namespace triage_impl {

class Triage {
public:
    void validate(const Batch& batch, const Params& params) const
    {
        if (params.getChoice("unlabelled") == "error")
            requireTurnField(batch, "role", "triage (credit.unlabelled=grpo trains such turns without a role correction)");
    }
    CreditResult compute(const Batch& batch, const Params& params) const
    {
        CreditResult r(batch);
        const std::vector<double> grpo = grpoAdvantages(batch, params);
        const double lambda = params.getDouble("lambda");
        // Indexed by Role (D, E, N, R): TRIAGE Eq. 3, (c_D, c_E, c_N, c_R) = (1, 0.5, -0.1, -0.5) by default.
        const std::array<double, 4> c { params.getDouble("c.D"), params.getDouble("c.E"), params.getDouble("c.N"),
            params.getDouble("c.R") };

        r.details.reserve(4); // addDetail push_backs: keep the references below valid
        // Indexed by Role; "-" marks a turn without a role (unlabelled=grpo).
        DetailColumn& roleCol = r.addTextDetail("role", { "D", "E", "N", "R", "-" });
        DetailColumn& cCol = r.addDetail("c");
        DetailColumn& grpoCol = r.addDetail("grpo");
        DetailColumn& rawCol = r.addDetail("raw");
        for (std::size_t i = 0; i < batch.trajectories.size(); ++i) {
            const Trajectory& t = batch.trajectories[i];
            const std::size_t base = r.offsets[i];
            for (std::size_t k = 0; k < t.turns.size(); ++k) {
                const std::optional<Role> role = t.turns[k].role; // present unless unlabelled=grpo
                const double ck = role ? c[static_cast<std::size_t>(*role)] : 0.0;
                roleCol.setLabel(base + k, role ? static_cast<std::size_t>(*role) : 4);
                cCol.numbers[base + k] = ck;
                grpoCol.numbers[base + k] = grpo[i];
                r.advantages[base + k] = grpo[i] + lambda * ck; // TRIAGE Eq. 2
            }
        }
        rawCol.numbers = r.advantages;
        if (params.getBool("whiten"))
            whiten(r.advantages); // TRIAGE Eq. 4
        return r;
    }
};

} // namespace triage_impl

namespace step_reward_impl {

/// Below this group std the returns are only centred, not divided (CONVENTIONS.md "step_reward").
constexpr double kStdFloor = 1e-8;

class StepRewardEstimator {
public:
    CreditResult compute(const Batch& batch, const Params& params) const
    {
        const double gamma = params.getDouble("gamma");
        CreditResult r(batch);
        std::vector<double>& returns = r.addDetail("G").numbers;

        // RTMC Eq. 5: G_{i,t} = rho_{i,t} + gamma * G_{i,t+1}, backwards over each trajectory.
        for (std::size_t i = 0; i < batch.trajectories.size(); ++i) {
            const Trajectory& traj = batch.trajectories[i];
            double g = 0.0;
            for (std::size_t t = traj.turns.size(); t-- > 0;) {
                g = credit::stepReward(traj, t) + gamma * g;
                returns[r.offsets[i] + t] = g;
            }
        }

        // Mean and sample std over the group's episode returns G_{j,1}; a trajectory without turns has
        // none and is left out.
        std::vector<double> episode;
        for (const Group& group : batch.groups) {
            episode.clear();
            for (std::size_t j : group.members)
                if (r.offsets[j + 1] > r.offsets[j])
                    episode.push_back(returns[r.offsets[j]]);
            const double m = mean(episode);
            const double sd = sampleStd(episode);
            for (std::size_t j : group.members)
                for (std::size_t k = r.offsets[j]; k < r.offsets[j + 1]; ++k)
                    r.advantages[k] = sd >= kStdFloor ? (returns[k] - m) / (sd + kEps) : returns[k] - m;
        }
        return r;
    }
};

} // namespace step_reward_impl

CreditResult gigpo(const Batch& batch, const Params& params) { return gigpo_impl::Gigpo {}.compute(batch, params); }
CreditResult triage(const Batch& batch, const Params& params) { return triage_impl::Triage {}.compute(batch, params); }
CreditResult stepReward(const Batch& batch, const Params& params)
{
    return step_reward_impl::StepRewardEstimator {}.compute(batch, params);
}

} // namespace creditlab::test::legacy
