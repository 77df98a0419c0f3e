// merge: combine CreditLab databases (the per-task databases of a sweep run as `sweep trial` jobs, issue 36) into one,
// by uid: merging again, or two databases holding the same trial, gives each run, sweep and trial once.
#include "commands.h"

#include "core/model/progress.h"
#include "core/storage/store.h"
#include "core/storage/storemerge.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>

namespace creditlab::cli {

void addMergeCommand(CLI::App& app)
{
    struct Options {
        std::vector<std::string> inputs;
        std::string into;
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand("merge", "Merge databases (e.g. a sweep's per-task databases) into one");
    cmd->add_option("inputs", o->inputs, "Databases to read (not modified)")->required()->type_name("A.db B.db ...");
    cmd->add_option("--into,-o", o->into, "The database to merge into (created when missing)")
        ->required()
        ->type_name("C.db");
    cmd->footer(
        "Sweeps, trials and runs, with everything a run has (configs, metrics, checkpoint rows, SFT curves,\n"
        "trajectories, turns, credits, judge and human labels, notes, token segments, probe tables), are copied\n"
        "with new row ids and recognised by their uids: merging the same file again adds nothing, and a trial\n"
        "found in several files (a retried Slurm task) is kept once, its furthest-along run (finished, else more\n"
        "iterations). All in one transaction: on an error or Ctrl+C nothing is written. Checkpoint rows keep\n"
        "their paths; the files stay beside the database that wrote them. The target must be on a local disk.");
    cmd->callback([o] {
        const auto start = std::chrono::steady_clock::now();
        // The inputs are checked (each a CreditLab database this build reads) before the target is created.
        for (const auto& input : o->inputs)
            Store(input, Store::Access::ReadOnly);
        Store store(o->into);
        MergeCounts counts;
        {
            ProgressLine line("merging " + std::to_string(o->inputs.size()) + " databases");
            counts = mergeDatabases(store.database(), o->inputs, {}, [&line](const Progress& p) {
                return line.update(p.fraction(),
                    std::to_string(p.done) + "/" + std::to_string(p.total) + " runs, " + std::to_string(p.items)
                        + " rows",
                    p.etaSeconds());
            });
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf(
            "merged %zu databases into %s in %.2f s: runs %lld added, %lld replaced (further along), %lld already "
            "there; sweeps %lld added; trials %lld added, %lld updated; %lld rows\n",
            o->inputs.size(), o->into.c_str(), seconds, static_cast<long long>(counts.runsAdded),
            static_cast<long long>(counts.runsReplaced), static_cast<long long>(counts.runsKept),
            static_cast<long long>(counts.sweepsAdded), static_cast<long long>(counts.trialsAdded),
            static_cast<long long>(counts.trialsUpdated), static_cast<long long>(counts.rows));
    });
}

} // namespace creditlab::cli
