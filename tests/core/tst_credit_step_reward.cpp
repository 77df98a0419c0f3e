// step_reward, RTMC's "GRPO + Step Reward" baseline (CONVENTIONS.md "Baselines named by the papers"):
// discounted step-reward returns normalised over the group's episode returns.
#include "core/credit/estimator.h"
#include "credittestutil.h"

#include <QtTest/QTest>

#include <cmath>
#include <string>
#include <vector>

using namespace creditlab;
using namespace creditlab::credit;

namespace {

/// `prefix` followed by `n` (avoids GCC 12's false -Wrestrict on "literal" + std::string).
std::string numbered(std::string prefix, int n) { return prefix.append(std::to_string(n)); }

/// A trajectory with terminal reward `reward` and one turn per intermediate reward.
Trajectory makeTraj(const std::string& id, const std::string& group, double reward, const std::vector<double>& rewards)
{
    Trajectory t;
    t.id = id;
    t.group = group;
    t.reward = reward;
    for (double r : rewards) {
        Turn u;
        u.observation = "obs";
        u.action = "act";
        if (r != 0.0)
            u.reward = r; // absent means 0
        t.turns.push_back(u);
    }
    return t;
}

CreditResult run(const std::string& method, const Batch& batch,
    const std::vector<std::pair<std::string, std::string>>& assignments = {})
{
    return test::runMethod(method, batch, assignments);
}

} // namespace

