// experiment plan: how many seeds (and eval tasks) each claim of an experiment needs, from a pilot (issue 37).
#include "commands.h"

#include "core/learn/api/experimentplan.h"
#include "core/learn/api/sweep.h"
#include "core/storage/paths.h"
#include "core/storage/store.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <memory>

namespace creditlab::cli {

void addExperimentPlanCommand(CLI::App& experiment)
{
    struct Options {
        std::string target;
        DbOption db;
        learn::PlanOptions plan;
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd = experiment.add_subcommand("plan",
        "How many seeds (and eval tasks) each claim needs, from a pilot: an experiment's seeds so far, or a smoke run");
    cmd->add_option("experiment", o->target,
           "An experiment's ID in the database (its seeds so far are the pilot), or an experiment FILE or shipped NAME "
           "(the latest experiment of that name in the database is the pilot; nothing runs)")
        ->required()
        ->type_name("ID|FILE|NAME");
    cmd->add_option("--db", o->db.path, "Database (default: " + defaultDatabasePath() + ")")->type_name("FILE");
    cmd->add_option("--effect", o->plan.effect,
           "The effect a > or < claim should detect, in its metric's units (a >= or <= claim uses its margin)")
        ->check(CLI::PositiveNumber)
        ->capture_default_str()
        ->type_name("X");
    cmd->add_option("--power", o->plan.power, "The probability of a decisive verdict when the effect is there")
        ->check(CLI::Range(0.5, 0.999))
        ->capture_default_str()
        ->type_name("P");
    cmd->footer(
        "The plan uses the claims' interval (a 95% t interval over the paired seed differences) and the pilot's "
        "variance components: per claim, the variance of a seed's difference, split (where the eval episodes "
        "are stored) into the seeds' part and the eval tasks' binomial noise; then the seeds needed at the "
        "pilot's task count, at 2x and 5x the tasks, and with unlimited tasks, with the compute hours from "
        "the pilot's time/total_s. A smoke pilot's numbers are of the smoke configuration: a rough guide.");
    cmd->callback([o] {
        const std::string db = o->db.resolved();
        const bool isId = !o->target.empty() && std::all_of(o->target.begin(), o->target.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c));
        });
        if (isId) {
            Store store(db, Store::Access::ReadOnly);
            std::fputs(learn::planText(learn::planExperiment(store, std::stoll(o->target), o->plan)).c_str(), stdout);
            return;
        }
        const std::string path = experimentPath(o->target);
        const auto spec = learn::SweepSpec::load(path);
        if (!spec.isExperiment())
            throw CLI::ValidationError("experiment plan", path + " has no arms: it is a sweep, not an experiment");
        std::optional<std::int64_t> pilot;
        std::error_code ec;
        if (std::filesystem::exists(db, ec)) {
            Store store(db, Store::Access::ReadOnly);
            pilot = learn::findPilot(store, spec.name);
            if (pilot) {
                std::printf("pilot: experiment %lld '%s' in %s\n", static_cast<long long>(*pilot), spec.name.c_str(),
                    db.c_str());
                std::fputs(learn::planText(learn::planExperiment(store, *pilot, o->plan)).c_str(), stdout);
                return;
            }
        }
        std::printf("no experiment '%s' with finished trials in %s: a plan needs a pilot. A smoke run is quick, "
                    "but its variances and times are of the smoke configuration, a rough guide at best:\n"
                    "  creditlab-cli experiment run %s --scale smoke --db %s\n"
                    "then plan again:\n"
                    "  creditlab-cli experiment plan %s --db %s\n"
                    "(a full-scale run's first finished seeds give better numbers: plan with its ID as it runs)\n",
            spec.name.c_str(), db.c_str(), o->target.c_str(), db.c_str(), o->target.c_str(), db.c_str());
    });
}

} // namespace creditlab::cli
