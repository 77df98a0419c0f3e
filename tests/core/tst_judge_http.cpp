// The http judge against a fake chat-completions server: answers, failures, retries, timeouts, the API key,
// the cache and the concurrency limit.

#include "core/judge/httpjudge.h"
#include "core/model/unavailable.h"
#include "core/storage/store.h"

#include "fake_chat_server.h"
#include "testutil.h"

#include <QTemporaryDir>
#include <QTest>

#include <cstdlib>

using namespace creditlab;
using namespace creditlab::judge;
using creditlab::test::chatCompletion;
using creditlab::test::ChatReply;
using creditlab::test::FakeChatServer;

namespace {

/// Turn k's action is "act-<R>" with R cycling D, E, N, R: the fake server answers the role in the action.
Trajectory trajectory(int turns, const std::string& id = "t0")
{
    Trajectory t;
    t.id = id;
    t.group = "g";
    t.reward = 1.0;
    t.success = true;
    t.task.goal = "buy a red mug";
    static const char* roles = "DENR";
    for (int k = 0; k < turns; ++k) {
        Turn u;
        u.observation = "observation " + std::to_string(k);
        u.action = std::string("act-") + roles[k % 4] + "-" + std::to_string(k);
        u.feedback = "feedback " + std::to_string(k);
        t.turns.push_back(u);
    }
    return t;
}

/// The role the fake server gives: the letter after "act-" in the CURRENT step's action.
std::string currentRole(const nlohmann::json& body)
{
    const std::string user = body.at("messages").at(1).at("content").get<std::string>();
    const auto at = user.find("act-", user.find("CURRENT STEP:"));
    return user.substr(at + 4, 1);
}

ChatReply correct(int, const nlohmann::json& body)
{
    return { 200, chatCompletion(R"({"role": ")" + currentRole(body) + R"(", "rationale": "ok", "confidence": 0.9})"),
        0 };
}

std::vector<std::pair<std::string, std::string>> settings(
    const FakeChatServer& server, std::vector<std::pair<std::string, std::string>> more = {})
{
    more.insert(more.begin(), { { "url", server.baseUrl() }, { "model", "fake-model" }, { "backoff_ms", "1" } });
    return more;
}

void verifyRoles(const std::vector<Verdict>& v, const Trajectory& t)
{
    QCOMPARE(v.size(), t.turns.size());
    for (std::size_t k = 0; k < v.size(); ++k) {
        QVERIFY2(v[k].role.has_value(), qPrintable(QString("turn %1").arg(k)));
        QCOMPARE(std::string(roleName(*v[k].role)), t.turns[k].action.substr(4, 1));
        QCOMPARE(v[k].score, std::optional<double>(roleScore(*v[k].role)));
        QVERIFY(!v[k].source);
    }
}

} // namespace

class TestJudgeHttp : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { m_dir = std::make_unique<QTemporaryDir>(); }

    void parseAnswer_data();
    void parseAnswer();
    void windowIsBounded();
    void registered();
    void correctAnswersParsed();
    void actionThatIsNotUtf8IsJudged();
    void failedAnswers_data();
    void failedAnswers();
    void serverErrorThenSuccess();
    void slowAnswerTimesOut();
    void apiKeyFromEnvironmentNeverStored();
    void missingKeyVariableRefused();
    void cacheAvoidsSecondRequest();
    void endpointOutageThrowsAfterCaching();
    void concurrencyLimit_data();
    void concurrencyLimit();
    void batchOverlapsTrajectories();

