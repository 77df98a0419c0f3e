// Benchmark: the live ingestion server (issue 21 §3) taking iterations over loopback HTTP, in turns per second.
// Target: >= 150k turns/s ingested. The anchor, measured in the same run on the same rows: the native file import
// (importJsonl), which is what the server's path (parse records, insert them in one transaction) competes with.
//
// The server runs in this process on 127.0.0.1 with its default thread pool and no rate limit; `posters` clients
// (cpp-httplib, keep-alive) post the iterations of one run, each a body of `batch` trajectories of ten turns, in
// our JSONL records. The time runs from the first request to the last reply; the bodies are built beforehand (a
// trainer has its batch in memory already).
//
// Usage: bench_serve [turns=500000] [batch=1000] [posters=2] [repeats=3]
#include "core/interchange/jsonl.h"
#include "core/interchange/jsonltransfer.h"
#include "core/server/ingestserver.h"
#include "core/storage/store.h"
#include "tests/benchmarks/benchdata.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <httplib.h>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using namespace creditlab;
using Clock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

void removeDb(const fs::path& db)
{
    for (const char* suffix : { "", "-wal", "-shm" })
        fs::remove(db.string() + suffix);
}

} // namespace

int main(int argc, char** argv)
{
    const std::size_t turns = argc > 1 ? std::stoul(argv[1]) : 500000;
    const std::size_t batch = argc > 2 ? std::stoul(argv[2]) : 1000;
    const int posters = argc > 3 ? std::stoi(argv[3]) : 2;
    const int repeats = argc > 4 ? std::stoi(argv[4]) : 3;
    const fs::path dir = fs::temp_directory_path() / ("creditlab-bench-serve-" + std::to_string(::getpid()));
    fs::create_directories(dir);

    const std::vector<Trajectory> trajs = bench::generate(turns);
    const std::size_t total = trajs.size() * bench::kTurnsPerTrajectory;
    // The same rows twice: a JSONL file for the anchor, and one request body per iteration for the server.
    const fs::path jsonl = dir / "turns.jsonl";
    std::vector<std::string> bodies;
    {
        std::FILE* f = std::fopen(jsonl.c_str(), "wb");
        std::string line;
        for (std::size_t first = 0; first < trajs.size(); first += batch) {
            std::string body = "{\"iteration\":" + std::to_string(bodies.size()) + ",\"trajectories\":[";
            for (std::size_t i = first; i < std::min(trajs.size(), first + batch); ++i) {
                line.clear();
                formatTrajectory(trajs[i], line);
                body += i > first ? "," : "";
                body += line;
                line.push_back('\n');
                std::fwrite(line.data(), 1, line.size(), f);
            }
            body += "]}";
            bodies.push_back(std::move(body));
        }
        std::fclose(f);
    }
    std::size_t bodyBytes = 0;
    for (const std::string& b : bodies)
        bodyBytes += b.size();
    std::printf("bench_serve: %zu turns (%zu trajectories x %d) in %zu posts of %zu trajectories (%.1f MiB of "
                "bodies), %d posters, %u hardware threads\n",
        total, trajs.size(), bench::kTurnsPerTrajectory, bodies.size(), batch,
        static_cast<double>(bodyBytes) / (1 << 20), posters, std::thread::hardware_concurrency());

    std::vector<double> anchor, served;
    for (int r = 0; r < repeats; ++r) {
        {
            const fs::path db = dir / "anchor.db";
            removeDb(db);
            Store store(db.string());
            const auto t0 = Clock::now();
            importJsonl(store, jsonl.string());
            anchor.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
        }
        const fs::path db = dir / "served.db";
        removeDb(db);
        server::ServerOptions options;
        options.database = db.string();
        options.port = 0;
        options.ratePerSecond = 0.0;
        server::IngestServer srv(options);
        std::thread serving([&srv] { srv.run(); });
        std::int64_t runId = 0;
        {
            httplib::Client c("127.0.0.1", srv.port());
            const auto res = c.Post("/v1/runs", R"({"name":"bench"})", "application/json");
            if (!res || res->status != 201) {
                std::fprintf(stderr, "bench_serve: could not create the run\n");
                return 1;
            }
            runId = std::stoll(res->body.substr(res->body.find(':') + 1));
        }
        const std::string path = "/v1/runs/" + std::to_string(runId) + "/iterations";
        std::atomic<std::size_t> next { 0 };
        std::atomic<int> failures { 0 };
        const auto t0 = Clock::now();
        std::vector<std::thread> clients;
        for (int p = 0; p < posters; ++p)
            clients.emplace_back([&] {
                httplib::Client c("127.0.0.1", srv.port());
                c.set_read_timeout(300, 0);
                for (std::size_t i = next++; i < bodies.size(); i = next++) {
                    const auto res = c.Post(path, bodies[i], "application/json");
                    if (!res || res->status != 201) {
                        ++failures;
                        std::fprintf(stderr, "post %zu: %s\n", i, res ? res->body.c_str() : "no reply");
                    }
                }
            });
        for (std::thread& t : clients)
            t.join();
        served.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
        srv.stop();
        serving.join();
        Store store(db.string(), Store::Access::ReadOnly);
        const auto run = store.run(runId);
        if (failures > 0 || !run || static_cast<std::size_t>(run->turnCount) != total) {
            std::fprintf(stderr, "bench_serve: %d posts failed; %lld turns stored, expected %zu\n", failures.load(),
                run ? static_cast<long long>(run->turnCount) : -1LL, total);
            return 1;
        }
    }
    const double anchorRate = static_cast<double>(total) / median(anchor);
    const double servedRate = static_cast<double>(total) / median(served);
    std::printf("  served over loopback:   %8.0f turns/s  (median of %d; %.3f s)\n", servedRate, repeats, median(served));
    std::printf("  anchor, file import:    %8.0f turns/s  (median of %d; %.3f s)\n", anchorRate, repeats, median(anchor));
    std::printf("  served / file import:   %8.0f %%\n", 100.0 * servedRate / anchorRate);
    std::printf("  target: >= 150000 turns/s served: %s\n", servedRate >= 150000.0 ? "met" : "MISSED");
    fs::remove_all(dir);
    return 0;
}
