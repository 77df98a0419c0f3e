// Runs that survive the servers they call going away (issue 9): a remote environment server and an http judge
// endpoint are killed mid-run, on loopback. The trainer waits for them (rl.outage_wait_s), reporting phase
// "waiting"; a server that comes back lets the run go on exactly as if nothing had happened; one that stays away
// fails the run with a message saying how to resume it, and the resumed run again matches the uninterrupted one.
// Also: a remote run's SFT from a file of demonstrations (sft.demonstrations), as a remote server has no expert.

#include "core/env/environment.h"
#include "core/env/episode.h"
#include "core/env/policy.h"
#include "core/interchange/jsonl.h"
#include "core/learn/torch/engine/trainer.h"
#include "core/storage/store.h"
#include "tests/core/fake_chat_server.h"
#include "tests/core/remote_test_server.h"
#include "tests/learn/tinyconfig.h"

#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <memory>

using namespace creditlab;
using namespace creditlab::learn;
using creditlab::test::chatCompletion;
using creditlab::test::ChatReply;
using creditlab::test::FakeChatServer;
using creditlab::test::RemoteTestServer;
using creditlab::testing::deterministicMetrics;
using creditlab::testing::kTinyConfig;

namespace {

using Assignments = std::vector<std::pair<std::string, std::string>>;

/// The tiny run on the remote corridor game at `url` (no expert there: no SFT, the policy starts untrained).
Assignments remoteRun(const std::string& url, double outageWait)
{
    return { { "env.name", "remote" }, { "env.dialect", "alfworld" }, { "env.url", url }, { "env.max_steps", "6" },
        { "env.retries", "1" }, { "env.backoff_ms", "5" }, { "env.timeout_ms", "5000" },
        { "rl.outage_wait_s", std::to_string(outageWait) }, { "credit.method", "grpo" } };
}

/// The judge's answer: every turn is necessary, by the book.
ChatReply necessary(int, const nlohmann::json&)
{
    return { 200, chatCompletion(R"({"role": "N", "confidence": 0.9, "rationale": "needed"})"), 0 };
}

/// Every stored trajectory of `runId`, in order, with whether it is marked failed.
std::vector<Trajectory> stored(Store& store, std::int64_t runId)
{
    std::vector<Trajectory> out;
    for (const auto& info : store.trajectories(runId))
        out.push_back(store.loadTrajectory(info.rowId));
    return out;
}

/// Always walks forward: the corridor game's solution.
class Forward final : public env::Policy {
public:
    std::string_view name() const override { return "forward"; }
    void reset(std::uint64_t) override { }
    std::string_view act(const env::Environment&) override { return "go forward"; }
};

} // namespace

class TestLearnOutage : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { m_dir = std::make_unique<QTemporaryDir>(); }
    void remoteServerKilledBetweenIterations();
    void remoteServerDownMidIteration();
    void remoteRolloutFailsMidIteration();
    void remoteServerStaysAwayThenResume();
    void stopWhileWaiting();
    void judgeEndpointKilled();
    void remoteRunClonesDemonstrationFile();
    void demonstrationFileErrors();

private:
    std::string path(const char* name) const { return m_dir->filePath(QString::fromUtf8(name)).toStdString(); }
    /// The uninterrupted run against a fresh server on `port`: what every interrupted run must end up equal to.
    testing::MetricMap reference(const Assignments& extra)
    {
        const std::string db = path("reference.db");
        Trainer trainer(TrainConfig::parse(kTinyConfig, "tiny.yaml", extra), { db, "cpu" });
        const auto r = trainer.run([](const TrainProgress&) { return true; });
        Store store(db);
        return deterministicMetrics(store, r.runId);
    }

    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestLearnOutage::remoteServerKilledBetweenIterations()
{
    auto server = std::make_unique<RemoteTestServer>("alfworld", false);
    const int port = server->port();
    QVERIFY(port > 0);
    const auto extra = remoteRun(server->url(), 60);
    const auto expected = reference(extra);

    const std::string db = path("outage.db");
    Trainer trainer(TrainConfig::parse(kTinyConfig, "tiny.yaml", extra), { db, "cpu" });
    std::vector<std::string> waits;
    bool killed = false;
    const auto r = trainer.run([&](const TrainProgress& p) {
        if (p.phase == Phase::Rl && p.iteration == 1 && !killed) {
            killed = true;
            server->stop(); // the server dies between iterations 1 and 2
        } else if (p.phase == Phase::Waiting) {
            waits.push_back(p.message);
            if (waits.size() == 2) // the second try found it still gone; it is back for the third
                server = std::make_unique<RemoteTestServer>("alfworld", false, port);
        }
        return true;
    });
    QCOMPARE(r.status, RunStatus::Finished);
    QCOMPARE(r.iterationsDone, 3LL);
    QCOMPARE(waits.size(), std::size_t(2));
    QVERIFY2(waits.front().starts_with("waiting for the environment server"), waits.front().c_str());
    QVERIFY2(waits.front().find(server->url()) != std::string::npos, waits.front().c_str());
    // The batch was rolled out again from the same Rng state: the run is the uninterrupted one.
    Store store(db);
    QCOMPARE(deterministicMetrics(store, r.runId), expected);
    QCOMPARE(store.run(r.runId)->status, RunStatus::Finished);
}

