#pragma once

// Hyperparameter sweeps: a grid and/or random search over any trainer key, crossed with seeds, run as
// parallel trials (each its own run of kind "trial") and recorded in the store. Torch-free header: the CLI
// and the GUI's sweep controller include it.

#include "core/learn/api/claims.h"
#include "core/learn/api/trainconfig.h"
#include "core/model/vocabulary.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace creditlab::learn {

/// One point of a sweep: the swept keys with their values (seed last when seeds are swept).
struct SweepTrialSpec {
    int index = 0; ///< position in the sweep, from 0
    std::vector<std::pair<std::string, std::string>> point;

    /// "credit.alpha=0.5,seed=1": what the store keeps as the trial's params.
    std::string paramsText() const;
    /// Parses paramsText() back; throws std::invalid_argument for a malformed text.
    static std::vector<std::pair<std::string, std::string>> parseParams(const std::string& text);
    /// The value of `key` in the point; empty when the point does not set it.
    std::string value(const std::string& key) const;
};

/// An arm of an experiment: a name and the overrides it applies on top of the base and `set`.
struct SweepArm {
    std::string name;
    std::vector<std::pair<std::string, std::string>> overrides;
    int line = 0; ///< in the file
};

/// A parsed and fully validated sweep file (see `creditlab-cli sweep --help` for the format). Every trial's
/// config (base + set + point) has been validated when parse() returns. Immutable value; any thread.
///
/// An experiment (`creditlab-cli experiment --help`) is a sweep with `arms`: its trials are arms × seeds (the point
/// key "arm" selects an arm's overrides), every arm warm-starts from one shared SFT run (or, with `sft: per_seed`,
/// from its seed's), and its `claims` are judged over seeds in a report.
struct SweepSpec {
    std::string name; ///< `name`, else the file's stem
    std::string source; ///< the file (or label) errors name
    std::string baseText; ///< the base train config as text
    std::string basePath; ///< where it came from ("inline" for a map under `base:`)
    std::string objective { metricnames::kEvalSuccess }; ///< the metric a trial is scored by
    std::string objectiveMode = "best"; ///< "best" (max over iterations) or "last"
    int workers = 1; ///< parallel trials
    int threads = 1; ///< per-trial trainer threads as written; 0 = cores / workers (see trialThreads())
    std::vector<std::pair<std::string, std::string>> fixed; ///< `set:`, applied to every trial
    std::vector<std::string> keys; ///< swept keys in order: grid keys, random keys, then "seed"
    std::vector<SweepTrialSpec> trials;
    std::string text; ///< the sweep file as given

    // Experiments.
    std::vector<SweepArm> arms; ///< non-empty for an experiment
    std::vector<std::string> metrics; ///< compared per arm in the report (default: the objective)
    std::vector<Claim> claims;
    std::string paper; ///< where the claim comes from (`paper:`), shown in the report
    std::string quote; ///< the claim as the paper states it (`quote:`)
    std::string scale = "full"; ///< "full", or "smoke": `smoke:` applied (its `set:` and `seeds:`)
    /// The SFT start: "shared" (trained once by the experiment, then every arm warm-starts from it), "per_seed" (one
    /// trained per seed, with that seed, before the trials; the arms of a seed warm-start from it: `sftRuns`), "none"
    /// (each trial trains its own) or a run id (an SFT run already in the database). A file writes per_seed as
    /// `sft: per_seed`, or as a map seed -> run (`sft: {0: 12, 1: 15}`): the starts given or trained so far, which is
    /// how the stored text records each seed's SFT run in the transaction that creates it. Why per_seed: with one
    /// shared start the spread over seeds is the RL's alone; per_seed's includes the SFT's, so a claim holds over
    /// both.
    std::string sft = "shared";
    /// per_seed: each seed's SFT run, trained or given so far; a seed without one trains it before the trials.
    std::map<std::int64_t, std::int64_t> sftRuns;
    /// `added_seeds:` (experiments): seeds appended after `seeds:` (smoke's at smoke scale). `experiment extend`
    /// records the seeds it adds here, leaving the file's own text as it was.
    std::vector<std::int64_t> addedSeeds;
    /// `probes:` (experiments): PAIR's probe table (pair.md Table 1) on the shared SFT policy, one table per
    /// contamination seed, computed after the trials. Its probes are the "arms" of the probe claims, whose metric
    /// is one of probeClaimMetrics(), e.g. `last_token > attention on probe/auroc_drop`.
    struct Probes {
        std::vector<std::int64_t> seeds;
        std::int64_t episodes = 600; ///< contaminated household episodes per table
    };
    std::optional<Probes> probes;

