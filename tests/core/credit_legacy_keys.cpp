// mgr, loop and rtmc as of commit 806d4cd (see credit_legacy.h).
#include "credit_legacy.h"

#include "core/credit/common.h"
#include "core/credit/keyindex.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <utility>

using namespace creditlab::credit;

namespace creditlab::test::legacy {

namespace mgr_impl {

enum class Gate { Stochastic, PerAction, Keep, Flip };

/// Fusion cases of MGR Eq. 7, as the `case` detail names them (G = R_global, L = R_local). Each name
/// is at most 15 characters, so that the text column stays inside std::string's small buffer.
enum class Case { Zero, SameSign, PosGNegL, NegGPosL };
constexpr std::string_view kCaseNames[] = { "zero", "same_sign", "pos_G_neg_L", "neg_G_pos_L" };

/// R_global (MGR Eq. 6) of every trajectory: m/(m-1) * (S_i - mean_g S), the leave-one-out score; a
/// group of one gives 0. Written as (m*S_i - k)/(m-1) with k successes, which is the same value and
/// is exactly 0 when k = 0 or k = m.
std::vector<double> globalRewards(const Batch& batch)
{
    std::vector<double> g(batch.trajectories.size(), 0.0);
    for (const Group& group : batch.groups) {
        const double m = static_cast<double>(group.members.size());
        if (group.members.size() < 2)
            continue;
        double k = 0.0;
        for (std::size_t i : group.members)
            k += successValue(batch.trajectories[i]);
        for (std::size_t i : group.members)
            g[i] = (m * successValue(batch.trajectories[i]) - k) / (m - 1.0);
    }
    return g;
}

bool isAsciiSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); } // space, \t \n \v \f \r

/// Walks the action key of a text (the same characters as actionKey()) without building a string.
class KeyCursor {
public:
    explicit KeyCursor(std::string_view text)
        : m_p(text.data())
        , m_end(text.data() + text.size())
    {
    }
    /// The next character of the key, or -1 at its end.
    int next()
    {
        if (m_pending >= 0)
            return std::exchange(m_pending, -1);
        bool sawSpace = false;
        while (m_p != m_end && isAsciiSpace(*m_p)) {
            ++m_p;
            sawSpace = true;
        }
        if (m_p == m_end)
            return -1; // trailing whitespace is trimmed
        unsigned char c = static_cast<unsigned char>(*m_p++);
        if (c >= 'A' && c <= 'Z')
            c = static_cast<unsigned char>(c - 'A' + 'a');
        if (sawSpace && m_started) {
            m_pending = c; // an inner whitespace run becomes one space
            return ' ';
        }
        m_started = true;
        return c;
    }

private:
    const char* m_p;
    const char* m_end;
    int m_pending = -1;
    bool m_started = false;
};

/// FNV-1a of the action key, computed in one tight pass over the raw text (the same rules as KeyCursor).
std::uint64_t keyHash(std::string_view action)
{
    constexpr std::uint64_t kPrime = 1099511628211ull;
    std::uint64_t h = 14695981039346656037ull;
    bool started = false, pendingSpace = false;
    for (char ch : action) {
        if (isAsciiSpace(ch)) {
            pendingSpace = started;
            continue;
        }
        if (pendingSpace)
            h = (h ^ static_cast<std::uint64_t>(' ')) * kPrime;
        pendingSpace = false;
        started = true;
        const unsigned char c = static_cast<unsigned char>(ch);
        h = (h ^ static_cast<std::uint64_t>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c)) * kPrime;
    }
    return h;
}

bool sameKey(std::string_view a, std::string_view b)
{
    if (a == b)
        return true; // the common case: a verbatim repeat
    KeyCursor x(a), y(b);
    for (;;) {
        const int c = x.next();
        if (c != y.next())
            return false;
        if (c < 0)
            return true;
    }
}

/// Reusable buffers for counting N_t, so that no turn allocates.
struct RepeatCounter {
    struct Entry {
        std::uint64_t hash;
        std::uint32_t turn;
        bool valid;
    };
    struct KeyClass {
        std::uint32_t firstTurn;
        std::uint32_t validCount;
    };
    std::vector<Entry> entries;
    std::vector<KeyClass> classes;

