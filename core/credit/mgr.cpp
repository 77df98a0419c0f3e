// MGR: Multiplicative Gated Rewards ("Both Local Validity and Global Effectiveness Matter: Decoupled
// Credit Assignment for Long-Horizon Agentic Learning", anonymous ICLR submission; CONVENTIONS.md "mgr"),
// the paper's critic-free variant (advantage = R_final), and its LOOP baseline (CONVENTIONS.md "loop").
//
// Random draws (gate=stochastic and gate=per_action) are reproducible on every platform: the generator is
// std::mt19937_64 seeded with `seed` (its output sequence is fixed by the C++ standard), and a uniform
// u in [0, 1) is its top 53 bits times 2^-53. g = +1 when u < p_retain, else -1. Draw order:
// - stochastic: one draw per failed trajectory (S_i = 0), in batch order, whether or not the gate is then
//   consulted (it is only where G_i < 0 and L_t > 0). Successful trajectories draw nothing, so a
//   trajectory's gate depends only on the seed and on how many failed trajectories precede it.
// - per_action: one draw for every turn of the batch, in batch order (trajectory by trajectory, turn by
//   turn), consulted or not, so a turn's gate depends only on the seed and its flat position.
// - keep / flip: no draws.
//
// Detail arrays of mgr, one value per turn: v (+1/-1), N (valid turns so far, this one included, with this
// turn's action key; for an invalid turn, the earlier valid ones), h_temp, h_rep, R_local (L_t), R_global
// (G_i), case (zero | same_sign | pos_G_neg_L | neg_G_pos_L), gate (the g used on a neg_G_pos_L turn, +1 or
// -1; 0 on every other turn, where no gate is consulted) and p_retain (the batch's value on every turn).
// loop has one detail, G.
//
// The method reads a CreditBatch's validity and action-id columns: each action key is computed and interned once,
// when the batch is built, and N_t counts ids.
#include "core/credit/common.h"
#include "core/credit/conventions.h"
#include "core/credit/methods.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <random>
#include <span>

