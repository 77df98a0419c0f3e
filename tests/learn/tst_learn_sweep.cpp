// Sweeps through the torch-free API: the sweep file expands into trials in a fixed order (grid × random
// samples × seeds), random samples are reproducible and inside their ranges, errors name the sweep file's line
// and key or the trial; a 2×2 grid of tiny runs on two workers ends with four finished trial runs whose
// objectives are recorded and whose metrics equal a run of the same config alone; a stopped sweep resumes; an
// experiment stopped in its shared SFT, or ended before creating it, resumes to the uninterrupted experiment's runs.
#include "core/learn/api/experiment.h"
#include "core/learn/api/sweep.h"
#include "core/learn/torch/engine/trainer.h"
#include "core/storage/store.h"
#include "tests/learn/tinyconfig.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest/QTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>

using namespace creditlab;
using namespace creditlab::learn;
using creditlab::testing::deterministicMetrics;
using creditlab::testing::kTinyConfig;

namespace {

/// The most trials running at once in the progress snapshots `seen`.
int mostRunning(const std::vector<SweepProgress>& seen)
{
    int most = 0;
    for (const auto& p : seen)
        most = std::max<int>(most, std::count_if(p.trials.begin(), p.trials.end(), [](const TrialProgress& t) {
            return t.status == TrialStatus::Running;
        }));
    return most;
}

/// A temporary folder holding tiny.yaml, for sweeps that name it as their base.
struct Folder {
    QTemporaryDir dir;
    Folder() { std::ofstream(dir.filePath("tiny.yaml").toStdString()) << kTinyConfig; }
    std::string path() const { return dir.path().toStdString(); }
    std::string db() const { return dir.filePath("runs.db").toStdString(); }
    SweepSpec parse(const std::string& text) const { return SweepSpec::parse(text, "sweep.yaml", path()); }
};

} // namespace

class TestLearnSweep : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void gridTimesSeedsInOrder();
    void randomSamplesAreReproducible();
    void errorsNameLineAndKey_data();
    void errorsNameLineAndKey();
    void storedTextInlinesTheBase();
    void tooManyThreadsRefused();
    void shippedSweepsAreValid();
    void relativeBaseBesideAFileWithoutFolder();
    void gridRunsInParallel();
    void shortMemoryRunsFewerAtOnce();
    void stopLeavesTrialsAndResumeFinishes();
    void failingTrialDoesNotStopOthers();
    void experimentStoppedInItsSharedSftResumes();
};

void TestLearnSweep::gridTimesSeedsInOrder()
{
    Folder f;
    const auto spec = f.parse("name: g\nbase: tiny.yaml\nset:\n  rl.iterations: 2\n  eval:\n    episodes: 2\n"
                              "grid:\n  rl.lr: [0.001, 0.0001]\n  rl:\n    clip: [0.1, 0.2, 0.3]\nseeds: [0, 1]\n");
    QCOMPARE(spec.trials.size(), std::size_t(12));
    QCOMPARE(spec.keys, (std::vector<std::string> { "rl.lr", "rl.clip", "seed" }));
    QCOMPARE(QString::fromStdString(spec.trials[0].paramsText()), QString("rl.lr=0.001,rl.clip=0.1,seed=0"));
    QCOMPARE(QString::fromStdString(spec.trials[1].paramsText()), QString("rl.lr=0.001,rl.clip=0.1,seed=1"));
    QCOMPARE(QString::fromStdString(spec.trials[2].paramsText()), QString("rl.lr=0.001,rl.clip=0.2,seed=0"));
    QCOMPARE(QString::fromStdString(spec.trials[11].paramsText()), QString("rl.lr=0.0001,rl.clip=0.3,seed=1"));
    QCOMPARE(spec.trials[11].index, 11);
    QCOMPARE(SweepTrialSpec::parseParams(spec.trials[5].paramsText()), spec.trials[5].point);

    const auto config = spec.trialConfig(spec.trials[5]); // lr 0.001, clip 0.3, seed 1
    QCOMPARE(config.getInt("rl.iterations"), 2LL);
    QCOMPARE(config.getInt("eval.episodes"), 2LL);
    QCOMPARE(config.getDouble("rl.clip"), 0.3);
    QCOMPARE(config.getInt("seed"), 1LL);
    QCOMPARE(config.getInt("threads"), 1LL);
    QCOMPARE(config.getInt("policy.width"), 32LL); // from the base
    QCOMPARE(QString::fromStdString(config.runName()), QString("g-lr=0.001-clip=0.3-seed=1"));

    // Without seeds: one trial per grid point, with the base's seed; the name defaults to the file's stem.
    const auto plain = SweepSpec::parse("base: tiny.yaml\ngrid:\n  rl.clip: [0.1, 0.2]\n", "/x/alpha.yaml", f.path());
    QCOMPARE(plain.trials.size(), std::size_t(2));
    QCOMPARE(QString::fromStdString(plain.name), QString("alpha"));
    QCOMPARE(plain.trialConfig(plain.trials[1]).getInt("seed"), 3LL);
    QCOMPARE(QString::fromStdString(plain.objective), QString("eval/success"));
    QCOMPARE(QString::fromStdString(plain.objectiveMode), QString("best"));
}

