// Benchmark: shop environment steps per second, one thread, under the random policy and the expert. A random
// step lists the admissible commands and executes one: a search runs an FTS5 BM25 query over the catalog, a
// purchase computes WebShop's reward. Also reports the catalog's build time, the search latency, episode
// lengths and rewards.
//
// Usage: bench_env_shop [random_steps=200000] [expert_episodes=5000]
#include "core/env/environment.h"
#include "core/env/policy.h"
#include "core/env/shop.h"

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
    const long long target = argc > 1 ? std::atoll(argv[1]) : 200000;
    const int expertEpisodes = argc > 2 ? std::atoi(argv[2]) : 5000;

    const auto buildStart = std::chrono::steady_clock::now();
    const shop::Catalog catalog(1234, 3000);
    const double buildSeconds = since(buildStart);
    // The engine itself (SQLite FTS5, every query run), then through the catalog's query cache.
    const int searches = 2000;
    std::size_t hits = 0;
    auto searchStart = std::chrono::steady_clock::now();
    for (int i = 0; i < searches; ++i)
        hits
            += catalog.index().search(catalog.product(i).name + " " + catalog.product(i).attributes.front(), 50).size();
    const double searchSeconds = since(searchStart);
    searchStart = std::chrono::steady_clock::now();
    for (int i = 0; i < searches; ++i)
        catalog.search(catalog.product(i).name + " " + catalog.product(i).attributes.front());
    const double cachedSeconds = since(searchStart);

    auto env = makeEnvironment("shop");
    RandomPolicy policy;
    long long steps = 0, episodes = 0, searchesRun = 0, purchases = 0;
    double reward = 0.0;
    const auto start = std::chrono::steady_clock::now();
    while (steps < target) {
        env->reset(static_cast<std::uint64_t>(episodes), episodes % 5 == 0 ? Split::Eval : Split::Train);
        policy.reset(static_cast<std::uint64_t>(episodes) + 1);
        while (!env->done()) {
            const std::string_view action = policy.act(*env);
            searchesRun += action.rfind("search[", 0) == 0;
            const StepResult& r = env->step(action);
            reward += r.reward;
            purchases += r.done && static_cast<const shop::ShopEnv&>(*env).page() == shop::Page::Done;
            ++steps;
        }
        ++episodes;
    }
    const double seconds = since(start);

    ExpertPolicy expert;
    long long expertSteps = 0, solved = 0;
    const auto expertStart = std::chrono::steady_clock::now();
    for (int s = 0; s < expertEpisodes; ++s) {
        env->reset(static_cast<std::uint64_t>(s), s % 5 == 0 ? Split::Eval : Split::Train);
        while (!env->done()) {
            solved += env->step(expert.act(*env)).success;
            ++expertSteps;
        }
    }
    const double expertSeconds = since(expertStart);

    std::printf("shop catalog: 3000 products generated and indexed in %.1f ms\n", buildSeconds * 1e3);
    std::printf("search: %d FTS5 BM25 queries, %.1f us each, %.1f results on average; through the catalog's "
                "cache %.1f us each\n",
        searches, searchSeconds / searches * 1e6, static_cast<double>(hits) / searches, cachedSeconds / searches * 1e6);
    std::printf("shop, random policy, one thread: %lld steps in %lld episodes, %.3f s\n", steps, episodes, seconds);
    std::printf("  %.0f steps/s; %.1f%% of steps are searches, %lld purchases, mean reward per episode %.3f\n",
        static_cast<double>(steps) / seconds, 100.0 * static_cast<double>(searchesRun) / static_cast<double>(steps),
        purchases, reward / static_cast<double>(episodes));
    std::printf("expert: %d episodes (episode resets included), mean length %.2f steps, success %.3f, %.0f steps/s\n",
        expertEpisodes, static_cast<double>(expertSteps) / expertEpisodes, static_cast<double>(solved) / expertEpisodes,
        static_cast<double>(expertSteps) / expertSeconds);
    return 0;
}
