// Experiments (claims alone: tst_learn_claims): experiment files (arms x seeds, the shared SFT, per_seed starts, added
// seeds, smoke scale, errors before anything runs), the report computed from a store (claims paired over seeds and eval
// tasks, rliable's aggregates) and judged again.
#include "core/learn/api/claims.h"
#include "core/learn/api/experiment.h"
#include "core/learn/api/experimentplan.h"
#include "core/learn/api/sweep.h"
#include "core/storage/store.h"

#include <QTemporaryDir>
#include <QtTest/QTest>

#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>
#include <string>

using namespace creditlab;
using namespace creditlab::learn;

namespace {

const char* const kBase = R"(base:
  seed: 0
  threads: 1
  env: {name: household, max_steps: 6}
  policy: {width: 32, layers: 1, heads: 2, context: 160, max_action_tokens: 8}
  sft: {expert_episodes: 12, noisy_episodes: 4, epochs: 1}
  rl: {iterations: 3, tasks: 2, group_size: 2}
  eval: {episodes: 3, every: 1}
)";

std::string experiment(const std::string& rest) { return std::string("name: exp\n") + kBase + rest; }

/// The ConfigError message of parsing `text`, or "" when it parses.
std::string parseError(const std::string& text, const std::optional<std::string>& scale = std::nullopt)
{
    try {
        (void)SweepSpec::parse(text, "exp.yaml", {}, scale);
    } catch (const ConfigError& e) {
        return e.what();
    }
    return {};
}

/// Arm a or b, seed s, iteration `it`, eval task k: solved? Arm a is about 10 points above b; seed 2 is 20 points
/// harder for both arms (a shared seed effect, which pairing removes); later iterations solve more.
bool solved(bool a, int seed, int it, int k)
{
    const int threshold = (a ? 6 : 5) + (seed == 2 ? -2 : 0) + it / 2;
    const bool flip = (k * 13 + seed + (a ? 5 : 0)) % 17 == 0; // each arm and seed its own few exceptions
    return (((k * 7 + seed * 3) % 10) < threshold) != flip;
}

constexpr int kEvalTasks = 40;

/// An experiment like the trainer stores one, without training: arms a and b, seeds 0-2, eval/success and
/// eval/invalid_rate at iterations 0-2, and (with `episodes`) each evaluation's episodes as evaluation.cpp stores them:
/// ids eval-it<N>-<k>, group eval-it<N>, evaluation rows whose mean success is the metric. Returns the experiment.
std::int64_t storeExperiment(const std::string& db, bool episodes)
{
    const auto spec = SweepSpec::parse(experiment(R"(arms:
  a: {credit.method: triage}
  b: {credit.method: grpo}
seeds: [0, 1, 2]
metrics: [eval/success, eval/invalid_rate]
claims:
  - a > b on eval/success
  - a > b on eval/success at 1
  - a < b on eval/invalid_rate auc
)"),
        "exp.yaml", {});
    Store store(db);
    auto withRun = spec;
    withRun.sft = "1";
    const auto sweepId = store.createSweep(spec.name, withRun.storedText());
    for (const auto& trial : spec.trials) {
        const auto trialId = store.addTrial(sweepId, trial.paramsText());
        const bool a = trial.value("arm") == "a";
        const int seed = std::stoi(trial.value("seed"));
        const auto runId
            = store.createRun({ spec.trialRunName(trial), RunKind::Trial, RunStatus::Running, std::nullopt });
        store.startTrial(trialId, runId);
        for (int it = 0; it <= 2; ++it) {
            double success = 0.0;
            for (int k = 0; k < kEvalTasks; ++k) {
                success += solved(a, seed, it, k) ? 1.0 : 0.0;
                if (!episodes)
                    continue;
                Trajectory t;
                t.id = "eval-it" + std::to_string(it) + "-" + std::to_string(k);
                t.group = "eval-it" + std::to_string(it);
                t.iteration = it;
                t.success = solved(a, seed, it, k);
                t.reward = *t.success ? 1.0 : 0.0;
                t.extra = R"("eval": true, "split": "eval")";
                store.insertTrajectory(runId, it * 100 + k, t, true);
            }
            const std::vector<std::pair<std::string, double>> values { { "eval/success", success / kEvalTasks },
                { "eval/invalid_rate", (a ? 0.6 : 0.65) - 0.02 * it * (a ? 2 : 1) + 0.01 * seed },
                { "time/total_s", 100.0 + 10 * seed }, { "time/eval_s", 20.0 } };
            store.writeMetrics(runId, it, values);
        }
        store.setRunStatus(runId, RunStatus::Finished);
        store.finishTrial(trialId, runId, TrialStatus::Finished, std::nullopt);
    }
    return sweepId;
}

/// The data of "a > b on eval/success at <it>" straight from solved(): what the store should give back.
PairedData expectedData(int it)
{
    std::vector<std::vector<double>> ta, tb;
    std::vector<double> ma, mb;
    for (int seed = 0; seed < 3; ++seed) {
        std::vector<double> x, y;
        for (int k = 0; k < kEvalTasks; ++k) {
            x.push_back(solved(true, seed, it, k) ? 1.0 : 0.0);
            y.push_back(solved(false, seed, it, k) ? 1.0 : 0.0);
        }
        ma.push_back(std::accumulate(x.begin(), x.end(), 0.0) / kEvalTasks);
        mb.push_back(std::accumulate(y.begin(), y.end(), 0.0) / kEvalTasks);
        ta.push_back(std::move(x));
        tb.push_back(std::move(y));
    }
    return pairBySeed({ "0", "1", "2" }, ma, { "0", "1", "2" }, mb, ta, tb);
}

