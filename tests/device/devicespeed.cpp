// The speed half of hf_device_checks: generation and one update at Qwen2.5-0.5B's shape with random weights, the
// figures tests/device/hf_checks.py sets beside transformers' generate() and a PyTorch training step on the same GPU.
#include "cudamemory.h"
#include "devicechecks.h"

#include "core/learn/api/rng.h"
#include "core/learn/api/runtime.h"
#include "core/learn/torch/hf/hfgeneration.h"
#include "core/learn/torch/hf/hfupdate.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>

namespace creditlab::device {

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    if (v.empty())
        return 0.0;
    const std::size_t m = v.size() / 2;
    return v.size() % 2 == 1 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

/// A decoder of `options.shape` on the device in the compute dtype, weights N(0, 0.02) as transformers initialises.
learn::HfDecoder randomModel(const SpeedOptions& options, const torch::Device& device)
{
    torch::manual_seed(static_cast<std::uint64_t>(options.seed));
    learn::HfDecoder model(speedShape(options.shape));
    model->to(device, parseDtype(options.dtype));
    torch::NoGradGuard noGrad;
    for (auto& p : model->parameters())
        if (p.dim() > 1)
            p.normal_(0.0, 0.02);
    return model;
}

void printFigure(nlohmann::ordered_json figure, const SpeedOptions& o)
{
    figure["shape"] = o.shape;
    figure["device"] = o.device;
    figure["dtype"] = o.dtype;
    if (const auto peak = cudaPeakBytes())
        figure["peak_allocated_bytes"] = *peak;
    std::printf("%s\n", figure.dump().c_str());
    std::fflush(stdout);
}

} // namespace

hf::ModelConfig speedShape(const std::string& name)
{
    nlohmann::json c = { { "architectures", { "Qwen2ForCausalLM" } }, { "model_type", "qwen2" },
        { "hidden_act", "silu" }, { "rope_theta", 1000000.0 }, { "rms_norm_eps", 1e-6 },
        { "tie_word_embeddings", true }, { "max_position_embeddings", 32768 } };
    if (name == "qwen2.5-0.5b") {
        c.update({ { "vocab_size", 151936 }, { "hidden_size", 896 }, { "intermediate_size", 4864 },
            { "num_hidden_layers", 24 }, { "num_attention_heads", 14 }, { "num_key_value_heads", 2 } });
    } else if (name == "tiny") {
        c.update({ { "vocab_size", 1000 }, { "hidden_size", 64 }, { "intermediate_size", 128 },
            { "num_hidden_layers", 2 }, { "num_attention_heads", 4 }, { "num_key_value_heads", 2 } });
    } else {
        throw std::invalid_argument("unknown shape \"" + name + "\" (qwen2.5-0.5b or tiny)");
    }
    return hf::parseModelConfig(c.dump(), name + " shape");
}

torch::Dtype parseDtype(const std::string& name)
{
    if (name == "float32")
        return torch::kFloat32;
    if (name == "bfloat16")
        return torch::kBFloat16;
    if (name == "float16")
        return torch::kFloat16;
    throw std::invalid_argument("unknown dtype \"" + name + "\" (float32, bfloat16 or float16)");
}

void synchronize(const torch::Device& device)
{
    if (device.is_cuda())
        torch::cuda::synchronize(device.has_index() ? device.index() : -1);
}

int speedGenerate(const SpeedOptions& o)
{
    const torch::Device device(learn::resolveDevice(o.device));
    auto model = randomModel(o, device);
    model->eval();
    learn::Rng rng(o.seed);
    std::vector<std::vector<std::int64_t>> prompts(static_cast<std::size_t>(o.rows));
    const auto vocab = static_cast<std::uint64_t>(model->config().vocabSize);
    for (auto& p : prompts)
        for (std::int64_t t = 0; t < o.prompt; ++t)
            p.push_back(static_cast<std::int64_t>(rng.below(vocab)));
    const learn::HfSamplingOptions sampling { .temperature = 1.0, .maxNewTokens = o.fresh };
    std::vector<double> rates;
    std::int64_t generated = 0;
    for (int r = 0; r <= o.repeats; ++r) {
        torch::NoGradGuard noGrad;
        synchronize(device);
        resetCudaPeak();
        const auto start = Clock::now();
        const auto out = learn::hfGenerate(model, prompts, sampling, rng);
        synchronize(device);
        const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
        generated = 0;
        for (const auto& row : out)
            generated += static_cast<std::int64_t>(row.tokens.size());
        if (r > 0) // the first run is the warm-up
            rates.push_back(static_cast<double>(generated) / seconds);
    }
    printFigure({ { "figure", "cpp_generate_tok_s" }, { "value", median(rates) }, { "runs", rates },
                    { "rows", o.rows }, { "prompt", o.prompt }, { "new", o.fresh }, { "generated", generated } },
        o);
    return 0;
}

int speedUpdate(const SpeedOptions& o)
{
    const torch::Device device(learn::resolveDevice(o.device));
    auto model = randomModel(o, device);
    model->train();
    learn::HfOptimizer optimizer(model, { .lr = 1e-6, .maxGradNorm = 1.0 });
    const std::int64_t vocab = model->config().vocabSize, length = o.length;
    const auto tokens = torch::randint(vocab, { o.rows, length }, torch::kInt64).to(device);
    const auto valid = torch::ones({ o.rows, length }, torch::TensorOptions().dtype(torch::kBool).device(device));
    const auto from = torch::arange(length - 1, torch::TensorOptions().dtype(torch::kInt64).device(device));
    std::vector<double> rates;
    double loss = 0;
    for (int r = 0; r <= o.repeats; ++r) {
        synchronize(device);
        resetCudaPeak();
        const auto start = Clock::now();
        torch::Tensor total = torch::zeros({}, torch::TensorOptions().device(device));
        for (std::int64_t i = 0; i < o.rows; i += o.micro) {
            const auto n = std::min(o.micro, o.rows - i);
            const auto rowsTokens = tokens.narrow(0, i, n);
            const auto lp = learn::hfTargetLogProbs(model, rowsTokens, valid.narrow(0, i, n),
                from.unsqueeze(0).expand({ n, length - 1 }), rowsTokens.narrow(1, 1, length - 1));
            // The mean NLL over the whole batch: each micro-batch weighted by its share of the rows.
            const auto nll = -lp.mean() * (static_cast<double>(n) / static_cast<double>(o.rows));
            nll.backward();
            total += nll.detach().to(torch::kFloat32);
        }
        optimizer.step(); // reads the gradient norm back: the step ends on the host
        loss = total.item<double>();
        synchronize(device);
        const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
        if (r > 0)
            rates.push_back(static_cast<double>(o.rows * length) / seconds);
    }
    printFigure({ { "figure", "cpp_update_tok_s" }, { "value", median(rates) }, { "runs", rates }, { "rows", o.rows },
                    { "length", length }, { "micro", o.micro }, { "loss", loss },
                    { "trainable_parameters", optimizer.trainableParameters() } },
        o);
    return 0;
}

} // namespace creditlab::device
