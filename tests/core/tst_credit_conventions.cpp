// Trainer conventions (docs/conventions.md, core/credit/conventions.h): under each preset, each convention on which
// the peer's code differs from CreditLab's default, with the peer's number worked out by hand; explicit keys
// override the preset; an unknown preset is refused naming the key and the known presets.
//
// Peers read: verl b178a3c (verl/trainer/ppo/core_algos.py, verl/utils/torch_functional.py) and verl-agent d0b9724
// (verl/trainer/ppo/ray_trainer.py apply_invalid_action_penalty, gigpo/core_gigpo.py).
#include "core/credit/conventions.h"
#include "core/credit/estimator.h"
#include "credittestutil.h"

#include <QtTest/QTest>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

using namespace creditlab;
using namespace creditlab::credit;
using creditlab::test::compareValues;
using creditlab::test::runMethod;

namespace {

struct Step {
    Step(std::string obs, std::optional<std::string> st = {}, bool v = true, std::optional<Role> r = {})
        : observation(std::move(obs))
        , state(std::move(st))
        , valid(v)
        , role(r)
    {
    }
    std::string observation;
    std::optional<std::string> state;
    bool valid = true;
    std::optional<Role> role;
};

Trajectory traj(const std::string& id, const std::string& group, double reward, const std::vector<Step>& steps)
{
    Trajectory t;
    t.id = id;
    t.group = group;
    t.reward = reward;
    for (const Step& s : steps) {
        Turn u;
        u.observation = s.observation;
        u.state = s.state;
        u.action = "act";
        if (!s.valid)
            u.valid = false;
        u.role = s.role;
        t.turns.push_back(u);
    }
    return t;
}

Batch batchOf(std::vector<Trajectory> trajectories) { return Batch::fromTrajectories(std::move(trajectories)); }

/// One turn per trajectory, all valid: enough for the outcome methods.
Batch outcomes(const std::vector<std::pair<std::string, double>>& groupAndReward)
{
    std::vector<Trajectory> ts;
    for (std::size_t i = 0; i < groupAndReward.size(); ++i)
        ts.push_back(traj("t" + std::to_string(i + 1), groupAndReward[i].first, groupAndReward[i].second, { { "o" } }));
    return batchOf(std::move(ts));
}

std::string refusal(const std::string& method, const QStringList& sets)
{
    try {
        requireEstimator(method).resolve(creditlab::test::assignments(sets));
    } catch (const ParamError& e) {
        return e.what();
    }
    return "(accepted)";
}

} // namespace

class TestCreditConventions : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void singletonGroup_data();
    void singletonGroup();
    void rlooScore_data();
    void rlooScore();
    void whiteningEpsilon_data();
    void whiteningEpsilon();
    void invalidActionPenalty_data();
    void invalidActionPenalty();
    void anchorObservation_data();
    void anchorObservation();
    void presetValues();
    void explicitKeysOverride();
    void unknownPresetRefused();
};

// Batch: t1 alone in group "solo" (R = 0.8); t2, t3 in group "pair" (R = 1, 0).
// The pair: mean 0.5, sample std sqrt(0.5) = 0.70710678, so A = +-0.5 / (0.70710678 + 1e-6) = +-0.70710578 in
// every row. The lone t1:
// - creditlab: a group of one gives 0.
// - verl, compute_grpo_outcome_advantage: len(id2score) == 1 sets mean 0, std 1, so A = (0.8 - 0) / (1 + 1e-6)
//   = 0.79999920; with norm_adv_by_std_in_grpo false, 0.8 - 0 = 0.8.
// - verl, compute_rloo_outcome_advantage: response_num == 1 leaves the score as it is, 0.8 (loop, whose pair is
//   m/(m-1) (x - mean) = 2 (1 - 0.5) = 1 and -1).
void TestCreditConventions::singletonGroup_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<QStringList>("sets");
    QTest::addColumn<QList<double>>("expected");
    const double pair = 0.5 / (std::sqrt(0.5) + 1e-6);
    QTest::newRow("grpo creditlab") << "grpo" << QStringList {} << QList<double> { 0.0, pair, -pair };
    QTest::newRow("grpo verl") << "grpo" << QStringList { "conventions=verl" }
                               << QList<double> { 0.8 / (1.0 + 1e-6), pair, -pair };
    QTest::newRow("grpo verl norm_std=false")
        << "grpo" << QStringList { "conventions=verl", "norm_std=false" } << QList<double> { 0.8, 0.5, -0.5 };
    QTest::newRow("loop creditlab") << "loop" << QStringList {} << QList<double> { 0.0, 1.0, -1.0 };
    QTest::newRow("loop verl") << "loop" << QStringList { "conventions=verl" } << QList<double> { 0.8, 1.0, -1.0 };
}