void TestLearnSweep::randomSamplesAreReproducible()
{
    Folder f;
    const auto text = [](int seed) {
        return "base: tiny.yaml\ngrid:\n  kl.coef: [0.01, 0.02]\nrandom:\n  trials: 8\n  seed: " + std::to_string(seed)
            + "\n  params:\n    rl.lr: {log_uniform: [1.0e-5, 1.0e-3]}\n    rl.clip: {uniform: [0.1, 0.3]}\n"
              "    kl.mode: {choice: [fixed, adaptive]}\n    rl.group_size: {int: [2, 4]}\nseeds: [0, 1]\n";
    };
    const auto a = f.parse(text(0));
    const auto b = f.parse(text(0));
    const auto c = f.parse(text(1));
    QCOMPARE(a.trials.size(), std::size_t(2 * 8 * 2));
    QCOMPARE(a.keys, (std::vector<std::string> { "kl.coef", "rl.lr", "rl.clip", "kl.mode", "rl.group_size", "seed" }));
    bool differs = false;
    std::set<std::string> modes, sizes;
    for (std::size_t i = 0; i < a.trials.size(); ++i) {
        QCOMPARE(a.trials[i].point, b.trials[i].point);
        differs = differs || a.trials[i].point != c.trials[i].point;
        const double lr = std::stod(a.trials[i].value("rl.lr"));
        const double clip = std::stod(a.trials[i].value("rl.clip"));
        QVERIFY2(lr >= 1e-5 && lr <= 1e-3, a.trials[i].paramsText().c_str());
        QVERIFY(clip >= 0.1 && clip <= 0.3);
        modes.insert(a.trials[i].value("kl.mode"));
        sizes.insert(a.trials[i].value("rl.group_size"));
    }
    QVERIFY(differs);
    QVERIFY(modes == (std::set<std::string> { "fixed", "adaptive" }));
    for (const auto& s : sizes)
        QVERIFY(s == "2" || s == "3" || s == "4");
    // The same samples for every grid point: trial 0 (kl.coef 0.01) and trial 16 (kl.coef 0.02) share them.
    QCOMPARE(a.trials[0].value("rl.lr"), a.trials[16].value("rl.lr"));
    QCOMPARE(a.trialConfig(a.trials[3]).getText("kl.mode"), a.trials[3].value("kl.mode"));
}

