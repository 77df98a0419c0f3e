// Benchmark: a pretrained LLM's generation and update on the CPU (the row "Pretrained LLM, CPU" of TARGETS.md), at
// SmolLM2-135M's shape (Llama: hidden 576, MLP 1536, 30 layers, 9 heads, 3 key/value heads, vocab 49,152, tied),
// float32, against the same loop in Debian's Python PyTorch (tests/benchmarks/anchor_hf.py), run in the same
// process tree right before, with the same thread count and OMP_WAIT_POLICY. Target: >= 1.2x generated and trained
// tokens/s.
//
// Generation: ROWS prompts of PROMPT tokens, a prompt pass into the KV cache, NEW sampled tokens (full softmax,
// temperature 1). Update: ROWS sequences of PROMPT + NEW tokens in micro-batches of MICRO rows accumulated into one
// AdamW step, a policy-gradient loss on the NEW tokens, the gradient norm clipped at 1.0.
//
// Usage: bench_hf [threads=2] [repeats=3] [rows=8 prompt=128 new=32 micro=4]
// Prints each side's median tokens/s over the repeats (after one warm-up each) and the ratios.
#include "core/learn/api/runtime.h"
#include "core/learn/torch/hf/hfgeneration.h"
#include "core/learn/torch/hf/hfupdate.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace creditlab;
using namespace creditlab::learn;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

hf::ModelConfig smolLm2()
{
    const nlohmann::json c = { { "architectures", { "LlamaForCausalLM" } }, { "vocab_size", 49152 },
        { "hidden_size", 576 }, { "intermediate_size", 1536 }, { "num_hidden_layers", 30 },
        { "num_attention_heads", 9 }, { "num_key_value_heads", 3 }, { "rope_theta", 100000.0 },
        { "rms_norm_eps", 1e-5 }, { "tie_word_embeddings", true }, { "max_position_embeddings", 8192 } };
    return hf::parseModelConfig(c.dump(), "SmolLM2-135M shape");
}

} // namespace

int main(int argc, char** argv)
{
    prepareProcess();
    const int threads = argc > 1 ? std::atoi(argv[1]) : 2;
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
    const std::int64_t rows = argc > 3 ? std::atoll(argv[3]) : 8, prompt = argc > 4 ? std::atoll(argv[4]) : 128,
                       fresh = argc > 5 ? std::atoll(argv[5]) : 32, micro = argc > 6 ? std::atoll(argv[6]) : 4;
    configureThreads({ threads });
    const char* wait = std::getenv("OMP_WAIT_POLICY");
    std::printf("bench_hf: SmolLM2-135M shape, float32, %d threads, OMP_WAIT_POLICY=%s; %lld rows x %lld prompt + %lld "
                "new tokens, micro-batches of %lld; %d repeats after a warm-up\n",
        threads, wait ? wait : "(unset)", static_cast<long long>(rows), static_cast<long long>(prompt),
        static_cast<long long>(fresh), static_cast<long long>(micro), repeats);
    std::fflush(stdout);

    // The anchor first, in its own process (it re-executes itself to set OPENBLAS_NUM_THREADS).
    std::vector<double> pyGen, pyTrain;
    {
        const std::string command = "/usr/bin/python3 " + std::string(CREDITLAB_SOURCE_DIR)
            + "/tests/benchmarks/anchor_hf.py " + std::to_string(threads) + " " + std::to_string(repeats + 1) + " "
            + std::to_string(rows) + " " + std::to_string(prompt) + " " + std::to_string(fresh) + " "
            + std::to_string(micro);
        FILE* pipe = ::popen(command.c_str(), "r");
        char line[512];
        int n = 0;
        while (pipe != nullptr && std::fgets(line, sizeof line, pipe) != nullptr) {
            const auto j = nlohmann::json::parse(line, nullptr, false);
            if (j.is_discarded() || !j.contains("generate_tok_s"))
                continue;
            if (n++ == 0)
                continue; // warm-up
            pyGen.push_back(j["generate_tok_s"].get<double>());
            pyTrain.push_back(j["train_tok_s"].get<double>());
        }
        if (pipe == nullptr || ::pclose(pipe) != 0 || pyGen.empty()) {
            std::fprintf(stderr, "bench_hf: the Python anchor failed (needs Debian's python3-torch)\n");
            return 1;
        }
    }

    torch::manual_seed(0);
    const hf::ModelConfig config = smolLm2();
    HfDecoder model(config);
    {
        torch::NoGradGuard noGrad;
        for (auto& p : model->parameters())
            if (p.dim() > 1)
                p.normal_(0.0, 0.02);
    }
    HfOptimizer optimizer(model, { .lr = 1e-6, .maxGradNorm = 1.0 });
    Rng rng(1);
    std::vector<std::vector<std::int64_t>> prompts(static_cast<std::size_t>(rows));
    for (auto& p : prompts)
        for (std::int64_t t = 0; t < prompt; ++t)
            p.push_back(static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(config.vocabSize))));
    std::vector<double> gen, train;
    for (int r = 0; r <= repeats; ++r) {
        auto start = Clock::now();
        std::vector<HfGeneration> out;
        {
            torch::NoGradGuard noGrad;
            model->eval();
            out = hfGenerate(model, prompts, { .maxNewTokens = fresh }, rng);
        }
        const double g = seconds(start);
        auto tokens = torch::empty({ rows, prompt + fresh }, torch::kInt64);
        for (std::int64_t i = 0; i < rows; ++i) {
            for (std::int64_t t = 0; t < prompt; ++t)
                tokens[i][t] = prompts[i][t];
            for (std::int64_t t = 0; t < fresh; ++t)
                tokens[i][prompt + t] = out[i].tokens[t];
        }
        start = Clock::now();
        model->train();
        const auto old = torch::randn({ rows, fresh }) * 0.1 - 5.0;
        const auto adv = torch::randn({ rows, fresh });
        const auto from = torch::arange(prompt - 1, prompt + fresh - 1, torch::kInt64).unsqueeze(0);
        for (std::int64_t i = 0; i < rows; i += micro) {
            const auto n = std::min(micro, rows - i);
            const auto s = tokens.narrow(0, i, n);
            const auto lp = hfTargetLogProbs(
                model, s, torch::ones_like(s, torch::kBool), from.expand({ n, fresh }), s.narrow(1, prompt, fresh));
            const auto ratio = torch::exp(lp - old.narrow(0, i, n));
            (-(ratio * adv.narrow(0, i, n)).mean() * (static_cast<double>(n) / rows)).backward();
        }
        optimizer.step();
        const double u = seconds(start);
        if (r == 0)
            continue; // warm-up
        gen.push_back(static_cast<double>(rows * fresh) / g);
        train.push_back(static_cast<double>(rows * (prompt + fresh)) / u);
    }
    const double cg = median(gen), ct = median(train), pg = median(pyGen), pt = median(pyTrain);
    std::printf(
        "generation  CreditLab %8.1f tok/s  Python %8.1f tok/s  ratio %.2fx (target >= 1.2x)\n", cg, pg, cg / pg);
    std::printf(
        "update      CreditLab %8.1f tok/s  Python %8.1f tok/s  ratio %.2fx (target >= 1.2x)\n", ct, pt, ct / pt);
    return 0;
}