void TestLearnOutage::remoteServerDownMidIteration()
{
    // The server stops answering (HTTP 503) between two steps of iteration 1, with every rollout half played: the
    // batch is rolled out again from the same Rng state once it is back, and the run is the uninterrupted one.
    RemoteTestServer server("alfworld", false);
    const auto extra = remoteRun(server.url(), 60);
    const auto expected = reference(extra);
    const std::string db = path("mid.db");
    Trainer trainer(TrainConfig::parse(kTinyConfig, "tiny.yaml", extra), { db, "cpu" });
    int waits = 0;
    const auto r = trainer.run([&](const TrainProgress& p) {
        if (p.phase == Phase::Sft && !p.metrics.empty()) // SFT (none here) and its evaluation are over
            server.goDownAtStepCall(6); // iteration 1, second round of steps: no corridor is one step long
        if (p.phase == Phase::Waiting && ++waits == 1)
            server.comeBack();
        return true;
    });
    QCOMPARE(r.status, RunStatus::Finished);
    QCOMPARE(r.iterationsDone, 3LL);
    QCOMPARE(waits, 1);
    Store store(db);
    QCOMPARE(deterministicMetrics(store, r.runId), expected);
    for (const Trajectory& t : stored(store, r.runId))
        QVERIFY2(!env::isFailed(t), t.extra.c_str());
    QVERIFY(store.metrics(r.runId).size() > 0);
    double waited = 0;
    for (const auto& m : store.metrics(r.runId))
        if (m.name == "time/outage_s")
            waited += m.value;
    QVERIFY2(waited >= 0.9, std::to_string(waited).c_str()); // the first pause is 1 s
}

void TestLearnOutage::remoteRolloutFailsMidIteration()
{
    // One rollout of a batch breaks off (the server answers its step with an error); the rest of the batch goes on.
    RemoteTestServer server("alfworld", false);
    const std::string db = path("partial.db");
    Trainer trainer(TrainConfig::parse(kTinyConfig, "tiny.yaml", remoteRun(server.url(), 60)), { db, "cpu" });
    const auto r = trainer.run([&](const TrainProgress& p) {
        if (p.phase == Phase::Sft && !p.metrics.empty())
            server.failStepCall(6); // iteration 1, second round of steps (no corridor is one step long): rollout 1
        return true;
    });
    QCOMPARE(r.status, RunStatus::Finished);
    Store store(db);
    const auto first = store.trajectories(r.runId, 1);
    QCOMPARE(first.size(), std::size_t(4));
    std::vector<bool> failed;
    for (const auto& info : first) {
        const Trajectory t = store.loadTrajectory(info.rowId);
        failed.push_back(env::isFailed(t));
        if (failed.back()) {
            QVERIFY2(t.extra.find("simulated failure in step") != std::string::npos, t.extra.c_str());
            QCOMPARE(t.turns.size(), std::size_t(1)); // the turn played before the step the server refused
        } else {
            QVERIFY(!t.turns.empty());
        }
    }
    QCOMPARE(failed, (std::vector<bool> { false, true, false, false }));
    double counted = -1;
    for (const auto& m : store.metrics(r.runId))
        if (m.name == "train/failed_rollouts" && m.iteration == 1)
            counted = m.value;
    QCOMPARE(counted, 1.0);
}

