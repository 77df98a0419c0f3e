// Agreement metrics: Cohen's kappa and Krippendorff's alpha against textbook examples, the confusion
// matrix, per-role precision/recall/F1 and TRIAGE's conflict cells on hand cases; the bootstrap interval on kappa on
// cases whose resampling distribution is known by hand.
#include "core/judge/agreement.h"

#include <QtTest/QTest>

#include <cmath>

using namespace creditlab;
using namespace creditlab::judge;

namespace {

using Labels = std::vector<std::optional<Role>>;

/// Appends `n` turns with (a, b) and outcome `success`.
void add(Labels& a, Labels& b, std::vector<char>& success, std::optional<Role> ra, std::optional<Role> rb, int n,
    bool ok = true)
{
    for (int i = 0; i < n; ++i) {
        a.push_back(ra);
        b.push_back(rb);
        success.push_back(ok);
    }
}

PairAgreement compare(const Labels& a, const Labels& b, const std::vector<char>& success)
{
    return comparePair(a, b, std::vector<bool>(success.begin(), success.end()));
}

bool near(std::optional<double> v, double expected, double tol = 1e-9) { return v && std::abs(*v - expected) < tol; }

} // namespace

class TestJudgeAgreement : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void cohenKappaTextbook_data();
    void cohenKappaTextbook();
    void kappaThroughRoles();
    void perfectAgreement();
    void singleRoleKappaIsUndefined();
    void confusionAndScores();
    void unlabelledTurnsAreSkipped();
    void conflictCells();
    void cellF1();
    void krippendorffTextbook();
    void krippendorffTwoCoders();
    void krippendorffDegenerate();
    void sizeMismatchThrows();
    void bootstrapPerfectAgreement();
    void bootstrapSmallCaseByHand();
    void bootstrapIsReproducibleAndCoversKappa();
};

void TestJudgeAgreement::cohenKappaTextbook_data()
{
    QTest::addColumn<int>("yy");
    QTest::addColumn<int>("yn");
    QTest::addColumn<int>("ny");
    QTest::addColumn<int>("nn");
    QTest::addColumn<double>("kappa");
    // Wikipedia, "Cohen's kappa", worked example and the two "same percentage agreement" tables.
    QTest::newRow("wikipedia 20/5/10/15") << 20 << 5 << 10 << 15 << 0.4;
    QTest::newRow("wikipedia 45/15/25/15") << 45 << 15 << 25 << 15 << 0.1304;
    QTest::newRow("wikipedia 25/35/5/35") << 25 << 35 << 5 << 35 << 0.2593;
}

void TestJudgeAgreement::cohenKappaTextbook()
{
    QFETCH(int, yy);
    QFETCH(int, yn);
    QFETCH(int, ny);
    QFETCH(int, nn);
    QFETCH(double, kappa);
    const std::array<std::int64_t, 4> counts { yy, yn, ny, nn };
    const auto k = cohenKappa(counts, 2);
    QVERIFY(k);
    QVERIFY2(std::abs(*k - kappa) < 5e-5, std::to_string(*k).c_str());
}

void TestJudgeAgreement::kappaThroughRoles()
{
    Labels a, b;
    std::vector<char> s;
    add(a, b, s, Role::D, Role::D, 20);
    add(a, b, s, Role::D, Role::E, 5);
    add(a, b, s, Role::E, Role::D, 10);
    add(a, b, s, Role::E, Role::E, 15);
    const PairAgreement r = compare(a, b, s);
    QCOMPARE(r.count, 50);
    QVERIFY(near(r.accuracy, 0.7));
    QVERIFY(near(r.kappa, 0.4));
    QCOMPARE(r.confusion[0][1], 5);
    QCOMPARE(r.confusion[1][0], 10);
}

void TestJudgeAgreement::perfectAgreement()
{
    Labels a, b;
    std::vector<char> s;
    int n = 1;
    for (Role role : kRoles) {
        add(a, b, s, role, role, n, n % 2 == 0);
        add(a, b, s, role, role, n, n % 2 == 1);
        ++n;
    }
    const PairAgreement r = compare(a, b, s);
    QVERIFY(near(r.accuracy, 1.0));
    QVERIFY(near(r.kappa, 1.0));
    QVERIFY(near(r.macroF1, 1.0));
    for (const RoleScores& sc : r.roles) {
        QVERIFY(near(sc.precision, 1.0));
        QVERIFY(near(sc.recall, 1.0));
        QVERIFY(near(sc.f1, 1.0));
    }
    QCOMPARE(r.regressionInSuccess.missed, 0);
    QVERIFY(near(r.regressionInSuccess.rate, 0.0));
    QVERIFY(near(krippendorffAlpha({ a, b, a }).alpha, 1.0));
}