void TestLearnSweep::errorsNameLineAndKey_data()
{
    QTest::addColumn<QString>("yaml");
    QTest::addColumn<QStringList>("expected");
    const QString base = "base: tiny.yaml\n";
    QTest::newRow("unknown top-level key") << base + "gird:\n  rl.lr: [1]\n"
                                           << QStringList { "sweep.yaml:2: unknown key 'gird'" };
    QTest::newRow("unknown trainer key") << base + "grid:\n  rl.clip: [0.1]\n  rl.lrr: [0.1, 0.2]\n"
                                         << QStringList { "sweep.yaml:4:", "rl.lrr", "(trial 1:" };
    QTest::newRow("bad value names trial") << base + "seeds: [0, 1]\ngrid:\n  rl.clip: [0.2, -1]\n"
                                           << QStringList { "sweep.yaml:4: rl.clip:", "(trial 3: rl.clip=-1,seed=0)" };
    QTest::newRow("bad set value") << base + "set:\n  rl.iterations: many\n"
                                   << QStringList { "sweep.yaml:3: rl.iterations:", "(trial 1: base + set)" };
    QTest::newRow("bad credit key") << base + "grid:\n  credit.alpha: [0.5]\n"
                                    << QStringList { "sweep.yaml:3:", "credit.alpha" };
    QTest::newRow("grid not a list") << base + "grid:\n  rl.clip: 0.1\n"
                                     << QStringList { "sweep.yaml:3: rl.clip: expected a list" };
    QTest::newRow("seed in grid") << base + "grid:\n  seed: [1, 2]\n"
                                  << QStringList { "sweep.yaml:3: seed:", "seeds:" };
    QTest::newRow("key twice") << base + "set:\n  rl.clip: 0.1\ngrid:\n  rl.clip: [0.2]\n"
                               << QStringList { "sweep.yaml:5: rl.clip: given twice (also on line 3)" };
    // Found with fuzz_sweep: yaml-cpp keeps a map's key given twice and the later one won silently. A sweep whose
    // base: came twice (a map, then a file) parsed, and then could not be stored ("write it as 'base: FILE'").
    QTest::newRow("top-level key twice") << base + "seeds: [0]\n" + base
                                         << QStringList { "sweep.yaml:3: base: given twice (also on line 1)" };
    QTest::newRow("nested key twice") << base + "random:\n  trials: 2\n  trials: 3\n"
                                      << QStringList { "sweep.yaml:4: trials: given twice (also on line 3)" };
    // Also found with fuzz_sweep: a base file named on the next line, or a key not at the start of its line, parsed
    // (yaml-cpp reads " base: x\nrandom: ..." as one map) and then could not be stored.
    QTest::newRow("base file on the next line") << "base:\n  tiny.yaml\n"
                                                << QStringList { "sweep.yaml:1: base: write it as 'base: FILE'" };
    QTest::newRow("base not at the line's start") << " " + base + "seeds: [0]\n"
                                                  << QStringList { "sweep.yaml:1: base: write it as 'base: FILE'" };
    QTest::newRow("bad distribution") << base + "random:\n  trials: 2\n  params:\n    rl.lr: {normal: [0, 1]}\n"
                                      << QStringList { "sweep.yaml:5: rl.lr.normal: expected {log_uniform" };
    QTest::newRow("bad seeds") << base + "seeds: [0, x]\n"
                               << QStringList { "sweep.yaml:2: seeds: expected an integer" };
    QTest::newRow("bad mode") << base + "objective_mode: mean\n" << QStringList { "sweep.yaml:2: objective_mode" };
    QTest::newRow("missing base") << "grid:\n  rl.clip: [0.1]\n" << QStringList { "sweep.yaml:1: base: missing" };
    QTest::newRow("unknown base") << "base: nowhere.yaml\n"
                                  << QStringList { "sweep.yaml:1: base: cannot find 'nowhere.yaml'" };
    QTest::newRow("malformed") << base + "grid: [1, 2\n" << QStringList { "sweep.yaml:", "malformed YAML" };
    // Found with fuzz_sweep (tests/fuzz/corpus/fuzz_sweep/ub-int-bounds): int bounds beyond 64 bits were converted to
    // integers when sampling, which is undefined behaviour (UBSan: "1e+300 is outside the range of representable
    // values").
    QTest::newRow("int bounds beyond 64 bits")
        << base + "random:\n  trials: 2\n  params:\n    rl.iterations: {int: [-1e300, 1e300]}\n"
        << QStringList { "sweep.yaml:5: rl.iterations: int: the bounds must be within -9e15 and 9e15" };
}

void TestLearnSweep::errorsNameLineAndKey()
{
    QFETCH(QString, yaml);
    QFETCH(QStringList, expected);
    Folder f;
    try {
        f.parse(yaml.toStdString());
        QFAIL("no error");
    } catch (const ConfigError& e) {
        for (const auto& part : expected)
            QVERIFY2(QString(e.what()).contains(part), e.what());
    }
}

