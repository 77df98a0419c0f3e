// Experiments and their seeds, run on tiny configs: `experiment extend` (addExperimentSeeds, then a resume) trains only
// the new seeds' trials, and they equal those of the same experiment run with every seed from the start; `sft:
// per_seed` trains one SFT start per seed, shared by the arms of that seed, and a stop during the second seed's SFT
// resumes without training the first again; what addExperimentSeeds refuses, with nothing written.
#include "core/learn/api/experiment.h"
#include "core/learn/api/sweep.h"
#include "core/learn/torch/engine/trainer.h"
#include "core/storage/store.h"
#include "tests/learn/tinyconfig.h"

#include <QTemporaryDir>
#include <QtTest/QTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

using namespace creditlab;
using namespace creditlab::learn;
using creditlab::testing::deterministicMetrics;
using creditlab::testing::kTinyConfig;

namespace {

/// A temporary folder holding tiny.yaml, the experiments' base.
struct Folder {
    QTemporaryDir dir;
    Folder() { std::ofstream(dir.filePath("tiny.yaml").toStdString()) << kTinyConfig; }
    std::string db(const char* name = "runs.db") const { return dir.filePath(name).toStdString(); }
    SweepSpec parse(const std::string& text) const
    {
        return SweepSpec::parse(text, "exp.yaml", dir.path().toStdString());
    }
};

/// Two arms of one RL iteration each; `rest` adds the seeds and anything else, `set` lines of `set:`.
std::string experiment(const std::string& name, const std::string& rest, const std::string& set = {})
{
    return "name: " + name + "\nbase: tiny.yaml\nset:\n  rl.iterations: 1\n" + set
        + "arms:\n  triage: {credit.method: triage}\n  grpo: {credit.method: grpo}\nmetrics: [eval/success]\n"
          "claims:\n  - triage > grpo on eval/success\nworkers: 1\nthreads: 1\n"
        + rest;
}

/// The trial runs of a sweep by their params ("arm=grpo,seed=2").
std::map<std::string, std::int64_t> trialRuns(Store& store, std::int64_t sweepId)
{
    std::map<std::string, std::int64_t> out;
    for (const auto& t : store.trials(sweepId))
        out[t.params] = t.runId.value_or(0);
    return out;
}

/// Every trajectory of a run, rollouts and evaluation episodes, in order.
std::vector<Trajectory> trajectories(Store& store, std::int64_t runId)
{
    std::vector<Trajectory> out;
    for (const auto& info : store.trajectories(runId, std::nullopt, Store::Which::All))
        out.push_back(store.loadTrajectory(info.rowId));
    return out;
}

/// The SFT curves of a run except wall-clock times.
std::vector<std::pair<std::string, double>> sftCurves(Store& store, std::int64_t runId)
{
    std::vector<std::pair<std::string, double>> out;
    for (const auto& m : store.sftMetrics(runId))
        if (m.name.find("time") == std::string::npos && m.name.find("throughput") == std::string::npos)
            out.emplace_back(std::to_string(m.iteration) + ":" + m.name, m.value);
    return out;
}

std::int64_t fromRun(Store& store, std::int64_t runId)
{
    return TrainConfig::parse(*store.runConfig(runId), "run " + std::to_string(runId)).getInt("sft.from_run");
}

/// A run's config with its warm start's run id left out (the one id two databases may give differently).
std::string configWithoutIds(Store& store, std::int64_t runId)
{
    return TrainConfig::parse(*store.runConfig(runId), "run", { { "sft.from_run", "0" } }).toYaml();
}

/// The std::invalid_argument message of `f`, or "" when it does not throw one.
template <typename F> std::string refusal(F&& f)
{
    try {
        f();
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return {};
}

} // namespace

class TestLearnExperimentSeeds : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void extendTrainsOnlyTheNewSeedsAsAFullRunWould();
    void perSeedSftStartsResumeWithoutRetraining();
    void extendRefusals();
    void tooManyWorkersWriteNothing();
};