void TestJudgeAgreement::singleRoleKappaIsUndefined()
{
    Labels a, b;
    std::vector<char> s;
    add(a, b, s, Role::N, Role::N, 7);
    const PairAgreement r = compare(a, b, s);
    QVERIFY(near(r.accuracy, 1.0));
    QVERIFY(!r.kappa); // p_e = 1: 0/0
    QVERIFY(!r.roles[0].precision);
    QVERIFY(!r.roles[0].f1); // D absent from both
    QVERIFY(near(r.macroF1, 1.0)); // only N's F1 is defined
    QVERIFY(!krippendorffAlpha({ a, b }).alpha);
}

void TestJudgeAgreement::confusionAndScores()
{
    using R = Role;
    const Labels a { R::D, R::D, R::E, R::N, R::R, R::R };
    const Labels b { R::D, R::E, R::E, R::N, R::D, R::R };
    const PairAgreement r = compare(a, b, std::vector<char>(6, 1));
    QCOMPARE(r.count, 6);
    QVERIFY(near(r.accuracy, 4.0 / 6.0));
    const RoleCounts expected { { { 1, 1, 0, 0 }, { 0, 1, 0, 0 }, { 0, 0, 1, 0 }, { 1, 0, 0, 1 } } };
    QVERIFY(r.confusion == expected);
    // D: tp 1, predicted 2, support 2.
    QVERIFY(near(r.roles[0].precision, 0.5));
    QVERIFY(near(r.roles[0].recall, 0.5));
    QVERIFY(near(r.roles[0].f1, 0.5));
    // E: tp 1, predicted 2, support 1.
    QVERIFY(near(r.roles[1].precision, 0.5));
    QVERIFY(near(r.roles[1].recall, 1.0));
    QVERIFY(near(r.roles[1].f1, 2.0 / 3.0));
    QVERIFY(near(r.roles[2].f1, 1.0));
    // R: tp 1, predicted 1, support 2.
    QVERIFY(near(r.roles[3].precision, 1.0));
    QVERIFY(near(r.roles[3].recall, 0.5));
    QVERIFY(near(r.roles[3].f1, 2.0 / 3.0));
    QCOMPARE(r.roles[3].support, 2);
    QCOMPARE(r.roles[3].predicted, 1);
    QVERIFY(near(r.macroF1, (0.5 + 2.0 / 3.0 + 1.0 + 2.0 / 3.0) / 4.0));
    // p_o = 4/6; p_e = (2·2 + 1·2 + 1·1 + 2·1)/36 = 9/36.
    QVERIFY(near(r.kappa, (4.0 / 6.0 - 0.25) / 0.75));
}

void TestJudgeAgreement::unlabelledTurnsAreSkipped()
{
    const Labels a { Role::D, std::nullopt, Role::E, Role::N };
    const Labels b { Role::D, Role::R, std::nullopt, Role::N };
    const PairAgreement r = compare(a, b, std::vector<char>(4, 0));
    QCOMPARE(r.count, 2);
    QCOMPARE(r.onlyReference, 1);
    QCOMPARE(r.onlyOther, 1);
    QVERIFY(near(r.accuracy, 1.0));
    const PairAgreement none = compare({ std::nullopt }, { Role::D }, { 1 });
    QCOMPARE(none.count, 0);
    QVERIFY(!none.accuracy);
    QVERIFY(!none.kappa);
}

void TestJudgeAgreement::conflictCells()
{
    Labels a, b;
    std::vector<char> s;
    // Successful rollouts: 4 reference-R turns, 3 of them labelled otherwise.
    add(a, b, s, Role::R, Role::R, 1, true);
    add(a, b, s, Role::R, Role::D, 2, true);
    add(a, b, s, Role::R, Role::N, 1, true);
    add(a, b, s, Role::E, Role::D, 5, true); // E in success: not a conflict cell
    // Failed rollouts: 5 reference-E turns, 1 labelled otherwise; R in failure is not a conflict cell.
    add(a, b, s, Role::E, Role::E, 4, false);
    add(a, b, s, Role::E, Role::R, 1, false);
    add(a, b, s, Role::R, Role::D, 3, false);
    add(a, b, s, Role::R, std::nullopt, 2, true); // unlabelled by b: not counted
    const PairAgreement r = compare(a, b, s);
    QCOMPARE(r.regressionInSuccess.total, 4);
    QCOMPARE(r.regressionInSuccess.missed, 3);
    QVERIFY(near(r.regressionInSuccess.rate, 0.75));
    QCOMPARE(r.explorationInFailure.total, 5);
    QCOMPARE(r.explorationInFailure.missed, 1);
    QVERIFY(near(r.explorationInFailure.rate, 0.2));
    const PairAgreement empty = compare({ Role::D }, { Role::D }, { 1 });
    QCOMPARE(empty.regressionInSuccess.total, 0);
    QVERIFY(!empty.regressionInSuccess.rate);
}

