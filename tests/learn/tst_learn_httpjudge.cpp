// The trainer with the http judge (issue 9): tiny runs against a fake chat-completions server. Turns take the
// endpoint's roles under the judge's tag, answers are cached across runs, and failed turns are counted in the
// metrics and left without a role.

#include "core/learn/torch/engine/trainer.h"
#include "core/storage/store.h"
#include "tests/core/fake_chat_server.h"
#include "tests/learn/tinyconfig.h"

#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace creditlab;
using namespace creditlab::learn;
using creditlab::test::chatCompletion;
using creditlab::test::ChatReply;
using creditlab::test::FakeChatServer;
using creditlab::testing::kTinyConfig;

namespace {

std::map<std::int64_t, double> metric(Store& store, std::int64_t runId, const std::string& name)
{
    std::map<std::int64_t, double> out;
    for (const auto& m : store.metrics(runId))
        if (m.name == name)
            out[m.iteration] = m.value;
    return out;
}

} // namespace

class TestLearnHttpJudge : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void trainsWithEndpointRoles();
    void failedTurnsCounted();
    void triageNeedsEveryRole();
};

void TestLearnHttpJudge::trainsWithEndpointRoles()
{
    FakeChatServer server([](int, const nlohmann::json&) {
        return ChatReply { 200, chatCompletion(R"({"role": "E", "rationale": "first visit"})"), 0 };
    });
    QTemporaryDir dir;
    const std::string db = dir.filePath("runs.db").toStdString();
    const auto config = TrainConfig::parse(kTinyConfig, "tiny.yaml",
        { { "credit.method", "triage" }, { "judge.name", "http" }, { "judge.url", server.baseUrl() },
            { "judge.model", "fake" }, { "rl.iterations", "2" } });
    Trainer first(config, { db, "cpu" });
    const auto a = first.run([](const TrainProgress&) { return true; });
    QCOMPARE(a.iterationsDone, 2LL);
    Store store(db);
    const std::string source = "judge:http:model=fake,url=" + server.baseUrl();
    std::int64_t turns = 0;
    for (const auto& info : store.trajectories(a.runId, 1))
        for (const Turn& turn : store.loadTrajectory(info.rowId).turns) {
            ++turns;
            QVERIFY(turn.role == Role::E);
            QCOMPARE(turn.roleSource.value_or(""), source);
        }
    // The judge's labels are stored under its tag with its evidence.
    for (const auto& info : store.trajectories(a.runId, 1))
        for (const auto& label : store.judgeLabels(info.rowId))
            if (label.judge != "oracle") {
                QCOMPARE(label.judge, source.substr(6));
                QCOMPARE(label.rationale, std::optional<std::string>("first visit"));
            }
    QVERIFY(turns > 0);
    QCOMPARE(metric(store, a.runId, "judge/failed_turns"), (std::map<std::int64_t, double> { { 1, 0.0 }, { 2, 0.0 } }));
    const auto requests = metric(store, a.runId, "judge/requests");
    QCOMPARE(requests.at(1) + metric(store, a.runId, "judge/cached_turns").at(1), double(turns));
    const int sent = server.requests();
    QCOMPARE(double(sent), requests.at(1) + requests.at(2));

    // The same seed again: its first iteration repeats the first run's rollouts, all answered from the cache.
    Trainer second(config, { db, "cpu" });
    const auto b = second.run([](const TrainProgress&) { return true; });
    QCOMPARE(metric(store, b.runId, "judge/requests").at(1), 0.0);
    QCOMPARE(metric(store, b.runId, "judge/cached_turns").at(1), double(turns));
}

void TestLearnHttpJudge::failedTurnsCounted()
{
    // A server error (500), not an outage: 502/503/504 and refused connections make the run wait instead.
    FakeChatServer server([](int, const nlohmann::json&) { return ChatReply { 500, "{}", 0 }; });
    QTemporaryDir dir;
    const std::string db = dir.filePath("runs.db").toStdString();
    const auto config = TrainConfig::parse(kTinyConfig, "tiny.yaml",
        { { "credit.method", "grpo" }, { "judge.name", "http" }, { "judge.url", server.baseUrl() },
            { "judge.retries", "1" }, { "judge.backoff_ms", "1" }, { "rl.iterations", "1" } });
    Trainer trainer(config, { db, "cpu" });
    const auto r = trainer.run([](const TrainProgress&) { return true; });
    QCOMPARE(r.iterationsDone, 1LL);
    Store store(db);
    std::int64_t turns = 0;
    for (const auto& info : store.trajectories(r.runId, 1))
        for (const Turn& turn : store.loadTrajectory(info.rowId).turns) {
            ++turns;
            QVERIFY(!turn.role);
        }
    QVERIFY(turns > 0);
    QCOMPARE(metric(store, r.runId, "judge/failed_turns").at(1), double(turns));
    QCOMPARE(server.requests(), int(2 * turns)); // one retry each
    QCOMPARE(store.database().scalarInt("SELECT count(*) FROM judge_cache WHERE error LIKE 'HTTP 500%'"), turns);
}

void TestLearnHttpJudge::triageNeedsEveryRole()
{
    // TRIAGE needs a role on every turn: a run whose judge failed on some stops naming the missing field.
    FakeChatServer server([](int, const nlohmann::json&) { return ChatReply { 500, "{}", 0 }; });
    QTemporaryDir dir;
    const auto config = TrainConfig::parse(kTinyConfig, "tiny.yaml",
        { { "credit.method", "triage" }, { "judge.name", "http" }, { "judge.url", server.baseUrl() },
            { "judge.retries", "0" }, { "rl.iterations", "1" } });
    Trainer trainer(config, { dir.filePath("runs.db").toStdString(), "cpu" });
    try {
        trainer.run([](const TrainProgress&) { return true; });
        QFAIL("triage trained without roles");
    } catch (const std::exception& e) {
        QVERIFY2(std::string(e.what()).find("\"role\"") != std::string::npos, e.what());
    }
}

QTEST_GUILESS_MAIN(TestLearnHttpJudge)
#include "tst_learn_httpjudge.moc"
