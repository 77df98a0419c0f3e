// The ingestion API without HTTP (ingestserver.h): request bodies in, JSON replies out.
#include "core/server/ingestserver.h"

#include "core/credit/creditlines.h"
#include "core/credit/estimator.h"
#include "core/credit/explain.h"
#include "core/interchange/importformats.h"
#include "core/interchange/jsondoc.h"
#include "core/interchange/jsonl.h"
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
#include <regex>
#include <string_view>
#include <thread>
#include <unordered_set>
#include <vector>

namespace creditlab::server {

namespace fs = std::filesystem;

namespace {

using Index = JsonDoc::Index;
using Kind = JsonDoc::Kind;
constexpr Index kNone = JsonDoc::kNone;

/// A refused request: thrown inside the handlers, turned into a Reply at their edge.
struct Refusal {
    int status;
    std::string message;
    std::string field;
};

[[noreturn]] void refuse(int status, std::string field, std::string message)
{
    throw Refusal { status, std::move(message), std::move(field) };
}

Reply errorReply(const Refusal& r)
{
    std::string body = "{\"error\":";
    appendJsonString(body, r.message);
    if (!r.field.empty()) {
        body += ",\"field\":";
        appendJsonString(body, r.field);
    }
    body += '}';
    return Reply { r.status, std::move(body) };
}

/// Runs `fn`, turning a Refusal into its reply.
template <typename Fn> Reply guarded(Fn&& fn)
{
    try {
        return fn();
    } catch (const Refusal& r) {
        return errorReply(r);
    }
}

/// Parses a request body, which must be one JSON object.
void parseBody(JsonDoc& doc, std::string_view body)
{
    try {
        doc.parse(body);
    } catch (const JsonSyntaxError& e) {
        refuse(400, "", "invalid JSON at byte " + std::to_string(e.offset + 1) + ": " + e.message);
    }
    if (doc.kind(doc.root()) != Kind::Object)
        refuse(400, "", std::string("the body must be a JSON object, got ") + JsonScanner::kindName(doc.kind(doc.root())));
}

/// Refuses members of the body's object that are not in `known`: a misspelt "metric" must not pass silently.
void requireKnownMembers(const JsonDoc& doc, std::initializer_list<std::string_view> known)
{
    const Index root = doc.root();
    for (Index m = doc.first(root); m != kNone; m = doc.next(root, m)) {
        bool found = false;
        for (const std::string_view k : known)
            found = found || doc.keyIs(m, k);
        if (!found) {
            std::string list;
            for (const std::string_view k : known)
                list += (list.empty() ? "" : ", ") + std::string(k);
            refuse(422, doc.key(m), "unknown field (known: " + list + ")");
        }
    }
}

std::string readString(const JsonDoc& doc, Index i, const std::string& field)
{
    if (doc.kind(i) != Kind::String)
        refuse(422, field, std::string("expected a string, got ") + JsonScanner::kindName(doc.kind(i)));
    return doc.string(i);
}

std::int64_t readIteration(const JsonDoc& doc, Index i, const std::string& field)
{
    const std::string_view raw = doc.node(i).raw;
    if (doc.kind(i) != Kind::Number || raw.find_first_of(".eE-") != std::string_view::npos || raw.size() > 15)
        refuse(422, field, "expected a non-negative integer below 10^15, got " + std::string(raw.substr(0, 40)));
    return static_cast<std::int64_t>(doc.number(i));
}

/// The records of a batch, read through the importers exactly as a file would be: `format`, `markers` and the
/// array `trajectories` of the body. Each record is one line of an in-memory JSONL text, so that the importers'
/// line numbers map back to array positions, and a bad record is refused naming "trajectories[i].field".
struct RecordOptions {
    ImportOptions import;
};

RecordOptions readRecordOptions(const JsonDoc& doc)
{
    RecordOptions o;
    const Index root = doc.root();
    if (const Index f = doc.member(root, "format"); f != kNone) {
        const std::string name = readString(doc, f, "format");
        const auto format = parseImportFormat(name);
        if (!format)
            refuse(422, "format", "unknown format \"" + name + "\" (known: " + importFormatNames() + ")");
        if (*format == ImportFormat::Mapped)
            refuse(422, "format", "mapping files are not read over HTTP; post one of the other formats");
        o.import.format = *format;
    }
    if (const Index m = doc.member(root, "markers"); m != kNone) {
        if (doc.kind(m) != Kind::Array || doc.size(m) != 2)
            refuse(422, "markers", "expected [begin, end], two strings");
        const Index b = doc.first(m);
        o.import.markers = TemplateMarkers { readString(doc, b, "markers[0]"), readString(doc, doc.next(m, b), "markers[1]") };
        if (o.import.markers->begin.empty())
            refuse(422, "markers[0]", "must not be empty");
    }
    return o;
}

/// The importers speak of a file's lines ("first on line 3"); here a line is a position in the array.
std::string linesToPositions(const std::string& message)
{
    static const std::regex line(R"(\b(on )?line (\d+))");
    std::string out;
    auto from = message.cbegin();
    for (std::sregex_iterator it(message.begin(), message.end(), line), end; it != end; ++it) {
        out.append(from, (*it)[0].first);
        out += (*it)[1].matched ? "at " : "";
        out += "trajectories[" + std::to_string(std::stoull((*it)[2].str()) - 1) + "]";
        from = (*it)[0].second;
    }
    out.append(from, message.cend());
    return out;
}

std::vector<Trajectory> readRecords(
    const JsonDoc& doc, const RecordOptions& options, const std::string& idPrefix, bool allowEmpty)
{
    const Index list = doc.member(doc.root(), "trajectories");
    if (list == kNone)
        refuse(422, "trajectories", "is required but missing");
    if (doc.kind(list) != Kind::Array)
        refuse(422, "trajectories", "expected an array of records");
    std::vector<Trajectory> out;
    if (doc.size(list) == 0) {
        if (!allowEmpty)
            refuse(422, "trajectories", "is empty");
        return out;
    }
    // One record per line. A JSON value's raw text holds line breaks only as whitespace between tokens (inside a
    // string they must be escaped), so they become spaces.
    std::string text;
    text.reserve(doc.node(list).raw.size());
    std::size_t i = 0;
    for (Index e = doc.first(list); e != kNone; e = doc.next(list, e), ++i) {
        if (doc.kind(e) != Kind::Object)
            refuse(422, "trajectories[" + std::to_string(i) + "]",
                std::string("expected an object, got ") + JsonScanner::kindName(doc.kind(e)));
        const std::size_t from = text.size();
        text += doc.node(e).raw;
        for (std::size_t k = from; k < text.size(); ++k)
            if (text[k] == '\n' || text[k] == '\r')
                text[k] = ' ';
        text += '\n';
    }
    const TextInput input("trajectories", text, idPrefix);
    ImportOptions import = options.import;
    if (import.format == ImportFormat::Auto) {
        try {
            import.format = detectImportFormat(input);
        } catch (const std::runtime_error&) {
            std::string keys;
            const Index first = doc.first(list);
            for (Index m = doc.first(first); m != kNone; m = doc.next(first, m))
                keys += (keys.empty() ? "" : ", ") + doc.key(m);
            refuse(422, "format",
                "cannot tell the format from trajectories[0] (fields: " + keys + "); name it in \"format\" ("
                    + importFormatNames() + ")");
        }
    }
    try {
        const auto source = openTrajectorySource(input, import);
        Trajectory t;
        while (source->next(t))
            out.push_back(t);
    } catch (const JsonlError& e) {
        const std::string at = "trajectories[" + std::to_string(e.line() - 1) + "]";
        refuse(422, e.field().empty() ? at : at + "." + e.field(), linesToPositions(e.message()));
    } catch (const std::runtime_error& e) {
        refuse(422, "trajectories", e.what());
    }
    return out;
}

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

Reply Api::credit(std::string_view body) const
{
    return guarded([&] {
        JsonDoc doc;
        parseBody(doc, body);
        requireKnownMembers(doc, { "method", "params", "trajectories", "format", "markers", "details" });
        const Index root = doc.root();
        const Index m = doc.member(root, "method");
        if (m == kNone)
            refuse(422, "method", "is required but missing");
        const std::string name = readString(doc, m, "method");
        const credit::Estimator* method = credit::findEstimator(name);
        if (!method) {
            std::string known;
            for (const credit::Estimator* e : credit::estimators())
                known += (known.empty() ? "" : ", ") + std::string(e->name());
            refuse(422, "method", "unknown method \"" + name + "\" (known: " + known + ")");
        }
        std::vector<std::pair<std::string, std::string>> assignments;
        if (const Index p = doc.member(root, "params"); p != kNone) {
            if (doc.kind(p) != Kind::Object)
                refuse(422, "params", "expected an object of name: value");
            for (Index e = doc.first(p); e != kNone; e = doc.next(p, e)) {
                const std::string key = doc.key(e);
                switch (doc.kind(e)) {
                case Kind::String:
                    assignments.emplace_back(key, doc.string(e));
                    break;
                case Kind::Number:
                case Kind::True:
                case Kind::False:
                    assignments.emplace_back(key, std::string(doc.node(e).raw));
                    break;
                default:
                    refuse(422, "params." + key, "expected a number, a boolean or a string");
                }
            }
        }
        bool details = false;
        if (const Index d = doc.member(root, "details"); d != kNone) {
            if (doc.kind(d) != Kind::True && doc.kind(d) != Kind::False)
                refuse(422, "details", "expected true or false");
            details = doc.boolean(d);
        }
        const credit::Params params = [&] {
            try {
                return method->resolve(assignments);
            } catch (const credit::ParamError& e) {
                refuse(422, "params", e.what());
            }
        }();
        std::vector<Trajectory> trajectories = readRecords(doc, readRecordOptions(doc), "line-", false);
        const Batch batch = Batch::fromTrajectories(std::move(trajectories));
        try {
            method->validate(batch, params);
        } catch (const credit::CreditInputError& e) {
            refuse(422, "trajectories", e.what());
        }
        const credit::CreditResult r = method->compute(batch, params);
        std::string out = "{\"method\":";
        appendJsonString(out, method->name());
        out += ",\"credits\":[";
        for (std::size_t i = 0; i < batch.trajectories.size(); ++i) {
            if (i > 0)
                out += ',';
            out += credit::creditJson(batch.trajectories[i], r, i, details);
        }
        out += "]";
        if (const auto why = credit::zeroCreditReason(batch, r, method->name())) {
            out += ",\"note\":"; // every advantage is 0: why, and what would change it
            appendJsonString(out, *why);
        }
        out += "}";
        return Reply { 200, out };
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
