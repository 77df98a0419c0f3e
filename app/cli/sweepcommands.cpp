// sweep: a grid or random search over trainer keys, crossed with seeds, trials run in parallel workers.
#include "commands.h"

#include "core/learn/sweep.h"
#include "core/paths.h"

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
            t.runId > 0 ? std::to_string(t.runId).c_str() : "-", t.status.c_str(), objectiveText(t.objective).c_str());
}

void runSweepCommand(const SweepCliOptions& o)
{
    learn::SweepOptions options;
    options.database = o.db.resolved();
    options.device = o.device;
    options.workers = o.workers;

    std::optional<learn::SweepSpec> spec;
    if (o.resume < 0) {
        if (o.config.empty())
            throw CLI::ValidationError("sweep", "needs --config FILE (or --resume SWEEP); see --help");
        spec = learn::SweepSpec::load(o.config);
        std::printf("sweep '%s': %zu trials over %s from %s; objective %s (%s); database %s\n", spec->name.c_str(),
            spec->trials.size(), spec->keys.empty() ? "nothing (base + set)" : [&] {
                std::string keys;
                for (const auto& k : spec->keys)
                    keys += (keys.empty() ? "" : ", ") + k;
                return keys;
            }().c_str(),
            spec->basePath.c_str(), spec->objective.c_str(), spec->objectiveMode.c_str(), options.database.c_str());
        std::fflush(stdout);
    }

    ProgressLine progress("sweep");
    std::vector<std::string> lastStatus;
    double elapsed = 0.0;
    const auto callback = [&](const learn::SweepProgress& p) {
        elapsed = p.elapsedSeconds;
        lastStatus.resize(p.trials.size());
        for (const auto& t : p.trials) {
            auto& last = lastStatus[static_cast<std::size_t>(t.index)];
            const bool ended = t.status == "finished" || t.status == "failed";
            if (!o.quiet && ended && last != t.status && !last.empty()) {
                progress.clear();
                std::printf("trial %d/%d  %s  run %lld  %s  objective %s%s%s\n", t.index + 1, p.total,
                    pointText(t).c_str(), static_cast<long long>(t.runId), t.status.c_str(),
                    objectiveText(t.objective).c_str(), t.error.empty() ? "" : "  ", t.error.c_str());
                std::fflush(stdout);
            }
            last = t.status;
        }
        double fraction = 0.0;
        std::string running;
        for (const auto& t : p.trials) {
            fraction += (t.status == "finished" || t.status == "failed") ? 1.0 : t.fraction;
            if (t.status == "running")
                running += " #" + std::to_string(t.index + 1) + ":"
                    + (t.phase == "rl" ? std::to_string(t.iteration) + "/" + std::to_string(t.iterations) : t.phase);
        }
        progress.update(p.total > 0 ? fraction / p.total : 1.0,
            std::to_string(p.done) + "/" + std::to_string(p.total) + " trials" + (running.empty() ? "" : ",") + running,
            p.etaSeconds);
    };
    const auto result = spec ? learn::runSweep(*spec, options, callback, &g_interrupted)
                             : learn::resumeSweep(o.resume, options, callback, &g_interrupted);
    progress.clear();
    std::printf("sweep %lld %s after %s\n", static_cast<long long>(result.sweepId), result.status.c_str(),
        formatClock(elapsed).c_str());
    printTable(result);
    std::fflush(stdout);

    const std::string resume
        = "creditlab-cli sweep --resume " + std::to_string(result.sweepId) + " --db " + options.database;
    if (result.status == "cancelled") {
        int done = 0;
        for (const auto& t : result.trials)
            done += t.status == "finished" || t.status == "failed";
        throw std::runtime_error("sweep " + std::to_string(result.sweepId) + " stopped with " + std::to_string(done)
            + " of " + std::to_string(result.trials.size()) + " trials done; continue with: " + resume);
    }
    if (result.status == "failed") {
        int failed = 0;
        std::string first;
        for (const auto& t : result.trials)
            if (t.status == "failed" && failed++ == 0)
                first = "trial " + std::to_string(t.index + 1) + ": " + t.error;
        throw std::runtime_error(
            std::to_string(failed) + " of " + std::to_string(result.trials.size()) + " trials failed (" + first + ")");
    }
}

} // namespace

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
    cmd->footer(kFormat);
    cmd->callback([o] { runSweepCommand(*o); });
}

} // namespace creditlab::cli
