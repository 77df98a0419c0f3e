#include "core/learn/torch/pair/probepipeline.h"

#include "core/interchange/jsonscanner.h"
#include "core/learn/api/runtime.h"
#include "core/learn/api/trainconfig.h"
#include "core/learn/torch/hf/hfformat.h"
#include "core/learn/torch/hf/hfpolicy.h"
#include "core/learn/torch/lm/checkpoint.h"
#include "core/learn/torch/lm/prompt.h"
#include "core/learn/torch/lm/sequence.h"
#include "core/learn/torch/lm/tokenizer.h"
#include "core/learn/torch/lm/transformer.h"
#include "core/model/progress.h"
#include "core/probe/metrics.h"
#include "core/probe/probeio.h"
#include "core/storage/paths.h"
#include "core/storage/store.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>

namespace creditlab::learn {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

void report(const ProbeCallback& callback, const std::string& phase, std::int64_t done, std::int64_t total,
    Clock::time_point start)
{
    if (callback && !callback({ phase, done, total, since(start) }))
        throw Cancelled();
}

struct LoadedPolicy {
    TrainConfig config;
    Tokenizer tokenizer; ///< a built-in policy's
    std::unique_ptr<TokenFormat> format; ///< a pretrained policy's chat format (null for a built-in policy)
    Transformer model { nullptr };
    std::string description;
};

LoadedPolicy loadPolicy(const ProbeSource& source)
{
    const std::string what = "run " + std::to_string(source.runId);
    Store store(source.database);
    if (!store.run(source.runId))
        throw std::invalid_argument(what + " does not exist in " + source.database);
    const auto text = store.runConfig(source.runId);
    if (!text)
        throw std::invalid_argument(what + " has no stored config (it is not a training run)");
    LoadedPolicy p { TrainConfig::parse(*text, what + " config"), Tokenizer(), nullptr, Transformer(nullptr), {} };
    const std::string files = paths::runFiles(source.database, source.runId);
    const auto checkpoint = store.lastCheckpoint(source.runId);
    const bool fromCheckpoint = checkpoint && !source.sftPolicy;
    if (!fromCheckpoint && !fs::exists(files + "/reference.pt"))
        throw std::invalid_argument(what + " has no SFT policy yet (" + files + "/reference.pt)");
    p.description = fromCheckpoint ? what + " checkpoint after iteration " + std::to_string(checkpoint->first)
                                   : what + " SFT policy";
    if (const std::string model = p.config.getText("policy.pretrained"); !model.empty()) {
        const torch::Device device(resolveDevice(source.device));
        const hf::ModelFolder folder = hf::ModelFolder::open(model);
        p.format = std::make_unique<HfFormat>(HfFormat::load(folder, p.config.getText("policy.system_prompt")));
        p.model = loadRunPolicy(p.config, folder, device, files + "/reference.pt",
            fromCheckpoint ? checkpoint->second + "/policy.pt" : std::string());
        p.model->eval();
        return p;
    }
    p.tokenizer = Tokenizer::load(files + "/tokenizer.txt");
    p.model = loadBuiltinRunPolicy(p.config, p.tokenizer.size(), torch::Device(resolveDevice(source.device)),
        fromCheckpoint ? checkpoint->second + "/policy.pt" : files + "/reference.pt");
    p.model->eval();
    return p;
}

/// The record's sequence as the trainer builds it: the prompt, then the action tokens and </act>.
std::vector<std::int32_t> recordSequence(
    const LoadedPolicy& p, const ContaminatedDataset& data, const ProbeRecord& record, std::int64_t& spanStart)
{
    const Turn& turn = recordTurn(data, record);
    if (p.format) {
        // A pretrained policy reads its episode as a chat: the goal, the prefix turns, this observation, as the
        // trainer's episode stream holds them; the span opens with the assistant header.
        const auto context = static_cast<std::int32_t>(p.config.getInt("policy.context"));
        const auto action = p.format->action(turn.action);
        EpisodeStream stream(p.format->goal(data.episodes[record.episode].goal), context,
            std::max(static_cast<std::int32_t>(p.config.getInt("policy.max_action_tokens")),
                std::min(context - 8, static_cast<std::int32_t>(action.size()))));
        for (const Turn& before : recordPrefix(data, record)) {
            stream.beginTurn(p.format->observation(before.observation, stream.afterAction()));
            stream.endTurn(p.format->action(before.action));
        }
        const ObservationChunk chunk = p.format->observation(turn.observation, stream.afterAction());
        stream.beginTurn(chunk);
        auto tokens = stream.current();
        spanStart = static_cast<std::int64_t>(tokens.size()) - std::max(1, chunk.tail);
        tokens.insert(tokens.end(), action.begin(), action.end());
        if (static_cast<std::int64_t>(tokens.size()) > context)
            tokens.resize(static_cast<std::size_t>(context));
        return tokens;
    }
    std::vector<std::int32_t> action = p.tokenizer.encode(turn.action);
    action.push_back(Tokenizer::kEnd);
    PromptOptions prompt;
    prompt.history = static_cast<int>(p.config.getInt("policy.history"));
    prompt.initialObservation = p.config.getBool("policy.initial_observation");
    // The trainer's budget, shrunk when a long (injected) action would not fit the context otherwise.
    const auto context = p.config.getInt("policy.context");
    prompt.budget = static_cast<int>(
        std::min(context - p.config.getInt("policy.max_action_tokens"), context - std::int64_t(action.size())));
    prompt.budget = std::max(prompt.budget, 8);
    auto tokens = buildPrompt(
        p.tokenizer, prompt, data.episodes[record.episode].goal, recordPrefix(data, record), turn.observation);
    spanStart = static_cast<std::int64_t>(tokens.size()) - 1; // the <act> header opens the turn
    tokens.insert(tokens.end(), action.begin(), action.end());
    if (static_cast<std::int64_t>(tokens.size()) > context)
        tokens.resize(static_cast<std::size_t>(context)); // only an action longer than the whole context
    return tokens;
}

std::vector<TurnFeatures> selectFeatures(const ProbeData& data, const std::vector<std::size_t>& rows)
{
    std::vector<TurnFeatures> out;
    out.reserve(rows.size());
    for (const auto r : rows)
        out.push_back(data.features[r]);
    return out;
}

std::vector<int> labelsOf(const ProbeData& data, const std::vector<std::size_t>& rows)
{
    std::vector<int> y;
    for (const auto r : rows)
        y.push_back(data.dataset.records[r].label);
    return y;
}

std::vector<probe::FeatureMatrix> layerMatrices(const std::vector<TurnFeatures>& turns, std::int64_t layers)
{
    std::vector<probe::FeatureMatrix> out(static_cast<std::size_t>(layers));
    for (std::size_t l = 0; l < out.size(); ++l)
        for (const auto& t : turns)
            out[l].appendRow(std::span<const float>(t.layerLastToken[l]));
    return out;
}

} // namespace

