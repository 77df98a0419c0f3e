// gigpo: CONVENTIONS.md "gigpo" and shared/methods/gigpo.md (verl-agent core_gigpo.py): a worked example,
// the per-turn episode list, singleton rules, anchors within a group only, similarity clustering, a
// cross-check against a literal transcription of the definition, parameter errors.
#include "core/credit/estimator.h"
#include "credittestutil.h"

#include "testutil.h"

#include <QElapsedTimer>
#include <QtTest/QTest>

#include <cmath>
#include <map>
#include <random>

using namespace creditlab;
using namespace creditlab::credit;

namespace {

struct Step {
    std::string state;
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
        u.observation = "obs of " + s.state;
        u.state = s.state;
        u.action = "act";
        if (s.reward != 0.0)
            u.reward = s.reward;
        t.turns.push_back(u);
    }
    return t;
}

/// A trajectory whose state keys are the observations (no `state` field), one turn per text.
Trajectory textTraj(const std::string& id, const std::string& group, double reward, const std::vector<std::string>& obs)
{
    Trajectory t;
    t.id = id;
    t.group = group;
    t.reward = reward;
    for (const std::string& o : obs) {
        Turn u;
        u.observation = o;
        u.action = "act";
        t.turns.push_back(u);
    }
    return t;
}

CreditResult run(const Batch& batch, const std::vector<std::pair<std::string, std::string>>& set = {})
{
    return test::runMethod("gigpo", batch, set);
}

std::vector<double> column(const CreditResult& r, const char* name)
{
    const DetailColumn* c = r.detail(name);
    return c ? c->numbers : std::vector<double>();
}

bool near(double a, double b) { return std::abs(a - b) < 1e-9; }

#define CL_NEAR(actual, expected)                                                                                      \
    do {                                                                                                               \
        const double a_ = (actual);                                                                                    \
        const double e_ = (expected);                                                                                  \
        QVERIFY2(near(a_, e_),                                                                                         \
            qPrintable(QStringLiteral("%1 = %2, expected %3").arg(#actual).arg(a_, 0, 'g', 17).arg(e_, 0, 'g', 17)));  \
    } while (false)

void compareList(const std::vector<double>& actual, const QList<double>& expected, const char* what)
{
    QVERIFY2(actual.size() == static_cast<std::size_t>(expected.size()), what);
    for (qsizetype k = 0; k < expected.size(); ++k)
        QVERIFY2(near(actual[static_cast<std::size_t>(k)], expected[k]),
            qPrintable(QStringLiteral("%1[%2] = %3, expected %4")
                           .arg(what)
                           .arg(k)
                           .arg(actual[static_cast<std::size_t>(k)], 0, 'g', 17)
                           .arg(expected[k], 0, 'g', 17)));
}

// ---- A literal transcription of CONVENTIONS.md "gigpo", for the randomized cross-check. ----

std::size_t naiveLevenshtein(const std::u32string& a, const std::u32string& b)
{
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i)
        d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j)
        d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j)
            d[i][j] = std::min({ d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1) });
    return d[a.size()][b.size()];
}

bool naiveSimilar(const std::string& a, const std::string& b, double threshold)
{
    const std::u32string ua = QString::fromStdString(a).toStdU32String();
    const std::u32string ub = QString::fromStdString(b).toStdU32String();
    const double longest = static_cast<double>(std::max(ua.size(), ub.size()));
    if (longest == 0)
        return true;
    const double sim = 1.0 - static_cast<double>(naiveLevenshtein(ua, ub)) / longest;
    return sim >= threshold - 1e-12;
}

double normalised(double x, const std::vector<double>& list, bool byStd)
{
    double m = 0.0, sd = 1.0;
    if (list.size() > 1) {
        m = 0.0;
        for (double v : list)
            m += v;
        m /= static_cast<double>(list.size());
        double ss = 0.0;
        for (double v : list)
            ss += (v - m) * (v - m);
        sd = std::sqrt(ss / static_cast<double>(list.size() - 1));
    }
    return byStd ? (x - m) / (sd + 1e-6) : x - m;
}