void TestLearnExperimentSeeds::extendTrainsOnlyTheNewSeedsAsAFullRunWould()
{
    Folder f;
    // Seeds 0 and 1 to the end, then extended to three seeds.
    const std::string db = f.db("extended.db");
    const auto first = runExperiment(f.parse(experiment("ext", "seeds: [0, 1]\n")), { db, "cpu" });
    QCOMPARE(first.status, TrialStatus::Finished);
    std::map<std::string, std::int64_t> before;
    std::map<std::int64_t, testing::MetricMap> metricsBefore;
    std::size_t runsBefore = 0;
    {
        Store store(db);
        before = trialRuns(store, first.sweepId);
        for (const auto& [params, run] : before)
            metricsBefore[run] = deterministicMetrics(store, run);
        runsBefore = store.runs().size();
    }
    QCOMPARE(before.size(), std::size_t(4));
    QCOMPARE(runsBefore, std::size_t(5)); // the shared SFT and four trials

    const auto added = addExperimentSeeds(db, first.sweepId, 3);
    QCOMPARE(added.seeds, (std::vector<std::string> { "2" }));
    QCOMPARE(added.trials, 2);
    {
        Store store(db);
        const auto sweep = store.sweep(first.sweepId);
        QCOMPARE(sweep->status, TrialStatus::Cancelled); // stopped, resumable, until the new trials have run
        QVERIFY2(sweep->config.find("\nadded_seeds: [2]\n") != std::string::npos, sweep->config.c_str());
        QVERIFY2(sweep->config.find("\nseeds: [0, 1]\n") != std::string::npos, sweep->config.c_str()); // as given
    }
    std::vector<int> sftReports;
    const auto extended = resumeExperiment(first.sweepId, { db, "cpu" }, [&](const SweepProgress& p) {
        if (p.sftFraction >= 0.0)
            sftReports.push_back(1);
    });
    QCOMPARE(extended.status, TrialStatus::Finished);
    QCOMPARE(extended.trials.size(), std::size_t(6));
    QVERIFY(sftReports.empty()); // the shared SFT is the one it had

    // Seeds 0, 1 and 2 from the start, in another database.
    const std::string full = f.db("full.db");
    const auto scratch = runExperiment(f.parse(experiment("ext", "seeds: [0, 1, 2]\n")), { full, "cpu" });
    QCOMPARE(scratch.status, TrialStatus::Finished);

    Store store(db);
    Store other(full);
    const auto after = trialRuns(store, first.sweepId);
    const auto fromScratch = trialRuns(other, scratch.sweepId);
    QCOMPARE(after.size(), std::size_t(6));
    QCOMPARE(store.runs().size(), runsBefore + 2); // the two new trials, nothing else
    for (const auto& [params, run] : before) {
        QCOMPARE(after.at(params), run); // not trained again
        QCOMPARE(store.run(run)->status, RunStatus::Finished);
        QCOMPARE(deterministicMetrics(store, run), metricsBefore[run]);
    }
    // The shared SFT of each database is the same training, and the new seed's trials equal the full run's.
    const auto sftOf = [](Store& s, std::int64_t sweepId) {
        return std::stoll(SweepSpec::parse(s.sweep(sweepId)->config, "stored", {}).sft);
    };
    QCOMPARE(sftCurves(store, sftOf(store, first.sweepId)), sftCurves(other, sftOf(other, scratch.sweepId)));
    for (const std::string params : { "arm=triage,seed=2", "arm=grpo,seed=2" }) {
        QVERIFY2(!before.count(params), params.c_str());
        const auto mine = after.at(params), theirs = fromScratch.at(params);
        QCOMPARE(store.run(mine)->name, other.run(theirs)->name);
        QCOMPARE(fromRun(store, mine), sftOf(store, first.sweepId));
        QCOMPARE(configWithoutIds(store, mine), configWithoutIds(other, theirs));
        const auto metrics = deterministicMetrics(store, mine);
        QVERIFY(metrics.size() > 5);
        QCOMPARE(metrics, deterministicMetrics(other, theirs));
        const auto episodes = trajectories(store, mine);
        QVERIFY(!episodes.empty());
        QVERIFY(episodes == trajectories(other, theirs));
    }
    // The report reads the extended experiment as the full one: three seeds per arm, the same values.
    const auto report = buildReport(store, first.sweepId);
    const auto fullReport = buildReport(other, scratch.sweepId);
    QVERIFY(!report.partial);
    QCOMPARE(report.claims.size(), std::size_t(1));
    QCOMPARE(report.claims[0].left.size(), std::size_t(3));
    QCOMPARE(report.claims[0].left, fullReport.claims[0].left);
    QCOMPARE(report.claims[0].right, fullReport.claims[0].right);
}

