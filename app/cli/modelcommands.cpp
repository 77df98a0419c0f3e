// model: Hugging Face model folders (issue 34). `inspect`, `tokenize`, `render`, `score`, and `export` of a training
// run's pretrained policy; in the training module (learnmodule.h) since `score` and `export` run the decoder.
#include "commands.h"
#include "learnmodule.h"

#include "core/hf/chatformat.h"
#include "core/hf/chatrender.h"
#include "core/hf/error.h"
#include "core/hf/hubcache.h"
#include "core/hf/modelfolder.h"
#include "core/hf/modelsummary.h"
#include "core/hf/tokenizer.h"
#include "core/learn/api/runtime.h"
#include "core/learn/api/trainconfig.h"
#include "core/learn/torch/hf/hfexport.h"
#include "core/learn/torch/hf/hfmodel.h"
#include "core/learn/torch/hf/hfpolicy.h"
#include "core/model/text.h"
#include "core/storage/atomicfile.h"
#include "core/storage/paths.h"
#include "core/storage/store.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>

namespace creditlab::cli {

namespace {

struct ModelCliOptions {
    std::string dir;
    std::string input;
    std::string output = "-";
    std::string device = "cpu";
    std::string dtype = "auto";
    bool json = false;
    std::int64_t rows = 8;
    std::int64_t context = 2048;
    std::int64_t loraRank = 0;
    int threads = 0;
    DbOption db;
    std::int64_t run = 0;
    std::optional<std::int64_t> checkpoint;
    bool merged = false;
};

/// `model export`: the run's policy at a checkpoint (or its SFT policy) as PEFT adapters or a whole folder; a built-in
/// policy as a Llama folder with CreditLab's tokenizer.
void exportRun(const ModelCliOptions& o)
{
    const std::string db = o.db.resolved();
    if (!std::filesystem::exists(db))
        throw std::runtime_error(db + ": no such database");
    Store store(db, Store::Access::ReadOnly);
    const std::string what = "run " + std::to_string(o.run);
    if (!store.run(o.run))
        throw std::runtime_error(what + " does not exist in " + db);
    const auto text = store.runConfig(o.run);
    if (!text)
        throw std::runtime_error(what + " has no stored config (it is not a training run)");
    const auto config = learn::TrainConfig::parse(*text, what + " config");
    const std::string model = config.getText("policy.pretrained");
    const std::string files = paths::runFiles(db, o.run);
    const std::string reference = files + "/reference.pt";
    if (!std::filesystem::exists(reference))
        throw std::runtime_error(what + " has no SFT policy yet (" + reference
            + "): it stopped before its first "
              "checkpoint");
    std::string checkpoint;
    std::string source = what + " SFT policy";
    const auto all = store.checkpoints(o.run);
    if (!o.checkpoint && !all.empty()) {
        checkpoint = all.back().second + "/policy.pt";
        source = what + " checkpoint after iteration " + std::to_string(all.back().first);
    } else if (o.checkpoint && *o.checkpoint > 0) {
        std::string kept;
        for (const auto& [iteration, dir] : all) {
            kept += (kept.empty() ? "" : ", ") + std::to_string(iteration);
            if (iteration == *o.checkpoint)
                checkpoint = dir + "/policy.pt";
        }
        if (checkpoint.empty())
            throw std::runtime_error("--checkpoint " + std::to_string(*o.checkpoint) + ": " + what
                + " keeps checkpoints after iterations " + (kept.empty() ? "(none)" : kept) + "; 0 is its SFT policy");
        source = what + " checkpoint after iteration " + std::to_string(*o.checkpoint);
    }
    if (model.empty()) {
        // A built-in policy: a Llama decoder with CreditLab's tokenizer, written whole in float32.
        if (o.dtype != "auto" && o.dtype != "float32")
            throw std::runtime_error("--dtype " + o.dtype + ": " + what + " trained a built-in policy, written in float32");
        const auto tokenizer = learn::Tokenizer::load(files + "/tokenizer.txt");
        auto policy = learn::loadBuiltinRunPolicy(
            config, tokenizer.size(), torch::Device(torch::kCPU), checkpoint.empty() ? reference : checkpoint);
        learn::saveBuiltinHfFolder(policy->decoder(), tokenizer, o.output);
        std::printf("wrote %s: %s as a whole model (built-in %lldx%lld, llama, F32, CreditLab's tokenizer)\n",
            o.output.c_str(), source.c_str(), static_cast<long long>(config.getInt("policy.width")),
            static_cast<long long>(config.getInt("policy.layers")));
        return;
    }
    const auto folder = hf::ModelFolder::open(model);
    if (config.getText("policy.finetune") == "lora" && !o.merged) {
        auto adapters = learn::runAdapters(config, folder, reference, checkpoint);
        learn::saveLoraAdapter(adapters, model, o.output);
        std::printf("wrote %s: PEFT LoRA adapters (rank %lld) of %s for %s\n", o.output.c_str(),
            static_cast<long long>(adapters->loraOptions().rank), source.c_str(), model.c_str());
        return;
    }
    auto policy = learn::loadRunPolicy(config, folder, torch::Device(torch::kCPU), reference, checkpoint);
    hf::DType dtype = folder.storedDType();
    if (o.dtype == "float32")
        dtype = hf::DType::F32;
    else if (o.dtype == "bfloat16")
        dtype = hf::DType::BF16;
    else if (o.dtype == "float16")
        dtype = hf::DType::F16;
    learn::saveHfFolder(policy->decoder(), folder, o.output, dtype);
    std::printf("wrote %s: %s as a whole model (%s, %s)\n", o.output.c_str(), source.c_str(),
        folder.config.modelType.c_str(), hf::dtypeName(dtype));
}

std::string gib(double bytes)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
    return buf;
}

std::string withCommas(std::int64_t n)
{
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

/// The non-blank lines of a JSON Lines file with their line numbers, each parsed; errors name the file and line.
std::vector<std::pair<std::size_t, nlohmann::json>> readJsonLines(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error(path + ": cannot read");
    std::vector<std::pair<std::size_t, nlohmann::json>> out;
    std::string line;
    for (std::size_t number = 1; std::getline(in, line); ++number) {
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        try {
            out.emplace_back(number, nlohmann::json::parse(line));
        } catch (const nlohmann::json::exception& e) { // parse_error, or out_of_range for a number past double
            throw std::runtime_error(path + ":" + std::to_string(number) + ": invalid JSON: " + e.what());
        }
    }
    return out;
}

nlohmann::ordered_json describe(const hf::ModelFolder& folder, const ModelCliOptions& o)
{
    const hf::ModelSummary s = hf::summarizeModel(folder);
    const hf::ModelConfig& c = s.config;
    nlohmann::ordered_json j;
    j["folder"] = s.folder;
    j["architecture"] = hf::architectureName(c.arch);
    j["model_type"] = c.modelType;
    j["parameters"] = c.parameterCount();
    j["layers"] = c.layers;
    j["hidden_size"] = c.hiddenSize;
    j["intermediate_size"] = c.intermediateSize;
    j["heads"] = c.heads;
    j["kv_heads"] = c.kvHeads;
    j["head_dim"] = c.headDim;
    j["vocab_size"] = c.vocabSize;
    j["context"] = c.maxPositions;
    j["rope"] = { { "type", hf::ropeTypeName(c.rope.type) }, { "theta", c.ropeTheta }, { "factor", c.rope.factor } };
    j["tied_embeddings"] = c.tieWordEmbeddings;
    j["qkv_bias"] = c.attentionBias;
    j["qk_norm"] = c.qkNorm;
    j["stored_dtype"] = hf::dtypeName(s.storedDType);
    nlohmann::ordered_json files = nlohmann::ordered_json::array();
    for (const auto& f : s.weights)
        files.push_back({ { "file", f.file }, { "tensors", f.tensors }, { "bytes", f.bytes } });
    j["weights"] = files;
    if (!s.tokenizer)
        j["tokenizer"] = nullptr;
    else if (!s.tokenizer->error.empty())
        j["tokenizer"] = { { "file", s.tokenizer->file }, { "error", s.tokenizer->error } };
    else
        j["tokenizer"] = { { "file", s.tokenizer->file }, { "size", s.tokenizer->size },
            { "description", s.tokenizer->description } };
    if (!s.chatTemplate.error.empty()) {
        j["chat_template"] = { { "error", s.chatTemplate.error } };
    } else {
        j["chat_template"] = { { "name", s.chatTemplate.name }, { "characters", s.chatTemplate.characters } };
        if (s.chatTemplate.eosToken)
            j["chat_template"]["eos_token"] = *s.chatTemplate.eosToken;
    }
    if (s.chatEpisodes)
        j["chat_episodes"]
            = { { "append_only", s.chatEpisodes->appendOnly }, { "think_only", s.chatEpisodes->thinkOnly },
                  { "difference", s.chatEpisodes->difference }, { "stop_tokens", s.chatEpisodes->stopTokens } };
    j["eos_token_ids"] = c.eosTokenIds;
    if (s.generation) {
        const hf::GenerationConfig& g = *s.generation;
        nlohmann::ordered_json gen = nlohmann::ordered_json::object();
        if (g.doSample)
            gen["do_sample"] = *g.doSample;
        if (g.temperature)
            gen["temperature"] = *g.temperature;
        if (g.topP)
            gen["top_p"] = *g.topP;
        if (g.topK)
            gen["top_k"] = *g.topK;
        if (!g.eosTokenIds.empty())
            gen["eos_token_ids"] = g.eosTokenIds;
        j["generation"] = gen;
    }
    const auto estimate = [&](int bytes) {
        const auto m = hf::estimateMemory(
            c, { .rows = o.rows, .context = o.context, .computeBytes = bytes, .loraRank = o.loraRank });
        return nlohmann::ordered_json { { "weights", m.weights }, { "training", m.training }, { "kv_cache", m.kvCache },
            { "activations", m.activations }, { "total", m.total() } };
    };
    j["memory"] = { { "rows", o.rows }, { "context", o.context }, { "lora_rank", o.loraRank },
        { "cpu_fp32", estimate(4) }, { "cuda_bf16", estimate(2) } };
    return j;
}

void printInspect(const nlohmann::ordered_json& j)
{
    auto line = [](const char* key, const std::string& value) { std::printf("%-16s %s\n", key, value.c_str()); };
    line("folder", j["folder"].get<std::string>());
    line("architecture", j["architecture"].get<std::string>() + " (" + j["model_type"].get<std::string>() + ")");
    line("parameters", withCommas(j["parameters"].get<std::int64_t>()));
    line("layers",
        std::to_string(j["layers"].get<std::int64_t>()) + " x hidden "
            + std::to_string(j["hidden_size"].get<std::int64_t>()) + ", MLP "
            + std::to_string(j["intermediate_size"].get<std::int64_t>()));
    line("attention",
        std::to_string(j["heads"].get<std::int64_t>()) + " heads, " + std::to_string(j["kv_heads"].get<std::int64_t>())
            + " key/value heads, head_dim " + std::to_string(j["head_dim"].get<std::int64_t>())
            + (j["qkv_bias"].get<bool>() ? ", q/k/v biases" : "") + (j["qk_norm"].get<bool>() ? ", q/k norm" : ""));
    line("vocabulary",
        withCommas(j["vocab_size"].get<std::int64_t>()) + " embedding rows"
            + (j["tied_embeddings"].get<bool>() ? ", tied LM head" : ", separate LM head"));
    char rope[96];
    std::snprintf(rope, sizeof rope, "%s, theta %g%s", j["rope"]["type"].get<std::string>().c_str(),
        j["rope"]["theta"].get<double>(),
        j["rope"]["type"] == "default" ? ""
                                       : (", factor " + std::to_string(j["rope"]["factor"].get<double>())).c_str());
    line("context", withCommas(j["context"].get<std::int64_t>()) + " positions; rope " + rope);
    std::size_t bytes = 0;
    for (const auto& f : j["weights"])
        bytes += f["bytes"].get<std::size_t>();
    line("weights",
        j["stored_dtype"].get<std::string>() + ", " + std::to_string(j["weights"].size()) + " file(s), "
            + gib(static_cast<double>(bytes)));
    const auto& tok = j["tokenizer"];
    line("tokenizer",
        tok.is_null()               ? "missing (tokenizer.json)"
            : tok.contains("error") ? tok["error"].get<std::string>()
                                    : tok["description"].get<std::string>());
    const auto& chat = j["chat_template"];
    line("chat template",
        chat.contains("error") ? chat["error"].get<std::string>()
                               : withCommas(chat["characters"].get<std::int64_t>()) + " characters"
                + (chat.contains("eos_token") ? ", eos " + chat["eos_token"].get<std::string>() : ""));
    if (j.contains("generation"))
        line("generation", j["generation"].dump());
    if (j.contains("chat_episodes")) {
        const auto& e = j["chat_episodes"];
        std::string stops;
        for (const auto& s : e["stop_tokens"])
            stops += (stops.empty() ? "" : " ") + s.get<std::string>();
        line("chat episodes",
            (e["append_only"].get<bool>()
                    ? std::string("append-only (the token stream equals the template's render)")
                    : std::string("NOT append-only") + (e["think_only"].get<bool>() ? " (<think> only)" : "") + ": "
                        + e["difference"].get<std::string>())
                + "; stop " + stops);
    }
    const auto& m = j["memory"];
    const std::string what = std::to_string(m["rows"].get<std::int64_t>()) + " x "
        + std::to_string(m["context"].get<std::int64_t>()) + " tokens, "
        + (m["lora_rank"].get<std::int64_t>() > 0 ? "LoRA r=" + std::to_string(m["lora_rank"].get<std::int64_t>())
                                                  : "full fine-tuning");
    line("memory",
        "about " + gib(m["cuda_bf16"]["total"].get<double>()) + " on CUDA in bf16, "
            + gib(m["cpu_fp32"]["total"].get<double>()) + " on the CPU in fp32 (" + what + ")");
}

} // namespace

void addModelCommand(CLI::App& app)
{
    CLI::App* model
        = app.add_subcommand("model", "Hugging Face model folders: inspect, tokenize, render, score, export");
    model->require_subcommand(1);
    auto o = std::make_shared<ModelCliOptions>();
    const std::string dirHelp = "A Hugging Face model folder, or a repository id in the local Hub cache (ORG/NAME)";

    CLI::App* inspect = model->add_subcommand("inspect", "Show a model folder's architecture, sizes, files and memory");
    inspect->add_option("dir", o->dir, dirHelp)->required();
    inspect->add_flag("--json", o->json, "Print one JSON object");
    inspect->add_option("--rows", o->rows, "Sequences at once, for the memory estimate")->check(CLI::PositiveNumber);
    inspect->add_option("--context", o->context, "Tokens per sequence, for the memory estimate")
        ->check(CLI::PositiveNumber);
    inspect->add_option("--lora", o->loraRank, "LoRA rank for the memory estimate (0: full fine-tuning)")
        ->check(CLI::NonNegativeNumber);
    inspect->callback([o] {
        const auto folder = hf::ModelFolder::open(o->dir, false);
        const auto j = describe(folder, *o);
        if (o->json)
            std::printf("%s\n", j.dump(2).c_str());
        else
            printInspect(j);
    });

    CLI::App* tokenize = model->add_subcommand(
        "tokenize", "Token ids of strings, as tokenizer.encode(text, add_special_tokens=False)");
    tokenize->add_option("dir", o->dir, dirHelp)->required();
    tokenize->add_option("--input", o->input, "JSON Lines: one JSON string per line")->required();
    tokenize->add_option("--output", o->output, "Where to write one JSON array of ids per line (- for stdout)");
    tokenize->callback([o] {
        const std::filesystem::path folder = hf::resolveModelFolder(o->dir);
        const hf::Tokenizer tokenizer = hf::Tokenizer::load((folder / "tokenizer.json").string());
        std::vector<std::string> lines;
        for (const auto& [line, j] : readJsonLines(o->input)) {
            if (!j.is_string())
                throw std::runtime_error(o->input + ":" + std::to_string(line) + ": expected a JSON string");
            try {
                nlohmann::json ids = tokenizer.encode(j.get<std::string>());
                lines.push_back(ids.dump());
            } catch (const hf::HfError& e) {
                throw std::runtime_error(o->input + ":" + std::to_string(line) + ": " + e.what());
            }
        }
        AtomicFile out(o->output);
        for (const std::string& l : lines)
            out.write(l + "\n");
        out.commit();
    });

    CLI::App* render = model->add_subcommand(
        "render", "Chat template renders, as apply_chat_template(messages, tokenize=False, add_generation_prompt=...)");
    render->add_option("dir", o->dir, dirHelp)->required();
    render
        ->add_option("--input", o->input,
            "A JSON array of {\"messages\": [...], \"add_generation_prompt\": bool, ...}; other members (tools, "
            "enable_thinking, ...) are passed to the template")
        ->required();
    render->add_option("--output", o->output, "Where to write the JSON array of rendered strings (- for stdout)");
    render->callback([o] {
        const std::filesystem::path folder = hf::resolveModelFolder(o->dir);
        const hf::ChatTemplateConfig config = hf::loadFolderChatTemplate(folder);
        const hf::jinja::Template chatTemplate
            = hf::parseChatTemplate(config, (folder.filename() / "chat template").string());
        std::ifstream in(o->input, std::ios::binary);
        if (!in)
            throw std::runtime_error(o->input + ": cannot read");
        nlohmann::ordered_json doc;
        try {
            doc = nlohmann::ordered_json::parse(in);
        } catch (const nlohmann::json::exception& e) { // parse_error, or out_of_range for a number past double
            throw std::runtime_error(o->input + ": invalid JSON: " + e.what());
        }
        if (!doc.is_array())
            throw std::runtime_error(o->input + ": expected a JSON array of conversations");
        nlohmann::ordered_json rendered = nlohmann::ordered_json::array();
        for (std::size_t i = 0; i < doc.size(); ++i) {
            const auto& c = doc[i];
            const std::string where = o->input + ": conversation " + std::to_string(i + 1);
            if (!c.is_object() || !c.contains("messages") || !c["messages"].is_array())
                throw std::runtime_error(where + ": expected an object with a \"messages\" array");
            const bool generation = c.value("add_generation_prompt", false);
            nlohmann::ordered_json extra = nlohmann::ordered_json::object();
            for (const auto& [key, value] : c.items())
                if (key != "messages" && key != "add_generation_prompt")
                    extra[key] = value;
            try {
                rendered.push_back(hf::renderChat(chatTemplate, c["messages"], generation, extra, config.tokens));
            } catch (const hf::HfError& e) {
                throw std::runtime_error(where + ": " + e.what());
            }
        }
        AtomicFile out(o->output);
        out.write(rendered.dump(2) + "\n");
        out.commit();
    });

    CLI::App* exportCmd = model->add_subcommand("export",
        "Write a training run's policy as a Hugging Face folder: PEFT LoRA adapters for its base model, or the whole "
        "model (full fine-tuning, or --merged); a built-in policy as a Llama model with CreditLab's tokenizer and chat "
        "template");
    exportCmd->add_option("--db", o->db.path, "The database (default: the default database)");
    exportCmd->add_option("--run", o->run, "The training run")->required()->check(CLI::PositiveNumber);
    exportCmd
        ->add_option(
            "--checkpoint", o->checkpoint, "The checkpoint after this iteration (default: the last; 0: the SFT policy)")
        ->check(CLI::NonNegativeNumber);
    exportCmd->add_option("--output", o->output, "The folder to create (refused when it exists)")->required();
    exportCmd->add_flag("--merged", o->merged, "LoRA: merge the adapters into the weights and write the whole model");
    exportCmd
        ->add_option("--dtype", o->dtype,
            "Weights' dtype of a whole model: auto (the base model's), float32, bfloat16 or float16")
        ->check(CLI::IsMember({ "auto", "float32", "bfloat16", "float16" }));
    exportCmd->callback([o] { exportRun(*o); });

    CLI::App* score = model->add_subcommand("score", "Log-probabilities of tokens 2..n of each sequence of ids");
    score->add_option("dir", o->dir, dirHelp)->required();
    score->add_option("--input", o->input, "JSON Lines: one array of token ids per line")->required();
    score->add_option(
        "--output", o->output, "Where to write one JSON array of log-probabilities per line (- for stdout)");
    score->add_option("--device", o->device, "cpu or cuda[:N]");
    score
        ->add_option("--dtype", o->dtype,
            "Compute dtype: auto (float32 on the CPU, bfloat16 on CUDA), float32, "
            "bfloat16 or float16")
        ->check(CLI::IsMember({ "auto", "float32", "bfloat16", "float16" }));
    score->add_option("--threads", o->threads, "Intra-op threads (0: all cores)")->check(CLI::NonNegativeNumber);
    score->callback([o] {
        learn::configureThreads(learn::RuntimeOptions { o->threads });
        const auto folder = hf::ModelFolder::open(o->dir, false);
        const std::int64_t vocab = folder.config.vocabSize;
        std::vector<std::vector<std::int64_t>> sequences;
        for (const auto& [line, j] : readJsonLines(o->input)) {
            if (!j.is_array())
                throw std::runtime_error(o->input + ":" + std::to_string(line) + ": expected a JSON array of ids");
            std::vector<std::int64_t> ids;
            for (const auto& id : j) {
                if (!id.is_number_integer())
                    throw std::runtime_error(
                        o->input + ":" + std::to_string(line) + ": " + id.dump() + " is not an id");
                if (id.get<std::int64_t>() < 0 || id.get<std::int64_t>() >= vocab)
                    throw std::runtime_error(o->input + ":" + std::to_string(line) + ": id " + id.dump()
                        + " is outside the vocabulary (0.." + std::to_string(vocab - 1) + ")");
                ids.push_back(id.get<std::int64_t>());
            }
            sequences.push_back(std::move(ids));
        }
        const torch::Device device(learn::resolveDevice(o->device));
        learn::HfLoadOptions load { .device = device };
        if (o->dtype == "float32")
            load.dtype = torch::kFloat32;
        else if (o->dtype == "bfloat16")
            load.dtype = torch::kBFloat16;
        else if (o->dtype == "float16")
            load.dtype = torch::kFloat16;
        auto decoder = learn::loadHfDecoder(folder, load);
        const auto scores = learn::scoreSequences(decoder, sequences);
        AtomicFile out(o->output);
        for (const auto& row : scores)
            out.write(learn::formatLogProbs(row) + "\n");
        out.commit();
    });
}

} // namespace creditlab::cli