bool sameInterval(const Interval& x, const Interval& y)
{
    return x.difference == y.difference && x.low == y.low && x.high == y.high;
}

} // namespace

class TestLearnExperiment : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void experimentTrialsAreArmsBySeeds();
    void smokeScaleAppliesItsSection();
    void badExperimentFilesAreRefused_data();
    void badExperimentFilesAreRefused();
    void storedTextKeepsTheSftStartAndScale();
    void perSeedStartsAndAddedSeeds();
    void reportFromAStore();
    void probeClaimsReadTheProbeTables();
    void claimsPairOverSeedsAndEvalTasks();
    void rejudgingAStoredExperimentGivesTheSameNumbers();
    void planFromAStoredPilot();
};

void TestLearnExperiment::experimentTrialsAreArmsBySeeds()
{
    const auto spec = SweepSpec::parse(experiment(R"(arms:
  triage: {credit.method: triage}
  grpo:
    credit.method: grpo
    rl.lr: 0.0002
seeds: [0, 1, 2]
claims:
  - triage > grpo on eval/success
)"),
        "exp.yaml", {});
    QVERIFY(spec.isExperiment());
    QCOMPARE(spec.trials.size(), std::size_t(6));
    QCOMPARE(QString::fromStdString(spec.trials[4].paramsText()), QString("arm=grpo,seed=1"));
    const auto config = spec.trialConfig(spec.trials[4]);
    QCOMPARE(QString::fromStdString(config.method()), QString("grpo"));
    QCOMPARE(config.getDouble("rl.lr"), 0.0002);
    QCOMPARE(config.getInt("seed"), 1);
    QCOMPARE(QString::fromStdString(spec.trialRunName(spec.trials[4])), QString("exp-arm=grpo-seed=1"));
    QCOMPARE(spec.sft, std::string("shared"));
    // The shared SFT: the base with set, no RL.
    QCOMPARE(spec.sftConfig().getInt("rl.iterations"), 0);
    // The metrics: the objective, then each claim's metric once.
    QCOMPARE(spec.metrics, (std::vector<std::string> { "eval/success" }));
    // A stored SFT run: every trial warm-starts from it.
    auto withRun = spec;
    withRun.sft = "17";
    QCOMPARE(withRun.trialConfig(withRun.trials[0]).getInt("sft.from_run"), 17);
}

void TestLearnExperiment::smokeScaleAppliesItsSection()
{
    const auto text = experiment(R"(set:
  rl.iterations: 30
arms:
  a: {credit.method: triage}
  b: {credit.method: grpo}
seeds: [0, 1, 2, 3, 4]
smoke:
  set: {rl.iterations: 1, eval.episodes: 2}
  seeds: [0, 1]
)");
    const auto full = SweepSpec::parse(text, "exp.yaml", {});
    QCOMPARE(full.trials.size(), std::size_t(10));
    QCOMPARE(full.trialConfig(full.trials[0]).getInt("rl.iterations"), 30);
    const auto smoke = SweepSpec::parse(text, "exp.yaml", {}, std::string("smoke"));
    QCOMPARE(smoke.scale, std::string("smoke"));
    QCOMPARE(smoke.trials.size(), std::size_t(4));
    QCOMPARE(smoke.trialConfig(smoke.trials[0]).getInt("rl.iterations"), 1);
    QCOMPARE(smoke.trialConfig(smoke.trials[0]).getInt("eval.episodes"), 2);
}

