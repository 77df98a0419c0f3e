// `value_baseline`: TRIAGE's shared-backbone value baseline (App. D; shared/methods/triage.md §4, ambiguity 24).
// Hand-computed advantages with clipping and whitening, the JSONL "credit" map as input, the missing-field error,
// and the GRPO equivalence when every value difference is zero.
#include "core/credit/common.h"
#include "core/credit/estimator.h"
#include "core/interchange/jsonl.h"
#include "credittestutil.h"

#include <QtTest/QTest>

#include <cmath>

using namespace creditlab;
using namespace creditlab::credit;

using creditlab::test::compareValues;
using creditlab::test::whitened;

namespace {


/// GRPO's A_i for a group of two with rewards {1, 0}: +-0.5 / (sample std + eps).
const double kA2 = 0.5 / (std::sqrt(0.5) + 1e-6);

/// Trajectories "group:reward:dv,dv,...", ';'-separated, ids t0, t1, ...; '-' is a turn without "value_delta".
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
            u.credits.emplace_back("grpo", 99.0); // other methods' credits are ignored
            if (v != u"-")
                u.credits.emplace_back("value_delta", v.toDouble());
            t.turns.push_back(std::move(u));
        }
        trajectories.push_back(std::move(t));
    }
    return Batch::fromTrajectories(std::move(trajectories));
}

CreditResult run(const Batch& batch, const QStringList& sets = {})
{
    return test::runMethod("value_baseline", batch, sets);
}

} // namespace

