// The export of creditlab-cli's training module (learnmodule.h).
#include "learnmodule.h"

#include "commands.h"

extern "C" [[gnu::visibility("default")]] void creditlab_cli_add_learn_commands(
    CLI::App& app, const creditlab::cli::ModuleContext& context)
{
    using namespace creditlab::cli;
    addTrainCommand(app);
    addSweepCommand(app);
    addExperimentCommand(app);
    addReportCommand(app);
    addProbeCommand(app);
    addDoctorCommand(app, context.waitPolicy);
    addModelCommand(app);
}