void TestJudgeAgreement::cellF1()
{
    Labels a, b;
    std::vector<char> s;
    add(a, b, s, Role::R, Role::R, 2, true);
    add(a, b, s, Role::R, Role::N, 2, true);
    add(a, b, s, Role::R, Role::R, 3, false);
    const PairAgreement r = compare(a, b, s);
    const std::size_t R = roleIndex(Role::R);
    QVERIFY(near(r.cellF1[R][1], 2.0 * 2 / (4 + 2))); // success: tp 2, support 4, predicted 2
    QVERIFY(near(r.cellF1[R][0], 1.0));
    QVERIFY(near(r.cellF1[roleIndex(Role::N)][1], 0.0)); // predicted but never true
    QVERIFY(!r.cellF1[roleIndex(Role::D)][0]);
}

void TestJudgeAgreement::krippendorffTextbook()
{
    // Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", §C: 4 observers, 12 units,
    // values 1..5 with missing data; nominal alpha = 0.743.
    const std::optional<int> x;
    const std::vector<std::vector<std::optional<int>>> coders {
        { 1, 2, 3, 3, 2, 1, 4, 1, 2, x, x, x },
        { 1, 2, 3, 3, 2, 2, 4, 1, 2, 5, x, 3 },
        { x, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, x },
        { 1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, x },
    };
    const AlphaResult r = krippendorffAlphaNominal(coders);
    QVERIFY(r.alpha);
    QVERIFY2(std::abs(*r.alpha - 0.743) < 5e-4, std::to_string(*r.alpha).c_str());
    QVERIFY(std::abs(*r.alpha - 0.7434210526) < 1e-9);
    QCOMPARE(r.units, 11); // unit 12 has one value only
    QCOMPARE(r.values, 40);
    QCOMPARE(r.coders, 4);
}

void TestJudgeAgreement::krippendorffTwoCoders()
{
    // Krippendorff (2011), §A: two observers, binary data, no missing values; alpha = 0.095.
    const std::vector<std::vector<std::optional<int>>> coders {
        { 0, 1, 0, 0, 0, 0, 0, 0, 1, 0 },
        { 1, 1, 1, 0, 0, 1, 0, 0, 0, 0 },
    };
    const AlphaResult r = krippendorffAlphaNominal(coders);
    QVERIFY(near(r.alpha, 2.0 / 21.0));
    // The role overload agrees (0 → D, 1 → E).
    std::vector<std::vector<std::optional<Role>>> roles(2);
    for (std::size_t c = 0; c < 2; ++c)
        for (const auto& v : coders[c])
            roles[c].push_back(*v == 0 ? Role::D : Role::E);
    QVERIFY(near(krippendorffAlpha(roles).alpha, 2.0 / 21.0));
}

void TestJudgeAgreement::krippendorffDegenerate()
{
    const std::optional<int> x;
    QVERIFY(!krippendorffAlphaNominal({}).alpha);
    const AlphaResult lonely = krippendorffAlphaNominal({ { 1, x }, { x, 2 } });
    QVERIFY(!lonely.alpha);
    QCOMPARE(lonely.units, 0);
    QVERIFY(!krippendorffAlphaNominal({ { 3, 3 }, { 3, 3 } }).alpha); // no variation: D_e = 0
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, krippendorffAlphaNominal({ { 1, 2 }, { 1 } }));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, krippendorffAlphaNominal({ { -1, 2 }, { 1, 2 } }));
}

void TestJudgeAgreement::sizeMismatchThrows()
{
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, compare({ Role::D }, { Role::D, Role::E }, { 1, 1 }));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, compare({ Role::D }, { Role::D }, { 1, 1 }));
}

