// sweep trial: one trial of a sweep file, stateless and safe to retry, for a Slurm job array, submitit or any
// scheduler (issue 36; docs/cluster.md). With --post, the trial is streamed into a central `serve` as well.
#include "commands.h"

#include "core/learn/torch/engine/sweeptrial.h"
#include "core/storage/paths.h"
#include "core/storage/storesync.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <unistd.h>

namespace creditlab::cli {

namespace {

struct TrialCliOptions {
    std::string sweep;
    int trial = -1;
    DbOption db;
    std::string device;
    std::string post;
    std::string tokenEnv = "CREDITLAB_SERVE_TOKEN";
    double postEvery = 30.0;
};

const char* const kTrialHelp
    = R"(Runs trial K (numbered from 0) of a sweep file, alone, for a scheduler to call once per trial:
  sbatch --array=0-N-1 with  creditlab-cli sweep trial --sweep sweep.yaml --trial $SLURM_ARRAY_TASK_ID --db $TMPDIR/t.db
The trial's identity comes from the sweep file's content (and its base config) and K, so every machine agrees on it.
Safe to retry: a finished trial is not trained again (it says so); a trial that was stopped or killed continues its
run from the last checkpoint; the database never holds the trial or its run twice. Combine the per-task databases
with 'creditlab-cli merge A.db B.db ... --into all.db', or stream each trial to one 'creditlab-cli serve' with
--post URL (posting again never duplicates a row on the server). Never put --db on a network file system (NFS,
Lustre, GPFS, ...): it is refused there. docs/cluster.md has a Slurm script and torchrun examples.)";

/// Snapshots the trial and posts it; returns the server's reply.
std::string postTrial(const TrialCliOptions& o, const std::string& database, const std::string& uid)
{
    std::error_code ec;
    const auto dir = std::filesystem::temp_directory_path(ec);
    const std::string snapshot
        = ((ec ? std::filesystem::path("/tmp") : dir) / ("creditlab-trial-" + std::to_string(::getpid()) + ".db"))
              .string();
    std::optional<std::string> token;
    if (const char* t = std::getenv(o.tokenEnv.c_str()); t && *t)
        token = t;
    try {
        writeTrialSnapshot(database, uid, snapshot);
        std::string reply = postDatabase(o.post, snapshot, token);
        for (const char* suffix : { "", "-wal", "-shm" })
            std::filesystem::remove(snapshot + suffix, ec);
        return reply;
    } catch (...) {
        for (const char* suffix : { "", "-wal", "-shm" })
            std::filesystem::remove(snapshot + suffix, ec);
        throw;
    }
}

void runTrialCommand(const TrialCliOptions& o)
{
    const auto spec = learn::SweepSpec::load(o.sweep);
    const std::string database = o.db.resolved();
    const int count = static_cast<int>(spec.trials.size());
    std::string point = "-";
    if (o.trial >= 0 && o.trial < count)
        point = spec.trials[static_cast<std::size_t>(o.trial)].paramsText();
    std::printf("sweep '%s' trial %d of %d (%s); database %s%s%s\n", spec.name.c_str(), o.trial, count,
        point.empty() ? "base" : point.c_str(), database.c_str(), o.post.empty() ? "" : "; posting to ",
        o.post.c_str());
    std::fflush(stdout);
    if (!o.post.empty() && !std::getenv(o.tokenEnv.c_str()) && o.tokenEnv != "CREDITLAB_SERVE_TOKEN")
        throw CLI::ValidationError("--token-env", o.tokenEnv + " is not set");

    const std::string uid = learn::trialUid(spec, o.trial >= 0 && o.trial < count ? o.trial : 0);
    using Clock = std::chrono::steady_clock;
    auto lastPost = Clock::now();
    ProgressLine progress("trial " + std::to_string(o.trial));
    const auto callback = [&](const learn::TrainProgress& p) {
        if (p.phase == Phase::Sft && p.steps > 0)
            progress.update(static_cast<double>(p.step) / static_cast<double>(p.steps),
                std::to_string(p.step) + "/" + std::to_string(p.steps) + " SFT steps", p.etaSeconds);
        else if (p.phase == Phase::Rl && p.iterations > 0)
            progress.update(static_cast<double>(p.iteration) / static_cast<double>(p.iterations),
                std::to_string(p.iteration) + "/" + std::to_string(p.iterations) + " iterations", p.etaSeconds);
        // Stream: the trial as it stands after an iteration, at most every --post-every seconds. A failed post here
        // is only a warning: the final one sends everything again.
        if (!o.post.empty() && !p.metrics.empty()
            && std::chrono::duration<double>(Clock::now() - lastPost).count() >= o.postEvery) {
            lastPost = Clock::now();
            try {
                postTrial(o, database, uid);
            } catch (const std::exception& e) {
                progress.clear();
                std::fprintf(stderr, "creditlab-cli: warning: posting iteration %lld: %s\n",
                    static_cast<long long>(p.iteration), e.what());
            }
        }
        return !g_interrupted.load();
    };
    learn::SweepOptions options;
    options.database = database;
    options.device = o.device;
    const auto result = learn::runSingleTrial(spec, o.trial, options, callback, &g_interrupted);
    progress.clear();
    char objective[32] = "-";
    if (result.objective)
        std::snprintf(objective, sizeof objective, "%.4f", *result.objective);
    if (result.alreadyFinished)
        std::printf("trial %d already finished (run %lld, objective %s): nothing to train\n", o.trial,
            static_cast<long long>(result.runId), objective);
    else
        std::printf("trial %d %s%s: run %lld, objective %s\n", o.trial,
            std::string(trialStatusName(result.status)).c_str(),
            result.resumed ? " (continued from its last checkpoint)" : "", static_cast<long long>(result.runId),
            objective);
    std::printf("trial uid %s\n", result.trialUid.c_str());
    std::fflush(stdout);
    if (!o.post.empty()) {
        try {
            const std::string reply = postTrial(o, database, result.trialUid);
            std::printf("posted to %s: %s\n", o.post.c_str(), reply.c_str());
            std::fflush(stdout);
        } catch (const std::exception& e) {
            throw std::runtime_error(std::string(e.what()) + "; the trial is in " + database
                + ": run the same command again to post it (a finished trial is not trained again)");
        }
    }
    if (result.status == TrialStatus::Cancelled)
        throw std::runtime_error("trial " + std::to_string(o.trial)
            + " stopped; run the same command again to continue it from its last checkpoint");
    if (result.status == TrialStatus::Failed)
        throw std::runtime_error("trial " + std::to_string(o.trial) + " failed: " + result.error);
}

} // namespace

