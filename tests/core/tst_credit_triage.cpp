// The TRIAGE family: `triage` (role-typed credit) and `scalar_judge` (its scalar process-reward baseline).
// Worked numbers from /work/shared/methods/triage.md §2.6-2.7 and hand-computed edges.
#include "core/credit/common.h"
#include "core/credit/estimator.h"
#include "credittestutil.h"

#include "testutil.h"

#include <QtTest/QTest>

#include <cmath>

using namespace creditlab;
using namespace creditlab::credit;

using creditlab::test::compareValues;
using creditlab::test::whitened;

namespace {


/// GRPO's A_i for a group of two with rewards {1, 0}: +-0.5 / (sample std + eps).
const double kA2 = 0.5 / (std::sqrt(0.5) + 1e-6);

/// Trajectories "group:reward:values", ';'-separated, ids t0, t1, ... Values: for roles, letters D/E/N/R
/// (one per turn, '-' for a turn without a role); for scores, comma-separated numbers ('-' for none).
Batch makeBatch(const QString& spec, bool roles)
{
    std::vector<Trajectory> trajectories;
    const QStringList parts = spec.split(u';');
    for (int i = 0; i < parts.size(); ++i) {
        const QStringList f = parts[i].split(u':');
        Trajectory t;
        t.id = QStringLiteral("t%1").arg(i).toStdString();
        t.group = f[0].toStdString();
        t.reward = f[1].toDouble();
        const QStringList values = roles ? f[2].split(QString(), Qt::SkipEmptyParts) : f[2].split(u',');
        for (const QString& v : values) {
            Turn u;
            if (v != u"-") {
                if (roles)
                    u.role = parseRole(v.toStdString());
                else
                    u.score = v.toDouble();
            }
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

} // namespace

class TestCreditTriage : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void triageHandComputed_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QStringList>("sets");
        QTest::addColumn<QList<double>>("expected");
        const QStringList raw { "whiten=false" };
        const double a = kA2;
        QTest::newRow("two trajectories") << "g:1:DR;g:0:E" << raw << QList<double> { a + 0.2, a - 0.1, -a + 0.1 };
        QTest::newRow("§2.6 R in success, E in failure")
            << "g:1:R;g:0:E" << raw << QList<double> { a - 0.5 * 0.2, -a + 0.5 * 0.2 };
        QTest::newRow("group of one") << "g:1:DENR" << raw << QList<double> { 0.2, 0.1, -0.02, -0.1 };
        QTest::newRow("all-equal rewards") << "g:1:D;g:1:R" << raw << QList<double> { 0.2, -0.1 };
        QTest::newRow("one-turn trajectories")
            << "g:1:N;g:0:N;h:3:E" << raw << QList<double> { a - 0.02, -a - 0.02, 0.1 };
        QTest::newRow("binarize") << "g:10:D;g:0:D" << QStringList { "whiten=false", "binarize=true" }
                                  << QList<double> { a + 0.2, -a + 0.2 };
        QTest::newRow("not binarized") << "g:10:D;g:0:D" << raw
                                       << QList<double> { 5.0 / (std::sqrt(50.0) + 1e-6) + 0.2,
                                              -5.0 / (std::sqrt(50.0) + 1e-6) + 0.2 };
        QTest::newRow("norm_std=false") << "g:1:D;g:0:R;g:0:E" << QStringList { "whiten=false", "norm_std=false" }
                                        << QList<double> { 2.0 / 3 + 0.2, -1.0 / 3 - 0.1, -1.0 / 3 + 0.1 };
        QTest::newRow("custom lambda and c")
            << "g:1:DENR" << QStringList { "whiten=false", "lambda=1", "c.D=2", "c.E=0", "c.N=0.25", "c.R=-3" }
            << QList<double> { 2.0, 0.0, 0.25, -3.0 };
        QTest::newRow("whitened group of one")
            << "g:1:DR" << QStringList {}
            << QList<double> { 0.15 / (std::sqrt(0.045) + 1e-6), -0.15 / (std::sqrt(0.045) + 1e-6) };
        QTest::newRow("whitened single turn") << "g:5:E" << QStringList {} << QList<double> { 0.0 };
        QTest::newRow("whitened two groups")
            << "a:1:DE;a:0:R;b:2:N;b:2:N" << QStringList {} << whitened({ a + 0.2, a + 0.1, -a - 0.1, -0.02, -0.02 });
    }

    void triageHandComputed()
    {
        QFETCH(QString, spec);
        QFETCH(QStringList, sets);
        QFETCH(QList<double>, expected);
        const CreditResult r = run("triage", makeBatch(spec, true), sets);
        compareValues(r.advantages, expected);
    }

    void triageDetails()
    {
        const CreditResult r = run("triage", makeBatch("g:1:DR;g:0:E", true));
        const DetailColumn* role = r.detail("role");
        QVERIFY(role && role->isText);
        std::vector<std::string> roles;
        for (std::size_t k = 0; k < role->numbers.size(); ++k)
            roles.emplace_back(role->text(k));
        QCOMPARE(roles, (std::vector<std::string> { "D", "R", "E" }));
        QVERIFY(r.detail("c"));
        compareValues(r.detail("c")->numbers, { 1.0, -0.5, 0.5 });
        QVERIFY(r.detail("grpo"));
        compareValues(r.detail("grpo")->numbers, { kA2, kA2, -kA2 });
        QVERIFY(r.detail("raw"));
        const QList<double> raw { kA2 + 0.2, kA2 - 0.1, -kA2 + 0.1 };
        compareValues(r.detail("raw")->numbers, raw);
        compareValues(r.advantages, whitened(raw));
    }

    // Property: lambda = 0 without whitening is GRPO, whatever the roles and GRPO options.
    void triageLambdaZeroIsGrpo_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QStringList>("grpoSets");
        const QString mixed = "a:1:DENR;a:0:EE;a:0.5:R;b:2:D;c:3:NN;c:3:E;c:-1:DRRE";
        QTest::newRow("defaults") << mixed << QStringList {};
        QTest::newRow("binarize") << mixed << QStringList { "binarize=true" };
        QTest::newRow("norm_std=false") << mixed << QStringList { "norm_std=false" };
        QTest::newRow("one trajectory") << "g:1:DDD" << QStringList {};
    }

