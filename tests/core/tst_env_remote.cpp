// The `remote` environment against the loopback AgentGym-style server (remote_test_server.h): every dialect plays
// an episode to success, {"error": ...} answers with HTTP 200 surface as errors, a slow route is retried and
// then fails clearly, a /step that was sent is not sent twice, a dead server fails clearly, a server killed
// mid-episode leaves a failed trajectory that runEpisode returns and the store keeps, and task keys are
// deterministic.
#include "core/env/environment.h"
#include "core/env/episode.h"
#include "core/env/policy.h"
#include "core/env/remote.h"
#include "core/model/unavailable.h"
#include "core/storage/store.h"

#include "remote_test_server.h"
#include "testutil.h"

#include <QTemporaryDir>
#include <QtTest/QTest>

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <thread>

using namespace creditlab;
using namespace creditlab::env;
using namespace creditlab::env::remote;
using creditlab::test::RemoteTestServer;

namespace {

/// Walks forward, in the dialect's action syntax; runs `beforeAct` first (to kill the server at a chosen step).
class ForwardPolicy final : public Policy {
public:
    explicit ForwardPolicy(std::string action, std::function<void(int)> beforeAct = {})
        : m_action(std::move(action))
        , m_beforeAct(std::move(beforeAct))
    {
    }
    std::string_view name() const override { return "forward"; }
    void reset(std::uint64_t) override { m_acts = 0; }
    std::string_view act(const Environment&) override
    {
        if (m_beforeAct)
            m_beforeAct(m_acts);
        ++m_acts;
        return m_action;
    }

private:
    std::string m_action;
    std::function<void(int)> m_beforeAct;
    int m_acts = 0;
};

std::string forwardAction(const std::string& dialect)
{
    return dialect == "webshop" ? "click[go forward]" : "go forward";
}

std::unique_ptr<Environment> openRemote(
    const std::string& dialect, const std::string& url, std::vector<std::pair<std::string, std::string>> more = {})
{
    more.insert(more.begin(), { { "dialect", dialect }, { "url", url } });
    return makeEnvironment("remote", more);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// The message of the std::runtime_error `f` throws; fails the test when it throws none.
std::string errorOf(const std::function<void()>& f)
{
    try {
        f();
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "(no error)";
}

/// Whether `f` throws ServiceUnavailable (an outage the trainer waits out) rather than another error.
bool throwsOutage(const std::function<void()>& f)
{
    try {
        f();
    } catch (const ServiceUnavailable&) {
        return true;
    } catch (const std::runtime_error&) {
        return false;
    }
    return false;
}

} // namespace

class TestEnvRemote : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void playsAnEpisode_data()
    {
        QTest::addColumn<QString>("dialect");
        QTest::addColumn<int>("seed");
        for (const char* d : { "alfworld", "webshop", "searchqa", "babyai" })
            for (int seed : { 0, 4 })
                QTest::addRow("%s-%d", d, seed) << QString::fromLatin1(d) << seed;
    }
    void playsAnEpisode()
    {
        QFETCH(QString, dialect);
        QFETCH(int, seed);
        const std::string d = dialect.toStdString();
        RemoteTestServer server(d);
        QVERIFY(server.port() > 0);
        const int target = 2 + seed % 3;
        {
            auto env = openRemote(d, server.url());
            ForwardPolicy policy(forwardAction(d));
            const Trajectory t = runEpisode(*env, policy, static_cast<std::uint64_t>(seed), Split::Train);
            QVERIFY2(!isFailed(t), t.extra.c_str());
            QCOMPARE(t.turns.size(), static_cast<std::size_t>(target));
            QCOMPARE(t.reward, 1.0);
            QVERIFY(t.success.value_or(false));
            QCOMPARE(t.task.key, "remote:" + d + ":seed=" + std::to_string(seed));
            QCOMPARE(t.task.env, std::string("remote"));
            QVERIFY2(contains(*t.task.goal, "reach room " + std::to_string(target)), t.task.goal->c_str());
            // State keys hash the observation each action answered: distinct rooms, distinct keys.
            std::set<std::string> keys;
            for (const Turn& turn : t.turns) {
                QCOMPARE(*turn.state, RemoteEnv::observationKey(turn.observation));
                keys.insert(*turn.state);
                QVERIFY(*turn.valid);
            }
            QCOMPARE(keys.size(), t.turns.size());
            QCOMPARE(t.turns.back().progress.value_or(0.0), 1.0);
            QVERIFY(env->done());
            std::string expert;
            QVERIFY(!env->expertAction(expert));

            // A second episode on the same server-side environment; admissible commands per dialect.
            env->reset(static_cast<std::uint64_t>(seed) + 1, Split::Train);
            const auto& commands = env->admissibleCommands();
            if (d == "searchqa") {
                QVERIFY(commands.empty());
            } else {
                QVERIFY(!commands.empty());
                QVERIFY(std::find(commands.begin(), commands.end(), forwardAction(d)) != commands.end());
            }
            if (d == "webshop")
                QCOMPARE(commands.front(), "search[reach room " + std::to_string(2 + (seed + 1) % 3) + "]");
            const auto& r = env->step("dance");
            QVERIFY(!r.info.valid);
            QCOMPARE(r.reward, 0.0);
            auto* remote = dynamic_cast<RemoteEnv*>(env.get());
            QVERIFY(remote);
            QVERIFY(contains(remote->fetchObservation(), "room 0"));
            QCOMPARE(server.calls("/create"), 1);
        }
        // Destruction closes the server-side environment where the dialect has /close.
        const bool closes = d == "searchqa" || d == "babyai";
        QCOMPARE(server.open(), closes ? 0 : 1);
    }

    void searchQaAnswerEndsTheEpisode()
    {
        RemoteTestServer server("searchqa");
        auto env = openRemote("searchqa", server.url());
        env->reset(1, Split::Train);
        const auto& r = env->step("answer[room 3]");
        QVERIFY(r.done && r.success);
        QCOMPARE(r.reward, 1.0);
        env->reset(1, Split::Train);
        const auto& wrong = env->step("answer[room 2]");
        QVERIFY(wrong.done && !wrong.success);
    }

    // Found by fuzz_remote (tests/fuzz/corpus/fuzz_remote/crash-5f204d04...): an action that is not valid UTF-8 (a
    // byte-level policy can stop inside a character) made building the /step body throw the JSON library's
    // type_error; it is sent with U+FFFD in place of the bad byte, and the server answers it like any other.
    void actionThatIsNotUtf8IsSent()
    {
        RemoteTestServer server("alfworld");
        auto env = openRemote("alfworld", server.url());
        env->reset(0, Split::Train);
        const auto& r = env->step("go forward\xb6");
        QVERIFY(r.info.valid == false && !r.done);
        QCOMPARE(r.feedback, std::string("Nothing happens."));
        QCOMPARE(server.calls("/step"), 1);
        QVERIFY(env->step("go forward").info.valid);
    }

    // Found while writing docs/bad-input.md (a WebShop server answering "has_search_bar": "yes"): the client read it
    // with nlohmann's value(), whose type_error reached the user as "[json.exception.type_error.302] type must be
    // boolean, but is string", naming neither the server nor the route. A field of the wrong type now counts as
    // absent, as every other field of an answer does.
    void searchBarThatIsNotABoolean()
    {
        httplib::Server server;
        const auto reply = [](httplib::Response& res, const std::string& body) {
            res.set_content(body, "application/json");
        };
        server.Post("/create", [&](const httplib::Request&, httplib::Response& res) { reply(res, "0"); });
        server.Post("/reset", [&](const httplib::Request&, httplib::Response& res) {
            reply(res, R"(["Instruction: [SEP] buy a mug [SEP] Search", null])");
        });
        server.Get("/instruction_text", [&](const httplib::Request&, httplib::Response& res) { reply(res, R"("buy a mug")"); });
        server.Get("/available_actions", [&](const httplib::Request&, httplib::Response& res) {
            reply(res, R"({"has_search_bar": "yes", "clickables": ["mug", 3]})");
        });
        const int port = server.bind_to_any_port("127.0.0.1");
        QVERIFY(port > 0);
        struct Serving { // stops the server however the test ends
            httplib::Server& server;
            std::thread thread;
            ~Serving()
            {
                server.stop();
                thread.join();
            }
        } serving { server, std::thread([&] { server.listen_after_bind(); }) };
        auto env = openRemote("webshop", "http://127.0.0.1:" + std::to_string(port), { { "retries", "0" } });
        env->reset(0, Split::Train);
        QCOMPARE(env->admissibleCommands(), std::vector<std::string> { "click[mug]" });
    }

    void errorWithStatus200IsSurfaced()
    {
        RemoteTestServer server("alfworld");
        auto env = openRemote("alfworld", server.url());
        env->reset(0, Split::Train);
        server.failSteps(true);
        const std::string what = errorOf([&] { env->step("go forward"); });
        QVERIFY2(contains(what, server.url()) && contains(what, "POST /step")
                && contains(what, "server error: simulated failure in step"),
            what.c_str());
        QCOMPARE(server.calls("/step"), 1); // an answer is not retried
    }

    void slowRouteIsRetried()
    {
        RemoteTestServer server("babyai");
        server.delay("/reset", 1500, 1);
        auto env = openRemote(
            "babyai", server.url(), { { "timeout_ms", "200" }, { "retries", "2" }, { "backoff_ms", "10" } });
        QVERIFY(contains(env->reset(0, Split::Train), "Your goal: reach room 2"));
        QCOMPARE(server.calls("/reset"), 2);
    }

    void slowRouteFailsClearlyAfterRetries()
    {
        RemoteTestServer server("webshop");
        server.delay("/reset", 1500, -1);
        auto env = openRemote(
            "webshop", server.url(), { { "timeout_ms", "100" }, { "retries", "2" }, { "backoff_ms", "5" } });
        const std::string what = errorOf([&] { env->reset(0, Split::Train); });
        QVERIFY2(contains(what, server.url()) && contains(what, "POST /reset") && contains(what, "after 3 attempts"),
            what.c_str());
        server.stop(); // wakes the delayed handlers
        QCOMPARE(server.calls("/reset"), 3);
    }

    void sentStepIsNotRetried()
    {
        RemoteTestServer server("alfworld");
        auto env = openRemote(
            "alfworld", server.url(), { { "timeout_ms", "100" }, { "retries", "3" }, { "backoff_ms", "5" } });
        env->reset(0, Split::Train);
        server.delay("/step", 1500, -1);
        const std::string what = errorOf([&] { env->step("go forward"); });
        QVERIFY2(contains(what, "POST /step") && contains(what, "not retried"), what.c_str());
        server.stop();
        QCOMPARE(server.calls("/step"), 1);
    }

    void deadServerFailsClearly()
    {
        std::string url;
        {
            RemoteTestServer server("searchqa");
            url = server.url();
        } // the port is free now: nothing listens there
        auto env = openRemote("searchqa", url, { { "retries", "1" }, { "backoff_ms", "5" } });
        const std::string what = errorOf([&] { env->reset(0, Split::Train); });
        QVERIFY2(
            contains(what, url) && contains(what, "POST /create") && contains(what, "after 2 attempts"), what.c_str());
    }

    void outagesAreToldFromErrors()
    {
        // What the server says (an error answer) is not an outage; no server, or a 503, is.
        RemoteTestServer server("alfworld", false);
        auto env = openRemote("alfworld", server.url(), { { "retries", "1" }, { "backoff_ms", "5" } });
        env->reset(0, Split::Train);
        server.failStepCall(1);
        QVERIFY(!throwsOutage([&] { env->step("go forward"); }));
        env->reset(1, Split::Train);
        server.goDownAtStepCall(1);
        QVERIFY(throwsOutage([&] { env->step("go forward"); }));
        QVERIFY(throwsOutage([&] { env->reset(2, Split::Train); })); // 503 on every route now
        server.comeBack();
        QVERIFY(contains(env->reset(3, Split::Train), "reach room"));
        server.stop();
        QVERIFY(throwsOutage([&] { env->step("go forward"); }));
        QVERIFY(throwsOutage([&] { env->reset(4, Split::Train); }));
    }

    void killedServerGivesAFailedStoredTrajectory()
    {
        RemoteTestServer server("alfworld", false);
        auto env = openRemote("alfworld", server.url(), { { "retries", "1" }, { "backoff_ms", "5" } });
        ForwardPolicy policy("go forward", [&](int acts) {
            if (acts == 1)
                server.stop();
        });
        const Trajectory t = runEpisode(*env, policy, 2, Split::Train); // target room 4: four steps needed
        QVERIFY(isFailed(t));
        QCOMPARE(t.turns.size(), std::size_t(1));
        QVERIFY(!t.success.value_or(true));
        QCOMPARE(t.reward, 0.0);
        QVERIFY2(contains(t.extra, "\"error\":\"remote env " + server.url() + ": POST /step"), t.extra.c_str());

        // The store keeps it, mark included.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Store store(dir.filePath("runs.db").toStdString());
        const auto run = store.createRun(test::newRun("remote"));
        const Trajectory back = store.loadTrajectory(store.insertTrajectory(run, 0, t));
        QVERIFY(isFailed(back));
        QCOMPARE(back.turns.size(), std::size_t(1));
        QCOMPARE(back.extra, t.extra);
    }

    void markFailedIsIdempotent()
    {
        Trajectory t = test::minimalTrajectory("a", "g", 1.0, 2);
        t.extra = "\"note\":1";
        QVERIFY(!isFailed(t));
        markFailed(t, "boom \"quoted\"");
        markFailed(t, "again");
        QVERIFY(isFailed(t));
        QCOMPARE(t.extra, std::string("\"note\":1,\"failed\":true,\"error\":\"boom \\\"quoted\\\"\""));
        QCOMPARE(t.reward, 0.0);
    }

    void taskKeysAreDeterministic()
    {
        RemoteTestServer server("webshop");
        auto a = openRemote("webshop", server.url(), { { "eval_offset", "1000" } });
        auto b = openRemote("webshop", server.url(), { { "eval_offset", "1000" } });
        const std::string first = a->reset(7, Split::Train);
        QCOMPARE(b->reset(7, Split::Train), first);
        QCOMPARE(a->taskKey(), std::string("remote:webshop:seed=7"));
        QCOMPARE(b->taskKey(), a->taskKey());
        QCOMPARE(a->taskSpec(), std::string("webshop/7"));
        QCOMPARE(a->stateKey(), b->stateKey());
        QCOMPARE(a->stateKey(), RemoteEnv::observationKey(first));
        QCOMPARE(a->goal(), std::string("reach room 3"));
        a->reset(7, Split::Eval);
        QCOMPARE(a->taskKey(), std::string("remote:webshop:seed=7:split=eval"));
        QCOMPARE(a->taskSpec(), std::string("webshop/1007"));
        QCOMPARE(a->goal(), std::string("reach room 4")); // 2 + 1007 % 3
        b->reset(8, Split::Train);
        QVERIFY(b->taskKey() != std::string("remote:webshop:seed=7"));
    }

    void registryAndParams()
    {
        QVERIFY(findEnvironment("remote"));
        // Constructing does not reach the server (configs are validated by constructing their environment).
        auto env = makeEnvironment("remote", { { "url", "http://127.0.0.1:9" }, { "max_steps", "3" } });
        QCOMPARE(env->maxSteps(), 3);
        QCOMPARE(env->name(), std::string_view("remote"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeEnvironment("remote", { { "url", "ftp://host" } }));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeEnvironment("remote", { { "dialect", "sciworld" } }));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, env->step("go forward"));
    }

    void stepLimitEndsTheEpisode()
    {
        RemoteTestServer server("babyai");
        auto env = openRemote("babyai", server.url(), { { "max_steps", "2" } });
        env->reset(0, Split::Train);
        QVERIFY(!env->step("look").done);
        const auto& r = env->step("look");
        QVERIFY(r.done && !r.success);
        QCOMPARE(env->admissibleCommands().size(), std::size_t(0));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, env->step("look"));
    }
};

QTEST_GUILESS_MAIN(TestEnvRemote)
#include "tst_env_remote.moc"