std::vector<double> reference(const Batch& batch, double gamma, bool byStd, double w, double threshold)
{
    std::vector<double> out(batch.turnCount());
    std::vector<std::size_t> offset { 0 };
    for (const Trajectory& t : batch.trajectories)
        offset.push_back(offset.back() + t.turns.size());
    for (const Group& g : batch.groups) {
        std::vector<double> L, U(out.size());
        std::map<std::size_t, double> score;
        for (std::size_t i : g.members) {
            const Trajectory& t = batch.trajectories[i];
            double s = 0.0;
            for (std::size_t k = 0; k < t.turns.size(); ++k) {
                double u = 0.0;
                for (std::size_t j = t.turns.size(); j-- > k;) {
                    double rho = t.turns[j].rewardOrDefault() + (j + 1 == t.turns.size() ? t.reward : 0.0);
                    u = rho + gamma * u;
                }
                U[offset[i] + k] = u;
                s += t.turns[k].rewardOrDefault() + (k + 1 == t.turns.size() ? t.reward : 0.0);
            }
            score[i] = s;
            for (std::size_t k = 0; k < t.turns.size(); ++k)
                L.push_back(s);
        }
        std::vector<std::string> firsts;
        std::vector<std::vector<std::size_t>> anchors;
        for (std::size_t i : g.members)
            for (std::size_t k = 0; k < batch.trajectories[i].turns.size(); ++k) {
                const std::string& key = batch.trajectories[i].turns[k].stateKey();
                std::size_t c = 0;
                while (
                    c < firsts.size() && !(threshold > 0 ? naiveSimilar(key, firsts[c], threshold) : key == firsts[c]))
                    ++c;
                if (c == firsts.size()) {
                    firsts.push_back(key);
                    anchors.emplace_back();
                }
                anchors[c].push_back(offset[i] + k);
            }
        for (const auto& members : anchors) {
            std::vector<double> us;
            for (std::size_t at : members)
                us.push_back(U[at]);
            for (std::size_t at : members)
                out[at] = members.size() == 1 ? 0.0 : normalised(U[at], us, byStd);
        }
        for (std::size_t i : g.members)
            for (std::size_t k = 0; k < batch.trajectories[i].turns.size(); ++k)
                out[offset[i] + k] = normalised(score[i], L, byStd) + w * out[offset[i] + k];
    }
    return out;
}

} // namespace

class TestCreditGigpo : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void registered();
    void workedExample_data();
    void workedExample();
    void episodeListCountsEveryTurn();
    void singletons();
    void allEqualRewards();
    void oneTurnTrajectoriesSharingTheRoot();
    void repeatedStateWithinOneTrajectory();
    void groupsAreNeverMerged();
    void gammaAndStepWeight();
    void emptyAndTurnlessTrajectories();
    void similarity_data();
    void similarity();
    void similarityWithinGroupsOnly();
    void matchesLiteralDefinition_data();
    void matchesLiteralDefinition();
    void paramErrors_data();
    void paramErrors();
    void benchmark_data();
    void benchmark();
};

void TestCreditGigpo::registered()
{
    const Estimator* e = findEstimator("gigpo");
    QVERIFY(e);
    QCOMPARE(e->resolve({}).canonical(),
        std::string("anchor=state,conventions=creditlab,gamma=0.95,invalid_penalty=0,mode=mean_std_norm,"
                    "similarity=0,step_weight=1"));
    const auto& all = estimators();
    QVERIFY(all.size() >= 2);
    QCOMPARE(std::string(all[0]->name()), std::string("grpo"));
    QCOMPARE(std::string(all[1]->name()), std::string("gigpo"));
}