void TestLearnSweep::storedTextInlinesTheBase()
{
    Folder f;
    const auto spec = f.parse("# a comment\nname: s\nbase: tiny.yaml\ngrid:\n  rl.clip: [0.1, 0.2]\nseeds: [4]\n");
    const auto stored = spec.storedText();
    QVERIFY(stored.find("# a comment\n") == 0);
    QVERIFY(stored.find("tiny.yaml") != std::string::npos); // in the comment naming the source
    // Parsed from nowhere: the base is inline, and every trial's config is the same as before.
    const auto again = SweepSpec::parse(stored, "stored", "/nonexistent");
    QCOMPARE(again.basePath, std::string("inline"));
    QCOMPARE(again.trials.size(), spec.trials.size());
    for (std::size_t i = 0; i < spec.trials.size(); ++i)
        QCOMPARE(again.trialConfig(again.trials[i]).toYaml(), spec.trialConfig(spec.trials[i]).toYaml());
}

void TestLearnSweep::tooManyThreadsRefused()
{
    Folder f;
    const auto spec = f.parse("base: tiny.yaml\nworkers: 64\nthreads: 64\ngrid:\n  rl.clip: [0.1, 0.2]\n");
    try {
        runSweep(spec, { f.db(), "cpu" });
        QFAIL("no error");
    } catch (const ConfigError& e) {
        QVERIFY2(QString(e.what()).contains("workers (64) × threads (64) = 4096 exceeds"), e.what());
    }
    QVERIFY(Store(f.db()).sweeps().empty()); // refused before anything was written
    // threads 0 divides the cores between the workers.
    const auto share = f.parse("base: tiny.yaml\nworkers: 1\nthreads: 0\n");
    QCOMPARE(share.trialThreads(), static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
    share.checkResources();
}

void TestLearnSweep::shippedSweepsAreValid()
{
    // Found above the test executable (resources/configs of the source tree), as the CLI finds them.
    const auto dirs = shippedConfigDirs();
    QVERIFY(!dirs.empty());
    int found = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dirs.front()))
        if (entry.path().filename().string().rfind("sweep-", 0) == 0) {
            const auto spec = SweepSpec::load(entry.path().string());
            QVERIFY(!spec.trials.empty());
            ++found;
        }
    QVERIFY(found >= 2);
    const auto has = SweepSpec::load(dirs.front() + "/sweep-has-alpha.yaml");
    QCOMPARE(has.trials.size(), std::size_t(6));
    QCOMPARE(has.keys, (std::vector<std::string> { "credit.alpha", "seed" }));
    QVERIFY(has.basePath.ends_with("household-has.yaml"));
    const auto config = has.trialConfig(has.trials[5]);
    QCOMPARE(QString::fromStdString(config.method()), QString("has"));
    QCOMPARE(config.getInt("seed"), 1LL);
    QCOMPARE(config.getInt("threads"), 1LL);
    QCOMPARE(has.workers * has.trialThreads(), 2);
}

void TestLearnSweep::relativeBaseBesideAFileWithoutFolder()
{
    // `creditlab-cli sweep --config sweep.yaml` in the folder of sweep.yaml and its base.
    QTemporaryDir dir;
    QFile base(dir.filePath(QStringLiteral("mybase.yaml")));
    QVERIFY(base.open(QIODevice::WriteOnly));
    base.write("seed: 7\nrl.iterations: 2\n");
    base.close();
    QFile sweep(dir.filePath(QStringLiteral("sweep.yaml")));
    QVERIFY(sweep.open(QIODevice::WriteOnly));
    sweep.write("base: mybase.yaml\ngrid:\n  rl.clip: [0.1, 0.2]\n");
    sweep.close();
    const QString before = QDir::currentPath();
    QVERIFY(QDir::setCurrent(dir.path()));
    std::optional<SweepSpec> spec;
    QString failure;
    try {
        spec = SweepSpec::load("sweep.yaml");
    } catch (const std::exception& e) {
        failure = QString::fromUtf8(e.what());
    }
    QDir::setCurrent(before);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    QCOMPARE(spec->trials.size(), std::size_t(2));
    QCOMPARE(spec->trialConfig(spec->trials.front()).getInt("seed"), 7LL);
}