void TestCreditConventions::singletonGroup()
{
    QFETCH(QString, method);
    QFETCH(QStringList, sets);
    QFETCH(QList<double>, expected);
    const Batch batch = outcomes({ { "solo", 0.8 }, { "pair", 1.0 }, { "pair", 0.0 } });
    compareValues(runMethod(method.toStdString(), batch, sets).advantages, expected, 1e-12);
}

// One group: R = 0.8, 0.2, 0 (success, by default R > 0: 1, 1, 0); m = 3.
// - creditlab, loop on success: k = 2, G = (3 S - 2) / 2 = 0.5, 0.5, -1.
// - verl, compute_rloo_outcome_advantage on the score: x m/(m-1) - mean m/(m-1) with mean 1/3:
//   0.8 * 1.5 - 0.5 = 0.7, 0.2 * 1.5 - 0.5 = -0.2, 0 - 0.5 = -0.5.
void TestCreditConventions::rlooScore_data()
{
    QTest::addColumn<QStringList>("sets");
    QTest::addColumn<QList<double>>("expected");
    QTest::newRow("creditlab") << QStringList {} << QList<double> { 0.5, 0.5, -1.0 };
    QTest::newRow("verl") << QStringList { "conventions=verl" } << QList<double> { 0.7, -0.2, -0.5 };
}

void TestCreditConventions::rlooScore()
{
    QFETCH(QStringList, sets);
    QFETCH(QList<double>, expected);
    const Batch batch = outcomes({ { "g", 0.8 }, { "g", 0.2 }, { "g", 0.0 } });
    compareValues(runMethod("loop", batch, sets).advantages, expected, 1e-12);
}

// triage, one group: t1 (R = 1) with roles D, R; t2 (R = 1) with role N. Equal rewards make the GRPO part 0, so the
// raw values are lambda c[role] = 0.2 * (1, -0.5, -0.1) = (0.2, -0.1, -0.02). Mean 0.08 / 3 = 0.0266667; deviations
// 0.1733333, -0.1266667, -0.0466667; sum of squares 0.0482667; sample variance 0.0241333; std 0.15534907.
// - creditlab: (x - mean) / (std + 1e-6): 0.1733333 / 0.15535007 = 1.11575961, -0.81536279, -0.30039682.
// - verl, masked_whiten: (x - mean) * rsqrt(var + 1e-8), var Bessel-corrected: 0.1733333 / sqrt(0.02413334333)
//   = 1.11576656, -0.81536787, -0.30039869.
// scalar_judge and value_baseline share the whitening; scalar_judge with score 1, 0.25, 0.45 gives
// lambda (2 score - 1) = (0.2, -0.1, -0.02), the same raw values.
void TestCreditConventions::whiteningEpsilon_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<QStringList>("sets");
    QTest::addColumn<QList<double>>("expected");
    const QList<double> creditlab { 1.1157596138252648, -0.8153627947184628, -0.3003968191068021 };
    const QList<double> verl { 1.1157665649323918, -0.815367874373671, -0.30039869055872087 };
    QTest::newRow("triage creditlab") << "triage" << QStringList {} << creditlab;
    QTest::newRow("triage verl") << "triage" << QStringList { "conventions=verl" } << verl;
    QTest::newRow("scalar_judge creditlab") << "scalar_judge" << QStringList {} << creditlab;
    QTest::newRow("scalar_judge verl") << "scalar_judge" << QStringList { "conventions=verl" } << verl;
}

void TestCreditConventions::whiteningEpsilon()
{
    QFETCH(QString, method);
    QFETCH(QStringList, sets);
    QFETCH(QList<double>, expected);
    Batch batch = batchOf({ traj("t1", "g", 1.0, { { "a", {}, true, Role::D }, { "b", {}, true, Role::R } }),
        traj("t2", "g", 1.0, { { "a", {}, true, Role::N } }) });
    const double scores[] = { 1.0, 0.25, 0.45 };
    std::size_t k = 0;
    for (Trajectory& t : batch.trajectories)
        for (Turn& u : t.turns)
            u.score = scores[k++];
    compareValues(runMethod(method.toStdString(), batch, sets).advantages, expected, 1e-12);
}

