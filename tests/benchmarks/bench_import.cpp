// Benchmark: import a generated JSONL file of 1,000,000 turns into SQLite and print turns/s.
// Target (TARGETS.md): >= 300k turns/s including JSON parsing, on the 2-core reference machine.
// Also runs the anchor: a raw sqlite3 insert loop of the same turn rows (prepared statement,
// one transaction, WAL), so both figures come from the same machine and moment.
//
// Then the same trajectories written in two foreign formats (core/interchange/importformats.h), imported the same way:
// OpenAI-style chat records (`messages`) and verl rollout dumps with ChatML-templated multi-turn output.
// Target (issue "Bring your own rollouts"): a foreign format at >= 50% of the native import's speed.
//
// Target (issue 22): the import at >= 65% of the anchor's speed, as the median over repeats of import / anchor
// within one repeat.
//
// Usage: bench_import [turns=1000000] [repeats=5]
#include "core/interchange/importformats.h"
#include "core/interchange/jsonl.h"
#include "core/interchange/jsonlfile.h"
#include "core/interchange/jsonltransfer.h"
#include "core/interchange/jsonscanner.h"
#include "core/storage/store.h"
#include "tests/benchmarks/benchdata.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <sqlite3.h>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using namespace creditlab;
using bench::generate;
using bench::kTurnsPerTrajectory;

namespace {

double anchorRawInsert(const std::vector<Trajectory>& trajs, const fs::path& dbPath)
{
    fs::remove(dbPath);
    sqlite3* db = nullptr;
    sqlite3_open(dbPath.c_str(), &db);
    sqlite3_exec(db,
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
        "CREATE TABLE turn (trajectory_id INTEGER, idx INTEGER, observation TEXT, action TEXT, "
        "feedback TEXT, reward REAL, valid INTEGER, state TEXT, progress REAL)",
        nullptr, nullptr, nullptr);
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "INSERT INTO turn VALUES (?,?,?,?,?,?,?,?,?)", -1, &st, nullptr);
    const auto t0 = std::chrono::steady_clock::now();
    sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
    std::int64_t tid = 0;
    for (const Trajectory& t : trajs) {
        ++tid;
        int idx = 0;
        for (const Turn& u : t.turns) {
            sqlite3_bind_int64(st, 1, tid);
            sqlite3_bind_int(st, 2, idx++);
            sqlite3_bind_text(st, 3, u.observation.data(), static_cast<int>(u.observation.size()), SQLITE_STATIC);
            sqlite3_bind_text(st, 4, u.action.data(), static_cast<int>(u.action.size()), SQLITE_STATIC);
            sqlite3_bind_text(st, 5, u.feedback->data(), static_cast<int>(u.feedback->size()), SQLITE_STATIC);
            sqlite3_bind_double(st, 6, *u.reward);
            sqlite3_bind_int(st, 7, *u.valid);
            sqlite3_bind_text(st, 8, u.state->data(), static_cast<int>(u.state->size()), SQLITE_STATIC);
            sqlite3_bind_double(st, 9, *u.progress);
            sqlite3_step(st);
            sqlite3_reset(st);
        }
    }
    sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    sqlite3_finalize(st);
    sqlite3_close(db);
    return s;
}

/// One trajectory as an OpenAI-style chat record: system goal, then user observation / assistant action per turn.
void chatRecord(const Trajectory& t, std::string& line)
{
    line = "{\"id\":";
    appendJsonString(line, t.id);
    line += ",\"group\":";
    appendJsonString(line, t.group);
    line += ",\"reward\":";
    appendJsonNumber(line, t.reward);
    line += ",\"messages\":[{\"role\":\"system\",\"content\":";
    appendJsonString(line, *t.task.goal);
    line += "}";
    for (const Turn& u : t.turns) {
        line += ",{\"role\":\"user\",\"content\":";
        appendJsonString(line, u.observation);
        line += "},{\"role\":\"assistant\",\"content\":";
        appendJsonString(line, u.action);
        line += "}";
    }
    line += "]}";
}

/// One trajectory as a verl dump line: a ChatML prompt (goal, first observation) and a ChatML multi-turn output.
void verlRecord(const Trajectory& t, std::string& line)
{
    std::string input = "<|im_start|>system\n" + *t.task.goal + "<|im_end|>\n<|im_start|>user\n"
        + t.turns[0].observation + "<|im_end|>\n<|im_start|>assistant\n";
    std::string output;
    for (std::size_t k = 0; k < t.turns.size(); ++k) {
        if (k > 0)
            output += "<|im_end|>\n<|im_start|>user\n" + t.turns[k].observation + "<|im_end|>\n<|im_start|>assistant\n";
        output += t.turns[k].action;
    }
    output += "<|im_end|>";
    line = "{\"input\":";
    appendJsonString(line, input);
    line += ",\"output\":";
    appendJsonString(line, output);
    line += ",\"gts\":\"\",\"score\":";
    appendJsonNumber(line, t.reward);
    line += ",\"step\":0,\"uid\":";
    appendJsonString(line, t.group);
    line += "}";
}