void TestLearnSweep::gridRunsInParallel()
{
    Folder f;
    const auto spec = f.parse("name: grid\nbase: tiny.yaml\nset:\n  rl.iterations: 2\nworkers: 2\nthreads: 1\n"
                              "grid:\n  rl.clip: [0.1, 0.3]\n  kl.mode: [fixed, adaptive]\n");
    std::mutex mutex;
    std::vector<SweepProgress> seen;
    const auto result = runSweep(spec, { f.db(), "cpu" }, [&](const SweepProgress& p) {
        std::lock_guard lock(mutex);
        seen.push_back(p);
    });
    QCOMPARE(result.status, TrialStatus::Finished);
    QCOMPARE(result.trials.size(), std::size_t(4));
    QVERIFY(!seen.empty());
    QCOMPARE(seen.back().done, 4);
    QCOMPARE(seen.back().total, 4);
    QCOMPARE(seen.front().done, 0);
    QCOMPARE(mostRunning(seen), 2);
    QCOMPARE(seen.back().workers, 2); // the tiny trials fit in memory side by side
    QVERIFY(seen.back().memoryNote.empty());

    Store store(f.db());
    const auto sweeps = store.sweeps();
    QCOMPARE(sweeps.size(), std::size_t(1));
    QCOMPARE(sweeps[0].status, TrialStatus::Finished);
    QCOMPARE(QString::fromStdString(sweeps[0].name), QString("grid"));
    const auto trials = store.trials(result.sweepId);
    QCOMPARE(trials.size(), std::size_t(4));
    QCOMPARE(QString::fromStdString(trials[1].params), QString("rl.clip=0.1,kl.mode=adaptive"));
    std::set<std::int64_t> runIds;
    for (std::size_t i = 0; i < trials.size(); ++i) {
        const auto& t = trials[i];
        QCOMPARE(t.status, TrialStatus::Finished);
        QVERIFY(t.runId);
        QVERIFY(t.objective);
        QCOMPARE(*t.objective, *trialObjective(f.db(), *t.runId, "eval/success", "best"));
        QCOMPARE(result.trials[i].objective, t.objective);
        const auto run = store.run(*t.runId);
        QCOMPARE(run->kind, RunKind::Trial);
        QCOMPARE(run->status, RunStatus::Finished);
        QCOMPARE(QString::fromStdString(run->name), QString::fromStdString(spec.trialRunName(spec.trials[i])));
        runIds.insert(*t.runId);
    }
    QCOMPARE(runIds.size(), std::size_t(4));
    QCOMPARE(store.runs().size(), std::size_t(4));

    // Trials ran two at a time, yet each is the run its config gives alone.
    {
        Trainer alone(spec.trialConfig(spec.trials[2]), { f.db(), "cpu" });
        alone.run();
        QCOMPARE(deterministicMetrics(store, alone.runId()), deterministicMetrics(store, *trials[2].runId));
    }
    const auto metrics = store.metrics(*trials[0].runId);
    double last = NAN;
    for (const auto& m : metrics)
        if (m.name == "eval/success" && m.iteration == 2)
            last = m.value;
    QCOMPARE(*trialObjective(f.db(), *trials[0].runId, "eval/success", "last"), last);
    QVERIFY(!trialObjective(f.db(), *trials[0].runId, "no/such", "best"));
}

void TestLearnSweep::shortMemoryRunsFewerAtOnce()
{
    // Issue 38: before it starts trials side by side, the runner compares their estimated memory with what the machine
    // has available (faked here: 1 MiB), runs fewer at once and says why.
    Folder f;
    const auto spec = f.parse("name: grid\nbase: tiny.yaml\nset:\n  rl.iterations: 1\nworkers: 2\nthreads: 1\n"
                              "grid:\n  rl.clip: [0.1, 0.3]\n");
    qputenv("CREDITLAB_MEMAVAILABLE_MIB", "1");
    std::mutex mutex;
    std::vector<SweepProgress> seen;
    const auto result = runSweep(spec, { f.db(), "cpu" }, [&](const SweepProgress& p) {
        std::lock_guard lock(mutex);
        seen.push_back(p);
    });
    qunsetenv("CREDITLAB_MEMAVAILABLE_MIB");
    QCOMPARE(result.status, TrialStatus::Finished);
    QVERIFY(!seen.empty());
    QCOMPARE(mostRunning(seen), 1);
    QCOMPARE(seen.back().workers, 1);
    const QString note = QString::fromStdString(seen.back().memoryNote);
    QVERIFY2(note.startsWith("memory: 2 trials at once need about ")
            && note.endsWith("running 1 at a time (even one may not fit)"),
        qPrintable(note));
}

