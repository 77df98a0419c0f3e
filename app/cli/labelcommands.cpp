// labels export|import: human role labels in and out of a database as JSONL (core/interchange/labelfile.h).
#include "commands.h"

#include "core/interchange/labelfile.h"
#include "core/storage/paths.h"
#include "core/storage/store.h"

#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>
#include <spdlog/spdlog.h>

namespace creditlab::cli {

namespace {

constexpr const char* kFormat
    = "A label file has one line per turn and annotator:\n"
      "  {\"annotator\":\"NAME\",\"role\":\"D\",\"trajectory\":\"<JSONL id>\",\"turn\":N}\n"
      "turn is the 0-based turn index, role one of D, E, N, R (the Annotate page's Export/Import labels). The\n"
      "annotator's note on the turn rides on the line: \"comment\" (text), \"flagged\" and \"skipped\" (true or\n"
      "false); a line with a note may have no role.";

std::string withThousands(std::uint64_t n)
{
    std::string s = std::to_string(n);
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3)
        s.insert(static_cast<std::size_t>(i), ",");
    return s;
}

/// "5 labels, 2 trajectories"; "5 labels, 1 note, 2 trajectories" when there are notes.
std::string counts(std::uint64_t labels, std::uint64_t notes, std::uint64_t trajectories)
{
    return withThousands(labels) + (labels == 1 ? " label, " : " labels, ")
        + (notes == 0 ? std::string() : withThousands(notes) + (notes == 1 ? " note, " : " notes, "))
        + withThousands(trajectories) + (trajectories == 1 ? " trajectory" : " trajectories");
}

/// Labels belong to trajectories already in a database: both commands refuse a missing one instead of creating it.
Store openExisting(const DbOption& db, Store::Access access)
{
    const std::string path = db.resolved();
    if (!std::filesystem::exists(path))
        throw StoreError(path + ": no such database (import something first, or pass --db)");
    spdlog::debug("opening {}", path);
    return Store(path, access);
}

void addDbAndRunOptions(CLI::App* cmd, DbOption& db, std::int64_t& run, const char* runHelp)
{
    cmd->add_option("--db", db.path, "Database file (default: " + defaultDatabasePath() + ")")->type_name("FILE");
    cmd->add_option("--run", run, runHelp)->check(CLI::PositiveNumber)->type_name("ID");
}

std::optional<std::int64_t> runOrAll(std::int64_t run) { return run > 0 ? std::optional(run) : std::nullopt; }

} // namespace

void addLabelsCommand(CLI::App& app)
{
    CLI::App* cmd
        = app.add_subcommand("labels", "Human role labels and notes in and out of a database as JSONL: export, import");
    cmd->require_subcommand(1);
    cmd->footer(kFormat);

    struct ExportOptions {
        DbOption db;
        std::int64_t run = 0;
        std::string output = "-";
    };
    auto ex = std::make_shared<ExportOptions>();
    CLI::App* exportCmd = cmd->add_subcommand("export", "Write the human labels of a run (or of every run) as JSONL");
    addDbAndRunOptions(exportCmd, ex->db, ex->run, "Only this run (see 'runs'; default: every run)");
    exportCmd->add_option("--output,-o", ex->output, "Output file, or - for standard output (the default)")
        ->type_name("FILE");
    exportCmd->footer("Every annotator's labels and notes, trajectories in run order, each one's lines by turn then\n"
                      "annotator.\n"
                      "A file appears only complete; a failed export leaves none.");
    exportCmd->callback([ex] {
        Store store = openExisting(ex->db, Store::Access::ReadOnly);
        const LabelExportResult r = exportLabelFile(store, runOrAll(ex->run), ex->output);
        if (ex->output != "-") // as 'export': standard output carries only the labels
            std::printf("exported the labels of %s to %s: %s\n",
                ex->run > 0 ? ("run " + std::to_string(ex->run)).c_str() : "every run", ex->output.c_str(),
                counts(r.labels, r.notes, r.trajectories).c_str());
    });

    struct ImportOptions {
        DbOption db;
        std::int64_t run = 0;
        std::string file;
    };
    auto im = std::make_shared<ImportOptions>();
    CLI::App* importCmd = cmd->add_subcommand("import", "Import human labels from a JSONL file, all or nothing");
    importCmd->add_option("file", im->file, "JSONL label file")->required()->type_name("FILE");
    addDbAndRunOptions(importCmd, im->db, im->run,
        "Look the trajectory ids up in this run only (default: the whole database, where an id must name one run)");
    importCmd->footer("The whole file is checked first: a bad line (reported as FILE:LINE: field \"FIELD\": why)\n"
                      "imports nothing. A valid file is written in one transaction; each label (note) replaces the\n"
                      "one the same annotator gave the same turn, a later line for that turn and annotator wins, and\n"
                      "other labels and notes are kept.");
    importCmd->callback([im] {
        Store store = openExisting(im->db, Store::Access::ReadWrite);
        const std::vector<LabelLine> labels = importLabelFile(store, runOrAll(im->run), im->file);
        std::set<std::int64_t> trajectories;
        std::uint64_t roles = 0, notes = 0;
        for (const LabelLine& label : labels) {
            trajectories.insert(label.trajectoryRowId);
            roles += label.role ? 1 : 0;
            notes += label.note ? 1 : 0;
        }
        std::printf("imported %s into %s: %s\n", im->file.c_str(),
            im->run > 0 ? ("run " + std::to_string(im->run)).c_str() : store.path().c_str(),
            counts(roles, notes, trajectories.size()).c_str());
        std::fflush(stdout);
    });
}

} // namespace creditlab::cli
