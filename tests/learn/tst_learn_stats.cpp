// The claims' statistics: the distribution functions, the paired interval (its coverage by simulation, which chose
// the method; the verdicts on paired data with known effects), rliable's aggregates on hand-computed cases and the
// power planner recovering the seed count of a simulated design.
#include "core/learn/api/claims.h"
#include "core/learn/api/distributions.h"
#include "core/learn/api/pairedstats.h"
#include "core/learn/api/power.h"
#include "core/learn/api/rliable.h"

#include <QtTest/QTest>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <random>

using namespace creditlab::learn;

namespace {

bool near(double a, double b, double tolerance) { return std::abs(a - b) <= tolerance; }

/// A simulated experiment like the shipped ones: two arms, `seeds` paired seeds, `tasks` eval tasks with binary
/// outcomes. A probit model: arm X of seed s solves task t when ability(X, s) + difficulty(t) + noise(X, s, t) > 0,
/// with difficulty ~ N(0, difficultySd^2) shared by both arms and every seed (the eval set is fixed), ability ~
/// N(shift_X, seedSd^2) and noise ~ N(0, 1), both correlated 0.3 between the arms of a seed (the same seed and SFT
/// start). `truth` is the expected difference on this experiment's tasks, over seeds and noise:
/// mean_t Phi((shift_A + d_t) / sqrt(1 + seedSd^2)) - Phi((shift_B + d_t) / sqrt(1 + seedSd^2)).
struct Simulated {
    PairedData data;
    double truth = 0.0;
    double seedSd = 0.0; ///< the observed sd of arm B's per-seed success
};

struct Design {
    double difficultySd, seedSd, difference; ///< difference: the target truth (about; shift from a linearisation)
};

Simulated simulateExperiment(std::mt19937_64& gen, int seeds, const Design& design, int tasks = 200)
{
    constexpr double rho = 0.3;
    std::normal_distribution<double> z(0.0, 1.0);
    const double scale = std::sqrt(1.0 + design.difficultySd * design.difficultySd + design.seedSd * design.seedSd);
    const double shift = design.difference * scale / 0.3989422804014327; // the success slope at 0.5 is phi(0) / scale
    std::vector<double> difficulty(static_cast<std::size_t>(tasks));
    Simulated out;
    const double spread = std::sqrt(1.0 + design.seedSd * design.seedSd);
    for (auto& d : difficulty) {
        d = design.difficultySd * z(gen);
        out.truth += (normalCdf((shift + d) / spread) - normalCdf(d / spread)) / tasks;
    }
    std::vector<std::vector<double>> a, b;
    std::vector<double> meanA, meanB;
    std::vector<std::string> labels;
    for (int s = 0; s < seeds; ++s) {
        const double common = z(gen);
        const double abilityA = shift + design.seedSd * (std::sqrt(rho) * common + std::sqrt(1 - rho) * z(gen));
        const double abilityB = design.seedSd * (std::sqrt(rho) * common + std::sqrt(1 - rho) * z(gen));
        std::vector<double> ta, tb;
        for (const double d : difficulty) {
            const double shared = z(gen);
            ta.push_back(abilityA + d + std::sqrt(rho) * shared + std::sqrt(1 - rho) * z(gen) > 0 ? 1.0 : 0.0);
            tb.push_back(abilityB + d + std::sqrt(rho) * shared + std::sqrt(1 - rho) * z(gen) > 0 ? 1.0 : 0.0);
        }
        meanA.push_back(std::accumulate(ta.begin(), ta.end(), 0.0) / tasks);
        meanB.push_back(std::accumulate(tb.begin(), tb.end(), 0.0) / tasks);
        a.push_back(std::move(ta));
        b.push_back(std::move(tb));
        labels.push_back(std::to_string(s));
    }
    out.data = pairBySeed(labels, meanA, labels, meanB, a, b);
    out.seedSd = meanStd(meanB).second;
    return out;
}

/// The shipped experiments' range: per-seed sd of eval success about 0.01-0.04 (from the binomial noise of 200 tasks,
/// whose outcomes mostly repeat across seeds, and the seed's ability), differences 0, 0.025 and 0.05.
const std::vector<Design>& designs()
{
    static const std::vector<Design> d { { 3.0, 0.10, 0.0 }, { 3.0, 0.10, 0.025 }, { 3.0, 0.10, 0.05 },
        { 3.0, 0.25, 0.0 }, { 3.0, 0.25, 0.025 }, { 3.0, 0.25, 0.05 }, { 5.0, 0.40, 0.0 }, { 5.0, 0.40, 0.025 },
        { 5.0, 0.40, 0.05 } };
    return d;
}

struct Coverage {
    double covered = 0.0;
    double seedSd = 0.0; ///< the mean observed per-seed sd of eval success
    double width = 0.0; ///< the median interval width
};

/// `perTask` false: the same experiments with per-seed values only (auc and probe claims, old data).
Coverage coverage(
    IntervalMethod method, int seeds, int experiments, int resamples, std::uint64_t seed, bool perTask = true)
{
    std::mt19937_64 gen(seed);
    Coverage c;
    std::vector<double> widths;
    for (int k = 0; k < experiments; ++k) {
        auto sim = simulateExperiment(gen, seeds, designs()[static_cast<std::size_t>(k) % designs().size()]);
        if (!perTask) {
            sim.data.design = PairingDesign::PerSeed;
            sim.data.leftTasks.clear();
            sim.data.rightTasks.clear();
        }
        IntervalOptions options;
        options.method = method;
        options.resamples = resamples;
        options.seed = static_cast<std::uint64_t>(k + 1);
        const auto i = differenceInterval(sim.data, options);
        c.covered += (i.low <= sim.truth && sim.truth <= i.high) ? 1.0 : 0.0;
        c.seedSd += sim.seedSd;
        widths.push_back(i.high - i.low);
    }
    std::sort(widths.begin(), widths.end());
    c.covered /= experiments;
    c.seedSd /= experiments;
    c.width = widths[widths.size() / 2];
    return c;
}

/// Paired per-task data with given per-seed success counts out of `tasks`: arm A solves the first a[s] tasks of seed
/// s, arm B the first b[s].
PairedData countsData(const std::vector<int>& a, const std::vector<int>& b, int tasks = 200)
{
    std::vector<std::vector<double>> ta, tb;
    std::vector<double> ma, mb;
    std::vector<std::string> labels;
    for (std::size_t s = 0; s < a.size(); ++s) {
        std::vector<double> x(static_cast<std::size_t>(tasks), 0.0), y(static_cast<std::size_t>(tasks), 0.0);
        for (int t = 0; t < a[s]; ++t)
            x[static_cast<std::size_t>(t)] = 1.0;
        for (int t = 0; t < b[s]; ++t)
            y[static_cast<std::size_t>(t)] = 1.0;
        ma.push_back(a[s] / static_cast<double>(tasks));
        mb.push_back(b[s] / static_cast<double>(tasks));
        ta.push_back(std::move(x));
        tb.push_back(std::move(y));
        labels.push_back(std::to_string(s));
    }
    return pairBySeed(labels, ma, labels, mb, ta, tb);
}

/// A Gaussian design of paired differences: e(s, t) = effect + u(s) + v(t) + w(s, t) with known variances.
PairedData gaussianDesign(std::mt19937_64& gen, int seeds, int tasks, double effect, double sdU, double sdV, double sdW)
{
    std::normal_distribution<double> z(0.0, 1.0);
    std::vector<double> v(static_cast<std::size_t>(tasks));
    for (auto& x : v)
        x = sdV * z(gen);
    std::vector<std::vector<double>> left, right;
    std::vector<double> ml, mr;
    std::vector<std::string> labels;
    for (int s = 0; s < seeds; ++s) {
        const double u = sdU * z(gen);
        std::vector<double> l, r;
        for (int t = 0; t < tasks; ++t) {
            l.push_back(effect + u + v[static_cast<std::size_t>(t)] + sdW * z(gen));
            r.push_back(0.0); // the difference carries everything
        }
        ml.push_back(std::accumulate(l.begin(), l.end(), 0.0) / tasks);
        mr.push_back(0.0);
        left.push_back(std::move(l));
        right.push_back(std::move(r));
        labels.push_back(std::to_string(s));
    }
    return pairBySeed(labels, ml, labels, mr, left, right);
}

} // namespace