void TestLearnSweep::stopLeavesTrialsAndResumeFinishes()
{
    Folder f;
    const auto spec = f.parse("name: stop\nbase: tiny.yaml\nset:\n  rl.iterations: 2\nworkers: 1\nthreads: 1\n"
                              "grid:\n  rl.clip: [0.1, 0.3]\n");
    std::atomic<bool> stop { false };
    const auto result = runSweep(
        spec, { f.db(), "cpu" },
        [&](const SweepProgress& p) {
            if (p.trials[0].phase == Phase::Rl && p.trials[0].iteration >= 1)
                stop = true;
        },
        &stop);
    QCOMPARE(result.status, TrialStatus::Cancelled);
    Store store(f.db());
    auto trials = store.trials(result.sweepId);
    QCOMPARE(trials[0].status, TrialStatus::Cancelled);
    QVERIFY(trials[0].runId);
    QCOMPARE(trials[1].status, TrialStatus::Pending);
    QVERIFY(!trials[1].runId);
    QCOMPARE(store.sweep(result.sweepId)->status, TrialStatus::Cancelled);
    const auto stoppedRun = *trials[0].runId;

    const auto resumed = resumeSweep(result.sweepId, { f.db(), "cpu" });
    QCOMPARE(resumed.status, TrialStatus::Finished);
    trials = store.trials(result.sweepId);
    for (const auto& t : trials) {
        QCOMPARE(t.status, TrialStatus::Finished);
        QVERIFY(t.objective);
    }
    QCOMPARE(*trials[0].runId, stoppedRun); // continued, not started again
    QCOMPARE(store.runs().size(), std::size_t(2));
    QCOMPARE(store.iterations(stoppedRun).back(), 2LL);
    QCOMPARE(store.sweep(result.sweepId)->status, TrialStatus::Finished);
    // Nothing left to do: a second resume changes nothing.
    QCOMPARE(resumeSweep(result.sweepId, { f.db(), "cpu" }).status, TrialStatus::Finished);
    QVERIFY_EXCEPTION_THROWN(resumeSweep(99, { f.db(), "cpu" }), std::invalid_argument);
}

void TestLearnSweep::failingTrialDoesNotStopOthers()
{
    Folder f;
    // sft.from_run names a run without an SFT policy: valid as a value, fails when the trial starts.
    const auto spec = f.parse("base: tiny.yaml\nset:\n  rl.iterations: 1\nworkers: 1\nthreads: 1\n"
                              "grid:\n  sft.from_run: [999, 0]\n");
    const auto result = runSweep(spec, { f.db(), "cpu" });
    QCOMPARE(result.status, TrialStatus::Failed);
    QCOMPARE(result.trials[0].status, TrialStatus::Failed);
    QVERIFY2(result.trials[0].error.find("sft.from_run 999") != std::string::npos, result.trials[0].error.c_str());
    QCOMPARE(result.trials[1].status, TrialStatus::Finished);
    Store store(f.db());
    const auto trials = store.trials(result.sweepId);
    QCOMPARE(trials[0].status, TrialStatus::Failed);
    QCOMPARE(trials[1].status, TrialStatus::Finished);
    QCOMPARE(store.sweep(result.sweepId)->status, TrialStatus::Failed);
}