    /// N_t for every turn of `traj` into `n`: how many valid turns up to and including t have the
    /// action key of turn t (for an invalid turn: the earlier valid ones). Sorts (key hash, turn),
    /// then checks real key equality inside each run of equal hashes, so a hash collision cannot merge
    /// two different actions.
    void count(const Trajectory& traj, double* n)
    {
        const auto& turns = traj.turns;
        entries.clear();
        for (std::size_t t = 0; t < turns.size(); ++t)
            entries.push_back({ keyHash(turns[t].action), static_cast<std::uint32_t>(t), turns[t].validOrDefault() });
        std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.hash != b.hash ? a.hash < b.hash : a.turn < b.turn; });
        for (std::size_t b = 0; b < entries.size();) {
            std::size_t e = b + 1;
            while (e < entries.size() && entries[e].hash == entries[b].hash)
                ++e;
            classes.clear();
            for (std::size_t j = b; j < e; ++j) { // in turn order
                const std::uint32_t t = entries[j].turn;
                KeyClass* c = nullptr;
                for (KeyClass& k : classes)
                    if (sameKey(turns[k.firstTurn].action, turns[t].action)) {
                        c = &k;
                        break;
                    }
                if (!c)
                    c = &classes.emplace_back(KeyClass { t, 0 });
                if (entries[j].valid)
                    ++c->validCount;
                n[t] = static_cast<double>(c->validCount);
            }
            b = e;
        }
    }
};

/// MGR Eq. 7 (with the zero cases of CONVENTIONS.md): the sign comes from R_local, the size from
/// |R_global|; `gate` is consulted only in the neg_G_pos_L case.
double fuse(double local, double global, double gamma, double gate, Case& c)
{
    if (local == 0.0 || global == 0.0) {
        c = Case::Zero;
        return 0.0;
    }
    if ((local > 0.0) == (global > 0.0)) {
        c = Case::SameSign;
        return local * std::abs(global); // concordant; an invalid turn of a failed trajectory stays negative
    }
    if (global > 0.0) {
        c = Case::PosGNegL;
        return gamma * local * global; // dampened penalty in a successful trajectory
    }
    c = Case::NegGPosL;
    return gamma * gate * local * std::abs(global); // valid turn of a failed trajectory: gated sign
}

class Mgr {
public:
    CreditResult compute(const Batch& batch, const Params& params) const;
};

Gate gateMode(const std::string& name)
{
    if (name == "per_action")
        return Gate::PerAction;
    if (name == "keep")
        return Gate::Keep;
    if (name == "flip")
        return Gate::Flip;
    return Gate::Stochastic;
}

/// MGR Eq. 8: p_retain from the batch's mean success C and mean turn validity V. A value below 0 (a
/// large decay) acts as 0 in the gate, which keeps the sign when u < p_retain.
double retainProbability(const Batch& batch, const Params& params)
{
    double successes = 0.0, valid = 0.0, turns = 0.0;
    for (const Trajectory& t : batch.trajectories) {
        successes += successValue(t);
        for (const Turn& u : t.turns)
            valid += u.validOrDefault() ? 1.0 : 0.0;
        turns += static_cast<double>(t.turns.size());
    }
    const double c = batch.trajectories.empty() ? 0.0 : successes / static_cast<double>(batch.trajectories.size());
    const double v = turns == 0.0 ? 0.0 : valid / turns;
    if (v < params.getDouble("theta_V") || c < params.getDouble("theta_C1"))
        return 1.0;
    if (c < params.getDouble("theta_C2"))
        return 1.0 - params.getDouble("decay") * c;
    return params.getDouble("p_min");
}