private:
    std::string path(const char* name) const { return m_dir->filePath(name).toStdString(); }
    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestJudgeHttp::parseAnswer_data()
{
    QTest::addColumn<QString>("content");
    QTest::addColumn<QString>("role"); // empty: must throw
    QTest::newRow("plain") << R"({"role": "E"})"
                           << "E";
    QTest::newRow("all fields") << R"({"role":"R","rationale":"repeat","confidence":0.25,"q":0.1})"
                                << "R";
    QTest::newRow("json fence") << "```json\n{\"role\": \"D\"}\n```"
                                << "D";
    QTest::newRow("bare fence") << "```\n{\"role\": \"N\"}\n```\n"
                                << "N";
    QTest::newRow("think block") << "<think>first visit</think>\n{\"role\": \"E\"}"
                                 << "E";
    QTest::newRow("not json") << "E"
                              << "";
    QTest::newRow("prose around") << "The role is {\"role\": \"E\"}"
                                  << "";
    QTest::newRow("array") << R"(["E"])"
                           << "";
    QTest::newRow("no role") << R"({"label": "E"})"
                             << "";
    QTest::newRow("wrong role") << R"({"role": "X"})"
                                << "";
    QTest::newRow("lower case") << R"({"role": "e"})"
                                << "";
    QTest::newRow("role not string") << R"({"role": 1})"
                                     << "";
    QTest::newRow("confidence > 1") << R"({"role": "E", "confidence": 1.5})"
                                    << "";
    QTest::newRow("rationale not string") << R"({"role": "E", "rationale": 3})"
                                          << "";
    QTest::newRow("other fence") << "```python\n{\"role\": \"D\"}\n```"
                                 << "";
    QTest::newRow("open think") << "<think>{\"role\": \"D\"}"
                                << "";
    // Found by fuzz_judge (corpus/fuzz_judge/crash-da831f49...): a number beyond double's range threw the JSON
    // library's out_of_range, not a std::runtime_error.
    QTest::newRow("number out of range") << R"({"role": "E", "confidence": -1e999})"
                                         << "";
}

void TestJudgeHttp::parseAnswer()
{
    QFETCH(QString, content);
    QFETCH(QString, role);
    if (role.isEmpty()) {
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, parseChatAnswer(content.toStdString()));
        return;
    }
    const ChatAnswer a = parseChatAnswer(content.toStdString());
    QCOMPARE(QString::fromStdString(std::string(roleName(a.role))), role);
}

void TestJudgeHttp::windowIsBounded()
{
    // TRIAGE §3.2: five pairs before and after the current one, never the outcome.
    const Trajectory t = trajectory(20);
    const std::string w = judgeWindow(t, 10);
    QVERIFY(w.find("buy a red mug") != std::string::npos);
    for (int k = 0; k < 20; ++k) {
        const bool shown = k >= 5 && k <= 15;
        QCOMPARE(w.find(t.turns[k].action + "\n") != std::string::npos, shown);
    }
    QVERIFY(w.find("CURRENT STEP:\nStep 11\nACTION: " + t.turns[10].action + "\nOBSERVATION: feedback 10")
        != std::string::npos);
    QVERIFY(w.find("reward") == std::string::npos && w.find("success") == std::string::npos);
    const std::string first = judgeWindow(t, 0);
    QVERIFY(first.find("PREVIOUS STEPS:\n(none)") != std::string::npos);
    const std::string last = judgeWindow(t, 19);
    QVERIFY(last.find("FUTURE STEPS:\n(none)") != std::string::npos);
    QVERIFY(judgeSystemPrompt().find("R (REGRESSION)") != std::string::npos);
}

void TestJudgeHttp::registered()
{
    const auto& names = judgeNames();
    QVERIFY(std::find(names.begin(), names.end(), "http") != names.end());
    QCOMPARE(judgeParams("http").size(), std::size_t(9));
    const auto j = makeJudge("http", { { "model", "m" }, { "url", "http://h/v1" } });
    QCOMPARE(j->tag(), std::string("http:model=m,url=http://h/v1"));
    QVERIFY_THROWS_EXCEPTION(credit::ParamError, makeJudge("http", { { "api_key", "sk" } }));
    QVERIFY_THROWS_EXCEPTION(credit::ParamError, makeJudge("http", { { "concurrency", "0" } }));
    QVERIFY_THROWS_EXCEPTION(credit::ParamError, makeJudge("http", { { "model", "" } }));
}

void TestJudgeHttp::correctAnswersParsed()
{
    FakeChatServer server(&correct);
    const auto j = HttpJudge::create(settings(server), nullptr);
    const Trajectory t = trajectory(9);
    const auto v = j->judge(t, {});
    verifyRoles(v, t);
    QCOMPARE(v.at(3).rationale, std::optional<std::string>("ok"));
    QCOMPARE(v.at(3).confidence, std::optional<double>(0.9));
    QCOMPARE(j->failedTurns(), std::int64_t(0));
    QCOMPARE(server.requests(), 9);
    QCOMPARE(j->requests(), std::int64_t(9));
    // The request is a chat completion for the configured model at temperature 0.
    const auto body = nlohmann::json::parse(server.bodies().at(0));
    QCOMPARE(body.at("model").get<std::string>(), std::string("fake-model"));
    QCOMPARE(body.at("temperature").get<double>(), 0.0);
    QCOMPARE(body.at("messages").at(0).at("content").get<std::string>(), judgeSystemPrompt());
    QVERIFY(server.authorizations().at(0).empty()); // no api_key_env: no key sent
}