    void triageLambdaZeroIsGrpo()
    {
        QFETCH(QString, spec);
        QFETCH(QStringList, grpoSets);
        const Batch b = makeBatch(spec, true);
        const CreditResult grpo = run("grpo", b, grpoSets);
        const CreditResult triage = run("triage", b, grpoSets + QStringList { "lambda=0", "whiten=false" });
        compareValues(triage.advantages, QList<double>(grpo.advantages.begin(), grpo.advantages.end()));
    }

    // triage.md §2.7 [derived]: lambda * std(c) for the audited role mixes (population std over the segments).
    void triageRoleTermStd_data()
    {
        QTest::addColumn<QString>("roles");
        QTest::addColumn<double>("lambda");
        QTest::addColumn<double>("expected");
        const QString alfworld
            = QString("D").repeated(14) + QString("E").repeated(16) + "NN" + QString("R").repeated(30);
        const QString webshop = QString("D").repeated(7) + QString("E").repeated(7) + "NNN" + QString("R").repeated(13);
        const QString searchQa = QString("D").repeated(4) + QString("E").repeated(27) + QString("R").repeated(12);
        QTest::newRow("ALFWorld std(c)") << alfworld << 1.0 << 0.632;
        QTest::newRow("WebShop std(c)") << webshop << 1.0 << 0.621;
        QTest::newRow("Search-QA std(c)") << searchQa << 1.0 << 0.498;
        QTest::newRow("ALFWorld lambda 0.2") << alfworld << 0.2 << 0.126;
        QTest::newRow("WebShop lambda 0.2") << webshop << 0.2 << 0.124;
        QTest::newRow("Search-QA lambda 0.4") << searchQa << 0.4 << 0.199;
    }

    void triageRoleTermStd()
    {
        QFETCH(QString, roles);
        QFETCH(double, lambda);
        QFETCH(double, expected);
        // A group of one: A^GRPO = 0, so the raw advantage is the role term alone.
        const CreditResult r = run("triage", makeBatch("g:1:" + roles, true), { QString("lambda=%1").arg(lambda) });
        const double sd = populationStd(r.detail("raw")->numbers);
        QVERIFY2(std::abs(sd - expected) < 5e-4, qPrintable(QString::number(sd, 'g', 10)));
    }

