// Benchmark: the RL training loop's two hot parts at the sizes of TARGETS.md, against the Python PyTorch anchor
// (Debian's PyTorch 1.13 with OpenBLAS, tuned environment, 2 threads: 1,451 generated and 12,142 trained tokens/s,
// the update at 39% of the matmul peak; target >= 1.2x both, the update at >= 50% of the peak).
//
// The built-in policy (a Llama decoder: RMSNorm, rotary positions, SwiGLU of 344) of d=128, 4 layers, 4 heads,
// vocab 512, context 512; 128 sequences of 256 prompt tokens;
// 12 sampled tokens each with the KV cache (the stop token is never sampled, so every row writes 12); then a
// PPO-clip update with k3 KL to a frozen reference, Adam, gradient clipping, 2 epochs x 4 minibatches.
// Reports tokens/s, the time split, the model FLOPs of each part and their share of the measured matmul peak.
//
// Usage: bench_train [threads=2] [repeats=3] [device=cpu]
#include "core/learn/api/runtime.h"
#include "core/learn/torch/engine/trainsteps.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace creditlab::learn;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/// Peak float32 matmul throughput at the configured threads: the best of several 1024^2 products.
double matmulPeakGflops(const torch::Device& device)
{
    auto a = torch::randn({ 1024, 1024 }, torch::TensorOptions().device(device));
    auto b = torch::randn({ 1024, 1024 }, torch::TensorOptions().device(device));
    double best = 0.0;
    for (int k = 0; k < 8; ++k) {
        const auto start = Clock::now();
        auto c = torch::matmul(a, b);
        c.sum().item<float>();
        best = std::max(best, 2.0 * 1024 * 1024 * 1024 / seconds(start) / 1e9);
    }
    return best;
}

} // namespace