void addSweepTrialCommand(CLI::App& sweep)
{
    auto o = std::make_shared<TrialCliOptions>();
    CLI::App* cmd
        = sweep.add_subcommand("trial", "Run one trial of a sweep file (for Slurm arrays and other schedulers)");
    cmd->add_option("--sweep,-s", o->sweep, "Sweep file (YAML), as 'sweep --config' takes")
        ->required()
        ->type_name("FILE");
    cmd->add_option("--trial,-k", o->trial, "The trial, from 0 (e.g. $SLURM_ARRAY_TASK_ID)")
        ->required()
        ->check(CLI::NonNegativeNumber)
        ->type_name("K");
    cmd->add_option("--db", o->db.path, "Database on a local disk (default: " + defaultDatabasePath() + ")")
        ->type_name("FILE");
    cmd->add_option("--post", o->post, "Also stream the trial into a 'creditlab-cli serve' at this URL")
        ->type_name("URL");
    cmd->add_option(
           "--post-every", o->postEvery, "Seconds between posts while training (default 30; 0: every iteration)")
        ->check(CLI::NonNegativeNumber)
        ->type_name("S");
    cmd->add_option(
           "--token-env", o->tokenEnv, "Environment variable with the server's token (default CREDITLAB_SERVE_TOKEN)")
        ->type_name("NAME");
    cmd->add_option("--device", o->device, "cpu, cuda or cuda:N (default: CUDA when LibTorch has it)")
        ->type_name("DEVICE");
    cmd->footer(kTrialHelp);
    cmd->callback([o] { runTrialCommand(*o); });
}

} // namespace creditlab::cli