void TestLearnExperiment::badExperimentFilesAreRefused_data()
{
    QTest::addColumn<QString>("rest");
    QTest::addColumn<QString>("scale");
    QTest::addColumn<QString>("says");
    QTest::newRow("unknown arm in a claim") << "arms:\n  a: {}\n  b: {credit.method: grpo}\nclaims:\n  - a > c on eval/success\n"
                                           << "" << "exp.yaml:14: claims: 'a > c on eval/success': no arm named 'c'";
    QTest::newRow("bad claim") << "arms:\n  a: {}\n  b: {}\nclaims:\n  - a beats b\n"
                               << "" << "exp.yaml:14: claims: 'a beats b': expected";
    QTest::newRow("arm changes the SFT's policy") << "arms:\n  a: {}\n  b: {policy.width: 64}\n"
                                                  << "" << "exp.yaml:12: arms.b.policy.width: the shared SFT start fixes it";
    QTest::newRow("arm with a bad key") << "arms:\n  a: {}\n  b: {credit.nonsense: 1}\n"
                                        << "" << "exp.yaml:12: ";
    QTest::newRow("arm sets the seed") << "arms:\n  a: {seed: 3}\n" << "" << "exp.yaml:11: arms.a.seed: set by the experiment";
    QTest::newRow("duplicate arm") << "arms:\n  a: {}\n  a: {}\n" << "" << "given twice";
    QTest::newRow("grid with arms") << "arms:\n  a: {}\ngrid:\n  rl.lr: [0.1]\n" << "" << "exp.yaml:12: an experiment's trials are its arms x seeds";
    QTest::newRow("claims without arms") << "claims:\n  - a > b on m\n" << "" << "claims: only an experiment has it";
    QTest::newRow("smoke without a section") << "arms:\n  a: {}\n" << "smoke" << "no smoke: section";
    QTest::newRow("bad scale") << "arms:\n  a: {}\nscale: huge\n" << "" << "exp.yaml:12: scale: expected full or smoke";
    QTest::newRow("bad sft")
        << "arms:\n  a: {}\nsft: maybe\n"
        << ""
        << "exp.yaml:12: sft: expected shared, per_seed, none, a run id or a map of seeds to run ids, got 'maybe'";
    QTest::newRow("bad sft map") << "arms:\n  a: {}\nseeds: [0]\nsft: {0: latest}\n"
                                 << ""
                                 << "sft.0: expected an integer, got 'latest'";
    QTest::newRow("per_seed without seeds")
        << "arms:\n  a: {}\nsft: per_seed\n"
        << ""
        << "exp.yaml:12: sft: per_seed trains an SFT start for each seed, and the experiment has no seeds:";
    QTest::newRow("per_seed, arm changes the policy")
        << "arms:\n  a: {}\n  b: {policy.width: 64}\nseeds: [0]\nsft: per_seed\n"
        << ""
        << "exp.yaml:12: arms.b.policy.width: the shared SFT start fixes it";
    QTest::newRow("probes, per_seed")
        << "arms:\n  a: {}\nseeds: [0]\nsft: per_seed\nprobes: {seeds: [1]}\n"
        << ""
        << "exp.yaml:14: probes: the tables read the shared SFT policy, and sft: per_seed has one per seed";
    QTest::newRow("added seed repeated") << "arms:\n  a: {}\nseeds: [0, 1]\nadded_seeds: [2, 1]\n"
                                         << ""
                                         << "exp.yaml:13: added_seeds: seed 1 is in the experiment's seeds already";
    QTest::newRow("added seeds without seeds")
        << "arms:\n  a: {}\nadded_seeds: [2]\n"
        << ""
        << "exp.yaml:12: added_seeds: the experiment has no seeds: to add them to";
    QTest::newRow("added seeds without arms") << "seeds: [0]\nadded_seeds: [2]\n"
                                              << ""
                                              << "added_seeds: only an experiment has it";
    // Found by fuzz_experiment (tests/fuzz/corpus/fuzz_experiment/crash-f25ced88...): yaml-cpp read a last line without
    // ':' as an arm with no overrides, and the stored text (this file with "scale:" and "sft:" lines added after it)
    // was then malformed: the experiment ran, and its report failed with "experiment 1:17: malformed YAML".
    QTest::newRow("last arm without a colon") << "arms:\n  a: {}\n  b\n" << "" << "exp.yaml:12: 'b' has no ':' after it";
    QTest::newRow("smoke key") << "arms:\n  a: {}\nsmoke:\n  seed: [1]\n" << "smoke" << "exp.yaml:13: smoke: unknown key 'seed'";
    const QString probes = "arms:\n  a: {}\nprobes: {seeds: [42, 43], episodes: 50}\n";
    QTest::newRow("probe claim, unknown probe") << probes + "claims:\n  - last_token > nonsense on probe/auroc_drop\n" << ""
                                                << "exp.yaml:14: claims: 'last_token > nonsense on probe/auroc_drop': no probe named 'nonsense' (probes: last_token,";
    QTest::newRow("probe claim, unknown metric") << probes + "claims:\n  - last_token > attention on probe/accuracy\n" << ""
                                                 << "exp.yaml:14: claims: 'last_token > attention on probe/accuracy': unknown probe metric 'probe/accuracy' (known: probe/auroc_clean,";
    QTest::newRow("probe claim at an iteration") << probes + "claims:\n  - last_token > attention on probe/auroc_drop at 3\n" << ""
                                                 << "exp.yaml:14: claims: 'last_token > attention on probe/auroc_drop at 3': a probe table has one value per seed";
    QTest::newRow("probe claim without probes") << "arms:\n  a: {}\nclaims:\n  - last_token > attention on probe/auroc_drop\n" << ""
                                                << "exp.yaml:13: claims: 'last_token > attention on probe/auroc_drop': a probe claim needs probes:";
    QTest::newRow("probes without seeds") << "arms:\n  a: {}\nprobes: {episodes: 50}\n" << "" << "exp.yaml:12: probes.seeds: missing";
    QTest::newRow("probes, few episodes") << "arms:\n  a: {}\nprobes: {seeds: [1], episodes: 3}\n" << "" << "exp.yaml:12: probes.episodes:";
    QTest::newRow("probes, unknown key") << "arms:\n  a: {}\nprobes: {seeds: [1], run: 3}\n" << "" << "exp.yaml:12: probes: unknown key 'run' (known: seeds, episodes)";
    QTest::newRow("probes, no shared SFT") << "arms:\n  a: {}\nsft: none\nprobes: {seeds: [1]}\n" << "" << "exp.yaml:13: probes: the tables read the shared SFT policy, and sft: none has none";
    QTest::newRow("probes without arms") << "probes: {seeds: [1]}\n" << "" << "probes: only an experiment has it";
    QTest::newRow("smoke probes without probes") << "arms:\n  a: {}\nsmoke:\n  seeds: [1]\n  probes: {seeds: [1]}\n" << "smoke" << "exp.yaml:14: smoke.probes: the experiment has no probes:";
}

