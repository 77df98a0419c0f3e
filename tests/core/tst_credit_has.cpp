// HAS (hybrid advantage shaping) with the progressive and judge decomposers. Worked numbers from
// /work/shared/methods/has_turnrd.md §2.1-2.3 (sample-std columns, CONVENTIONS.md) and hand-computed edges.
// §2.7 (TurnRD's value projection) needs the learned decomposer and is tested with it, not here.
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

constexpr double kTol = 1e-9;

/// Trajectories "group:reward:v1,v2,...", ';'-separated, ids t0, t1, ...; a value per turn for `field`
/// ("progress" or "score"), '-' for a turn without it.
Batch makeBatch(const QString& spec, const std::string& field = "progress")
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
                (field == "score" ? u.score : u.progress) = v.toDouble();
            t.turns.push_back(std::move(u));
        }
        trajectories.push_back(std::move(t));
    }
    return Batch::fromTrajectories(std::move(trajectories));
}

using test::assignments;

CreditResult run(std::string_view method, const Batch& batch, const QStringList& sets = {})
{
    return test::runMethod(method, batch, sets);
}

/// (x - mean) / (sample std + eps) of two values: +-1/sqrt(2) scaled by the eps.
double z2(double x, double other)
{
    const double m = (x + other) / 2;
    return (x - m) / (std::abs(x - other) / std::sqrt(2.0) + 1e-6);
}

} // namespace