    // TRIAGE Eq. 4: an order-preserving affine map to mean 0 and std ~1; all-equal groups keep role credit.
    void triageWhiteningProperties()
    {
        const CreditResult r = run("triage", makeBatch("a:1:DENR;a:0:EER;b:1:DR;b:1:NE;c:0:R", true));
        const std::vector<double>& raw = r.detail("raw")->numbers;
        const std::vector<double>& adv = r.advantages;
        QVERIFY(std::abs(mean(adv)) < 1e-12);
        QVERIFY(std::abs(sampleStd(adv) - 1.0) < 1e-5);
        for (std::size_t m = 0; m < adv.size(); ++m)
            for (std::size_t n = 0; n < adv.size(); ++n)
                QCOMPARE(raw[m] < raw[n], adv[m] < adv[n]);
        // Group b has equal rewards: A^GRPO = 0, yet D ranks above R and the values are not 0.
        const std::size_t d = r.offsets[2], rr = r.offsets[2] + 1;
        QVERIFY(adv[d] > adv[rr]);
        QVERIFY(std::abs(adv[d]) > 1e-3 && std::abs(adv[rr]) > 1e-3);
    }

    void triageMissingRole()
    {
        const Batch b = makeBatch("g:1:DE;g:0:D-E", true);
        const Estimator& e = requireEstimator("triage");
        const Params p = e.resolve({});
        try {
            e.validate(b, p);
            QFAIL("expected CreditInputError");
        } catch (const CreditInputError& error) {
            const std::string what = error.what();
            QVERIFY2(what.find("\"t1\"") != std::string::npos, error.what());
            QVERIFY2(what.find("turn 2") != std::string::npos, error.what());
            QVERIFY2(what.find("\"role\"") != std::string::npos, error.what());
        }
    }

