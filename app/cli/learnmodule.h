#pragma once

// creditlab-cli's training commands live in a module (libcreditlab_cli_learn.so, which links LibTorch), opened only
// when one of them runs: the other commands (runs, import, export, credit, agreement, env, serve, labels, methods)
// start without LibTorch, OpenCV and Qt 5 (0.4 s and 170 MB). The module's code calls back into the executable for
// the CLI's shared helpers (commands.h: g_interrupted, ProgressLine, DbOption), which the executable exports.

#include "core/learn/api/runtime.h"

#include <CLI/CLI.hpp>

#include <array>
#include <string_view>

namespace creditlab::cli {

/// What the executable hands the module: the process state that lives in the executable alone.
struct ModuleContext {
    learn::WaitPolicySource waitPolicy = learn::WaitPolicySource::Unset;
};

/// The commands the module adds, for the executable to know when to open it.
inline constexpr std::array<std::string_view, 7> kModuleCommands { "train", "sweep", "experiment", "report", "probe",
    "doctor", "model" };

/// The module's file name and its one export.
inline constexpr const char* kModuleFile = "libcreditlab_cli_learn.so";
inline constexpr const char* kModuleSymbol = "creditlab_cli_add_learn_commands";
using AddModuleCommands = void (*)(CLI::App& app, const ModuleContext& context);

/// In the module (doctorcommand.cpp): `doctor`, which reports how OMP_WAIT_POLICY was settled in the executable.
void addDoctorCommand(CLI::App& app, learn::WaitPolicySource waitPolicy);

} // namespace creditlab::cli

/// The module's export: adds kModuleCommands to `app`.
extern "C" void creditlab_cli_add_learn_commands(CLI::App& app, const creditlab::cli::ModuleContext& context);