// gigpo, mode=mean_norm (x - mean, so the numbers are exact), gamma 0.95. One group:
//   t1 (R = 1): states s0 (valid), s1 (invalid);  t2 (R = 0): states s0, s1 (valid).
// rho: t1 (0, 1), t2 (0, 0). U: t1 (0.95, 1), t2 (0, 0). Episode scores s = 1, 0.
// - creditlab: episode list (1, 1, 0, 0), mean 0.5: A_E = 0.5, 0.5, -0.5, -0.5. Anchor s0 {0.95, 0}, mean 0.475:
//   +-0.475; s1 {1, 0}, mean 0.5: +-0.5. A = 0.975, 1.0, -0.975, -1.0.
// - verl-agent, apply_invalid_action_penalty with coef 0.1 on t1's second step row: its token_level_scores copy of
//   the episode score becomes 0.9 and its step return (already discounted) 0.9. Episode list (1, 0.9, 0, 0), mean
//   0.475: A_E = 0.525, 0.425, -0.475, -0.475. Anchor s0 {0.95, 0}: +-0.475; s1 {0.9, 0}, mean 0.45: +-0.45.
//   A = 1.0, 0.875, -0.95, -0.925. (t1's first return stays 0.95: the penalty is not discounted back.)
// - verl-agent with mode=mean_std_norm: the episode list's deviations 0.525, 0.425, -0.475, -0.475 give a sample
//   variance 0.9075 / 3 = 0.3025, std 0.55, so A_E = dev / 0.550001. Anchor s0 {0.95, 0}: std 0.475 sqrt(2), A_S =
//   +-0.475 / (0.475 sqrt(2) + 1e-6); s1 {0.9, 0}: +-0.45 / (0.45 sqrt(2) + 1e-6).
void TestCreditConventions::invalidActionPenalty_data()
{
    QTest::addColumn<QStringList>("sets");
    QTest::addColumn<QList<double>>("expected");
    QTest::newRow("creditlab") << QStringList { "mode=mean_norm" } << QList<double> { 0.975, 1.0, -0.975, -1.0 };
    QTest::newRow("verl-agent") << QStringList { "conventions=verl-agent", "mode=mean_norm" }
                                << QList<double> { 1.0, 0.875, -0.95, -0.925 };
    const double e = 0.55 + 1e-6;
    const double s0 = 0.475 / (0.475 * std::sqrt(2.0) + 1e-6);
    const double s1 = 0.45 / (0.45 * std::sqrt(2.0) + 1e-6);
    QTest::newRow("verl-agent mean_std_norm")
        << QStringList { "conventions=verl-agent" }
        << QList<double> { 0.525 / e + s0, 0.425 / e + s1, -0.475 / e - s0, -0.475 / e - s1 };
}

void TestCreditConventions::invalidActionPenalty()
{
    QFETCH(QStringList, sets);
    QFETCH(QList<double>, expected);
    const Batch batch = batchOf(
        { traj("t1", "g", 1.0, { { "s0" }, { "s1", {}, false } }), traj("t2", "g", 0.0, { { "s0" }, { "s1" } }) });
    compareValues(runMethod("gigpo", batch, sets).advantages, expected, 1e-12);
}

// gigpo, mode=mean_norm, one group: t1 (R = 1) and t2 (R = 0), one turn each, both observing "room" but with
// states "x1" and "x2". Episode list (1, 0), mean 0.5: A_E = +-0.5. U = 1, 0.
// - creditlab anchors by the state key: two anchors of one turn, A_S = 0, A = 0.5, -0.5.
// - verl-agent's build_step_group groups anchor_obs (the observation): one anchor {1, 0}, mean 0.5, A_S = +-0.5,
//   A = 1, -1.
void TestCreditConventions::anchorObservation_data()
{
    QTest::addColumn<QStringList>("sets");
    QTest::addColumn<QList<double>>("expected");
    QTest::newRow("creditlab") << QStringList { "mode=mean_norm" } << QList<double> { 0.5, -0.5 };
    QTest::newRow("verl-agent") << QStringList { "conventions=verl-agent", "mode=mean_norm" }
                                << QList<double> { 1.0, -1.0 };
}

void TestCreditConventions::anchorObservation()
{
    QFETCH(QStringList, sets);
    QFETCH(QList<double>, expected);
    const Batch batch = batchOf({ traj("t1", "g", 1.0, { { "room", std::string("x1") } }),
        traj("t2", "g", 0.0, { { "room", std::string("x2") } }) });
    const CreditResult r = runMethod("gigpo", batch, sets);
    compareValues(r.advantages, expected, 1e-12);
    const DetailColumn* anchor = r.detail("anchor");
    QVERIFY(anchor);
    QCOMPARE(anchor->numbers[0] == anchor->numbers[1], sets.contains("conventions=verl-agent"));
}