class TestLearnStats : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void distributionsMatchKnownValues();
    void binomialDrawsHaveTheirMoments();
    void pairingFollowsTheSeeds();
    void claimIntervalCoverage();
    void verdictsOnPairedDataWithKnownEffects();
    void tIntervalByHand();
    void rliableOnHandComputedCases();
    void plannerRecoversTheSeedCount();
};

void TestLearnStats::distributionsMatchKnownValues()
{
    QVERIFY(near(normalCdf(1.96), 0.9750021048517795, 1e-12));
    QVERIFY(near(normalQuantile(0.975), 1.959963984540054, 1e-10));
    QVERIFY(near(normalQuantile(0.5), 0.0, 1e-12));
    QVERIFY(std::isinf(normalQuantile(0.0)));
    // Student's t quantiles (R: qt(0.975, df)).
    QVERIFY(near(studentTQuantile(0.975, 1), 12.706204736174696, 1e-8));
    QVERIFY(near(studentTQuantile(0.975, 2), 4.302652729749464, 1e-9));
    QVERIFY(near(studentTQuantile(0.975, 4), 2.7764451051977934, 1e-9));
    QVERIFY(near(studentTQuantile(0.975, 9), 2.2621571627982053, 1e-9));
    QVERIFY(near(studentTQuantile(0.8, 2), 1.0606601717798212, 1e-9));
    QVERIFY(near(studentTQuantile(0.025, 9), -2.2621571627982053, 1e-9));
    QVERIFY(near(studentTCdf(2.0, 5), 0.9490302605850709, 1e-12));
    QVERIFY(near(studentTCdf(0.0, 3.5), 0.5, 1e-15));
    // I_0.3(2, 3) = sum_{j=2..4} C(4, j) 0.3^j 0.7^(4-j).
    QVERIFY(near(incompleteBeta(0.3, 2, 3), 6 * 0.09 * 0.49 + 4 * 0.027 * 0.7 + 0.0081, 1e-13));
    QVERIFY(near(incompleteBeta(0.9, 2, 3), 1.0 - incompleteBeta(0.1, 3, 2), 1e-13));
}