int main(int argc, char** argv)
{
    prepareProcess();
    const int threads = argc > 1 ? std::atoi(argv[1]) : 2;
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
    const std::string deviceName = argc > 3 ? argv[3] : "cpu";
    configureThreads({ threads });
    const torch::Device device(resolveDevice(deviceName));

    constexpr std::int64_t kVocab = 512, kWidth = 128, kLayers = 4, kHeads = 4, kContext = 512;
    constexpr int kRows = 128, kPrompt = 256, kAction = 12;
    torch::manual_seed(0);
    TransformerOptions options;
    options.vocab = kVocab;
    options.width = kWidth;
    options.layers = kLayers;
    options.heads = kHeads;
    options.context = kContext;
    Transformer policy(options), reference(options);
    policy->to(device);
    reference->to(device);
    torch::optim::Adam optimizer(policy->parameters(), torch::optim::AdamOptions(1e-5));

    Rng rng(1);
    std::vector<std::vector<std::int32_t>> prompts(kRows);
    for (auto& p : prompts) {
        p.push_back(Tokenizer::kGoal);
        while (static_cast<int>(p.size()) < kPrompt - 1)
            p.push_back(
                static_cast<std::int32_t>(Tokenizer::kSpecialCount + rng.below(kVocab - Tokenizer::kSpecialCount)));
        p.push_back(Tokenizer::kAct);
    }
    SamplingOptions sampling;
    sampling.maxTokens = kAction;
    sampling.stopTokens = {}; // none: every row writes exactly kAction tokens

    std::vector<double> genTimes, promptTimes, updateTimes;
    std::vector<TrainSequence> samples;
    for (int r = 0; r <= repeats; ++r) { // the first round warms up and is not counted
        std::vector<Generation> generated;
        {
            torch::NoGradGuard noGrad;
            policy->eval();
            auto start = Clock::now();
            generated = generate(policy, prompts, sampling, rng);
            const double g = seconds(start);
            // The prompt pass alone, for the time split.
            start = Clock::now();
            auto batch = padSequences(prompts, true, device);
            auto cache = policy->makeCache(kRows, kPrompt + kAction);
            auto last = policy->forwardLast(batch.tokens, batch.valid, cache); // as generate() runs it
            policy->logits(last).sum().item<float>();
            const double p = seconds(start);
            if (r > 0) {
                genTimes.push_back(g);
                promptTimes.push_back(p);
            }
        }
        samples.clear();
        for (int i = 0; i < kRows; ++i) {
            samples.push_back(windowSequence(
                prompts[static_cast<std::size_t>(i)], generated[static_cast<std::size_t>(i)].tokens, i, 0));
            samples.back().spans.front().advantage = rng.uniform() * 2.0 - 1.0;
        }
        UpdateSettings settings;
        settings.epochs = 2;
        settings.minibatches = 4;
        settings.loss.klCoef = 0.01;
        const auto start = Clock::now();
        ppoUpdate(policy, reference, optimizer, nullptr, nullptr, samples, settings, rng);
        if (r > 0)
            updateTimes.push_back(seconds(start));
    }

    const double gen = median(genTimes), prompt = median(promptTimes), update = median(updateTimes);
    const double generatedTokens = static_cast<double>(kRows) * kAction;
    // Trained tokens: every sequence token in every epoch's forward and backward.
    const double sequenceTokens = static_cast<double>(kRows) * (kPrompt + kAction);
    const double trainedTokens = 2.0 * sequenceTokens;

    // Model FLOPs (multiply-adds x 2): 4 d^2 + 3 d m per layer and token for the projections and the SwiGLU MLP of
    // width m, 2 T d per layer and token for the attention scores and the weighted sum, the LM head (d x V) where
    // logits are taken.
    const double d = kWidth;
    const double m = static_cast<double>(policy->decoder()->config().intermediateSize);
    const double perTokenDense = 2.0 * (4.0 * d * d + 3.0 * d * m) * kLayers;
    const auto attention = [&](double keys) { return 2.0 * 2.0 * keys * d * kLayers; };
    const double head = 2.0 * d * kVocab;
    double genFlops = kRows * (kPrompt * (perTokenDense + attention(kPrompt / 2.0)) + head); // causal: T/2 on average
    for (int s = 1; s < kAction; ++s)
        genFlops += kRows * (perTokenDense + attention(kPrompt + s) + head);
    const double T = kPrompt + kAction;
    // Old and reference log-probs (2 forwards), then 2 epochs of forward + backward (about 3 forwards each).
    const double forwardFlops = kRows * (T * (perTokenDense + attention(T / 2.0)) + kAction * head);
    const double updateFlops = forwardFlops * (2.0 + 2.0 * 3.0);
    const double peak = matmulPeakGflops(device);

    std::printf("bench_train on %s, %d threads (OpenBLAS and LibTorch), %d repeats, medians\n", device.str().c_str(),
        threads, repeats);
    std::printf("  model: d=%lld, %lld layers, %lld heads, vocab %lld, context %lld, %lld parameters\n",
        static_cast<long long>(kWidth), static_cast<long long>(kLayers), static_cast<long long>(kHeads),
        static_cast<long long>(kVocab), static_cast<long long>(kContext),
        static_cast<long long>(policy->parameterCount()));
    std::printf(
        "  generation: %d sequences x %d prompt tokens + %d sampled tokens, KV cache\n", kRows, kPrompt, kAction);
    std::printf("    %.3f s, of which the prompt pass %.3f s (%.0f%%)\n", gen, prompt, 100.0 * prompt / gen);
    std::printf("    %.0f generated tokens/s (anchor 1451 at 2 threads, target >= 1741)\n", generatedTokens / gen);
    std::printf(
        "    %.1f GFLOP/s, %.0f%% of the matmul peak\n", genFlops / gen / 1e9, 100.0 * genFlops / gen / 1e9 / peak);
    std::printf("  PPO update: 2 epochs x 4 minibatches, k3 KL to the reference, Adam, clipping\n");
    std::printf("    %.3f s\n", update);
    std::printf("    %.0f trained tokens/s (anchor 12142 at 2 threads, target >= 14570)\n", trainedTokens / update);
    std::printf("    %.1f GFLOP/s, %.0f%% of the matmul peak\n", updateFlops / update / 1e9,
        100.0 * updateFlops / update / 1e9 / peak);
    std::printf("  matmul peak (1024^2 float32): %.1f GFLOP/s\n", peak);

    // The episode workload: the same turns trained as episode streams and as window samples. 32 episodes of 15
    // turns, each an observation of 16 tokens and an action of 6 (its stop token included), after a goal of 10 tokens
    // and a scene of 120 (477 tokens: no overflow at context 512); a window sample is the goal, the scene, the last 2
    // turns and the turn (history 2).
    constexpr int kEpisodes = 32, kTurns = 15, kObservation = 16, kActionTokens = 6, kGoal = 10, kScene = 120;
    const auto token = [&] {
        return static_cast<std::int32_t>(Tokenizer::kSpecialCount + rng.below(kVocab - Tokenizer::kSpecialCount));
    };
    std::vector<TrainSequence> episodes, windows;
    for (int e = 0; e < kEpisodes; ++e) {
        std::vector<std::int32_t> goal { Tokenizer::kGoal }, scene;
        for (int k = 0; k < kGoal; ++k)
            goal.push_back(token());
        std::vector<std::vector<std::int32_t>> observations, actions;
        for (int t = 0; t < kTurns; ++t) {
            std::vector<std::int32_t> o, a;
            for (int k = 0; k < (t == 0 ? kScene : kObservation); ++k)
                o.push_back(token());
            for (int k = 0; k + 1 < kActionTokens; ++k)
                a.push_back(token());
            a.push_back(Tokenizer::kEnd);
            observations.push_back(o);
            actions.push_back(a);
        }
        EpisodeStream stream(goal, kContext, kAction);
        for (int t = 0; t < kTurns; ++t) {
            stream.beginTurn(observationChunk(observations[static_cast<std::size_t>(t)]));
            stream.endTurn(actions[static_cast<std::size_t>(t)]);
            // The window prompt: goal, scene (turn 0's observation), the last two turns, this observation.
            std::vector<std::int32_t> prompt = goal;
            const auto scene0 = observationChunk(observations[0]).ids;
            if (t > 2)
                prompt.insert(prompt.end(), scene0.begin(), scene0.end() - 1);
            for (int k = std::max(0, t - 2); k < t; ++k) {
                const auto chunk = observationChunk(observations[static_cast<std::size_t>(k)]).ids;
                prompt.insert(prompt.end(), chunk.begin(), chunk.end());
                prompt.insert(prompt.end(), actions[static_cast<std::size_t>(k)].begin(),
                    actions[static_cast<std::size_t>(k)].end());
            }
            const auto chunk = observationChunk(observations[static_cast<std::size_t>(t)]).ids;
            prompt.insert(prompt.end(), chunk.begin(), chunk.end());
            windows.push_back(windowSequence(prompt, actions[static_cast<std::size_t>(t)], e, t));
            windows.back().spans.front().advantage = rng.uniform() - 0.5;
        }
        for (auto& q : stream.finish(e)) {
            for (auto& span : q.spans)
                span.advantage = rng.uniform() - 0.5;
            episodes.push_back(std::move(q));
        }
    }
    std::printf("  episode workload: %d episodes x %d turns (observations of %d tokens, actions of %d), update of 2 "
                "epochs x 4 minibatches\n",
        kEpisodes, kTurns, kObservation, kActionTokens);
    for (const auto* mode : { "episode", "window" }) {
        const auto& sequences = std::string(mode) == "episode" ? episodes : windows;
        std::int64_t tokens = 0;
        for (const auto& q : sequences)
            tokens += q.size();
        UpdateSettings settings;
        settings.epochs = 2;
        settings.minibatches = 4;
        settings.loss.klCoef = 0.01;
        std::vector<double> times;
        for (int r = 0; r <= repeats; ++r) {
            const auto start = Clock::now();
            ppoUpdate(policy, reference, optimizer, nullptr, nullptr, sequences, settings, rng);
            if (r > 0)
                times.push_back(seconds(start));
        }
        const double t = median(times);
        std::printf("    %-7s: %zu sequences, %lld tokens; update %.3f s, %.0f turns trained/s, %.0f sequence tokens/s\n",
            mode, sequences.size(), static_cast<long long>(tokens), t, 2.0 * kEpisodes * kTurns / t,
            2.0 * static_cast<double>(tokens) / t);
    }
    return 0;
}
