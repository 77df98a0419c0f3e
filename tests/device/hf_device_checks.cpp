// hf_device_checks: the C++ side of issue 34's GPU checks, which tests/device/hf_checks.py compares with transformers
// and peft on the device machine (tests/device/run.sh). Each subcommand writes files or prints one JSON line per
// figure; every path also runs on the CPU at a tiny shape, so it is smoke-tested where there is no GPU.
//
//   hf_device_checks lora-grads MODEL ADAPTER SEQS OUT.safetensors [--device D]
//       loads MODEL in float32 with the PEFT adapter ADAPTER (loadLoraAdapter), backpropagates the summed negative
//       log-likelihood of tokens 2..n of every sequence in SEQS (JSON Lines of ids), and writes each lora_A / lora_B
//       gradient under PEFT's name (base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight) as float32.
//   hf_device_checks save-adapter MODEL OUT_DIR RANK SEED SEQS SCORES [--device D]
//       adds LoRA of rank RANK (alpha 2 RANK, all seven projections) with seeded random A and nonzero B, saves it
//       with saveLoraAdapter, and writes the adapted model's log-probabilities of SEQS to SCORES as `model score` does.
//   hf_device_checks speed-generate|speed-update [--device cuda] [--dtype bfloat16] [--shape qwen2.5-0.5b|tiny] ...
//       see devicechecks.h.
#include "devicechecks.h"

#include "core/hf/error.h"
#include "core/hf/safetensors.h"
#include "core/learn/api/runtime.h"
#include "core/learn/torch/hf/hfexport.h"
#include "core/learn/torch/hf/hfmodel.h"
#include "core/learn/torch/hf/hfupdate.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <stdexcept>

using namespace creditlab;

namespace {

std::vector<std::vector<std::int64_t>> readSequences(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error(path + ": cannot read");
    std::vector<std::vector<std::int64_t>> out;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        const auto j = nlohmann::json::parse(line, nullptr, false);
        if (!j.is_array())
            throw std::runtime_error(path + ":" + std::to_string(number) + ": expected a JSON array of ids");
        out.push_back(j.get<std::vector<std::int64_t>>());
    }
    return out;
}

void writeScores(const std::string& path, const std::vector<std::vector<double>>& scores)
{
    std::ofstream out(path);
    for (const auto& row : scores)
        out << learn::formatLogProbs(row) << "\n";
    if (!out)
        throw std::runtime_error(path + ": cannot write");
}

learn::HfDecoder loadFloat32(const std::string& dir, const std::string& device)
{
    const auto folder = hf::ModelFolder::open(dir, false);
    return learn::loadHfDecoder(folder, { .device = torch::Device(learn::resolveDevice(device)), .dtype = torch::kFloat32 });
}

int loraGrads(const std::string& modelDir, const std::string& adapterDir, const std::string& seqsPath,
    const std::string& outPath, const std::string& device)
{
    auto model = loadFloat32(modelDir, device);
    learn::loadLoraAdapter(model, adapterDir);
    model->eval(); // no adapter dropout: PEFT's side runs in eval() too
    const torch::Device dev = model->device();
    double total = 0;
    for (const auto& seq : readSequences(seqsPath)) {
        const auto n = static_cast<std::int64_t>(seq.size());
        if (n < 2)
            continue;
        const auto tokens = torch::tensor(seq, torch::kInt64).view({ 1, n }).to(dev);
        const auto valid = torch::ones({ 1, n }, torch::TensorOptions().dtype(torch::kBool).device(dev));
        const auto from = torch::arange(n - 1, torch::TensorOptions().dtype(torch::kInt64).device(dev)).unsqueeze(0);
        const auto nll = -learn::hfTargetLogProbs(model, tokens, valid, from, tokens.narrow(1, 1, n - 1)).sum();
        nll.backward();
        total += nll.item<double>();
    }
    std::vector<torch::Tensor> keep;
    std::vector<hf::TensorData> tensors;
    for (auto& [name, param] : model->loraWeights()) {
        if (!param.grad().defined())
            throw std::runtime_error(name + ": no gradient");
        keep.push_back(param.grad().to(torch::kCPU, torch::kFloat32).contiguous());
        const auto& g = keep.back();
        tensors.push_back({ name, hf::DType::F32, g.sizes().vec(),
            std::span<const std::byte>(static_cast<const std::byte*>(g.data_ptr()), g.numel() * sizeof(float)) });
    }
    hf::writeSafetensors(outPath, tensors, { { "format", "pt" } });
    std::printf("%s\n",
        nlohmann::ordered_json({ { "figure", "cpp_lora_nll" }, { "value", total }, { "tensors", tensors.size() } })
            .dump()
            .c_str());
    return 0;
}