namespace creditlab::credit {

namespace {

enum class Gate { Stochastic, PerAction, Keep, Flip };

/// Fusion cases of MGR Eq. 7, as the `case` detail names them (G = R_global, L = R_local). Each name
/// is at most 15 characters, so that the text column stays inside std::string's small buffer.
enum class Case { Zero, SameSign, PosGNegL, NegGPosL };
constexpr std::string_view kCaseNames[] = { "zero", "same_sign", "pos_G_neg_L", "neg_G_pos_L" };

/// The leave-one-out score of every trajectory: m/(m-1) * (x_i - mean_g x), with x = `score` (MGR Eq. 6's R_global
/// with x = S; RLOO's advantage with x = R). A group of one gives 0, or x_i itself with `singletonPasses` (verl's
/// RLOO leaves a lone score as it is). Written as (m*x_i - k)/(m-1) with k = sum_g x, which is the same value and
/// is exactly 0 when every x of the group is the same 0 or 1.
std::vector<double> leaveOneOut(const CreditBatch& batch, std::span<const double> score, bool singletonPasses = false)
{
    std::vector<double> g(batch.trajectoryCount(), 0.0);
    for (const Group& group : batch.groups()) {
        const double m = static_cast<double>(group.members.size());
        if (group.members.size() == 1 && singletonPasses)
            g[group.members[0]] = score[group.members[0]];
        if (group.members.size() < 2)
            continue;
        double k = 0.0;
        for (std::size_t i : group.members)
            k += score[i];
        for (std::size_t i : group.members)
            g[i] = (m * score[i] - k) / (m - 1.0);
    }
    return g;
}

/// R_global (MGR Eq. 6): the leave-one-out success score.
std::vector<double> globalRewards(const CreditBatch& batch) { return leaveOneOut(batch, batch.successes()); }

/// N_t for every turn of one trajectory: how many valid turns up to and including t have the action key of
/// turn t (for an invalid turn: the earlier valid ones). The keys are the batch's interned action ids, so one
/// counter per id, zeroed again after the trajectory, replaces any string work.
class RepeatCounter {
public:
    explicit RepeatCounter(std::size_t actions)
        : m_count(actions, 0)
    {
    }
    /// Turns [begin, end) of the batch: their action ids and validity in, N_t out (into n[begin..end)).
    void count(const std::uint32_t* action, const std::uint8_t* valid, std::size_t begin, std::size_t end, double* n)
    {
        for (std::size_t k = begin; k < end; ++k) {
            std::uint32_t& c = m_count[action[k]];
            c += valid[k];
            n[k] = static_cast<double>(c);
        }
        for (std::size_t k = begin; k < end; ++k)
            m_count[action[k]] = 0;
    }

private:
    std::vector<std::uint32_t> m_count; ///< by action id; all 0 between trajectories
};

class Mgr final : public Estimator {
public:
    std::string_view name() const override { return "mgr"; }
    std::string_view summary() const override
    {
        return "MGR (Multiplicative Gated Rewards): validity sets the sign, leave-one-out success the size, "
               "a scheduled gate the sign of valid turns in failed trajectories";
    }
    const std::vector<ParamSpec>& params() const override
    {
        constexpr double inf = std::numeric_limits<double>::infinity();
        static const std::vector<ParamSpec> specs = {
            { "beta", ParamType::Double, "0.1", 0.0, inf, {}, "temporal recovery bonus / regression penalty" },
            { "alpha", ParamType::Double, "0.5", 0.0, inf, {}, "repetition penalty per repeat beyond q" },
            { "q", ParamType::Int, "2", 0.0, 1e9, {}, "repeats of a valid action that go unpenalised" },
            { "gamma", ParamType::Double, "1.0", 0.0, inf, {}, "scaling of the two sign-conflict cases" },
            { "gate", ParamType::Choice, "stochastic", {}, {}, { "stochastic", "per_action", "keep", "flip" },
                "sign of valid turns in failed trajectories: stochastic draws once per failed trajectory, "
                "per_action once per turn, keep is +1, flip is -1" },
            { "seed", ParamType::Int, "0", 0.0, 9007199254740991.0, {}, "seed of the gate's mt19937_64" },
            { "theta_V", ParamType::Double, "0.4", 0.0, 1.0, {}, "batch validity below which p_retain = 1" },
            { "theta_C1", ParamType::Double, "0.1", 0.0, 1.0, {}, "batch success below which p_retain = 1" },
            { "theta_C2", ParamType::Double, "0.6", 0.0, 1.0, {}, "batch success from which p_retain = p_min" },
            { "decay", ParamType::Double, "1.5", 0.0, inf, {}, "p_retain = 1 - decay*C between the thresholds" },
            { "p_min", ParamType::Double, "0.1", 0.0, 1.0, {}, "p_retain from theta_C2 on" },
        };
        return specs;
    }
    Columns columns() const override { return Columns::Validity | Columns::Actions | Columns::Outcomes; }

protected:
    CreditResult computeColumns(const CreditBatch& batch, const Params& params) const override;
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
double retainProbability(const CreditBatch& batch, const Params& params)
{
    double successes = 0.0;
    for (double s : batch.successes())
        successes += s;
    std::size_t validTurns = 0; // an exact count: the same value as summing 1.0 per valid turn
    for (std::uint8_t v : batch.valid())
        validTurns += v;
    const double valid = static_cast<double>(validTurns);
    const double turns = static_cast<double>(batch.turnCount());
    const double c = batch.trajectoryCount() == 0 ? 0.0 : successes / static_cast<double>(batch.trajectoryCount());
    const double v = turns == 0.0 ? 0.0 : valid / turns;
    if (v < params.getDouble("theta_V") || c < params.getDouble("theta_C1"))
        return 1.0;
    if (c < params.getDouble("theta_C2"))
        return 1.0 - params.getDouble("decay") * c;
    return params.getDouble("p_min");
}

CreditResult Mgr::computeColumns(const CreditBatch& batch, const Params& params) const
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

