// import, export and runs: the commands that move trajectories in and out of a database.
#include "commands.h"

#include "core/interchange/jsonltransfer.h"
#include "core/interchange/jsonscanner.h"
#include "core/model/text.h"
#include "core/storage/paths.h"
#include "core/storage/store.h"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <spdlog/spdlog.h>

namespace creditlab::cli {

std::string DbOption::resolved() const { return path.empty() ? defaultDatabasePath() : path; }

namespace {

void addDbOption(CLI::App* cmd, DbOption& db)
{
    cmd->add_option("--db", db.path, "Database file (default: " + defaultDatabasePath() + ")")->type_name("FILE");
}

std::string withThousands(std::uint64_t n)
{
    std::string s = std::to_string(n);
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3)
        s.insert(static_cast<std::size_t>(i), ",");
    return s;
}

std::string counted(std::uint64_t n, const char* one, const char* many)
{
    return withThousands(n) + " " + (n == 1 ? one : many);
}

/// Read-only commands refuse a missing database instead of creating an empty one.
Store openExisting(const DbOption& db)
{
    const std::string path = db.resolved();
    if (!std::filesystem::exists(path))
        throw StoreError(path + ": no such database (import something first, or pass --db)");
    spdlog::debug("opening {}", path);
    return Store(path, Store::Access::ReadOnly);
}

} // namespace

void addImportCommand(CLI::App& app)
{
    struct Options {
        DbOption db;
        std::vector<std::string> files;
        std::string name;
        std::string format = "auto";
        std::string map;
        std::vector<std::string> markers;
        bool oneRun = false;
        std::string groupBy;
        bool renameDuplicates = false;
    };
    auto opt = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand("import", "Import trajectories from files, one run per file (see --one-run)");
    addDbOption(cmd, opt->db);
    cmd->add_option("--name", opt->name, "Run name (default: the file name); only with one file")->type_name("NAME");
    cmd->add_option("--format", opt->format, "File format: " + importFormatNames() + "; default: detected")
        ->type_name("NAME");
    cmd->add_option("--map", opt->map,
           "A mapping file (YAML) from our fields to the source's field paths, or a shipped mapping's name ("
               + shippedMappingNames() + ")")
        ->type_name("MAP.yaml");
    cmd->add_option("--group-by", opt->groupBy,
           "Group the trajectories by this source field (task_id, info.task.id), so that trials of one task are "
           "compared")
        ->type_name("FIELD");
    cmd->add_flag("--rename-duplicates", opt->renameDuplicates,
        "Native files exported before 2026-11-29: read a second member named like one of ours as source.<name>");
    cmd->add_flag("--one-run", opt->oneRun,
        "Import all the files as one run (named after their directory, or --name); automatic for formats with one "
        "trajectory per file (SWE-agent .traj, WebShop sessions)");
    cmd->add_option("--markers", opt->markers, "verl: split turns at this marker pair instead of the detected template")
        ->expected(2)
        ->type_name("TEXT");
    cmd->add_option("files", opt->files, "JSONL files: the DESIGN.md interchange format, or a format named by --format")
        ->required()
        ->type_name("FILE");
    cmd->footer("Each file is imported in one transaction: a bad line (reported with file, line and field)\n"
                "imports nothing from that file. Ctrl+C cancels and rolls back the file in progress.\n"
                "Formats and mapping files: docs/import-formats.md.");
    cmd->callback([opt] {
        if (!opt->name.empty() && opt->files.size() > 1 && !opt->oneRun)
            throw CLI::ValidationError("--name", "can only be used with a single file, or with --one-run");
        ImportOptions options;
        const auto format = parseImportFormat(opt->format);
        if (!format)
            throw CLI::ValidationError(
                "--format", "unknown format \"" + opt->format + "\" (known: " + importFormatNames() + ")");
        options.format = *format;
        options.mapPath = opt->map;
        options.groupBy = opt->groupBy;
        options.renameDuplicates = opt->renameDuplicates;
        if (opt->markers.size() == 2)
            options.markers = TemplateMarkers { opt->markers[0], opt->markers[1] };
        const std::string path = opt->db.resolved();
        spdlog::debug("opening {}", path);
        // A database this command creates and then fills with nothing (the first file is bad) is removed again:
        // a failed import leaves no empty file behind.
        const bool existed = std::filesystem::exists(path);
        auto store = std::make_unique<Store>(path);
        struct RemoveIfEmpty {
            std::unique_ptr<Store>& store;
            const std::string& path;
            bool armed;
            ~RemoveIfEmpty()
            {
                if (!armed || !store)
                    return;
                try {
                    if (!store->runs().empty())
                        return;
                    store.reset();
                    for (const char* suffix : { "", "-wal", "-shm" })
                        std::filesystem::remove(path + suffix);
                } catch (...) {
                }
            }
        } removeIfEmpty { store, path, !existed };
        const auto progress = [](ProgressLine& line) {
            return [&line](const Progress& p) {
                return line.update(p.fraction(),
                    withThousands(p.items) + " trajectories, " + withThousands(p.subItems) + " turns", p.etaSeconds());
            };
        };
        const auto report = [](const std::string& what, const ImportResult& r) {
            std::printf("imported %s (%s) as run %lld: %s, %s in %.2f s\n", what.c_str(), r.format.c_str(),
                static_cast<long long>(r.runId), counted(r.trajectories, "trajectory", "trajectories").c_str(),
                counted(r.turns, "turn", "turns").c_str(), r.seconds);
            std::fflush(stdout);
        };
        // Files that hold one trajectory each (SWE-agent's .traj, WebShop's sessions) are one run, like --one-run.
        const bool oneRun = opt->files.size() > 1
            && (opt->oneRun || std::all_of(opt->files.begin(), opt->files.end(), [&](const std::string& f) {
                   return isFilePerTrajectory(f, options);
               }));
        if (oneRun) {
            const auto source = openTrajectorySources(opt->files, options);
            std::error_code ec;
            const std::filesystem::path first = std::filesystem::absolute(opt->files.front(), ec);
            const std::string directory = first.parent_path().string();
            ProgressLine line("importing " + std::to_string(opt->files.size()) + " files");
            const ImportResult r = importTrajectories(*store, *source, directory, progress(line),
                opt->name.empty() ? first.parent_path().filename().string() : opt->name);
            line.clear();
            report(std::to_string(opt->files.size()) + " files of " + directory, r);
            return;
        }
        for (const std::string& file : opt->files) {
            ProgressLine line("importing " + std::filesystem::path(file).filename().string());
            const ImportResult r = importFile(*store, file, options, progress(line), opt->name);
            line.clear();
            report(file, r);
        }
    });
}

