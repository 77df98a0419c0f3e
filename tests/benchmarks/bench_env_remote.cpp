// Benchmark: `remote` environment steps per second against the loopback AgentGym-style server
// (tests/core/remote_test_server.h), one client thread, per dialect. A step is one HTTP round trip (POST /step on
// a keep-alive connection) plus, where the policy asks for them, the admissible commands (one GET for alfworld
// after reset only, webshop every step; none for babyai, which lists them in the observation). Also reports the
// mean reset latency (POST /reset; webshop adds GET /instruction_text).
//
// Usage: bench_env_remote [steps_per_dialect=20000]
#include "core/env/environment.h"
#include "core/env/policy.h"

#include "../core/remote_test_server.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace creditlab::env;

namespace {

double since(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main(int argc, char** argv)
{
    const long long target = argc > 1 ? std::atoll(argv[1]) : 20000;
    std::printf(
        "remote env over loopback HTTP (cpp-httplib server and client, keep-alive), %lld steps per dialect\n", target);
    for (const char* dialect : { "alfworld", "webshop", "searchqa", "babyai" }) {
        creditlab::test::RemoteTestServer server(dialect);
        auto env
            = makeEnvironment("remote", { { "dialect", dialect }, { "url", server.url() }, { "max_steps", "20" } });
        RandomPolicy random;
        const bool freeText = std::string(dialect) == "searchqa"; // no admissible commands: a fixed action
        long long steps = 0, episodes = 0, successes = 0;
        double resetSeconds = 0.0;
        const auto start = std::chrono::steady_clock::now();
        while (steps < target) {
            const auto resetStart = std::chrono::steady_clock::now();
            env->reset(static_cast<std::uint64_t>(episodes), Split::Train);
            resetSeconds += since(resetStart);
            random.reset(static_cast<std::uint64_t>(episodes) + 1);
            while (!env->done()) {
                const StepResult& r = env->step(freeText ? std::string_view("go forward") : random.act(*env));
                successes += r.success;
                ++steps;
            }
            ++episodes;
        }
        const double seconds = since(start);
        std::printf("  %-9s %8.0f steps/s  %6.1f us/step  reset %6.1f us  %lld episodes, %.0f%% solved\n", dialect,
            static_cast<double>(steps) / seconds, 1e6 * (seconds - resetSeconds) / static_cast<double>(steps),
            1e6 * resetSeconds / static_cast<double>(episodes), episodes,
            100.0 * static_cast<double>(successes) / static_cast<double>(episodes));
    }
    return 0;
}