    const std::span<const std::uint8_t> validCol = batch.valid();
    const std::span<const double> success = batch.successes();
    RepeatCounter counter(batch.actionCount());
    for (std::size_t i = 0; i < batch.trajectoryCount(); ++i) {
        const std::size_t off = r.offsets[i];
        const std::size_t end = r.offsets[i + 1];
        const double g = global[i];
        double trajGate = gate == Gate::Flip ? -1.0 : 1.0;
        if (gate == Gate::Stochastic && success[i] == 0.0)
            trajGate = drawGate(); // one draw per failed trajectory (MGR §3.4)
        counter.count(batch.actionIds().data(), validCol.data(), off, end, colN);
        // MGR Eq. 7's case is decided by the signs of L_t and G_i; G_i is fixed per trajectory, and each turn's
        // terms are computed unconditionally and selected, since L_t's sign follows the turn's (random) validity.
        const bool gPositive = g > 0.0;
        const double absG = std::abs(g);
        const double gateScale = gamma * trajGate;
        bool prevValid = off < end && validCol[off] != 0; // no v_0: h_temp is 0 at t = 1
        for (std::size_t k = off; k < end; ++k) {
            const bool valid = validCol[k] != 0;
            const double v = valid ? 1.0 : -1.0; // MGR Eq. 3, from the turn's `valid` field
            // MGR §3.2.1 temporal term: +beta on a recovery, -beta on a regression.
            const double hTemp = valid == prevValid ? 0.0 : valid ? beta : -beta;
            const double hRep = valid && colN[k] > q ? -alpha * (colN[k] - q) : 0.0; // MGR Eq. 4
            const double local = v + hTemp + hRep; // MGR Eq. 5
            const double turnGate = gate == Gate::PerAction ? drawGate() : trajGate; // Alg. 1 line 28
            // MGR Eq. 7 (with the zero cases of CONVENTIONS.md): the sign comes from R_local, the size from
            // |R_global|; the gate is consulted only in the neg_G_pos_L case.
            const bool zero = local == 0.0 || g == 0.0;
            const Case c = zero              ? Case::Zero
                : (local > 0.0) == gPositive ? Case::SameSign
                : gPositive                  ? Case::PosGNegL
                                             : Case::NegGPosL;
            const double sameSign = local * absG; // concordant; an invalid turn of a failed trajectory stays negative
            const double posGNegL = gamma * local * g; // dampened penalty in a successful trajectory
            const double negGPosL = (gate == Gate::PerAction ? gamma * turnGate : gateScale) * local * absG;
            r.advantages[k] = c == Case::Zero ? 0.0
                : c == Case::SameSign         ? sameSign
                : c == Case::PosGNegL         ? posGNegL
                                              : negGPosL; // valid turn of a failed trajectory: gated sign
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

class Loop final : public Estimator {
public:
    std::string_view name() const override { return "loop"; }
    std::string_view summary() const override
    {
        return "LOOP (MGR's baseline): the leave-one-out success score m/(m-1)*(S - mean S) on every turn; verl's "
               "RLOO with conventions=verl";
    }
    const std::vector<ParamSpec>& params() const override
    {
        static const std::vector<ParamSpec> specs = withConventions(
            {
                { "binarize", ParamType::Bool, "true", {}, {}, {},
                    "score success (1/0), as MGR's LOOP; false: the reward, as verl's RLOO" },
                singletonParamSpec(),
            },
            { "verl" });
        return specs;
    }
    Columns columns() const override { return Columns::Outcomes; }

protected:
    CreditResult computeColumns(const CreditBatch& batch, const Params& params) const override
    {
        CreditResult r(batch);
        // MGR Eq. 6 = LOOP's advantage; on the reward, verl's compute_rloo_outcome_advantage.
        const std::vector<double> global = leaveOneOut(
            batch, params.getBool("binarize") ? batch.successes() : batch.rewards(), singletonPasses(params));
        for (std::size_t i = 0; i < batch.trajectoryCount(); ++i)
            std::fill(r.advantages.begin() + r.offsets[i], r.advantages.begin() + r.offsets[i + 1], global[i]);
        r.addDetail("G").numbers = r.advantages;
        return r;
    }
};

} // namespace

std::unique_ptr<Estimator> makeMgr() { return std::make_unique<Mgr>(); }
std::unique_ptr<Estimator> makeLoop() { return std::make_unique<Loop>(); }

} // namespace creditlab::credit