void TestLearnExperiment::badExperimentFilesAreRefused()
{
    QFETCH(QString, rest);
    QFETCH(QString, scale);
    QFETCH(QString, says);
    const auto error = parseError(experiment(rest.toStdString()),
        scale.isEmpty() ? std::nullopt : std::optional<std::string>(scale.toStdString()));
    QVERIFY2(!error.empty(), "parsed");
    QVERIFY2(QString::fromStdString(error).contains(says), error.c_str());
}

void TestLearnExperiment::storedTextKeepsTheSftStartAndScale()
{
    auto spec = SweepSpec::parse(experiment("arms:\n  a: {}\n  b: {credit.method: grpo}\nseeds: [0, 1]\nsmoke:\n  seeds: [5]\n"),
        "exp.yaml", {}, std::string("smoke"));
    spec.sft = "42";
    const auto back = SweepSpec::parse(spec.storedText(), "stored", {});
    QCOMPARE(back.sft, std::string("42"));
    QCOMPARE(back.scale, std::string("smoke"));
    QCOMPARE(back.trials.size(), std::size_t(2)); // smoke seeds: [5]
    QCOMPARE(back.trialConfig(back.trials[1]).getInt("sft.from_run"), 42);
}

void TestLearnExperiment::perSeedStartsAndAddedSeeds()
{
    // per_seed: no start before it is trained; a seed's start is the base with set and that seed, no RL.
    const std::string arms = "arms:\n  a: {}\n  b: {credit.method: grpo}\nsmoke:\n  seeds: [5, 6]\n";
    auto spec = SweepSpec::parse(experiment(arms + "seeds: [0, 1]\nsft: per_seed\n"), "exp.yaml", {});
    QCOMPARE(spec.sft, std::string("per_seed"));
    QVERIFY(spec.sftRuns.empty());
    QCOMPARE(spec.trialConfig(spec.trials[0]).getInt("sft.from_run"), 0);
    QCOMPARE(spec.sftConfig("1").getInt("seed"), 1);
    QCOMPARE(spec.sftConfig("1").getInt("rl.iterations"), 0);
    QCOMPARE(spec.sftConfig("1").runName(), std::string("exp-sft-seed=1"));
    QCOMPARE(spec.sftConfig().runName(), std::string("exp-sft"));
    QCOMPARE(spec.sftText(), std::string("one per seed (seed 0: not trained yet, seed 1: not trained yet)"));

    // The starts trained so far, stored as a map: each trial warm-starts from its seed's.
    spec.sftRuns = { { 0, 12 } };
    auto back = SweepSpec::parse(spec.storedText(), "stored", {});
    QCOMPARE(back.sft, std::string("per_seed"));
    QCOMPARE(back.sftRuns, (std::map<std::int64_t, std::int64_t> { { 0, 12 } }));
    QVERIFY2(spec.storedText().find("\nsft: {0: 12}\n") != std::string::npos, spec.storedText().c_str());
    spec.sftRuns[1] = 15;
    back = SweepSpec::parse(spec.storedText(), "stored", {});
    for (const auto& trial : back.trials) // arm=a,seed=0; arm=a,seed=1; arm=b,seed=0; arm=b,seed=1
        QCOMPARE(back.trialConfig(trial).getInt("sft.from_run"), trial.value("seed") == "0" ? 12 : 15);
    QCOMPARE(back.sftText(), std::string("one per seed (seed 0: run 12, seed 1: run 15)"));

    // A file may write the map as a block: its lines go from the stored text with the key's.
    const auto block
        = SweepSpec::parse(experiment(arms + "seeds: [0, 1]\nsft:\n  0: 4\n  1: 5\nworkers: 1\n"), "exp.yaml", {});
    QCOMPARE(block.sftRuns, (std::map<std::int64_t, std::int64_t> { { 0, 4 }, { 1, 5 } }));
    const auto blockBack = SweepSpec::parse(block.storedText(), "stored", {});
    QCOMPARE(blockBack.sftRuns, block.sftRuns);
    QCOMPARE(blockBack.workers, 1);

    // Added seeds come after the scale's seeds, in trial order after them, and are stored on a line of their own.
    auto smoke = SweepSpec::parse(
        experiment(arms + "seeds: [0, 1]\nadded_seeds: [7]\n"), "exp.yaml", {}, std::string("smoke"));
    QCOMPARE(smoke.seeds(), (std::vector<std::string> { "5", "6", "7" }));
    QCOMPARE(smoke.trials.size(), std::size_t(6));
    QCOMPARE(smoke.trials[2].paramsText(), std::string("arm=a,seed=7"));
    smoke.addedSeeds.push_back(8);
    const auto smokeBack = SweepSpec::parse(smoke.storedText(), "stored", {});
    QCOMPARE(smokeBack.scale, std::string("smoke"));
    QCOMPARE(smokeBack.seeds(), (std::vector<std::string> { "5", "6", "7", "8" }));
    QCOMPARE(smokeBack.addedSeeds, (std::vector<std::int64_t> { 7, 8 }));
}

