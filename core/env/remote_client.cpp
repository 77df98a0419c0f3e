#include "core/env/remote_client.h"
#include "core/model/unavailable.h"

#include <httplib.h>

#include <chrono>
#include <stdexcept>
#include <thread>

namespace creditlab::env::remote {

namespace {

/// At most `n` bytes of `text`, for error messages quoting a server's answer.
std::string clipped(const std::string& text, std::size_t n = 200)
{
    return text.size() <= n ? text : text.substr(0, n) + "...";
}

} // namespace

RemoteEnv::Client::Client(const RemoteOptions& options)
    : m_url(options.url)
    , m_retries(options.retries)
    , m_backoffMs(options.backoffMs)
{
    // cpp-httplib takes scheme://host:port only; a path (a server mounted under a prefix) goes before each route.
    const auto scheme = m_url.find("://");
    if (scheme == std::string::npos || m_url.compare(0, scheme, "http") != 0)
        throw std::invalid_argument("remote env: url '" + m_url + "' is not http://host[:port][/prefix]");
    const auto slash = m_url.find('/', scheme + 3);
    const std::string hostPort = m_url.substr(0, slash);
    if (slash != std::string::npos) {
        m_prefix = m_url.substr(slash);
        while (!m_prefix.empty() && m_prefix.back() == '/')
            m_prefix.pop_back();
    }
    if (hostPort.size() == scheme + 3)
        throw std::invalid_argument("remote env: url '" + m_url + "' names no host");
    m_http = std::make_unique<httplib::Client>(hostPort);
    if (!m_http->is_valid())
        throw std::invalid_argument("remote env: url '" + m_url + "' is not usable");
    const auto timeout = std::chrono::milliseconds(options.timeoutMs);
    m_http->set_connection_timeout(timeout);
    m_http->set_read_timeout(timeout);
    m_http->set_write_timeout(timeout);
    m_http->set_keep_alive(true);
    m_http->set_tcp_nodelay(true); // one small request per step: Nagle would add delayed-ACK waits
    // Small JSON answers: do not ask for compression (cpp-httplib servers would brotli-compress every answer, which
    // costs milliseconds a step, and this build's brotli path could stall a read).
    m_http->set_decompress(false);
}

RemoteEnv::Client::~Client() = default;

nlohmann::json RemoteEnv::Client::get(const std::string& route, const std::string& query)
{
    const std::string target = m_prefix + route + (query.empty() ? "" : "?" + query);
    return call("GET", route, target, nullptr, true);
}

nlohmann::json RemoteEnv::Client::post(const std::string& route, const nlohmann::json& body, bool idempotent)
{
    // An action is the policy's text, which need not be valid UTF-8 (a byte-level policy can stop inside a
    // character): such bytes are sent as U+FFFD, where dump() would throw.
    const std::string text = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return call("POST", route, m_prefix + route, &text, idempotent);
}

void RemoteEnv::Client::fail(const char* method, const std::string& route, const std::string& what, bool down) const
{
    const std::string text = "remote env " + m_url + ": " + method + " " + route + ": " + what;
    if (down)
        throw ServiceUnavailable(text);
    throw std::runtime_error(text);
}

nlohmann::json RemoteEnv::Client::call(
    const char* method, const std::string& route, const std::string& target, const std::string* body, bool idempotent)
{
    int backoff = m_backoffMs;
    std::string last;
    for (int attempt = 0; attempt <= m_retries; ++attempt) {
        if (attempt > 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(backoff));
            backoff *= 2;
        }
        httplib::Result res
            = body ? m_http->Post(target.c_str(), *body, "application/json") : m_http->Get(target.c_str());
        if (res) {
            if (res->status >= 500 && idempotent) { // a server in trouble may recover; a 4xx will not
                last = "HTTP " + std::to_string(res->status) + ": " + clipped(res->body);
                continue;
            }
            if (res->status != 200) // 502/503/504: a gateway or the server itself says it is not there
                fail(method, route, "HTTP " + std::to_string(res->status) + ": " + clipped(res->body),
                    res->status == 502 || res->status == 503 || res->status == 504);
            nlohmann::json answer = nlohmann::json::parse(res->body, nullptr, false);
            if (answer.is_discarded())
                fail(method, route, "the answer is not JSON: " + clipped(res->body));
            // AgentGym servers report failures as {"error": "..."} with HTTP 200.
            if (answer.is_object() && answer.contains("error")) {
                const auto& e = answer["error"];
                fail(method, route, "server error: " + (e.is_string() ? e.get<std::string>() : e.dump()));
            }
            return answer;
        }
        const httplib::Error error = res.error();
        last = httplib::to_string(error);
        // Connection errors mean nothing reached the server; after a sent request only idempotent routes retry.
        if (!idempotent && error != httplib::Error::Connection && error != httplib::Error::ConnectionTimeout)
            fail(method, route, last + " after the request was sent (not retried: the action may have run)", true);
    }
    // Only transport errors and 5xx get here: the server is down or in trouble, which may pass.
    fail(method, route,
        "failed after " + std::to_string(m_retries + 1) + (m_retries == 0 ? " attempt" : " attempts") + " (" + last
            + ")",
        true);
}

} // namespace creditlab::env::remote
