// probe: PAIR's correctness probes on a run's own policy (pair.md §2.2–§2.8): train, eval, and the AUROC table.
#include "commands.h"

#include "core/interchange/jsonscanner.h"
#include "core/learn/torch/pair/probepipeline.h"
#include "core/probe/probeio.h"
#include "core/storage/atomicfile.h"
#include "core/storage/paths.h"

#include <cmath>
#include <cstdio>
#include <map>

namespace creditlab::cli {

namespace {

struct ProbeCliOptions {
    DbOption db;
    std::int64_t run = 0;
    std::int64_t episodes = 200;
    std::uint64_t seed = 42;
    int maxTurns = 12;
    int batchSize = 32;
    std::string feature = "all";
    std::string mode = "concat";
    double c = 0.01;
    std::string output;
    std::string probe;
    std::string device;
    bool sft = false;
    bool json = false;
};

learn::ProbeData extract(const learn::ProbeSource& source, const learn::ProbeDataOptions& options)
{
    ProgressLine line("probe run " + std::to_string(source.runId));
    auto data = learn::buildProbeData(source, options, [&](const learn::ProbeProgress& p) {
        const double fraction = p.phase == "data"
            ? 0.2 * static_cast<double>(p.done) / static_cast<double>(p.total)
            : 0.2 + 0.8 * static_cast<double>(p.done) / static_cast<double>(p.total);
        const double eta = fraction > 0 ? p.elapsedSeconds * (1.0 - fraction) / fraction : -1.0;
        return line.update(fraction,
                   (p.phase == "data" ? "episodes " : "features ") + std::to_string(p.done) + "/"
                       + std::to_string(p.total),
                   eta)
            && !g_interrupted.load();
    });
    line.clear();
    return data;
}

std::string number(double v) { return std::isnan(v) ? "null" : std::to_string(v); }

void printSummary(const learn::ProbeData& data)
{
    const auto counts = learn::probeSplitCounts(data);
    const double perTurn
        = data.features.empty() ? 0.0 : data.featureSeconds / static_cast<double>(data.features.size());
    std::printf("%s: %zu episodes (%lld rolled out), %zu records; train %lld, test %lld clean-prefix + %lld "
                "contaminated-prefix (%lld after a corrupted turn), %lld test negatives\n",
        data.policy.c_str(), data.dataset.episodes.size(), static_cast<long long>(data.dataset.sourceEpisodes),
        data.dataset.records.size(), static_cast<long long>(counts.trainRecords),
        static_cast<long long>(counts.testClean), static_cast<long long>(counts.testClean),
        static_cast<long long>(counts.testContaminated), static_cast<long long>(counts.testNegatives));
    std::map<learn::ContaminationType, int> types;
    int twice = 0;
    for (const auto& e : data.dataset.episodes) {
        for (const auto t : e.types)
            ++types[t];
        twice += e.corrupted.size() == 2;
    }
    std::printf("contamination:");
    for (const auto t : learn::allContaminationTypes())
        std::printf(" %s %d", learn::contaminationTypeName(t), types[t]);
    std::printf("; %d episodes with 2 corrupted turns\n", twice);
    std::printf("features: %.2f s for %zu turns (%.3f ms per turn, %lld tokens); data %.2f s\n", data.featureSeconds,
        data.features.size(), 1000.0 * perTurn, static_cast<long long>(data.tokens), data.dataSeconds);
}

void printTable(const std::vector<learn::ProbeRow>& rows, bool json, const learn::ProbeData& data)
{
    if (json) {
        const auto counts = learn::probeSplitCounts(data);
        std::string out = "{\"policy\":";
        appendJsonString(out, data.policy);
        out += ",\"test_clean\":" + std::to_string(counts.testClean)
            + ",\"test_contaminated\":" + std::to_string(counts.testClean) + ",\"feature_ms_per_turn\":"
            + number(data.features.empty() ? 0.0 : 1000.0 * data.featureSeconds / double(data.features.size()))
            + ",\"rows\":[";
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const auto& r = rows[i];
            out += (i ? "," : "") + std::string("{\"name\":");
            appendJsonString(out, r.name);
            out += ",\"features\":" + std::to_string(r.features) + ",\"auroc_clean\":" + number(r.aurocClean)
                + ",\"auroc_contaminated\":" + number(r.aurocContaminated) + ",\"auroc_union\":" + number(r.aurocUnion)
                + ",\"ece\":" + number(r.ece) + ",\"brier\":" + number(r.brier) + "}";
        }
        std::printf("%s]}\n", out.c_str());
        return;
    }
    printSummary(data);
    std::printf("%-18s %8s %8s %13s %8s %8s %8s\n", "probe", "dims", "clean", "contaminated", "union", "ECE", "Brier");
    for (const auto& r : rows)
        std::printf("%-18s %8lld %8.4f %13.4f %8.4f %8.4f %8.4f\n", r.name.c_str(), static_cast<long long>(r.features),
            r.aurocClean, r.aurocContaminated, r.aurocUnion, r.ece, r.brier);
}

learn::ProbeSource sourceOf(const ProbeCliOptions& o) { return { o.db.resolved(), o.run, o.sft, o.device }; }

learn::ProbeDataOptions dataOf(const ProbeCliOptions& o)
{
    learn::ProbeDataOptions d;
    d.episodes = o.episodes;
    d.seed = o.seed;
    d.maxTurns = o.maxTurns;
    d.batchSize = o.batchSize;
    return d;
}

void train(const ProbeCliOptions& o, bool tableOnly)
{
    const auto names = o.feature == "all" ? learn::probeNames() : std::vector<std::string> { o.feature };
    learn::ProbeFitOptions fit;
    fit.c = o.c;
    fit.pairMode = probe::pairStage2ModeFromName(o.mode);
    const auto source = sourceOf(o);
    const auto options = dataOf(o);
    {
        const auto known = learn::probeNames();
        if (o.feature != "all" && std::find(known.begin(), known.end(), o.feature) == known.end())
            throw CLI::ValidationError("--feature", "unknown probe '" + o.feature + "' (see --help)");
    }
    const auto data = extract(source, options);
    const auto set = learn::fitProbes(data, names, fit, [](const learn::ProbeProgress&) { return !g_interrupted; });
    if (!tableOnly)
        writeFileAtomically(o.output, learn::probeSetToJson(set, o.run, data.policy, options, o.sft));
    printTable(learn::evaluateProbes(set, data), o.json, data);
    if (!tableOnly && !o.json)
        std::printf("wrote %s\n", o.output.c_str());
}

void evaluate(const ProbeCliOptions& o)
{
    learn::ProbeSetHeader header;
    const auto set = learn::probeSetFromJson(probe::readProbeFile(o.probe), o.probe, &header);
    if (header.runId != o.run)
        std::fprintf(stderr, "note: %s was trained on run %lld; evaluating on run %lld\n", o.probe.c_str(),
            static_cast<long long>(header.runId), static_cast<long long>(o.run));
    auto source = sourceOf(o);
    source.sftPolicy = source.sftPolicy || header.sftPolicy;
    // The same episodes, seed and filter as training, so that the test split is the one the probes never saw.
    auto options = header.data;
    options.batchSize = o.batchSize;
    const auto data = extract(source, options);
    printTable(learn::evaluateProbes(set, data), o.json, data);
}

void addCommonOptions(CLI::App* cmd, const std::shared_ptr<ProbeCliOptions>& o)
{
    cmd->add_option("--run", o->run, "Training run whose policy the features come from")
        ->required()
        ->check(CLI::PositiveNumber)
        ->type_name("ID");
    cmd->add_option("--db", o->db.path, "Database (default: " + defaultDatabasePath() + ")")->type_name("FILE");
    cmd->add_flag("--sft", o->sft, "Use the run's SFT policy even when it has RL checkpoints");
    cmd->add_option("--device", o->device, "cpu, cuda or cuda:N (default: cpu)")->type_name("DEVICE");
    cmd->add_flag("--json", o->json, "Print the table as JSON on stdout");
    cmd->add_option("--batch-size", o->batchSize, "Sequences per forward pass (1: one teacher-forced pass each)")
        ->check(CLI::Range(1, 4096))
        ->type_name("B");
}

void addDataOptions(CLI::App* cmd, const std::shared_ptr<ProbeCliOptions>& o)
{
    cmd->add_option("--episodes", o->episodes, "Source episodes after the filters (80:20 split by episode)")
        ->check(CLI::Range(std::int64_t(2), std::int64_t(100000)))
        ->type_name("N");
    cmd->add_option("--seed", o->seed, "Contamination seed (which turns are corrupted, and how)")->type_name("S");
    cmd->add_option("--max-turns", o->maxTurns, "Keep episodes of 3 to N turns")
        ->check(CLI::Range(3, 1000))
        ->type_name("N");
    cmd->add_option("--feature", o->feature,
           "last_token, mean_pooled, multi_layer, attention, hidden_attention, multi_attention, lookback, pair, "
           "layerwise, or all")
        ->type_name("TYPE");
    cmd->add_option("--mode", o->mode, "PAIR Stage 2: concat (Eq. 4) or logit_residual")
        ->check(CLI::IsMember({ "concat", "logit_residual" }))
        ->type_name("MODE");
    cmd->add_option("--c", o->c, "Inverse l2 strength of every probe (paper: 0.01)")
        ->check(CLI::PositiveNumber)
        ->type_name("C");
}

} // namespace

