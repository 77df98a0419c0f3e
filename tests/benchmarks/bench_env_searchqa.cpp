// Benchmark: searchqa environment steps per second, one thread, under the random policy, the expert and the
// searching expert. A random step lists the admissible commands and executes one: a search runs an FTS5 BM25
// query over the knowledge base's passages (or takes it from the query cache) and renders the top-k passages, an
// answer normalises and compares. Also reports the knowledge base's build time and the search latency. The
// knowledge base's query cache stays warm across the runs, as it does in training: repeated entity-name searches
// are cheap, a question searched for the first time costs a full BM25 ranking.
//
// Usage: bench_env_searchqa [random_steps=200000] [expert_episodes=20000]
#include "core/env/environment.h"
#include "core/env/policy.h"
#include "core/env/searchqa.h"

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

struct Run {
    long long steps = 0;
    long long episodes = 0;
    long long solved = 0;
    double seconds = 0.0;
};

Run runExpert(Environment& env, Policy& policy, int episodes)
{
    Run run;
    const auto start = std::chrono::steady_clock::now();
    // Seeds the random run did not play: their question searches are not in the query cache yet.
    for (int s = 0; s < episodes; ++s) {
        env.reset(1000000 + static_cast<std::uint64_t>(s), s % 5 == 0 ? Split::Eval : Split::Train);
        while (!env.done()) {
            run.solved += env.step(policy.act(env)).success;
            ++run.steps;
        }
    }
    run.episodes = episodes;
    run.seconds = since(start);
    return run;
}

} // namespace

int main(int argc, char** argv)
{
    const long long target = argc > 1 ? std::atoll(argv[1]) : 200000;
    const int expertEpisodes = argc > 2 ? std::atoi(argv[2]) : 20000;

    const auto buildStart = std::chrono::steady_clock::now();
    const searchqa::KnowledgeBase kb(1234, searchqa::SearchQaEnv::kDefaultKbSize);
    const double buildSeconds = since(buildStart);
    // The engine itself (SQLite FTS5, every query run): entity names and whole questions.
    const int searches = 2000;
    std::size_t hits = 0;
    auto searchStart = std::chrono::steady_clock::now();
    for (int i = 0; i < searches; ++i)
        hits += kb.index().search(kb.entity(i).name, 3).size();
    const double nameSeconds = since(searchStart);
    searchStart = std::chrono::steady_clock::now();
    for (int i = 0; i < searches; ++i)
        hits += kb.index().search(kb.drawQuestion(static_cast<std::uint64_t>(i), Split::Train).text, 3).size();
    const double questionSeconds = since(searchStart);

    auto env = makeEnvironment("searchqa");
    RandomPolicy policy;
    Run random;
    long long searchesRun = 0, answers = 0;
    const auto start = std::chrono::steady_clock::now();
    while (random.steps < target) {
        env->reset(static_cast<std::uint64_t>(random.episodes), random.episodes % 5 == 0 ? Split::Eval : Split::Train);
        policy.reset(static_cast<std::uint64_t>(random.episodes) + 1);
        while (!env->done()) {
            const std::string_view action = policy.act(*env);
            searchesRun += action.rfind("<search>", 0) == 0;
            const StepResult& r = env->step(action);
            random.solved += r.success;
            answers += static_cast<const searchqa::SearchQaEnv&>(*env).answered() && r.done;
            ++random.steps;
        }
        ++random.episodes;
    }
    random.seconds = since(start);

    ExpertPolicy expert;
    SearchExpertPolicy searchExpert;
    const Run e = runExpert(*env, expert, expertEpisodes);
    const Run s = runExpert(*env, searchExpert, expertEpisodes);

    std::printf("searchqa knowledge base: %d entities generated and indexed in %.1f ms\n",
        searchqa::SearchQaEnv::kDefaultKbSize, buildSeconds * 1e3);
    std::printf("search (top 3, FTS5 BM25, uncached): entity names %.1f us each, whole questions %.1f us each; "
                "%.2f results on average\n",
        nameSeconds / searches * 1e6, questionSeconds / searches * 1e6, static_cast<double>(hits) / (2 * searches));
    std::printf("searchqa, random policy, one thread: %lld steps in %lld episodes, %.3f s\n", random.steps,
        random.episodes, random.seconds);
    std::printf("  %.0f steps/s; %.1f%% of steps are searches, %lld answers, success %.3f\n",
        static_cast<double>(random.steps) / random.seconds,
        100.0 * static_cast<double>(searchesRun) / static_cast<double>(random.steps), answers,
        static_cast<double>(random.solved) / static_cast<double>(random.episodes));
    for (const auto& [name, run] : { std::pair { "expert", e }, std::pair { "search-expert", s } })
        std::printf("%s: %lld episodes (resets included), mean length %.2f steps, success %.3f, %.0f steps/s\n", name,
            run.episodes, static_cast<double>(run.steps) / static_cast<double>(run.episodes),
            static_cast<double>(run.solved) / static_cast<double>(run.episodes),
            static_cast<double>(run.steps) / run.seconds);
    return 0;
}