void TestLearnExperimentSeeds::perSeedSftStartsResumeWithoutRetraining()
{
    Folder f;
    const std::string db = f.db();
    // Two SFT epochs per start, so that a stop after the second seed's first step lands inside its SFT.
    const auto spec = f.parse(experiment("ps", "seeds: [0, 1]\nsft: per_seed\n", "  sft.epochs: 2\n"));
    QCOMPARE(spec.sft, std::string("per_seed"));

    // Stopped during seed 1's SFT: seed 0's start has finished, and both are recorded in the experiment.
    std::string training; // the seed whose SFT the last progress report was of
    std::vector<std::pair<std::string, double>> reports;
    const auto sweepCallback = [&](const SweepProgress& p) {
        if (p.sftFraction < 0.0)
            return;
        training = p.sftSeed;
        reports.emplace_back(p.sftSeed, p.sftFraction);
        for (const auto& t : p.trials)
            QCOMPARE(t.status, TrialStatus::Pending);
    };
    int seedOneSteps = 0;
    const auto stopped = runExperiment(spec, { db, "cpu" }, sweepCallback, [&](const TrainProgress& p) {
        seedOneSteps += p.phase == Phase::Sft && training == "1";
        return seedOneSteps < 2;
    });
    QCOMPARE(stopped.status, TrialStatus::Cancelled);
    QVERIFY(stopped.stoppedInSft);
    QVERIFY(!reports.empty());
    QCOMPARE(reports.front().first, std::string("0"));
    QCOMPARE(reports.back().first, std::string("1"));
    for (const auto& [seed, fraction] : reports) // each start is half of the SFT work
        QVERIFY2(seed == "0" ? fraction <= 0.5 : fraction >= 0.5 && fraction <= 1.0, seed.c_str());
    std::int64_t seed0 = 0, seed1 = 0;
    std::vector<std::pair<std::string, double>> seed0Curves;
    {
        Store store(db);
        const auto runs = store.runs();
        QCOMPARE(runs.size(), std::size_t(2));
        QCOMPARE(runs[0].name, std::string("ps-sft-seed=0"));
        QCOMPARE(runs[0].status, RunStatus::Finished);
        QCOMPARE(runs[1].name, std::string("ps-sft-seed=1"));
        QVERIFY(runs[1].status != RunStatus::Finished);
        seed0 = runs[0].id;
        seed1 = runs[1].id;
        seed0Curves = sftCurves(store, seed0);
        QVERIFY(!seed0Curves.empty());
        const auto config = store.sweep(stopped.sweepId)->config;
        QVERIFY2(config.find("\nsft: {0: " + std::to_string(seed0) + ", 1: " + std::to_string(seed1) + "}\n")
                != std::string::npos,
            config.c_str());
        QCOMPARE(TrainConfig::parse(*store.runConfig(seed1), "run").getInt("seed"), 1);
    }

    // Resumed: seed 1's SFT run continues (seed 0's is not trained again), then every trial from its seed's start.
    std::vector<std::string> resumedSeeds;
    const auto resumed = resumeExperiment(stopped.sweepId, { db, "cpu" }, [&](const SweepProgress& p) {
        if (p.sftFraction >= 0.0)
            resumedSeeds.push_back(p.sftSeed);
    });
    QCOMPARE(resumed.status, TrialStatus::Finished);
    QVERIFY(!resumedSeeds.empty());
    QVERIFY(std::all_of(resumedSeeds.begin(), resumedSeeds.end(), [](const std::string& s) { return s == "1"; }));
    {
        Store store(db);
        QCOMPARE(store.runs().size(), std::size_t(6)); // two starts and four trials
        QCOMPARE(store.run(seed1)->status, RunStatus::Finished);
        QCOMPARE(sftCurves(store, seed0), seed0Curves);
        const std::map<std::string, std::int64_t> start { { "0", seed0 }, { "1", seed1 } };
        for (const auto& [params, run] : trialRuns(store, stopped.sweepId)) {
            const auto seed = SweepTrialSpec { 0, SweepTrialSpec::parseParams(params) }.value("seed");
            QCOMPARE(fromRun(store, run), start.at(seed)); // the arms of a seed share its start
        }
        // The two starts are different trainings (their seeds differ), not one start recorded twice.
        QVERIFY(sftCurves(store, seed0) != sftCurves(store, seed1));
        const auto report = buildReport(store, stopped.sweepId);
        QVERIFY(!report.partial);
        QVERIFY2(reportMarkdown(report, db).find("SFT start: one per seed (seed 0: run " + std::to_string(seed0))
                != std::string::npos,
            "the report names each seed's start");
    }

    // Extended to three seeds: seed 2's start trains first, alone, and its trials warm-start from it.
    QCOMPARE(addExperimentSeeds(db, stopped.sweepId, 3).trials, 2);
    std::vector<std::string> extendedSeeds;
    const auto extended = resumeExperiment(stopped.sweepId, { db, "cpu" }, [&](const SweepProgress& p) {
        if (p.sftFraction >= 0.0)
            extendedSeeds.push_back(p.sftSeed);
    });
    QCOMPARE(extended.status, TrialStatus::Finished);
    QVERIFY(!extendedSeeds.empty());
    QVERIFY(std::all_of(extendedSeeds.begin(), extendedSeeds.end(), [](const std::string& s) { return s == "2"; }));
    Store store(db);
    QCOMPARE(store.runs().size(), std::size_t(9)); // a start and two trials more
    const auto stored = SweepSpec::parse(store.sweep(stopped.sweepId)->config, "stored", {});
    QCOMPARE(stored.sftRuns.size(), std::size_t(3));
    QCOMPARE(stored.sftRuns.at(0), seed0);
    QCOMPARE(stored.sftRuns.at(1), seed1);
    QCOMPARE(store.run(stored.sftRuns.at(2))->name, std::string("ps-sft-seed=2"));
    const auto runs = trialRuns(store, stopped.sweepId);
    QCOMPARE(fromRun(store, runs.at("arm=triage,seed=2")), stored.sftRuns.at(2));
    QCOMPARE(fromRun(store, runs.at("arm=grpo,seed=2")), stored.sftRuns.at(2));
}

