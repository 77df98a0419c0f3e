// MGR and its LOOP baseline (CONVENTIONS.md "mgr", "loop"): the worked example of mgr.md §2.9, the
// leave-one-out R_global, the sign truth table of Eq. 7, the p_retain schedule of Eq. 8, the gate's draw
// order and determinism, repetition counting by action key, edge cases and parameter errors.
#include "core/credit/common.h"
#include "core/credit/estimator.h"
#include "core/model/text.h"
#include "credittestutil.h"

#include <QtTest/QTest>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace creditlab;
using namespace creditlab::credit;

namespace {

/// `prefix` followed by `n` (avoids GCC 12's false -Wrestrict on "literal" + std::string).
std::string numbered(std::string prefix, int n) { return prefix.append(std::to_string(n)); }

struct Step {
    std::string action;
    bool valid = true;
};

/// A trajectory with one turn per step; `valid` is left absent (default true) for valid steps.
Trajectory makeTraj(const std::string& id, const std::string& group, bool success, const std::vector<Step>& steps)
{
    Trajectory t;
    t.id = id;
    t.group = group;
    t.reward = success ? 1.0 : 0.0;
    t.success = success;
    for (const Step& s : steps) {
        Turn u;
        u.observation = "obs";
        u.action = s.action;
        if (!s.valid)
            u.valid = false;
        t.turns.push_back(u);
    }
    return t;
}

/// One valid turn.
Trajectory filler(const std::string& id, const std::string& group, bool success)
{
    return makeTraj(id, group, success, { { "noop" } });
}

CreditResult run(const std::string& method, const Batch& batch,
    const std::vector<std::pair<std::string, std::string>>& assignments = {})
{
    return test::runMethod(method, batch, assignments);
}

double num(const CreditResult& r, const char* name, std::size_t traj, std::size_t turn)
{
    const DetailColumn* c = r.detail(name);
    return c ? c->numbers.at(r.offsets[traj] + turn) : std::nan("");
}

QString label(const CreditResult& r, const char* name, std::size_t traj, std::size_t turn)
{
    const DetailColumn* c = r.detail(name);
    return c ? QString::fromStdString(std::string(c->text(r.offsets[traj] + turn))) : QStringLiteral("<missing>");
}

/// The uniform draw the gate documents: the top 53 bits of std::mt19937_64, times 2^-53.
double uniform(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

} // namespace

#define CL_NEAR(actual, expected)                                                                                      \
    do {                                                                                                               \
        const double a_ = (actual), e_ = (expected);                                                                   \
        QVERIFY2(std::abs(a_ - e_) < 1e-9,                                                                             \
            qPrintable(QStringLiteral("%1 = %2, expected %3").arg(#actual).arg(a_, 0, 'g', 17).arg(e_, 0, 'g', 17)));  \
    } while (false)

class TestCreditMgr : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void registered()
    {
        QVERIFY(findEstimator("mgr"));
        QVERIFY(findEstimator("loop"));
        const auto& all = estimators();
        const auto pos
            = [&](std::string_view n) { return std::find(all.begin(), all.end(), findEstimator(n)) - all.begin(); };
        QVERIFY(pos("mgr") < pos("loop"));
    }

    void defaults()
    {
        const Params p = requireEstimator("mgr").resolve({});
        QCOMPARE(p.getDouble("beta"), 0.1);
        QCOMPARE(p.getDouble("alpha"), 0.5);
        QCOMPARE(p.getInt("q"), 2LL);
        QCOMPARE(p.getDouble("gamma"), 1.0);
        QVERIFY(p.getChoice("gate") == "stochastic");
        QCOMPARE(p.getInt("seed"), 0LL);
        QCOMPARE(p.getDouble("theta_V"), 0.4);
        QCOMPARE(p.getDouble("theta_C1"), 0.1);
        QCOMPARE(p.getDouble("theta_C2"), 0.6);
        QCOMPARE(p.getDouble("decay"), 1.5);
        QCOMPARE(p.getDouble("p_min"), 0.1);
        QCOMPARE(requireEstimator("loop").resolve({}).canonical(),
            std::string("binarize=true,conventions=creditlab,singleton=zero"));
    }

    // mgr.md §2.9: m = 8, k = 3; the sequence A, B(invalid), C, A, A, A, A in a successful and in a failed
    // trajectory. Exact values to 1e-9, and the table's printed 4-decimal values to their rounding.
    void workedExample_data()
    {
        QTest::addColumn<int>("turn");
        QTest::addColumn<double>("v");
        QTest::addColumn<double>("n");
        QTest::addColumn<double>("hTemp");
        QTest::addColumn<double>("hRep");
        QTest::addColumn<double>("local");
        QTest::addColumn<QString>("successCase");
        QTest::addColumn<double>("successPrinted");
        QTest::addColumn<QString>("failCase");
        QTest::addColumn<double>("failKeepPrinted");
        QTest::addColumn<double>("failFlipPrinted");
        QTest::newRow("t1 A") << 0 << 1.0 << 1.0 << 0.0 << 0.0 << 1.0 << "same_sign" << 0.7143 << "neg_G_pos_L"
                              << 0.4286 << -0.4286;
        QTest::newRow("t2 B invalid") << 1 << -1.0 << 0.0 << -0.1 << 0.0 << -1.1 << "pos_G_neg_L" << -0.7857
                                      << "same_sign" << -0.4714 << -0.4714;
        QTest::newRow("t3 C") << 2 << 1.0 << 1.0 << 0.1 << 0.0 << 1.1 << "same_sign" << 0.7857 << "neg_G_pos_L"
                              << 0.4714 << -0.4714;
        QTest::newRow("t4 A") << 3 << 1.0 << 2.0 << 0.0 << 0.0 << 1.0 << "same_sign" << 0.7143 << "neg_G_pos_L"
                              << 0.4286 << -0.4286;
        QTest::newRow("t5 A") << 4 << 1.0 << 3.0 << 0.0 << -0.5 << 0.5 << "same_sign" << 0.3571 << "neg_G_pos_L"
                              << 0.2143 << -0.2143;
        QTest::newRow("t6 A") << 5 << 1.0 << 4.0 << 0.0 << -1.0 << 0.0 << "zero" << 0.0 << "zero" << 0.0 << 0.0;
        QTest::newRow("t7 A") << 6 << 1.0 << 5.0 << 0.0 << -1.5 << -0.5 << "pos_G_neg_L" << -0.3571 << "same_sign"
                              << -0.2143 << -0.2143;
    }

    void workedExample()
    {
        QFETCH(int, turn);
        QFETCH(double, v);
        QFETCH(double, n);
        QFETCH(double, hTemp);
        QFETCH(double, hRep);
        QFETCH(double, local);
        QFETCH(QString, successCase);
        QFETCH(double, successPrinted);
        QFETCH(QString, failCase);
        QFETCH(double, failKeepPrinted);
        QFETCH(double, failFlipPrinted);

        const std::vector<Step> seq = { { "A" }, { "B", false }, { "C" }, { "A" }, { "A" }, { "A" }, { "A" } };
        std::vector<Trajectory> ts = { makeTraj("succ", "g", true, seq), makeTraj("fail", "g", false, seq) };
        for (int k = 0; k < 2; ++k)
            ts.push_back(filler(numbered("s", k), "g", true));
        for (int k = 0; k < 4; ++k)
            ts.push_back(filler(numbered("f", k), "g", false));
        const Batch batch = Batch::fromTrajectories(ts);
        const std::size_t t = static_cast<std::size_t>(turn);
        const double gSucc = 5.0 / 7.0, gFail = -3.0 / 7.0;

        const CreditResult keep = run("mgr", batch, { { "gate", "keep" } });
        const CreditResult flip = run("mgr", batch, { { "gate", "flip" } });
        for (std::size_t i : { 0u, 1u }) {
            CL_NEAR(num(keep, "v", i, t), v);
            CL_NEAR(num(keep, "N", i, t), n);
            CL_NEAR(num(keep, "h_temp", i, t), hTemp);
            CL_NEAR(num(keep, "h_rep", i, t), hRep);
            CL_NEAR(num(keep, "R_local", i, t), local);
        }
        CL_NEAR(num(keep, "R_global", 0, t), gSucc);
        CL_NEAR(num(keep, "R_global", 1, t), gFail);
        QVERIFY(std::abs(gSucc - 0.7143) < 5e-5 && std::abs(gFail + 0.4286) < 5e-5);

        // Success trajectory: the gate plays no part.
        QCOMPARE(label(keep, "case", 0, t), successCase);
        const double succExpected = local * gSucc; // same_sign: L*|G|; pos_G_neg_L: gamma*L*G, gamma = 1
        CL_NEAR(keep.at(0, t), succExpected);
        CL_NEAR(flip.at(0, t), succExpected);
        QVERIFY(std::abs(keep.at(0, t) - successPrinted) < 5e-5 + 1e-12);
        QCOMPARE(num(keep, "gate", 0, t), 0.0);

        // Failed trajectory: g = +1 (keep) and g = -1 (flip) on valid turns.
        QCOMPARE(label(keep, "case", 1, t), failCase);
        const bool gated = failCase == "neg_G_pos_L";
        const double failAbs = failCase == "zero" ? 0.0 : local * std::abs(gFail);
        CL_NEAR(keep.at(1, t), failAbs);
        CL_NEAR(flip.at(1, t), gated ? -failAbs : failAbs);
        QVERIFY(std::abs(keep.at(1, t) - failKeepPrinted) < 5e-5 + 1e-12);
        QVERIFY(std::abs(flip.at(1, t) - failFlipPrinted) < 5e-5 + 1e-12);
        QCOMPARE(num(keep, "gate", 1, t), gated ? 1.0 : 0.0);
        QCOMPARE(num(flip, "gate", 1, t), gated ? -1.0 : 0.0);
    }

    // mgr.md §2.4: a success gets (m-k)/(m-1), a failure -k/(m-1); k = 0 or k = m gives 0. LOOP is the same.
    void globalLeaveOneOut_data()
    {
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("k");
        QTest::addColumn<double>("success");
        QTest::addColumn<double>("failure");
        QTest::addColumn<double>("successPrinted");
        QTest::addColumn<double>("failurePrinted");
        QTest::newRow("ALFWorld k=1") << 8 << 1 << 1.0 << -1.0 / 7 << 1.0 << -0.1429;
        QTest::newRow("ALFWorld k=3") << 8 << 3 << 5.0 / 7 << -3.0 / 7 << 0.7143 << -0.4286;
        QTest::newRow("ALFWorld k=7") << 8 << 7 << 1.0 / 7 << -1.0 << 0.1429 << -1.0;
        QTest::newRow("AppWorld k=1") << 6 << 1 << 1.0 << -0.2 << 1.0 << -0.2;
        QTest::newRow("AppWorld k=3") << 6 << 3 << 0.6 << -0.6 << 0.6 << -0.6;
        QTest::newRow("all fail") << 8 << 0 << 0.0 << 0.0 << 0.0 << 0.0;
        QTest::newRow("all succeed") << 8 << 8 << 0.0 << 0.0 << 0.0 << 0.0;
        QTest::newRow("group of one, success") << 1 << 1 << 0.0 << 0.0 << 0.0 << 0.0;
        QTest::newRow("group of one, failure") << 1 << 0 << 0.0 << 0.0 << 0.0 << 0.0;
    }

    void globalLeaveOneOut()
    {
        QFETCH(int, m);
        QFETCH(int, k);
        QFETCH(double, success);
        QFETCH(double, failure);
        QFETCH(double, successPrinted);
        QFETCH(double, failurePrinted);
        QVERIFY(std::abs(success - successPrinted) < 5e-5 && std::abs(failure - failurePrinted) < 5e-5);
        std::vector<Trajectory> ts;
        for (int i = 0; i < m; ++i)
            ts.push_back(makeTraj(numbered("t", i), "g", i < k, { { "a" }, { "b" } }));
        const Batch batch = Batch::fromTrajectories(ts);
        const CreditResult mgr = run("mgr", batch, { { "gate", "keep" } });
        const CreditResult loop = run("loop", batch);
        double sum = 0.0;
        for (int i = 0; i < m; ++i) {
            const std::size_t ix = static_cast<std::size_t>(i);
            const double expected = i < k ? success : failure;
            sum += num(mgr, "R_global", ix, 0);
            for (std::size_t t = 0; t < 2; ++t) {
                CL_NEAR(num(mgr, "R_global", ix, t), expected);
                CL_NEAR(loop.at(ix, t), expected);
                CL_NEAR(num(loop, "G", ix, t), expected);
                // Two distinct valid actions: L = 1, so the fused value is +|G| (keep) or 0.
                CL_NEAR(mgr.at(ix, t), std::abs(expected));
                if (expected == 0.0)
                    QCOMPARE(label(mgr, "case", ix, t), QStringLiteral("zero"));
            }
        }
        CL_NEAR(sum, 0.0); // zero-sum over the group
    }

    // MGR Eq. 7 over sign(L) x sign(G), with gamma = 0.5 so that the conflict cases show their scaling.
    void signTruthTable_data()
    {
        QTest::addColumn<int>("localSign");
        QTest::addColumn<int>("globalSign");
        QTest::addColumn<QString>("gate");
        QTest::addColumn<double>("expected");
        QTest::addColumn<QString>("fusionCase");
        QTest::addColumn<double>("gateDetail");
        for (const char* gate : { "keep", "flip" }) {
            const bool keep = std::string(gate) == "keep";
            auto row = [&](const char* name, int l, int g, double expected, const char* c, double gd) {
                QTest::addRow("%s, %s", name, gate) << l << g << QString(gate) << expected << QString(c) << gd;
            };
            row("L+ G+", 1, 1, 1.0, "same_sign", 0.0);
            row("L+ G-", 1, -1, keep ? 0.5 : -0.5, "neg_G_pos_L", keep ? 1.0 : -1.0);
            row("L+ G0", 1, 0, 0.0, "zero", 0.0);
            row("L- G+", -1, 1, -0.5, "pos_G_neg_L", 0.0);
            row("L- G-", -1, -1, -1.0, "same_sign", 0.0);
            row("L- G0", -1, 0, 0.0, "zero", 0.0);
            row("L0 G+", 0, 1, 0.0, "zero", 0.0);
            row("L0 G-", 0, -1, 0.0, "zero", 0.0);
            row("L0 G0", 0, 0, 0.0, "zero", 0.0);
        }
    }

    void signTruthTable()
    {
        QFETCH(int, localSign);
        QFETCH(int, globalSign);
        QFETCH(QString, gate);
        QFETCH(double, expected);
        QFETCH(QString, fusionCase);
        QFETCH(double, gateDetail);
        // L = +1: one valid turn; L = -1: one invalid turn; L = 0: the fourth valid "go" (1 - 0.5 * (4 - 2)).
        std::vector<Step> steps;
        if (localSign > 0)
            steps = { { "go" } };
        else if (localSign < 0)
            steps = { { "go", false } };
        else
            steps = { { "go" }, { "go" }, { "go" }, { "go" } };
        // G = +1: success beside a failure; G = -1: failure beside a success; G = 0: both succeed.
        const bool subjectSucceeds = globalSign >= 0;
        const bool partnerSucceeds = globalSign <= 0;
        const Batch batch = Batch::fromTrajectories(
            { makeTraj("subject", "g", subjectSucceeds, steps), filler("partner", "g", partnerSucceeds) });
        const CreditResult r = run("mgr", batch, { { "gate", gate.toStdString() }, { "gamma", "0.5" } });
        const std::size_t last = steps.size() - 1;
        CL_NEAR(num(r, "R_local", 0, last), static_cast<double>(localSign));
        CL_NEAR(num(r, "R_global", 0, last), static_cast<double>(globalSign));
        CL_NEAR(r.at(0, last), expected);
        QCOMPARE(label(r, "case", 0, last), fusionCase);
        QCOMPARE(num(r, "gate", 0, last), gateDetail);
    }

    // MGR Eq. 8 through the estimator: 100 one-turn trajectories with `successes` successes and `valid` valid turns.
    void retainSchedule_data()
    {
        QTest::addColumn<int>("successes");
        QTest::addColumn<int>("valid");
        QTest::addColumn<QStringList>("settings");
        QTest::addColumn<double>("expected");
        const QStringList none;
        QTest::newRow("pRetain(0.3, 0.8) = 0.55") << 30 << 80 << none << 0.55;
        QTest::newRow("pRetain(0.3, 0.3) = 1: V < theta_V") << 30 << 30 << none << 1.0;
        QTest::newRow("pRetain(0.7, 0.9) = 0.1: p_min") << 70 << 90 << none << 0.1;
        QTest::newRow("C = 0.05 < theta_C1") << 5 << 100 << none << 1.0;
        QTest::newRow("C = 0 < theta_C1") << 0 << 100 << none << 1.0;
        QTest::newRow("C = theta_C1 = 0.1") << 10 << 100 << none << 0.85;
        QTest::newRow("C = 0.2") << 20 << 100 << none << 0.7;
        QTest::newRow("C = 0.3") << 30 << 100 << none << 0.55;
        QTest::newRow("C = 0.4") << 40 << 100 << none << 0.4;
        QTest::newRow("C = 0.5") << 50 << 100 << none << 0.25;
        QTest::newRow("C = 0.59") << 59 << 100 << none << 0.115;
        QTest::newRow("C = theta_C2 = 0.6") << 60 << 100 << none << 0.1;
        QTest::newRow("C = 1") << 100 << 100 << none << 0.1;
        QTest::newRow("V = theta_V = 0.4 uses the schedule") << 30 << 40 << none << 0.55;
        QTest::newRow("V = 0.39 < theta_V") << 30 << 39 << none << 1.0;
        QTest::newRow("V < theta_V beats high C") << 90 << 10 << none << 1.0;
        QTest::newRow("theta_V=0.9") << 30 << 80 << QStringList { "theta_V", "0.9" } << 1.0;
        QTest::newRow("decay=1") << 30 << 80 << QStringList { "decay", "1" } << 0.7;
        QTest::newRow("p_min=0.25") << 70 << 80 << QStringList { "p_min", "0.25" } << 0.25;
        QTest::newRow("theta_C1=0") << 5 << 80 << QStringList { "theta_C1", "0" } << 0.925;
        QTest::newRow("theta_C2=0.2") << 30 << 80 << QStringList { "theta_C2", "0.2" } << 0.1;
    }

    void retainSchedule()
    {
        QFETCH(int, successes);
        QFETCH(int, valid);
        QFETCH(QStringList, settings);
        QFETCH(double, expected);
        std::vector<Trajectory> ts;
        for (int i = 0; i < 100; ++i)
            ts.push_back(makeTraj(numbered("t", i), "g", i < successes, { { "a", i < valid } }));
        std::vector<std::pair<std::string, std::string>> set;
        for (qsizetype i = 0; i + 1 < settings.size(); i += 2)
            set.emplace_back(settings[i].toStdString(), settings[i + 1].toStdString());
        const CreditResult r = run("mgr", Batch::fromTrajectories(ts), set);
        for (std::size_t i = 0; i < 100; ++i)
            CL_NEAR(num(r, "p_retain", i, 0), expected);
    }

    // Stochastic gate: one draw per failed trajectory (S = 0) in batch order, consulted or not; the same
    // sign on every gated turn of a trajectory; reproducible for a seed, different for another.
    void stochasticGate()
    {
        std::vector<Trajectory> ts;
        for (int g = 0; g < 50; ++g) {
            const std::string group = numbered("g", g);
            for (int i = 0; i < 10; ++i) // 3 successes, 7 failures: C = 0.3, V ~ 1, p_retain = 0.55
                ts.push_back(
                    makeTraj(group + numbered("-", i), group, i < 3, { { "look" }, { "take mug" }, { "go to desk" } }));
        }
        // Failed trajectories whose gate is never consulted still draw: one in an all-fail group (G = 0)
        // and one whose only turn is invalid (L < 0); both sit early in the batch.
        ts.insert(ts.begin() + 3, makeTraj("allfail", "lonely", false, { { "look" } }));
        ts.insert(ts.begin() + 5, makeTraj("invalid", "g0", false, { { "oops", false } }));
        const Batch batch = Batch::fromTrajectories(ts);
        const CreditResult a = run("mgr", batch);
        const double p = num(a, "p_retain", 0, 0);
        QVERIFY(p > 0.2 && p < 0.9);

        for (std::uint64_t seed : { 0ull, 1ull, 987654321ull }) {
            const CreditResult r = run("mgr", batch, { { "seed", std::to_string(seed) } });
            std::mt19937_64 rng(seed);
            int kept = 0, flipped = 0;
            for (std::size_t i = 0; i < batch.trajectories.size(); ++i) {
                const Trajectory& t = batch.trajectories[i];
                if (*t.success)
                    continue;
                const double g = uniform(rng) < p ? 1.0 : -1.0;
                for (std::size_t k = 0; k < t.turns.size(); ++k) {
                    const bool gated = label(r, "case", i, k) == "neg_G_pos_L";
                    QCOMPARE(num(r, "gate", i, k), gated ? g : 0.0);
                    if (gated)
                        CL_NEAR(r.at(i, k), g * std::abs(num(r, "R_global", i, k)));
                }
                if (label(r, "case", i, 0) == "neg_G_pos_L")
                    (g > 0 ? kept : flipped) += 1;
            }
            QVERIFY(kept > 0 && flipped > 0);
            const double share = static_cast<double>(kept) / (kept + flipped);
            QVERIFY2(std::abs(share - p) < 0.12, qPrintable(QString::number(share)));
        }
        const CreditResult again = run("mgr", batch);
        QVERIFY(again.advantages == a.advantages);
        QVERIFY(run("mgr", batch, { { "seed", "1" } }).advantages != a.advantages);
    }

    void stochasticExtremes()
    {
        // C = 0 < theta_C1: p_retain = 1 keeps every sign; C >= theta_C2 with p_min = 0 flips every sign.
        std::vector<Trajectory> ts;
        for (int i = 0; i < 20; ++i)
            ts.push_back(makeTraj(numbered("t", i), numbered("g", i / 10), i == 0, { { "a" } }));
        CreditResult r = run("mgr", Batch::fromTrajectories(ts));
        CL_NEAR(num(r, "p_retain", 0, 0), 1.0);
        for (std::size_t i = 1; i < 10; ++i)
            QCOMPARE(num(r, "gate", i, 0), 1.0);
        for (int i = 0; i < 20; ++i)
            ts[static_cast<std::size_t>(i)].success = i % 10 != 9;
        r = run("mgr", Batch::fromTrajectories(ts), { { "p_min", "0" } });
        CL_NEAR(num(r, "p_retain", 0, 0), 0.0);
        QCOMPARE(num(r, "gate", 9, 0), -1.0);
        QCOMPARE(num(r, "gate", 19, 0), -1.0);
    }

    // per_action: one draw for every turn of the batch in batch order, consulted or not.
    void perActionGate()
    {
        std::vector<Trajectory> ts;
        std::vector<Step> longRun;
        for (int k = 0; k < 60; ++k)
            longRun.push_back({ numbered("step ", k), k % 7 != 3 });
        for (int g = 0; g < 4; ++g) {
            const std::string group = numbered("g", g);
            ts.push_back(makeTraj(group + "s", group, true, { { "a" }, { "b" } }));
            ts.push_back(makeTraj(group + "f", group, false, longRun));
            ts.push_back(makeTraj(group + "f2", group, false, { { "a" }, { "a" }, { "a" }, { "a" }, { "a" } }));
        }
        const Batch batch = Batch::fromTrajectories(ts);
        for (std::uint64_t seed : { 0ull, 42ull }) {
            const CreditResult r = run("mgr", batch, { { "gate", "per_action" }, { "seed", std::to_string(seed) } });
            const double p = num(r, "p_retain", 0, 0);
            std::mt19937_64 rng(seed);
            int kept = 0, flipped = 0;
            for (std::size_t i = 0; i < batch.trajectories.size(); ++i)
                for (std::size_t k = 0; k < batch.trajectories[i].turns.size(); ++k) {
                    const double g = uniform(rng) < p ? 1.0 : -1.0;
                    const bool gated = label(r, "case", i, k) == "neg_G_pos_L";
                    QCOMPARE(num(r, "gate", i, k), gated ? g : 0.0);
                    if (gated)
                        (g > 0 ? kept : flipped) += 1;
                }
            QVERIFY(kept > 0 && flipped > 0); // signs vary inside one failed trajectory
            QVERIFY(run("mgr", batch, { { "gate", "per_action" }, { "seed", std::to_string(seed) } }).advantages
                == r.advantages);
        }
    }

    void edgeTurns_data()
    {
        QTest::addColumn<QStringList>("actions"); // a leading '!' marks an invalid turn
        QTest::addColumn<QList<double>>("n");
        QTest::addColumn<QList<double>>("hTemp");
        QTest::addColumn<QList<double>>("hRep");
        QTest::addColumn<QList<double>>("local");
        QTest::newRow("one valid turn") << QStringList { "go" } << QList<double> { 1 } << QList<double> { 0 }
                                        << QList<double> { 0 } << QList<double> { 1 };
        QTest::newRow("one invalid turn") << QStringList { "!go" } << QList<double> { 0 } << QList<double> { 0 }
                                          << QList<double> { 0 } << QList<double> { -1 };
        QTest::newRow("invalid first turn: h_temp 0 at t=1")
            << QStringList { "!a", "b", "c", "!d" } << QList<double> { 0, 1, 1, 0 } << QList<double> { 0, 0.1, 0, -0.1 }
            << QList<double> { 0, 0, 0, 0 } << QList<double> { -1, 1.1, 1, -1.1 };
        QTest::newRow("case and spacing give one key")
            << QStringList { "Go to  Desk 1", " go to desk 1 ", "GO TO\tDESK 1\n", "go\r\nto desk\v1", "go to desk 12",
                   "goto desk 1" }
            << QList<double> { 1, 2, 3, 4, 1, 1 } << QList<double> { 0, 0, 0, 0, 0, 0 }
            << QList<double> { 0, 0, -0.5, -1, 0, 0 } << QList<double> { 1, 1, 0.5, 0, 1, 1 };
        QTest::newRow("invalid repeats not counted")
            << QStringList { "A", "!a", "!A ", "a", "a", "a" } << QList<double> { 1, 1, 1, 2, 3, 4 }
            << QList<double> { 0, -0.1, 0, 0.1, 0, 0 } << QList<double> { 0, 0, 0, 0, -0.5, -1 }
            << QList<double> { 1, -1.1, -1, 1.1, 0.5, 0 };
        QTest::newRow("many invalid then valid")
            << QStringList { "!x", "!x", "!x", "!x", "x" } << QList<double> { 0, 0, 0, 0, 1 }
            << QList<double> { 0, 0, 0, 0, 0.1 } << QList<double> { 0, 0, 0, 0, 0 }
            << QList<double> { -1, -1, -1, -1, 1.1 };
        QTest::newRow("interleaved") << QStringList { "a", "b", "a", "b", "a", "b", "a" }
                                     << QList<double> { 1, 1, 2, 2, 3, 3, 4 } << QList<double> { 0, 0, 0, 0, 0, 0, 0 }
                                     << QList<double> { 0, 0, 0, 0, -0.5, -0.5, -1 }
                                     << QList<double> { 1, 1, 1, 1, 0.5, 0.5, 0 };
        QTest::newRow("non-ASCII is not folded") << QStringList { "\xc3\xa9", "\xc3\x89",
            "a\xc2\xa0"
            "b",
            "a b" } << QList<double> { 1, 1, 1, 1 }
                                                 << QList<double> { 0, 0, 0, 0 } << QList<double> { 0, 0, 0, 0 }
                                                 << QList<double> { 1, 1, 1, 1 };
        QTest::newRow("empty and blank actions share a key")
            << QStringList { "", "  ", "\t", "" } << QList<double> { 1, 2, 3, 4 } << QList<double> { 0, 0, 0, 0 }
            << QList<double> { 0, 0, -0.5, -1 } << QList<double> { 1, 1, 0.5, 0 };
    }

    void edgeTurns()
    {
        QFETCH(QStringList, actions);
        QFETCH(QList<double>, n);
        QFETCH(QList<double>, hTemp);
        QFETCH(QList<double>, hRep);
        QFETCH(QList<double>, local);
        std::vector<Step> steps;
        for (const QString& a : actions) {
            const std::string s = a.toStdString();
            steps.push_back(s.starts_with('!') ? Step { s.substr(1), false } : Step { s, true });
        }
        const Batch batch = Batch::fromTrajectories(
            { makeTraj("succ", "g", true, steps), filler("f1", "g", false), filler("f2", "g", false) });
        const CreditResult r = run("mgr", batch);
        const double g = 1.0; // (3*1 - 1) / 2
        for (qsizetype k = 0; k < actions.size(); ++k) {
            const std::size_t t = static_cast<std::size_t>(k);
            CL_NEAR(num(r, "N", 0, t), n[k]);
            CL_NEAR(num(r, "h_temp", 0, t), hTemp[k]);
            CL_NEAR(num(r, "h_rep", 0, t), hRep[k]);
            CL_NEAR(num(r, "R_local", 0, t), local[k]);
            CL_NEAR(num(r, "R_global", 0, t), g);
            CL_NEAR(r.at(0, t), local[k] * g);
            // The counting agrees with creditlab::text::actionKey() for every pair of actions.
            for (qsizetype j = 0; j < k; ++j)
                if (steps[static_cast<std::size_t>(j)].valid && steps[t].valid
                    && creditlab::text::actionKey(steps[static_cast<std::size_t>(j)].action)
                        == creditlab::text::actionKey(steps[t].action))
                    QVERIFY(n[k] > n[j]);
        }
    }

    void repetitionParameters()
    {
        const Batch batch = Batch::fromTrajectories(
            { makeTraj("s", "g", true, { { "a" }, { "a" }, { "a" } }), filler("f", "g", false) });
        CreditResult r = run("mgr", batch, { { "q", "0" }, { "alpha", "0.25" } });
        CL_NEAR(num(r, "h_rep", 0, 0), -0.25);
        CL_NEAR(num(r, "h_rep", 0, 2), -0.75);
        r = run("mgr", batch, { { "alpha", "0" } });
        CL_NEAR(num(r, "R_local", 0, 2), 1.0);
        const Batch recover = Batch::fromTrajectories(
            { makeTraj("s", "g", true, { { "a" }, { "b", false }, { "c" } }), filler("f", "g", false) });
        r = run("mgr", recover, { { "beta", "0.3" } });
        CL_NEAR(num(r, "R_local", 0, 1), -1.3);
        CL_NEAR(num(r, "R_local", 0, 2), 1.3);
    }

    void emptyAndDegenerateBatches()
    {
        const CreditResult empty = run("mgr", Batch {});
        QVERIFY(empty.advantages.empty());
        QCOMPARE(empty.offsets.size(), std::size_t(1));
        // A trajectory without turns counts in its group and in C, and gets no entries.
        const Batch batch = Batch::fromTrajectories(
            { makeTraj("s", "g", true, { { "a" } }), makeTraj("none", "g", false, {}), filler("f", "g", false) });
        const CreditResult r = run("mgr", batch, { { "gate", "keep" } });
        QCOMPARE(r.advantages.size(), std::size_t(2));
        CL_NEAR(r.at(0, 0), 1.0); // (3*1 - 1) / 2
        CL_NEAR(r.at(2, 0), 0.5); // gated, kept: 1 * |(3*0 - 1) / 2|
        CL_NEAR(num(r, "p_retain", 0, 0), 0.5); // C = 1/3, V = 1
        const CreditResult l = run("loop", batch);
        CL_NEAR(l.at(0, 0), 1.0);
        CL_NEAR(l.at(2, 0), -0.5);
    }

    void detailColumns()
    {
        const Batch batch = Batch::fromTrajectories({ makeTraj("s", "g", true, { { "a" }, { "b" } }) });
        const CreditResult r = run("mgr", batch);
        for (const char* name : { "v", "N", "h_temp", "h_rep", "R_local", "R_global", "gate", "p_retain" }) {
            const DetailColumn* c = r.detail(name);
            QVERIFY2(c && !c->isText && c->numbers.size() == 2, name);
        }
        const DetailColumn* c = r.detail("case");
        QVERIFY(c && c->isText && c->numbers.size() == 2);
        QCOMPARE(label(r, "case", 0, 0), QStringLiteral("zero")); // group of one
        const CreditResult l = run("loop", batch);
        QVERIFY(l.detail("G") && l.detail("G")->numbers.size() == 2);
    }

    void paramErrors_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::newRow("unknown key") << "mgr"
                                     << "lambda"
                                     << "1";
        QTest::newRow("bad gate") << "mgr"
                                  << "gate"
                                  << "random";
        QTest::newRow("gate is case-sensitive") << "mgr"
                                                << "gate"
                                                << "Keep";
        QTest::newRow("q negative") << "mgr"
                                    << "q"
                                    << "-1";
        QTest::newRow("q not an integer") << "mgr"
                                          << "q"
                                          << "1.5";
        QTest::newRow("alpha negative") << "mgr"
                                        << "alpha"
                                        << "-0.1";
        QTest::newRow("beta negative") << "mgr"
                                       << "beta"
                                       << "-1";
        QTest::newRow("gamma negative") << "mgr"
                                        << "gamma"
                                        << "-0.5";
        QTest::newRow("gamma not a number") << "mgr"
                                            << "gamma"
                                            << "one";
        QTest::newRow("theta_V above 1") << "mgr"
                                         << "theta_V"
                                         << "1.1";
        QTest::newRow("theta_C1 negative") << "mgr"
                                           << "theta_C1"
                                           << "-0.01";
        QTest::newRow("theta_C2 above 1") << "mgr"
                                          << "theta_C2"
                                          << "2";
        QTest::newRow("decay negative") << "mgr"
                                        << "decay"
                                        << "-1";
        QTest::newRow("p_min above 1") << "mgr"
                                       << "p_min"
                                       << "1.5";
        QTest::newRow("seed negative") << "mgr"
                                       << "seed"
                                       << "-1";
        QTest::newRow("seed not an integer") << "mgr"
                                             << "seed"
                                             << "0.5";
        QTest::newRow("loop takes no parameters") << "loop"
                                                  << "gamma"
                                                  << "1";
    }

    void paramErrors()
    {
        QFETCH(QString, method);
        QFETCH(QString, key);
        QFETCH(QString, value);
        const Estimator& e = requireEstimator(method.toStdString());
        QVERIFY_THROWS_EXCEPTION(ParamError, e.resolve({ { key.toStdString(), value.toStdString() } }));
    }

    void paramsAccepted()
    {
        const Estimator& e = requireEstimator("mgr");
        for (const auto& [k, v] : std::vector<std::pair<std::string, std::string>> { { "q", "0" },
                 { "gate", "per_action" }, { "gate", "keep" }, { "gate", "flip" }, { "gate", "stochastic" },
                 { "seed", "123456789" }, { "p_min", "0" }, { "p_min", "1" }, { "gamma", "1.4" }, { "theta_V", "1" } })
            e.resolve({ { k, v } });
    }
};

QTEST_GUILESS_MAIN(TestCreditMgr)
#include "tst_credit_mgr.moc"
