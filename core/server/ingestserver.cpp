// The HTTP layer of the ingestion server (ingestserver.h): routes, the bearer token, size and rate limits, and one
// log line per request. The API itself is api*.cpp.
#include "core/server/ingestserver.h"

#include "core/interchange/jsonscanner.h"

#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <openssl/crypto.h>
#include <stdexcept>
#include <sys/socket.h>
#include <unordered_map>

namespace creditlab::server {

namespace {

using Clock = std::chrono::steady_clock;

/// A token bucket per client address: `rate` requests per second, bursts of twice that.
class RateLimiter {
public:
    explicit RateLimiter(double rate)
        : m_rate(rate)
        , m_burst(std::max(1.0, 2.0 * rate))
    {
    }

    /// 0 when the request may go ahead; otherwise the seconds to wait.
    double admit(const std::string& client)
    {
        if (m_rate <= 0.0)
            return 0.0;
        const Clock::time_point now = Clock::now();
        std::lock_guard lock(m_mutex);
        if (m_buckets.size() > 10000)
            m_buckets.clear(); // many addresses: forget them rather than grow without bound
        auto [it, fresh] = m_buckets.try_emplace(client, Bucket { m_burst, now });
        Bucket& b = it->second;
        if (!fresh) {
            b.tokens = std::min(m_burst, b.tokens + m_rate * std::chrono::duration<double>(now - b.last).count());
            b.last = now;
        }
        if (b.tokens >= 1.0) {
            b.tokens -= 1.0;
            return 0.0;
        }
        return (1.0 - b.tokens) / m_rate;
    }

private:
    struct Bucket {
        double tokens;
        Clock::time_point last;
    };
    double m_rate;
    double m_burst;
    std::mutex m_mutex;
    std::unordered_map<std::string, Bucket> m_buckets;
};

void send(httplib::Response& res, const Reply& reply)
{
    res.status = reply.status;
    res.set_content(reply.body, "application/json");
}

void sendError(httplib::Response& res, int status, const std::string& message)
{
    std::string body = "{\"error\":";
    appendJsonString(body, message);
    body += '}';
    send(res, Reply { status, body });
}

/// When the request this thread handles arrived (set first thing, read by the logger).
thread_local Clock::time_point t_requestStart;

std::int64_t runIdOf(const httplib::Request& req)
{
    // The routes' patterns allow only digits; a number too large for a run id names no run.
    const std::string& text = req.matches[1].str();
    return text.size() > 15 ? -1 : std::stoll(text);
}

} // namespace

struct IngestServer::Impl {
    explicit Impl(ServerOptions o)
        : options(std::move(o))
        , api(options.database)
        , limiter(options.ratePerSecond)
    {
    }

    bool authorised(const httplib::Request& req) const
    {
        if (!options.token)
            return true;
        const std::string expected = "Bearer " + *options.token;
        const std::string given = req.get_header_value("Authorization");
        // Constant time in the token's length: the comparison tells nothing about how much of it matched.
        return given.size() == expected.size() && CRYPTO_memcmp(given.data(), expected.data(), given.size()) == 0;
    }

    /// The rate limit and the token, checked once the body has been read: refusing earlier would close the
    /// connection under a client still sending, which then sees a broken pipe instead of this answer.
    bool admit(const httplib::Request& req, httplib::Response& res)
    {
        if (const double wait = limiter.admit(req.remote_addr); wait > 0.0) {
            res.set_header("Retry-After", std::to_string(static_cast<int>(std::ceil(wait))));
            sendError(res, 429, "too many requests from " + req.remote_addr + "; retry later");
            return false;
        }
        if (!authorised(req)) {
            res.set_header("WWW-Authenticate", "Bearer");
            sendError(res, 401,
                req.has_header("Authorization") ? "wrong token" : "this server needs \"Authorization: Bearer <token>\"");
            return false;
        }
        return true;
    }

    /// A route's handler behind admit(). /v1/health is not behind it: probes need no token and are not limited.
    httplib::Server::Handler checked(std::function<Reply(const httplib::Request&)> handle)
    {
        return [this, handle = std::move(handle)](const httplib::Request& req, httplib::Response& res) {
            if (admit(req, res))
                send(res, handle(req));
        };
    }

