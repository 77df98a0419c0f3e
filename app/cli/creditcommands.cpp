// credit and methods: the credit estimators from the command line.
#include "commands.h"

#include "core/credit/creditlines.h"
#include "core/credit/estimator.h"
#include "core/credit/explain.h"
#include "core/credit/runcredits.h"
#include "core/interchange/importformats.h"
#include "core/interchange/jsonl.h"
#include "core/interchange/jsonscanner.h"
#include "core/storage/atomicfile.h"
#include "core/storage/paths.h"
#include "core/storage/store.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <spdlog/spdlog.h>
#include <unistd.h>

namespace creditlab::cli {

namespace {

using credit::CreditResult;
using credit::Estimator;

/// DESIGN.md's output line: the trajectory's credit object (core/credit/creditlines.h) and a newline.
std::string formatCreditLine(const Trajectory& t, const CreditResult& r, std::size_t i, bool details)
{
    return credit::creditJson(t, r, i, details) + '\n';
}

struct CreditOptions {
    std::string method;
    std::vector<std::string> sets;
    std::string input;
    std::string format;
    std::string map;
    std::string groupBy;
    bool renameDuplicates = false;
    std::vector<std::string> markers;
    std::string output;
    bool details = false;
    DbOption db;
    bool dbGiven = false;
    std::int64_t run = -1;
    std::int64_t iteration = -1;
    std::string label;
};

void runFileMode(const CreditOptions& o, const Estimator& method, const credit::Params& params)
{
    // Any format the importers read: native JSONL, or another trainer's dump (detected, or --format).
    std::vector<Trajectory> trajectories;
    ImportOptions options;
    if (!o.format.empty()) {
        const auto format = parseImportFormat(o.format);
        if (!format)
            throw std::runtime_error("unknown format '" + o.format + "' (known: " + importFormatNames() + ")");
        options.format = *format;
    }
    options.mapPath = o.map;
    options.groupBy = o.groupBy;
    options.renameDuplicates = o.renameDuplicates;
    if (o.markers.size() == 2)
        options.markers = TemplateMarkers { o.markers[0], o.markers[1] };
    const auto source = openTrajectorySource(o.input, options);
    Trajectory t;
    while (source->next(t))
        trajectories.push_back(t);
    const Batch batch = Batch::fromTrajectories(std::move(trajectories));
    method.validate(batch, params);
    const CreditResult r = method.compute(batch, params);
    if (const auto why = credit::zeroCreditReason(batch, r, method.name()))
        std::fprintf(stderr, "creditlab-cli: note: %s\n", why->c_str());
    std::string out;
    for (std::size_t i = 0; i < batch.trajectories.size(); ++i)
        out += formatCreditLine(batch.trajectories[i], r, i, o.details);
    writeFileAtomically(o.output, out);
}

void runStoreMode(const CreditOptions& o, const Estimator& method, const credit::Params& params)
{
    const std::string path = o.db.resolved();
    if (!std::filesystem::exists(path))
        throw StoreError(path + ": no such database (import something first, or pass --db)");
    Store store(path);
    std::optional<std::int64_t> only;
    if (o.iteration >= 0)
        only = o.iteration;
    std::string out;
    // The output file is written before the store's transaction commits: a failed write stores nothing.
    const auto result = credit::computeRunCredits(
        store, o.run, only, method, params, o.label,
        [&](const Trajectory& t, const CreditResult& r, std::size_t i) {
            if (!o.output.empty())
                out += formatCreditLine(t, r, i, o.details);
        },
        [&] {
            if (!o.output.empty())
                writeFileAtomically(o.output, out);
        });
    if (result.zeroReason)
        std::fprintf(stderr, "creditlab-cli: note: %s\n", result.zeroReason->c_str());
    if (o.output != "-")
        std::printf("stored %s credits for %zu turns of run %lld as '%s' (%s)\n", std::string(method.name()).c_str(),
            result.turns, static_cast<long long>(o.run), result.label.c_str(), result.tag.c_str());
}

} // namespace

void addCreditCommand(CLI::App& app)
{
    auto o = std::make_shared<CreditOptions>();
    CLI::App* cmd = app.add_subcommand("credit", "Compute per-turn credit with one method");
    cmd->add_option("--method,-m", o->method, "Method name (see 'methods')")->required()->type_name("NAME");
    cmd->add_option("--set", o->sets, "Parameter as key=value (repeatable), e.g. --set lambda=0.3")
        ->type_name("KEY=VALUE");
    auto* input = cmd->add_option("--input,-i", o->input,
                          "Trajectories (file mode): our JSONL, or another trainer's dump as 'import' reads it")
                      ->type_name("FILE");
    cmd->add_option("--format", o->format, "File mode: the input's format (default: detected; see 'import --help')")
        ->type_name("NAME")
        ->needs(input);
    cmd->add_option("--map", o->map, "File mode: a mapping file (YAML) for any other layout, as 'import --map'")
        ->type_name("MAP.yaml")
        ->needs(input);
    cmd->add_option("--group-by", o->groupBy,
           "File mode: group the trajectories by this source field (task_id), so that trials of one task are compared")
        ->type_name("FIELD")
        ->needs(input);
    cmd->add_flag("--rename-duplicates", o->renameDuplicates,
           "File mode: read a second member named like one of ours (files exported before 2026-11-29) as source.<name>")
        ->needs(input);
    cmd->add_option("--markers", o->markers, "File mode, verl dumps: split turns at this marker pair")
        ->expected(2)
        ->type_name("TEXT")
        ->needs(input);
    cmd->add_option("--output,-o", o->output, "Credits as JSONL, one line per trajectory; - for stdout")
        ->type_name("FILE");
    cmd->add_flag("--details", o->details, "Include the method's per-turn detail arrays");
    auto* db = cmd->add_option("--db", o->db.path, "Database (store mode; default: " + defaultDatabasePath() + ")")
                   ->type_name("FILE");
    auto* run = cmd->add_option("--run", o->run, "Compute on this stored run and store the credits")->type_name("ID");
    cmd->add_option("--iteration", o->iteration, "Store mode: only this iteration")
        ->check(CLI::NonNegativeNumber)
        ->type_name("N");
    cmd->add_option("--as", o->label, "Store mode: store under this name instead of the method's (compare variants)")
        ->type_name("LABEL");
    input->excludes(run);
    db->needs(run);
    cmd->footer("File mode:  credit --method NAME --input trajs.jsonl --output credits.jsonl\n"
                "Store mode: credit --method NAME --run ID [--db runs.db] [--output credits.jsonl]\n"
                "Output lines: {\"id\": ..., \"advantages\": [one per turn], \"details\": {...}}; the\n"
                "advantage is what the policy loss broadcasts onto the turn's action tokens. Turns read from\n"
                "another trainer's dump add their own index, parallel to the advantages: \"message_index\"\n"
                "(chat, ShareGPT, verl) or \"step_index\" (per-step rows), to join the credit back on.");
    cmd->callback([o] {
        // Everything is checked before anything is read or written.
        const Estimator& method = credit::requireEstimator(o->method);
        const credit::Params params = method.resolve(credit::splitAssignments(o->sets));
        if (o->run >= 0) {
            runStoreMode(*o, method, params);
            return;
        }
        if (o->input.empty() || o->output.empty())
            throw CLI::ValidationError("credit", "needs --input and --output (file mode) or --run (store mode)");
        runFileMode(*o, method, params);
    });
}

void addMethodsCommand(CLI::App& app)
{
    auto json = std::make_shared<bool>(false);
    CLI::App* cmd = app.add_subcommand("methods", "List the credit methods and their parameters with defaults");
    cmd->add_flag("--json", *json, "One JSON object per method, for scripts and GUIs");
    cmd->callback([json] {
        for (const Estimator* e : credit::estimators()) {
            if (*json) {
                std::string out = "{\"name\":";
                appendJsonString(out, e->name());
                out += ",\"summary\":";
                appendJsonString(out, e->summary());
                out += ",\"params\":[";
                bool first = true;
                for (const credit::ParamSpec& p : e->params()) {
                    out += first ? "{" : ",{";
                    first = false;
                    out += "\"name\":";
                    appendJsonString(out, p.name);
                    out += ",\"type\":";
                    appendJsonString(out, p.typeName());
                    out += ",\"default\":";
                    appendJsonString(out, p.defaultValue);
                    out += ",\"range\":";
                    appendJsonString(out, p.rangeText());
                    out += ",\"doc\":";
                    appendJsonString(out, p.doc);
                    out += "}";
                }
                out += "]}\n";
                std::fputs(out.c_str(), stdout);
                continue;
            }
            std::printf("%s\n    %s\n", std::string(e->name()).c_str(), std::string(e->summary()).c_str());
            for (const credit::ParamSpec& p : e->params()) {
                const std::string range = p.rangeText();
                std::printf("    %-12s %-8s = %-8s %s%s%s\n", p.name.c_str(),
                    p.type == credit::ParamType::Choice ? "choice" : p.typeName().c_str(), p.defaultValue.c_str(),
                    p.doc.c_str(), range.empty() ? "" : ("  " + range).c_str(),
                    p.type == credit::ParamType::Choice ? ("  (" + p.typeName() + ")").c_str() : "");
            }
            std::printf("\n");
        }
    });
}

} // namespace creditlab::cli
