// PAIR's probes (core/probe): the scaler, sklearn-semantics ℓ2 logistic regression against an independent
// bisection solution and a zero gradient, AUROC against hand counts with ties, the two-stage probe on a
// synthetic case where the hidden state is fooled by contamination, the layer-wise probe, and JSON round trips.
#include "core/probe/metrics.h"
#include "core/probe/probeio.h"

#include <QTemporaryDir>
#include <QtTest/QTest>

#include <cmath>
#include <limits>
#include <random>

using namespace creditlab::probe;

namespace {

/// σ and log-loss derivatives computed here, independently of the library.
double logistic(double z) { return 1.0 / (1.0 + std::exp(-z)); }

/// sklearn's objective ½‖w‖² + C Σ logloss: its gradient at (w, b), intercept last.
std::vector<double> sklearnGradient(
    const FeatureMatrix& x, const std::vector<int>& y, const std::vector<double>& w, double b, double c)
{
    std::vector<double> g(w.size() + 1, 0.0);
    for (std::size_t i = 0; i < x.rows(); ++i) {
        double z = b;
        for (std::size_t j = 0; j < w.size(); ++j)
            z += w[j] * x.at(i, j);
        const double r = c * (logistic(z) - y[i]);
        for (std::size_t j = 0; j < w.size(); ++j)
            g[j] += r * x.at(i, j);
        g[w.size()] += r;
    }
    for (std::size_t j = 0; j < w.size(); ++j)
        g[j] += w[j];
    return g;
}

/// Root of an increasing function on [lo, hi] by bisection.
template <typename F> double bisect(F f, double lo, double hi)
{
    for (int i = 0; i < 200; ++i) {
        const double mid = 0.5 * (lo + hi);
        (f(mid) > 0.0 ? hi : lo) = mid;
    }
    return 0.5 * (lo + hi);
}

/// The 1-D problem solved without any Newton or L-BFGS: the intercept b*(w) zeroes Σ(p − y) (increasing in b);
/// the profile derivative w + C Σ (p − y) x at b*(w) is increasing in w (convex profile, envelope theorem).
std::pair<double, double> solve1d(const std::vector<double>& x, const std::vector<int>& y, double c)
{
    const auto interceptFor = [&](double w) {
        return bisect(
            [&](double b) {
                double s = 0.0;
                for (std::size_t i = 0; i < x.size(); ++i)
                    s += logistic(w * x[i] + b) - y[i];
                return s;
            },
            -60.0, 60.0);
    };
    const double w = bisect(
        [&](double w) {
            const double b = interceptFor(w);
            double s = w;
            for (std::size_t i = 0; i < x.size(); ++i)
                s += c * (logistic(w * x[i] + b) - y[i]) * x[i];
            return s;
        },
        -60.0, 60.0);
    return { w, interceptFor(w) };
}

/// The synthetic PAIR case (pair.md §1): on a clean prefix the hidden state knows the label; on a contaminated
/// prefix it "believes" every turn is correct (belief-consistency), while one attention statistic flags the
/// contamination and another carries the label there. Rows: hidden 8 features, attention 12.
struct Synthetic {
    FeatureMatrix hidden, attention;
    std::vector<int> labels;
    std::vector<bool> contaminated;
};

Synthetic synthetic(std::size_t n, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(0.0, 1.0);
    std::bernoulli_distribution coin(0.5);
    Synthetic s;
    for (std::size_t i = 0; i < n; ++i) {
        const bool y = coin(rng);
        const bool c = coin(rng);
        std::vector<double> h(8), a(12);
        for (double& v : h)
            v = noise(rng);
        for (double& v : a)
            v = noise(rng);
        h[0] = (c || y ? 1.5 : -1.5) + 0.5 * noise(rng);
        a[0] = (c ? 1.0 : 0.0) + 0.1 * noise(rng);
        a[1] = (c ? (y ? 1.0 : -1.0) : 0.0) + 0.3 * noise(rng);
        s.hidden.appendRow(std::span<const double>(h));
        s.attention.appendRow(std::span<const double>(a));
        s.labels.push_back(y ? 1 : 0);
        s.contaminated.push_back(c);
    }
    return s;
}

/// Rows of `s` whose contamination flag equals `c`.
Synthetic subset(const Synthetic& s, bool c)
{
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < s.labels.size(); ++i)
        if (s.contaminated[i] == c)
            rows.push_back(i);
    Synthetic out { s.hidden.selectRows(rows), s.attention.selectRows(rows), {}, {} };
    for (std::size_t r : rows) {
        out.labels.push_back(s.labels[r]);
        out.contaminated.push_back(c);
    }
    return out;
}

} // namespace