/// An experiment whose workers x threads exceed the machine is refused before its rows or any SFT exist, whether
/// the file or the command line asks for them (runExperiment checks as runSweep does, through one function).
void TestLearnExperimentSeeds::tooManyWorkersWriteNothing()
{
    for (const char* sft : { "shared", "per_seed" }) {
        Folder f;
        const std::string db = f.db();
        const auto spec = f.parse(experiment("greedy", std::string("seeds: [0, 1]\nsft: ") + sft + "\n"));
        bool refused = false;
        try {
            runExperiment(spec, { db, "cpu", 100000 });
        } catch (const std::exception& e) {
            refused = true;
            QVERIFY2(QString(e.what()).contains("exceeds"), e.what());
        }
        QVERIFY2(refused, sft);
        if (std::filesystem::exists(db)) {
            Store store(db);
            QVERIFY2(store.sweeps().empty(), sft);
            QVERIFY2(store.runs().empty(), sft);
        }
    }
}

void TestLearnExperimentSeeds::extendRefusals()
{
    Folder f;
    const std::string db = f.db();
    const auto spec = f.parse(experiment("refused", "seeds: [0, 1]\n"));
    std::int64_t id = 0, plain = 0, seedless = 0;
    {
        // Rows only: the refusals are decided before anything trains.
        Store store(db);
        id = store.createSweep(spec.name, spec.storedText());
        for (const auto& t : spec.trials)
            store.addTrial(id, t.paramsText());
        store.setSweepStatus(id, TrialStatus::Running);
        plain = store.createSweep("plain", f.parse("base: tiny.yaml\nseeds: [0, 1]\n").storedText());
        const auto noSeeds = f.parse(experiment("seedless", ""));
        seedless = store.createSweep(noSeeds.name, noSeeds.storedText());
        store.setSweepStatus(seedless, TrialStatus::Finished);
    }
    const auto config = [&] { return Store(db).sweep(id)->config; };
    const std::string text = config();

    const auto says = [&](std::int64_t sweepId, int seeds, const std::string& what) {
        const auto error = refusal([&] { addExperimentSeeds(db, sweepId, seeds); });
        QVERIFY2(error.find(what) != std::string::npos, error.empty() ? "not refused" : error.c_str());
    };
    says(99, 3, "experiment 99 does not exist in " + db);
    says(plain, 3, "sweep " + std::to_string(plain) + " (plain) is a sweep, not an experiment: it has no arms");
    says(
        id, 3, "experiment " + std::to_string(id) + " (refused) is running: extend it once it has stopped or finished");
    says(seedless, 3, "(seedless) has no seeds: list");
    {
        Store(db).setSweepStatus(id, TrialStatus::Finished);
    }
    says(id, 2,
        "--seeds 2: experiment " + std::to_string(id) + " has 2 seeds already (0, 1); give the total it should have");
    says(id, 1, "has 2 seeds already");
    // Nothing was written by a refusal.
    QCOMPARE(config(), text);
    QCOMPARE(Store(db).trials(id).size(), std::size_t(4));
    QCOMPARE(Store(db).sweep(id)->status, TrialStatus::Finished);

    // Accepted after a finished run: the new seeds continue after the largest, every arm gets them, and the stored
    // text reads back as the experiment with every seed.
    const auto added = addExperimentSeeds(db, id, 4);
    QCOMPARE(added.seeds, (std::vector<std::string> { "2", "3" }));
    QCOMPARE(added.trials, 4);
    const auto back = SweepSpec::parse(config(), "stored", {});
    QCOMPARE(back.seeds(), (std::vector<std::string> { "0", "1", "2", "3" }));
    std::vector<std::string> params;
    for (const auto& t : Store(db).trials(id))
        params.push_back(t.params);
    QCOMPARE(params,
        (std::vector<std::string> { "arm=triage,seed=0", "arm=triage,seed=1", "arm=grpo,seed=0", "arm=grpo,seed=1",
            "arm=triage,seed=2", "arm=triage,seed=3", "arm=grpo,seed=2", "arm=grpo,seed=3" }));
    // Again: the seeds it added count as its own.
    const auto more = addExperimentSeeds(db, id, 5);
    QCOMPARE(more.seeds, (std::vector<std::string> { "4" }));
    QVERIFY2(config().find("\nadded_seeds: [2, 3, 4]\n") != std::string::npos, config().c_str());
    QCOMPARE(config().find("added_seeds:"), config().rfind("added_seeds:")); // one line, not one per extension
}

QTEST_GUILESS_MAIN(TestLearnExperimentSeeds)
#include "tst_learn_experimentseeds.moc"
