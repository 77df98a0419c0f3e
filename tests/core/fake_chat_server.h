#pragma once

// A fake OpenAI-compatible chat-completions server for the http judge's tests: cpp-httplib on 127.0.0.1 at an
// ephemeral port, answering POST /v1/chat/completions through a scripted reply function.

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace creditlab::test {

/// One scripted reply.
struct ChatReply {
    int status = 200;
    std::string body; ///< the whole response body
    int delayMs = 0; ///< held before answering (a slow server)
};

/// A chat completion whose message content is `content`.
inline std::string chatCompletion(const std::string& content)
{
    return nlohmann::json {
        { "id", "x" }, { "object", "chat.completion" },
        { "choices",
            nlohmann::json::array(
                { { { "index", 0 }, { "message", { { "role", "assistant" }, { "content", content } } } } }) }
    }.dump();
}

/// The server. `reply(n, body)` answers the n-th request (0-based) whose JSON body is `body`; it runs on the
/// server's threads. Counts requests and the most that were in flight at once; records the Authorization
/// headers. Starts listening in the constructor, stops in the destructor.
class FakeChatServer {
public:
    using Reply = std::function<ChatReply(int n, const nlohmann::json& body)>;

    /// Listens on `port`, or on any free port when 0 (a test that kills a server and starts another in its place
    /// passes the old one's port).
    explicit FakeChatServer(Reply reply, int port = 0)
        : m_reply(std::move(reply))
    {
        m_server.new_task_queue = [] { return new httplib::ThreadPool(16); };
        m_server.Post("/v1/chat/completions", [this](const httplib::Request& req, httplib::Response& res) {
            const int now = ++m_inFlight;
            {
                std::lock_guard lock(m_mutex);
                m_maxInFlight = std::max(m_maxInFlight, now);
                m_authorizations.push_back(req.get_header_value("Authorization"));
                m_bodies.push_back(req.body);
            }
            const int n = m_requests++;
            ChatReply r;
            try {
                r = m_reply(n, nlohmann::json::parse(req.body));
            } catch (const std::exception& e) {
                r = { 400, e.what(), 0 };
            }
            if (r.delayMs > 0)
                std::this_thread::sleep_for(std::chrono::milliseconds(r.delayMs));
            res.status = r.status;
            res.set_content(r.body, "application/json");
            --m_inFlight;
        });
        m_port = port > 0 ? (m_server.bind_to_port("127.0.0.1", port) ? port : -1)
                          : m_server.bind_to_any_port("127.0.0.1");
        // bind_to_any_port already listens: clients that connect before the accept loop runs wait in the backlog.
        m_thread = std::thread([this] { m_server.listen_after_bind(); });
    }
    ~FakeChatServer() { stop(); }
    /// Stops listening and serving (later requests find no one there); idempotent.
    void stop()
    {
        if (!m_thread.joinable())
            return;
        // stop() is a no-op until the accept loop runs; wait for it so that join() returns.
        while (m_port > 0 && !m_server.is_running())
            std::this_thread::yield();
        m_server.stop();
        m_thread.join();
    }
    FakeChatServer(const FakeChatServer&) = delete;
    FakeChatServer& operator=(const FakeChatServer&) = delete;

    int port() const { return m_port; }
    /// The base URL to give the judge ("http://127.0.0.1:<port>/v1").
    std::string baseUrl() const { return "http://127.0.0.1:" + std::to_string(m_port) + "/v1"; }
    int requests() const { return m_requests; }
    int maxInFlight() const
    {
        std::lock_guard lock(m_mutex);
        return m_maxInFlight;
    }
    std::vector<std::string> authorizations() const
    {
        std::lock_guard lock(m_mutex);
        return m_authorizations;
    }
    std::vector<std::string> bodies() const
    {
        std::lock_guard lock(m_mutex);
        return m_bodies;
    }

private:
    Reply m_reply;
    httplib::Server m_server;
    std::thread m_thread;
    int m_port = 0;
    std::atomic<int> m_requests { 0 };
    std::atomic<int> m_inFlight { 0 };
    mutable std::mutex m_mutex;
    int m_maxInFlight = 0;
    std::vector<std::string> m_authorizations;
    std::vector<std::string> m_bodies;
};

} // namespace creditlab::test