// Group g: t1 (R=1) A,B,C; t2 (R=0) A,B(r=-0.1),A; t3 (R=1) A,D. Group h: t4 (R=0.5) A.
// gamma 0.95. U: t1 [0.9025, 0.95, 1], t2 [-0.095, -0.1, 0], t3 [0.95, 1], t4 [0.5].
// Scores s = (1, -0.1, 1); L = [1,1,1, -0.1,-0.1,-0.1, 1,1]: mean 4.7/8 = 0.5875, sample std 0.56930408...
// Anchors in g: A = {t1.1, t2.1, t2.3, t3.1} (mean U 0.439375), B = {t1.2, t2.2} (mean 0.425), C, D singletons.
// Group h: a list of one (mean 0, std 1); its A is a singleton anchor, not merged with g's A.
void TestCreditGigpo::workedExample_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QList<double>>("aE");
    QTest::addColumn<QList<double>>("aS");
    const double e1 = 0.72456756458443494, e2 = -1.2076126076407243;
    QTest::newRow("mean_norm") << "mean_norm"
                               << QList<double> { 0.4125, 0.4125, 0.4125, -0.6875, -0.6875, -0.6875, 0.4125, 0.4125,
                                      0.5 }
                               << QList<double> { 0.463125, 0.525, 0, -0.534375, -0.525, -0.439375, 0.510625, 0, 0 };
    QTest::newRow("mean_std_norm") << "mean_std_norm"
                                   << QList<double> { e1, e1, e1, e2, e2, e2, e1, e1, 0.5 / (1 + 1e-6) }
                                   << QList<double> { 0.82133941531054722, 0.70710582880687778, 0, -0.94769932535832357,
                                          -0.70710582880687789, -0.77921944529462162, 0.9055793553423982, 0, 0 };
}

void TestCreditGigpo::workedExample()
{
    QFETCH(QString, mode);
    QFETCH(QList<double>, aE);
    QFETCH(QList<double>, aS);
    const Batch b = Batch::fromTrajectories({
        traj("t1", "g", 1.0, { { "A" }, { "B" }, { "C" } }),
        traj("t2", "g", 0.0, { { "A" }, { "B", -0.1 }, { "A" } }),
        traj("t3", "g", 1.0, { { "A" }, { "D" } }),
        traj("t4", "h", 0.5, { { "A" } }),
    });
    const CreditResult r = run(b, { { "mode", mode.toStdString() } });
    compareList(column(r, "U"), { 0.9025, 0.95, 1, -0.095, -0.1, 0, 0.95, 1, 0.5 }, "U");
    compareList(column(r, "A_E"), aE, "A_E");
    compareList(column(r, "A_S"), aS, "A_S");
    compareList(column(r, "anchor"), { 0, 1, 2, 0, 1, 0, 0, 3, 4 }, "anchor");
    compareList(column(r, "anchor_size"), { 4, 2, 1, 4, 2, 4, 4, 1, 1 }, "anchor_size");
    QList<double> a;
    for (qsizetype k = 0; k < aE.size(); ++k)
        a.push_back(aE[k] + aS[k]); // step_weight 1
    compareList(r.advantages, a, "A");
}

void TestCreditGigpo::episodeListCountsEveryTurn()
{
    // L = [1, 0, 0, 0]: mean 0.25. Counting each trajectory once would give 0.5.
    const Batch b = Batch::fromTrajectories({
        traj("long-fail", "g", 0.0, { { "x" }, { "y" }, { "z" } }),
        traj("short-win", "g", 1.0, { { "w" } }),
    });
    const CreditResult r = run(b, { { "mode", "mean_norm" } });
    compareList(column(r, "A_E"), { -0.25, -0.25, -0.25, 0.75 }, "A_E");
    const CreditResult s = run(b);
    const double sd = std::sqrt((3 * 0.0625 + 0.5625) / 3.0); // sample std of L
    compareList(column(s, "A_E"), { -0.25 / (sd + 1e-6), -0.25 / (sd + 1e-6), -0.25 / (sd + 1e-6), 0.75 / (sd + 1e-6) },
        "A_E std");
}