// Found by review after fuzz_remote's finding (an action that is not valid UTF-8 made nlohmann's dump() throw): the
// judge's request quotes the actions too, and there the throw was on a worker thread, which ended the process.
void TestJudgeHttp::actionThatIsNotUtf8IsJudged()
{
    FakeChatServer server(&correct);
    const auto j = HttpJudge::create(settings(server), nullptr);
    Trajectory t = trajectory(3);
    t.turns[1].action += "\xb6";
    const auto v = j->judge(t, {});
    verifyRoles(v, t);
    QCOMPARE(j->failedTurns(), std::int64_t(0));
    const auto body = nlohmann::json::parse(server.bodies().at(0));
    QVERIFY(body.at("messages").at(1).at("content").get<std::string>().find("act-E-1\xef\xbf\xbd") != std::string::npos);
}

void TestJudgeHttp::failedAnswers_data()
{
    QTest::addColumn<QString>("content");
    QTest::addColumn<QString>("reason");
    QTest::newRow("malformed json") << R"({"role": "E")"
                                    << "not JSON";
    QTest::newRow("wrong role") << R"({"role": "X"})"
                                << "is not D, E, N or R";
}

void TestJudgeHttp::failedAnswers()
{
    QFETCH(QString, content);
    QFETCH(QString, reason);
    FakeChatServer server([&](int, const nlohmann::json&) {
        return ChatReply { 200, chatCompletion(content.toStdString()), 0 };
    });
    const std::string db = path("failed.db");
    Store store(db);
    const auto j = HttpJudge::create(settings(server, { { "retries", "1" } }), &store);
    const Trajectory t = trajectory(2);
    const auto v = j->judge(t, {});
    QVERIFY(!v.at(0).role && !v.at(1).role && !v.at(0).score);
    QCOMPARE(j->failedTurns(), std::int64_t(2));
    QCOMPARE(server.requests(), 4); // one retry each
    QCOMPARE(j->failures().at(1).trajectory, std::string("t0"));
    QCOMPARE(j->failures().at(1).turn, std::size_t(1));
    QVERIFY2(
        j->failures().at(0).reason.find(reason.toStdString()) != std::string::npos, j->failures().at(0).reason.c_str());
    // The failures are stored with their reason, and asked again on the next pass.
    QCOMPARE(store.database().scalarInt("SELECT count(*) FROM judge_cache WHERE role IS NULL AND error LIKE '%"
                 + reason.toStdString() + "%' AND attempts = 2"),
        std::int64_t(2));
    j->restart(1);
    QCOMPARE(j->failedTurns(), std::int64_t(0));
    j->judge(t, {});
    QCOMPARE(server.requests(), 8);
}

void TestJudgeHttp::serverErrorThenSuccess()
{
    FakeChatServer server([](int n, const nlohmann::json& body) {
        return n == 0 ? ChatReply { 500, R"({"error": "overloaded"})", 0 } : correct(n, body);
    });
    const auto j = HttpJudge::create(settings(server, { { "retries", "2" } }), nullptr);
    const Trajectory t = trajectory(1);
    verifyRoles(j->judge(t, {}), t);
    QCOMPARE(server.requests(), 2);
    QCOMPARE(j->requests(), std::int64_t(2));
    QCOMPARE(j->failedTurns(), std::int64_t(0));

    // A 4xx other than 408/429 is not retried: the same request would fail the same way.
    FakeChatServer refusing([](int, const nlohmann::json&) {
        return ChatReply { 404, R"({"error": "no model"})", 0 };
    });
    const auto k = HttpJudge::create(settings(refusing, { { "retries", "3" } }), nullptr);
    QVERIFY(!k->judge(t, {}).at(0).role);
    QCOMPARE(refusing.requests(), 1);
    QVERIFY(k->failures().at(0).reason.starts_with("HTTP 404"));
}

void TestJudgeHttp::slowAnswerTimesOut()
{
    FakeChatServer server([](int n, const nlohmann::json& body) {
        ChatReply r = correct(n, body);
        r.delayMs = 1500;
        return r;
    });
    const auto j = HttpJudge::create(settings(server, { { "timeout_ms", "200" }, { "retries", "0" } }), nullptr);
    const auto v = j->judge(trajectory(1), {});
    QVERIFY(!v.at(0).role);
    QCOMPARE(j->failedTurns(), std::int64_t(1));
    QVERIFY2(j->failures().at(0).reason.starts_with("timeout"), j->failures().at(0).reason.c_str());
}

