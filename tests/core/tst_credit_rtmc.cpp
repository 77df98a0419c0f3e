// rtmc: CONVENTIONS.md "rtmc" and shared/methods/rtmc.md: the §9 worked example (all three settings), the
// reduction to GRPO (§2.13), first visit, action keys, groups never merged, edges, a cross-check against a
// literal transcription of the definition, parameter errors.
#include "core/credit/common.h"
#include "core/credit/estimator.h"
#include "core/model/text.h"
#include "credittestutil.h"

#include "testutil.h"

#include <QElapsedTimer>
#include <QtTest/QTest>

#include <cmath>
#include <map>
#include <random>
#include <set>

using namespace creditlab;
using namespace creditlab::credit;

namespace {

struct Step {
    std::string state;
    std::string action;
    double reward = 0.0; // intermediate reward
};

Trajectory traj(const std::string& id, const std::string& group, double reward, const std::vector<Step>& steps)
{
    Trajectory t;
    t.id = id;
    t.group = group;
    t.reward = reward;
    for (const Step& s : steps) {
        Turn u;
        u.observation = "obs";
        u.state = s.state;
        u.action = s.action;
        if (s.reward != 0.0)
            u.reward = s.reward;
        t.turns.push_back(u);
    }
    return t;
}

CreditResult run(const Batch& batch, const std::vector<std::pair<std::string, std::string>>& set = {})
{
    return test::runMethod("rtmc", batch, set);
}

std::vector<double> column(const CreditResult& r, const char* name)
{
    const DetailColumn* c = r.detail(name);
    return c ? c->numbers : std::vector<double>();
}

bool near(double a, double b, double tol = 1e-9) { return std::abs(a - b) < tol; }

#define CL_NEAR(actual, expected)                                                                                      \
    do {                                                                                                               \
        const double a_ = (actual);                                                                                    \
        const double e_ = (expected);                                                                                  \
        QVERIFY2(near(a_, e_),                                                                                         \
            qPrintable(QStringLiteral("%1 = %2, expected %3").arg(#actual).arg(a_, 0, 'g', 17).arg(e_, 0, 'g', 17)));  \
    } while (false)

void compareList(const std::vector<double>& actual, const QList<double>& expected, const char* what, double tol = 1e-9)
{
    QVERIFY2(actual.size() == static_cast<std::size_t>(expected.size()), what);
    for (qsizetype k = 0; k < expected.size(); ++k)
        QVERIFY2(near(actual[static_cast<std::size_t>(k)], expected[k], tol),
            qPrintable(QStringLiteral("%1[%2] = %3, expected %4")
                           .arg(what)
                           .arg(k)
                           .arg(actual[static_cast<std::size_t>(k)], 0, 'g', 17)
                           .arg(expected[k], 0, 'g', 17)));
}

/// rtmc.md §9: K = 4 rollouts, terminal reward only, p = 0.5; R3 and R4 meet at "a.py:Vf|b.py:S".
Batch workedExampleBatch()
{
    return Batch::fromTrajectories({
        traj("R1", "g", 1.0,
            { { "", "view:full@a.py" }, { "a.py:Vf", "modify:replace:1111@a.py" }, { "a.py:M:1111,Vf", "finish" } }),
        traj("R2", "g", 0.0,
            { { "", "view:full@a.py" }, { "a.py:Vf", "modify:replace:2222@a.py" }, { "a.py:M:2222,Vf", "finish" } }),
        traj(
            "R3", "g", 0.0, { { "", "view:full@a.py" }, { "a.py:Vf", "search@b.py" }, { "a.py:Vf|b.py:S", "finish" } }),
        traj("R4", "g", 1.0, { { "", "search@b.py" }, { "b.py:S", "view:full@a.py" }, { "a.py:Vf|b.py:S", "finish" } }),
    });
}

// ---- A literal transcription of CONVENTIONS.md "rtmc", for the randomized cross-check. ----

std::vector<double> reference(const Batch& batch, double gamma, double kappa, bool normalize)
{
    std::vector<double> out;
    std::vector<std::size_t> offset { 0 };
    for (const Trajectory& t : batch.trajectories)
        offset.push_back(offset.back() + t.turns.size());
    out.resize(offset.back());
    for (const Group& g : batch.groups) {
        std::map<std::pair<std::string, std::string>, std::pair<double, double>> table; // (N, W)
        std::map<std::size_t, std::vector<double>> G;
        double p = 0.0;
        for (std::size_t i : g.members) {
            const Trajectory& t = batch.trajectories[i];
            p += t.successOrDefault() ? 1.0 : 0.0;
            std::vector<double>& gi = G[i];
            gi.assign(t.turns.size(), 0.0);
            for (std::size_t k = t.turns.size(); k-- > 0;)
                gi[k] = stepReward(t, k) + gamma * (k + 1 < t.turns.size() ? gi[k + 1] : 0.0);
            std::set<std::pair<std::string, std::string>> seen;
            for (std::size_t k = 0; k < t.turns.size(); ++k) {
                const auto key = std::make_pair(t.turns[k].stateKey(), text::actionKey(t.turns[k].action));
                if (!seen.insert(key).second)
                    continue;
                table[key].first += 1;
                table[key].second += gi[k];
            }
        }
        p /= static_cast<double>(g.members.size());
        std::vector<std::size_t> where;
        for (std::size_t i : g.members) {
            const Trajectory& t = batch.trajectories[i];
            for (std::size_t k = 0; k < t.turns.size(); ++k) {
                const auto key = std::make_pair(t.turns[k].stateKey(), text::actionKey(t.turns[k].action));
                double ns = 0, ws = 0;
                for (const auto& [sa, nw] : table)
                    if (sa.first == key.first) {
                        ns += nw.first;
                        ws += nw.second;
                    }
                const double q = table[key].second / table[key].first;
                const double v = ws / ns;
                out[offset[i] + k] = q - (ns * v + kappa * p) / (ns + kappa);
                where.push_back(offset[i] + k);
            }
        }
        if (normalize && !where.empty()) {
            double m = 0.0;
            for (std::size_t at : where)
                m += out[at] / static_cast<double>(where.size());
            double ss = 0.0;
            for (std::size_t at : where)
                ss += (out[at] - m) * (out[at] - m);
            const double sigma = std::sqrt(ss / static_cast<double>(where.size()));
            if (sigma >= 1e-8)
                for (std::size_t at : where)
                    out[at] /= sigma;
        }
    }
    return out;
}

} // namespace

class TestCreditRtmc : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void registered();
    void workedExample_data();
    void workedExample();
    void workedExampleTable();
    void reducesToGrpo_data();
    void reducesToGrpo();
    void firstVisitOnly();
    void actionKeys_data();
    void actionKeys();
    void groupsAreNeverMerged();
    void groupOfOne();
    void allEqualRewards();
    void normalizeFloor();
    void emptyAndTurnlessTrajectories();
    void matchesLiteralDefinition_data();
    void matchesLiteralDefinition();
    void paramErrors_data();
    void paramErrors();
    void benchmark();
};

void TestCreditRtmc::registered()
{
    const Estimator* e = findEstimator("rtmc");
    QVERIFY(e);
    QCOMPARE(e->resolve({}).canonical(), std::string("gamma=1,kappa=2,normalize=true"));
}

// Raw advantages per rollout R1..R4 (steps 1..3), exact; the note's rounded std and normalised values.
void TestCreditRtmc::workedExample_data()
{
    QTest::addColumn<double>("gamma");
    QTest::addColumn<double>("kappa");
    QTest::addColumn<QList<double>>("raw");
    QTest::addColumn<double>("noteStd");
    QTest::addColumn<QList<double>>("noteNormalized"); // empty: the note gives none
    QTest::addColumn<double>("rootV");
    QTest::addColumn<double>("rootVPrime");
    const double s = -1.0 / 6.0, t = 1.0 / 3.0;
    QTest::newRow("gamma 1, kappa 2") << 1.0 << 2.0 << QList<double> { s, 0.6, t, s, -0.4, -t, s, -0.4, 0, 0.5, t, 0 }
                                      << 0.3348
                                      << QList<double> { -0.4978, 1.7921, 0.9956, -0.4978, -1.1947, -0.9956, -0.4978,
                                             -1.1947, 0, 1.4934, 0.9956, 0 }
                                      << 0.5 << 0.5;
    QTest::newRow("gamma 1, kappa 0 (no prior)")
        << 1.0 << 0.0 << QList<double> { s, 2 * t, 0, s, -t, 0, s, -t, 0, 0.5, 0, 0 } << 0.2887
        << QList<double> { -0.5774, 2.3094, 0, -0.5774, -1.1547, 0, -0.5774, -1.1547, 0, 1.7321, 0, 0 } << 0.5 << 0.5;
    // Root: W = 0.81 + 0.81, V = 0.405, V' = (1.62 + 2 * 0.5) / 6 = 0.43667. R4: 0.81 - V', 0.9 - (0.9 + 1) / 3.
    QTest::newRow("gamma 0.9, kappa 2") << 0.9 << 2.0
                                        << QList<double> { s, 0.52, t, s, -0.38, -t, s, -0.38, 0, 0.81 - 2.62 / 6,
                                               0.9 - 1.9 / 3, 0 }
                                        << 0.2992 << QList<double> {} << 0.405 << 2.62 / 6;
}

void TestCreditRtmc::workedExample()
{
    QFETCH(double, gamma);
    QFETCH(double, kappa);
    QFETCH(QList<double>, raw);
    QFETCH(double, noteStd);
    QFETCH(QList<double>, noteNormalized);
    QFETCH(double, rootV);
    QFETCH(double, rootVPrime);
    const Batch b = workedExampleBatch();
    const std::string g = QString::number(gamma).toStdString();
    const std::string k = QString::number(kappa).toStdString();
    const CreditResult r = run(b, { { "gamma", g }, { "kappa", k }, { "normalize", "false" } });
    compareList(r.advantages, raw, "raw A");
    CL_NEAR(column(r, "V")[0], rootV);
    CL_NEAR(column(r, "V_prime")[0], rootVPrime);
    if (kappa == 0.0) // rtmc.md §7.7: without the prior every single-visit state gives 0
        for (std::size_t i = 0; i < r.advantages.size(); ++i)
            if (column(r, "N_s")[i] == 1.0)
                CL_NEAR(r.advantages[i], 0.0);

    const std::vector<double> rawValues(raw.begin(), raw.end());
    const double sigma = populationStd(rawValues);
    QVERIFY2(near(sigma, noteStd, 5e-5), qPrintable(QString::number(sigma, 'g', 10)));
    QList<double> expected;
    for (double v : raw)
        expected.push_back(v / sigma); // no centring
    const CreditResult n = run(b, { { "gamma", g }, { "kappa", k } }); // normalize=true is the default
    compareList(n.advantages, expected, "normalized A");
    if (!noteNormalized.isEmpty())
        compareList(n.advantages, noteNormalized, "normalized A vs rtmc.md", 5e-5);
}

void TestCreditRtmc::workedExampleTable()
{
    const CreditResult r = run(workedExampleBatch(), { { "normalize", "false" } });
    const double t = 1.0 / 3.0;
    compareList(column(r, "N_sa"), { 3, 1, 1, 3, 1, 1, 3, 1, 2, 1, 1, 2 }, "N_sa");
    compareList(column(r, "N_s"), { 4, 3, 1, 4, 3, 1, 4, 3, 2, 4, 1, 2 }, "N_s");
    compareList(column(r, "Q"), { t, 1, 1, t, 0, 0, t, 0, 0.5, 1, 1, 0.5 }, "Q");
    compareList(column(r, "V"), { 0.5, t, 1, 0.5, t, 0, 0.5, t, 0.5, 0.5, 1, 0.5 }, "V");
    compareList(column(r, "V_prime"), { 0.5, 0.4, 2 * t, 0.5, 0.4, t, 0.5, 0.4, 0.5, 0.5, 2 * t, 0.5 }, "V_prime");
    compareList(column(r, "G"), { 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1 }, "G");
}

// rtmc.md §2.13: every rollout is one step with its own action at a shared root. Then Q = R_i, V = mean R and
// A = R_i - mean R with kappa = 0 (or with any kappa when p = mean R, i.e. rewards of 0 and 1): grpo with
// norm_std=false. normalize=true divides by the *population* std without eps, whereas grpo's norm_std=true
// divides by the sample std + eps, so the normalised forms agree only up to that factor.
void TestCreditRtmc::reducesToGrpo_data()
{
    QTest::addColumn<QList<double>>("rewards");
    QTest::addColumn<double>("kappa");
    QTest::newRow("binary, kappa 0") << QList<double> { 1, 0, 0, 1, 1, 0, 0, 0 } << 0.0;
    QTest::newRow("binary, kappa 2 (p = mean R)") << QList<double> { 1, 0, 0, 1, 1, 0, 0, 0 } << 2.0;
    QTest::newRow("binary, kappa 7.5") << QList<double> { 0, 1, 1 } << 7.5;
    QTest::newRow("real rewards, kappa 0") << QList<double> { 0.3, -1.2, 2.5, 0.7 } << 0.0;
    QTest::newRow("all equal") << QList<double> { 1, 1, 1, 1 } << 0.0;
    QTest::newRow("group of one") << QList<double> { 0.4 } << 0.0;
}

void TestCreditRtmc::reducesToGrpo()
{
    QFETCH(QList<double>, rewards);
    QFETCH(double, kappa);
    std::vector<Trajectory> ts;
    for (qsizetype i = 0; i < rewards.size(); ++i) {
        ts.push_back(traj("a" + std::to_string(i), "A", rewards[i], { { "root", "action " + std::to_string(i) } }));
        ts.push_back(traj("b" + std::to_string(i), "B", rewards[i] * 2 - 1, { { "root", "x" + std::to_string(i) } }));
    }
    const Batch b = Batch::fromTrajectories(ts);
    const Estimator& grpo = requireEstimator("grpo");
    const CreditResult g = grpo.compute(b, grpo.resolve({ { "norm_std", "false" } }));
    const std::string k = QString::number(kappa).toStdString();
    for (const char* gamma : { "1", "0.5" }) {
        // Group B's rewards are 2R - 1, not 0/1, so only kappa = 0 makes it exact there.
        const CreditResult raw = run(b, { { "kappa", k }, { "normalize", "false" }, { "gamma", gamma } });
        const CreditResult norm = run(b, { { "kappa", k }, { "gamma", gamma } });
        for (const Group& grp : b.groups) {
            if (kappa != 0.0 && grp.key == "B")
                continue;
            std::vector<double> r;
            for (std::size_t i : grp.members)
                r.push_back(b.trajectories[i].reward);
            const double sigma = populationStd(r);
            for (std::size_t i : grp.members) {
                CL_NEAR(raw.advantages[i], g.advantages[i]);
                CL_NEAR(norm.advantages[i], sigma < 1e-8 ? g.advantages[i] : g.advantages[i] / sigma);
            }
        }
    }
}

void TestCreditRtmc::firstVisitOnly()
{
    // t1 repeats (S, go): gamma 0.5 gives G = [0.25, 0.5, 1]; only the first visit (G = 0.25) counts.
    // (S, go): N = 2 (t1 once, t2), W = 0.25, Q = 0.125; N(S) = 2, V = 0.125; p = 0.5;
    // V' = (2 * 0.125 + 2 * 0.5) / 4 = 0.3125; A = -0.1875 on all three (S, go) turns. (T, stop): Q = V = V' = 0.5.
    // t3 visits S twice with different actions: two pairs, both counted, so N(S) = 2 from one trajectory.
    const Batch b = Batch::fromTrajectories({
        traj("t1", "g", 1.0, { { "S", "go" }, { "S", "go" }, { "T", "stop" } }),
        traj("t2", "g", 0.0, { { "S", "go" }, { "T", "stop" } }),
        traj("t3", "h", 1.0, { { "S", "a" }, { "S", "b" } }),
    });
    const CreditResult r = run(b, { { "gamma", "0.5" }, { "normalize", "false" } });
    compareList(column(r, "N_sa"), { 2, 2, 2, 2, 2, 1, 1 }, "N_sa");
    compareList(column(r, "N_s"), { 2, 2, 2, 2, 2, 2, 2 }, "N_s");
    compareList(column(r, "Q"), { 0.125, 0.125, 0.5, 0.125, 0.5, 0.5, 1 }, "Q");
    compareList(column(r, "G"), { 0.25, 0.5, 1, 0, 0, 0.5, 1 }, "G");
    // t3: V = (0.5 + 1) / 2 = 0.75, p = 1, V' = (1.5 + 2) / 4 = 0.875.
    compareList(r.advantages, { -0.1875, -0.1875, 0, -0.1875, 0, -0.375, 0.125 }, "A");
}

void TestCreditRtmc::actionKeys_data()
{
    QTest::addColumn<QByteArray>("a");
    QTest::addColumn<QByteArray>("b");
    QTest::addColumn<bool>("same");
    QTest::newRow("case") << QByteArray("Go North") << QByteArray("go north") << true;
    QTest::newRow("outer and inner spacing") << QByteArray("  go\t north \n") << QByteArray("go north") << true;
    QTest::newRow("vertical tab, form feed, CR") << QByteArray("go\v\f\rnorth") << QByteArray("GO NORTH") << true;
    QTest::newRow("space removed") << QByteArray("go  north") << QByteArray("gonorth") << false;
    QTest::newRow("non-ASCII is not lower-cased") << QByteArray("take \xc3\x89p\xc3\xa9"
                                                                "e")
                                                  << QByteArray("take \xc3\xa9p\xc3\xa9"
                                                                "e")
                                                  << false;
    QTest::newRow("NBSP is not whitespace") << QByteArray("go\xc2\xa0north") << QByteArray("go north") << false;
    QTest::newRow("punctuation kept") << QByteArray("open(door)") << QByteArray("open (door)") << false;
    QTest::newRow("empty and blank") << QByteArray("") << QByteArray(" \t ") << true;
}

void TestCreditRtmc::actionKeys()
{
    QFETCH(QByteArray, a);
    QFETCH(QByteArray, b);
    QFETCH(bool, same);
    QCOMPARE(text::actionKey(a.toStdString()) == text::actionKey(b.toStdString()), same); // the shared definition
    const Batch batch = Batch::fromTrajectories({
        traj("x", "g", 1.0, { { "s", a.toStdString() } }),
        traj("y", "g", 0.0, { { "s", b.toStdString() } }),
    });
    const CreditResult r = run(batch, { { "normalize", "false" } });
    compareList(column(r, "N_sa"), { same ? 2.0 : 1.0, same ? 2.0 : 1.0 }, "N_sa");
}

void TestCreditRtmc::groupsAreNeverMerged()
{
    const Batch b = Batch::fromTrajectories({
        traj("g1", "G", 1.0, { { "root", "go" } }),
        traj("h1", "H", 0.0, { { "root", "go" } }),
        traj("g2", "G", 0.0, { { "root", "stay" } }),
    });
    const CreditResult r = run(b, { { "normalize", "false" } });
    compareList(column(r, "N_sa"), { 1, 1, 1 }, "N_sa");
    compareList(column(r, "N_s"), { 2, 1, 2 }, "N_s");
}

void TestCreditRtmc::groupOfOne()
{
    // One rollout, one turn: Q = V = G, V' = (G + kappa p) / (1 + kappa), A = (2/3)(G - p) with kappa 2.
    // G = 0.5 + 0.25 = 0.75, p = 1 (reward > 0). A one-value list has std 0, so normalize leaves it.
    const Batch b = Batch::fromTrajectories({ traj("solo", "g", 0.5, { { "s", "a", 0.25 } }) });
    CL_NEAR(run(b).advantages[0], 2.0 / 3.0 * (0.75 - 1.0));
    CL_NEAR(run(b, { { "kappa", "0" } }).advantages[0], 0.0);
}

void TestCreditRtmc::allEqualRewards()
{
    for (double reward : { 0.0, 1.0 }) {
        std::vector<Trajectory> ts;
        for (int i = 0; i < 4; ++i)
            ts.push_back(
                traj("t" + std::to_string(i), "g", reward, { { "root", "go" }, { "s" + std::to_string(i), "x" } }));
        const CreditResult r = run(Batch::fromTrajectories(ts));
        for (double a : r.advantages)
            CL_NEAR(a, 0.0); // Q = V = p = the reward everywhere
    }
}

void TestCreditRtmc::normalizeFloor()
{
    // A = +-5e-10: population std 5e-10 < 1e-8, so the values stay as they are.
    const Batch b = Batch::fromTrajectories({
        traj("x", "g", 1e-9, { { "s", "a" } }),
        traj("y", "g", 0.0, { { "s", "b" } }),
    });
    compareList(run(b, { { "kappa", "0" } }).advantages, { 5e-10, -5e-10 }, "A");
    QVERIFY(run(b, { { "kappa", "0" } }).advantages[0] > 0);
}

void TestCreditRtmc::emptyAndTurnlessTrajectories()
{
    QVERIFY(run(Batch {}).advantages.empty());
    // The turnless success still counts in p = 0.5: A = 0 - (0 + 2 * 0.5) / 3.
    const Batch b = Batch::fromTrajectories({ traj("empty", "g", 1.0, {}), traj("one", "g", 0.0, { { "s", "a" } }) });
    compareList(run(b, { { "normalize", "false" } }).advantages, { -1.0 / 3.0 }, "A");
}

void TestCreditRtmc::matchesLiteralDefinition_data()
{
    QTest::addColumn<double>("gamma");
    QTest::addColumn<double>("kappa");
    QTest::addColumn<bool>("normalize");
    QTest::newRow("defaults") << 1.0 << 2.0 << true;
    QTest::newRow("gamma 0.9 raw") << 0.9 << 2.0 << false;
    QTest::newRow("kappa 0") << 0.7 << 0.0 << true;
    QTest::newRow("kappa 10 raw") << 1.0 << 10.0 << false;
}

void TestCreditRtmc::matchesLiteralDefinition()
{
    QFETCH(double, gamma);
    QFETCH(double, kappa);
    QFETCH(bool, normalize);
    std::mt19937 rng(4242);
    const char* actions[] = { "go", "Go", " go ", "take", "TAKE  it", "take it", "stop" };
    for (int round = 0; round < 40; ++round) {
        std::vector<Trajectory> ts;
        const int n = 1 + static_cast<int>(rng() % 10);
        for (int i = 0; i < n; ++i) {
            std::vector<Step> steps;
            const int turns = static_cast<int>(rng() % 6);
            for (int k = 0; k < turns; ++k)
                steps.push_back({ "s" + std::to_string(rng() % 3), actions[rng() % 7],
                    rng() % 4 == 0 ? 0.1 * static_cast<double>(rng() % 5) - 0.2 : 0.0 });
            Trajectory t = traj(
                "t" + std::to_string(i), "g" + std::to_string(rng() % 3), static_cast<double>(rng() % 3) * 0.5, steps);
            if (rng() % 4 == 0)
                t.success = rng() % 2 == 0;
            ts.push_back(std::move(t));
        }
        const Batch b = Batch::fromTrajectories(ts);
        const CreditResult r = run(b,
            { { "gamma", QString::number(gamma).toStdString() }, { "kappa", QString::number(kappa).toStdString() },
                { "normalize", normalize ? "true" : "false" } });
        const std::vector<double> expected = reference(b, gamma, kappa, normalize);
        QCOMPARE(r.advantages.size(), expected.size());
        for (std::size_t k = 0; k < expected.size(); ++k)
            CL_NEAR(r.advantages[k], expected[k]);
    }
}

void TestCreditRtmc::paramErrors_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::newRow("unknown key") << "similarity"
                                 << "0.5";
    QTest::newRow("gamma above 1") << "gamma"
                                   << "1.01";
    QTest::newRow("gamma below 0") << "gamma"
                                   << "-1";
    QTest::newRow("kappa negative") << "kappa"
                                    << "-0.5";
    QTest::newRow("kappa infinite") << "kappa"
                                    << "inf";
    QTest::newRow("normalize not a bool") << "normalize"
                                          << "yes";
}

void TestCreditRtmc::paramErrors()
{
    QFETCH(QString, key);
    QFETCH(QString, value);
    const Estimator& e = requireEstimator("rtmc");
    QVERIFY_THROWS_EXCEPTION(ParamError, e.resolve({ { key.toStdString(), value.toStdString() } }));
    e.resolve({ { "gamma", "0" }, { "kappa", "0" }, { "normalize", "0" } });
}

void TestCreditRtmc::benchmark()
{
    // 1,000,000 turns in groups of 8 trajectories of 25 turns; set CREDITLAB_BENCH=1 to run it.
    if (qEnvironmentVariableIsEmpty("CREDITLAB_BENCH"))
        QSKIP("set CREDITLAB_BENCH=1 to time a batch of 1,000,000 turns");
    std::vector<Trajectory> ts;
    std::mt19937 rng(7);
    for (int i = 0; i < 40000; ++i) {
        Trajectory t;
        t.id = "t" + std::to_string(i);
        t.group = "g" + std::to_string(i / 8);
        t.reward = rng() % 2;
        for (int k = 0; k < 25; ++k) {
            Turn u;
            u.observation
                = "You are in room " + std::to_string(rng() % 6) + " facing the door, step " + std::to_string(k);
            u.action = rng() % 2 ? "Go  North to the hallway" : "take the mug from the table";
            t.turns.push_back(std::move(u));
        }
        ts.push_back(std::move(t));
    }
    const Batch b = Batch::fromTrajectories(std::move(ts));
    const Estimator& e = requireEstimator("rtmc");
    const Params p = e.resolve({});
    QElapsedTimer timer;
    timer.start();
    const CreditResult r = e.compute(b, p);
    qInfo("rtmc: %zu turns in %lld ms", r.advantages.size(), static_cast<long long>(timer.elapsed()));
#ifndef CREDITLAB_UNTIMED_BUILD
    QVERIFY(timer.elapsed() < 1000);
#endif
}

QTEST_GUILESS_MAIN(TestCreditRtmc)
#include "tst_credit_rtmc.moc"
