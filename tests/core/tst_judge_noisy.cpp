// The confusion matrix (construction, text form, validation) and the seeded noisy judge: its empirical
// accuracy and confusion match its setting, the success-only matrix applies where it should, and it is
// deterministic per seed.
#include "core/credit/params.h"
#include "core/judge/judge.h"
#include "core/judge/noisyjudge.h"

#include <QtTest/QTest>

#include <cmath>

using namespace creditlab;
using namespace creditlab::judge;

namespace {

/// Judges `perRole` turns of each true role and returns the empirical P(judged | true).
std::array<std::array<double, kRoleCount>, kRoleCount> empirical(NoisyJudge& judge, int perRole, bool success)
{
    std::array<std::array<double, kRoleCount>, kRoleCount> freq {};
    for (int i = 0; i < perRole; ++i)
        for (Role truth : kRoles)
            freq[roleIndex(truth)][roleIndex(judge.judge(truth, success))] += 1.0 / perRole;
    return freq;
}

} // namespace

class TestJudgeNoisy : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void fromAccuracy();
    void parseCells();
    void parseNumbers();
    void textRoundTrip();
    void invalidMatrix_data();
    void invalidMatrix();
    void sampleSkipsZeroCells();
    void empiricalAccuracy_data();
    void empiricalAccuracy();
    void empiricalConfusionMatchesMatrix();
    void successMatrixOnlyInSuccess();
    void deterministicPerSeed();
    void unlabelledTurnsKeepTheirDraw();
    void resolveAndTag();
    void resolveErrors();
    void judgeInterface();
};

void TestJudgeNoisy::fromAccuracy()
{
    const ConfusionMatrix m = ConfusionMatrix::fromAccuracy(0.7);
    for (Role t : kRoles)
        for (Role j : kRoles)
            QCOMPARE(m.probability(t, j), t == j ? 0.7 : 0.1);
    QVERIFY(ConfusionMatrix::fromAccuracy(1.0) == ConfusionMatrix());
}

void TestJudgeNoisy::parseCells()
{
    // Only row R is named: the other rows come from the base.
    const ConfusionMatrix base = ConfusionMatrix::fromAccuracy(0.8);
    const ConfusionMatrix m = ConfusionMatrix::parse("R:D=0.5, R:N=0.25;R:R=0.25", base);
    QCOMPARE(m.probability(Role::R, Role::D), 0.5);
    QCOMPARE(m.probability(Role::R, Role::E), 0.0);
    QCOMPARE(m.probability(Role::R, Role::R), 0.25);
    QVERIFY(m.row(Role::D) == base.row(Role::D));
    QVERIFY(m.row(Role::N) == base.row(Role::N));
    // Without a base, unnamed rows are the identity.
    QCOMPARE(ConfusionMatrix::parse("D:E=1").probability(Role::E, Role::E), 1.0);
}

void TestJudgeNoisy::parseNumbers()
{
    const ConfusionMatrix m = ConfusionMatrix::parse("0.9 0.1 0 0, 0 1 0 0; 0 0 1 0\n0.2 0.2 0.2 0.4");
    QCOMPARE(m.probability(Role::D, Role::E), 0.1);
    QCOMPARE(m.probability(Role::R, Role::R), 0.4);
    QCOMPARE(m.probability(Role::E, Role::E), 1.0);
}

void TestJudgeNoisy::textRoundTrip()
{
    const ConfusionMatrix m = ConfusionMatrix::parse("D:D=0.9,D:R=0.1,R:D=0.3,R:N=0.3,R:R=0.4");
    QCOMPARE(m.toString(), std::string("D:D=0.9;D:R=0.1;E:E=1;N:N=1;R:D=0.3;R:N=0.3;R:R=0.4"));
    QVERIFY(ConfusionMatrix::parse(m.toString()) == m);
    const ConfusionMatrix a = ConfusionMatrix::fromAccuracy(0.8);
    QVERIFY(ConfusionMatrix::parse(a.toString()) == a);
}

void TestJudgeNoisy::invalidMatrix_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << ""
                           << "empty text";
    QTest::newRow("row sum") << "D:D=0.9,D:E=0.05"
                             << "row D (true role D) sums to 0.95";
    QTest::newRow("negative") << "R:R=1.5,R:D=-0.5"
                              << "cell R:D";
    QTest::newRow("above one") << "R:R=1.5"
                               << "outside [0, 1]";
    QTest::newRow("unknown role") << "X:D=1"
                                  << "expected TRUE:JUDGED=p";
    QTest::newRow("no value") << "D:D"
                              << "expected TRUE:JUDGED=p";
    QTest::newRow("not a number") << "D:D=high"
                                  << "'high' is not a number";
    QTest::newRow("twice") << "D:D=0.5,D:D=0.5"
                           << "given twice";
    QTest::newRow("15 numbers") << "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0"
                                << "expected 16 numbers";
    QTest::newRow("bad row of 16") << "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 0.5"
                                   << "row R";
}