void writeLines(
    const fs::path& file, const std::vector<Trajectory>& trajs, void (*format)(const Trajectory&, std::string&))
{
    std::FILE* f = std::fopen(file.c_str(), "wb");
    std::string line;
    for (const auto& t : trajs) {
        line.clear();
        format(t, line);
        line.push_back('\n');
        std::fwrite(line.data(), 1, line.size(), f);
    }
    std::fclose(f);
}

/// The same chat records as one JSON document, as tau-bench writes its logs: an array of records printed with an
/// indent of 2 (a line per member and per array element).
void writeChatDocument(const fs::path& file, const std::vector<Trajectory>& trajs)
{
    std::FILE* f = std::fopen(file.c_str(), "wb");
    std::string line, pretty;
    std::fputs("[\n", f);
    for (std::size_t k = 0; k < trajs.size(); ++k) {
        line.clear();
        chatRecord(trajs[k], line);
        pretty.assign("  ");
        int depth = 1;
        bool inString = false;
        for (std::size_t i = 0; i < line.size(); ++i) {
            const char c = line[i];
            pretty.push_back(c);
            if (inString) {
                if (c == '\\' && i + 1 < line.size())
                    pretty.push_back(line[++i]);
                else if (c == '"')
                    inString = false;
                continue;
            }
            if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                ++depth;
                pretty += '\n' + std::string(static_cast<std::size_t>(2 * depth), ' ');
            } else if (c == ',') {
                pretty += '\n' + std::string(static_cast<std::size_t>(2 * depth), ' ');
            } else if (c == ':') {
                pretty.push_back(' ');
            }
            if (i + 1 < line.size() && (line[i + 1] == '}' || line[i + 1] == ']') && !inString) {
                --depth;
                pretty += '\n' + std::string(static_cast<std::size_t>(2 * depth), ' ');
            }
        }
        pretty += k + 1 < trajs.size() ? ",\n" : "\n";
        std::fwrite(pretty.data(), 1, pretty.size(), f);
    }
    std::fputs("]\n", f);
    std::fclose(f);
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    const std::size_t turns = argc > 1 ? std::stoul(argv[1]) : 1000000;
    const int repeats = argc > 2 ? std::stoi(argv[2]) : 5;
    const fs::path dir = fs::temp_directory_path() / ("creditlab-bench-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path jsonl = dir / "turns.jsonl";

    const auto trajs = generate(turns);
    {
        std::FILE* f = std::fopen(jsonl.c_str(), "wb");
        std::string line;
        for (const auto& t : trajs) {
            line.clear();
            formatTrajectory(t, line);
            line.push_back('\n');
            std::fwrite(line.data(), 1, line.size(), f);
        }
        std::fclose(f);
    }
    const std::size_t total = trajs.size() * kTurnsPerTrajectory;
    std::printf("bench_import: %zu turns (%zu trajectories x %d), file %.1f MiB, %u hardware threads, "
                "1 parser thread + 1 writer thread\n",
        total, trajs.size(), kTurnsPerTrajectory, static_cast<double>(fs::file_size(jsonl)) / (1 << 20),
        std::thread::hardware_concurrency());

    const fs::path chat = dir / "chat.jsonl";
    const fs::path verl = dir / "0.jsonl";
    const fs::path chatDocument = dir / "chat.json";
    writeLines(chat, trajs, chatRecord);
    writeLines(verl, trajs, verlRecord);
    writeChatDocument(chatDocument, trajs);

    std::vector<double> parseOnly, imports, anchors, storeOnly, chatImports, verlImports, chatParse, verlParse;
    std::vector<double> documentImports, documentParse;
    // A foreign file imported through the same path as the native one (importFile), into a fresh database.
    auto importForeign = [&](const fs::path& file, ImportFormat format, std::vector<double>& times) {
        const fs::path db = dir / "foreign.db";
        fs::remove(db);
        fs::remove(dir / "foreign.db-wal");
        Store store(db.string());
        ImportOptions options;
        options.format = format;
        const auto t0 = std::chrono::steady_clock::now();
        const ImportResult res = importFile(store, file.string(), options);
        times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        return res.turns;
    };
    auto parseForeign = [&](const fs::path& file, ImportFormat format, std::vector<double>& times) {
        ImportOptions options;
        options.format = format;
        const auto t0 = std::chrono::steady_clock::now();
        auto source = openTrajectorySource(file.string(), options);
        Trajectory t;
        while (source->next(t)) { }
        times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    };
    for (int r = 0; r < repeats; ++r) {
        {
            const auto t0 = std::chrono::steady_clock::now();
            JsonlFileReader reader(jsonl.string());
            Trajectory t;
            std::size_t n = 0;
            while (reader.next(t))
                n += t.turns.size();
            parseOnly.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
        {
            const fs::path db = dir / "import.db";
            fs::remove(db);
            fs::remove(dir / "import.db-wal");
            Store store(db.string());
            const auto t0 = std::chrono::steady_clock::now();
            const ImportResult res = importJsonl(store, jsonl.string());
            imports.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            if (res.turns != total) {
                std::fprintf(
                    stderr, "imported %llu turns, expected %zu\n", static_cast<unsigned long long>(res.turns), total);
                return 1;
            }
        }
        anchors.push_back(anchorRawInsert(trajs, dir / "anchor.db"));
        {
            const fs::path db = dir / "store.db";
            fs::remove(db);
            fs::remove(dir / "store.db-wal");
            Store store(db.string());
            const auto t0 = std::chrono::steady_clock::now();
            auto tx = store.begin();
            const std::int64_t run = store.createRun(NewRun { "bench", RunKind::Import, RunStatus::Finished, {} });
            std::int64_t ord = 0;
            for (const auto& t : trajs)
                store.insertTrajectory(run, ord++, t);
            tx->commit();
            storeOnly.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
        parseForeign(chat, ImportFormat::Chat, chatParse);
        parseForeign(verl, ImportFormat::Verl, verlParse);
        parseForeign(chatDocument, ImportFormat::Auto, documentParse);
        for (auto [file, format, times] : { std::tuple { chat, ImportFormat::Chat, &chatImports },
                 std::tuple { verl, ImportFormat::Verl, &verlImports },
                 std::tuple { chatDocument, ImportFormat::Auto, &documentImports } }) {
            if (importForeign(file, format, *times) != total) {
                std::fprintf(stderr, "%s: imported a different number of turns\n", file.c_str());
                return 1;
            }
        }
    }
    const double tParse = median(parseOnly), tImport = median(imports), tAnchor = median(anchors);
    std::printf(
        "parse only (1 thread):       %9.0f turns/s  (median of %d, %.3f s)\n", total / tParse, repeats, tParse);
    const double tStore = median(storeOnly);
    std::printf(
        "store insert only (1 thread): %8.0f turns/s  (median of %d, %.3f s)\n", total / tStore, repeats, tStore);
    std::printf(
        "anchor raw sqlite3 insert:   %9.0f turns/s  (median of %d, %.3f s)\n", total / tAnchor, repeats, tAnchor);
    std::printf("creditlab import (JSONL->DB): %8.0f turns/s  (median of %d, %.3f s)  target >= 300000\n",
        total / tImport, repeats, tImport);
    // The import against the anchor of the same repeat (the two run seconds apart), so that the machine's load,
    // which moves both, moves the ratio less than it moves either figure.
    std::vector<double> ratios;
    for (std::size_t r = 0; r < imports.size(); ++r)
        ratios.push_back(anchors[r] / imports[r]);
    std::sort(ratios.begin(), ratios.end());
    std::printf("import / raw insert:         %8.0f%%        (median of %d paired repeats, range %.0f-%.0f%%)  target >= 65%%\n",
        100.0 * median(ratios), repeats, 100.0 * ratios.front(), 100.0 * ratios.back());
    const double tChat = median(chatImports), tVerl = median(verlImports);
    std::printf("chat parse only (1 thread):  %9.0f turns/s  (median of %d, %.3f s, file %.1f MiB)\n",
        total / median(chatParse), repeats, median(chatParse), static_cast<double>(fs::file_size(chat)) / (1 << 20));
    std::printf("verl parse only (1 thread):  %9.0f turns/s  (median of %d, %.3f s, file %.1f MiB)\n",
        total / median(verlParse), repeats, median(verlParse), static_cast<double>(fs::file_size(verl)) / (1 << 20));
    std::printf(
        "chat import (messages->DB):  %9.0f turns/s  (median of %d, %.3f s)  %.0f%% of native, target >= 50%%\n",
        total / tChat, repeats, tChat, 100.0 * tImport / tChat);
    std::printf(
        "verl import (ChatML->DB):    %9.0f turns/s  (median of %d, %.3f s)  %.0f%% of native, target >= 50%%\n",
        total / tVerl, repeats, tVerl, 100.0 * tImport / tVerl);
    // The same records as one pretty-printed JSON document against their JSON lines, paired per repeat (issue 35:
    // no slower per turn). The document is read whole, minified into lines, then read by the same chat importer.
    std::vector<double> documentRatios;
    for (std::size_t r = 0; r < documentImports.size(); ++r)
        documentRatios.push_back(chatImports[r] / documentImports[r]);
    std::sort(documentRatios.begin(), documentRatios.end());
    std::printf("chat document parse (1 thread): %6.0f turns/s  (median of %d, %.3f s, file %.1f MiB)\n",
        total / median(documentParse), repeats, median(documentParse),
        static_cast<double>(fs::file_size(chatDocument)) / (1 << 20));
    std::printf("chat document import (JSON array->DB): %6.0f turns/s  %.0f%% of the same records as JSON lines "
                "(median of %d paired repeats, range %.0f-%.0f%%)  target >= 100%%\n",
        total / median(documentImports), 100.0 * median(documentRatios), repeats, 100.0 * documentRatios.front(),
        100.0 * documentRatios.back());
    fs::remove_all(dir);
    return 0;
}