void addExportCommand(CLI::App& app)
{
    struct Options {
        DbOption db;
        std::int64_t run = 0;
        std::int64_t iteration = -1;
        std::string output;
    };
    auto opt = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand("export", "Export the trajectories of a run as JSONL");
    addDbOption(cmd, opt->db);
    cmd->add_option("--run", opt->run, "Run id (see 'runs')")->required()->type_name("ID");
    cmd->add_option("--iteration", opt->iteration, "Only this iteration")
        ->check(CLI::NonNegativeNumber)
        ->type_name("N");
    cmd->add_option("--output,-o", opt->output, "Output file, or - for standard output")->required()->type_name("FILE");
    cmd->callback([opt] {
        Store store = openExisting(opt->db);
        std::optional<std::int64_t> iteration;
        if (opt->iteration >= 0)
            iteration = opt->iteration;
        ProgressLine line("exporting run " + std::to_string(opt->run));
        const ExportResult r = exportJsonl(store, opt->run, iteration, opt->output, [&](const Progress& p) {
            return line.update(p.fraction(), withThousands(p.items) + " trajectories", p.etaSeconds());
        });
        line.clear();
        if (opt->output != "-")
            std::printf("exported run %lld to %s: %s, %s\n", static_cast<long long>(opt->run), opt->output.c_str(),
                counted(r.trajectories, "trajectory", "trajectories").c_str(),
                counted(r.turns, "turn", "turns").c_str());
    });
}

void addRunsCommand(CLI::App& app)
{
    struct Options {
        DbOption db;
        bool json = false;
    };
    auto opt = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand("runs", "List the runs of a database");
    addDbOption(cmd, opt->db);
    cmd->add_flag("--json", opt->json, "One JSON object per run, for scripts");
    cmd->callback([opt] {
        Store store = openExisting(opt->db);
        const auto runs = store.runs();
        if (opt->json) {
            std::string out;
            for (const RunInfo& r : runs) {
                out = "{\"id\":" + std::to_string(r.id) + ",\"name\":";
                appendJsonString(out, r.name);
                out += ",\"kind\":";
                appendJsonString(out, runKindName(r.kind));
                out += ",\"status\":";
                appendJsonString(out, runStatusName(r.status));
                out += ",\"trajectories\":" + std::to_string(r.trajectoryCount)
                    + ",\"turns\":" + std::to_string(r.turnCount) + ",\"created_at\":";
                appendJsonString(out, r.createdAt);
                out += ",\"source\":";
                if (r.source)
                    appendJsonString(out, *r.source);
                else
                    out += "null";
                // The run's shape (typed columns; null for imports and runs older than them), and the one-line
                // summary the workbench's runs table shows.
                out += ",\"environment\":";
                r.environment ? appendJsonString(out, *r.environment) : void(out += "null");
                out += ",\"method\":";
                r.method ? appendJsonString(out, *r.method) : void(out += "null");
                out += ",\"seed\":" + (r.seed ? std::to_string(*r.seed) : std::string("null")) + ",\"summary\":";
                appendJsonString(out, runSummary(r));
                out += ",\"format\":"; // an import's format, as its source names it
                r.sourceFormat ? appendJsonString(out, *r.sourceFormat) : void(out += "null");
                out += "}\n";
                std::fputs(out.c_str(), stdout);
            }
            return;
        }
        if (runs.empty()) {
            std::printf("no runs in %s\n", store.path().c_str());
            return;
        }
        std::printf("%6s  %-28s  %-7s  %-9s  %12s  %12s  %-20s  %s\n", "ID", "NAME", "KIND", "STATUS", "TRAJECTORIES",
            "TURNS", "CREATED", "CONFIG");
        for (const RunInfo& r : runs) {
            // Counted in characters: the workbench names runs "household · grpo · s0", and a cut by bytes split
            // the '·' and printed invalid UTF-8.
            const std::string name = text::column(r.name, 28);
            std::printf("%6lld  %s  %-7s  %-9s  %12s  %12s  %-20s  %s\n", static_cast<long long>(r.id), name.c_str(),
                std::string(runKindName(r.kind)).c_str(), std::string(runStatusName(r.status)).c_str(),
                withThousands(static_cast<std::uint64_t>(r.trajectoryCount)).c_str(),
                withThousands(static_cast<std::uint64_t>(r.turnCount)).c_str(), r.createdAt.c_str(),
                (r.sourceFormat ? "format: " + *r.sourceFormat : runSummary(r)).c_str());
        }
    });
}

} // namespace creditlab::cli