void TestLearnOutage::remoteServerStaysAwayThenResume()
{
    auto server = std::make_unique<RemoteTestServer>("alfworld", false);
    const int port = server->port();
    const auto extra = remoteRun(server->url(), 1.5);
    const auto expected = reference(extra);

    const std::string db = path("away.db");
    std::int64_t runId = 0;
    {
        Trainer trainer(TrainConfig::parse(kTinyConfig, "tiny.yaml", extra), { db, "cpu" });
        runId = trainer.runId();
        int waits = 0;
        try {
            trainer.run([&](const TrainProgress& p) {
                if (p.phase == Phase::Rl && p.iteration == 1)
                    server->stop();
                waits += p.phase == Phase::Waiting ? 1 : 0;
                return true;
            });
            QFAIL("the run went on without its environment server");
        } catch (const std::runtime_error& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("did not come back after") != std::string::npos, e.what());
            QVERIFY2(what.find("rl.outage_wait_s") != std::string::npos, e.what());
            QVERIFY2(what.find("creditlab-cli train --resume " + std::to_string(runId)) != std::string::npos, e.what());
        }
        QVERIFY(waits >= 1);
    }
    {
        Store store(db);
        QCOMPARE(store.run(runId)->status, RunStatus::Failed);
    }
    // Back up, on another port: the failed run resumes from its checkpoint after iteration 1 with the new URL and
    // ends as the uninterrupted one.
    server = std::make_unique<RemoteTestServer>("alfworld", false);
    QVERIFY(server->port() != port);
    const auto resumed = Trainer::resume(runId, { db, "cpu" }, { { "env.url", server->url() } });
    const auto r = resumed->run([](const TrainProgress&) { return true; });
    QCOMPARE(r.status, RunStatus::Finished);
    Store store(db);
    QCOMPARE(deterministicMetrics(store, runId), expected);
}

void TestLearnOutage::stopWhileWaiting()
{
    auto server = std::make_unique<RemoteTestServer>("alfworld", false);
    const int port = server->port();
    const auto extra = remoteRun(server->url(), 600);
    const auto expected = reference(extra);

    const std::string db = path("stop.db");
    std::int64_t runId = 0;
    {
        Trainer trainer(TrainConfig::parse(kTinyConfig, "tiny.yaml", extra), { db, "cpu" });
        runId = trainer.runId();
        std::atomic<bool> stop { false };
        const auto started = std::chrono::steady_clock::now();
        const auto r = trainer.run(
            [&](const TrainProgress& p) {
                if (p.phase == Phase::Rl && p.iteration == 2)
                    server->stop();
                if (p.phase == Phase::Waiting)
                    stop = true; // Ctrl+C, or Stop in the workbench, while the run waits
                return true;
            },
            &stop);
        // Cancelled within the first pause (1 s), not after the ten minutes of rl.outage_wait_s.
        QVERIFY(std::chrono::steady_clock::now() - started < std::chrono::seconds(60));
        QCOMPARE(r.status, RunStatus::Cancelled);
        QCOMPARE(r.iterationsDone, 2LL);
        QVERIFY(trainer.hasCheckpoint());
    }
    server = std::make_unique<RemoteTestServer>("alfworld", false, port);
    const auto resumed = Trainer::resume(runId, { db, "cpu" });
    QCOMPARE(resumed->run([](const TrainProgress&) { return true; }).status, RunStatus::Finished);
    Store store(db);
    QCOMPARE(deterministicMetrics(store, runId), expected);
}

void TestLearnOutage::judgeEndpointKilled()
{
    // TRIAGE needs a role on every turn: had the outage cost turns their labels, the credit step would fail.
    auto judge = std::make_unique<FakeChatServer>(necessary);
    const int port = judge->port();
    const Assignments extra { { "credit.method", "triage" }, { "judge.name", "http" }, { "judge.url", judge->baseUrl() },
        { "judge.retries", "1" }, { "judge.backoff_ms", "5" }, { "rl.outage_wait_s", "60" } };
    const auto expected = reference(extra);

    const std::string db = path("judge.db");
    Trainer trainer(TrainConfig::parse(kTinyConfig, "tiny.yaml", extra), { db, "cpu" });
    std::vector<std::string> waits;
    const auto r = trainer.run([&](const TrainProgress& p) {
        if (p.phase == Phase::Rl && p.iteration == 1)
            judge->stop();
        if (p.phase == Phase::Waiting) {
            waits.push_back(p.message);
            judge = std::make_unique<FakeChatServer>(necessary, port);
        }
        return true;
    });
    QCOMPARE(r.status, RunStatus::Finished);
    QCOMPARE(waits.size(), std::size_t(1));
    QVERIFY2(waits.front().starts_with("waiting for the judge endpoint"), waits.front().c_str());
    QVERIFY2(waits.front().find("found no server") != std::string::npos, waits.front().c_str());
    Store store(db);
    // The reference run read its answers from a cache of its own database; this one asked again: same labels,
    // same run (the judge's request counts aside).
    auto got = deterministicMetrics(store, r.runId);
    auto want = expected;
    for (auto* m : { &got, &want })
        std::erase_if(*m, [](const auto& kv) { return kv.first.second.starts_with("judge/"); });
    QCOMPARE(got, want);
    for (const Trajectory& t : stored(store, r.runId))
        for (const Turn& turn : t.turns)
            QVERIFY(turn.role == Role::N);
}

