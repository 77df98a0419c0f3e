#pragma once

// The HTTP + JSON client of RemoteEnv (remote.h): timeouts, retries with exponential backoff, and errors that
// name the URL, the route and what failed. Private to core/env/remote*.cpp (it exposes nlohmann::json).

#include "core/env/remote.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>

namespace httplib {
class Client;
}

namespace creditlab::env::remote {

/// One keep-alive connection to the server. The calling thread only; calls block (see RemoteEnv's comment).
class RemoteEnv::Client {
public:
    /// Throws std::invalid_argument for a URL that is not http://host[:port][/prefix].
    explicit Client(const RemoteOptions& options);
    ~Client();

    /// GET `route`?`query` (query "id=3"; empty for none) and its JSON answer.
    nlohmann::json get(const std::string& route, const std::string& query);
    /// POST `route` with a JSON body. `idempotent` false: a request that was sent is not sent again.
    nlohmann::json post(const std::string& route, const nlohmann::json& body, bool idempotent = true);
    /// "http://host:port/prefix" as configured.
    const std::string& url() const { return m_url; }
    /// Extra attempts from now on (0: none, as when closing in a destructor).
    void setRetries(int retries) { m_retries = retries; }

private:
    nlohmann::json call(const char* method, const std::string& route, const std::string& target,
        const std::string* body, bool idempotent);
    /// Throws std::runtime_error naming the URL, method and route; ServiceUnavailable when `down` (nothing answered).
    [[noreturn]] void fail(const char* method, const std::string& route, const std::string& what, bool down = false) const;

    std::string m_url;
    std::string m_prefix; ///< path prefix of every route, without a trailing '/'
    int m_retries;
    int m_backoffMs;
    std::unique_ptr<httplib::Client> m_http;
};

} // namespace creditlab::env::remote