void TestJudgeAgreement::bootstrapPerfectAgreement()
{
    // Every resample of perfectly agreeing turns has p_o = 1, so kappa = 1 wherever it is defined.
    Labels a, b;
    std::vector<char> ok;
    add(a, b, ok, Role::D, Role::D, 5);
    add(a, b, ok, Role::E, Role::E, 7);
    add(a, b, ok, Role::R, Role::R, 3);
    add(a, b, ok, std::nullopt, Role::N, 4); // only one side: not a pair, not drawn
    const KappaInterval ci = bootstrapKappa(a, b);
    QCOMPARE(ci.resamples, 1000);
    QVERIFY(ci.defined > 990); // a single-role resample of 15 turns is rare (< 1e-3 each)
    QCOMPARE(ci.low, std::optional<double>(1.0));
    QCOMPARE(ci.high, std::optional<double>(1.0));
    // One role only: kappa is undefined in every resample, as on the full sample.
    Labels c(4, Role::N), d(4, Role::N);
    const KappaInterval none = bootstrapKappa(c, d);
    QCOMPARE(none.defined, 0);
    QVERIFY(!none.low && !none.high);
    QVERIFY(!bootstrapKappa(Labels {}, Labels {}).low);
}

void TestJudgeAgreement::bootstrapSmallCaseByHand()
{
    // Three turns (A: D/D, B: E/E, C: D/E); kappa of the sample is 0.4. The 27 equally likely resamples by their
    // counts (A, B, C): (3,0,0) and (0,3,0) one role each: undefined (2/27); (2,1,0) and (1,2,0): kappa 1 (6/27);
    // (1,1,1): p_o 2/3, p_e 4/9, kappa 0.4 (6/27); the other 13: kappa 0 (e.g. (2,0,1): p_o = p_e = 2/3). Over
    // the 25/27 defined: P(0) = .52, P(.4) = .24, P(1) = .24, so the 2.5 % quantile is 0 and the 97.5 % one is 1.
    const Labels a { Role::D, Role::E, Role::D };
    const Labels b { Role::D, Role::E, Role::E };
    QVERIFY(near(cohenKappa(comparePair(a, b, { true, true, true }).confusion), 0.4));
    const KappaInterval ci = bootstrapKappa(a, b);
    QCOMPARE(ci.low, std::optional<double>(0.0));
    QCOMPARE(ci.high, std::optional<double>(1.0));
    QVERIFY2(std::abs(ci.defined - 1000 * 25 / 27) < 40, qPrintable(QString::number(ci.defined)));
    // A narrower level moves inside: the 20 % interval (the 0.4 and 0.6 quantiles) is [0, 0.4], since P(0) = .52
    // covers 0.4 and P(κ ≤ .4) = .76 covers 0.6.
    const KappaInterval narrow = bootstrapKappa(a, b, 1000, 0.2);
    QCOMPARE(narrow.low, std::optional<double>(0.0));
    QVERIFY(near(narrow.high, 0.4));
}

void TestJudgeAgreement::bootstrapIsReproducibleAndCoversKappa()
{
    Labels a, b;
    std::vector<char> ok;
    add(a, b, ok, Role::D, Role::D, 20);
    add(a, b, ok, Role::E, Role::E, 15);
    add(a, b, ok, Role::N, Role::N, 25);
    add(a, b, ok, Role::R, Role::R, 10);
    add(a, b, ok, Role::E, Role::N, 8);
    add(a, b, ok, Role::R, Role::N, 6);
    add(a, b, ok, Role::D, Role::E, 4);
    const double kappa = *compare(a, b, ok).kappa;
    const KappaInterval one = bootstrapKappa(a, b);
    const KappaInterval two = bootstrapKappa(a, b);
    QCOMPARE(one.low, two.low); // fixed seed: exactly the same interval
    QCOMPARE(one.high, two.high);
    QCOMPARE(one.defined, 1000);
    QVERIFY(*one.low < kappa && kappa < *one.high);
    QVERIFY(*one.high - *one.low > 0.05 && *one.high - *one.low < 0.4);
    const KappaInterval other = bootstrapKappa(a, b, 1000, 0.95, kBootstrapSeed + 1);
    QVERIFY(other.low != one.low || other.high != one.high); // the seed is what makes it reproducible
    QVERIFY(std::abs(*other.low - *one.low) < 0.05);
    // Four times the turns, same shares: about half the width (the standard error goes with 1/sqrt(n)).
    Labels a4, b4;
    for (int k = 0; k < 4; ++k) {
        a4.insert(a4.end(), a.begin(), a.end());
        b4.insert(b4.end(), b.begin(), b.end());
    }
    const KappaInterval wide = one;
    const KappaInterval tight = bootstrapKappa(a4, b4);
    const double ratio = (*tight.high - *tight.low) / (*wide.high - *wide.low);
    QVERIFY2(ratio > 0.35 && ratio < 0.65, qPrintable(QString::number(ratio)));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bootstrapKappa(a, Labels {}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bootstrapKappa(a, b, 0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bootstrapKappa(a, b, 10, 1.0));
}

QTEST_GUILESS_MAIN(TestJudgeAgreement)
#include "tst_judge_agreement.moc"
