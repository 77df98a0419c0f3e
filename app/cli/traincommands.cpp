// train: SFT warm start, then RL with any credit method, headless.
#include "commands.h"
#include "localranks.h"

#include "core/credit/params.h"
#include "core/learn/torch/engine/trainer.h"
#include "core/storage/paths.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <spdlog/spdlog.h>

namespace creditlab::cli {

namespace {

struct TrainCliOptions {
    std::string config;
    std::vector<std::string> sets;
    DbOption db;
    std::string device;
    std::int64_t resume = -1;
    bool listKeys = false;
    bool quiet = false;
    int nproc = 1;
    double rankTimeout = 300.0;
};

double metricOf(const std::vector<std::pair<std::string, double>>& metrics, std::string_view name)
{
    for (const auto& [k, v] : metrics)
        if (k == name)
            return v;
    return std::nan("");
}

/// One line per finished iteration on stdout: the figures a researcher watches.
void printIteration(const learn::TrainProgress& p)
{
    const auto& m = p.metrics;
    const double evalSuccess = metricOf(m, metricnames::kEvalSuccess);
    std::printf("iter %4lld/%lld  success %.3f  turns %5.2f  invalid %.3f  kl %.4f  entropy %.3f  clip %.3f  "
                "%.0f tok/s  %.1fs%s%s  ETA %s\n",
        static_cast<long long>(p.iteration), static_cast<long long>(p.iterations), metricOf(m, metricnames::kRolloutSuccess),
        metricOf(m, metricnames::kRolloutTurns), metricOf(m, metricnames::kRolloutInvalidRate), metricOf(m, metricnames::kTrainKl),
        metricOf(m, metricnames::kTrainEntropy), metricOf(m, metricnames::kTrainClipFraction), metricOf(m, metricnames::kThroughputGenTokens),
        metricOf(m, metricnames::kTimeTotal), std::isnan(evalSuccess) ? "" : "  eval ",
        std::isnan(evalSuccess) ? "" : std::to_string(evalSuccess).substr(0, 5).c_str(),
        formatClock(p.etaSeconds).c_str());
    std::fflush(stdout);
}

void listKeys()
{
    std::printf("Trainer keys (YAML maps flatten to dotted keys; --set key=value overrides):\n");
    for (const auto& spec : learn::TrainConfig::specs()) {
        const std::string range = spec.rangeText();
        std::printf("  %-28s %-7s = %-10s %s%s\n", spec.name.c_str(),
            spec.type == credit::ParamType::Choice ? "choice" : spec.typeName().c_str(),
            spec.defaultValue.empty() ? "\"\"" : spec.defaultValue.c_str(), spec.doc.c_str(),
            range.empty() ? "" : ("  " + range).c_str());
        if (spec.type == credit::ParamType::Choice)
            std::printf("  %-28s         %s\n", "", spec.typeName().c_str());
    }
    std::printf("\nSections validated against what they configure:\n"
                "  env.<key>     the environment's parameters ('creditlab-cli env list')\n"
                "  credit.<key>  the method's parameters ('creditlab-cli methods')\n"
                "  judge.<key>   the judge's parameters (e.g. judge.accuracy for judge.name: noisy)\n");
}

void runTraining(const TrainCliOptions& o)
{
    learn::TrainOptions options;
    options.database = o.db.resolved();
    options.device = o.device;
    options.launch = learn::dist::LaunchEnv::fromEnvironment();
    options.rankTimeoutSeconds = o.rankTimeout;
    // A data-parallel run's ranks other than 0 print nothing but their errors: rank 0 speaks for the run.
    const bool speaks = options.launch.rank == 0;

    std::unique_ptr<learn::Trainer> trainer;
    if (o.resume >= 0) {
        trainer = learn::Trainer::resume(o.resume, options, credit::splitAssignments(o.sets));
    } else {
        if (o.config.empty())
            throw CLI::ValidationError("train", "needs --config FILE (or --resume RUN); see --list-keys");
        const auto config = learn::TrainConfig::load(o.config, credit::splitAssignments(o.sets));
        trainer = std::make_unique<learn::Trainer>(config, options);
    }
    const auto& config = trainer->config();
    if (!speaks) {
        trainer->run({}, &g_interrupted);
        return;
    }
    std::printf("run %lld '%s': %s on %s with %s, judge %s; policy %lld parameters on %s; database %s\n",
        static_cast<long long>(trainer->runId()), config.runName().c_str(), o.resume >= 0 ? "resuming" : "training",
        config.envName().c_str(), config.method().c_str(), config.judgeName().c_str(),
        static_cast<long long>(trainer->parameterCount()), trainer->device().c_str(), options.database.c_str());
    if (trainer->world() > 1) // after the run's line, which scripts read first
        std::printf("data-parallel: %d ranks (%s), rank timeout %.0f s\n", trainer->world(),
            options.launch.source.c_str(), options.rankTimeoutSeconds);
    std::fflush(stdout);

    ProgressLine progress("train");
    const auto result = trainer->run(
        [&](const learn::TrainProgress& p) {
            if (p.phase == Phase::Sft && p.steps > 0 && p.metrics.empty()) {
                progress.update(static_cast<double>(p.step) / static_cast<double>(p.steps),
                    p.message + ", step " + std::to_string(p.step) + "/" + std::to_string(p.steps), p.etaSeconds);
                return true;
            }
            if (p.phase == Phase::Eval) { // an evaluation begins; the report that ends its iteration (or SFT) follows
                const double done = static_cast<double>(std::max<std::int64_t>(0, p.iteration - 1));
                progress.update(
                    p.iterations > 0 ? done / static_cast<double>(p.iterations) : 0.0, p.message, p.etaSeconds);
                return true;
            }
            progress.clear();
            if (p.phase == Phase::Waiting) { // a remote environment server or judge endpoint stopped answering
                std::printf("%s\n", p.message.c_str());
                std::fflush(stdout);
                return true;
            }
            // "eval success 0.470", or why there is none.
            const auto evalText = [&] {
                const double success = metricOf(p.metrics, metricnames::kEvalSuccess);
                if (std::isnan(success))
                    return std::string("no eval (eval.episodes is 0)");
                char text[40];
                std::snprintf(text, sizeof text, "eval success %.3f", success);
                return std::string(text);
            };
            if (p.phase == Phase::Sft && config.getInt("sft.from_run") > 0) {
                std::printf("warm start from run %lld's SFT policy: %s\n",
                    static_cast<long long>(config.getInt("sft.from_run")), evalText().c_str());
                std::fflush(stdout);
            } else if (p.phase == Phase::Sft
                && (metricOf(p.metrics, metricnames::kSftDemonstrations) == 0.0 || config.getInt("sft.epochs") == 0)) {
                const char* why = config.getInt("sft.epochs") == 0 ? "sft.epochs is 0"
                    : config.getInt("sft.expert_episodes") + config.getInt("sft.noisy_episodes") == 0
                    ? "sft.expert_episodes and sft.noisy_episodes are 0, and sft.demonstrations names no file"
                    : "no demonstrations: the environment has no expert and sft.demonstrations names no file";
                std::printf("no SFT (%s): %s\n", why, evalText().c_str());
                std::fflush(stdout);
            } else if (p.phase == Phase::Sft) {
                std::printf("SFT done in %s: loss %.4f, token accuracy %.3f, %s (%.0f demonstrations)\n",
                    formatClock(metricOf(p.metrics, metricnames::kTimeSft)).c_str(),
                    metricOf(p.metrics, metricnames::kSftLoss), metricOf(p.metrics, metricnames::kSftTokenAccuracy),
                    evalText().c_str(), metricOf(p.metrics, metricnames::kSftDemonstrations));
                std::fflush(stdout);
            } else if (!o.quiet) {
                printIteration(p);
            }
            // A Ctrl+C finishes the current iteration, checkpoints and returns.
            return true;
        },
        &g_interrupted);
    progress.clear();
    const std::string resume
        = "creditlab-cli train --resume " + std::to_string(result.runId) + " --db " + options.database;
    if (result.status == RunStatus::Cancelled && trainer->hasCheckpoint())
        std::printf("stopped after iteration %lld; continue with: %s\n", static_cast<long long>(result.iterationsDone),
            resume.c_str());
    else if (result.status == RunStatus::Cancelled)
        std::printf("stopped during SFT; start it again with: %s\n", resume.c_str());
    else
        std::printf("run %lld finished after %lld iterations%s\n", static_cast<long long>(result.runId),
            static_cast<long long>(result.iterationsDone),
            result.evalSuccess ? (", eval success " + std::to_string(*result.evalSuccess).substr(0, 5)).c_str() : "");
}

} // namespace

void addTrainCommand(CLI::App& app)
{
    auto o = std::make_shared<TrainCliOptions>();
    CLI::App* cmd = app.add_subcommand("train", "Train a policy: SFT warm start, then RL with a credit method");
    auto* config
        = cmd->add_option("--config,-c", o->config, "Run config (YAML); see resources/configs/")->type_name("FILE");
    cmd->add_option("--set", o->sets,
           "Override a config key, e.g. --set rl.iterations=20 (repeatable; with --resume only rl.iterations, eval.*, "
           "checkpoint.*, threads)")
        ->type_name("KEY=VALUE");
    cmd->add_option("--db", o->db.path, "Database (default: " + defaultDatabasePath() + ")")->type_name("FILE");
    cmd->add_option("--device", o->device, "cpu, cuda or cuda:N (default: CUDA when LibTorch has it)")
        ->type_name("DEVICE");
    auto* resume
        = cmd->add_option("--resume", o->resume,
                 "Continue a stopped run from its last checkpoint; with --set rl.iterations=N, extend a finished one")
              ->check(CLI::NonNegativeNumber)
              ->type_name("RUN");
    cmd->add_flag("--list-keys", o->listKeys, "List every config key with its default and range, then exit");
    cmd->add_flag("--quiet,-q", o->quiet, "No line per iteration (SFT and the final summary only)");
    cmd->add_option("--nproc", o->nproc,
           "Data-parallel on this machine: start N ranks of this run (as torchrun --nproc-per-node N would); the "
           "cores are shared among them")
        ->check(CLI::Range(1, 256))
        ->type_name("N");
    cmd->add_option("--rank-timeout", o->rankTimeout,
           "Data-parallel: seconds a rank waits for the others before the run fails naming the missing rank")
        ->check(CLI::PositiveNumber)
        ->default_val(300.0)
        ->type_name("SECONDS");
    resume->excludes(config);
    cmd->footer("Ctrl+C stops after the current iteration with a checkpoint; a second Ctrl+C quits at once.\n"
                "Same config and seed on the CPU: the same metrics every time.\n"
                "Data-parallel: torchrun --nproc-per-node N --no-python creditlab-cli train ..., srun creditlab-cli "
                "train ..., or --nproc N (docs/cluster.md).");
    cmd->callback([o] {
        if (o->listKeys) {
            listKeys();
            return;
        }
        if (o->nproc > 1) {
            if (std::getenv("RANK") != nullptr || std::getenv("SLURM_PROCID") != nullptr)
                throw CLI::ValidationError("--nproc",
                    "this process is already a rank of a launched run (RANK or "
                    "SLURM_PROCID is set): let the launcher start the ranks");
            if (!o->config.empty()) // a bad config is said once, not by every rank
                (void)learn::TrainConfig::load(o->config, credit::splitAssignments(o->sets));
            const int code = runLocalRanks(o->nproc, withoutOption(ownArguments(), "--nproc"), 30.0);
            if (code != 0)
                std::exit(code);
            return;
        }
        runTraining(*o);
    });
}

} // namespace creditlab::cli