class TestCreditValueBaseline : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void defaults()
    {
        const Estimator* e = findEstimator("value_baseline");
        QVERIFY(e);
        // lambda matched to triage's (App. D), c = 0.5, triage's whitening and GRPO part.
        QCOMPARE(e->resolve({}).canonical(),
            std::string("binarize=false,clip=0.5,conventions=creditlab,lambda=0.2,norm_std=true,"
                        "singleton=zero,whiten=true,whiten_eps=1e-06,whiten_eps_on=std"));
        QCOMPARE(e->resolve({}).getDouble("lambda"), requireEstimator("triage").resolve({}).getDouble("lambda"));
        QVERIFY_THROWS_EXCEPTION(ParamError, e->resolve({ { "clip", "-0.1" } }));
        QVERIFY_THROWS_EXCEPTION(ParamError, e->resolve({ { "lambda", "-1" } }));
    }

    void handComputed_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QStringList>("sets");
        QTest::addColumn<QList<double>>("expected");
        const QStringList raw { "whiten=false" };
        const double a = kA2;
        // 0.8 and -0.7 are clipped to +-0.5 before the 0.2 scale; 0.3 and -0.5 pass through.
        QTest::newRow("clipping") << "g:1:0.3,0.8;g:0:-0.7,-0.5" << raw
                                  << QList<double> { a + 0.06, a + 0.1, -a - 0.1, -a - 0.1 };
        QTest::newRow("group of one") << "g:2:0.25,-2" << raw << QList<double> { 0.05, -0.1 };
        QTest::newRow("clip=0 is GRPO") << "g:1:0.3;g:0:-0.7" << QStringList { "whiten=false", "clip=0" }
                                        << QList<double> { a, -a };
        QTest::newRow("custom lambda and clip")
            << "g:1:0.3,0.8;g:0:-3" << QStringList { "whiten=false", "lambda=1", "clip=2" }
            << QList<double> { a + 0.3, a + 0.8, -a - 2.0 };
        QTest::newRow("norm_std=false") << "g:1:0.1;g:0:0.1;g:0:0" << QStringList { "whiten=false", "norm_std=false" }
                                        << QList<double> { 2.0 / 3 + 0.02, -1.0 / 3 + 0.02, -1.0 / 3 };
        QTest::newRow("whitened") << "g:1:0.3,0.8;g:0:-0.7,-0.5;h:1:0.1" << QStringList {}
                                  << whitened({ a + 0.06, a + 0.1, -a - 0.1, -a - 0.1, 0.02 });
        // Hand-computed: raw {0.1, -0.1}, mean 0, sample std sqrt(0.02).
        QTest::newRow("whitened group of one")
            << "g:5:0.5,-0.5" << QStringList {}
            << QList<double> { 0.1 / (std::sqrt(0.02) + 1e-6), -0.1 / (std::sqrt(0.02) + 1e-6) };
    }

    void handComputed()
    {
        QFETCH(QString, spec);
        QFETCH(QStringList, sets);
        QFETCH(QList<double>, expected);
        compareValues(run(makeBatch(spec), sets).advantages, expected);
    }

    void details()
    {
        const CreditResult r = run(makeBatch("g:1:0.3,0.8;g:0:-0.7"));
        QVERIFY(r.detail("value_delta"));
        compareValues(r.detail("value_delta")->numbers, { 0.3, 0.8, -0.7 });
        QVERIFY(r.detail("clipped"));
        compareValues(r.detail("clipped")->numbers, { 0.3, 0.5, -0.5 });
        QVERIFY(r.detail("grpo"));
        compareValues(r.detail("grpo")->numbers, { kA2, kA2, -kA2 });
        QVERIFY(r.detail("raw"));
        const QList<double> raw { kA2 + 0.06, kA2 + 0.1, -kA2 - 0.1 };
        compareValues(r.detail("raw")->numbers, raw);
        compareValues(r.advantages, whitened(raw));
    }

    void fromJsonl()
    {
        // The JSONL `"credit": {"value_delta": x}` map is the input, as an external tool would write it.
        Trajectory a, b;
        parseTrajectory(R"({"id":"a","group":"g","reward":1,"turns":[{"observation":"o","action":"x",)"
                        R"("credit":{"value_delta":0.9}}]})",
            a);
        parseTrajectory(R"({"id":"b","group":"g","reward":0,"turns":[{"observation":"o","action":"y",)"
                        R"("credit":{"grpo":1,"value_delta":-0.25}}]})",
            b);
        const CreditResult r = run(Batch::fromTrajectories({ a, b }), { "whiten=false" });
        compareValues(r.advantages, { kA2 + 0.1, -kA2 - 0.05 });
    }

    void missingField_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("where");
        QTest::newRow("second turn") << "g:1:0.1,-;g:0:0.2"
                                     << "trajectory \"t0\", turn 2:";
        QTest::newRow("second trajectory") << "g:1:0.1;g:0:0.2,0.3,-"
                                           << "trajectory \"t1\", turn 3:";
        QTest::newRow("not finite") << "g:1:nan"
                                    << "trajectory \"t0\", turn 1:";
    }

    void missingField()
    {
        QFETCH(QString, spec);
        QFETCH(QString, where);
        const Batch batch = makeBatch(spec);
        const Estimator& e = requireEstimator("value_baseline");
        try {
            e.validate(batch, e.resolve({}));
            QFAIL("validate() accepted a batch without value_delta");
        } catch (const CreditInputError& error) {
            const QString what = QString::fromUtf8(error.what());
            QVERIFY2(what.startsWith(where), qPrintable(what));
            QVERIFY2(what.contains(u"\"credit.value_delta\""), qPrintable(what));
        }
    }

    void grpoWhenDeltasAreZero_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::newRow("two groups") << "a:1:0,0,0;a:0:0;a:0.5:0,0;b:3:0;b:-1:0,0";
        QTest::newRow("group of one") << "a:1:0,0";
        QTest::newRow("equal rewards") << "a:1:0;a:1:0,0";
    }

    void grpoWhenDeltasAreZero()
    {
        QFETCH(QString, spec);
        const Batch batch = makeBatch(spec);
        for (const QStringList& grpoSets :
            { QStringList {}, QStringList { "binarize=true" }, QStringList { "norm_std=false" } }) {
            const CreditResult grpo = test::runMethod("grpo", batch, grpoSets);
            QStringList sets = grpoSets;
            sets << "whiten=false";
            compareValues(run(batch, sets).advantages, QList<double>(grpo.advantages.begin(), grpo.advantages.end()));
            // Whitened, it is the whitened GRPO advantage.
            compareValues(run(batch, grpoSets).advantages,
                whitened(QList<double>(grpo.advantages.begin(), grpo.advantages.end())));
        }
    }
};

QTEST_GUILESS_MAIN(TestCreditValueBaseline)
#include "tst_credit_value_baseline.moc"