void TestCreditGigpo::singletons()
{
    // A group of one trajectory with one turn: L has one element, mean 0 and std 1, the raw score passes.
    const Batch one = Batch::fromTrajectories({ traj("solo", "g", 0.7, { { "s", 0.1 } }) });
    CL_NEAR(run(one).advantages[0], 0.8 / (1 + 1e-6));
    CL_NEAR(run(one, { { "mode", "mean_norm" } }).advantages[0], 0.8);
    CL_NEAR(column(run(one), "A_S")[0], 0.0);

    // One trajectory of three distinct turns: L = [s, s, s] has std 0, so A_E = 0; all anchors singletons.
    const Batch three = Batch::fromTrajectories({ traj("solo", "g", 1.0, { { "a" }, { "b" }, { "c" } }) });
    compareList(run(three).advantages, { 0, 0, 0 }, "A");
    compareList(column(run(three), "anchor_size"), { 1, 1, 1 }, "anchor_size");
}

void TestCreditGigpo::allEqualRewards()
{
    // Same reward, same path: every list has std 0 and every difference is 0.
    std::vector<Trajectory> ts;
    for (int i = 0; i < 4; ++i)
        ts.push_back(traj("t" + std::to_string(i), "g", 1.0, { { "root" }, { "mid" }, { "end" } }));
    const CreditResult r = run(Batch::fromTrajectories(ts));
    for (double a : r.advantages)
        CL_NEAR(a, 0.0);
    for (double n : column(r, "anchor_size"))
        CL_NEAR(n, 4.0);
}

void TestCreditGigpo::oneTurnTrajectoriesSharingTheRoot()
{
    // One turn each at the same state: L and the root anchor both hold the rewards, so A_E = A_S = GRPO's A.
    const std::vector<double> rewards { 1, 0, 0, 1, 0.5 };
    std::vector<Trajectory> ts;
    for (std::size_t i = 0; i < rewards.size(); ++i)
        ts.push_back(traj("t" + std::to_string(i), "g", rewards[i], { { "root" } }));
    const Batch b = Batch::fromTrajectories(ts);
    const Estimator& grpo = requireEstimator("grpo");
    const CreditResult g = grpo.compute(b, grpo.resolve({}));
    const CreditResult r = run(b);
    for (std::size_t i = 0; i < rewards.size(); ++i) {
        CL_NEAR(column(r, "A_E")[i], g.advantages[i]);
        CL_NEAR(column(r, "A_S")[i], g.advantages[i]);
        CL_NEAR(r.advantages[i], 2 * g.advantages[i]);
    }
}

void TestCreditGigpo::repeatedStateWithinOneTrajectory()
{
    // A loop A -> B -> A: the two visits of A form one anchor group of size 2 even in a group of one.
    // U (gamma 0.5, R = 1 on the last turn) = [0.25, 0.5, 1]; anchor A: mean 0.625, diffs -0.375, +0.375.
    const Batch b = Batch::fromTrajectories({ traj("loop", "g", 1.0, { { "A" }, { "B" }, { "A" } }) });
    const CreditResult r = run(b, { { "gamma", "0.5" }, { "mode", "mean_norm" } });
    compareList(column(r, "anchor"), { 0, 1, 0 }, "anchor");
    compareList(column(r, "anchor_size"), { 2, 1, 2 }, "anchor_size");
    compareList(column(r, "A_S"), { -0.375, 0, 0.375 }, "A_S");
    compareList(r.advantages, { -0.375, 0, 0.375 }, "A"); // A_E = 0: L = [1, 1, 1]
}

void TestCreditGigpo::groupsAreNeverMerged()
{
    // Identical states in two interleaved groups: anchors are per group.
    const Batch b = Batch::fromTrajectories({
        traj("g1", "G", 1.0, { { "same" }, { "x" } }),
        traj("h1", "H", 0.0, { { "same" }, { "x" } }),
        traj("g2", "G", 0.0, { { "same" }, { "y" } }),
        traj("h2", "H", 1.0, { { "same" } }),
    });
    const CreditResult r = run(b, { { "mode", "mean_norm" } });
    // Group G is numbered first (anchors 0 same, 1 x, 2 y), then H (3 same, 4 x).
    compareList(column(r, "anchor"), { 0, 1, 3, 4, 0, 2, 3 }, "anchor");
    compareList(column(r, "anchor_size"), { 2, 1, 2, 1, 2, 1, 2 }, "anchor_size");
    // G's "same": U = 0.95 and 0 -> +-0.475; H's "same": U = 0 (h1, 0.95 * 0) and 1 -> -+0.5.
    compareList(column(r, "A_S"), { 0.475, 0, -0.5, 0, -0.475, 0, 0.5 }, "A_S");
}

