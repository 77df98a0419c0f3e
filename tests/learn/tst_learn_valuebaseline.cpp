// The value head of TRIAGE's shared-backbone value baseline (App. D; shared/methods/triage.md §4, ambiguity 24) on
// the CPU: hand-computed Monte-Carlo targets and value differences, the exact EMA update, a seeded head learning a
// linear target, the warm-up counter, determinism, a save/load round trip with the Adam state, and the deltas
// feeding the `value_baseline` estimator.
#include "core/credit/estimator.h"
#include "core/learn/torch/valuebaseline/valuehead.h"

#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QTest>

#include <algorithm>
#include <cmath>
#include <random>

using namespace creditlab;
using namespace creditlab::learn;

namespace {

ValueBaselineOptions smallOptions(double lr = 1e-2)
{
    ValueBaselineOptions o;
    o.width = 16;
    o.lr = lr;
    o.seed = 5;
    return o;
}

/// `rows` Gaussian hidden states and their linear targets y = w·x + b, from a fixed seed.
void linearData(std::int64_t rows, std::int64_t width, std::vector<float>& hidden, std::vector<double>& targets)
{
    std::mt19937 rng(11);
    std::normal_distribution<float> noise(0.0f, 1.0f);
    std::vector<float> w(static_cast<std::size_t>(width));
    for (auto& v : w)
        v = 0.5f * noise(rng);
    hidden.resize(static_cast<std::size_t>(rows * width));
    for (auto& v : hidden)
        v = noise(rng);
    targets.assign(static_cast<std::size_t>(rows), 0.3);
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < width; ++c)
            targets[static_cast<std::size_t>(r)]
                += w[static_cast<std::size_t>(c)] * hidden[static_cast<std::size_t>(r * width + c)];
}

void compareVectors(const std::vector<double>& actual, const std::vector<double>& expected, double tol = 1e-12)
{
    QCOMPARE(actual.size(), expected.size());
    for (std::size_t k = 0; k < actual.size(); ++k)
        QVERIFY2(std::abs(actual[k] - expected[k]) < tol,
            qPrintable(QStringLiteral("entry %1: got %2, expected %3").arg(k).arg(actual[k]).arg(expected[k])));
}

} // namespace

