// Benchmark: creditlab-cli's start-up for a command that needs no LibTorch (issue 22 §4). Target: `creditlab-cli runs`
// in <= 30 ms wall and <= 30 MB peak RSS, median of 10. Anchor, measured in the same run: `creditlab-cli doctor
// --help`, which opens the training module (LibTorch, OpenCV, Qt 5) and so costs what every command cost before.
//
// Usage: bench_cli_start [runs=10] [database]   (default database: a fresh one with one imported run)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Sample {
    double ms = 0.0;
    double mb = 0.0;
};

/// Runs `args` with stdout and stderr to /dev/null; wall time and the child's peak RSS.
Sample runOnce(const std::vector<std::string>& args)
{
    std::vector<char*> argv;
    for (const std::string& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
        std::freopen("/dev/null", "w", stdout);
        std::freopen("/dev/null", "w", stderr);
        execv(argv[0], argv.data());
        _exit(127);
    }
    int status = 0;
    rusage usage {};
    wait4(pid, &status, 0, &usage);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::fprintf(stderr, "bench_cli_start: %s %s failed\n", args[0].c_str(), args[1].c_str());
        std::exit(1);
    }
    return { ms, static_cast<double>(usage.ru_maxrss) / 1024.0 };
}

Sample median(std::vector<Sample> v)
{
    auto mid = [&](auto key) {
        std::sort(v.begin(), v.end(), [&](const Sample& a, const Sample& b) { return key(a) < key(b); });
        return key(v[v.size() / 2]);
    };
    return { mid([](const Sample& s) { return s.ms; }), mid([](const Sample& s) { return s.mb; }) };
}

} // namespace

int main(int argc, char** argv)
{
    const int n = argc > 1 ? std::stoi(argv[1]) : 10;
    const fs::path cli = fs::read_symlink("/proc/self/exe").parent_path() / "creditlab-cli";
    std::string db = argc > 2 ? argv[2] : "";
    const fs::path dir = fs::temp_directory_path() / ("creditlab-bench-cli-" + std::to_string(::getpid()));
    if (db.empty()) {
        fs::create_directories(dir);
        const fs::path jsonl = dir / "one.jsonl";
        std::FILE* f = std::fopen(jsonl.c_str(), "w");
        std::fputs("{\"id\":\"t\",\"group\":\"g\",\"reward\":1,\"turns\":[{\"observation\":\"o\",\"action\":\"a\"}]}\n", f);
        std::fclose(f);
        db = (dir / "runs.db").string();
        runOnce({ cli.string(), "import", "--db", db, jsonl.string() });
    }
    std::vector<Sample> runs, anchor;
    runOnce({ cli.string(), "runs", "--db", db }); // warm the page cache
    for (int i = 0; i < n; ++i) {
        runs.push_back(runOnce({ cli.string(), "runs", "--db", db }));
        anchor.push_back(runOnce({ cli.string(), "doctor", "--help" }));
    }
    const Sample r = median(runs);
    const Sample a = median(anchor);
    std::printf("bench_cli_start: median of %d\n", n);
    std::printf("  creditlab-cli runs:           %6.1f ms  %6.1f MB peak RSS\n", r.ms, r.mb);
    std::printf("  anchor, doctor --help:        %6.1f ms  %6.1f MB peak RSS  (opens the training module)\n", a.ms, a.mb);
    std::printf("  target: runs <= 30 ms and <= 30 MB: %s\n", r.ms <= 30.0 && r.mb <= 30.0 ? "met" : "MISSED");
    fs::remove_all(dir);
    return 0;
}