void TestCreditGigpo::gammaAndStepWeight()
{
    const Batch b = Batch::fromTrajectories({
        traj("a", "g", 1.0, { { "s" }, { "t", 0.5 }, { "u" } }),
        traj("b", "g", 0.0, { { "s" }, { "v" } }),
    });
    const CreditResult r0 = run(b, { { "gamma", "0" }, { "mode", "mean_norm" }, { "step_weight", "0.25" } });
    compareList(column(r0, "U"), { 0, 0.5, 1, 0, 0 }, "U gamma 0");
    const CreditResult r1 = run(b, { { "gamma", "1" }, { "mode", "mean_norm" }, { "step_weight", "0.25" } });
    compareList(column(r1, "U"), { 1.5, 1.5, 1, 0, 0 }, "U gamma 1");
    // Scores 1.5 and 0; L = [1.5 x3, 0 x2], mean 0.9. Anchor s: U 1.5 and 0, mean 0.75.
    compareList(column(r1, "A_E"), { 0.6, 0.6, 0.6, -0.9, -0.9 }, "A_E");
    compareList(r1.advantages, { 0.6 + 0.25 * 0.75, 0.6, 0.6, -0.9 - 0.25 * 0.75, -0.9 }, "A");
}

void TestCreditGigpo::emptyAndTurnlessTrajectories()
{
    QVERIFY(run(Batch {}).advantages.empty());
    const Batch b = Batch::fromTrajectories({
        traj("empty", "g", 1.0, {}),
        traj("one", "g", 0.0, { { "s" } }),
        traj("alone", "h", 1.0, {}),
    });
    const CreditResult r = run(b, { { "mode", "mean_norm" } });
    // The turnless trajectory adds nothing to L: L = [0], a list of one.
    compareList(r.advantages, { 0 }, "A");
    compareList(column(r, "anchor_size"), { 1 }, "anchor_size");
}

// Observations of one group in order, the threshold, the expected cluster of each.
void TestCreditGigpo::similarity_data()
{
    QTest::addColumn<QStringList>("texts");
    QTest::addColumn<double>("threshold");
    QTest::addColumn<QList<double>>("anchors");
    const QStringList tenChars { "abcdefghij", "abcdefghiX", "abXdefghiY", "zzzzzzzzzz" };
    // sims to the first: 0.9, 0.8, 0.0
    QTest::newRow("0.95: all apart") << tenChars << 0.95 << QList<double> { 0, 1, 2, 3 };
    QTest::newRow("0.9: one edit joins") << tenChars << 0.9 << QList<double> { 0, 0, 1, 2 };
    QTest::newRow("0.85") << tenChars << 0.85 << QList<double> { 0, 0, 1, 2 };
    QTest::newRow("0.8: exactly at the threshold joins") << tenChars << 0.8 << QList<double> { 0, 0, 0, 1 };
    QTest::newRow("0.05: everything similar enough")
        << QStringList { "abcdefghij", "abXdefghiY", "aaaaaaaaaa" } << 0.05 << QList<double> { 0, 0, 0 };
    // "aabb" is 0.75 from "aaab" but only 0.5 from the cluster's first member "aaaa".
    QTest::newRow("compares with the first member only")
        << QStringList { "aaaa", "aaab", "aabb" } << 0.75 << QList<double> { 0, 0, 1 };
    // "aabb" joins the first matching cluster (0), not the closer second one.
    QTest::newRow("first matching cluster wins")
        << QStringList { "aaaa", "bbbb", "aabb", "abbb" } << 0.5 << QList<double> { 0, 1, 0, 1 };
    QTest::newRow("near-identical observations")
        << QStringList { "You are in the kitchen. You see a mug 1.", "You are in the kitchen. You see a mug 2.",
               "You are in the kitchen. You see a cup 1.", "You are in the hallway. You see nothing." }
        << 0.96 << QList<double> { 0, 0, 1, 2 }; // 1 edit in 40 is 0.975, 2 edits 0.95
    QTest::newRow("insertion and deletion")
        << QStringList { "go to desk", "go to desk 1", "o to desk" } << 0.8 << QList<double> { 0, 0, 0 };
    // Code points, not bytes: "é" is one substitution in four (0.75); as bytes it would be 2 in 5 (0.6).
    QTest::newRow("utf-8 counts code points")
        << QStringList { "cafe", QString::fromUtf8("caf\xc3\xa9") } << 0.75 << QList<double> { 0, 0 };
    QTest::newRow("empty strings") << QStringList { "", "", "a" } << 0.5 << QList<double> { 0, 0, 1 };
    QTest::newRow("repeats reuse their cluster")
        << QStringList { "abcd", "abcx", "abcx", "wxyz", "abcd" } << 0.7 << QList<double> { 0, 0, 0, 1, 0 };
}