ProbeData buildProbeData(const ProbeSource& source, const ProbeDataOptions& options, const ProbeCallback& callback)
{
    if (options.batchSize < 1)
        throw std::invalid_argument("probe: batch size must be at least 1");
    const auto start = Clock::now();
    LoadedPolicy p = loadPolicy(source);
    ProbeData data;
    data.policy = p.description;
    data.layers = p.model->options().layers;
    data.heads = p.model->options().heads;
    data.width = p.model->options().width;

    ContaminationOptions c;
    c.env = p.config.envName();
    c.envAssignments = p.config.envAssignments();
    c.episodes = options.episodes;
    c.seed = options.seed;
    c.maxTurns = options.maxTurns;
    c.searchExpert = p.config.getText("sft.demonstrator") == "search-expert";
    data.dataset = buildContaminatedDataset(c, [&](std::int64_t done, std::int64_t total) {
        report(callback, "data", done, total, start);
        return true;
    });
    data.dataSeconds = since(start);

    const auto featureStart = Clock::now();
    const auto& records = data.dataset.records;
    std::vector<std::vector<std::int32_t>> sequences(records.size());
    std::vector<TurnSequence> turns(records.size());
    for (std::size_t r = 0; r < records.size(); ++r) {
        sequences[r] = recordSequence(p, data.dataset, records[r], turns[r].spanStart);
        turns[r].tokens = &sequences[r];
        data.tokens += static_cast<std::int64_t>(sequences[r].size());
    }
    data.features
        = batchedTurnFeatures(*p.model, turns, static_cast<std::size_t>(options.batchSize), [&](std::size_t done) {
              report(callback, "features", static_cast<std::int64_t>(done), static_cast<std::int64_t>(records.size()),
                  start);
          });
    data.featureSeconds = since(featureStart);
    return data;
}