void TestJudgeHttp::apiKeyFromEnvironmentNeverStored()
{
    const std::string key = "sk-creditlab-test-7f3a9c1e5b";
    qputenv("CREDITLAB_TEST_JUDGE_KEY", QByteArray::fromStdString(key));
    FakeChatServer server(&correct);
    const std::string db = path("key.db");
    {
        Store store(db);
        const auto j = HttpJudge::create(settings(server, { { "api_key_env", "CREDITLAB_TEST_JUDGE_KEY" } }), &store);
        QVERIFY(j->tag().find(key) == std::string::npos);
        const Trajectory t = trajectory(3);
        verifyRoles(j->judge(t, {}), t);
        store.setRunConfig(store.createRun({ "r", RunKind::Train, RunStatus::Finished, {} }), "yaml",
            "judge.name: http\njudge.api_key_env: CREDITLAB_TEST_JUDGE_KEY\njudge.tag: " + j->tag());
    }
    {
        // A server that echoes the request in its error: the stored reason has the key masked.
        FakeChatServer echo([&](int, const nlohmann::json&) { return ChatReply { 401, "bad key Bearer " + key, 0 }; });
        Store store(db);
        const auto j = HttpJudge::create(settings(echo, { { "api_key_env", "CREDITLAB_TEST_JUDGE_KEY" } }), &store);
        QVERIFY(!j->judge(trajectory(1, "echoed"), {}).at(0).role);
        QCOMPARE(j->failures().at(0).reason, std::string("HTTP 401: bad key Bearer ***"));
    }
    qunsetenv("CREDITLAB_TEST_JUDGE_KEY");
    for (const auto& a : server.authorizations())
        QCOMPARE(a, "Bearer " + key);
    // Neither the database nor its journal holds the key.
    const std::string bytes = test::readFile(db) + test::readFile(db + "-wal");
    QVERIFY(bytes.size() > 0);
    QVERIFY(bytes.find("judge_cache") != std::string::npos);
    QVERIFY(bytes.find(key) == std::string::npos);
}

void TestJudgeHttp::missingKeyVariableRefused()
{
    qunsetenv("CREDITLAB_TEST_JUDGE_UNSET");
    Store store(path("unset.db"));
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument, HttpJudge::create({ { "api_key_env", "CREDITLAB_TEST_JUDGE_UNSET" } }, &store));
    // Config validation (no store) does not need the key; without one no Authorization header is sent.
    FakeChatServer server(&correct);
    const auto j = HttpJudge::create(settings(server, { { "api_key_env", "CREDITLAB_TEST_JUDGE_UNSET" } }), nullptr);
    const Trajectory t = trajectory(1);
    verifyRoles(j->judge(t, {}), t);
    QCOMPARE(server.authorizations(), std::vector<std::string> { "" });
}

void TestJudgeHttp::cacheAvoidsSecondRequest()
{
    FakeChatServer server(&correct);
    const std::string db = path("cache.db");
    const Trajectory t = trajectory(7);
    {
        Store store(db);
        const auto j = HttpJudge::create(settings(server), &store);
        verifyRoles(j->judge(t, {}), t);
        QCOMPARE(server.requests(), 7);
        j->restart(1);
        verifyRoles(j->judge(t, {}), t);
        QCOMPARE(server.requests(), 7);
        QCOMPARE(j->cachedTurns(), std::int64_t(7));
        const auto cached = j->judge(t, {}); // the evidence comes back from the cache too
        QCOMPARE(cached.at(6).rationale, std::optional<std::string>("ok"));
        QCOMPARE(cached.at(6).confidence, std::optional<double>(0.9));
    }
    // Another connection (a resumed run) reads the same cache; another model does not.
    Store store(db);
    const auto again = HttpJudge::create(settings(server), &store);
    verifyRoles(again->judge(t, {}), t);
    QCOMPARE(server.requests(), 7);
    const auto other = HttpJudge::create(settings(server, { { "model", "other-model" } }), &store);
    verifyRoles(other->judge(t, {}), t);
    QCOMPARE(server.requests(), 14);
    QCOMPARE(store.database().scalarInt("SELECT count(*) FROM judge_cache WHERE role IS NOT NULL"), std::int64_t(14));
}

