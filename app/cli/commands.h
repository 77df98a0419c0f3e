#pragma once

#include <CLI/CLI.hpp>
#include <atomic>
#include <string>
#include <vector>

namespace creditlab::cli {

/// Set by SIGINT; long commands poll it through their progress callback and roll back.
extern std::atomic<bool> g_interrupted;

/// Options shared by the commands that touch a database.
struct DbOption {
    std::string path; ///< empty: the default database
    std::string resolved() const;
};

/// Each function adds one subcommand to `app` and installs its callback. train, sweep, experiment, report and probe
/// (and doctor, learnmodule.h) are in the training module; the executable has the others.
/// Callbacks throw std::exception on failure; main() turns that into one line on stderr.
void addImportCommand(CLI::App& app);
void addExportCommand(CLI::App& app);
void addRunsCommand(CLI::App& app);
void addMethodsCommand(CLI::App& app);
void addCreditCommand(CLI::App& app);
void addAgreementCommand(CLI::App& app);
void addLabelsCommand(CLI::App& app);
void addTrainCommand(CLI::App& app);
void addSweepCommand(CLI::App& app);
/// `sweep trial` (issue 36), added by addSweepCommand to `sweep`.
void addSweepTrialCommand(CLI::App& sweep);
/// `merge A.db B.db ... --into C.db` (issue 36), in the executable.
void addMergeCommand(CLI::App& app);
void addExperimentCommand(CLI::App& app);
/// `experiment plan` (issue 37), added by addExperimentCommand to `experiment` (plancommand.cpp).
void addExperimentPlanCommand(CLI::App& experiment);
/// The shipped experiment files (resources/experiments), sorted.
std::vector<std::string> shippedExperiments();
/// FILE as given, else a shipped experiment NAME (with or without .yaml); throws naming the shipped ones.
std::string experimentPath(const std::string& fileOrName);
void addReportCommand(CLI::App& app);
void addProbeCommand(CLI::App& app);
void addServeCommand(CLI::App& app);
/// `model inspect|tokenize|render|score` (issue 34), in the training module.
void addModelCommand(CLI::App& app);

void addEnvCommand(CLI::App& app);

/// "m:ss" or "h:mm:ss"; "?" for a negative or non-finite duration.
std::string formatClock(double seconds);

/// A progress line on stderr (only when it is a terminal): percent, counts, ETA.
class ProgressLine {
public:
    explicit ProgressLine(std::string label);
    ~ProgressLine();
    /// Returns false when the user pressed Ctrl+C.
    bool update(double fraction, const std::string& counts, double etaSeconds);
    void clear();

private:
    std::string m_label;
    bool m_tty;
    bool m_shown = false;
};

} // namespace creditlab::cli
