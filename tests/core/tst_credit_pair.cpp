// PAIR's advantage as the authors' released code computes it. The worked example of
// /work/shared/methods/pair.md §7.3 and hand-computed edges.
#include "core/credit/common.h"
#include "core/credit/estimator.h"
#include "credittestutil.h"

#include "testutil.h"

#include <QtTest/QTest>

#include <cmath>

using namespace creditlab;
using namespace creditlab::credit;

using creditlab::test::compareValues;

namespace {


/// Trajectories "group:reward:s1,s2,...", ';'-separated, ids t0, t1, ...; one score per turn, '-' for none.
Batch makeBatch(const QString& spec)
{
    std::vector<Trajectory> trajectories;
    const QStringList parts = spec.split(u';');
    for (int i = 0; i < parts.size(); ++i) {
        const QStringList f = parts[i].split(u':');
        Trajectory t;
        t.id = QStringLiteral("t%1").arg(i).toStdString();
        t.group = f[0].toStdString();
        t.reward = f[1].toDouble();
        for (const QString& v : f[2].split(u',')) {
            Turn u;
            if (v != u"-")
                u.score = v.toDouble();
            t.turns.push_back(std::move(u));
        }
        trajectories.push_back(std::move(t));
    }
    return Batch::fromTrajectories(std::move(trajectories));
}

using test::assignments;

CreditResult run(const Batch& batch, const QStringList& sets = {}) { return test::runMethod("pair", batch, sets); }

double sigmoid(double z) { return 1.0 / (1.0 + std::exp(-z)); }

} // namespace

