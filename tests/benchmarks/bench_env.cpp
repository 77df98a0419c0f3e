// Benchmark: household environment steps per second under the random policy, one thread.
// Target (issue 4): >= 200,000 steps/s. Each step parses the command, applies it, computes the progress
// potential, the oracle role and the state key; the random policy builds the admissible commands every step.
// Also reports the expert's episode length and the sizes of the generated worlds.
//
// Usage: bench_env [steps=2000000]
#include "core/env/environment.h"
#include "core/env/household.h"
#include "core/env/policy.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace creditlab::env;

int main(int argc, char** argv)
{
    const long long target = argc > 1 ? std::atoll(argv[1]) : 2000000;
    auto env = makeEnvironment("household");
    RandomPolicy policy;
    long long steps = 0, episodes = 0, successes = 0, admissible = 0;
    double receptacles = 0, objects = 0;
    const auto start = std::chrono::steady_clock::now();
    std::string action;
    while (steps < target) {
        env->reset(static_cast<std::uint64_t>(episodes), episodes % 5 == 0 ? Split::Eval : Split::Train);
        policy.reset(static_cast<std::uint64_t>(episodes) + 1);
        const auto& world = static_cast<const household::HouseholdEnv&>(*env).world();
        receptacles += static_cast<double>(world.receptacles.size());
        objects += static_cast<double>(world.objects.size());
        while (!env->done()) {
            admissible += static_cast<long long>(env->admissibleCommands().size());
            const StepResult& r = env->step(policy.act(*env));
            successes += r.success;
            ++steps;
        }
        ++episodes;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    ExpertPolicy expert;
    long long expertSteps = 0;
    const int expertEpisodes = 10000;
    const auto expertStart = std::chrono::steady_clock::now();
    for (int s = 0; s < expertEpisodes; ++s) {
        env->reset(static_cast<std::uint64_t>(s), Split::Train);
        while (!env->done()) {
            env->step(expert.act(*env));
            ++expertSteps;
        }
    }
    const double expertSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - expertStart).count();

    std::printf(
        "household, random policy, one thread: %lld steps in %lld episodes, %.3f s\n", steps, episodes, seconds);
    std::printf("  %.0f steps/s (target >= 200000)\n", static_cast<double>(steps) / seconds);
    std::printf("  success rate %.3f, mean admissible commands %.1f, mean receptacles %.1f, mean objects %.1f\n",
        static_cast<double>(successes) / static_cast<double>(episodes),
        static_cast<double>(admissible) / static_cast<double>(steps), receptacles / static_cast<double>(episodes),
        objects / static_cast<double>(episodes));
    std::printf("expert: %d episodes, mean length %.2f steps, %.0f steps/s\n", expertEpisodes,
        static_cast<double>(expertSteps) / expertEpisodes, static_cast<double>(expertSteps) / expertSeconds);
    return 0;
}
