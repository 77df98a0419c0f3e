// The ingestion API without HTTP (ingestserver.h): the writer thread that owns the database, and the endpoints that
// use it (runs, their iterations, merging a posted database). Reading a request's body is api_request.cpp; POST
// /v1/credit, which needs no database, is api_credit.cpp.
#include "core/server/api_p.h"

#include "core/interchange/jsonscanner.h"
#include "core/storage/store.h"
#include "core/storage/storemerge.h"
#include "core/version.h"

#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

namespace creditlab::server {

namespace fs = std::filesystem;

namespace {

/// A run's tags as a list: RunInfo::tags (one comma-separated text, as the workbench and POST /v1/runs store them)
/// split at the commas, each trimmed of surrounding whitespace, empty ones left out.
std::vector<std::string> splitTags(std::string_view tags)
{
    std::vector<std::string> out;
    constexpr std::string_view kSpace = " \t\r\n";
    while (!tags.empty()) {
        const std::size_t comma = tags.find(',');
        std::string_view tag = tags.substr(0, comma);
        tags = comma == std::string_view::npos ? std::string_view() : tags.substr(comma + 1);
        const std::size_t begin = tag.find_first_not_of(kSpace);
        if (begin == std::string_view::npos)
            continue;
        out.emplace_back(tag.substr(begin, tag.find_last_not_of(kSpace) - begin + 1));
    }
    return out;
}

std::string runJson(const RunInfo& r)
{
    std::string out = "{\"id\":" + std::to_string(r.id) + ",\"name\":";
    appendJsonString(out, r.name);
    out += ",\"status\":";
    appendJsonString(out, runStatusName(r.status));
    out += ",\"kind\":";
    appendJsonString(out, runKindName(r.kind));
    out += ",\"trajectories\":" + std::to_string(r.trajectoryCount) + ",\"turns\":" + std::to_string(r.turnCount)
        + ",\"created_at\":";
    appendJsonString(out, r.createdAt);
    // The tags as the list POST /v1/runs takes (they are kept as one comma-separated text, which came back whole).
    out += ",\"tags\":[";
    bool first = true;
    for (const std::string& tag : splitTags(r.tags)) {
        out += first ? "" : ",";
        first = false;
        appendJsonString(out, tag);
    }
    out += "]}";
    return out;
}

} // namespace

/// The thread that owns the database connection: jobs run on it one at a time, in arrival order.
struct Api::Writer {
    explicit Writer(const std::string& path)
    {
        // Open on the writer thread (a connection is used on the thread that opened it), reporting failure here.
        std::promise<void> opened;
        auto ready = opened.get_future();
        thread = std::thread([this, path, &opened] {
            try {
                store = std::make_unique<Store>(path);
            } catch (...) {
                opened.set_exception(std::current_exception());
                return;
            }
            opened.set_value();
            loop();
            store.reset();
        });
        try {
            ready.get();
        } catch (...) {
            thread.join();
            throw;
        }
    }

    ~Writer()
    {
        {
            std::lock_guard lock(mutex);
            stopping = true;
        }
        wake.notify_all();
        thread.join();
    }

    void loop()
    {
        for (;;) {
            std::function<void()> job;
            {
                std::unique_lock lock(mutex);
                wake.wait(lock, [this] { return stopping || !jobs.empty(); });
                if (jobs.empty())
                    return;
                job = std::move(jobs.front());
                jobs.pop_front();
            }
            job();
        }
    }

    /// Runs `fn(store)` on the writer thread and returns its reply; a Refusal becomes its reply, anything else
    /// a 500.
    Reply call(std::function<Reply(Store&)> fn)
    {
        auto task = std::make_shared<std::packaged_task<Reply()>>([this, fn = std::move(fn)] {
            return guarded([&] {
                try {
                    return fn(*store);
                } catch (const Refusal&) {
                    throw;
                } catch (const std::exception& e) {
                    refuse(500, "", std::string("database: ") + e.what());
                }
            });
        });
        auto result = task->get_future();
        {
            std::lock_guard lock(mutex);
            jobs.emplace_back([task] { (*task)(); });
        }
        wake.notify_one();
        return result.get();
    }