void TestLearnOutage::remoteRunClonesDemonstrationFile()
{
    // A remote server has no expert: demonstrations come from a JSONL file (here, 30 walks down the corridor
    // recorded from the server itself, plus a failed one that must not be cloned). SFT on them solves the held-out
    // tasks.
    RemoteTestServer server("alfworld", false);
    const std::string file = path("demos.jsonl");
    std::size_t turns = 0;
    {
        auto environment
            = env::makeEnvironment("remote", { { "dialect", "alfworld" }, { "url", server.url() }, { "max_steps", "6" } });
        Forward forward;
        std::string text;
        for (std::uint64_t seed = 0; seed < 30; ++seed) {
            const Trajectory t = env::runEpisode(*environment, forward, seed, env::Split::Train);
            QVERIFY(t.successOrDefault());
            turns += t.turns.size();
            formatTrajectory(t, text);
            text += '\n';
        }
        text += R"({"id":"lost","group":"x","reward":0,"success":false,"turns":[{"observation":"o","action":"go back"}]})";
        text += '\n';
        FILE* f = std::fopen(file.c_str(), "w");
        std::fwrite(text.data(), 1, text.size(), f);
        std::fclose(f);
    }
    auto extra = remoteRun(server.url(), 60);
    extra.insert(extra.end(), { { "sft.demonstrations", file }, { "sft.epochs", "40" }, { "sft.lr", "0.003" },
                                  { "rl.iterations", "1" }, { "eval.episodes", "6" } });
    const std::string db = path("demos.db");
    Trainer trainer(TrainConfig::parse(kTinyConfig, "tiny.yaml", extra), { db, "cpu" });
    const auto r = trainer.run([](const TrainProgress&) { return true; });
    QCOMPARE(r.status, RunStatus::Finished);
    Store store(db);
    std::map<std::string, double> sft;
    for (const auto& m : store.metrics(r.runId))
        if (m.iteration == 0)
            sft[m.name] = m.value;
    QCOMPARE(sft.at("sft/demonstrations"), double(turns)); // every turn of the 30 walks, none of the failed one
    QVERIFY2(sft.at("sft/token_accuracy") > 0.95, std::to_string(sft.at("sft/token_accuracy")).c_str());
    QCOMPARE(sft.at("eval/success"), 1.0);
}

void TestLearnOutage::demonstrationFileErrors()
{
    RemoteTestServer server("alfworld", false);
    const auto tryFile = [&](const std::string& file) -> std::string {
        auto extra = remoteRun(server.url(), 60);
        extra.push_back({ "sft.demonstrations", file });
        try {
            Trainer trainer(TrainConfig::parse(kTinyConfig, "tiny.yaml", extra), { path("errors.db"), "cpu" });
            return "(no error)";
        } catch (const std::exception& e) {
            return e.what();
        }
    };
    const std::string missing = tryFile(path("missing.jsonl"));
    QVERIFY2(missing.find("missing.jsonl") != std::string::npos, missing.c_str());
    const std::string broken = path("broken.jsonl");
    {
        FILE* f = std::fopen(broken.c_str(), "w");
        std::fputs("{\"id\":\"a\",\"group\":\"g\",\"reward\":1,\"turns\":[]}\n{\"id\":\"b\",\"reward\":\"high\"}\n", f);
        std::fclose(f);
    }
    const std::string bad = tryFile(broken);
    QVERIFY2(bad.find("broken.jsonl") != std::string::npos && bad.find(":2") != std::string::npos, bad.c_str());
    const std::string none = path("none.jsonl");
    {
        FILE* f = std::fopen(none.c_str(), "w");
        std::fputs("{\"id\":\"a\",\"group\":\"g\",\"reward\":0,\"turns\":[{\"observation\":\"o\",\"action\":\"a\"}]}\n", f);
        std::fclose(f);
    }
    const std::string empty = tryFile(none);
    QVERIFY2(empty.find("none of its 1 trajectories succeeded") != std::string::npos, empty.c_str());
}

QTEST_GUILESS_MAIN(TestLearnOutage)
#include "tst_learn_outage.moc"