#define CL_NEAR(actual, expected)                                                                                      \
    do {                                                                                                               \
        const double a_ = (actual), e_ = (expected);                                                                   \
        QVERIFY2(std::abs(a_ - e_) < 1e-9,                                                                             \
            qPrintable(QStringLiteral("%1 = %2, expected %3").arg(#actual).arg(a_, 0, 'g', 17).arg(e_, 0, 'g', 17)));  \
    } while (false)

class TestCreditStepReward : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void registered()
    {
        const Estimator* e = findEstimator("step_reward");
        QVERIFY(e);
        QCOMPARE(e->params().size(), std::size_t(1));
        CL_NEAR(e->resolve({}).getDouble("gamma"), 1.0);
    }

    // A group of one: mean = G_1 and std = 0, so A = G_t - G_1. rho = [0.5, 0, -0.25 + 1].
    void groupOfOne_data()
    {
        QTest::addColumn<QString>("gamma");
        QTest::addColumn<QList<double>>("returns");
        QTest::addColumn<QList<double>>("advantages");
        QTest::newRow("gamma 1") << "1" << QList<double> { 1.25, 0.75, 0.75 } << QList<double> { 0, -0.5, -0.5 };
        QTest::newRow("gamma 0.5") << "0.5" << QList<double> { 0.6875, 0.375, 0.75 }
                                   << QList<double> { 0, -0.3125, 0.0625 };
        QTest::newRow("gamma 0") << "0" << QList<double> { 0.5, 0, 0.75 } << QList<double> { 0, -0.5, 0.25 };
    }

    void groupOfOne()
    {
        QFETCH(QString, gamma);
        QFETCH(QList<double>, returns);
        QFETCH(QList<double>, advantages);
        const Batch batch = Batch::fromTrajectories({ makeTraj("a", "g", 1.0, { 0.5, 0.0, -0.25 }) });
        const CreditResult r = run("step_reward", batch, { { "gamma", gamma.toStdString() } });
        const DetailColumn* g = r.detail("G");
        QVERIFY(g && !g->isText && g->numbers.size() == 3);
        for (std::size_t t = 0; t < 3; ++t) {
            CL_NEAR(g->numbers[t], returns[static_cast<qsizetype>(t)]);
            CL_NEAR(r.at(0, t), advantages[static_cast<qsizetype>(t)]);
        }
    }

    void groupNormalisation()
    {
        // Episode returns 1, 0.5, -0.5: mean 1/3, sample std sqrt(7/12).
        const Batch batch
            = Batch::fromTrajectories({ makeTraj("a", "g", 1.0, { 0.0, 0.0 }), makeTraj("b", "g", 0.0, { 0.5, 0.0 }),
                makeTraj("c", "g", 0.0, { -0.5 }), makeTraj("other", "h", 3.0, { 0.0 }) });
        const CreditResult r = run("step_reward", batch);
        const double mean = 1.0 / 3.0, sd = std::sqrt(7.0 / 12.0) + 1e-6;
        CL_NEAR(r.at(0, 0), (1.0 - mean) / sd);
        CL_NEAR(r.at(0, 1), (1.0 - mean) / sd);
        CL_NEAR(r.at(1, 0), (0.5 - mean) / sd);
        CL_NEAR(r.at(1, 1), (0.0 - mean) / sd);
        CL_NEAR(r.at(2, 0), (-0.5 - mean) / sd);
        CL_NEAR(r.at(3, 0), 0.0); // its own group of one
    }

    // std < 1e-8: only the mean is subtracted; just above it, the division applies.
    void stdFloor_data()
    {
        QTest::addColumn<double>("second");
        QTest::addColumn<bool>("divided");
        QTest::newRow("equal returns") << 1.0 << false;
        QTest::newRow("std 7.1e-9") << 1.0 + 1e-8 << false;
        QTest::newRow("std 2.1e-8") << 1.0 + 3e-8 << true;
    }

    void stdFloor()
    {
        QFETCH(double, second);
        QFETCH(bool, divided);
        // b's episode return is `second`; its later turn's return is 0.
        const Batch batch
            = Batch::fromTrajectories({ makeTraj("a", "g", 1.0, { 0.0 }), makeTraj("b", "g", 0.0, { second, 0.0 }) });
        const CreditResult r = run("step_reward", batch);
        const double mean = (1.0 + second) / 2.0;
        const double sd = std::abs(second - 1.0) / std::sqrt(2.0);
        QCOMPARE(sd >= 1e-8, divided);
        const double div = divided ? sd + 1e-6 : 1.0;
        CL_NEAR(r.at(0, 0), (1.0 - mean) / div);
        CL_NEAR(r.at(1, 0), (second - mean) / div);
        CL_NEAR(r.at(1, 1), (0.0 - mean) / div);
    }

    // Without intermediate rewards and with gamma = 1, every return is R: the advantages are GRPO's.
    void matchesGrpoWithoutStepRewards()
    {
        std::vector<Trajectory> ts;
        for (int i = 0; i < 12; ++i)
            ts.push_back(makeTraj(numbered("t", i), numbered("g", i % 3), 0.25 * (i % 5), { 0, 0, 0 }));
        ts.push_back(makeTraj("alone", "solo", 1.0, { 0, 0 }));
        const Batch batch = Batch::fromTrajectories(ts);
        const CreditResult s = run("step_reward", batch);
        const CreditResult g = run("grpo", batch);
        QCOMPARE(s.advantages.size(), g.advantages.size());
        for (std::size_t k = 0; k < s.advantages.size(); ++k)
            CL_NEAR(s.advantages[k], g.advantages[k]);
    }

    void trajectoryWithoutTurns()
    {
        // An empty trajectory has no episode return: it is left out of the group's mean and std.
        const Batch batch = Batch::fromTrajectories(
            { makeTraj("a", "g", 2.0, { 0.0 }), makeTraj("empty", "g", 100.0, {}), makeTraj("b", "g", 0.0, { 0.0 }) });
        const CreditResult r = run("step_reward", batch);
        QCOMPARE(r.advantages.size(), std::size_t(2));
        const double sd = std::sqrt(2.0) + 1e-6;
        CL_NEAR(r.at(0, 0), 1.0 / sd);
        CL_NEAR(r.at(2, 0), -1.0 / sd);
        QVERIFY(run("step_reward", Batch {}).advantages.empty());
    }

    void paramErrors_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::newRow("unknown key") << "kappa"
                                     << "2";
        QTest::newRow("gamma above 1") << "gamma"
                                       << "1.5";
        QTest::newRow("gamma negative") << "gamma"
                                        << "-0.1";
        QTest::newRow("gamma not a number") << "gamma"
                                            << "abc";
    }

    void paramErrors()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        const Estimator& e = requireEstimator("step_reward");
        QVERIFY_THROWS_EXCEPTION(ParamError, e.resolve({ { key.toStdString(), value.toStdString() } }));
    }
};

QTEST_GUILESS_MAIN(TestCreditStepReward)
#include "tst_credit_step_reward.moc"