int saveAdapter(const std::string& modelDir, const std::string& outDir, std::int64_t rank, std::uint64_t seed,
    const std::string& seqsPath, const std::string& scoresPath, const std::string& device)
{
    auto model = loadFloat32(modelDir, device);
    model->addLora({ .rank = rank, .alpha = 2.0 * static_cast<double>(rank), .dropout = 0.0 });
    {
        // PEFT starts B at zero, which would make the check blind: both factors random, seeded.
        torch::manual_seed(seed);
        torch::NoGradGuard noGrad;
        for (auto& [name, w] : model->loraWeights())
            w.normal_(0.0, name.ends_with("lora_B.weight") ? 0.1 : 0.2);
    }
    learn::saveLoraAdapter(model, modelDir, outDir);
    writeScores(scoresPath, learn::scoreSequences(model, readSequences(seqsPath)));
    return 0;
}

void addSpeedOptions(CLI::App* app, device::SpeedOptions& o)
{
    app->add_option("--device", o.device, "cpu or cuda[:N]");
    app->add_option("--dtype", o.dtype, "float32, bfloat16 or float16");
    app->add_option("--shape", o.shape, "qwen2.5-0.5b or tiny");
    app->add_option("--rows", o.rows, "Sequences at once")->check(CLI::PositiveNumber);
    app->add_option("--prompt", o.prompt, "Prompt tokens per row (generation)")->check(CLI::PositiveNumber);
    app->add_option("--new", o.fresh, "New tokens per row (generation)")->check(CLI::PositiveNumber);
    app->add_option("--length", o.length, "Tokens per row (update)")->check(CLI::Range(2, 1 << 20));
    app->add_option("--micro", o.micro, "Rows per backward pass (update)")->check(CLI::PositiveNumber);
    app->add_option("--repeats", o.repeats, "Timed runs after one warm-up")->check(CLI::PositiveNumber);
    app->add_option("--seed", o.seed, "Seed of the weights, prompts and draws");
}

} // namespace

int main(int argc, char** argv)
{
    learn::prepareProcess();
    CLI::App app("issue 34's GPU checks, C++ side (tests/device/run.sh runs it)");
    app.require_subcommand(1);
    std::string model, adapter, seqs, out, scores, device = "cpu";
    std::int64_t rank = 8;
    std::uint64_t seed = 1;
    int threads = 0;
    app.add_option("--threads", threads, "Intra-op CPU threads (0: all cores)");

    CLI::App* grads = app.add_subcommand("lora-grads", "Gradients of a PEFT adapter's weights, PEFT's names");
    grads->add_option("model", model)->required();
    grads->add_option("adapter", adapter)->required();
    grads->add_option("seqs", seqs)->required();
    grads->add_option("out", out)->required();
    grads->add_option("--device", device);

    CLI::App* save = app.add_subcommand("save-adapter", "A random adapter saved as PEFT does, and its scores");
    save->add_option("model", model)->required();
    save->add_option("out", out)->required();
    save->add_option("rank", rank)->required()->check(CLI::PositiveNumber);
    save->add_option("seed", seed)->required();
    save->add_option("seqs", seqs)->required();
    save->add_option("scores", scores)->required();
    save->add_option("--device", device);

    device::SpeedOptions generate, update;
    update.rows = 16;
    CLI::App* gen = app.add_subcommand("speed-generate", "Generation tokens/s at a model shape, random weights");
    addSpeedOptions(gen, generate);
    CLI::App* upd = app.add_subcommand("speed-update", "One update's tokens/s at a model shape, random weights");
    addSpeedOptions(upd, update);

    CLI11_PARSE(app, argc, argv);
    try {
        learn::configureThreads({ threads });
        if (*grads)
            return loraGrads(model, adapter, seqs, out, device);
        if (*save)
            return saveAdapter(model, out, rank, seed, seqs, scores, device);
        if (*gen)
            return device::speedGenerate(generate);
        return device::speedUpdate(update);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "hf_device_checks: %s\n", e.what());
        return 1;
    }
}