CreditResult Mgr::compute(const Batch& batch, const Params& params) const
{
    const double beta = params.getDouble("beta");
    const double alpha = params.getDouble("alpha");
    const double q = static_cast<double>(params.getInt("q"));
    const double gamma = params.getDouble("gamma");
    const Gate gate = gateMode(params.getChoice("gate"));
    const double pRetain = retainProbability(batch, params);
    std::mt19937_64 rng(static_cast<std::uint64_t>(params.getInt("seed")));
    auto drawGate = [&] { return static_cast<double>(rng() >> 11) * 0x1.0p-53 < pRetain ? 1.0 : -1.0; };
    const std::vector<double> global = globalRewards(batch);

    CreditResult r(batch);
    constexpr const char* kNumeric[] = { "v", "N", "h_temp", "h_rep", "R_local", "R_global", "gate", "p_retain" };
    r.details.reserve(std::size(kNumeric) + 1);
    for (const char* name : kNumeric)
        r.addDetail(name);
    double* colV = r.details[0].numbers.data();
    double* colN = r.details[1].numbers.data();
    double* colTemp = r.details[2].numbers.data();
    double* colRep = r.details[3].numbers.data();
    double* colLocal = r.details[4].numbers.data();
    double* colGlobal = r.details[5].numbers.data();
    double* colGate = r.details[6].numbers.data(); // g where consulted (neg_G_pos_L), else 0
    std::fill(r.details[7].numbers.begin(), r.details[7].numbers.end(), pRetain);
    double* colCase = r.addTextDetail("case", std::vector<std::string>(std::begin(kCaseNames), std::end(kCaseNames)))
                          .numbers.data();

    RepeatCounter counter;
    for (std::size_t i = 0; i < batch.trajectories.size(); ++i) {
        const Trajectory& traj = batch.trajectories[i];
        const std::size_t off = r.offsets[i];
        const double g = global[i];
        double trajGate = gate == Gate::Flip ? -1.0 : 1.0;
        if (gate == Gate::Stochastic && successValue(traj) == 0.0)
            trajGate = drawGate(); // one draw per failed trajectory (MGR §3.4)
        counter.count(traj, colN + off);
        bool prevValid = true;
        for (std::size_t t = 0; t < traj.turns.size(); ++t) {
            const std::size_t k = off + t;
            const bool valid = traj.turns[t].validOrDefault();
            const double v = valid ? 1.0 : -1.0; // MGR Eq. 3, from the turn's `valid` field
            double hTemp = 0.0; // MGR §3.2.1 temporal term; there is no v_0, so 0 at t = 1
            if (t > 0 && valid && !prevValid)
                hTemp = beta;
            else if (t > 0 && !valid && prevValid)
                hTemp = -beta;
            const double hRep = valid && colN[k] > q ? -alpha * (colN[k] - q) : 0.0; // MGR Eq. 4
            const double local = v + hTemp + hRep; // MGR Eq. 5
            const double turnGate = gate == Gate::PerAction ? drawGate() : trajGate; // Alg. 1 line 28
            Case c;
            r.advantages[k] = fuse(local, g, gamma, turnGate, c);
            colV[k] = v;
            colTemp[k] = hTemp;
            colRep[k] = hRep;
            colLocal[k] = local;
            colGlobal[k] = g;
            colGate[k] = c == Case::NegGPosL ? turnGate : 0.0;
            colCase[k] = static_cast<double>(static_cast<int>(c)); // index into kCaseNames
            prevValid = valid;
        }
    }
    return r;
}

class Loop {
public:
    CreditResult compute(const Batch& batch, const Params&) const
    {
        CreditResult r(batch);
        const std::vector<double> global = globalRewards(batch); // MGR Eq. 6 = LOOP's advantage
        for (std::size_t i = 0; i < batch.trajectories.size(); ++i)
            std::fill(r.advantages.begin() + r.offsets[i], r.advantages.begin() + r.offsets[i + 1], global[i]);
        r.addDetail("G").numbers = r.advantages;
        return r;
    }
};

} // namespace mgr_impl

namespace rtmc_impl {

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

class Rtmc {
public:

    CreditResult compute(const Batch& batch, const Params& params) const
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
                    running = credit::stepReward(t, k) + gamma * running; // G_t = rho_t + gamma * G_{t+1}
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

} // namespace rtmc_impl

CreditResult mgr(const Batch& batch, const Params& params) { return mgr_impl::Mgr {}.compute(batch, params); }
CreditResult loop(const Batch& batch, const Params& params) { return mgr_impl::Loop {}.compute(batch, params); }
CreditResult rtmc(const Batch& batch, const Params& params) { return rtmc_impl::Rtmc {}.compute(batch, params); }

} // namespace creditlab::test::legacy