    void setUp()
    {
        server.new_task_queue = [n = options.threads] { return new httplib::ThreadPool(static_cast<size_t>(std::max(1, n))); };
        server.set_payload_max_length(options.maxBodyBytes);
        // SO_REUSEADDR only: cpp-httplib's default adds SO_REUSEPORT, with which a second server binds the same port
        // and the two share its requests; a taken port must be an error instead.
        server.set_socket_options([](int sock) {
            int yes = 1;
            ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        });
        server.set_read_timeout(30, 0);
        server.set_write_timeout(30, 0);

        server.set_pre_routing_handler([](const httplib::Request&, httplib::Response&) {
            t_requestStart = Clock::now();
            return httplib::Server::HandlerResponse::Unhandled;
        });
        server.Get("/v1/health", [this](const httplib::Request&, httplib::Response& res) { send(res, api.health()); });
        server.Get("/v1/runs", checked([this](const httplib::Request&) { return api.listRuns(); }));
        server.Post("/v1/runs",
            checked([this](const httplib::Request& req) { return api.createRun(req.body, req.remote_addr); }));
        server.Get(R"(/v1/runs/(\d+))", checked([this](const httplib::Request& req) { return api.getRun(runIdOf(req)); }));
        server.Post(R"(/v1/runs/(\d+)/iterations)",
            checked([this](const httplib::Request& req) { return api.postIteration(runIdOf(req), req.body); }));
        server.Post(R"(/v1/runs/(\d+)/finish)",
            checked([this](const httplib::Request& req) { return api.finishRun(runIdOf(req), req.body); }));
        server.Post("/v1/credit", checked([this](const httplib::Request& req) { return api.credit(req.body); }));
        server.Post("/v1/merge", checked([this](const httplib::Request& req) { return api.mergeDatabase(req.body); }));

        server.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
            std::string what = "internal error";
            try {
                std::rethrow_exception(ep);
            } catch (const std::exception& e) {
                what = e.what();
            } catch (...) {
            }
            sendError(res, 500, what);
        });
        // Errors without a body of their own (an unknown path, a body over the limit): a JSON one.
        server.set_error_handler([this](const httplib::Request& req, httplib::Response& res) {
            if (!res.body.empty())
                return;
            if (res.status == 404)
                sendError(res, 404, "no such endpoint: " + req.method + " " + req.path + " (see /v1/health)");
            else if (res.status == 413)
                sendError(res, 413, "the body is larger than this server's limit of "
                        + std::to_string(options.maxBodyBytes) + " bytes (--max-body-mb)");
            else
                sendError(res, res.status, "HTTP " + std::to_string(res.status));
        });
        server.set_logger([this](const httplib::Request& req, const httplib::Response& res) {
            if (!options.log)
                return;
            const auto ms = std::chrono::duration<double, std::milli>(Clock::now() - t_requestStart).count();
            char line[512];
            std::snprintf(line, sizeof line, "%s %s %s %d %zu bytes in, %.1f ms", req.remote_addr.c_str(),
                req.method.c_str(), req.path.substr(0, 200).c_str(), res.status, req.body.size(), ms);
            options.log(line);
        });
    }

    ServerOptions options;
    Api api;
    RateLimiter limiter;
    httplib::Server server;
    int port = 0;
};

IngestServer::IngestServer(ServerOptions options)
    : m_impl(std::make_unique<Impl>(std::move(options)))
{
    m_impl->setUp();
    const ServerOptions& o = m_impl->options;
    if (o.port == 0) {
        m_impl->port = m_impl->server.bind_to_any_port(o.host);
    } else {
        m_impl->port = m_impl->server.bind_to_port(o.host, o.port) ? o.port : -1;
    }
    if (m_impl->port <= 0)
        throw std::runtime_error("cannot listen on " + o.host + ":" + std::to_string(o.port)
            + " (is the port in use, or the address not this machine's?)");
}

IngestServer::~IngestServer() { stop(); }

int IngestServer::port() const { return m_impl->port; }

void IngestServer::run() { m_impl->server.listen_after_bind(); }

void IngestServer::stop() { m_impl->server.stop(); }

} // namespace creditlab::server