class TestCreditPair : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // pair.md §7.3: alpha = 5, T = 2, eps = 0.05, one group of four (the defaults).
    void workedExample()
    {
        const CreditResult r = run(makeBatch("g:0:0.9,0.6,0.95;g:0:0.2,0.3,0.8,0.9;g:0:0.999,0.999;g:0:0.5,0.1"));
        compareValues(r.detail("s_soft")->numbers,
            { 0.75, 0.5505, 0.8134, 0.3333, 0.3956, 0.6667, 0.75, 0.95, 0.95, 0.5, 0.25 }, 1e-4);
        compareValues(r.detail("q")->numbers,
            { 0.75, 0.3112, 0.9079, 0.3333, 0.472, 0.9006, 0.9257, 0.95, 0.95, 0.5, 0.0872 }, 1e-4);
        compareValues(r.detail("B")->numbers,
            { 0.2658, 0.2658, 0.2658, 1.1597, 1.1597, 1.1597, 1.1597, 0.1727, 0.1727, -1.5983, -1.5983 }, 1e-4);
        compareValues(r.advantages,
            { 0.3595, -0.0793, 0.5174, 0.8351, 0.9738, 1.4024, 1.4275, 0.1727, 0.1727, -1.3919, -1.8047 }, 1e-4);
        // Q = [1.969, 2.6317, 1.9, 0.5872], mean 1.772, population std 0.7413.
        const std::vector<double>& q = r.detail("q")->numbers;
        double q1 = 0.0;
        for (std::size_t n = 0; n < 3; ++n)
            q1 += q[n];
        QVERIFY(std::abs(q1 - 1.969) < 1e-3);
    }

    void handComputed_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QStringList>("sets");
        QTest::addColumn<QList<double>>("expected");
        // momentum=false: q = s'. s'(0.5) = 0.5, s'(0.9) = sigmoid(ln 9 / 2) = 0.75. Q = [1, 0.75]: B = [1, -1].
        QTest::newRow("momentum=false") << "g:0:0.5,0.5;g:1:0.9" << QStringList { "momentum=false" }
                                        << QList<double> { 1.0, 1.0, -1.0 };
        // The same with momentum: q_2 = sigmoid(logit(0.5) + 5 (0.5 - 0.5)) = 0.5, nothing changes.
        QTest::newRow("flat momentum") << "g:0:0.5,0.5;g:1:0.9" << QStringList {} << QList<double> { 1.0, 1.0, -1.0 };
        // A group of one: B = Q - Q = 0, so A = q - mean q. s' = [0.5, 0.75]; q_2 = sigmoid(ln 3 + 5 * 0.25).
        QTest::newRow("group of one") << "g:0:0.5,0.9" << QStringList {}
                                      << QList<double> { 0.5 - (0.5 + sigmoid(std::log(3.0) + 1.25)) / 2,
                                             sigmoid(std::log(3.0) + 1.25)
                                                 - (0.5 + sigmoid(std::log(3.0) + 1.25)) / 2 };
        // One-turn trajectories: q - mean q = 0, so A = B; Q = [0.75, 0.5, 0.25] has mean 0.5, pop. std sqrt(1/24).
        QTest::newRow("one-turn trajectories")
            << "g:1:0.9;g:0:0.5;g:0:0.1" << QStringList {}
            << QList<double> { 0.25 / std::sqrt(1.0 / 24), 0.0, -0.25 / std::sqrt(1.0 / 24) };
        // Equal totals: population std 0 <= 1e-8, so B = Q - mean Q = 0 (no division).
        QTest::newRow("equal totals") << "g:0:0.9,0.1;g:1:0.1,0.9;g:0:0.5,0.5" << QStringList { "momentum=false" }
                                      << QList<double> { 0.25, -0.25, -0.25, 0.25, 0.0, 0.0 };
        // T = 1, clip_eps = 0, no momentum: q is the score itself.
        QTest::newRow("raw scores") << "g:0:0.3,0.9;g:0:0.2" << QStringList { "T=1", "clip_eps=0", "momentum=false" }
                                    << QList<double> { -0.3 + 1.0, 0.3 + 1.0, -1.0 };
        // Clipping: 0.999 softens to 0.9693 and is clipped to 0.95; 0 (logit clamped at 1e-6) to 0.05.
        QTest::newRow("clipped") << "g:0:0.999;g:0:0" << QStringList { "momentum=false" }
                                 << QList<double> { 1.0, -1.0 };
    }

    void handComputed()
    {
        QFETCH(QString, spec);
        QFETCH(QStringList, sets);
        QFETCH(QList<double>, expected);
        compareValues(run(makeBatch(spec), sets).advantages, expected);
    }

    void softening_data()
    {
        QTest::addColumn<double>("score");
        QTest::addColumn<QStringList>("sets");
        QTest::addColumn<double>("expected");
        const double logitLow = std::log(1e-6 / (1 - 1e-6));
        QTest::newRow("0.9, T=2") << 0.9 << QStringList {} << 0.75;
        QTest::newRow("0.999 clipped") << 0.999 << QStringList {} << 0.95;
        QTest::newRow("0.999 unclipped") << 0.999 << QStringList { "clip_eps=0" } << sigmoid(std::log(999.0) / 2);
        QTest::newRow("0 clipped") << 0.0 << QStringList {} << 0.05;
        QTest::newRow("0 logit clamp") << 0.0 << QStringList { "clip_eps=0" } << sigmoid(logitLow / 2);
        QTest::newRow("1 logit clamp") << 1.0 << QStringList { "clip_eps=0" } << sigmoid(-logitLow / 2);
        QTest::newRow("T=4") << 0.9 << QStringList { "T=4" } << sigmoid(std::log(9.0) / 4);
        QTest::newRow("clip_eps=0.3") << 0.9 << QStringList { "clip_eps=0.3" } << 0.7;
    }

    void softening()
    {
        QFETCH(double, score);
        QFETCH(QStringList, sets);
        QFETCH(double, expected);
        const CreditResult r = run(makeBatch(QString("g:0:%1").arg(score, 0, 'g', 17)), sets);
        compareValues(r.detail("s_soft")->numbers, { expected }, 1e-12);
    }

    // Population std <= 1e-8 without being 0: B falls back to Q - mean Q, which stays tiny (not +-1).
    void tinyStdFallback()
    {
        const CreditResult r = run(makeBatch("g:0:0.5;g:0:0.500000001"), { "momentum=false" });
        const std::vector<double>& b = r.detail("B")->numbers;
        QVERIFY(b[0] < 0 && b[1] > 0);
        QVERIFY(std::abs(b[0]) < 1e-8 && std::abs(b[1]) < 1e-8);
        QVERIFY(std::abs(b[0] + b[1]) < 1e-15);
        compareValues(r.advantages, { b[0], b[1] }, 1e-15);
    }

    // The advantage estimators of pair.md §2.6, hand-computed with q_t = score_t (T = 1, no momentum): t0 has
    // q = (0.8, 0.4) and R = 1, t1 has q = (0.6) and R = 0, one group.
    void advantageEstimators_data()
    {
        QTest::addColumn<QString>("estimator");
        QTest::addColumn<QList<double>>("expected");
        QTest::newRow("pair_code") << "pair_code" << QList<double> { 1.2, 0.8, -1.0 }; // Q = 1.2, 0.6: B = +1, -1
        QTest::newRow("pair_code_mean") << "pair_code_mean" << QList<double> { 0.2, -0.2, 0.0 }; // Q equal: B = 0
        // Turn rewards 0.8, 0.4, 0.6: mean 0.6, population std sqrt(0.08 / 3); suffix sums of the z-scores.
        const double z = 0.2 / std::sqrt(0.08 / 3.0);
        QTest::newRow("process_sum") << "process_sum" << QList<double> { z - z, -z, 0.0 };
        QTest::newRow("outcome") << "outcome" << QList<double> { 1.0, 1.0, -1.0 };
        // lambda = 0.5: t0's last reward 0.4 + 0.5 * 1 = 0.9; Q = 1.7, 0.6: B = +1, -1; t0's mean 0.85.
        QTest::newRow("mixed") << "mixed" << QList<double> { 0.95, 1.05, -1.0 };
    }

    void advantageEstimators()
    {
        QFETCH(QString, estimator);
        QFETCH(QList<double>, expected);
        const CreditResult r = run(makeBatch("g:1:0.8,0.4;g:0:0.6"),
            { "momentum=false", "T=1", "clip_eps=0.01", "advantage=" + estimator, "lambda=0.5" });
        compareValues(r.advantages, expected, 1e-12);
    }

    // alpha = 0 makes the momentum term vanish: q = sigmoid(logit(s')) = s'.
    void zeroAlphaIsNoMomentum()
    {
        const Batch b = makeBatch("g:0:0.9,0.6,0.95;g:0:0.2,0.3,0.8,0.9;h:1:0.4,0.7");
        const CreditResult plain = run(b, { "momentum=false" });
        const CreditResult zero = run(b, { "alpha=0" });
        compareValues(zero.advantages, QList<double>(plain.advantages.begin(), plain.advantages.end()), 1e-12);
        const std::vector<double>& soft = plain.detail("s_soft")->numbers;
        compareValues(zero.detail("q")->numbers, QList<double>(soft.begin(), soft.end()), 1e-12);
    }

    // Groups are separate: B uses only the group's own totals.
    void groupsApart()
    {
        const CreditResult both = run(makeBatch("g:0:0.9;h:0:0.2,0.3;g:0:0.5;h:0:0.8"));
        const CreditResult g = run(makeBatch("g:0:0.9;g:0:0.5"));
        const CreditResult h = run(makeBatch("h:0:0.2,0.3;h:0:0.8"));
        compareValues(
            both.advantages, { g.advantages[0], h.advantages[0], h.advantages[1], g.advantages[1], h.advantages[2] });
    }

    void missingScore()
    {
        const Batch b = makeBatch("g:1:0.5;g:0:0.5,-");
        const Estimator& e = requireEstimator("pair");
        try {
            e.validate(b, e.resolve({}));
            QFAIL("expected CreditInputError");
        } catch (const CreditInputError& error) {
            const std::string what = error.what();
            QVERIFY2(what.find("\"t1\"") != std::string::npos, error.what());
            QVERIFY2(what.find("turn 2") != std::string::npos, error.what());
            QVERIFY2(what.find("\"score\"") != std::string::npos, error.what());
        }
    }

    void paramErrors_data()
    {
        QTest::addColumn<QString>("assignment");
        QTest::addColumn<QString>("key");
        QTest::newRow("unknown key") << "beta=1"
                                     << "beta";
        QTest::newRow("T zero") << "T=0"
                                << "T";
        QTest::newRow("T negative") << "T=-2"
                                    << "T";
        QTest::newRow("clip_eps 0.5") << "clip_eps=0.5"
                                      << "clip_eps";
        QTest::newRow("clip_eps negative") << "clip_eps=-0.01"
                                           << "clip_eps";
        QTest::newRow("alpha negative") << "alpha=-1"
                                        << "alpha";
        QTest::newRow("bad bool") << "momentum=on"
                                  << "momentum";
        QTest::newRow("key is case-sensitive") << "t=2"
                                               << "t";
    }

    void paramErrors()
    {
        QFETCH(QString, assignment);
        QFETCH(QString, key);
        try {
            (void)requireEstimator("pair").resolve(assignments({ assignment }));
            QFAIL("expected ParamError");
        } catch (const ParamError& error) {
            QVERIFY2(std::string(error.what()).find("'" + key.toStdString() + "'") != std::string::npos, error.what());
        }
    }

    void paramDefaults()
    {
        QCOMPARE(
            requireEstimator("pair").resolve({}).canonical(),
            std::string("T=2,advantage=pair_code,alpha=5,clip_eps=0.05,lambda=0,momentum=true"));
    }
};

QTEST_GUILESS_MAIN(TestCreditPair)
#include "tst_credit_pair.moc"
