// Benchmark: every credit estimator over a generated batch, compute only, one thread.
// Targets: issue 3 asks for < 1 s per million turns for every non-learned method; TARGETS.md asks
// for >= 20x a straightforward pure-Python implementation of CONVENTIONS.md (anchors below,
// measured on 200k turns in groups of up to 8 on the reference machine).
//
// Two figures per method, each the median of `repeats` runs:
// - turns/s: compute() on a CreditBatch built once, before the timed region (Columns::All: every state and
//   action key hashed once). This is how a caller that runs several methods, or one method several times, on
//   one batch uses the estimators, and what the target is checked against.
// - with build: compute() on the Batch, which builds the columns that method reads inside the timed region
//   (hashing its keys on every call), as a caller that runs one method once pays.
// The one-off CreditBatch build (Columns::All) is timed and printed too.
//
// Usage: bench_credit [turns=1000000] [repeats=5] [method] [prebuilt]; with `prebuilt` the with-build figure is
// skipped (for profiling the computation alone).
#include "core/credit/estimator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <random>
#include <string>

using namespace creditlab;

namespace {

constexpr int kGroupSize = 8;

/// Trajectories of 4..16 turns (mean 10) in groups of 8, with every field any method reads: roles,
/// progress, scores, validity, repeated actions and states shared within a group (anchors, tree nodes).
Batch generate(std::size_t turns)
{
    std::mt19937 rng(11);
    std::vector<Trajectory> out;
    std::size_t total = 0;
    const Role roles[] = { Role::D, Role::E, Role::N, Role::R };
    static const char* kActions[] = { "go to countertop 1", "open fridge 1", "take mug 1 from countertop 1",
        "Go to  Cabinet 2", "clean mug 1 with sinkbasin 1", "put mug 1 in/on coffeemachine 1", "look", "inventory" };
    for (std::size_t g = 0; total < turns; ++g) {
        const std::string group = "it0-task" + std::to_string(g);
        for (int r = 0; r < kGroupSize && total < turns; ++r) {
            Trajectory t;
            t.id = group + "-r" + std::to_string(r);
            t.group = group;
            const std::size_t n = std::min<std::size_t>(4 + rng() % 13, turns - total);
            t.reward = rng() % 3 == 0 ? 1.0 : 0.0;
            double progress = 0.0;
            for (std::size_t k = 0; k < n; ++k) {
                Turn u;
                u.observation = "You are at location " + std::to_string(rng() % 6) + ". You see a mug and a fridge.";
                u.action = kActions[rng() % 8];
                u.valid = rng() % 5 != 0;
                u.state = "loc=" + std::to_string(k < 2 ? k : rng() % 6) + "|holding=" + std::to_string(rng() % 2);
                progress = std::min(1.0, progress + (rng() % 3) * 0.1);
                u.progress = progress;
                u.role = roles[rng() % 4];
                u.score = (rng() % 1000) / 1000.0;
                // What learned models hand over (value_baseline reads ΔV, has decomposer=turnrd reads r̂_t).
                u.credits = { { "turnrd", (static_cast<double>(rng() % 1000) - 500.0) / 1000.0 },
                    { "value_delta", (static_cast<double>(rng() % 1000) - 500.0) / 1000.0 } };
                t.turns.push_back(std::move(u));
            }
            total += n;
            out.push_back(std::move(t));
        }
    }
    return Batch::fromTrajectories(std::move(out));
}

} // namespace

int main(int argc, char** argv)
{
    const std::size_t turns = argc > 1 ? std::stoul(argv[1]) : 1000000;
    const int repeats = argc > 2 ? std::stoi(argv[2]) : 5;
    const std::string only = argc > 3 ? argv[3] : "";
    const bool withBuild = !(argc > 4 && std::string(argv[4]) == "prebuilt");
    // Pure-Python anchors of TARGETS.md, turns/s (mgr's with gate=keep).
    const std::map<std::string, double> anchors = { { "grpo", 5.6e6 }, { "triage", 1.89e6 }, { "has", 0.69e6 },
        { "mgr", 1.49e6 }, { "gigpo", 1.12e6 }, { "rtmc", 0.83e6 }, { "pair", 0.49e6 }, { "step_reward", 2.36e6 } };

    const Batch batch = generate(turns);
    const auto build0 = std::chrono::steady_clock::now();
    const credit::CreditBatch columns(batch, credit::Columns::All);
    const double buildSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - build0).count();
    std::printf("bench_credit: %zu turns, %zu trajectories in groups of %d, 1 thread, median of %d\n",
        batch.turnCount(), batch.trajectories.size(), kGroupSize, repeats);
    std::printf("CreditBatch build (all columns: %zu states, %zu action keys, %zu pairs): %.4f s, %.0f turns/s\n",
        columns.stateCount(), columns.actionCount(), columns.pairCount(), buildSeconds,
        static_cast<double>(batch.turnCount()) / buildSeconds);
    std::printf(
        "%-14s %14s %12s %10s %12s %14s\n", "method", "turns/s", "s per 1M", "x python", "target", "with build");
    bool allMet = true;
    for (const credit::Estimator* e : credit::estimators()) {
        const std::string name(e->name());
        if (!only.empty() && name != only)
            continue;
        const credit::Params params = e->resolve({});
        e->validate(batch, params);
        double checksum = 0.0;
        // The median seconds of `repeats` runs of `run`.
        auto median = [&](auto run) {
            std::vector<double> times;
            for (int r = 0; r < repeats; ++r) {
                const auto t0 = std::chrono::steady_clock::now();
                const credit::CreditResult result = run();
                times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
                checksum += result.advantages[result.advantages.size() / 2];
            }
            std::sort(times.begin(), times.end());
            return times[times.size() / 2];
        };
        const double t = median([&] { return e->compute(columns, params); });
        const double tBuild = withBuild ? median([&] { return e->compute(batch, params); }) : 0.0;
        const double rate = static_cast<double>(batch.turnCount()) / t;
        const auto anchor = anchors.find(name);
        const double factor = anchor != anchors.end() ? rate / anchor->second : 0.0;
        const bool met = rate >= 1e6 && (anchor == anchors.end() || factor >= 20.0);
        allMet = allMet && met;
        char factorText[32] = "-";
        if (anchor != anchors.end())
            std::snprintf(factorText, sizeof factorText, "%.1f", factor);
        std::printf("%-14s %14.0f %12.4f %10s %12s %14.0f%s\n", name.c_str(), rate, 1e6 / rate, factorText,
            anchor != anchors.end() ? ">=20x, <1s" : "<1s",
            withBuild ? static_cast<double>(batch.turnCount()) / tBuild : 0.0, met ? "" : "  MISSED");
        (void)checksum;
    }
    return allMet ? 0 : 1;
}