ProbeSet fitProbes(const ProbeData& data, const std::vector<std::string>& names, const ProbeFitOptions& options,
    const ProbeCallback& cb)
{
    const auto known = probeNames();
    for (const auto& name : names)
        if (std::find(known.begin(), known.end(), name) == known.end()) {
            std::string list;
            for (const auto& k : known)
                list += (list.empty() ? "" : ", ") + k;
            throw std::invalid_argument("unknown probe '" + name + "' (known: " + list + ", all)");
        }
    const auto start = Clock::now();
    std::vector<std::size_t> train;
    for (std::size_t r = 0; r < data.dataset.records.size(); ++r)
        if (!data.dataset.records[r].test)
            train.push_back(r);
    const auto turns = selectFeatures(data, train);
    const auto y = labelsOf(data, train);
    probe::LogisticOptions logistic;
    logistic.c = options.c;

    ProbeSet set;
    std::int64_t done = 0;
    for (const auto& name : names) {
        if (name == "pair") {
            probe::PairProbeOptions o;
            o.stage1 = logistic;
            o.stage2 = logistic;
            o.mode = options.pairMode;
            probe::PairProbe pair;
            pair.fit(pairFeatureMatrix(turns, PairFeatureType::LastToken),
                pairFeatureMatrix(turns, PairFeatureType::MultiAttention), y, o);
            set.pair = std::move(pair);
        } else if (name == "layerwise") {
            // The layer is chosen on every fifth training episode, held out from the per-layer fits.
            std::vector<std::size_t> fitRows, validationRows;
            for (const auto r : train)
                (data.dataset.records[r].episode % 5 == 4 ? validationRows : fitRows).push_back(r);
            const auto yv = labelsOf(data, validationRows);
            if (std::count(yv.begin(), yv.end(), 1) == 0 || std::count(yv.begin(), yv.end(), 0) == 0)
                validationRows = fitRows = train;
            probe::LayerwiseProbe layerwise;
            layerwise.fit(layerMatrices(selectFeatures(data, fitRows), data.layers), labelsOf(data, fitRows),
                layerMatrices(selectFeatures(data, validationRows), data.layers), labelsOf(data, validationRows),
                logistic);
            set.layerwise = std::move(layerwise);
        } else {
            probe::LinearProbe linear;
            linear.fit(pairFeatureMatrix(turns, pairFeatureTypeFromName(name)), y, logistic);
            set.linear.emplace_back(name, std::move(linear));
        }
        report(cb, "fit", ++done, static_cast<std::int64_t>(names.size()), start);
    }
    return set;
}

std::vector<ProbeRow> evaluateProbes(const ProbeSet& set, const ProbeData& data)
{
    std::vector<std::size_t> test;
    for (std::size_t r = 0; r < data.dataset.records.size(); ++r)
        if (data.dataset.records[r].test)
            test.push_back(r);
    const auto turns = selectFeatures(data, test);
    const auto y = labelsOf(data, test);
    const auto row = [&](const std::string& name, std::int64_t features, const std::vector<double>& scores) {
        std::vector<double> clean, contaminated;
        std::vector<int> yc, yx;
        for (std::size_t i = 0; i < test.size(); ++i) {
            const bool isClean = data.dataset.records[test[i]].prefix == PrefixType::Clean;
            (isClean ? clean : contaminated).push_back(scores[i]);
            (isClean ? yc : yx).push_back(y[i]);
        }
        return ProbeRow { name, features, probe::auroc(clean, yc), probe::auroc(contaminated, yx),
            probe::auroc(scores, y), probe::expectedCalibrationError(scores, y), probe::brierScore(scores, y) };
    };
    std::vector<ProbeRow> rows;
    for (const auto& [name, linear] : set.linear)
        rows.push_back(row(name, static_cast<std::int64_t>(linear.features()),
            linear.score(pairFeatureMatrix(turns, pairFeatureTypeFromName(name)))));
    if (set.pair)
        rows.push_back(row("pair", static_cast<std::int64_t>(set.pair->attentionFeatures() + 1),
            set.pair->score(pairFeatureMatrix(turns, PairFeatureType::LastToken),
                pairFeatureMatrix(turns, PairFeatureType::MultiAttention))));
    if (set.layerwise)
        rows.push_back(row("layerwise", static_cast<std::int64_t>(data.width),
            set.layerwise->score(layerMatrices(turns, data.layers))));
    return rows;
}