class TestProbe : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void scalerFitTransform()
    {
        const auto x
            = FeatureMatrix::fromRows(std::vector<std::vector<double>> { { 1, 5, 2 }, { 3, 5, 4 }, { 5, 5, 9 } });
        StandardScaler scaler;
        scaler.fit(x);
        QCOMPARE(scaler.mean(), (std::vector<double> { 3.0, 5.0, 5.0 }));
        QVERIFY(std::abs(scaler.scale()[0] - std::sqrt(8.0 / 3.0)) < 1e-15);
        QCOMPARE(scaler.scale()[1], 1.0); // constant feature: centred, not divided by zero
        QVERIFY(std::abs(scaler.scale()[2] - std::sqrt(26.0 / 3.0)) < 1e-15);
        const FeatureMatrix t = scaler.transform(x);
        QVERIFY(std::abs(t.at(0, 0) + 2.0 / std::sqrt(8.0 / 3.0)) < 1e-15);
        QCOMPARE(t.at(2, 1), 0.0);
        QVERIFY(std::abs(t.at(2, 2) - 4.0 / std::sqrt(26.0 / 3.0)) < 1e-15);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, scaler.transform(FeatureMatrix(2, 2)));
        FeatureMatrix bad(1, 2);
        bad.at(0, 0) = std::numeric_limits<double>::quiet_NaN();
        bad.at(0, 1) = -std::numeric_limits<double>::infinity();
        sanitizeFeatures(bad);
        QCOMPARE(bad.row(0)[0], 0.0);
        QCOMPARE(bad.row(0)[1], 0.0);
    }

    void logisticMatchesBisection_data()
    {
        QTest::addColumn<double>("c");
        QTest::addColumn<int>("solver");
        for (double c : { 0.01, 1.0, 100.0 })
            for (auto solver : { LogisticSolver::Newton, LogisticSolver::Lbfgs })
                QTest::addRow("C=%g %s", c, solver == LogisticSolver::Newton ? "newton" : "lbfgs")
                    << c << static_cast<int>(solver);
    }
    void logisticMatchesBisection()
    {
        QFETCH(double, c);
        QFETCH(int, solver);
        const std::vector<double> xs { -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 3.0 };
        const std::vector<int> y { 0, 0, 1, 0, 1, 1, 0, 1 };
        FeatureMatrix x(xs.size(), 1);
        for (std::size_t i = 0; i < xs.size(); ++i)
            x.at(i, 0) = xs[i];
        LogisticOptions options;
        options.c = c;
        options.solver = static_cast<LogisticSolver>(solver);
        LogisticRegression model(options);
        const LogisticFitReport report = model.fit(x, y);
        QVERIFY(report.converged);
        const auto [w, b] = solve1d(xs, y, c);
        QVERIFY2(std::abs(model.weights()[0] - w) < 1e-9, qPrintable(QString::number(model.weights()[0] - w)));
        QVERIFY2(std::abs(model.intercept() - b) < 1e-9, qPrintable(QString::number(model.intercept() - b)));
        // Stronger regularisation shrinks the slope: C = 0.01 must not come out like C = 100.
        if (c == 0.01)
            QVERIFY(std::abs(w) < 0.1);
    }

    void logisticGradientVanishes_data()
    {
        QTest::addColumn<int>("solver");
        QTest::addRow("newton") << static_cast<int>(LogisticSolver::Newton);
        QTest::addRow("lbfgs") << static_cast<int>(LogisticSolver::Lbfgs);
    }
    void logisticGradientVanishes()
    {
        QFETCH(int, solver);
        const Synthetic s = synthetic(300, 7);
        LogisticOptions options;
        options.solver = static_cast<LogisticSolver>(solver);
        LogisticRegression model(options);
        QVERIFY(model.fit(s.hidden, s.labels).converged);
        for (double g : sklearnGradient(s.hidden, s.labels, model.weights(), model.intercept(), options.c))
            QVERIFY2(std::abs(g) < 1e-8, qPrintable(QString::number(g)));
        // Both solvers find the same unique minimiser.
        LogisticOptions other = options;
        other.solver = options.solver == LogisticSolver::Newton ? LogisticSolver::Lbfgs : LogisticSolver::Newton;
        LogisticRegression check(other);
        check.fit(s.hidden, s.labels);
        for (std::size_t j = 0; j < model.weights().size(); ++j)
            QVERIFY(std::abs(model.weights()[j] - check.weights()[j]) < 1e-8);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model.fit(s.hidden, std::vector<int>(300, 1)));
    }

    void aurocHandCounts_data()
    {
        QTest::addColumn<QList<double>>("scores");
        QTest::addColumn<QList<int>>("labels");
        QTest::addColumn<double>("expected");
        // Positives 0.35, 0.8, 0.4, 0.4 against negatives 0.1, 0.4, 0.8: wins 1 + 2.5 + 1.5 + 1.5 = 6.5 of 12.
        QTest::addRow("ties") << QList<double> { 0.1, 0.4, 0.35, 0.8, 0.4, 0.8, 0.4 }
                              << QList<int> { 0, 0, 1, 1, 1, 0, 1 } << 6.5 / 12.0;
        QTest::addRow("separated") << QList<double> { 0.1, 0.2, 0.9 } << QList<int> { 0, 0, 1 } << 1.0;
        QTest::addRow("reversed") << QList<double> { 0.9, 0.8, 0.1 } << QList<int> { 0, 0, 1 } << 0.0;
        QTest::addRow("all tied") << QList<double> { 0.5, 0.5, 0.5, 0.5 } << QList<int> { 0, 1, 1, 0 } << 0.5;
        // Positives 3, 2, 1 against negatives 2, 3: (1 + 0.5) + (0.5 + 0) + (0 + 0) = 2 of 6.
        QTest::addRow("mixed") << QList<double> { 3, 2, 1, 2, 3 } << QList<int> { 1, 1, 1, 0, 0 } << 2.0 / 6.0;
    }
    void aurocHandCounts()
    {
        QFETCH(QList<double>, scores);
        QFETCH(QList<int>, labels);
        QFETCH(double, expected);
        const double a
            = auroc(std::vector<double>(scores.begin(), scores.end()), std::vector<int>(labels.begin(), labels.end()));
        QVERIFY2(std::abs(a - expected) < 1e-15, qPrintable(QString::number(a, 'g', 17)));
    }

    void aurocEdges()
    {
        QVERIFY(std::isnan(auroc({ 0.1, 0.2 }, { 1, 1 })));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, auroc({ 0.1 }, { 1, 0 }));
        // Brier and 15-bin ECE by hand: 0.8 sits alone in its bin (|1 − 0.8|); p = 0 joins 0.05 in the first
        // bin (0, 1/15] (|0 − 0.025| · 2); ECE = (0.2 + 0.05) / 3.
        QVERIFY(std::abs(brierScore({ 0.8, 0.0 }, { 1, 0 }) - 0.02) < 1e-15);
        QVERIFY(std::abs(expectedCalibrationError({ 0.8, 0.0, 0.05 }, { 1, 0, 0 }) - (0.2 + 0.05) / 3.0) < 1e-15);
    }

    void pairProbeCorrectsContamination_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<int>("folds");
        QTest::addRow("concat") << static_cast<int>(PairStage2Mode::Concat) << 0;
        QTest::addRow("concat cross-fitted") << static_cast<int>(PairStage2Mode::Concat) << 5;
        QTest::addRow("logit residual") << static_cast<int>(PairStage2Mode::LogitResidual) << 0;
    }
    void pairProbeCorrectsContamination()
    {
        QFETCH(int, mode);
        QFETCH(int, folds);
        const Synthetic train = synthetic(800, 42);
        const Synthetic test = synthetic(600, 43);
        PairProbeOptions options;
        options.mode = static_cast<PairStage2Mode>(mode);
        options.crossFitFolds = folds;
        PairProbe probe;
        const PairFitReport report = probe.fit(train.hidden, train.attention, train.labels, options);
        QVERIFY(report.stage1.converged && report.stage2.converged);
        QCOMPARE(probe.attentionFeatures(), std::size_t { 12 });

        const Synthetic contaminated = subset(test, true);
        const Synthetic clean = subset(test, false);
        const double union_ = probe.evaluate(test.hidden, test.attention, test.labels);
        const double onContaminated = probe.evaluate(contaminated.hidden, contaminated.attention, contaminated.labels);
        const double onClean = probe.evaluate(clean.hidden, clean.attention, clean.labels);
        const double stage1Contaminated = probe.stage1().evaluate(contaminated.hidden, contaminated.labels);
        qInfo("AUROC union %.4f clean %.4f contaminated %.4f; Stage 1 alone on contaminated %.4f", union_, onClean,
            onContaminated, stage1Contaminated);
        QVERIFY(union_ >= 0.9);
        QVERIFY(onClean >= 0.9);
        QVERIFY(onContaminated >= 0.9);
        QVERIFY(stage1Contaminated < 0.7); // the hidden-state probe alone is fooled there
        const PairScores scores = probe.scoreStages(test.hidden, test.attention);
        QCOMPARE(scores.stage1, probe.stage1().score(test.hidden));
        QCOMPARE(scores.final, probe.score(test.hidden, test.attention));
    }

    void pairStage1Rows()
    {
        const Synthetic train = synthetic(400, 5);
        PairProbeOptions options;
        options.stage1Rows.assign(train.contaminated.size(), false);
        for (std::size_t i = 0; i < train.contaminated.size(); ++i)
            options.stage1Rows[i] = !train.contaminated[i];
        PairProbe probe;
        probe.fit(train.hidden, train.attention, train.labels, options);
        LinearProbe cleanOnly;
        const Synthetic clean = subset(train, false);
        cleanOnly.fit(clean.hidden, clean.labels);
        QCOMPARE(probe.stage1().model().weights(), cleanOnly.model().weights());
        options.stage1Rows.pop_back();
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument, probe.fit(train.hidden, train.attention, train.labels, options));
    }

    void layerwisePicksInformativeLayer()
    {
        // Three layers of 6 features; only layer 1 carries the label.
        const auto layers = [](std::size_t n, std::uint64_t seed, std::vector<int>& labels) {
            std::mt19937_64 rng(seed);
            std::normal_distribution<double> noise(0.0, 1.0);
            std::vector<FeatureMatrix> out(3);
            labels.clear();
            for (std::size_t i = 0; i < n; ++i) {
                const int y = static_cast<int>(rng() % 2);
                labels.push_back(y);
                for (std::size_t l = 0; l < 3; ++l) {
                    std::vector<double> row(6);
                    for (double& v : row)
                        v = noise(rng);
                    if (l == 1)
                        row[2] += y ? 2.0 : -2.0;
                    out[l].appendRow(std::span<const double>(row));
                }
            }
            return out;
        };
        std::vector<int> yTrain, yValidation, yTest;
        const auto train = layers(400, 1, yTrain);
        const auto validation = layers(200, 2, yValidation);
        const auto test = layers(200, 3, yTest);
        LayerwiseProbe probe;
        const std::vector<double> aurocs = probe.fit(train, yTrain, validation, yValidation);
        QCOMPARE(probe.bestLayer(), std::size_t { 1 });
        QVERIFY(aurocs[1] >= 0.9);
        QVERIFY(aurocs[0] < 0.7 && aurocs[2] < 0.7);
        QVERIFY(probe.evaluate(test, yTest) >= 0.9);
        QCOMPARE(probe.score(test), probe.probe(1).score(test[1]));
    }

    void jsonRoundTrips()
    {
        const Synthetic train = synthetic(300, 11);
        const Synthetic test = synthetic(100, 12);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (auto mode : { PairStage2Mode::Concat, PairStage2Mode::LogitResidual }) {
            PairProbeOptions options;
            options.mode = mode;
            PairProbe probe;
            probe.fit(train.hidden, train.attention, train.labels, options);
            const std::string path = dir.filePath(QStringLiteral("pair.json")).toStdString();
            saveProbe(path, probe);
            const std::string text = readProbeFile(path);
            QCOMPARE(probeKindFromJson(text), std::string("pair"));
            const PairProbe loaded = pairProbeFromJson(text);
            QCOMPARE(loaded.mode(), mode);
            QCOMPARE(loaded.score(test.hidden, test.attention), probe.score(test.hidden, test.attention)); // bit-exact
            QCOMPARE(toJson(loaded), text);
        }
        LinearProbe linear;
        linear.fit(train.hidden, train.labels);
        const LinearProbe loaded = linearProbeFromJson(toJson(linear));
        QCOMPARE(loaded.score(test.hidden), linear.score(test.hidden));
        LayerwiseProbe layerwise;
        layerwise.fit({ train.hidden, train.attention }, train.labels, { test.hidden, test.attention }, test.labels);
        const LayerwiseProbe loadedLayers = layerwiseProbeFromJson(toJson(layerwise));
        QCOMPARE(loadedLayers.bestLayer(), layerwise.bestLayer());
        QCOMPARE(loadedLayers.score({ test.hidden, test.attention }), layerwise.score({ test.hidden, test.attention }));

        const std::string text = toJson(linear);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, linearProbeFromJson(text.substr(0, text.size() / 2)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pairProbeFromJson(text)); // wrong kind
        std::string otherVersion = text;
        otherVersion.replace(otherVersion.find("\"version\":1"), 11, "\"version\":9");
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, linearProbeFromJson(otherVersion));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, toJson(LinearProbe {}));
    }
};

QTEST_GUILESS_MAIN(TestProbe)
#include "tst_probe.moc"