class TestLearnValueBaseline : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void defaults()
    {
        const ValueBaselineOptions o;
        QCOMPARE(o.gamma, 0.95);
        QCOMPARE(o.lr, 1e-4);
        QCOMPARE(o.emaTau, 0.99);
        QCOMPARE(o.warmupSteps, std::int64_t(10));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ValueBaseline([] {
            ValueBaselineOptions bad;
            bad.width = 0;
            return bad;
        }()));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ValueBaseline([] {
            ValueBaselineOptions bad;
            bad.emaTau = 1.5;
            return bad;
        }()));
    }

    void monteCarloTargets_data()
    {
        QTest::addColumn<qint64>("turns");
        QTest::addColumn<double>("reward");
        QTest::addColumn<double>("gamma");
        QTest::addColumn<QList<double>>("expected");
        // y_k = gamma^(T - k) * r for k = 0..T, s_0 first.
        QTest::newRow("T=3, gamma 0.5") << qint64(3) << 2.0 << 0.5 << QList<double> { 0.25, 0.5, 1.0, 2.0 };
        QTest::newRow("T=2, gamma 0.95") << qint64(2) << 1.0 << 0.95 << QList<double> { 0.9025, 0.95, 1.0 };
        QTest::newRow("failure") << qint64(2) << 0.0 << 0.95 << QList<double> { 0.0, 0.0, 0.0 };
        QTest::newRow("negative reward") << qint64(1) << -1.0 << 0.9 << QList<double> { -0.9, -1.0 };
        QTest::newRow("no turns") << qint64(0) << 1.0 << 0.95 << QList<double> { 1.0 };
        QTest::newRow("gamma 1") << qint64(2) << 0.5 << 1.0 << QList<double> { 0.5, 0.5, 0.5 };
    }

    void monteCarloTargets()
    {
        QFETCH(qint64, turns);
        QFETCH(double, reward);
        QFETCH(double, gamma);
        QFETCH(QList<double>, expected);
        compareVectors(ValueBaseline::monteCarloTargets(turns, reward, gamma),
            std::vector<double>(expected.begin(), expected.end()));
    }

    void deltas()
    {
        // dV_k = V(s_k) - V(s_{k-1}), k = 1..T, from the T + 1 values of s_0..s_T.
        compareVectors(ValueBaseline::deltas({ 0.1, 0.4, 0.2, 1.0 }), { 0.3, -0.2, 0.8 }, 1e-15);
        compareVectors(ValueBaseline::deltas({ 5.0 }), {});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ValueBaseline::deltas({}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ValueBaseline::monteCarloTargets(-1, 1.0, 0.9));
    }

    void emaUpdateExact_data()
    {
        QTest::addColumn<double>("tau");
        QTest::newRow("paper 0.99") << 0.99;
        QTest::newRow("0.5") << 0.5;
        QTest::newRow("0 copies") << 0.0;
    }

    void emaUpdateExact()
    {
        QFETCH(double, tau);
        ValueBaselineOptions o = smallOptions(0.05);
        o.emaTau = tau;
        ValueBaseline head(o);
        std::vector<float> hidden;
        std::vector<double> targets;
        linearData(32, o.width, hidden, targets);
        QCOMPARE(head.parameters(true), head.parameters(false)); // φ̄ starts as φ
        for (int step = 0; step < 3; ++step) {
            const std::vector<float> before = head.parameters(true);
            head.trainStep(hidden.data(), 32, targets);
            const std::vector<float> online = head.parameters(false);
            const std::vector<float> ema = head.parameters(true);
            QCOMPARE(ema.size(), std::size_t(o.width + 1));
            double moved = 0.0;
            for (std::size_t k = 0; k < ema.size(); ++k) {
                const double expected = tau * before[k] + (1.0 - tau) * online[k]; // φ̄ ← τφ̄ + (1 − τ)φ
                QVERIFY2(std::abs(ema[k] - expected) < 1e-6, qPrintable(QString::number(k)));
                moved += std::abs(online[k] - before[k]);
            }
            QVERIFY(moved > 1e-3); // the online head did move, so the check above means something
        }
        // predict() reads φ̄, predictOnline() φ; they differ unless τ = 0.
        const auto ema = head.predict(hidden.data(), 4);
        const auto online = head.predictOnline(hidden.data(), 4);
        QCOMPARE(ema.size(), std::size_t(4));
        if (tau == 0.0)
            QCOMPARE(ema, online);
        else
            QVERIFY(ema != online);
    }

    void learnsLinearTarget()
    {
        ValueBaselineOptions o = smallOptions(1e-2);
        ValueBaseline head(o);
        std::vector<float> hidden;
        std::vector<double> targets;
        const std::int64_t rows = 256;
        linearData(rows, o.width, hidden, targets);
        const auto emaMse = [&] {
            const auto v = head.predict(hidden.data(), rows);
            double s = 0.0;
            for (std::int64_t r = 0; r < rows; ++r)
                s += std::pow(v[static_cast<std::size_t>(r)] - targets[static_cast<std::size_t>(r)], 2);
            return s / static_cast<double>(rows);
        };
        const double emaBefore = emaMse();
        const double first = head.trainStep(hidden.data(), rows, targets);
        double last = first;
        for (int step = 1; step < 600; ++step)
            last = head.trainStep(hidden.data(), rows, targets);
        QVERIFY2(last < first / 10.0, qPrintable(QStringLiteral("loss %1 -> %2").arg(first).arg(last)));
        QVERIFY2(
            emaMse() < emaBefore / 10.0, qPrintable(QStringLiteral("EMA MSE %1 -> %2").arg(emaBefore).arg(emaMse())));
        QCOMPARE(head.steps(), std::int64_t(600));
    }

    void warmUp()
    {
        ValueBaselineOptions o = smallOptions();
        o.warmupSteps = 3;
        ValueBaseline head(o);
        std::vector<float> hidden;
        std::vector<double> targets;
        linearData(4, o.width, hidden, targets);
        for (int step = 0; step < 3; ++step) {
            QCOMPARE(head.steps(), std::int64_t(step));
            QVERIFY(!head.warmedUp());
            QCOMPARE(head.mixingWeight(0.2), 0.0); // λ = 0 during warm-up (App. D)
            head.trainStep(hidden.data(), 4, targets);
        }
        QVERIFY(head.warmedUp());
        QCOMPARE(head.mixingWeight(0.2), 0.2);
        QVERIFY(!ValueBaseline(ValueBaselineOptions { .width = 4 }).warmedUp()); // the paper's 10 steps
        QVERIFY(ValueBaseline(ValueBaselineOptions { .width = 4, .warmupSteps = 0 }).warmedUp());
    }

    void deterministicAndChecked()
    {
        const ValueBaseline a(smallOptions()), b(smallOptions());
        QCOMPARE(a.parameters(false), b.parameters(false));
        ValueBaselineOptions other = smallOptions();
        other.seed = 6;
        QVERIFY(ValueBaseline(other).parameters(false) != a.parameters(false));
        // 1/sqrt(16) bound of PyTorch's default Linear initialisation.
        for (float p : a.parameters(false))
            QVERIFY(std::abs(p) <= 0.25f);
        ValueBaseline c(smallOptions());
        std::vector<float> hidden(32, 0.5f);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, c.trainStep(hidden.data(), 2, { 1.0 }));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, c.trainStep(hidden.data(), 0, {}));
        QVERIFY(c.predict(nullptr, 0).empty());
    }

    void saveLoadRoundTrip()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath(QStringLiteral("value.pt")).toStdString();
        ValueBaselineOptions o = smallOptions(0.02);
        o.gamma = 0.9;
        o.emaTau = 0.95;
        o.warmupSteps = 4;
        ValueBaseline head(o);
        std::vector<float> hidden;
        std::vector<double> targets;
        linearData(64, o.width, hidden, targets);
        for (int step = 0; step < 5; ++step)
            head.trainStep(hidden.data(), 64, targets);
        head.save(path);
        ValueBaseline loaded = ValueBaseline::load(path);
        QCOMPARE(loaded.steps(), std::int64_t(5));
        QCOMPARE(loaded.options().gamma, 0.9);
        QCOMPARE(loaded.options().emaTau, 0.95);
        QCOMPARE(loaded.options().warmupSteps, std::int64_t(4));
        QCOMPARE(loaded.options().seed, o.seed);
        QVERIFY(loaded.warmedUp());
        QCOMPARE(loaded.predict(hidden.data(), 64), head.predict(hidden.data(), 64));
        QCOMPARE(loaded.predictOnline(hidden.data(), 64), head.predictOnline(hidden.data(), 64));
        // The Adam state came back too: the next step is the same.
        QCOMPARE(loaded.trainStep(hidden.data(), 64, targets), head.trainStep(hidden.data(), 64, targets));
        QCOMPARE(loaded.parameters(false), head.parameters(false));
        QCOMPARE(loaded.parameters(true), head.parameters(true));

        const QString junk = dir.filePath(QStringLiteral("junk.pt"));
        QFile f(junk);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a checkpoint");
        f.close();
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, ValueBaseline::load(junk.toStdString()));
        QVERIFY_THROWS_EXCEPTION(
            std::runtime_error, ValueBaseline::load(dir.filePath(QStringLiteral("none.pt")).toStdString()));
    }

    void deltasDriveTheEstimator()
    {
        // One trajectory's T + 1 states through the EMA head, their deltas as the turns' "value_delta", and the
        // estimator's raw advantage = GRPO + λ·clip(ΔV, −0.5, 0.5) for a group of one (GRPO part 0).
        ValueBaseline head(smallOptions());
        std::vector<float> hidden;
        std::vector<double> targets;
        linearData(4, 16, hidden, targets);
        const auto values = head.predict(hidden.data(), 4);
        const auto dv = ValueBaseline::deltas(std::vector<double>(values.begin(), values.end()));
        Trajectory t;
        t.id = "a";
        t.group = "g";
        t.reward = 1.0;
        for (double x : dv) {
            Turn u;
            u.credits.emplace_back("value_delta", x);
            t.turns.push_back(u);
        }
        const Batch batch = Batch::fromTrajectories({ t });
        const credit::Estimator& e = credit::requireEstimator("value_baseline");
        const credit::Params p = e.resolve({ { "whiten", "false" } });
        e.validate(batch, p);
        const credit::CreditResult r = e.compute(batch, p);
        QCOMPARE(r.advantages.size(), std::size_t(3));
        for (std::size_t k = 0; k < 3; ++k)
            QVERIFY(std::abs(r.advantages[k] - 0.2 * std::clamp(dv[k], -0.5, 0.5)) < 1e-12);
    }
};

QTEST_GUILESS_MAIN(TestLearnValueBaseline)
#include "tst_learn_valuebaseline.moc"
