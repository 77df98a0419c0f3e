// The `remote` environment (core/env/remote.cpp, remote_client.cpp) against fuzzed AgentGym server answers. A
// loopback cpp-httplib server answers every request, whatever its route, with the next answer of the input; the
// client resets, then for each action asks for the admissible commands and steps, then fetches the observation.
//
// Input: byte 0 picks the dialect (alfworld, webshop, searchqa, babyai); the rest is parts separated by lines "%%":
// part 0 holds the actions, one per line; each later part is one answer, "HTTP <status>\n<body>" or just a body
// (status 200). Past the last answer the server answers 503. Errors must be std::runtime_error naming the server
// ("remote env http://127.0.0.1:PORT: ..."); anything else (a JSON library exception, a crash) is a finding.

#include "core/env/remote.h"
#include "tests/fuzz/fuzzutil.h"

#include <httplib.h>

#include <cmath>
#include <deque>
#include <mutex>
#include <thread>

using namespace creditlab;

namespace {

struct Answer {
    int status = 200;
    std::string body;
};

class ScriptedServer {
public:
    ScriptedServer()
    {
        m_server.set_keep_alive_max_count(1000000);
        m_server.set_tcp_nodelay(true);
        // Route handlers, not a pre-routing handler: cpp-httplib reads a request's body after pre-routing, so one
        // answered there would leave the body in the connection for the next request to trip over.
        const auto answer = [this](const httplib::Request&, httplib::Response& res) {
            std::lock_guard lock(m_mutex);
            if (m_answers.empty()) {
                res.status = 503;
                res.set_content("no more answers", "text/plain");
            } else {
                res.status = m_answers.front().status;
                res.set_content(m_answers.front().body, "application/json");
                m_answers.pop_front();
            }
        };
        m_server.Get(".*", answer);
        m_server.Post(".*", answer);
        m_port = m_server.bind_to_any_port("127.0.0.1");
        if (m_port <= 0)
            fuzz::finding("cannot bind the loopback server");
        m_thread = std::thread([this] { m_server.listen_after_bind(); });
        // The socket listens from bind on: this request waits in the backlog until the accept loop runs.
        httplib::Client probe("127.0.0.1", m_port);
        probe.Get("/");
    }
    ~ScriptedServer()
    {
        m_server.stop();
        m_thread.join();
    }

    void script(std::deque<Answer> answers)
    {
        std::lock_guard lock(m_mutex);
        m_answers = std::move(answers);
    }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port); }

private:
    httplib::Server m_server;
    std::thread m_thread;
    int m_port = 0;
    std::mutex m_mutex;
    std::deque<Answer> m_answers;
};

ScriptedServer& server()
{
    static ScriptedServer* s = new ScriptedServer; // never destroyed: libFuzzer exits without unwinding
    return *s;
}

Answer answerOf(std::string_view part)
{
    Answer a;
    if (part.starts_with("HTTP ") && part.size() >= 8) {
        const std::string_view code = part.substr(5, 3);
        if (code.find_first_not_of("0123456789") == std::string_view::npos) {
            a.status = std::stoi(std::string(code));
            if (a.status < 200) // 1xx are not final answers: the client would wait for one
                a.status = 200;
            const auto eol = part.find('\n');
            part = eol == std::string_view::npos ? std::string_view() : part.substr(eol + 1);
        }
    }
    a.body = part;
    return a;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    ScriptedServer& s = server();
    const auto p = fuzz::parts(fuzz::text(data + 1, size - 1), 64);
    std::deque<Answer> answers;
    for (std::size_t i = 1; i < p.size(); ++i)
        if (!p[i].empty() || i + 1 < p.size())
            answers.push_back(answerOf(p[i]));
    s.script(std::move(answers));

    env::remote::RemoteOptions o;
    o.dialect = static_cast<env::remote::Dialect>(data[0] % 4);
    o.url = s.url();
    o.retries = 0;
    o.backoffMs = 0;
    o.timeoutMs = 5000;
    o.maxSteps = 1000;
    const std::string prefix = "remote env " + o.url;
    try {
        env::remote::RemoteEnv e(o);
        try {
            e.reset(7, env::Split::Train);
            std::string_view actions = p[0];
            while (!e.done()) {
                e.admissibleCommands();
                const auto eol = actions.find('\n');
                const env::StepResult& r = e.step(actions.substr(0, eol));
                if (!std::isfinite(r.reward) || !(r.info.progress >= 0.0 && r.info.progress <= 1.0))
                    fuzz::finding("a step with a bad reward or progress", r.feedback);
                if (eol == std::string_view::npos)
                    break;
                actions.remove_prefix(eol + 1);
            }
            e.fetchObservation();
            e.stateKey();
        } catch (const std::runtime_error& ex) {
            fuzz::note(ex.what());
            if (!fuzz::names(ex.what(), prefix))
                fuzz::finding("a remote env error does not name the server", ex.what());
        }
    } catch (const std::exception& ex) {
        fuzz::unexpected("RemoteEnv", ex);
    }
    return 0;
}
