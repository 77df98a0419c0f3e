#pragma once

// A loopback AgentGym-style environment server for the `remote` environment's tests and benchmark: cpp-httplib on
// 127.0.0.1 with an ephemeral port, one toy game, and the routes and field names of one of four dialects
// (../shared/reference/peers.md §A.3). Header-only.
//
// The game: a corridor of rooms 0..T with T = 2 + task % 3. "go forward" and "go back" move, "look" describes
// the room; anything else (or going back from room 0) answers "Nothing happens.". Reaching room T ends the
// episode with reward 1; in searchqa "answer[room T]" also ends it (reward 1 when right, 0 otherwise). WebShop
// actions come as click[go forward]; its search bar answers "Nothing happens.".
//
// Knobs for failure tests: failSteps() makes /step answer {"error": ...} with HTTP 200 (failStepCall() one of them); delay() makes a route
// answer late for a number of calls; stop() kills the server (later requests find no one listening).

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace creditlab::test {

class RemoteTestServer {
public:
    /// Starts serving `dialect` ("alfworld", "webshop", "searchqa", "babyai") on 127.0.0.1, on `port` or any free
    /// port when 0 (a test that kills a server and starts another in its place passes the old one's port).
    /// Without `keepAlive` every connection serves one request: stop() then returns at once, where an idle
    /// keep-alive connection would hold it for cpp-httplib's keep-alive timeout (5 s).
    explicit RemoteTestServer(std::string dialect, bool keepAlive = true, int port = 0)
        : m_dialect(std::move(dialect))
    {
        m_idKey = m_dialect == "alfworld" || m_dialect == "babyai" ? "id" : "env_idx";
        if (!keepAlive)
            m_server.set_keep_alive_max_count(1);
        m_server.set_tcp_nodelay(true); // answers go out in two writes (headers, body): no delayed-ACK wait
        route();
        m_port = port > 0 ? (m_server.bind_to_port("127.0.0.1", port) ? port : -1)
                          : m_server.bind_to_any_port("127.0.0.1");
        if (m_port <= 0)
            return;
        m_thread = std::thread([this] { m_server.listen_after_bind(); });
        // The socket listens from bind on, so this request waits in the backlog until the accept loop runs. Once
        // it is answered the server is running, and stop() can stop it (a stop() before that would be lost).
        httplib::Client probe("127.0.0.1", m_port);
        probe.Get("/");
    }
    ~RemoteTestServer() { stop(); }
    RemoteTestServer(const RemoteTestServer&) = delete;
    RemoteTestServer& operator=(const RemoteTestServer&) = delete;

    int port() const { return m_port; }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port); }
    /// Stops accepting and serving; idempotent.
    void stop()
    {
        {
            std::lock_guard lock(m_mutex);
            m_stopping = true;
        }
        m_wake.notify_all();
        m_server.stop();
        if (m_thread.joinable())
            m_thread.join();
    }
    void failSteps(bool on) { m_failSteps = on; }
    /// From the `n`-th /step request from now (1 = the next) on, every request is answered HTTP 503 (the server
    /// is gone for its clients, deterministically between two steps) until comeBack().
    void goDownAtStepCall(int n)
    {
        std::lock_guard lock(m_mutex);
        m_downAt = m_calls["/step"] + n;
    }
    void comeBack()
    {
        std::lock_guard lock(m_mutex);
        m_downAt = -1;
        m_down = false;
    }
    /// The `n`-th /step request from now (1 = the next) answers {"error": ...}; the others are served.
    void failStepCall(int n)
    {
        std::lock_guard lock(m_mutex);
        m_failStepAt = m_calls["/step"] + n;
    }
    /// `route` answers `ms` late for its next `calls` requests (-1: all of them).
    void delay(const std::string& route, int ms, int calls)
    {
        std::lock_guard lock(m_mutex);
        m_delayRoute = route;
        m_delayMs = ms;
        m_delayCalls = calls;
    }
    /// Requests served per route so far.
    int calls(const std::string& route)
    {
        std::lock_guard lock(m_mutex);
        return m_calls[route];
    }
    /// Environments created and not closed.
    int open()
    {
        std::lock_guard lock(m_mutex);
        return static_cast<int>(m_games.size());
    }

