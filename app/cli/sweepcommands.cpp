// sweep: a grid or random search over trainer keys, crossed with seeds, trials run in parallel workers.
#include "commands.h"

#include "core/learn/api/experiment.h"
#include "core/learn/api/sweep.h"
#include "core/storage/paths.h"
#include "core/storage/store.h"

#include <filesystem>

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace creditlab::cli {

namespace {

struct SweepCliOptions {
    std::string config;
    DbOption db;
    std::string device;
    int workers = 0;
    std::int64_t resume = -1;
    bool quiet = false;
};

const char* const kFormat = R"(Sweep file (YAML):
  name: has-alpha              # default: the file's stem
  base: household-has.yaml     # train config: a path relative to the sweep file, else a shipped config name
  set:                         # fixed overrides for every trial (dotted keys or nested maps)
    rl.iterations: 20
  grid:                        # cartesian product over these keys (lists of values)
    credit.alpha: [1, 0.75, 0.5, 0.25]
  random:                      # optional, instead of or crossed with the grid: `trials` samples
    trials: 8
    seed: 0
    params:
      rl.lr: {log_uniform: [1.0e-5, 1.0e-3]}
      credit.lambda: {uniform: [0, 1]}
      kl.mode: {choice: [fixed, adaptive]}
      rl.group_size: {int: [4, 16]}
  seeds: [0, 1, 2]             # crossed with every point (key "seed"); default: the base's seed
  objective: eval/success      # a metric; a trial scores its best (max) value over iterations
  objective_mode: best         # or last
  workers: 2                   # parallel trials (--workers overrides)
  threads: 1                   # trainer threads per trial; 0 = cores / workers
Trials: grid points (first key slowest) x random samples x seeds, each a run of kind 'trial' named
"<name>-<key>=<value>-...". Every trial's config is validated before anything runs; workers x threads must
fit this machine's cores. Ctrl+C stops the running trials after their current iteration; --resume SWEEP
continues them and runs the rest.)";

std::string pointText(const learn::TrialProgress& t)
{
    std::string out;
    for (const auto& [k, v] : t.point)
        out += (out.empty() ? "" : " ") + k + "=" + v;
    return out.empty() ? "-" : out;
}

std::string objectiveText(const std::optional<double>& objective)
{
    if (!objective)
        return "-";
    char out[32];
    std::snprintf(out, sizeof out, "%.4f", *objective);
    return out;
}

void printTable(const learn::SweepResult& result)
{
    std::size_t width = 5;
    for (const auto& t : result.trials)
        width = std::max(width, pointText(t).size());
    std::printf("%5s  %-*s  %6s  %-9s  %s\n", "TRIAL", static_cast<int>(width), "POINT", "RUN", "STATUS", "OBJECTIVE");
    for (const auto& t : result.trials)
        std::printf("%5d  %-*s  %6s  %-9s  %s\n", t.index + 1, static_cast<int>(width), pointText(t).c_str(),
            t.runId > 0 ? std::to_string(t.runId).c_str() : "-", std::string(trialStatusName(t.status)).c_str(), objectiveText(t.objective).c_str());
}

/// Runs a sweep or an experiment (`spec`), or resumes one (`o.resume`), with a progress line and a line per
/// finished trial; prints the results table and throws when it stopped or trials failed.
void runTrials(const SweepCliOptions& o, const std::optional<learn::SweepSpec>& spec, const char* what);

void runSweepCommand(const SweepCliOptions& o)
{
    std::optional<learn::SweepSpec> spec;
    if (o.resume < 0) {
        if (o.config.empty())
            throw CLI::ValidationError("sweep", "needs --config FILE (or --resume SWEEP); see --help");
        spec = learn::SweepSpec::load(o.config);
        if (spec->isExperiment())
            throw CLI::ValidationError("sweep", o.config + " is an experiment (it has arms): creditlab-cli experiment run " + o.config);
        std::printf("sweep '%s': %zu trials over %s from %s; objective %s (%s); database %s\n", spec->name.c_str(),
            spec->trials.size(), spec->keys.empty() ? "nothing (base + set)" : [&] {
                std::string keys;
                for (const auto& k : spec->keys)
                    keys += (keys.empty() ? "" : ", ") + k;
                return keys;
            }().c_str(),
            spec->basePath.c_str(), spec->objective.c_str(), spec->objectiveMode.c_str(), o.db.resolved().c_str());
        std::fflush(stdout);
    }
    runTrials(o, spec, "sweep");
}

void runTrials(const SweepCliOptions& o, const std::optional<learn::SweepSpec>& spec, const char* what)
{
    learn::SweepOptions options;
    options.database = o.db.resolved();
    options.device = o.device;
    options.workers = o.workers;

    ProgressLine progress(what);
    std::vector<std::optional<TrialStatus>> lastStatus;
    double elapsed = 0.0;
    int probeTablesShown = -1; // the probe tables stored at the last callback (-1 before the first)
    std::string sftSeed; // per_seed: the seed whose SFT start trains, for the SFT's line
    std::string memoryNote; // the last one printed
    const auto callback = [&](const learn::SweepProgress& p) {
        if (p.sftFraction >= 0.0) {
            sftSeed = p.sftSeed;
            return; // the SFT's own line (sftCallback below) shows it
        }
        if (p.memoryNote != memoryNote) { // fewer trials at once than `workers`: said even with --quiet
            memoryNote = p.memoryNote;
            if (!memoryNote.empty()) {
                progress.clear();
                std::fprintf(stderr, "%s\n", memoryNote.c_str());
            }
        }
        elapsed = p.elapsedSeconds;
        lastStatus.resize(p.trials.size());
        for (const auto& t : p.trials) {
            auto& last = lastStatus[static_cast<std::size_t>(t.index)];
            if (!o.quiet && hasEnded(t.status) && last && *last != t.status) {
                progress.clear();
                std::printf("trial %d/%d  %s  run %lld  %s  objective %s%s%s\n", t.index + 1, p.total,
                    pointText(t).c_str(), static_cast<long long>(t.runId), std::string(trialStatusName(t.status)).c_str(),
                    objectiveText(t.objective).c_str(), t.error.empty() ? "" : "  ", t.error.c_str());
                std::fflush(stdout);
            }
            last = t.status;
        }
        if (!o.quiet && p.probeTablesDone > probeTablesShown && probeTablesShown >= 0) {
            progress.clear();
            std::printf("probe table %d/%d stored\n", p.probeTablesDone, p.probeTablesTotal);
            std::fflush(stdout);
        }
        probeTablesShown = p.probeTablesDone;
        if (!p.probeActivity.empty()) {
            progress.update(p.probeTablesTotal > 0 ? static_cast<double>(p.probeTablesDone) / p.probeTablesTotal : 1.0,
                p.probeActivity, -1.0);
            return;
        }
        double fraction = 0.0;
        std::string running;
        for (const auto& t : p.trials) {
            fraction += hasEnded(t.status) ? 1.0 : t.fraction;
            if (t.status == TrialStatus::Running)
                running += " #" + std::to_string(t.index + 1) + ":"
                    + (t.phase == Phase::Rl ? std::to_string(t.iteration) + "/" + std::to_string(t.iterations)
                                            : std::string(phaseName(t.phase)));
        }
        progress.update(p.total > 0 ? fraction / p.total : 1.0,
            std::to_string(p.done) + "/" + std::to_string(p.total) + " trials" + (running.empty() ? "" : ",") + running,
            p.etaSeconds);
    };
    ProgressLine sftProgress("SFT start");
    const auto sftCallback = [&](const learn::TrainProgress& p) {
        if (p.phase == Phase::Sft && p.steps > 0)
            sftProgress.update(static_cast<double>(p.step) / static_cast<double>(p.steps),
                (sftSeed.empty() ? std::string() : "seed " + sftSeed + ": ") + std::to_string(p.step) + "/"
                    + std::to_string(p.steps) + " SFT steps",
                p.etaSeconds);
        return !g_interrupted.load();
    };
    const auto result = spec ? learn::runExperiment(*spec, options, callback, sftCallback, &g_interrupted)
                             : learn::resumeExperiment(o.resume, options, callback, sftCallback, &g_interrupted);
    sftProgress.clear();
    progress.clear();
    std::printf("%s %lld %s after %s\n", what, static_cast<long long>(result.sweepId), std::string(trialStatusName(result.status)).c_str(),
        formatClock(elapsed).c_str());
    printTable(result);
    std::fflush(stdout);

    const std::string resume = std::string("creditlab-cli ") + (std::string(what) == "experiment" ? "experiment resume " : "sweep --resume ")
        + std::to_string(result.sweepId) + " --db " + options.database;
    if (result.status == TrialStatus::Cancelled && result.stoppedInSft)
        throw std::runtime_error(std::string(what) + " " + std::to_string(result.sweepId)
            + " stopped during an SFT start, before any trial; continue with: " + resume);
    if (result.status == TrialStatus::Cancelled) {
        int done = 0;
        for (const auto& t : result.trials)
            done += hasEnded(t.status);
        throw std::runtime_error(std::string(what) + " " + std::to_string(result.sweepId) + " stopped with " + std::to_string(done)
            + " of " + std::to_string(result.trials.size()) + " trials done; continue with: " + resume);
    }
    if (result.status == TrialStatus::Failed) {
        int failed = 0;
        std::string first;
        for (const auto& t : result.trials)
            if (t.status == TrialStatus::Failed && failed++ == 0)
                first = "trial " + std::to_string(t.index + 1) + ": " + t.error;
        throw std::runtime_error(
            std::to_string(failed) + " of " + std::to_string(result.trials.size()) + " trials failed (" + first + ")");
    }
}

const char* const kExperimentFormat
    = R"(Experiment file (YAML): a sweep whose trials are arms x seeds, every arm warm-started from one
shared SFT run, with claims judged over seeds.
  name: triage
  paper: "seed 000, TRIAGE"        # where the claim comes from (shown in the report)
  quote: "TRIAGE improves success over GRPO"
  base: household-triage.yaml      # train config every arm starts from
  set:                             # for every arm (and the shared SFT): the budget, sizes
    rl.iterations: 30
  arms:                            # name: overrides ({} = the base as it is)
    triage: {}
    grpo: {credit.method: grpo}
  seeds: [0, 1, 2]
  metrics: [eval/success, eval/invalid_rate]
  claims:
    - triage > grpo on eval/success at end          # > < >= <=; "at end", "at N" or "auc"
    - triage >= grpo on eval/success within 0.05    # not worse by more than 0.05
    - eval/invalid_rate(grpo) rises faster than eval/invalid_rate(triage)   # = grpo > triage on ... auc
  sft: shared                      # trained once before the trials (default); per_seed: one per seed, with that
                                   # seed, shared by the arms of the seed; none: each trial its own; or a run id
  probes: {seeds: [42, 43, 44], episodes: 600}   # PAIR's probe table on the shared SFT policy, one per seed,
                                   # after the trials; claims on probe/auroc_clean, auroc_contaminated, auroc_union,
                                   # auroc_drop, ece or brier compare two probes: last_token > attention on probe/auroc_drop
  smoke:                           # --scale smoke: the same pipeline in minutes (checks it runs, not the claim)
    set: {sft.expert_episodes: 20, rl.iterations: 2}
    seeds: [0, 1]
    probes: {seeds: [42, 43], episodes: 20}
  workers: 2
  threads: 1
An arm may not change sft.*, policy.* or env.* keys while the SFT start is shared (or per_seed). Verdicts:
supported when the 95% t interval of the paired seed differences (each a mean over the shared eval tasks where the
episodes are stored) excludes 0 in the claimed direction, contradicted when it excludes 0 the other way, inconclusive
otherwise (and with fewer than 2 seeds per arm). 'experiment plan' says how many seeds a claim needs.
Ctrl+C stops the trials after their current iteration; 'experiment resume ID' continues. 'experiment extend ID
--seeds N' gives a stopped or finished experiment N seeds in all, training only the new seeds' trials.)";

} // namespace