ProbeSplitCounts probeSplitCounts(const ProbeData& data)
{
    ProbeSplitCounts c;
    for (const auto& r : data.dataset.records) {
        if (!r.test) {
            ++c.trainRecords;
            continue;
        }
        c.testClean += r.prefix == PrefixType::Clean;
        c.testContaminated += r.hasContaminatedPrefix;
        c.testNegatives += r.label == 0;
    }
    return c;
}

std::string probeSetToJson(
    const ProbeSet& set, std::int64_t runId, const std::string& policy, const ProbeDataOptions& data, bool sftPolicy)
{
    std::string out
        = "{\"format\":\"creditlab-probe-set\",\"version\":1,\"run\":" + std::to_string(runId) + ",\"policy\":";
    appendJsonString(out, policy);
    out += ",\"sft_policy\":" + std::string(sftPolicy ? "true" : "false")
        + ",\"data\":{\"episodes\":" + std::to_string(data.episodes) + ",\"seed\":" + std::to_string(data.seed)
        + ",\"max_turns\":" + std::to_string(data.maxTurns) + "},\"probes\":[";
    bool first = true;
    const auto add = [&](const std::string& name, const std::string& json) {
        out += first ? "" : ",";
        first = false;
        out += "{\"name\":";
        appendJsonString(out, name);
        out += ",\"probe\":" + json + "}";
    };
    for (const auto& [name, linear] : set.linear)
        add(name, probe::toJson(linear));
    if (set.pair)
        add("pair", probe::toJson(*set.pair));
    if (set.layerwise)
        add("layerwise", probe::toJson(*set.layerwise));
    return out + "]}\n";
}

ProbeSet probeSetFromJson(const std::string& json, const std::string& source, ProbeSetHeader* header)
{
    ProbeSet set;
    ProbeSetHeader h;
    bool format = false;
    try {
        JsonScanner s(json);
        s.expect('{');
        std::string key;
        for (bool firstMember = true; s.nextMember(key, nullptr, firstMember); firstMember = false) {
            if (key == "format") {
                std::string value;
                s.readString(value);
                if (value != "creditlab-probe-set")
                    throw std::invalid_argument("format is '" + value + "', not creditlab-probe-set");
                format = true;
            } else if (key == "version") {
                if (s.readNumber() != 1)
                    throw std::invalid_argument("version: only version 1 is supported");
            } else if (key == "run") {
                h.runId = static_cast<std::int64_t>(s.readNumber());
            } else if (key == "policy") {
                s.readString(h.policy);
            } else if (key == "sft_policy") {
                h.sftPolicy = s.readBool();
            } else if (key == "data") {
                s.expect('{');
                for (bool f = true; s.nextMember(key, nullptr, f); f = false) {
                    const double v = s.readNumber();
                    if (key == "episodes")
                        h.data.episodes = static_cast<std::int64_t>(v);
                    else if (key == "seed")
                        h.data.seed = static_cast<std::uint64_t>(v);
                    else if (key == "max_turns")
                        h.data.maxTurns = static_cast<int>(v);
                }
            } else if (key == "probes") {
                s.expect('[');
                for (bool f = true; s.nextElement(f); f = false) {
                    s.expect('{');
                    std::string name, probeJson;
                    for (bool g = true; s.nextMember(key, nullptr, g); g = false) {
                        if (key == "name")
                            s.readString(name);
                        else if (key == "probe")
                            probeJson = std::string(s.skipValue());
                        else
                            s.skipValue();
                    }
                    if (name.empty() || probeJson.empty())
                        throw std::invalid_argument("probes: an entry lacks \"name\" or \"probe\"");
                    if (name == "pair")
                        set.pair = probe::pairProbeFromJson(probeJson);
                    else if (name == "layerwise")
                        set.layerwise = probe::layerwiseProbeFromJson(probeJson);
                    else
                        set.linear.emplace_back(name, probe::linearProbeFromJson(probeJson));
                }
            } else {
                s.skipValue();
            }
        }
        s.expectEnd();
    } catch (const JsonSyntaxError& e) {
        throw std::invalid_argument(source + ": malformed JSON at byte " + std::to_string(e.offset) + ": " + e.message);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(source + ": " + e.what());
    }
    if (!format)
        throw std::invalid_argument(source + ": missing \"format\": not a creditlab probe file");
    if (header)
        *header = h;
    return set;
}

} // namespace creditlab::learn