    std::unique_ptr<Store> store;
    std::thread thread;
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<std::function<void()>> jobs;
    bool stopping = false;
};

Api::Api(const std::string& databasePath)
    : m_writer(std::make_unique<Writer>(databasePath))
{
}

Api::~Api() = default;

Reply Api::health() const
{
    std::string body = "{\"status\":\"ok\",\"version\":";
    appendJsonString(body, kVersion);
    body += ",\"api\":\"v1\"}";
    return Reply { 200, body };
}

Reply Api::createRun(std::string_view body, std::string_view client)
{
    return guarded([&] {
        JsonDoc doc;
        parseBody(doc, body);
        requireKnownMembers(doc, { "name", "config", "tags" });
        const Index root = doc.root();
        const Index nameNode = doc.member(root, "name");
        if (nameNode == kNone)
            refuse(422, "name", "is required but missing");
        NewRun run;
        run.name = readString(doc, nameNode, "name");
        if (run.name.find_first_not_of(" \t") == std::string::npos)
            refuse(422, "name", "must not be empty");
        if (run.name.size() > 200)
            refuse(422, "name", "is longer than 200 bytes");
        run.kind = RunKind::Import;
        run.status = RunStatus::Running;
        run.source = "creditlab-cli serve, posted from " + std::string(client);
        std::string config;
        if (const Index c = doc.member(root, "config"); c != kNone) {
            if (doc.kind(c) != Kind::Object)
                refuse(422, "config", "expected an object");
            config = doc.node(c).raw;
        }
        std::string tags;
        if (const Index t = doc.member(root, "tags"); t != kNone) {
            if (doc.kind(t) == Kind::String) {
                tags = doc.string(t);
            } else if (doc.kind(t) == Kind::Array) {
                std::size_t k = 0;
                for (Index e = doc.first(t); e != kNone; e = doc.next(t, e), ++k)
                    tags += (tags.empty() ? "" : ", ") + readString(doc, e, "tags[" + std::to_string(k) + "]");
            } else {
                refuse(422, "tags", "expected a string or an array of strings");
            }
        }
        return m_writer->call([&](Store& store) {
            auto tx = store.begin();
            const std::int64_t id = store.createRun(run);
            if (!config.empty())
                store.setRunConfig(id, "json", config);
            if (!tags.empty())
                store.setRunTags(id, tags);
            tx->commit();
            std::string out = "{\"id\":" + std::to_string(id) + ",\"name\":";
            appendJsonString(out, run.name);
            out += "}";
            return Reply { 201, out };
        });
    });
}

Reply Api::listRuns()
{
    return m_writer->call([](Store& store) {
        std::string out = "{\"runs\":[";
        bool first = true;
        for (const RunInfo& r : store.runs()) {
            out += first ? "" : ",";
            first = false;
            out += runJson(r);
        }
        out += "]}";
        return Reply { 200, out };
    });
}

Reply Api::getRun(std::int64_t runId)
{
    return m_writer->call([runId](Store& store) {
        const auto run = store.run(runId);
        if (!run)
            refuse(404, "", "no run " + std::to_string(runId));
        std::string out = runJson(*run);
        out.pop_back();
        // Every posted iteration: with trajectories, metrics or both.
        out += ",\"iterations\":[";
        Statement its = store.database().prepare(
            "SELECT iteration FROM trajectory WHERE run_id = ?1 AND iteration IS NOT NULL AND evaluation = 0 "
            "UNION SELECT iteration FROM metric WHERE run_id = ?1 ORDER BY 1");
        its.bind(1, runId);
        bool first = true;
        while (its.step()) {
            out += first ? "" : ",";
            first = false;
            out += std::to_string(its.columnInt(0));
        }
        out += "],\"config\":";
        const std::optional<std::string> config = store.runConfig(runId);
        JsonDoc parsed;
        bool isObject = false;
        if (config) {
            try {
                parsed.parse(*config);
                isObject = parsed.kind(parsed.root()) == Kind::Object;
            } catch (const JsonSyntaxError&) {
            }
        }
        if (!config)
            out += "null";
        else if (isObject)
            out += *config; // posted as JSON: given back as JSON
        else
            appendJsonString(out, *config); // a trainer's YAML: as text
        out += "}";
        return Reply { 200, out };
    });
}

Reply Api::postIteration(std::int64_t runId, std::string_view body)
{
    return guarded([&] {
        JsonDoc doc;
        parseBody(doc, body);
        requireKnownMembers(doc, { "iteration", "trajectories", "format", "markers", "metrics" });
        const Index root = doc.root();
        const Index itNode = doc.member(root, "iteration");
        if (itNode == kNone)
            refuse(422, "iteration", "is required but missing");
        const std::int64_t iteration = readIteration(doc, itNode, "iteration");

        std::vector<std::pair<std::string, double>> metrics;
        if (const Index m = doc.member(root, "metrics"); m != kNone) {
            if (doc.kind(m) != Kind::Object)
                refuse(422, "metrics", "expected an object of name: number");
            for (Index e = doc.first(m); e != kNone; e = doc.next(m, e)) {
                const std::string name = doc.key(e);
                if (name.empty())
                    refuse(422, "metrics", "a metric's name is empty");
                if (doc.kind(e) != Kind::Number || !std::isfinite(doc.number(e)))
                    refuse(422, "metrics." + name, "expected a finite number");
                metrics.emplace_back(name, doc.number(e));
            }
        }
        const RecordOptions options = readRecordOptions(doc);
        // Records without an id are named after the iteration, so that every post's generated ids differ.
        std::vector<Trajectory> trajectories
            = readRecords(doc, options, "it" + std::to_string(iteration) + "-", !metrics.empty());
        // One record per trajectory, in order, except step rows (several rows make one trajectory).
        const bool recordPerTrajectory = options.import.format != ImportFormat::Steps
            && trajectories.size() == doc.size(doc.member(doc.root(), "trajectories"));
        auto place = [&](std::size_t i) {
            return recordPerTrajectory ? "trajectories[" + std::to_string(i) + "]"
                                       : "trajectory \"" + trajectories[i].id + "\"";
        };
        std::uint64_t turns = 0;
        for (std::size_t i = 0; i < trajectories.size(); ++i) {
            Trajectory& t = trajectories[i];
            if (t.iteration && *t.iteration != iteration)
                refuse(422, recordPerTrajectory ? place(i) : "trajectories",
                    place(i) + " says iteration " + std::to_string(*t.iteration) + ", but this post is iteration "
                        + std::to_string(iteration));
            t.iteration = iteration;
            turns += t.turns.size();
        }

        return m_writer->call([&](Store& store) {
            const auto run = store.run(runId);
            if (!run)
                refuse(404, "", "no run " + std::to_string(runId));
            if (run->status != RunStatus::Running)
                refuse(409, "status",
                    "run " + std::to_string(runId) + " is " + std::string(runStatusName(run->status))
                        + "; iterations are posted to a running run");
            Database& db = store.database();
            auto tx = store.begin();
            Statement count = db.prepare("SELECT (SELECT COUNT(*) FROM trajectory WHERE run_id = ?1 AND iteration = ?2) + "
                                         "(SELECT COUNT(*) FROM metric WHERE run_id = ?1 AND iteration = ?2)");
            count.bind(1, runId).bind(2, iteration);
            if (count.step() && count.columnInt(0) > 0)
                refuse(409, "iteration",
                    "iteration " + std::to_string(iteration) + " of run " + std::to_string(runId)
                        + " was already posted");
            Statement next = db.prepare("SELECT COALESCE(MAX(ord) + 1, 0) FROM trajectory WHERE run_id = ?");
            next.bind(1, runId);
            std::int64_t ord = next.step() ? next.columnInt(0) : 0;
            Statement known = db.prepare("SELECT iteration FROM trajectory WHERE run_id = ? AND ext_id = ?");
            for (std::size_t i = 0; i < trajectories.size(); ++i) {
                const Trajectory& t = trajectories[i];
                try {
                    store.insertTrajectory(runId, ord++, t);
                } catch (const StoreError&) {
                    known.bind(1, runId).bind(2, t.id);
                    if (known.step()) {
                        const auto other = known.columnOptInt(0);
                        refuse(409, recordPerTrajectory ? place(i) + ".id" : "trajectories",
                            "trajectory id \"" + t.id + "\" is already in run " + std::to_string(runId)
                                + (other ? " (iteration " + std::to_string(*other) + ")" : std::string()));
                    }
                    throw;
                }
            }
            if (!metrics.empty())
                store.writeMetrics(runId, iteration, metrics);
            tx->commit();
            return Reply { 201,
                "{\"run\":" + std::to_string(runId) + ",\"iteration\":" + std::to_string(iteration)
                    + ",\"trajectories\":" + std::to_string(trajectories.size()) + ",\"turns\":" + std::to_string(turns)
                    + ",\"metrics\":" + std::to_string(metrics.size()) + "}" };
        });
    });
}

Reply Api::finishRun(std::int64_t runId, std::string_view body)
{
    return guarded([&] {
        RunStatus status = RunStatus::Finished;
        if (body.find_first_not_of(" \t\r\n") != std::string_view::npos) {
            JsonDoc doc;
            parseBody(doc, body);
            requireKnownMembers(doc, { "status" });
            if (const Index s = doc.member(doc.root(), "status"); s != kNone) {
                const std::string name = readString(doc, s, "status");
                const auto parsed = runStatusFromName(name);
                if (!parsed || *parsed == RunStatus::Running || *parsed == RunStatus::Paused)
                    refuse(422, "status", "expected \"finished\", \"failed\" or \"cancelled\", got \"" + name + "\"");
                status = *parsed;
            }
        }
        return m_writer->call([&](Store& store) {
            const auto run = store.run(runId);
            if (!run)
                refuse(404, "", "no run " + std::to_string(runId));
            if (run->status != RunStatus::Running && run->status != status)
                refuse(409, "status",
                    "run " + std::to_string(runId) + " is already " + std::string(runStatusName(run->status)));
            store.setRunStatus(runId, status);
            std::string out = "{\"id\":" + std::to_string(runId) + ",\"status\":";
            appendJsonString(out, runStatusName(status));
            out += '}';
            return Reply { 200, out };
        });
    });
}

bool isLoopback(std::string_view host)
{
    return host == "127.0.0.1" || host == "localhost" || host == "::1" || host.starts_with("127.");
}

Reply Api::mergeDatabase(std::string_view body)
{
    return guarded([&] {
        if (body.size() < 100 || body.substr(0, 16) != std::string_view("SQLite format 3\0", 16))
            refuse(422, "", "the body is not an SQLite database (POST /v1/merge takes a CreditLab database file)");
        // The file goes to a folder of its own, removed with its -wal and -shm whatever happens.
        std::error_code ec;
        const fs::path base = fs::temp_directory_path(ec);
        std::string dirPattern = (ec ? fs::path("/tmp") : base).string() + "/creditlab-merge-XXXXXX";
        if (!::mkdtemp(dirPattern.data()))
            refuse(500, "", "cannot make a temporary folder for the posted database");
        const fs::path dir(dirPattern);
        struct Cleanup {
            fs::path dir;
            ~Cleanup()
            {
                std::error_code ignored;
                fs::remove_all(dir, ignored);
            }
        } cleanup { dir };
        const std::string file = (dir / "posted.db").string();
        {
            std::ofstream out(file, std::ios::binary);
            out.write(body.data(), static_cast<std::streamsize>(body.size()));
            if (!out)
                refuse(500, "", "cannot write the posted database to " + file);
        }
        return m_writer->call([&](Store& store) {
            MergeCounts counts;
            try {
                counts = mergeDatabases(store.database(), { file });
            } catch (const StoreError& e) {
                refuse(422, "", std::string("the posted database: ") + e.what());
            }
            std::string out = "{\"runs_added\":" + std::to_string(counts.runsAdded) + ",\"runs_replaced\":"
                + std::to_string(counts.runsReplaced) + ",\"runs_kept\":" + std::to_string(counts.runsKept)
                + ",\"sweeps_added\":" + std::to_string(counts.sweepsAdded) + ",\"trials_added\":"
                + std::to_string(counts.trialsAdded) + ",\"trials_updated\":" + std::to_string(counts.trialsUpdated)
                + ",\"rows\":" + std::to_string(counts.rows) + "}";
            return Reply { 200, out };
        });
    });
}

} // namespace creditlab::server