void TestCreditGigpo::similarity()
{
    QFETCH(QStringList, texts);
    QFETCH(double, threshold);
    QFETCH(QList<double>, anchors);
    // One trajectory per text, so that each text is one turn of the group.
    std::vector<Trajectory> ts;
    for (qsizetype k = 0; k < texts.size(); ++k)
        ts.push_back(textTraj("t" + std::to_string(k), "g", static_cast<double>(k), { texts[k].toStdString() }));
    const CreditResult r
        = run(Batch::fromTrajectories(ts), { { "similarity", QString::number(threshold).toStdString() } });
    compareList(column(r, "anchor"), anchors, "anchor");
}

void TestCreditGigpo::similarityWithinGroupsOnly()
{
    const Batch b = Batch::fromTrajectories({
        textTraj("g1", "G", 1.0, { "room with a red mug" }),
        textTraj("h1", "H", 0.0, { "room with a red mug" }),
        textTraj("g2", "G", 0.0, { "room with a red cup" }),
    });
    const CreditResult r = run(b, { { "similarity", "0.8" } });
    compareList(column(r, "anchor"), { 0, 1, 0 }, "anchor");
    compareList(column(r, "anchor_size"), { 2, 1, 2 }, "anchor_size");
}

void TestCreditGigpo::matchesLiteralDefinition_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<double>("gamma");
    QTest::addColumn<double>("weight");
    QTest::addColumn<double>("threshold");
    QTest::newRow("defaults") << "mean_std_norm" << 0.95 << 1.0 << 0.0;
    QTest::newRow("mean_norm gamma 1 w 0.5") << "mean_norm" << 1.0 << 0.5 << 0.0;
    QTest::newRow("similarity 0.6") << "mean_std_norm" << 0.9 << 1.0 << 0.6;
    QTest::newRow("similarity 0.34 mean_norm") << "mean_norm" << 0.7 << 2.0 << 0.34;
}

void TestCreditGigpo::matchesLiteralDefinition()
{
    QFETCH(QString, mode);
    QFETCH(double, gamma);
    QFETCH(double, weight);
    QFETCH(double, threshold);
    std::mt19937 rng(12345);
    for (int round = 0; round < 60; ++round) {
        std::vector<Trajectory> ts;
        const int n = 1 + static_cast<int>(rng() % 12);
        for (int i = 0; i < n; ++i) {
            std::vector<Step> steps;
            const int turns = static_cast<int>(rng() % 5);
            for (int k = 0; k < turns; ++k) {
                std::string s = "s"; // 3 to 6 letters of {a, b}: repeats, and edits of every size
                const int letters = 3 + static_cast<int>(rng() % 4);
                for (int c = 0; c < letters; ++c)
                    s.push_back(static_cast<char>('a' + rng() % 2));
                steps.push_back({ s, rng() % 3 == 0 ? 0.25 * static_cast<double>(rng() % 5) - 0.5 : 0.0 });
            }
            ts.push_back(traj(
                "t" + std::to_string(i), "g" + std::to_string(rng() % 3), static_cast<double>(rng() % 3) * 0.5, steps));
        }
        const Batch b = Batch::fromTrajectories(ts);
        const CreditResult r = run(b,
            { { "mode", mode.toStdString() }, { "gamma", QString::number(gamma).toStdString() },
                { "step_weight", QString::number(weight).toStdString() },
                { "similarity", QString::number(threshold).toStdString() } });
        const std::vector<double> expected = reference(b, gamma, mode == "mean_std_norm", weight, threshold);
        QCOMPARE(r.advantages.size(), expected.size());
        for (std::size_t k = 0; k < expected.size(); ++k)
            CL_NEAR(r.advantages[k], expected[k]);
    }
}

