// GiGPO: Group-in-Group Policy Optimization (Feng et al. 2025, arXiv 2505.10978), as verl-agent's
// gigpo/core_gigpo.py computes it (CONVENTIONS.md "gigpo"; notes in shared/methods/gigpo.md).
//
// Per group: an episode-relative advantage A_E from the episode scores (Eq. 3), anchor-state groups of the
// turns that share a state (Eq. 6), a step-relative advantage A_S from the discounted step returns inside
// each anchor group (Eqs. 5, 7), and A = A_E + step_weight * A_S (Eq. 8). States are grouped only within a
// group: the same state in two groups gives two anchor groups.
//
// Details per turn: `anchor` (the anchor group's id, 0, 1, ... numbered group after group in batch.groups
// order and by first appearance inside a group), `anchor_size` (its number of turns), `U`, `A_E`, `A_S`.
//
// Cost: exact matching hashes each turn's state key once, O(turns). Similarity clustering compares each
// new distinct state with the first member of every cluster of its group, so it is quadratic in the number
// of distinct states per group (each comparison a banded edit distance, O(length * allowed edits)).
#include "core/credit/common.h"
#include "core/credit/keyindex.h"
#include "core/credit/methods.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace creditlab::credit {

namespace {

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
            return std::vector<ParamSpec> {
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
            };
        }();
        return specs;
    }

    CreditResult compute(const Batch& batch, const Params& params) const override
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
                    const double rho = stepReward(t, k);
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

} // namespace

std::unique_ptr<Estimator> makeGigpo() { return std::make_unique<Gigpo>(); }

} // namespace creditlab::credit