void TestJudgeNoisy::invalidMatrix()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    try {
        ConfusionMatrix::parse(text.toStdString());
        QFAIL("no ConfusionError");
    } catch (const ConfusionError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
    }
}

void TestJudgeNoisy::sampleSkipsZeroCells()
{
    const ConfusionMatrix m = ConfusionMatrix::parse("R:N=1");
    QCOMPARE(m.sample(Role::R, 0.0), Role::N);
    QCOMPARE(m.sample(Role::R, 0.9999999999), Role::N);
    QVERIFY_THROWS_EXCEPTION(ConfusionError, ConfusionMatrix::fromAccuracy(1.01));
    QVERIFY_THROWS_EXCEPTION(ConfusionError, ConfusionMatrix::fromAccuracy(std::nan("")));
}

void TestJudgeNoisy::empiricalAccuracy_data()
{
    QTest::addColumn<double>("accuracy");
    QTest::newRow("0.8") << 0.8;
    QTest::newRow("0.5") << 0.5;
    QTest::newRow("0.95") << 0.95;
    QTest::newRow("0.25 (chance)") << 0.25;
}

void TestJudgeNoisy::empiricalAccuracy()
{
    QFETCH(double, accuracy);
    NoisyJudge judge(ConfusionMatrix::fromAccuracy(accuracy), std::nullopt, 17);
    const int n = 100000;
    int correct = 0;
    std::array<int, kRoleCount> offDiagonal {};
    for (int i = 0; i < n; ++i) {
        const Role truth = kRoles[i % kRoleCount];
        const Role judged = judge.judge(truth, i % 3 == 0);
        correct += judged == truth;
        if (judged != truth && truth == Role::D)
            ++offDiagonal[roleIndex(judged)];
    }
    const double observed = static_cast<double>(correct) / n;
    QVERIFY2(std::abs(observed - accuracy) < 0.01, std::to_string(observed).c_str());
    // Errors spread uniformly: each wrong label of D takes about a third of D's errors.
    const int errors = offDiagonal[1] + offDiagonal[2] + offDiagonal[3];
    for (std::size_t j = 1; j < kRoleCount; ++j)
        QVERIFY(std::abs(offDiagonal[j] - errors / 3.0) < 0.1 * errors + 10);
}

void TestJudgeNoisy::empiricalConfusionMatchesMatrix()
{
    const ConfusionMatrix m = ConfusionMatrix::parse("0.9 0.05 0.05 0  0.1 0.6 0.3 0  0 0.2 0.7 0.1  0.3 0.1 0.2 0.4");
    NoisyJudge judge(m, std::nullopt, 3);
    const auto freq = empirical(judge, 40000, false);
    for (std::size_t i = 0; i < kRoleCount; ++i)
        for (std::size_t j = 0; j < kRoleCount; ++j)
            QVERIFY2(std::abs(freq[i][j] - m.rows()[i][j]) < 0.01,
                (std::to_string(i) + "," + std::to_string(j) + ": " + std::to_string(freq[i][j])).c_str());
    QCOMPARE(freq[0][3], 0.0); // a zero cell is never drawn
}

void TestJudgeNoisy::successMatrixOnlyInSuccess()
{
    // TRIAGE's worst case: inside successful rollouts the judge never reports a regression.
    NoisyJudge judge = NoisyJudge::resolve({ { "accuracy", "1" }, { "success_matrix", "R:D=0.5,R:N=0.5" } });
    const auto inSuccess = empirical(judge, 20000, true);
    QCOMPARE(inSuccess[roleIndex(Role::R)][roleIndex(Role::R)], 0.0);
    QVERIFY(std::abs(inSuccess[roleIndex(Role::R)][roleIndex(Role::D)] - 0.5) < 0.01);
    QCOMPARE(inSuccess[roleIndex(Role::D)][roleIndex(Role::D)], 1.0); // rows not named: from matrix
    const auto inFailure = empirical(judge, 1000, false);
    for (std::size_t k = 0; k < kRoleCount; ++k)
        QCOMPARE(inFailure[k][k], 1.0);
}

void TestJudgeNoisy::deterministicPerSeed()
{
    const auto run = [](std::uint64_t seed) {
        NoisyJudge judge(ConfusionMatrix::fromAccuracy(0.6), std::nullopt, seed);
        std::vector<Role> out;
        for (int i = 0; i < 2000; ++i)
            out.push_back(judge.judge(kRoles[i % kRoleCount], false));
        return out;
    };
    QVERIFY(run(5) == run(5));
    QVERIFY(run(5) != run(6));
    NoisyJudge judge(ConfusionMatrix::fromAccuracy(0.6), std::nullopt, 5);
    const std::vector<std::optional<Role>> truth(2000, Role::E);
    const auto first = judge.judgeTrajectory(truth, true);
    judge.reset();
    QVERIFY(judge.judgeTrajectory(truth, true) == first);
    // Fixed first draws for seed 5: a regression test for the draw order (mt19937_64 is specified).
    NoisyJudge fresh(ConfusionMatrix::fromAccuracy(0.6), std::nullopt, 5);
    std::mt19937_64 reference(5);
    for (int i = 0; i < 100; ++i) {
        const double u = static_cast<double>(reference() >> 11) * 0x1.0p-53;
        QCOMPARE(fresh.judge(Role::N, false), fresh.matrix().sample(Role::N, u));
    }
}