std::vector<std::string> shippedExperiments()
{
    std::vector<std::string> out;
    for (const auto& dir : learn::shippedExperimentDirs()) {
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
            if (entry.path().extension() == ".yaml")
                out.push_back(entry.path().string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string experimentPath(const std::string& fileOrName)
{
    std::error_code ec;
    if (std::filesystem::is_regular_file(fileOrName, ec))
        return fileOrName;
    for (const auto& path : shippedExperiments()) {
        const std::filesystem::path p(path);
        if (p.stem() == fileOrName || p.filename() == fileOrName)
            return path;
    }
    std::string known;
    for (const auto& path : shippedExperiments())
        known += (known.empty() ? "" : ", ") + std::filesystem::path(path).stem().string();
    throw std::runtime_error(fileOrName + ": no such file, nor a shipped experiment" + (known.empty() ? std::string() : " (shipped: " + known + ")"));
}

namespace {

void printVerdicts(const std::string& database, std::int64_t sweepId)
{
    Store store(database, Store::Access::ReadOnly);
    const auto report = learn::buildReport(store, sweepId);
    for (const auto& c : report.claims) {
        std::printf("claim  %-48s  %s", c.claim.canonical().c_str(), learn::verdictName(c.verdict));
        if (!c.left.empty() && !c.right.empty())
            std::printf("  (difference %+.4f, 95%% CI [%.4f, %.4f], n = %zu / %zu, %s)", c.interval.difference,
                c.interval.low, c.interval.high, c.left.size(), c.right.size(),
                learn::pairingDesignName(c.data.design));
        if (!c.note.empty())
            std::printf("  %s", c.note.c_str());
        std::printf("\n");
    }
    std::printf("report: creditlab-cli report --experiment %lld --db %s --output DIR\n", static_cast<long long>(sweepId),
        database.c_str());
    std::fflush(stdout);
}

} // namespace

void addExperimentCommand(CLI::App& app)
{
    CLI::App* cmd = app.add_subcommand("experiment", "Run an experiment: arms x seeds from one SFT start, claims judged over seeds");
    cmd->require_subcommand(1);
    cmd->footer(kExperimentFormat);

    auto o = std::make_shared<SweepCliOptions>();
    auto scale = std::make_shared<std::string>();
    auto sftRun = std::make_shared<std::int64_t>(0);
    CLI::App* run = cmd->add_subcommand("run", "Run an experiment file or a shipped experiment by name");
    run->add_option("experiment", o->config, "FILE, or the NAME of a shipped experiment (experiment list)")
        ->required()
        ->type_name("FILE|NAME");
    run->add_option("--db", o->db.path, "Database (default: " + defaultDatabasePath() + ")")->type_name("FILE");
    run->add_option("--workers,-j", o->workers, "Parallel trials (overrides the file's workers)")
        ->check(CLI::Range(1, 256))
        ->type_name("N");
    run->add_option("--scale", *scale, "full (the default), or smoke: the same pipeline in minutes")
        ->check(CLI::IsMember({ "full", "smoke" }))
        ->type_name("SCALE");
    run->add_option("--device", o->device, "cpu, cuda or cuda:N (default: CUDA when LibTorch has it)")->type_name("DEVICE");
    run->add_option("--sft", *sftRun,
           "Warm-start every arm from this SFT run of the database instead of the file's sft: (e.g. the SFT another "
           "experiment on the same base trained)")
        ->check(CLI::PositiveNumber)
        ->type_name("RUN");
    run->add_flag("--quiet,-q", o->quiet, "No line per finished trial");
    run->callback([o, scale, sftRun] {
        const std::string path = experimentPath(o->config);
        auto spec = learn::SweepSpec::load(path, scale->empty() ? std::nullopt : std::optional<std::string>(*scale));
        if (!spec.isExperiment())
            throw CLI::ValidationError("experiment", path + " has no arms: it is a sweep (creditlab-cli sweep --config " + path + ")");
        if (*sftRun > 0) {
            Store store(o->db.resolved()); // read-write: the experiment writes to it next (and an older file is upgraded)
            const auto sft = store.run(*sftRun);
            if (!sft || sft->status != RunStatus::Finished)
                throw CLI::ValidationError("experiment", "--sft " + std::to_string(*sftRun) + ": no finished run with that id in " + o->db.resolved());
            spec.sft = std::to_string(*sftRun);
            spec.sftRuns.clear();
        }
        std::printf("experiment '%s' (%s scale): %zu arms x %zu seeds = %zu trials from %s; SFT start %s; %zu claims; "
                    "database %s\n",
            spec.name.c_str(), spec.scale.c_str(), spec.arms.size(),
            spec.trials.size() / std::max<std::size_t>(1, spec.arms.size()), spec.trials.size(), spec.basePath.c_str(),
            (spec.sft == "per_seed" ? spec.sftText() : spec.sft).c_str(), spec.claims.size(), o->db.resolved().c_str());
        std::fflush(stdout);
        try {
            runTrials(*o, spec, "experiment");
        } catch (...) {
            // Stopped or with failed trials: the claims on what finished still say where it stands.
            const std::string db = o->db.resolved();
            Store store(db, Store::Access::ReadOnly);
            const auto sweeps = store.sweeps();
            if (!sweeps.empty() && sweeps.back().name == spec.name)
                printVerdicts(db, sweeps.back().id);
            throw;
        }
        Store store(o->db.resolved(), Store::Access::ReadOnly);
        printVerdicts(o->db.resolved(), store.sweeps().back().id);
    });

    auto r = std::make_shared<SweepCliOptions>();
    CLI::App* resume = cmd->add_subcommand("resume", "Continue a stopped experiment: its pending and stopped trials");
    resume->add_option("id", r->resume, "The experiment's number (creditlab-cli report lists none: see the Sweeps page or runs)")
        ->required()
        ->check(CLI::PositiveNumber)
        ->type_name("ID");
    resume->add_option("--db", r->db.path, "Database (default: " + defaultDatabasePath() + ")")->type_name("FILE");
    resume->add_option("--workers,-j", r->workers, "Parallel trials")->check(CLI::Range(1, 256))->type_name("N");
    resume->add_option("--device", r->device, "cpu, cuda or cuda:N")->type_name("DEVICE");
    resume->callback([r] {
        runTrials(*r, std::nullopt, "experiment");
        printVerdicts(r->db.resolved(), r->resume);
    });

    addExperimentPlanCommand(*cmd);

    auto x = std::make_shared<SweepCliOptions>();
    auto seeds = std::make_shared<int>(0);
    CLI::App* extend = cmd->add_subcommand("extend",
        "Give a stopped or finished experiment more seeds: trains only the new seeds' trials (and, with sft: per_seed, "
        "their SFT starts)");
    extend->add_option("id", x->resume, "The experiment's number (printed by experiment run)")
        ->required()
        ->check(CLI::PositiveNumber)
        ->type_name("ID");
    extend
        ->add_option("--seeds", *seeds,
            "The number of seeds the experiment has afterwards, in all (not the number to add), more than it has; the "
            "new seeds continue after its largest: seeds [0, 1, 2] with --seeds 5 adds 3 and 4")
        ->required()
        ->check(CLI::Range(2, 100000))
        ->type_name("N");
    extend->add_option("--db", x->db.path, "Database (default: " + defaultDatabasePath() + ")")->type_name("FILE");
    extend->add_option("--workers,-j", x->workers, "Parallel trials")->check(CLI::Range(1, 256))->type_name("N");
    extend->add_option("--device", x->device, "cpu, cuda or cuda:N")->type_name("DEVICE");
    extend->add_flag("--quiet,-q", x->quiet, "No line per finished trial");
    extend->footer("The experiment is read from the database (its stored text), not from its file: a shipped "
                   "experiment's database extends as any other. Its stored text gets `added_seeds: [...]`, and the "
                   "new trials are those an experiment run with every seed from the start has, trained the same way.");
    extend->callback([x, seeds] {
        const auto added = learn::addExperimentSeeds(x->db.resolved(), x->resume, *seeds);
        std::string list;
        for (const auto& s : added.seeds)
            list += (list.empty() ? "" : ", ") + s;
        std::printf("experiment %lld: seed%s %s added, %d new trials; database %s\n", static_cast<long long>(x->resume),
            added.seeds.size() == 1 ? "" : "s", list.c_str(), added.trials, x->db.resolved().c_str());
        std::fflush(stdout);
        try {
            runTrials(*x, std::nullopt, "experiment");
        } catch (...) {
            printVerdicts(x->db.resolved(), x->resume);
            throw;
        }
        printVerdicts(x->db.resolved(), x->resume);
    });

    CLI::App* list = cmd->add_subcommand("list", "The shipped experiments, with the claims they test");
    list->callback([] {
        const auto files = shippedExperiments();
        if (files.empty())
            std::printf("no shipped experiments found (resources/experiments beside resources/configs)\n");
        for (const auto& path : files) {
            const auto spec = learn::SweepSpec::load(path);
            std::printf("%-22s %s; %zu arms x %zu seeds = %zu trials\n", std::filesystem::path(path).stem().c_str(),
                spec.paper.c_str(), spec.arms.size(), spec.trials.size() / std::max<std::size_t>(1, spec.arms.size()),
                spec.trials.size());
            for (const auto& c : spec.claims)
                std::printf("%-22s   claim: %s\n", "", c.text.c_str());
        }
    });
}

void addReportCommand(CLI::App& app)
{
    struct Options {
        std::int64_t experiment = 0;
        DbOption db;
        std::string output;
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand("report", "Write an experiment's report: report.md with SVG and PNG figures");
    cmd->add_option("--experiment,-e", o->experiment, "The experiment's number (printed by experiment run)")
        ->required()
        ->check(CLI::PositiveNumber)
        ->type_name("ID");
    cmd->add_option("--db", o->db.path, "Database (default: " + defaultDatabasePath() + ")")->type_name("FILE");
    cmd->add_option("--output,-o", o->output, "Folder for report.md and the figures (default: experiment-ID-report)")
        ->type_name("DIR");
    cmd->callback([o] {
        const std::string db = o->db.resolved();
        Store store(db, Store::Access::ReadOnly);
        const auto report = learn::buildReport(store, o->experiment);
        const std::string dir = o->output.empty() ? "experiment-" + std::to_string(o->experiment) + "-report" : o->output;
        // PNGs come from the figures module (Qt Gui); a build without the workbench has none, and the report is whole
        // without them (report.md shows the SVGs).
        learn::PngPainter png;
        try {
            png = learn::figuresModulePainter();
        } catch (const std::exception& e) {
            std::fprintf(stderr, "creditlab-cli: note: SVG figures only: %s\n", e.what());
        }
        for (const auto& path : learn::writeReport(report, dir, db, png))
            std::printf("wrote %s\n", path.c_str());
        for (const auto& c : report.claims)
            std::printf("claim  %-48s  %s\n", c.claim.canonical().c_str(), learn::verdictName(c.verdict));
        if (report.partial)
            std::printf("partial: the experiment is %s and not every trial has finished\n",
                std::string(trialStatusName(report.status)).c_str());
    });
}

void addSweepCommand(CLI::App& app)
{
    auto o = std::make_shared<SweepCliOptions>();
    CLI::App* cmd = app.add_subcommand("sweep", "Run a hyperparameter sweep: grid or random search, parallel trials");
    auto* config = cmd->add_option("--config,-c", o->config, "Sweep file (YAML); see below and resources/configs/")
                       ->type_name("FILE");
    cmd->add_option("--db", o->db.path, "Database (default: " + defaultDatabasePath() + ")")->type_name("FILE");
    cmd->add_option("--workers,-j", o->workers, "Parallel trials (overrides the file's workers)")
        ->check(CLI::Range(1, 256))
        ->type_name("N");
    cmd->add_option("--device", o->device, "cpu, cuda or cuda:N (default: CUDA when LibTorch has it)")
        ->type_name("DEVICE");
    auto* resume = cmd->add_option("--resume", o->resume, "Continue a stopped sweep: its pending and stopped trials")
                       ->check(CLI::NonNegativeNumber)
                       ->type_name("SWEEP");
    cmd->add_flag("--quiet,-q", o->quiet, "No line per finished trial (the results table only)");
    resume->excludes(config);
    cmd->footer(std::string(kFormat)
        + "\nAcross machines: 'creditlab-cli sweep trial --help' (one trial per scheduler task), then 'creditlab-cli "
          "merge'.");
    addSweepTrialCommand(*cmd);
    CLI::App* trial = cmd->get_subcommand("trial");
    cmd->callback([o, trial] {
        if (!trial->parsed())
            runSweepCommand(*o);
    });
}

} // namespace creditlab::cli