    void paramErrors_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("assignment");
        QTest::addColumn<QString>("key");
        QTest::newRow("triage unknown key") << "triage"
                                            << "gamma=1"
                                            << "gamma";
        QTest::newRow("triage unknown role") << "triage"
                                             << "c.X=1"
                                             << "c.X";
        QTest::newRow("triage negative lambda") << "triage"
                                                << "lambda=-0.1"
                                                << "lambda";
        QTest::newRow("triage bad bool") << "triage"
                                         << "whiten=maybe"
                                         << "whiten";
        QTest::newRow("triage bad number") << "triage"
                                           << "c.R=abc"
                                           << "c.R";
        QTest::newRow("scalar_judge unknown key") << "scalar_judge"
                                                  << "c.D=1"
                                                  << "c.D";
        QTest::newRow("scalar_judge negative lambda") << "scalar_judge"
                                                      << "lambda=-1"
                                                      << "lambda";
        QTest::newRow("scalar_judge bad bool") << "scalar_judge"
                                               << "binarize=2"
                                               << "binarize";
    }

    void paramErrors()
    {
        QFETCH(QString, method);
        QFETCH(QString, assignment);
        QFETCH(QString, key);
        const Estimator& e = requireEstimator(method.toStdString());
        try {
            (void)e.resolve(assignments({ assignment }));
            QFAIL("expected ParamError");
        } catch (const ParamError& error) {
            QVERIFY2(std::string(error.what()).find("'" + key.toStdString() + "'") != std::string::npos, error.what());
        }
    }

    // A turn without a role (a judge failed on it): refused by default, naming the way out; with unlabelled=grpo it
    // gets no role correction (lambda c = 0) and the rest of the batch is unchanged before whitening.
    void unlabelledTurns()
    {
        std::vector<Trajectory> trajectories(2);
        trajectories[0].id = "a";
        trajectories[0].group = "g";
        trajectories[0].reward = 1.0;
        trajectories[1].id = "b";
        trajectories[1].group = "g";
        trajectories[1].reward = 0.0;
        for (auto& t : trajectories) {
            t.turns.resize(2);
            t.turns[0].role = Role::D;
        }
        trajectories[1].turns[1].role = Role::R; // a's second turn stays unlabelled
        const Batch batch = Batch::fromTrajectories(std::move(trajectories));
        const Estimator& e = requireEstimator("triage");
        try {
            e.validate(batch, e.resolve({}));
            QFAIL("expected CreditInputError");
        } catch (const CreditInputError& error) {
            QVERIFY2(std::string(error.what()).find("credit.unlabelled=grpo") != std::string::npos, error.what());
        }
        const auto params = e.resolve(assignments({ "unlabelled=grpo", "whiten=false" }));
        e.validate(batch, params);
        const CreditResult r = e.compute(batch, params);
        // GRPO: rewards 1 and 0, mean 0.5, sample std sqrt(0.5): A = ±0.7071...
        const double a = 0.5 / std::sqrt(0.5);
        QVERIFY(std::abs(r.advantages[0] - (a + 0.2 * 1.0)) < 1e-6);
        QVERIFY(std::abs(r.advantages[1] - a) < 1e-6); // unlabelled: pure GRPO
        QVERIFY(std::abs(r.advantages[3] - (-a + 0.2 * -0.5)) < 1e-6);
        QCOMPARE(r.detail("role")->text(1), std::string_view("-"));
        QCOMPARE(r.detail("role")->text(3), std::string_view("R"));
    }

    void paramDefaults()
    {
        QCOMPARE(requireEstimator("triage").resolve({}).canonical(),
            std::string("binarize=false,c.D=1,c.E=0.5,c.N=-0.1,c.R=-0.5,conventions=creditlab,lambda=0.2,norm_std=true,"
                        "singleton=zero,unlabelled=error,whiten=true,whiten_eps=1e-06,whiten_eps_on=std"));
        QCOMPARE(requireEstimator("scalar_judge").resolve({}).canonical(),
            std::string("binarize=false,conventions=creditlab,lambda=0.2,norm_std=true,singleton=zero,whiten=true,"
                        "whiten_eps=1e-06,whiten_eps_on=std"));
    }

    void scalarJudgeHandComputed_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QStringList>("sets");
        QTest::addColumn<QList<double>>("expected");
        const QStringList raw { "whiten=false" };
        const double a = kA2;
        const QList<double> twoRaw { a + 0.2 * 0.8, a - 0.2 * 0.6, -a };
        QTest::newRow("two trajectories") << "g:1:0.9,0.2;g:0:0.5" << raw << twoRaw;
        QTest::newRow("whitened") << "g:1:0.9,0.2;g:0:0.5" << QStringList {} << whitened(twoRaw);
        QTest::newRow("group of one") << "g:1:1,0,0.5" << raw << QList<double> { 0.2, -0.2, 0.0 };
        QTest::newRow("all-equal rewards") << "g:0:0.75;g:0:0.25" << raw << QList<double> { 0.1, -0.1 };
        QTest::newRow("whitened single turn") << "g:1:0.9" << QStringList {} << QList<double> { 0.0 };
        QTest::newRow("lambda 1, norm_std=false")
            << "g:1:1;g:0:0" << QStringList { "whiten=false", "lambda=1", "norm_std=false" }
            << QList<double> { 1.5, -1.5 };
    }

    void scalarJudgeHandComputed()
    {
        QFETCH(QString, spec);
        QFETCH(QStringList, sets);
        QFETCH(QList<double>, expected);
        const CreditResult r = run("scalar_judge", makeBatch(spec, false), sets);
        compareValues(r.advantages, expected);
    }

    void scalarJudgeDetails()
    {
        const CreditResult r = run("scalar_judge", makeBatch("g:1:0.9,0.2;g:0:0.5", false));
        QVERIFY(r.detail("score") && r.detail("grpo") && r.detail("raw"));
        compareValues(r.detail("score")->numbers, { 0.9, 0.2, 0.5 });
        compareValues(r.detail("grpo")->numbers, { kA2, kA2, -kA2 });
        compareValues(r.detail("raw")->numbers, { kA2 + 0.16, kA2 - 0.12, -kA2 });
    }

    // scalar_judge with score = (c[role] + 1) / 2 is triage: the two differ only in the per-turn term.
    void scalarJudgeMatchesTriage()
    {
        const QString roles = "a:1:DENR;a:0:EER;b:1:DR;c:0:R";
        const QString scores = "a:1:1,0.75,0.45,0.25;a:0:0.75,0.75,0.25;b:1:1,0.25;c:0:0.25";
        const CreditResult t = run("triage", makeBatch(roles, true));
        const CreditResult s = run("scalar_judge", makeBatch(scores, false));
        compareValues(s.advantages, QList<double>(t.advantages.begin(), t.advantages.end()), 1e-12);
    }

    void scalarJudgeNeutralIsGrpo()
    {
        const QString spec = "a:1:0.5,0.5;a:0:0.5;b:2:0.5;b:0:0.5,0.5,0.5";
        const Batch b = makeBatch(spec, false);
        const CreditResult grpo = run("grpo", b);
        const QList<double> expected(grpo.advantages.begin(), grpo.advantages.end());
        compareValues(run("scalar_judge", b, { "whiten=false" }).advantages, expected);
        compareValues(run("scalar_judge", makeBatch("a:1:0.9,0.1;a:0:0;b:2:1;b:0:0.3,0.2,0.7", false),
                          { "whiten=false", "lambda=0" })
                          .advantages,
            expected);
    }

    void scalarJudgeMissingScore()
    {
        const Batch b = makeBatch("g:1:0.5;g:0:0.5,-", false);
        const Estimator& e = requireEstimator("scalar_judge");
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
};

QTEST_GUILESS_MAIN(TestCreditTriage)
#include "tst_credit_triage.moc"