void addProbeCommand(CLI::App& app)
{
    CLI::App* cmd = app.add_subcommand("probe", "PAIR probes on a run's policy: train, eval, AUROC table");
    cmd->require_subcommand(1);

    auto t = std::make_shared<ProbeCliOptions>();
    CLI::App* train = cmd->add_subcommand("train", "Build contaminated household data, fit probes, save them");
    addCommonOptions(train, t);
    addDataOptions(train, t);
    train->add_option("--output,-o", t->output, "Probe file to write (JSON, written atomically)")
        ->required()
        ->type_name("FILE");
    train->callback([t] { ::creditlab::cli::train(*t, false); });

    auto e = std::make_shared<ProbeCliOptions>();
    CLI::App* eval = cmd->add_subcommand("eval", "Evaluate a probe file on its test split of a run's policy");
    addCommonOptions(eval, e);
    eval->add_option("--probe", e->probe, "Probe file written by 'probe train'")->required()->type_name("FILE");
    eval->callback([e] { evaluate(*e); });

    auto b = std::make_shared<ProbeCliOptions>();
    CLI::App* table = cmd->add_subcommand("table", "Fit every probe and print the AUROC table (pair.md Table 1)");
    addCommonOptions(table, b);
    addDataOptions(table, b);
    table->callback([b] { ::creditlab::cli::train(*b, true); });
}

} // namespace creditlab::cli