void TestJudgeHttp::endpointOutageThrowsAfterCaching()
{
    // Turns 0-3 are answered, then the endpoint says 503 (a gateway with no model behind it): the batch throws
    // ServiceUnavailable, not half-labelled verdicts, and asked again sends only the requests that failed.
    FakeChatServer server([](int n, const nlohmann::json& body) {
        return n >= 4 ? ChatReply { 503, "no upstream", 0 } : correct(n, body);
    });
    const std::string db = path("outage.db");
    Store store(db);
    const auto j = HttpJudge::create(settings(server, { { "retries", "1" }, { "concurrency", "1" } }), &store);
    const Trajectory t = trajectory(6);
    try {
        j->judge(t, {});
        QFAIL("a 503 endpoint gave verdicts");
    } catch (const ServiceUnavailable& e) {
        const std::string what = e.what();
        QVERIFY2(what.find("2 of 6 requests found no server") != std::string::npos, e.what());
        QVERIFY2(what.find(server.baseUrl()) != std::string::npos, e.what());
    }
    QCOMPARE(store.database().scalarInt("SELECT count(*) FROM judge_cache WHERE role IS NOT NULL"), std::int64_t(4));
    FakeChatServer back(&correct); // the cache is keyed by model and prompt, not by URL
    const auto k = HttpJudge::create(settings(back, { { "retries", "1" } }), &store);
    verifyRoles(k->judge(t, {}), t);
    QCOMPARE(back.requests(), 2);

    // Nobody listening at all: the same.
    std::string url;
    {
        FakeChatServer gone(&correct);
        url = gone.baseUrl();
    }
    const auto l = HttpJudge::create({ { "url", url }, { "model", "fake-model" }, { "retries", "0" } }, nullptr);
    QVERIFY_THROWS_EXCEPTION(ServiceUnavailable, l->judge(trajectory(1), {}));
}

void TestJudgeHttp::concurrencyLimit_data()
{
    QTest::addColumn<int>("concurrency");
    QTest::newRow("1") << 1;
    QTest::newRow("3") << 3;
}

void TestJudgeHttp::concurrencyLimit()
{
    QFETCH(int, concurrency);
    FakeChatServer server([](int n, const nlohmann::json& body) {
        ChatReply r = correct(n, body);
        r.delayMs = 80; // long enough for the workers to overlap
        return r;
    });
    const auto j = HttpJudge::create(settings(server, { { "concurrency", std::to_string(concurrency) } }), nullptr);
    const Trajectory t = trajectory(12);
    verifyRoles(j->judge(t, {}), t);
    QCOMPARE(server.requests(), 12);
    QVERIFY2(server.maxInFlight() <= concurrency, qPrintable(QString::number(server.maxInFlight())));
    if (concurrency > 1)
        QVERIFY2(server.maxInFlight() >= 2, qPrintable(QString::number(server.maxInFlight())));
}

void TestJudgeHttp::batchOverlapsTrajectories()
{
    // A batch of short trajectories keeps `concurrency` requests in flight across them, and a prompt two
    // trajectories share (a group's identical first turns) is asked once.
    FakeChatServer server([](int n, const nlohmann::json& body) {
        ChatReply r = correct(n, body);
        r.delayMs = 80;
        return r;
    });
    const auto j = HttpJudge::create(settings(server, { { "concurrency", "4" } }), nullptr);
    const std::vector<Trajectory> batch { trajectory(2, "a"), trajectory(2, "b"), trajectory(3, "c"),
        trajectory(1, "d") };
    const auto verdicts = j->judgeBatch(batch, {});
    QCOMPARE(verdicts.size(), batch.size());
    for (std::size_t i = 0; i < batch.size(); ++i)
        verifyRoles(verdicts[i], batch[i]);
    // Trajectories a and b are the same; c starts like them but its turn 1 sees a future step; d's only turn
    // has neither past nor future: distinct prompts are a0, a1, c0, c1, c2, d0.
    QCOMPARE(server.requests(), 6);
    QCOMPARE(j->judgedTurns(), std::int64_t(8));
    QCOMPARE(j->cachedTurns(), std::int64_t(2));
    QVERIFY2(server.maxInFlight() >= 3 && server.maxInFlight() <= 4, qPrintable(QString::number(server.maxInFlight())));
}

QTEST_GUILESS_MAIN(TestJudgeHttp)
#include "tst_judge_http.moc"