private:
    struct Game {
        int target = 2;
        int room = 0;
        bool done = false;
    };
    using json = nlohmann::json;

    std::string observation(const Game& g, const std::string& feedback) const
    {
        const std::string goal = "reach room " + std::to_string(g.target);
        const std::string here = feedback.empty() ? "You are in room " + std::to_string(g.room) + "." : feedback;
        if (m_dialect == "babyai")
            return "Your goal: " + goal + "\n" + here + "\nAvailable actions: [\"go forward\", \"go back\", \"look\"]";
        if (m_dialect == "webshop")
            return "Instruction: [SEP] " + goal + " [SEP] " + here + " [SEP] go forward [SEP] go back";
        if (m_dialect == "searchqa")
            return "Question: " + goal + ". " + here;
        return here + (feedback.empty() && g.room == 0 ? "\nYour task is to: " + goal + "." : std::string());
    }

    static json actions() { return json::array({ "go forward", "go back", "look" }); }

    /// Applies `action`; returns the feedback and the reward.
    std::pair<std::string, double> play(Game& g, std::string action) const
    {
        if (m_dialect == "webshop" && action.rfind("click[", 0) == 0 && action.back() == ']')
            action = action.substr(6, action.size() - 7);
        if (m_dialect == "searchqa" && action.rfind("answer[", 0) == 0) {
            g.done = true;
            const bool right = action == "answer[room " + std::to_string(g.target) + "]";
            return { right ? "Correct." : "Wrong.", right ? 1.0 : 0.0 };
        }
        if (action == "go forward")
            ++g.room;
        else if (action == "go back" && g.room > 0)
            --g.room;
        else if (action != "look")
            return { "Nothing happens.", 0.0 };
        g.done = g.room == g.target;
        return { "You are in room " + std::to_string(g.room) + ".", g.done ? 1.0 : 0.0 };
    }

    /// Counts the call and waits when the route is delayed; false when the server is stopping.
    void enter(const std::string& route)
    {
        std::unique_lock lock(m_mutex);
        ++m_calls[route];
        if (route != m_delayRoute || m_delayCalls == 0)
            return;
        if (m_delayCalls > 0)
            --m_delayCalls;
        // Not a test-side sleep: the server answering late is the behaviour under test. stop() wakes it.
        m_wake.wait_for(lock, std::chrono::milliseconds(m_delayMs), [this] { return m_stopping; });
    }

    static void reply(httplib::Response& res, const json& j) { res.set_content(j.dump(), "application/json"); }

    /// The game named by the request (body member or query parameter), or nullptr after replying with an error.
    Game* find(const httplib::Request& req, const json& body, httplib::Response& res)
    {
        long long id = -1;
        if (body.is_object() && body.contains(m_idKey) && body[m_idKey].is_number_integer())
            id = body[m_idKey].get<long long>();
        else if (req.has_param(m_idKey.c_str()))
            id = std::stoll(req.get_param_value(m_idKey.c_str()));
        const auto it = m_games.find(id);
        if (it == m_games.end()) {
            reply(res, { { "error", "environment " + std::to_string(id) + " not found" } }); // AgentGym: HTTP 200
            return nullptr;
        }
        return &it->second;
    }

    void route()
    {
        m_server.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
            std::lock_guard lock(m_mutex);
            if (m_downAt > 0 && req.path == "/step" && m_calls["/step"] + 1 >= m_downAt)
                m_down = true;
            if (!m_down)
                return httplib::Server::HandlerResponse::Unhandled;
            res.status = 503;
            res.set_content("service unavailable", "text/plain");
            return httplib::Server::HandlerResponse::Handled;
        });
        m_server.Get("/", [](const httplib::Request&, httplib::Response& res) { reply(res, "ok"); });
        m_server.Post("/create", [this](const httplib::Request&, httplib::Response& res) {
            enter("/create");
            std::lock_guard lock(m_mutex);
            const long long id = m_next++;
            m_games[id] = Game {};
            if (m_dialect == "alfworld" || m_dialect == "babyai")
                reply(res, { { "id", id } });
            else
                reply(res, id);
        });
        m_server.Post("/reset", [this](const httplib::Request& req, httplib::Response& res) {
            enter("/reset");
            const json body = json::parse(req.body, nullptr, false);
            std::lock_guard lock(m_mutex);
            Game* g = find(req, body, res);
            if (!g)
                return;
            const char* taskKey = m_dialect == "alfworld" ? "game"
                : m_dialect == "webshop"                  ? "session_id"
                : m_dialect == "babyai"                   ? "data_idx"
                                                          : "id";
            *g = Game {};
            g->target = 2 + static_cast<int>(body.value(taskKey, 0LL) % 3);
            const std::string obs = observation(*g, "");
            if (m_dialect == "alfworld")
                reply(res,
                    { { "id", body[m_idKey] }, { "observation", obs }, { "available_actions", actions() },
                        { "task_type", "corridor" } });
            else if (m_dialect == "webshop")
                reply(res, json::array({ obs, nullptr }));
            else if (m_dialect == "babyai")
                reply(res, { { "observation", obs }, { "reward", 0 }, { "score", 0 }, { "done", false } });
            else
                reply(res, obs);
        });
        m_server.Post("/step", [this](const httplib::Request& req, httplib::Response& res) {
            enter("/step");
            const json body = json::parse(req.body, nullptr, false);
            std::lock_guard lock(m_mutex);
            if (m_failSteps || m_calls["/step"] == m_failStepAt)
                return reply(res, { { "error", "simulated failure in step" } });
            Game* g = find(req, body, res);
            if (!g)
                return;
            if (g->done)
                return reply(res, { { "error", "the episode is done" } });
            const auto [feedback, reward] = play(*g, body.value("action", std::string()));
            const std::string obs = observation(*g, feedback);
            if (m_dialect == "alfworld")
                reply(res,
                    { { "observation", obs }, { "reward", reward }, { "available_actions", actions() },
                        { "done", g->done } });
            else if (m_dialect == "webshop")
                reply(res, { { "state", obs }, { "reward", reward }, { "done", g->done }, { "info", nullptr } });
            else if (m_dialect == "babyai") // reward is discounted, the client reads score
                reply(res,
                    { { "observation", obs }, { "reward", reward * 0.9 }, { "score", reward }, { "done", g->done } });
            else
                reply(res, { { "observation", obs }, { "reward", reward }, { "done", g->done }, { "info", nullptr } });
        });
        m_server.Get("/observation", [this](const httplib::Request& req, httplib::Response& res) {
            enter("/observation");
            std::lock_guard lock(m_mutex);
            if (Game* g = find(req, json(), res))
                reply(res, observation(*g, ""));
        });
        m_server.Get("/available_actions", [this](const httplib::Request& req, httplib::Response& res) {
            enter("/available_actions");
            std::lock_guard lock(m_mutex);
            if (!find(req, json(), res))
                return;
            if (m_dialect == "webshop")
                reply(res, { { "has_search_bar", true }, { "clickables", json::array({ "go forward", "go back" }) } });
            else
                reply(res, actions());
        });
        m_server.Get("/instruction_text", [this](const httplib::Request& req, httplib::Response& res) {
            enter("/instruction_text");
            std::lock_guard lock(m_mutex);
            if (Game* g = find(req, json(), res))
                reply(res, "reach room " + std::to_string(g->target));
        });
        m_server.Post("/close", [this](const httplib::Request& req, httplib::Response& res) {
            enter("/close");
            const json body = json::parse(req.body, nullptr, false);
            std::lock_guard lock(m_mutex);
            if (find(req, body, res)) {
                m_games.erase(body[m_idKey].get<long long>());
                reply(res, { { "closed", true } });
            }
        });
    }

    std::string m_dialect;
    std::string m_idKey;
    httplib::Server m_server;
    std::thread m_thread;
    int m_port = -1;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stopping = false;
    std::atomic<bool> m_failSteps { false };
    std::string m_delayRoute;
    int m_delayMs = 0;
    int m_delayCalls = 0;
    int m_failStepAt = -1;
    int m_downAt = -1;
    bool m_down = false;
    std::map<std::string, int> m_calls;
    std::map<long long, Game> m_games;
    long long m_next = 0;
};

} // namespace creditlab::test