void TestCreditConventions::presetValues()
{
    // The preset only sets the keys a method declares.
    const auto canonical = [](const char* method, const QStringList& sets) {
        return requireEstimator(method).resolve(creditlab::test::assignments(sets)).canonical();
    };
    QCOMPARE(canonical("grpo", { "conventions=verl" }),
        std::string("binarize=false,conventions=verl,norm_std=true,singleton=pass"));
    QCOMPARE(canonical("loop", { "conventions=verl" }), std::string("binarize=false,conventions=verl,singleton=pass"));
    QCOMPARE(canonical("gigpo", { "conventions=verl-agent" }),
        std::string("anchor=observation,conventions=verl-agent,gamma=0.95,invalid_penalty=0.1,mode=mean_std_norm,"
                    "similarity=0,step_weight=1"));
    QCOMPARE(canonical("gigpo", { "conventions=creditlab" }),
        std::string("anchor=state,conventions=creditlab,gamma=0.95,invalid_penalty=0,mode=mean_std_norm,"
                    "similarity=0,step_weight=1"));
    QVERIFY(
        canonical("triage", { "conventions=verl" }).find("whiten_eps=1e-08,whiten_eps_on=var") != std::string::npos);
    // Methods without a peer convention take no preset.
    QVERIFY(refusal("rtmc", { "conventions=verl" }).find("unknown parameter 'conventions'") != std::string::npos);
}

void TestCreditConventions::explicitKeysOverride()
{
    const Batch batch = outcomes({ { "solo", 0.8 }, { "pair", 1.0 }, { "pair", 0.0 } });
    const double pair = 0.5 / (std::sqrt(0.5) + 1e-6);
    // An explicit key wins over the preset, before or after it.
    compareValues(runMethod("grpo", batch, QStringList { "conventions=verl", "singleton=zero" }).advantages,
        { 0.0, pair, -pair }, 1e-12);
    compareValues(runMethod("grpo", batch, QStringList { "singleton=zero", "conventions=verl" }).advantages,
        { 0.0, pair, -pair }, 1e-12);
    // The rest of the preset still applies: loop scores the reward with a lone success kept at 0.
    compareValues(runMethod("loop", batch, QStringList { "conventions=verl", "singleton=zero" }).advantages,
        { 0.0, 1.0, -1.0 }, 1e-12);
    // A key can also be set on its own without a preset.
    compareValues(runMethod("grpo", batch, QStringList { "singleton=pass" }).advantages,
        { 0.8 / (1.0 + 1e-6), pair, -pair }, 1e-12);
    // The verl-agent penalty at another coefficient (invalidActionPenalty's batch, t1's invalid turn): episode list
    // (1, 0.95, 0, 0), mean 0.4875: A_E = 0.5125, 0.4625, -0.4875, -0.4875; s1 {0.95, 0}: +-0.475; s0 +-0.475.
    const Batch penalised = batchOf(
        { traj("t1", "g", 1.0, { { "s0" }, { "s1", {}, false } }), traj("t2", "g", 0.0, { { "s0" }, { "s1" } }) });
    compareValues(runMethod("gigpo", penalised,
                      QStringList { "conventions=verl-agent", "mode=mean_norm", "invalid_penalty=0.05" })
                      .advantages,
        { 0.9875, 0.9375, -0.9625, -0.9625 }, 1e-12);
    // The last conventions= wins, as for any key.
    QCOMPARE(requireEstimator("grpo")
                 .resolve(creditlab::test::assignments({ "conventions=verl", "conventions=creditlab" }))
                 .getChoice("singleton"),
        std::string("zero"));
}

void TestCreditConventions::unknownPresetRefused()
{
    QCOMPARE(refusal("grpo", { "conventions=openrlhf" }),
        std::string("parameter 'conventions' of method grpo: expected one of creditlab|verl, got 'openrlhf'"));
    QCOMPARE(refusal("gigpo", { "conventions=verl" }),
        std::string("parameter 'conventions' of method gigpo: expected one of creditlab|verl-agent, got 'verl'"));
    QCOMPARE(refusal("loop", { "conventions=" }),
        std::string("parameter 'conventions' of method loop: expected one of creditlab|verl, got ''"));
    // A bad per-parameter key is refused as before, preset or not.
    QCOMPARE(refusal("grpo", { "conventions=verl", "singleton=keep" }),
        std::string("parameter 'singleton' of method grpo: expected one of zero|pass, got 'keep'"));
}

QTEST_GUILESS_MAIN(TestCreditConventions)
#include "tst_credit_conventions.moc"