    bool isExperiment() const { return !arms.empty(); }
    /// The shared SFT run's config (experiments with sft "shared"): the base with `set` (and smoke's), no RL, named
    /// "<name>-sft". With a `seed` (sft "per_seed"), that seed's: the same with `seed` set, named "<name>-sft-seed=S".
    TrainConfig sftConfig(const std::string& seed = {}) const;
    /// The run name sftConfig(seed) gives.
    std::string sftRunName(const std::string& seed = {}) const;
    /// The seeds of the trials, in the order they first appear (`seeds:`, then `added_seeds:`); empty when the
    /// trials do not sweep the seed.
    std::vector<std::string> seeds() const;
    /// The SFT start in words, e.g. "run 12", "one per seed (seed 0: run 12, seed 1: not trained yet)".
    std::string sftText() const;

    /// Parses and validates a sweep. `baseDir` is where a relative `base:` path is looked for first (then the
    /// shipped config folders). Throws ConfigError naming `source`, the line and the key, or the trial whose
    /// config is invalid.
    /// `scale`, when given, overrides the file's `scale:` ("full" or "smoke").
    static SweepSpec parse(const std::string& yamlText, const std::string& source, const std::string& baseDir,
        const std::optional<std::string>& scale = std::nullopt);
    /// Reads and parses a file; throws ConfigError naming the path when it cannot be read.
    static SweepSpec load(const std::string& path, const std::optional<std::string>& scale = std::nullopt);

    /// The trial's full config: base + set + point, with the sweep's thread count and the run name
    /// "<sweep>-<point>". Throws ConfigError (parse() has already checked every trial).
    TrainConfig trialConfig(const SweepTrialSpec& trial) const;
    /// The run name of a trial, e.g. "has-alpha-alpha=0.5-seed=1".
    std::string trialRunName(const SweepTrialSpec& trial) const;
    /// Threads per trial: `threads`, or cores / workers (at least 1) when it is 0.
    int trialThreads() const;
    /// Throws ConfigError when workers × threads per trial exceed this machine's cores.
    void checkResources() const;
    /// The sweep as the store keeps it: the file as given with `base:` replaced by the resolved base
    /// config inline, so that the sweep can be resumed without the files it was read from; an experiment's
    /// `scale:`, `sft:` (the shared SFT run once trained, per_seed's map of runs) and `added_seeds:` are written as
    /// they are now, on lines of their own at the end.
    std::string storedText() const;

private:
    std::string storedSweepText() const;
};

/// The folders holding the shipped configs (resources/configs): $CREDITLAB_CONFIG_DIR, the install's
/// share/creditlab/configs and resources/configs above the executable (a build tree), those that exist.
std::vector<std::string> shippedConfigDirs();
/// The folders holding the shipped experiments: resources/experiments beside each of shippedConfigDirs().
std::vector<std::string> shippedExperimentDirs();

/// One trial's state, a value snapshot.
struct TrialProgress {
    int index = 0;
    std::int64_t trialId = 0; ///< the store's trial row
    std::vector<std::pair<std::string, std::string>> point;
    TrialStatus status = TrialStatus::Pending;
    std::int64_t runId = 0; ///< 0 until the trial's run exists
    Phase phase = Phase::Setup; ///< while running: Setup, then the trainer's (Sft, Rl, Waiting); Done once ended
    std::int64_t iteration = 0;
    std::int64_t iterations = 0;
    double fraction = 0.0; ///< of the trial done, in [0, 1]
    double etaSeconds = -1.0; ///< of the trial's current phase; negative when unknown
    std::optional<double> objective;
    std::string error; ///< why it failed
};