void TestJudgeNoisy::unlabelledTurnsKeepTheirDraw()
{
    NoisyJudge a(ConfusionMatrix::fromAccuracy(0.3), std::nullopt, 11);
    NoisyJudge b(ConfusionMatrix::fromAccuracy(0.3), std::nullopt, 11);
    const std::vector<std::optional<Role>> full(50, Role::R);
    std::vector<std::optional<Role>> holes = full;
    for (std::size_t i = 0; i < holes.size(); i += 3)
        holes[i].reset();
    const auto ja = a.judgeTrajectory(full, false);
    const auto jb = b.judgeTrajectory(holes, false);
    for (std::size_t i = 0; i < full.size(); ++i) {
        QCOMPARE(jb[i].has_value(), i % 3 != 0);
        if (jb[i])
            QCOMPARE(*jb[i], *ja[i]);
    }
}

void TestJudgeNoisy::resolveAndTag()
{
    QCOMPARE(NoisyJudge::resolve({}).tag(), std::string("noisy:accuracy=0.8,seed=0"));
    QCOMPARE(NoisyJudge::resolve({ { "seed", "42" }, { "accuracy", "0.75" } }).tag(),
        std::string("noisy:accuracy=0.75,seed=42"));
    const NoisyJudge m = NoisyJudge::resolve({ { "matrix", "R:R=0.5,R:D=0.5" }, { "accuracy", "1" } });
    QCOMPARE(m.tag(), std::string("noisy:accuracy=1,matrix=D:D=1;E:E=1;N:N=1;R:D=0.5;R:R=0.5,seed=0"));
    const NoisyJudge s = NoisyJudge::resolve({ { "accuracy", "1" }, { "success_matrix", "R:N=1" } });
    QCOMPARE(s.tag(), std::string("noisy:accuracy=1,seed=0,success_matrix=D:D=1;E:E=1;N:N=1;R:N=1"));
    QVERIFY(s.matrixFor(false) == ConfusionMatrix());
    QCOMPARE(s.matrixFor(true).probability(Role::R, Role::N), 1.0);
    QCOMPARE(NoisyJudge::params().size(), std::size_t(4));
    QCOMPARE(NoisyJudge::params()[1].typeName(), std::string("text"));
}

void TestJudgeNoisy::resolveErrors()
{
    QVERIFY_THROWS_EXCEPTION(credit::ParamError, NoisyJudge::resolve({ { "acuracy", "0.5" } }));
    QVERIFY_THROWS_EXCEPTION(credit::ParamError, NoisyJudge::resolve({ { "accuracy", "1.5" } }));
    QVERIFY_THROWS_EXCEPTION(credit::ParamError, NoisyJudge::resolve({ { "seed", "-1" } }));
    QVERIFY_THROWS_EXCEPTION(ConfusionError, NoisyJudge::resolve({ { "matrix", "R:R=0.5" } }));
    QVERIFY_THROWS_EXCEPTION(ConfusionError, NoisyJudge::resolve({ { "success_matrix", "Q:R=1" } }));
}

void TestJudgeNoisy::judgeInterface()
{
    Trajectory t;
    t.id = "t";
    t.reward = 1.0;
    t.turns.resize(4);
    const std::vector<std::optional<Role>> truth { Role::D, Role::E, std::nullopt, Role::R };

    const auto oracle = makeJudge("oracle");
    QCOMPARE(oracle->tag(), std::string("oracle"));
    const std::vector<Verdict> v = oracle->judge(t, truth);
    QCOMPARE(v.size(), std::size_t(4));
    QCOMPARE(v[0].role, std::optional<Role>(Role::D));
    QCOMPARE(v[0].score, std::optional<double>(1.0));
    QCOMPARE(v[1].score, std::optional<double>(0.75));
    QVERIFY(!v[2].role && !v[2].score);
    QCOMPARE(v[3].score, std::optional<double>(0.25));
    QCOMPARE(roleScore(Role::N), 0.45);

    // A noisy judge with accuracy 1 is the oracle; its tag keys its stored labels.
    const auto perfect = makeJudge("noisy", { { "accuracy", "1" } });
    QCOMPARE(perfect->tag(), std::string("noisy:accuracy=1,seed=0"));
    const std::vector<Verdict> p = perfect->judge(t, truth);
    for (std::size_t k = 0; k < truth.size(); ++k)
        QCOMPARE(p[k].role, truth[k]);

    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeJudge("gpt"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeJudge("oracle", { { "accuracy", "1" } }));
    QVERIFY_THROWS_EXCEPTION(credit::ParamError, makeJudge("noisy", { { "accuracy", "2" } }));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, oracle->judge(t, std::span(truth).first(2)));
}

QTEST_GUILESS_MAIN(TestJudgeNoisy)
#include "tst_judge_noisy.moc"
