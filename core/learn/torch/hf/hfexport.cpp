#include "core/learn/torch/hf/hfexport.h"

#include "core/hf/error.h"
#include "core/hf/safetensors.h"
#include "core/learn/torch/lm/tokenizerjson.h"
#include "core/storage/atomicfile.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <unistd.h>

namespace creditlab::learn {

namespace {

namespace fs = std::filesystem;

torch::ScalarType scalarTypeOf(hf::DType dtype)
{
    switch (dtype) {
    case hf::DType::F32:
        return torch::kFloat32;
    case hf::DType::BF16:
        return torch::kBFloat16;
    case hf::DType::F16:
        return torch::kFloat16;
    default:
        throw hf::HfError(std::string("cannot write weights as ") + hf::dtypeName(dtype));
    }
}

/// Writes `tensors` into `file`, converted to `dtype` on the CPU.
void writeTensors(
    const std::string& file, const std::vector<std::pair<std::string, torch::Tensor>>& tensors, hf::DType dtype)
{
    std::vector<torch::Tensor> keep;
    std::vector<hf::TensorData> data;
    for (const auto& [name, tensor] : tensors) {
        keep.push_back(tensor.detach().to(torch::kCPU, scalarTypeOf(dtype)).contiguous());
        const auto& t = keep.back();
        data.push_back({ name, dtype, t.sizes().vec(),
            { static_cast<const std::byte*>(t.data_ptr()), static_cast<std::size_t>(t.nbytes()) } });
    }
    hf::writeSafetensors(file, data, { { "format", "pt" } });
}

/// A folder written under a temporary name beside `dir`, renamed into place by commit(); removed otherwise.
class StagedFolder {
public:
    explicit StagedFolder(const std::string& dir)
        : m_dir(dir)
    {
        std::error_code ec;
        if (fs::exists(m_dir, ec))
            throw hf::HfError(dir + ": already exists; choose a new folder");
        const fs::path parent = m_dir.parent_path().empty() ? fs::path(".") : m_dir.parent_path();
        if (!fs::is_directory(parent, ec))
            throw hf::HfError(dir + ": the folder " + parent.string() + " does not exist");
        // Built by appends: GCC 12 warns falsely (-Wstringop-overflow) on "." + string here.
        std::string staging(1, '.');
        staging.append(m_dir.filename().string()).append(".partial-").append(std::to_string(::getpid()));
        m_staging = parent / staging;
        fs::remove_all(m_staging, ec);
        if (!fs::create_directory(m_staging, ec))
            throw hf::HfError(m_staging.string() + ": cannot create: " + ec.message());
    }
    ~StagedFolder()
    {
        std::error_code ec;
        if (!m_committed)
            fs::remove_all(m_staging, ec);
    }
    fs::path path(const std::string& name) const { return m_staging / name; }
    void commit()
    {
        std::error_code ec;
        fs::rename(m_staging, m_dir, ec);
        if (ec)
            throw hf::HfError(m_dir.string() + ": cannot move the finished folder into place: " + ec.message());
        m_committed = true;
    }

private:
    fs::path m_dir;
    fs::path m_staging;
    bool m_committed = false;
};

} // namespace

void saveHfFolder(HfDecoder& model, const hf::ModelFolder& source, const std::string& dir, hf::DType dtype)
{
    torch::NoGradGuard noGrad;
    StagedFolder out(dir);
    auto weights = model->hfWeights();
    if (model->hasLora()) {
        // Merged into copies: the live model keeps its adapters.
        std::map<std::string, torch::Tensor> merged;
        for (const auto& item : model->named_modules()) {
            auto* linear = item.value()->as<HfLinearImpl>();
            if (linear == nullptr || !linear->hasLora())
                continue;
            merged[item.key() + ".weight"] = linear->weight
                + (torch::matmul(linear->lora_B->weight, linear->lora_A->weight) * linear->loraScaling)
                      .to(linear->weight.scalar_type());
        }
        for (auto& [name, tensor] : weights)
            if (const auto it = merged.find(name); it != merged.end())
                tensor = it->second;
    }
    writeTensors(out.path("model.safetensors").string(), weights, dtype);
    const fs::path from(source.path);
    for (const char* file : { "config.json", "generation_config.json", "tokenizer.json", "tokenizer_config.json",
             "special_tokens_map.json", "chat_template.jinja", "chat_template.json", "vocab.json", "merges.txt" }) {
        std::error_code ec;
        if (fs::exists(from / file, ec))
            fs::copy_file(from / file, out.path(file), ec);
        if (ec)
            throw hf::HfError((from / file).string() + ": cannot copy: " + ec.message());
    }
    out.commit();
}

void saveBuiltinHfFolder(HfDecoder& model, const Tokenizer& tokenizer, const std::string& dir)
{
    torch::NoGradGuard noGrad;
    if (model->hasLora())
        throw hf::HfError("a built-in policy has no LoRA adapters");
    StagedFolder out(dir);
    writeTensors(out.path("model.safetensors").string(), model->hfWeights(), hf::DType::F32);
    hf::ModelConfig config = model->config();
    config.torchDtype = "float32";
    writeFileAtomically(out.path("config.json").string(), hf::llamaConfigJson(config));
    nlohmann::ordered_json generation;
    generation["_from_model_config"] = true;
    generation["eos_token_id"] = config.eosTokenIds.size() == 1 ? nlohmann::ordered_json(config.eosTokenIds.front())
                                                                 : nlohmann::ordered_json(config.eosTokenIds);
    generation["pad_token_id"] = config.padTokenId ? nlohmann::ordered_json(*config.padTokenId) : nullptr;
    writeFileAtomically(out.path("generation_config.json").string(), generation.dump(2) + "\n");
    writeHfTokenizerFiles(tokenizer, out.path("").string(), config.maxPositions);
    out.commit();
}

void saveLoraAdapter(HfDecoder& model, const std::string& baseModel, const std::string& dir)
{
    if (!model->hasLora())
        throw hf::HfError("the model has no LoRA adapters to save");
    torch::NoGradGuard noGrad;
    const LoraOptions& o = model->loraOptions();
    StagedFolder out(dir);
    nlohmann::ordered_json config;
    config["alpha_pattern"] = nlohmann::ordered_json::object();
    config["auto_mapping"] = nullptr;
    config["base_model_name_or_path"] = baseModel;
    config["bias"] = "none";
    config["fan_in_fan_out"] = false;
    config["inference_mode"] = true;
    config["init_lora_weights"] = true;
    config["layers_pattern"] = nullptr;
    config["layers_to_transform"] = nullptr;
    config["lora_alpha"] = o.alpha;
    config["lora_dropout"] = o.dropout;
    config["modules_to_save"] = nullptr;
    config["peft_type"] = "LORA";
    config["r"] = o.rank;
    config["rank_pattern"] = nlohmann::ordered_json::object();
    config["revision"] = nullptr;
    config["target_modules"] = o.targets;
    config["task_type"] = "CAUSAL_LM";
    config["use_dora"] = false;
    config["use_rslora"] = false;
    writeFileAtomically(out.path("adapter_config.json").string(), config.dump(2) + "\n");
    writeTensors(out.path("adapter_model.safetensors").string(), model->loraWeights(), hf::DType::F32);
    out.commit();
}

void loadLoraAdapter(HfDecoder& model, const std::string& dir)
{
    const fs::path folder(dir);
    const std::string configPath = (folder / "adapter_config.json").string();
    nlohmann::json config;
    try {
        config = nlohmann::json::parse(hf::readTextFile(configPath));
    } catch (const nlohmann::json::exception& e) { // parse_error, or out_of_range for a number past double
        throw hf::HfError(configPath + ": invalid JSON: " + e.what());
    }
    auto fail = [&](const std::string& key, const std::string& what) {
        throw hf::HfError(configPath + ": key \"" + key + "\": " + what);
    };
    if (!config.is_object())
        throw hf::HfError(configPath + ": expected a JSON object");
    if (config.value("peft_type", std::string()) != "LORA")
        fail("peft_type", "only LORA adapters are supported");
    for (const char* flag : { "use_dora", "use_rslora" })
        if (config.contains(flag) && config[flag].is_boolean() && config[flag].get<bool>())
            fail(flag, "is not supported");
    if (config.contains("bias") && config["bias"] != "none")
        fail("bias", "only \"none\" is supported");
    if (config.contains("modules_to_save") && !config["modules_to_save"].is_null())
        fail("modules_to_save", "is not supported");
    for (const char* pattern : { "rank_pattern", "alpha_pattern" })
        if (config.contains(pattern) && config[pattern].is_object() && !config[pattern].empty())
            fail(pattern, "per-layer ranks and alphas are not supported");
    if (!config.contains("r") || !config["r"].is_number_integer())
        fail("r", "missing or not an integer");
    if (!config.contains("lora_alpha") || !config["lora_alpha"].is_number())
        fail("lora_alpha", "missing or not a number");
    LoraOptions options;
    options.rank = config["r"].get<std::int64_t>();
    options.alpha = config["lora_alpha"].get<double>();
    options.dropout = config.value("lora_dropout", 0.0);
    const auto& targets = config["target_modules"];
    if (targets.is_array()) {
        options.targets.clear();
        for (const auto& t : targets) {
            if (!t.is_string())
                fail("target_modules", "expected names");
            options.targets.push_back(t.get<std::string>());
        }
    } else if (!(targets.is_string() && targets.get<std::string>() == "all-linear")) {
        fail("target_modules", "expected a list of projection names or \"all-linear\"");
    }
    try {
        model->addLora(options);
    } catch (const hf::HfError& e) {
        throw hf::HfError(configPath + ": " + e.what());
    }
    if (!fs::exists(folder / "adapter_model.safetensors"))
        throw hf::HfError(dir
            + ": adapter_model.safetensors is missing (adapter_model.bin is refused: unpickling runs "
              "code)");
    const auto file = hf::SafetensorsFile::open((folder / "adapter_model.safetensors").string());
    torch::NoGradGuard noGrad;
    for (auto& [name, param] : model->loraWeights()) {
        // PEFT saves without the adapter name; some versions keep ".default" before ".weight".
        const hf::TensorView* view = file->find(name);
        if (view == nullptr) {
            std::string alt = name;
            alt.insert(alt.size() - std::string(".weight").size(), ".default");
            view = file->find(alt);
        }
        if (view == nullptr)
            throw hf::HfError(file->path() + ": tensor \"" + name + "\" is missing");
        if (view->shape != param.sizes().vec())
            throw hf::HfError(
                file->path() + ": tensor \"" + name + "\" has the wrong shape for r = " + std::to_string(options.rank));
        torch::ScalarType type = torch::kFloat32;
        if (view->dtype == hf::DType::BF16)
            type = torch::kBFloat16;
        else if (view->dtype == hf::DType::F16)
            type = torch::kFloat16;
        else if (view->dtype != hf::DType::F32)
            throw hf::HfError(file->path() + ": tensor \"" + name + "\": dtype " + hf::dtypeName(view->dtype));
        param.copy_(
            torch::from_blob(const_cast<std::byte*>(view->data), view->shape, torch::TensorOptions().dtype(type)));
    }
}

} // namespace creditlab::learn