/// A sweep's state, a value snapshot (safe to copy across threads).
struct SweepProgress {
    std::int64_t sweepId = 0;
    std::vector<TrialProgress> trials;
    int done = 0; ///< trials finished or failed
    int total = 0;
    double elapsedSeconds = 0.0;
    double etaSeconds = -1.0; ///< for the whole sweep; negative when unknown
    /// An experiment's probe tables (`probes:`), computed after the trials: tables stored of those planned, and the
    /// one being computed ("" when none is), e.g. "probe table 2/3 (seed 43): features 3200/10000".
    int probeTablesDone = 0;
    int probeTablesTotal = 0;
    std::string probeActivity;
    /// The trials run at once, and why fewer than the sweep's `workers` when memory is short (trialmemory.h: "memory:
    /// 2 trials at once need about 17.2 GiB and 11.0 GiB is available: running 1 at a time"); empty otherwise.
    int workers = 0;
    std::string memoryNote;
    /// An experiment's SFT starts while they train, before any trial (the trials all pending): the share of their
    /// steps done (per_seed: of the starts this call trains, each counted alike), with elapsedSeconds and etaSeconds
    /// the current SFT run's own; negative otherwise.
    double sftFraction = -1.0;
    /// per_seed, while sftFraction is set: the seed whose SFT start trains ("" for the shared start).
    std::string sftSeed;
};

/// Called from the worker threads, one call at a time (serialized by a mutex), when a trial changes state
/// and at most about every 100 ms per running trial. Must not block for long.
using SweepCallback = std::function<void(const SweepProgress&)>;

struct SweepResult {
    std::int64_t sweepId = 0;
    TrialStatus status = TrialStatus::Pending; ///< Finished (every trial), Cancelled (stopped; resumable) or Failed
    std::vector<TrialProgress> trials;
    int probeTablesDone = 0; ///< an experiment's probe tables stored (of probeTablesTotal planned)
    int probeTablesTotal = 0;
    bool stoppedInSft = false; ///< an experiment stopped during an SFT start (before any trial; resumable)
};

struct SweepOptions {
    std::string database;
    std::string device; ///< as TrainOptions::device
    int workers = 0; ///< overrides the sweep's `workers` when > 0
};

/// Creates the sweep and its trials in the store and runs them, `workers` at a time, each on its own
/// std::thread with its own Store and Trainer; each trial is a run of kind "trial" named "<sweep>-<point>".
/// Blocks the calling thread until every trial has ended or the stop flag (any thread) has stopped the
/// running ones after their current iteration, leaving the rest pending. A failing trial is recorded failed
/// with its error and the others continue. Throws ConfigError for too many threads, std::exception for a
/// store that cannot be opened.
SweepResult runSweep(const SweepSpec& spec, const SweepOptions& options, const SweepCallback& callback = {},
    const std::atomic<bool>* stop = nullptr);

/// Runs the pending and cancelled trials of sweep `sweepId` again (cancelled ones continue from their
/// checkpoints), as runSweep does; an experiment stopped during an SFT start finishes its SFT starts first
/// (resumeExperiment() of experiment.h). Throws std::invalid_argument when there is no such sweep.
SweepResult resumeSweep(std::int64_t sweepId, const SweepOptions& options, const SweepCallback& callback = {},
    const std::atomic<bool>* stop = nullptr);

/// The objective of a run from its metrics: the maximum ("best") or the last value of `metric`; nullopt
/// when the run has no such metric. Opens its own connection; any thread.
std::optional<double> trialObjective(
    const std::string& database, std::int64_t runId, const std::string& metric, const std::string& mode);

} // namespace creditlab::learn