void TestCreditGigpo::paramErrors_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::newRow("unknown key") << "lambda"
                                 << "0.1";
    QTest::newRow("gamma above 1") << "gamma"
                                   << "1.5";
    QTest::newRow("gamma below 0") << "gamma"
                                   << "-0.1";
    QTest::newRow("gamma not a number") << "gamma"
                                        << "high";
    QTest::newRow("similarity 1") << "similarity"
                                  << "1";
    QTest::newRow("similarity negative") << "similarity"
                                         << "-0.2";
    QTest::newRow("bad mode") << "mode"
                              << "std_norm";
    QTest::newRow("step_weight text") << "step_weight"
                                      << "one";
}

void TestCreditGigpo::paramErrors()
{
    QFETCH(QString, key);
    QFETCH(QString, value);
    const Estimator& e = requireEstimator("gigpo");
    QVERIFY_THROWS_EXCEPTION(ParamError, e.resolve({ { key.toStdString(), value.toStdString() } }));
    // The edges of the ranges are accepted.
    e.resolve({ { "gamma", "0" }, { "similarity", "0.999999" } });
    e.resolve({ { "gamma", "1" }, { "mode", "mean_norm" } });
}

void TestCreditGigpo::benchmark_data()
{
    QTest::addColumn<QString>("similarity");
    QTest::addColumn<int>("limitMs");
    QTest::newRow("exact") << "0" << 1000;
    QTest::newRow("similarity 0.9") << "0.9" << 60000; // quadratic in distinct states per group: no promise
}

void TestCreditGigpo::benchmark()
{
    QFETCH(QString, similarity);
    QFETCH(int, limitMs);
    // 1,000,000 turns in groups of 8 trajectories of 25 turns; set CREDITLAB_BENCH=1 to run it.
    if (qEnvironmentVariableIsEmpty("CREDITLAB_BENCH"))
        QSKIP("set CREDITLAB_BENCH=1 to time a batch of 1,000,000 turns");
    std::vector<Trajectory> ts;
    std::mt19937 rng(7);
    for (int i = 0; i < 40000; ++i) {
        Trajectory t = traj("t" + std::to_string(i), "g" + std::to_string(i / 8), rng() % 2, {});
        for (int k = 0; k < 25; ++k) {
            Turn u;
            u.observation
                = "You are in room " + std::to_string(rng() % 6) + " facing the door, step " + std::to_string(k);
            u.action = "go north";
            t.turns.push_back(std::move(u));
        }
        ts.push_back(std::move(t));
    }
    const Batch b = Batch::fromTrajectories(std::move(ts));
    const Estimator& e = requireEstimator("gigpo");
    const Params p = e.resolve({ { "similarity", similarity.toStdString() } });
    QElapsedTimer timer;
    timer.start();
    const CreditResult r = e.compute(b, p);
    qInfo("gigpo, similarity %s: %zu turns in %lld ms", qPrintable(similarity), r.advantages.size(),
        static_cast<long long>(timer.elapsed()));
    QVERIFY(timer.elapsed() < limitMs);
}

QTEST_GUILESS_MAIN(TestCreditGigpo)
#include "tst_credit_gigpo.moc"