void TestLearnStats::binomialDrawsHaveTheirMoments()
{
    Rng rng(3);
    for (const auto& [n, p] :
        std::vector<std::pair<int, double>> { { 200, 0.3 }, { 200, 0.97 }, { 7, 0.5 }, { 1, 0.2 } }) {
        double sum = 0.0, sq = 0.0;
        constexpr int draws = 40000;
        for (int k = 0; k < draws; ++k) {
            const auto x = static_cast<double>(binomialDraw(rng, n, p));
            QVERIFY(x >= 0 && x <= n);
            sum += x;
            sq += x * x;
        }
        const double mean = sum / draws, var = sq / draws - mean * mean;
        const double expected = n * p * (1 - p);
        // Within 5 standard errors of the mean, and the variance within 5%.
        QVERIFY2(near(mean, n * p, 5 * std::sqrt(expected / draws)), qPrintable(QString::number(mean)));
        QVERIFY2(near(var, expected, 0.05 * expected + 1e-9), qPrintable(QString::number(var)));
    }
    QCOMPARE(binomialDraw(rng, 10, 0.0), 0);
    QCOMPARE(binomialDraw(rng, 10, 1.0), 10);
}

void TestLearnStats::pairingFollowsTheSeeds()
{
    // Seeds 0-2 in both arms, in another order: paired by label. An arm's extra seed is left out of the pairs.
    auto d = pairBySeed({ "0", "1", "2", "3" }, { 0.5, 0.6, 0.7, 0.9 }, { "2", "0", "1" }, { 0.4, 0.3, 0.35 });
    QVERIFY(d.design == PairingDesign::PerSeed);
    QCOMPARE(d.seeds, (std::vector<std::string> { "0", "1", "2" }));
    QCOMPARE(d.differences(), (std::vector<double> { 0.5 - 0.3, 0.6 - 0.35, 0.7 - 0.4 }));
    // Per-task outcomes for every shared seed: PerTask; one seed without them: PerSeed.
    const std::vector<std::vector<double>> tasks { { 1, 0 }, { 0, 1 }, { 1, 1 } };
    d = pairBySeed({ "0", "1", "2" }, { 0.5, 0.5, 1.0 }, { "0", "1", "2" }, { 0.5, 0.5, 1.0 }, tasks, tasks);
    QVERIFY(d.design == PairingDesign::PerTask);
    QCOMPARE(d.tasks(), 2);
    d = pairBySeed(
        { "0", "1", "2" }, { 0.5, 0.5, 1.0 }, { "0", "1", "2" }, { 0.5, 0.5, 1.0 }, tasks, { { 1, 0 }, {}, { 1, 1 } });
    QVERIFY(d.design == PairingDesign::PerSeed);
    // Fewer than two shared seeds: unpaired, every value kept.
    d = pairBySeed({ "0", "1" }, { 0.5, 0.6 }, { "1", "7" }, { 0.4, 0.3 });
    QVERIFY(d.design == PairingDesign::Unpaired);
    QCOMPARE(d.left.size(), std::size_t(2));
    QCOMPARE(d.right.size(), std::size_t(2));
}

