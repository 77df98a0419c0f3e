// Benchmark: the cost TurnRD adds to one HAS round (has_turnrd.md §2.10, Algorithm 1 lines 8 and 12) at our
// sizes: 64 trajectories × 15 turns, policy width 128 (hidden states and goal embedding), d_model 128, 2 layers,
// 4 heads, FiLM on. Reports the median of `repeats` for
//   - one credit pass (line 8: forward + Eq. 5 for 64 trajectories),
//   - one training round (line 12: 5 epochs of recency-sampled minibatches of 64 over a replay of 64, then the
//     §2.13/§2.14 probes on the latest round),
//   - the probes alone.
//
// Usage: bench_turnrd [threads=2] [repeats=5] [device=cpu]
#include "core/learn/api/runtime.h"
#include "core/learn/torch/turnrd/turnrd.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
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

} // namespace

int main(int argc, char** argv)
{
    prepareProcess();
    const int threads = argc > 1 ? std::atoi(argv[1]) : 2;
    const int repeats = std::max(1, argc > 2 ? std::atoi(argv[2]) : 5);
    const std::string device = resolveDevice(argc > 3 ? argv[3] : "cpu");
    configureThreads({ threads });

    constexpr int kTrajectories = 64, kTurns = 15, kWidth = 128;
    TurnRdOptions options;
    options.inputWidth = kWidth;
    options.goalWidth = kWidth;
    options.modelWidth = 128;
    options.maxTurns = 16;
    options.device = device;
    options.seed = 1;

    std::mt19937 rng(42);
    std::normal_distribution<float> noise(0.0f, 1.0f);
    std::vector<TurnRdTrajectory> batch;
    for (int i = 0; i < kTrajectories; ++i) {
        TurnRdTrajectory t;
        t.turns = kTurns;
        for (int k = 0; k < kTurns * kWidth; ++k)
            t.hidden.push_back(noise(rng));
        for (int k = 0; k < kWidth; ++k)
            t.goal.push_back(noise(rng));
        t.reward = i % 2;
        for (int k = 0; k < kTurns; ++k)
            t.progress.push_back(k == i % kTurns ? static_cast<float>(t.reward) : 0.0f);
        batch.push_back(std::move(t));
    }
    TurnRdReplay replay;
    replay.append(batch);

    TurnRd model(options);
    model.credit(batch); // warm-up: allocator and kernels
    model.trainRound(replay, 0);

    std::vector<double> creditTimes, roundTimes, probeTimes;
    std::int64_t steps = 0;
    double drift = 0.0;
    for (int r = 0; r < repeats; ++r) {
        auto start = Clock::now();
        const auto credits = model.credit(batch);
        creditTimes.push_back(seconds(start));
        start = Clock::now();
        const auto stats = model.trainRound(replay, 0);
        roundTimes.push_back(seconds(start));
        steps = stats.steps;
        drift = std::max(drift, stats.probes.conservationDrift);
        start = Clock::now();
        model.probe(batch);
        probeTimes.push_back(seconds(start));
    }
    std::printf("TurnRD %lld parameters, %d trajectories x %d turns x width %d, %d threads, %s, median of %d\n",
        static_cast<long long>(model.parameterCount()), kTrajectories, kTurns, kWidth, threads, device.c_str(),
        repeats);
    std::printf("credit pass:     %8.2f ms  (%.1f us per trajectory)\n", 1e3 * median(creditTimes),
        1e6 * median(creditTimes) / kTrajectories);
    std::printf("training round:  %8.2f ms  (%lld steps, %.2f ms per step incl. probes share)\n",
        1e3 * median(roundTimes), static_cast<long long>(steps),
        1e3 * median(roundTimes) / static_cast<double>(std::max<std::int64_t>(1, steps)));
    std::printf("probes alone:    %8.2f ms\n", 1e3 * median(probeTimes));
    std::printf("conservation drift (max |sum r - R|): %.3g\n", drift);
    return 0;
}