void TestLearnSweep::experimentStoppedInItsSharedSftResumes()
{
    // Two arms, one seed, a shared SFT of two epochs (a stop after the first lands inside it).
    Folder f;
    const auto spec = f.parse("name: sftstop\nbase: tiny.yaml\nset:\n  rl.iterations: 1\n  sft.epochs: 2\n"
                              "arms:\n  triage: {credit.method: triage}\n  grpo: {credit.method: grpo}\n"
                              "seeds: [0]\nmetrics: [eval/success]\nclaims:\n  - triage > grpo on eval/success\n"
                              "workers: 1\nthreads: 1\n");
    QVERIFY(spec.isExperiment());
    QCOMPARE(QString::fromStdString(spec.sft), QString("shared"));

    // Stopped during the SFT: the experiment exists, records its SFT run, and is resumable.
    int sftSteps = 0;
    std::vector<SweepProgress> sftReports; // the SFT's progress, as the experiment's
    const auto sweepCallback = [&](const SweepProgress& p) {
        if (p.sftFraction >= 0.0)
            sftReports.push_back(p);
    };
    const auto stopped = runExperiment(spec, { f.db(), "cpu" }, sweepCallback, [&](const TrainProgress& p) {
        if (p.phase == Phase::Sft)
            ++sftSteps;
        return sftSteps < 2;
    });
    QCOMPARE(stopped.status, TrialStatus::Cancelled);
    QVERIFY(stopped.stoppedInSft);
    QVERIFY(stopped.sweepId > 0);
    QVERIFY(!sftReports.empty());
    for (const auto& r : sftReports) {
        QCOMPARE(r.sweepId, stopped.sweepId);
        QCOMPARE(r.total, 2);
        QVERIFY(r.sftFraction <= 1.0);
        for (const auto& t : r.trials)
            QCOMPARE(t.status, TrialStatus::Pending);
    }
    std::int64_t sftRun = 0;
    {
        Store store(f.db());
        const auto runs = store.runs();
        QCOMPARE(runs.size(), std::size_t(1));
        sftRun = runs[0].id;
        QCOMPARE(QString::fromStdString(runs[0].name), QString("sftstop-sft"));
        QVERIFY(runs[0].status != RunStatus::Finished);
        const auto sweep = store.sweep(stopped.sweepId);
        QCOMPARE(sweep->status, TrialStatus::Cancelled);
        QVERIFY2(
            sweep->config.find("\nsft: " + std::to_string(sftRun) + "\n") != std::string::npos, sweep->config.c_str());
        for (const auto& t : store.trials(stopped.sweepId))
            QCOMPARE(t.status, TrialStatus::Pending);
    }

    // Resumed: the same SFT run finishes first, then both trials warm-start from it.
    int resumedSftSteps = 0;
    const auto resumed = resumeExperiment(stopped.sweepId, { f.db(), "cpu" }, {}, [&](const TrainProgress& p) {
        resumedSftSteps += p.phase == Phase::Sft;
        return true;
    });
    QCOMPARE(resumed.status, TrialStatus::Finished);
    QVERIFY(!resumed.stoppedInSft);
    QVERIFY(resumedSftSteps > 0);
    Store store(f.db());
    QCOMPARE(store.runs().size(), std::size_t(3));
    QCOMPARE(store.run(sftRun)->status, RunStatus::Finished);
    std::map<std::string, std::int64_t> trialRuns;
    for (const auto& t : store.trials(stopped.sweepId)) {
        QCOMPARE(t.status, TrialStatus::Finished);
        QVERIFY(store.runConfig(*t.runId)->find("from_run: " + std::to_string(sftRun)) != std::string::npos);
        trialRuns[t.params] = *t.runId;
    }

    // Ended before its SFT run existed (the experiment's rows written, `sft: shared` stored): the resume trains the
    // SFT, and every trial equals the stopped-and-resumed experiment's (the SFT restarts from its seed).
    const std::string other = f.dir.filePath("other.db").toStdString();
    std::int64_t sweepId = 0;
    {
        Store fresh(other);
        sweepId = fresh.createSweep(spec.name, spec.storedText());
        for (const auto& t : spec.trials)
            fresh.addTrial(sweepId, t.paramsText());
        fresh.setSweepStatus(sweepId, TrialStatus::Running);
    }
    QCOMPARE(resumeExperiment(sweepId, { other, "cpu" }).status, TrialStatus::Finished);
    Store fresh(other);
    QCOMPARE(fresh.runs().size(), std::size_t(3));
    QVERIFY(fresh.sweep(sweepId)->config.find("\nsft: shared\n") == std::string::npos);
    for (const auto& t : fresh.trials(sweepId)) {
        QCOMPARE(t.status, TrialStatus::Finished);
        QVERIFY(trialRuns.count(t.params));
        QCOMPARE(deterministicMetrics(fresh, *t.runId), deterministicMetrics(store, trialRuns[t.params]));
    }
}

QTEST_GUILESS_MAIN(TestLearnSweep)
#include "tst_learn_sweep.moc"
