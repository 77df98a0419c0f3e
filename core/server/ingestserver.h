#pragma once

// The live ingestion server (`creditlab-cli serve`): other trainers post their runs into a CreditLab database over
// HTTP while they train, and ask for credit from CreditLab's estimators inside their own loop. docs/serve.md
// describes the API. HTTP stays out of this header (cpp-httplib is private to core).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace creditlab::server {

/// One reply of the API: an HTTP status and a JSON body. Errors are {"error": message, "field": path}, the field
/// naming where in the request body the problem is ("trajectories[3].turns[0].action") when there is one.
struct Reply {
    int status = 200;
    std::string body;
};

/// The API without HTTP: each call takes a request body and returns its reply. Writes (and the reads that must
/// see them) run on one thread that owns the database connection, in arrival order; parsing and credit
/// computation run on the caller's thread, so several callers work at once. Thread-safe.
class Api {
public:
    /// Opens (creating when missing) the database. Throws StoreError naming the file.
    explicit Api(const std::string& databasePath);
    ~Api();
    Api(const Api&) = delete;
    Api& operator=(const Api&) = delete;

    /// GET /v1/health.
    Reply health() const;
    /// POST /v1/runs: {"name", "config"?, "tags"?}. `client` goes into the run's source ("serve: 127.0.0.1").
    Reply createRun(std::string_view body, std::string_view client);
    /// GET /v1/runs and GET /v1/runs/{id}.
    Reply listRuns();
    Reply getRun(std::int64_t runId);
    /// POST /v1/runs/{id}/iterations: {"iteration", "trajectories", "format"?, "markers"?, "metrics"?}, written in
    /// one transaction or not at all.
    Reply postIteration(std::int64_t runId, std::string_view body);
    /// POST /v1/runs/{id}/finish: {"status"?: "finished" | "failed" | "cancelled"}.
    Reply finishRun(std::int64_t runId, std::string_view body);
    /// POST /v1/credit: {"method", "trajectories", "params"?, "format"?, "markers"?, "details"?}. Touches no
    /// database.
    Reply credit(std::string_view body) const;
    /// POST /v1/merge: the body is a CreditLab database file (what `sweep trial --post` sends), merged into this
    /// server's database by uid (storemerge.h) in one transaction: posting it again changes nothing, a further along
    /// copy of a run replaces the one here. Replies {"runs_added", "runs_replaced", "runs_kept", "sweeps_added",
    /// "trials_added", "trials_updated", "rows"}.
    Reply mergeDatabase(std::string_view body);

private:
    struct Writer;
    std::unique_ptr<Writer> m_writer;
};

struct ServerOptions {
    std::string database;
    std::string host = "127.0.0.1";
    int port = 8765; ///< 0: any free port
    /// When set, every request but /v1/health must carry "Authorization: Bearer <token>". Never logged or stored.
    std::optional<std::string> token;
    std::size_t maxBodyBytes = std::size_t(256) << 20;
    int threads = 8; ///< requests handled at once
    /// Requests per second allowed to one client address (a burst of twice as many); 0 for no limit.
    double ratePerSecond = 50.0;
    /// Called with one line per request (method, path, status, bytes, milliseconds; never a header), from the
    /// thread that handled it.
    std::function<void(const std::string& line)> log;
};

/// The HTTP server around an Api (cpp-httplib, versioned under /v1/).
class IngestServer {
public:
    /// Opens the database and binds the address. Throws StoreError, or std::runtime_error naming the address.
    explicit IngestServer(ServerOptions options);
    ~IngestServer();
    IngestServer(const IngestServer&) = delete;
    IngestServer& operator=(const IngestServer&) = delete;

    /// The bound port (the chosen one when options.port was 0).
    int port() const;
    /// Serves until stop(). Any thread, once.
    void run();
    /// Stops accepting; requests being handled finish first. Any thread.
    void stop();

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

/// True when `host` names a loopback address ("127.0.0.1", "::1", "localhost").
bool isLoopback(std::string_view host);

} // namespace creditlab::server
