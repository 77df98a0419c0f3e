// creditlab-cli: the headless twin of the workbench. Links neither Qt nor LibTorch: the training commands are in a
// module opened when one of them runs (learnmodule.h).
#include "commands.h"
#include "learnmodule.h"

#include "core/learn/api/module.h"
#include "core/learn/api/runtime.h"
#include "core/model/progress.h"
#include "core/version.h"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

/// Asked by prepareProcess()'s hook before any library's initialiser runs: never re-execute to set OMP_WAIT_POLICY.
/// This executable does not load an OpenMP runtime at start; the training module brings libgomp when it is opened,
/// after prepareProcess() has set the variable, so libgomp reads it (WaitPolicySource::BeforeRuntime).
extern "C" bool creditlab_runs_openmp(int, char**) { return false; }

namespace {

void onInterrupt(int)
{
    // A second Ctrl+C ends the process at once.
    if (creditlab::cli::g_interrupted.exchange(true))
        std::_Exit(130);
}

} // namespace

int main(int argc, char** argv)
{
    creditlab::learn::prepareProcess();
    std::signal(SIGINT, onInterrupt);

    auto logger = spdlog::stderr_color_mt("cli");
    spdlog::set_default_logger(logger);
    spdlog::set_level(spdlog::level::warn);

    CLI::App app { "CreditLab: credit assignment for agentic reinforcement learning, headless.\n"
                   "Every command that touches a database takes --db; the default is the per-user\n"
                   "data folder's creditlab/runs.db.",
        "creditlab-cli" };
    app.set_version_flag("--version", std::string("creditlab-cli ") + creditlab::kVersion);
    bool verbose = false;
    app.add_flag("-v,--verbose", verbose, "Log what is being done to stderr");
    app.require_subcommand(1);
    app.fallthrough();
    app.footer("Run 'creditlab-cli COMMAND --help' for the options of one command.");

    // The first argument that is not an option names the command. The training module is opened for its commands,
    // and for the help that lists every command; the others never load LibTorch.
    std::string command;
    bool versionOnly = false;
    for (int i = 1; i < argc; ++i) {
        if (argv[i][0] != '-') {
            command = argv[i];
            break;
        }
        versionOnly = versionOnly || std::strcmp(argv[i], "--version") == 0;
    }
    bool needsModule = command.empty() && !versionOnly;
    for (const std::string_view name : creditlab::cli::kModuleCommands)
        needsModule = needsModule || command == name;
    if (needsModule) {
        try {
            const auto add = reinterpret_cast<creditlab::cli::AddModuleCommands>(creditlab::learn::openModuleSymbol(
                creditlab::cli::kModuleFile, "CREDITLAB_CLI_MODULE", creditlab::cli::kModuleSymbol,
                "the training commands' module"));
            add(app, creditlab::cli::ModuleContext { creditlab::learn::waitPolicySource() });
        } catch (const std::exception& e) {
            std::fprintf(stderr, "creditlab-cli: error: %s\n", e.what());
            return 1;
        }
    }
    creditlab::cli::addCreditCommand(app);
    creditlab::cli::addEnvCommand(app);
    creditlab::cli::addImportCommand(app);
    creditlab::cli::addExportCommand(app);
    creditlab::cli::addRunsCommand(app);
    creditlab::cli::addMethodsCommand(app);
    creditlab::cli::addAgreementCommand(app);
    creditlab::cli::addLabelsCommand(app);
    creditlab::cli::addServeCommand(app);
    creditlab::cli::addMergeCommand(app);

    app.parse_complete_callback([&] {
        if (verbose)
            spdlog::set_level(spdlog::level::debug);
    });

    // Name a mistyped command instead of CLI11's "A subcommand is required".
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.empty() || arg[0] == '-')
            continue;
        std::string known;
        bool found = false;
        if (!needsModule) // not opened: its commands are not registered
            for (const std::string_view name : creditlab::cli::kModuleCommands)
                known += (known.empty() ? "" : ", ") + std::string(name);
        for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
            known += (known.empty() ? "" : ", ") + sub->get_name();
            found = found || sub->get_name() == arg;
        }
        if (!found) {
            std::fprintf(
                stderr, "creditlab-cli: error: unknown command '%s' (commands: %s)\n", arg.c_str(), known.c_str());
            return 2;
        }
        break;
    }

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::fprintf(stderr, "creditlab-cli: error: %s (see --help)\n", e.what());
        return e.get_exit_code() != 0 ? e.get_exit_code() : 2;
    } catch (const creditlab::Cancelled&) {
        std::fprintf(stderr, "creditlab-cli: cancelled; nothing was written\n");
        return 130;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "creditlab-cli: error: %s\n", e.what());
        return 1;
    }
    return 0;
}