void TestLearnExperiment::reportFromAStore()
{
    // Two arms, three seeds each, with known curves: a ends higher on every seed, b's invalid rate rises faster.
    QTemporaryDir dir;
    const std::string db = dir.filePath("runs.db").toStdString();
    const auto spec = SweepSpec::parse(experiment(R"(arms:
  a: {credit.method: triage}
  b: {credit.method: grpo}
seeds: [0, 1, 2]
metrics: [eval/success]
claims:
  - a > b on eval/success
  - a < b on eval/success at 1
  - eval/invalid_rate(b) rises faster than eval/invalid_rate(a)
)"),
        "exp.yaml", {});
    std::int64_t sweepId = 0;
    {
        Store store(db);
        auto withRun = spec;
        withRun.sft = "1";
        sweepId = store.createSweep(spec.name, withRun.storedText());
        for (const auto& trial : spec.trials) {
            const auto trialId = store.addTrial(sweepId, trial.paramsText());
            const bool a = trial.value("arm") == "a";
            const int seed = std::stoi(trial.value("seed"));
            const auto runId = store.createRun({ spec.trialRunName(trial), RunKind::Trial, RunStatus::Running, std::nullopt });
            store.startTrial(trialId, runId);
            const int last = trial.index == 5 ? 1 : 2; // b's seed 2 stopped after iteration 1: a partial report
            for (int it = 0; it <= last; ++it) {
                const double success = a ? 0.3 + 0.1 * it + 0.01 * seed : 0.3 + 0.02 * it - 0.01 * seed;
                const double invalid = a ? 0.8 - 0.01 * it : 0.8 + 0.1 * it + 0.01 * seed;
                const std::vector<std::pair<std::string, double>> values { { "eval/success", success },
                    { "eval/invalid_rate", invalid } };
                store.writeMetrics(runId, it, values);
            }
            if (trial.index != 5) {
                store.setRunStatus(runId, RunStatus::Finished);
                store.finishTrial(trialId, runId, TrialStatus::Finished, std::nullopt);
            }
        }
    }
    Store store(db, Store::Access::ReadOnly);
    const auto report = buildReport(store, sweepId);
    QVERIFY(report.partial);
    QCOMPARE(report.spec.metrics, (std::vector<std::string> { "eval/success", "eval/invalid_rate" }));
    QCOMPARE(report.claims.size(), std::size_t(3));
    QVERIFY(report.claims[0].verdict == Verdict::Supported); // a: 0.50-0.52 against b: 0.31-0.34 (seed 2 at 1)
    QCOMPARE(report.claims[0].left.size(), std::size_t(3));
    QCOMPARE(report.claims[0].right.size(), std::size_t(3));
    QVERIFY(report.claims[1].verdict == Verdict::Contradicted); // at 1: a 0.40-0.42 is above b 0.30-0.32
    QVERIFY(report.claims[2].verdict == Verdict::Supported);
    // b's curve only has the iterations every seed reached.
    const auto curve = std::find_if(report.curves.begin(), report.curves.end(),
        [](const ArmCurve& c) { return c.arm == "b" && c.metric == "eval/success"; });
    QCOMPARE(curve->iterations, (std::vector<std::int64_t> { 0, 1 }));
    QCOMPARE(curve->seeds, 3);
    QVERIFY(std::abs(curve->mean[1] - 0.31) < 1e-12);

    const auto files = writeReport(report, dir.filePath("report").toStdString(), db);
    // Two curve figures, one performance profile per claim measure and report.md.
    QCOMPARE(report.measures,
        (std::vector<std::string> { "eval/success at end", "eval/success at 1", "eval/invalid_rate auc" }));
    QCOMPARE(files.size(), std::size_t(6));
    QVERIFY(std::filesystem::exists(dir.filePath("report/profile_eval_success_at_end.svg").toStdString()));
    std::ifstream in(dir.filePath("report/report.md").toStdString());
    const std::string md((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    QVERIFY(md.find("**Partial report**") != std::string::npos);
    QVERIFY(md.find("| `a > b on eval/success at end` |") != std::string::npos);
    QVERIFY(md.find("**supported**") != std::string::npos);
    QVERIFY(md.find("**contradicted**") != std::string::npos);
    QVERIFY(md.find("![eval/success](eval_success.svg)") != std::string::npos);
    QVERIFY(md.find("sft: 1") != std::string::npos);
    std::ifstream svgIn(dir.filePath("report/eval_success.svg").toStdString());
    const std::string svg((std::istreambuf_iterator<char>(svgIn)), std::istreambuf_iterator<char>());
    QVERIFY(svg.rfind("<svg", 0) == 0);
    QCOMPARE(std::count(svg.begin(), svg.end(), '\n') > 10, true);
    QVERIFY(svg.find("<polygon") != std::string::npos); // the seed bands
    QVERIFY(svg.find(">a (3 seeds)<") != std::string::npos);

    // A sweep without arms is not an experiment.
    {
        Store rw(db);
        const auto plain = rw.createSweep("plain", "base: {seed: 0}\n");
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, buildReport(rw, plain));
    }
}

void TestLearnExperiment::probeClaimsReadTheProbeTables()
{
    // An experiment with probes: two tables stored (seeds 42 and 43) of the three planned; the last-token probe loses
    // 0.04 AUROC to contamination, attention 0.00 +- 0.002: a partial report whose probe claims read one value per
    // stored seed, paired by seed (both probes are scored on the same contaminated records), and whose smoke section
    // swaps the plan. Each seed moves both probes' contaminated AUROC the same way, so that two paired seeds (t with
    // one degree of freedom, 12.7 standard errors) still decide.
    const std::string text = experiment(R"(arms:
  a: {}
  b: {credit.method: grpo}
seeds: [0, 1]
probes: {seeds: [42, 43, 44], episodes: 50}
claims:
  - last_token > attention on probe/auroc_drop
  - attention > last_token on probe/auroc_contaminated
  - pair > last_token on probe/ece
smoke:
  seeds: [0]
  probes: {seeds: [7], episodes: 10}
)");
    const auto spec = SweepSpec::parse(text, "exp.yaml", {});
    QVERIFY(spec.probes.has_value());
    QCOMPARE(spec.probes->seeds, (std::vector<std::int64_t> { 42, 43, 44 }));
    QCOMPARE(spec.probes->episodes, std::int64_t(50));
    QCOMPARE(spec.metrics, (std::vector<std::string> { "eval/success" })); // probe metrics are not curves
    const auto smoke = SweepSpec::parse(text, "exp.yaml", {}, std::string("smoke"));
    QCOMPARE(smoke.probes->seeds, (std::vector<std::int64_t> { 7 }));
    QCOMPARE(smoke.probes->episodes, std::int64_t(10));

    QTemporaryDir dir;
    const std::string db = dir.filePath("runs.db").toStdString();
    std::int64_t sweepId = 0;
    {
        Store store(db);
        const auto sft = store.createRun({ "exp-sft", RunKind::Train, RunStatus::Finished, std::nullopt });
        auto withRun = spec;
        withRun.sft = std::to_string(sft);
        sweepId = store.createSweep(spec.name, withRun.storedText());
        for (const auto& trial : spec.trials) {
            const auto trialId = store.addTrial(sweepId, trial.paramsText());
            const auto runId = store.createRun({ spec.trialRunName(trial), RunKind::Trial, RunStatus::Finished, std::nullopt });
            const std::vector<std::pair<std::string, double>> values { { "eval/success", 0.5 } };
            store.writeMetrics(runId, 0, values);
            store.finishTrial(trialId, runId, TrialStatus::Finished, std::nullopt);
        }
        for (const std::int64_t seed : { 42, 43 }) {
            const double jitter = seed == 42 ? 0.002 : -0.002;
            const auto row = [&](const char* probe, double clean, double contaminated, double ece) {
                return ProbeResult { sweepId, sft, "run 1 SFT policy", 50, seed, probe, 8, clean, contaminated,
                    (clean + contaminated) / 2, ece, 0.12 };
            };
            store.addProbeTable({ row("last_token", 0.66 + jitter, 0.62 - jitter, 0.02),
                row("attention", 0.61, 0.61 - jitter, 0.03), row("pair", 0.67, 0.64, 0.02 + jitter) });
        }
        // A table of another episode count (another experiment's plan) is not this experiment's.
        store.addProbeTable({ ProbeResult { sweepId, sft, "run 1 SFT policy", 999, 44, "last_token", 8, 0.9, 0.1, 0.5, 0.0, 0.0 } });
    }
    Store store(db, Store::Access::ReadOnly);
    const auto report = buildReport(store, sweepId);
    QVERIFY(report.partial); // seed 44's table is missing
    QCOMPARE(report.probeSeedsMissing, (std::vector<std::int64_t> { 44 }));
    QCOMPARE(report.probeRows.size(), std::size_t(6));
    QCOMPARE(report.claims.size(), std::size_t(3));
    QCOMPARE(report.claims[0].left.size(), std::size_t(2));
    QVERIFY(std::abs(report.claims[0].leftMean - 0.04) < 1e-9);
    QVERIFY(report.claims[0].verdict == Verdict::Supported); // drops 0.044, 0.036 against 0.002, -0.002
    QVERIFY(report.claims[0].data.design == PairingDesign::PerSeed);
    QCOMPARE(report.claims[0].data.seeds, (std::vector<std::string> { "42", "43" }));
    QVERIFY(report.claims[1].verdict == Verdict::Contradicted); // contaminated 0.608, 0.612 against 0.618, 0.622
    QVERIFY(std::abs(report.claims[1].leftMean - 0.61) < 1e-9);
    QVERIFY(report.claims[2].verdict == Verdict::Inconclusive); // pair's ECE 0.022, 0.018 straddles last_token's 0.02
    const auto summary = std::find_if(report.probes.begin(), report.probes.end(),
        [](const ProbeSummary& p) { return p.probe == "last_token"; });
    QVERIFY(summary != report.probes.end());
    QCOMPARE(summary->seeds, 2);
    QVERIFY(std::abs(summary->drop - 0.04) < 1e-9);
    QCOMPARE(report.probes.size(), std::size_t(3)); // only the probes that have rows, in probeNames() order
    QCOMPARE(report.probes[0].probe, std::string("last_token"));
    QCOMPARE(report.probes[1].probe, std::string("attention"));
    QCOMPARE(report.probes[2].probe, std::string("pair"));

    const std::string md = reportMarkdown(report, db);
    QVERIFY(md.find("## Probe tables") != std::string::npos);
    QVERIFY(md.find("| last_token | 8 | 0.660 ± 0.003 (2) | 0.620 ± 0.003 | 0.640 ± 0.000 | +0.040 ± 0.006 |") != std::string::npos);
    QVERIFY(md.find("*Probe tables not computed yet for seed 44.*") != std::string::npos);
    QVERIFY(md.find("| `last_token > attention on probe/auroc_drop at end` |") != std::string::npos);
    QVERIFY(md.find("(one probe table per contamination seed)") != std::string::npos);
}

void TestLearnExperiment::claimsPairOverSeedsAndEvalTasks()
{
    // With the eval episodes stored, a claim on eval/success pairs the arms per seed and per task: its data are the
    // outcomes solved() gave, task by task, and its interval is the one computed from them directly. An auc claim has
    // one value per seed. Without the episodes (eval.store: false, or an older run) the same claim is paired per seed
    // only, and its t interval is the same: each seed's difference is the mean of its per-task differences.
    QTemporaryDir dir;
    const std::string db = dir.filePath("runs.db").toStdString();
    const auto sweepId = storeExperiment(db, true);
    Store store(db, Store::Access::ReadOnly);
    const auto report = buildReport(store, sweepId);
    QVERIFY(!report.partial);
    QCOMPARE(report.claims.size(), std::size_t(3));
    const auto& end = report.claims[0];
    QVERIFY(end.data.design == PairingDesign::PerTask);
    QCOMPARE(end.seeds, 3);
    QCOMPARE(end.tasks, kEvalTasks);
    const auto expected = expectedData(2);
    QCOMPARE(end.data.leftTasks, expected.leftTasks);
    QCOMPARE(end.data.rightTasks, expected.rightTasks);
    QVERIFY(sameInterval(end.interval, differenceInterval(expected)));
    QVERIFY(end.method == kClaimIntervalMethod);
    const auto at1 = report.claims[1];
    QVERIFY(at1.data.design == PairingDesign::PerTask);
    QCOMPARE(at1.data.leftTasks, expectedData(1).leftTasks);
    QVERIFY(report.claims[2].data.design == PairingDesign::PerSeed);
    QCOMPARE(report.claims[2].tasks, 0);
    // Pairing removes seed 2's shared difficulty: a ends above b on every seed.
    for (const double d : end.data.differences())
        QVERIFY(d > 0.0);
    QVERIFY(end.verdict == Verdict::Supported);
    QVERIFY(end.improvement.has_value());

    // rliable's aggregates per measure and arm; the profile over eval tasks where the episodes are there.
    QCOMPARE(report.aggregates.size(), std::size_t(6)); // 3 measures x 2 arms
    const auto& agg = report.aggregates.front();
    QCOMPARE(agg.measure, std::string("eval/success at end"));
    QCOMPARE(agg.runs, 3);
    QVERIFY(std::abs(agg.iqm.value - agg.mean) < 1e-12); // 3 runs: nothing trimmed
    QVERIFY(agg.optimalityGap && std::abs(agg.optimalityGap->value - (1.0 - agg.mean)) < 1e-12);
    QVERIFY(!report.aggregates.back().optimalityGap); // invalid_rate auc is not a success rate
    const auto profile = std::find_if(report.profiles.begin(), report.profiles.end(),
        [](const ArmProfile& p) { return p.measure == "eval/success at end" && p.arm == "a"; });
    QVERIFY(profile != report.profiles.end() && profile->overTasks);
    QCOMPARE(profile->tasks, kEvalTasks);
    QVERIFY(!report.profiles.back().overTasks);
    const std::string md = reportMarkdown(report, db);
    QVERIFY(md.find("3 seeds × 40 tasks (t)") != std::string::npos);
    QVERIFY(md.find("## Aggregates (rliable)") != std::string::npos);
    QVERIFY(
        md.find("![performance profile: eval/success at end](profile_eval_success_at_end.svg)") != std::string::npos);
    const std::string svg = profileSvg(report, "eval/success at end");
    QVERIFY(svg.find(">a (3 runs × 40 tasks)<") != std::string::npos);
    QVERIFY(svg.find("fraction of tasks above τ") != std::string::npos);

    // Without the episodes: per seed, the same interval.
    const std::string oldDb = dir.filePath("old.db").toStdString();
    const auto oldId = storeExperiment(oldDb, false);
    Store oldStore(oldDb, Store::Access::ReadOnly);
    const auto old = buildReport(oldStore, oldId);
    QVERIFY(old.claims[0].data.design == PairingDesign::PerSeed);
    QVERIFY(std::abs(old.claims[0].interval.low - end.interval.low) < 1e-12);
    QVERIFY(std::abs(old.claims[0].interval.high - end.interval.high) < 1e-12);
    QVERIFY(old.claims[0].verdict == end.verdict);

    // Episodes that do not reproduce the stored metric (one missing) are not used: per seed again.
    {
        Store rw(db);
        rw.database().exec("DELETE FROM trajectory WHERE ext_id = 'eval-it2-7' AND run_id = 1");
    }
    Store after(db, Store::Access::ReadOnly);
    QVERIFY(buildReport(after, sweepId).claims[0].data.design == PairingDesign::PerSeed);
}

void TestLearnExperiment::rejudgingAStoredExperimentGivesTheSameNumbers()
{
    // Judged while the database is open for writing, then closed, reopened read-only and judged again: every
    // number of every claim, aggregate and profile, and report.md itself, is the same; and the claims equal a judgment
    // of the same outcomes made from scratch, without the store.
    QTemporaryDir dir;
    const std::string db = dir.filePath("runs.db").toStdString();
    const auto sweepId = storeExperiment(db, true);
    ExperimentReport first;
    {
        Store store(db);
        first = buildReport(store, sweepId);
    }
    Store store(db, Store::Access::ReadOnly);
    const auto again = buildReport(store, sweepId);
    QCOMPARE(again.claims.size(), first.claims.size());
    for (std::size_t k = 0; k < first.claims.size(); ++k) {
        const auto &x = first.claims[k], &y = again.claims[k];
        QVERIFY(sameInterval(x.interval, y.interval));
        QVERIFY(x.verdict == y.verdict);
        QVERIFY(x.excludable == y.excludable);
        QVERIFY(x.improvement.has_value() == y.improvement.has_value());
        if (x.improvement)
            QVERIFY(x.improvement->value == y.improvement->value && x.improvement->low == y.improvement->low
                && x.improvement->high == y.improvement->high);
        QCOMPARE(x.data.leftTasks, y.data.leftTasks);
        QCOMPARE(x.left, y.left);
    }
    QCOMPARE(again.aggregates.size(), first.aggregates.size());
    for (std::size_t k = 0; k < first.aggregates.size(); ++k) {
        QCOMPARE(again.aggregates[k].iqm.low, first.aggregates[k].iqm.low);
        QCOMPARE(again.aggregates[k].iqm.high, first.aggregates[k].iqm.high);
    }
    QCOMPARE(again.profiles.size(), first.profiles.size());
    for (std::size_t k = 0; k < first.profiles.size(); ++k) {
        QCOMPARE(again.profiles[k].profile.low, first.profiles[k].profile.low);
        QCOMPARE(again.profiles[k].profile.fraction, first.profiles[k].profile.fraction);
    }
    QCOMPARE(reportMarkdown(again, db), reportMarkdown(first, db));
    // From scratch: the claims' own data, judged without the store.
    const auto fresh = evaluateClaim(Claim::parse("a > b on eval/success"), expectedData(2));
    QVERIFY(sameInterval(fresh.interval, again.claims[0].interval));
    QVERIFY(fresh.verdict == again.claims[0].verdict);
    QVERIFY(fresh.improvement->low == again.claims[0].improvement->low);
}

void TestLearnExperiment::planFromAStoredPilot()
{
    // The stored experiment as a pilot: per claim its variance components, the seeds needed and their hours from the
    // trials' time/total_s (3 iterations of 100 + 10 x seed s: 330 s a trial on average, 60 s of it evaluating).
    QTemporaryDir dir;
    const std::string db = dir.filePath("runs.db").toStdString();
    const auto sweepId = storeExperiment(db, true);
    Store store(db, Store::Access::ReadOnly);
    QCOMPARE(findPilot(store, "exp"), std::optional<std::int64_t>(sweepId));
    QVERIFY(!findPilot(store, "other"));
    PlanOptions options;
    options.effect = 0.05;
    const auto plan = planExperiment(store, sweepId, options);
    QCOMPARE(plan.claims.size(), std::size_t(3));
    QCOMPARE(plan.armSeconds.front().second.first, 330.0);
    QCOMPARE(plan.armSeconds.front().second.second, 60.0);
    const auto& c = plan.claims[0];
    QCOMPARE(c.variance.tasks, kEvalTasks);
    QVERIFY(
        std::abs(c.variance.differenceVariance - c.variance.seedVariance - c.variance.taskVariance / kEvalTasks) < 1e-12
        || c.variance.seedVariance == 0.0);
    QCOMPARE(c.seedsNeeded, seedsNeeded(0.05, c.variance.seedDifferenceVariance()));
    QCOMPARE(c.options.size(), std::size_t(4)); // 40, 80 and 200 tasks, and unlimited
    QCOMPARE(c.options[1].tasks, 2 * kEvalTasks);
    QVERIFY(c.options[1].seeds <= c.options[0].seeds && c.options[3].seeds <= c.options[2].seeds);
    // The seeds to add, both arms: 330 s a trial each.
    QVERIFY(std::abs(c.options[0].hours - std::max(0, c.seedsNeeded - 3) * 2 * 330.0 / 3600.0) < 1e-9);
    // Twice the tasks: a new run of both arms, with twice the evaluation time (270 + 120 s a trial).
    QVERIFY(std::abs(c.options[1].hours - c.options[1].seeds * 2 * 390.0 / 3600.0) < 1e-9);
    // The auc claim's seeds all give the same difference (a seed shifts both arms' rates alike): nothing to scale.
    QCOMPARE(plan.claims[2].seedsNeeded, 0);
    QVERIFY(plan.claims[2].options.empty());
    QVERIFY(plan.claims[2].note.find("do not vary") != std::string::npos);
    const auto text = planText(plan);
    QVERIFY(text.find("claim  a > b on eval/success at end") != std::string::npos);
    QVERIFY(text.find("seeds at 80 tasks") != std::string::npos);
    QVERIFY(text.find("one fixed draw") != std::string::npos); // a shared SFT start
}

QTEST_GUILESS_MAIN(TestLearnExperiment)
#include "tst_learn_experiment.moc"