void TestLearnStats::claimIntervalCoverage()
{
    // The method the claims use (kClaimIntervalMethod) covers the true difference 93-97% of the time at 3, 5 and 10
    // seeds in 2000 simulated experiments like the shipped ones (95% binomial range at 2000: +-0.0096), with per-task
    // outcomes and with per-seed values only. The other methods' coverage is printed from 400 experiments (2000 with
    // CREDITLAB_STATS_FULL=1, for the table in pairedstats.h); without per-task outcomes the percentile bootstrap
    // must fall short at 3 seeds (it sees at most ten distinct resamples), which is why it is not the method.
    const auto start = std::chrono::steady_clock::now();
    const bool full = std::getenv("CREDITLAB_STATS_FULL") != nullptr;
    for (const bool perTask : { true, false })
        for (const int seeds : { 3, 5, 10 }) {
            const char* design = perTask ? "seeds x tasks" : "seeds only";
            const auto chosen = coverage(kClaimIntervalMethod, seeds, 2000, 0, 100 + seeds, perTask);
            qInfo("%-13s %2d seeds: %-20s %.3f (median width %.4f; mean seed sd of success %.4f)", design, seeds,
                intervalMethodName(kClaimIntervalMethod), chosen.covered, chosen.width, chosen.seedSd);
            QVERIFY2(chosen.covered >= 0.93 && chosen.covered <= 0.97, qPrintable(QString::number(chosen.covered)));
            QVERIFY(chosen.seedSd > 0.01 && chosen.seedSd < 0.04);
            for (const auto method : { IntervalMethod::Percentile, IntervalMethod::Studentized, IntervalMethod::Bca }) {
                const auto other = coverage(method, seeds, full ? 2000 : 400, full ? 2000 : 500, 100 + seeds, perTask);
                qInfo("%-13s %2d seeds: %-20s %.3f (median width %.4f)", design, seeds, intervalMethodName(method),
                    other.covered, other.width);
                if (method == IntervalMethod::Percentile && seeds == 3 && !perTask)
                    QVERIFY2(other.covered < 0.9, qPrintable(QString::number(other.covered)));
            }
        }
    qInfo("%.1f s", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

void TestLearnStats::verdictsOnPairedDataWithKnownEffects()
{
    // Five seeds x 200 tasks. A gain of 10 points on every seed (+-1): supported for >, contradicted for <.
    const auto gain = countsData({ 120, 122, 118, 121, 119 }, { 100, 101, 99, 100, 100 });
    auto r = evaluateClaim(Claim::parse("a > b on eval/success"), gain);
    QVERIFY(r.verdict == Verdict::Supported);
    QVERIFY(r.data.design == PairingDesign::PerTask);
    QCOMPARE(r.seeds, 5);
    QCOMPARE(r.tasks, 200);
    QVERIFY(r.method == IntervalMethod::T);
    QVERIFY(near(r.interval.difference, 0.1, 1e-12));
    QVERIFY(!r.excludable);
    QVERIFY(r.improvement && r.improvement->value == 1.0); // every run of a above every run of b
    QVERIFY(evaluateClaim(Claim::parse("a < b on eval/success"), gain).verdict == Verdict::Contradicted);
    QVERIFY(evaluateClaim(Claim::parse("b < a on eval/success"),
                countsData({ 100, 101, 99, 100, 100 }, { 120, 122, 118, 121, 119 }))
                .verdict
        == Verdict::Supported);
    // No effect, the seeds scattered: inconclusive, and the data exclude a gain beyond the interval's high end.
    const auto none = countsData({ 104, 96, 100, 107, 93 }, { 100, 100, 100, 100, 100 });
    r = evaluateClaim(Claim::parse("a > b on eval/success"), none);
    QVERIFY(r.verdict == Verdict::Inconclusive);
    QVERIFY(r.excludable && *r.excludable == r.interval.high && r.interval.high > 0.0);
    r = evaluateClaim(Claim::parse("a < b on eval/success"), none);
    QVERIFY(r.excludable && *r.excludable == r.interval.low && r.interval.low < 0.0);
    // Not worse within 5 points: 1 point lower is supported, 20 lower contradicted, a wide scatter inconclusive.
    const auto claim = Claim::parse("a >= b on eval/success within 0.05");
    QVERIFY(evaluateClaim(claim, countsData({ 98, 100, 96, 99 }, { 100, 101, 99, 100 })).verdict == Verdict::Supported);
    QVERIFY(
        evaluateClaim(claim, countsData({ 60, 63, 58, 60 }, { 100, 101, 99, 100 })).verdict == Verdict::Contradicted);
    QVERIFY(
        evaluateClaim(claim, countsData({ 80, 110, 70, 104 }, { 100, 101, 99, 100 })).verdict == Verdict::Inconclusive);
    // Not better within 5 points: the mirror.
    const auto notBetter = Claim::parse("a <= b on eval/success within 0.05");
    QVERIFY(evaluateClaim(notBetter, countsData({ 102, 101, 103, 102 }, { 100, 101, 99, 100 })).verdict
        == Verdict::Supported);
    QVERIFY(evaluateClaim(notBetter, countsData({ 140, 143, 139, 141 }, { 100, 101, 99, 100 })).verdict
        == Verdict::Contradicted);
    // Pairing is what decides here: a shared seed effect moves both arms (seed 2 is hard for both), and the paired
    // differences are steady while each arm's spread is not. Unpaired, the same values are inconclusive.
    const auto shared = countsData({ 112, 130, 80, 118 }, { 104, 122, 71, 110 });
    QVERIFY(evaluateClaim(Claim::parse("a > b on eval/success"), shared).verdict == Verdict::Supported);
    QVERIFY(evaluateClaim(Claim::parse("a > b on eval/success"), shared.left, shared.right).verdict
        == Verdict::Inconclusive);
    // One seed: inconclusive whatever the effect.
    r = evaluateClaim(Claim::parse("a > b on eval/success"), countsData({ 150 }, { 50 }));
    QVERIFY(r.verdict == Verdict::Inconclusive);
    QVERIFY(QString::fromStdString(r.note).contains("one seed"));
}

void TestLearnStats::tIntervalByHand()
{
    // Paired differences 0.10, 0.12, 0.08: mean 0.1, sd 0.02, se 0.02 / sqrt(3); t(0.975, 2) = 4.302653.
    const auto d = pairBySeed({ "0", "1", "2" }, { 0.6, 0.62, 0.58 }, { "0", "1", "2" }, { 0.5, 0.5, 0.5 });
    const auto i = differenceInterval(d);
    const double half = 4.302652729749464 * 0.02 / std::sqrt(3.0);
    QVERIFY(near(i.difference, 0.1, 1e-12));
    QVERIFY(near(i.low, 0.1 - half, 1e-9));
    QVERIFY(near(i.high, 0.1 + half, 1e-9));
    // Unpaired: Welch's t. Equal variances 0.0004 and n = 3: se = sqrt(2 * 0.0004 / 3), df = 4.
    const auto w = differenceInterval(unpairedData({ 0.6, 0.62, 0.58 }, { 0.5, 0.52, 0.48 }));
    const double welch = 2.7764451051977934 * std::sqrt(2 * 0.0004 / 3);
    QVERIFY(near(w.low, 0.1 - welch, 1e-9));
    QVERIFY(near(w.high, 0.1 + welch, 1e-9));
    // The bootstrap methods are reproducible from their seed, and contain the estimate.
    for (const auto method : { IntervalMethod::Percentile, IntervalMethod::Studentized, IntervalMethod::Bca }) {
        IntervalOptions o;
        o.method = method;
        const auto a = differenceInterval(countsData({ 110, 118, 105, 112 }, { 100, 104, 101, 99 }), o);
        const auto b = differenceInterval(countsData({ 110, 118, 105, 112 }, { 100, 104, 101, 99 }), o);
        QCOMPARE(a.low, b.low);
        QCOMPARE(a.high, b.high);
        QVERIFY2(a.low < a.difference && a.difference < a.high, intervalMethodName(method));
    }
}

void TestLearnStats::rliableOnHandComputedCases()
{
    // IQM = scipy.stats.trim_mean(x, 0.25): floor(n / 4) cut from each end.
    QCOMPARE(interquartileMean({ 8, 1, 7, 2, 6, 3, 5, 4 }), 4.5); // mean of 3, 4, 5, 6
    QCOMPARE(interquartileMean({ 1, 2, 3, 4, 100 }), 3.0); // 1 and 100 cut
    QVERIFY(near(interquartileMean({ 0.5, 0.1, 0.9 }), 0.5, 1e-15)); // 3 runs: nothing cut, the mean
    QVERIFY(near(optimalityGap({ 0.2, 0.9, 1.2 }), (0.8 + 0.1 + 0.0) / 3, 1e-15));
    QVERIFY(near(optimalityGap({ 0.2, 0.9, 1.2 }, 0.5), 0.3 / 3, 1e-15));
    // P(A > B) on one task: A {0.5, 0.7} against B {0.5, 0.6, 0.8}: 0.5 ties one (1/2) and loses two; 0.7 beats two
    // and loses one: (0.5 + 2) / 6.
    const ScoreMatrix a { { 0.5, 1.0 }, { 0.7, 0.0 } }, b { { 0.5, 0.0 }, { 0.6, 0.0 }, { 0.8, 0.0 } };
    QVERIFY(near(probabilityOfImprovement({ { 0.5 }, { 0.7 } }, { { 0.5 }, { 0.6 }, { 0.8 } }), 2.5 / 6, 1e-15));
    // Two tasks: the second, 1.0 and 0.0 against three 0.0: (3 + 3 * 0.5) / 6 = 0.75; averaged with 2.5 / 6.
    QVERIFY(near(probabilityOfImprovement(a, b), (2.5 / 6 + 0.75) / 2, 1e-15));
    const auto p = probabilityOfImprovementEstimate(a, b);
    QVERIFY(p.low <= p.value && p.value <= p.high);
    QVERIFY(p.low >= 0.0 && p.high <= 1.0);
    // A dominating arm: P = 1 in every resample.
    const auto dominant = probabilityOfImprovementEstimate({ { 0.9 }, { 0.8 } }, { { 0.1 }, { 0.2 }, { 0.3 } });
    QCOMPARE(dominant.value, 1.0);
    QCOMPARE(dominant.low, 1.0);
    const auto iqm = interquartileMeanEstimate({ { 0.3 }, { 0.5 }, { 0.4 }, { 0.45 } });
    QVERIFY(near(iqm.value, (0.4 + 0.45) / 2, 1e-15));
    QVERIFY(iqm.low >= 0.3 && iqm.high <= 0.5 && iqm.low < iqm.high);
    // Profiles: the fraction strictly above tau.
    const auto runs = runScoreProfile({ { 0.2 }, { 0.4 }, { 0.6 }, { 0.8 } }, { 0.0, 0.5, 0.8 });
    QCOMPARE(runs.fraction, (std::vector<double> { 1.0, 0.5, 0.0 }));
    QVERIFY(runs.low[1] <= 0.5 && runs.high[1] >= 0.5);
    // Over tasks: two runs of three tasks; task means 1, 0, 0.5.
    const auto tasks = taskMeanProfile({ { 1, 0, 1 }, { 1, 0, 0 } }, { 0.25, 0.75 });
    QVERIFY(near(tasks.fraction[0], 2.0 / 3, 1e-15));
    QVERIFY(near(tasks.fraction[1], 1.0 / 3, 1e-15));
    QCOMPARE(tauGrid(0.0, 1.0, 5), (std::vector<double> { 0.0, 0.25, 0.5, 0.75, 1.0 }));
}

void TestLearnStats::plannerRecoversTheSeedCount()
{
    // A design with known components: the difference 0.03, seed sd 0.03, task sd 0.5 within a seed (binary-like),
    // a task effect of sd 0.1 (the same in every seed, not in the interval), 200 tasks. One seed's difference then
    // has variance 0.03^2 + 0.5^2 / 200.
    constexpr double effect = 0.03, sdU = 0.03, sdV = 0.1, sdW = 0.5;
    constexpr int tasks = 200;
    const double variance = sdU * sdU + sdW * sdW / tasks;
    const int needed = seedsNeeded(effect, variance);
    qInfo("the design needs %d seeds (power %.3f; %.3f with one fewer)", needed, powerAt(needed, effect, variance),
        powerAt(needed - 1, effect, variance));
    QVERIFY(needed > 5 && needed < 40);
    QVERIFY(powerAt(needed, effect, variance) >= 0.8);
    QVERIFY(powerAt(needed - 1, effect, variance) < 0.8);

    // At that many seeds the claim's interval (t) detects the effect about 80% of the time (2000 simulated
    // experiments: +-0.018), at half as many far less often. The task effect is left out here: it moves the truth of
    // each experiment (its tasks' mean effect), and this checks the power at the design's effect.
    std::mt19937_64 gen(11);
    const auto detected = [&](int seeds) {
        int hits = 0;
        constexpr int experiments = 2000;
        for (int k = 0; k < experiments; ++k)
            hits += differenceInterval(gaussianDesign(gen, seeds, tasks, effect, sdU, 0.0, sdW)).low > 0.0;
        return static_cast<double>(hits) / experiments;
    };
    const double atNeeded = detected(needed), below = detected(needed / 2);
    qInfo("simulated power: %.3f at %d seeds, %.3f at %d", atNeeded, needed, below, needed / 2);
    QVERIFY2(atNeeded >= 0.77 && atNeeded <= 0.88, qPrintable(QString::number(atNeeded)));
    QVERIFY(below < 0.65);

    // From a pilot the planner recovers the components and the seed count. 400 seeds, so that the seed part is
    // measurable beside the task noise (one seed's variance is 0.0009 + 0.00125; its estimate from n seeds has a
    // relative sd of sqrt(2 / (n - 1)), 7% here): with 3 to 10 seeds it is as noisy as any variance on so few.
    const auto pilot = gaussianDesign(gen, 400, tasks, effect, sdU, sdV, sdW);
    const auto c = estimateVariance(pilot);
    qInfo("pilot: seed sd %.4f (true %.4f), task sd %.4f (true %.4f)", std::sqrt(c.seedVariance), sdU,
        std::sqrt(c.taskVariance), sdW);
    QCOMPARE(c.seeds, 400);
    QCOMPARE(c.tasks, tasks);
    QVERIFY(near(std::sqrt(c.taskVariance), sdW, 0.01)); // 400 x 200 cells: tight
    QVERIFY(near(std::sqrt(c.seedVariance), sdU, 0.3 * sdU));
    const int planned = seedsNeeded(effect, c.seedDifferenceVariance());
    qInfo("planned from the pilot: %d seeds (the design: %d)", planned, needed);
    QVERIFY(planned >= needed * 0.75 && planned <= needed * 1.33);
    // More eval tasks remove the task noise, not the seed noise: at 1000 tasks fewer seeds, never below the floor.
    const int withMoreTasks = seedsNeeded(effect, c.seedDifferenceVariance(1000));
    const int floor = seedsNeeded(effect, c.seedVariance);
    QVERIFY(withMoreTasks < planned);
    QVERIFY(floor <= withMoreTasks);
    // Without per-task data the same variance of the seed differences gives the same count.
    PairedData perSeed = pilot;
    perSeed.design = PairingDesign::PerSeed;
    perSeed.leftTasks.clear();
    perSeed.rightTasks.clear();
    QCOMPARE(seedsNeeded(effect, estimateVariance(perSeed).seedDifferenceVariance()), planned);
    // No effect is never detected; no variance needs the minimum.
    QCOMPARE(seedsNeeded(0.0, variance), PowerOptions {}.maxSeeds + 1);
    QCOMPARE(seedsNeeded(effect, 0.0), 2);
}

QTEST_GUILESS_MAIN(TestLearnStats)
#include "tst_learn_stats.moc"