class TestCreditHas : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // has_turnrd.md §2.1: K = 3, R = [1, 0, 0], sample std: A_traj = [1.1547, -0.5774, -0.5774].
    void trajectoryAdvantage()
    {
        const CreditResult r = run("has", makeBatch("g:1:0.5;g:0:0.5;g:0:0.5"), { "alpha=1" });
        compareValues(r.detail("A_traj")->numbers, { 1.1547, -0.5774, -0.5774 }, 1e-4);
        compareValues(r.advantages, { 1.1547, -0.5774, -0.5774 }, 1e-4);
    }

    // has_turnrd.md §2.2: alpha = 0.5, A_traj = 1.4142, A_turn = [0.5, -1.0] give A_H = [0.9571, 0.2071].
    // Built so that those are the values: norm_std=false and R = [sqrt 2, -sqrt 2, 0, 0] give A_traj = sqrt 2;
    // position 1 credits [0.5, 0.5, -1.5, 0.5] have mean 0 and sample std 1, position 2 credits [-1, 0, 1] too.
    void blendWorkedExample()
    {
        const QString spec = QString("g:%1:0.5,-0.5;g:%2:0.5,0.5;g:0:-1.5,-0.5;g:0:0.5")
                                 .arg(std::sqrt(2.0), 0, 'g', 17)
                                 .arg(-std::sqrt(2.0), 0, 'g', 17);
        const CreditResult r = run("has", makeBatch(spec), { "norm_std=false" });
        compareValues(r.detail("A_turn")->numbers, { 0.5, -1.0, 0.5, 0.0, -1.5, 1.0, 0.5 }, 1e-5);
        const std::vector<double> first(r.advantages.begin(), r.advantages.begin() + 2);
        compareValues(first, { 0.9571, 0.2071 }, 1e-4);
        // Eq. 2 exactly, on every turn, and no re-normalisation afterwards.
        for (std::size_t n = 0; n < r.advantages.size(); ++n)
            QVERIFY(std::abs(
                        r.advantages[n] - (0.5 * r.detail("A_traj")->numbers[n] + 0.5 * r.detail("A_turn")->numbers[n]))
                < kTol);
    }

    // has_turnrd.md §2.3: K = 3, lengths 3, 2, 1, raw credits [0.2, 0.5, 0.3], [-0.4, 0.4], [0.0]; sample std.
    void positionWiseWorkedExample_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QStringList>("sets");
        QTest::newRow("progressive") << "g:1:0.2,0.7,1.0;g:0:-0.4,0;g:0:0" << QStringList {};
        // judge: x = 2 score - 1, so score = (x + 1) / 2.
        QTest::newRow("judge") << "g:1:0.6,0.75,0.65;g:0:0.3,0.7;g:0:0.5" << QStringList { "decomposer=judge" };
    }

    void positionWiseWorkedExample()
    {
        QFETCH(QString, spec);
        QFETCH(QStringList, sets);
        const bool judge = !sets.isEmpty();
        const CreditResult r = run("has", makeBatch(spec, judge ? "score" : "progress"), sets);
        compareValues(r.detail("x")->numbers, { 0.2, 0.5, 0.3, -0.4, 0.4, 0.0 }, 1e-12);
        // Flat in batch order: trajectory 1 positions 1-3, trajectory 2 positions 1-2, trajectory 3 position 1.
        // Position 3 is reached by one trajectory only, so its A_turn is 0.
        compareValues(r.detail("A_turn")->numbers, { 0.8729, 0.7071, 0.0, -1.0911, -0.7071, 0.2182 }, 1e-4);
    }

    void handComputed_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QStringList>("sets");
        QTest::addColumn<QList<double>>("expected");
        const double a = 0.5 / (std::sqrt(0.5) + 1e-6); // A_traj of a group of two with R = {1, 0}
        QTest::newRow("group of one") << "g:1:0.3,0.9" << QStringList {} << QList<double> { 0.0, 0.0 };
        QTest::newRow("all-equal rewards")
            << "g:1:0.2;g:1:0.6" << QStringList {} << QList<double> { 0.5 * z2(0.2, 0.6), 0.5 * z2(0.6, 0.2) };
        QTest::newRow("one-turn trajectories")
            << "g:1:0.2;g:0:0.6;h:1:1" << QStringList {}
            << QList<double> { 0.5 * a + 0.5 * z2(0.2, 0.6), -0.5 * a + 0.5 * z2(0.6, 0.2), 0.0 };
        // Lengths 1 and 3: positions 2 and 3 have one trajectory, so A_turn = 0 and A = alpha * A_traj.
        QTest::newRow("unequal lengths") << "g:1:0.5;g:0:0.1,0.4,0.2" << QStringList {}
                                         << QList<double> { 0.5 * a + 0.5 * z2(0.5, 0.1), -0.5 * a + 0.5 * z2(0.1, 0.5),
                                                -0.5 * a, -0.5 * a };
        QTest::newRow("equal credits at a position")
            << "g:1:0.3,0.8;g:0:0.3,0.3" << QStringList {}
            << QList<double> { 0.5 * a, 0.5 * a + 0.5 * z2(0.5, 0.0), -0.5 * a, -0.5 * a + 0.5 * z2(0.0, 0.5) };
        QTest::newRow("alpha 0.25") << "g:1:0.2;g:0:0.6" << QStringList { "alpha=0.25" }
                                    << QList<double> { 0.25 * a + 0.75 * z2(0.2, 0.6),
                                           -0.25 * a + 0.75 * z2(0.6, 0.2) };
        QTest::newRow("alpha 0") << "g:1:0.2;g:0:0.6" << QStringList { "alpha=0" }
                                 << QList<double> { z2(0.2, 0.6), z2(0.6, 0.2) };
        QTest::newRow("binarize") << "g:10:0;g:0:1" << QStringList { "binarize=true" }
                                  << QList<double> { 0.5 * a + 0.5 * z2(0, 1), -0.5 * a + 0.5 * z2(1, 0) };
        QTest::newRow("norm_std=false") << "g:3:0;g:1:1" << QStringList { "norm_std=false" }
                                        << QList<double> { 0.5 * 1.0 + 0.5 * z2(0, 1), 0.5 * -1.0 + 0.5 * z2(1, 0) };
        // Progress goes down as well as up: x = [0.5, -0.25] and [0.1, 0.1].
        QTest::newRow("progress differences")
            << "g:1:0.5,0.25;g:0:0.1,0.2" << QStringList { "alpha=0" }
            << QList<double> { z2(0.5, 0.1), z2(-0.25, 0.1), z2(0.1, 0.5), z2(0.1, -0.25) };
        QTest::newRow("judge, groups apart")
            << "g:1:0.9;g:0:0.4;h:0:0.1;h:1:0.7" << QStringList { "decomposer=judge" }
            << QList<double> { 0.5 * a + 0.5 * z2(0.8, -0.2), -0.5 * a + 0.5 * z2(-0.2, 0.8),
                   -0.5 * a + 0.5 * z2(-0.8, 0.4), 0.5 * a + 0.5 * z2(0.4, -0.8) };
    }

    void handComputed()
    {
        QFETCH(QString, spec);
        QFETCH(QStringList, sets);
        QFETCH(QList<double>, expected);
        const bool judge = sets.contains("decomposer=judge");
        const CreditResult r = run("has", makeBatch(spec, judge ? "score" : "progress"), sets);
        compareValues(r.advantages, expected);
    }

    // Proposition 1: alpha = 1 is GRPO, whatever the decomposer's credits.
    void alphaOneIsGrpo_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QStringList>("sets");
        const QString mixed = "a:1:0.1,0.5,0.2;a:0:0.3;a:0.5:0.9,1;b:2:0.4;c:3:0,0;c:3:1;c:-1:0.2,0.1,0.9,0.3";
        QTest::newRow("progressive") << mixed << QStringList {};
        QTest::newRow("judge") << mixed << QStringList { "decomposer=judge" };
        QTest::newRow("binarize") << mixed << QStringList { "binarize=true" };
        QTest::newRow("norm_std=false") << mixed << QStringList { "norm_std=false" };
    }

    void alphaOneIsGrpo()
    {
        QFETCH(QString, spec);
        QFETCH(QStringList, sets);
        const bool judge = sets.contains("decomposer=judge");
        const Batch b = makeBatch(spec, judge ? "score" : "progress");
        QStringList grpoSets = sets;
        grpoSets.removeAll("decomposer=judge");
        const CreditResult grpo = run("grpo", b, grpoSets);
        const CreditResult has = run("has", b, sets + QStringList { "alpha=1" });
        compareValues(has.advantages, QList<double>(grpo.advantages.begin(), grpo.advantages.end()));
    }

    void missingField_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QStringList>("sets");
        QTest::newRow("progressive needs progress") << "g:1:0.5;g:0:0.5,-"
                                                    << "progress" << QStringList {};
        QTest::newRow("judge needs score") << "g:1:0.5;g:0:0.5,-"
                                           << "score" << QStringList { "decomposer=judge" };
    }

    void missingField()
    {
        QFETCH(QString, spec);
        QFETCH(QString, field);
        QFETCH(QStringList, sets);
        const Batch b = makeBatch(spec, field.toStdString());
        const Estimator& e = requireEstimator("has");
        try {
            e.validate(b, e.resolve(assignments(sets)));
            QFAIL("expected CreditInputError");
        } catch (const CreditInputError& error) {
            const std::string what = error.what();
            QVERIFY2(what.find("\"t1\"") != std::string::npos, error.what());
            QVERIFY2(what.find("turn 2") != std::string::npos, error.what());
            QVERIFY2(what.find("\"" + field.toStdString() + "\"") != std::string::npos, error.what());
        }
    }

    // The turnrd decomposer reads TurnRD's r̂_t from the turn's credit entry "turnrd": with r̂_t equal to the
    // progress differences it gives exactly the progressive decomposer's advantages; a turn without it is named.
    void turnrdReadsCreditEntry()
    {
        const QString spec = QStringLiteral("g:1:0.2,0.5,1;g:0:0.1,0.1;g:1:0.3,0.9,1,1;h:0:0,0.4;h:1:0.6,1");
        const Batch progressive = makeBatch(spec);
        std::vector<Trajectory> withCredit = progressive.trajectories;
        for (Trajectory& t : withCredit) {
            double previous = 0.0;
            for (Turn& u : t.turns) {
                u.credits.emplace_back("turnrd", *u.progress - previous);
                previous = *u.progress;
                u.progress.reset();
            }
        }
        const Batch turnrd = Batch::fromTrajectories(std::move(withCredit));
        const CreditResult expected = run("has", progressive, { "alpha=0.25" });
        const CreditResult actual = run("has", turnrd, { "alpha=0.25", "decomposer=turnrd" });
        QCOMPARE(actual.advantages.size(), expected.advantages.size());
        for (std::size_t n = 0; n < actual.advantages.size(); ++n)
            QVERIFY(std::abs(actual.advantages[n] - expected.advantages[n]) < 1e-12);
        QVERIFY(std::abs(actual.advantages[0] - actual.advantages[3]) > 1e-6); // not a constant
        const Estimator& e = requireEstimator("has");
        try {
            e.validate(progressive, e.resolve(assignments({ "decomposer=turnrd" })));
            QFAIL("expected CreditInputError");
        } catch (const CreditInputError& error) {
            QVERIFY2(std::string(error.what()).find("turn 1: credit \"turnrd\"") != std::string::npos, error.what());
        }
    }

    // The judge decomposer reads only `score`: a batch without progress is fine.
    void judgeIgnoresProgress()
    {
        const CreditResult r = run("has", makeBatch("g:1:0.9;g:0:0.4", "score"), { "decomposer=judge" });
        QCOMPARE(r.advantages.size(), std::size_t(2));
        QVERIFY(r.advantages[0] > r.advantages[1]);
    }

    void paramErrors_data()
    {
        QTest::addColumn<QString>("assignment");
        QTest::addColumn<QString>("key");
        QTest::newRow("unknown key") << "lambda=1"
                                     << "lambda";
        QTest::newRow("alpha above 1") << "alpha=1.5"
                                       << "alpha";
        QTest::newRow("alpha below 0") << "alpha=-0.1"
                                       << "alpha";
        QTest::newRow("unknown decomposer") << "decomposer=flat"
                                            << "decomposer";
        QTest::newRow("bad bool") << "norm_std=yes"
                                  << "norm_std";
    }

    void paramErrors()
    {
        QFETCH(QString, assignment);
        QFETCH(QString, key);
        try {
            (void)requireEstimator("has").resolve(assignments({ assignment }));
            QFAIL("expected ParamError");
        } catch (const ParamError& error) {
            QVERIFY2(std::string(error.what()).find("'" + key.toStdString() + "'") != std::string::npos, error.what());
        }
    }

    void paramDefaults()
    {
        QCOMPARE(requireEstimator("has").resolve({}).canonical(),
            std::string(
                "alpha=0.5,binarize=false,conventions=creditlab,decomposer=progressive,norm_std=true,singleton=zero"));
    }
};

QTEST_GUILESS_MAIN(TestCreditHas)
#include "tst_credit_has.moc"
