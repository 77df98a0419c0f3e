#pragma once

// Experiments: a sweep with arms, seeds, an SFT start (shared, or one per seed) and claims (sweep.h), run by
// runExperiment() and given more seeds by addExperimentSeeds(), and their report: per-arm curves with seed bands, the
// final-metric table, each claim with its paired interval (pairedstats.h) and verdict, rliable's aggregates and
// performance profiles (rliable.h), written as report.md with SVG figures. Torch-free header.

#include "core/learn/api/claims.h"
#include "core/learn/api/sweep.h"
#include "core/learn/torch/engine/trainer.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace creditlab {
class Store;
struct ProbeResult;
}

namespace creditlab::learn {

/// Runs an experiment: when its SFT start is "shared", creates the experiment and its trials (pending), then
/// trains the SFT once (a run of kind "train" named "<name>-sft", recorded in the experiment's stored config as
/// `sft: RUN` in the transaction that creates it; `sftCallback` sees its progress and may stop it), then every
/// arm × seed trial as runSweep() does, each warm-starting from that run. With "per_seed" it trains one SFT per seed
/// instead, in seed order ("<name>-sft-seed=S", with that seed; recorded as `sft: {S: RUN, ...}` the same way), and
/// each trial warm-starts from its seed's. A stop during an SFT returns status "cancelled" with stoppedInSft set:
/// resumeExperiment() continues it. A sweep without arms runs as runSweep().
SweepResult runExperiment(SweepSpec spec, const SweepOptions& options, const SweepCallback& callback = {},
    const TrainCallback& sftCallback = {}, const std::atomic<bool>* stop = nullptr);

/// resumeSweep() with the SFT's progress: an experiment stopped or killed during an SFT start continues that run
/// first (from its last checkpoint, or from its seed when it had none), trains a new one for each start it has no run
/// for yet (it ended before creating it, or experiment extend added its seed; per_seed's finished starts are not
/// trained again), then runs its pending and stopped trials.
SweepResult resumeExperiment(std::int64_t sweepId, const SweepOptions& options, const SweepCallback& callback = {},
    const TrainCallback& sftCallback = {}, const std::atomic<bool>* stop = nullptr);

/// What addExperimentSeeds() added.
struct AddedSeeds {
    std::vector<std::string> seeds; ///< the new seeds, in order
    int trials = 0; ///< trials added: arms × new seeds
};

/// Adds seeds to experiment `sweepId` of `database` so that it has `seeds` in all (a total, not a count to add): the
/// new ones continue after its largest seed ([0, 1, 2] to 5 seeds adds 3 and 4). In one transaction it records them
/// in the stored text (`added_seeds:`, the rest of the text as it was), adds a pending trial for every arm × new seed
/// and marks the experiment cancelled (stopped, resumable); resumeExperiment() then runs them (per_seed: their SFT
/// starts first), leaving the finished trials as they are. Torch-free: the workbench can call it, then resume.
/// Throws std::invalid_argument naming the experiment: no such sweep, a sweep without arms, an experiment that is
/// running, one whose trials do not sweep the seed, or `seeds` not more than it has.
AddedSeeds addExperimentSeeds(const std::string& database, std::int64_t sweepId, int seeds);

/// One metric of one arm over its seeds, iteration by iteration (only iterations every seed so far has).
struct ArmCurve {
    std::string arm;
    std::string metric;
    std::vector<std::int64_t> iterations;
    std::vector<double> mean, std;
    int seeds = 0; ///< runs with at least one value
};

/// One arm's trial: its seed, run and state.
struct ArmRun {
    std::string arm;
    std::string seed;
    std::int64_t runId = 0; ///< 0 before it started
    TrialStatus status = TrialStatus::Pending;
    std::int64_t iterationsDone = 0;
    std::int64_t iterations = 0;
};

/// The last value of a metric per arm: mean ± std over the seeds that have it.
struct ArmFinal {
    std::string arm;
    std::string metric;
    std::vector<double> values; ///< per seed, in seed order
    double mean = 0.0, std = 0.0;
};

/// One probe over an experiment's probe tables: mean ± std over the contamination seeds of each column.
struct ProbeSummary {
    std::string probe;
    std::int64_t features = 0;
    int seeds = 0;
    double clean = 0.0, cleanStd = 0.0;
    double contaminated = 0.0, contaminatedStd = 0.0;
    double both = 0.0, bothStd = 0.0; ///< AUROC on clean and contaminated records together
    double drop = 0.0, dropStd = 0.0; ///< clean - contaminated, per seed
    double ece = 0.0, brier = 0.0;
};

/// The value of a probe claim metric (probeClaimMetrics()) in one probe table row; nullopt for another metric.
std::optional<double> probeValue(const ProbeResult& row, const std::string& metric);

/// rliable's aggregates of one arm on one claim measure (claimMeasure()), over its runs: one score per seed.
struct ArmAggregate {
    std::string measure; ///< e.g. "eval/success at end"
    std::string arm;
    int runs = 0;
    double mean = 0.0, std = 0.0;
    Estimate iqm;
    /// For success rates and returns at a point (scores in [0, 1], higher is better): the gap to 1. nullopt otherwise.
    std::optional<Estimate> optimalityGap;
};

/// A performance profile of one arm on one claim measure: over eval tasks (the fraction of tasks whose success over
/// the seeds exceeds tau) where every seed has per-task outcomes, else over runs (rliable's run-score distribution).
struct ArmProfile {
    std::string measure;
    std::string arm;
    bool overTasks = false;
    int runs = 0, tasks = 0;
    PerformanceProfile profile;
};

struct ExperimentReport {
    std::int64_t sweepId = 0;
    TrialStatus status = TrialStatus::Pending; ///< the sweep's
    bool partial = false; ///< some trial is not finished: the numbers are the runs so far
    SweepSpec spec; ///< parsed from the stored text
    std::string storedText;
    std::vector<ArmRun> runs;
    std::vector<ArmCurve> curves;
    std::vector<ArmFinal> finals;
    std::vector<ClaimResult> claims;
    std::vector<std::string> measures; ///< the claims' measures that are not probe tables, in claim order, once each
    std::vector<ArmAggregate> aggregates; ///< per measure, per arm (arm order)
    std::vector<ArmProfile> profiles; ///< per measure, per arm with values
    std::vector<std::string> warnings; ///< e.g. a metric no run has
    /// `probes:`: the stored probe tables (every row, by seed), their summary in probeNames() order, and the seeds
    /// not computed yet (the report is partial until they are).
    std::vector<ProbeResult> probeRows;
    std::vector<ProbeSummary> probes;
    std::vector<std::int64_t> probeSeedsMissing;
};

/// Reads sweep `sweepId` of `store` and computes its report. Throws std::invalid_argument when there is no such
/// sweep, or it has no arms (not an experiment).
ExperimentReport buildReport(Store& store, std::int64_t sweepId);

/// report.md: the experiment, its runs, the final-metric table, every claim with its numbers and verdict, the
/// figures (`figure` names the file of each metric's figure, as written by writeReport), the stored experiment file
/// and the command that reproduces it.
std::string reportMarkdown(const ExperimentReport& report, const std::string& database);
/// The axes of a metric's figure: the iteration and value ranges over every arm's mean ± std band (the value range
/// padded by 5%), or [0, 1] x [0, 1] when no arm has a value (`empty`). Shared by the SVG and the workbench's painter.
struct CurveFrame {
    double xMin = 0.0, xMax = 1.0, yMin = 0.0, yMax = 1.0;
    bool empty = true;
};
CurveFrame curveFrame(const ExperimentReport& report, const std::string& metric);
/// "Nice" axis ticks (steps of 1, 2, 2.5 or 5 times a power of ten) covering [lo, hi].
std::vector<double> niceTicks(double lo, double hi, int wanted = 5);

/// One metric's learning curves, an arm per colour with a mean ± std band, as a standalone SVG document.
std::string curveSvg(const ExperimentReport& report, const std::string& metric);
/// The file name of a metric's figure ("eval_success.svg").
std::string figureName(const std::string& metric, const std::string& extension = "svg");

/// The performance profiles of one claim measure, an arm per colour with its 95% bootstrap band, as a standalone SVG
/// document.
std::string profileSvg(const ExperimentReport& report, const std::string& measure);
/// The file name of a measure's profile figure ("profile_eval_success_at_end.svg").
std::string profileFigureName(const std::string& measure);

/// Paints one metric's figure of `report` as a PNG file at `path` (the same picture as curveSvg()); throws
/// std::runtime_error naming the file when it cannot.
using PngPainter = std::function<void(const ExperimentReport& report, const std::string& metric, const std::string& path)>;

/// The figures module's painter: libcreditlab_figures.so (Qt Gui, built with the workbench), opened on the first call
/// and found as the training module is (module.h; $CREDITLAB_FIGURES_MODULE first). The CLI links no Qt; this is how
/// `creditlab-cli report` writes PNG figures. Call it on the main thread: the module starts an offscreen
/// QGuiApplication when the process has no Qt application. Throws std::runtime_error naming every place it looked
/// when the module is absent (a build without the workbench).
PngPainter figuresModulePainter();
/// The file name of the figures module ("libcreditlab_figures.so").
const char* figuresModuleName();

/// Writes report.md, one SVG per metric and one profile SVG per claim measure into `directory` (created if needed), and
/// one PNG per metric when `png` is set, each file whole or not at all (written beside and renamed). Returns the paths
/// written. Throws std::runtime_error naming the file that failed.
std::vector<std::string> writeReport(const ExperimentReport& report, const std::string& directory,
    const std::string& database, const PngPainter& png = {});

} // namespace creditlab::learn
