// Learning from human labels (issue 7 §5): a tiny TRIAGE run whose judge is the human labels of its database
// where they match (task, state, action), the oracle elsewhere, training on the labelled tasks
// (rl.task_pool=labelled). Labels given to one run's rollouts reach a second run with the same seed (whose first
// iteration repeats them), the turns say who labelled them, the run reports the human share per iteration, and
// a labelled pool without labels fails naming the key.
#include "core/env/environment.h"
#include "core/learn/torch/engine/trainer.h"
#include "core/storage/store.h"
#include "tests/learn/tinyconfig.h"

#include <QTemporaryDir>
#include <QtTest/QTest>

#include <map>
#include <set>
#include <string>

using namespace creditlab;
using namespace creditlab::learn;
using creditlab::testing::kTinyConfig;

namespace {

const std::set<std::uint64_t> kLabelledSeeds { 11, 12 };

/// Stores, for each labelled task, one-turn trajectories covering every admissible command in every state of
/// the expert's path, and labels each R by "alice" (the oracle would call the expert's steps D). Returns the
/// number of labels.
int storeLabelledNeighbourhood(Store& store)
{
    const auto run = store.createRun(NewRun { "labelled neighbourhood", RunKind::Import, RunStatus::Finished, {} });
    auto walker = env::makeEnvironment("household", { { "max_steps", "6" } });
    int labels = 0;
    std::int64_t ord = 0;
    auto tx = store.begin();
    for (const std::uint64_t seed : kLabelledSeeds) {
        walker->reset(seed, env::Split::Train);
        std::vector<std::string> path;
        for (int step = 0; step < 6 && !walker->done(); ++step) {
            const std::string state = walker->stateKey();
            const std::vector<std::string> commands = walker->admissibleCommands();
            for (const std::string& command : commands) {
                Trajectory t;
                t.id = "s" + std::to_string(seed) + "-" + std::to_string(ord);
                t.group = walker->taskKey();
                t.task.key = walker->taskKey();
                t.task.env = "household";
                Turn turn;
                turn.observation = "(neighbourhood)";
                turn.state = state;
                turn.action = command;
                t.turns.push_back(turn);
                const auto row = store.insertTrajectory(run, ord++, t);
                store.setHumanLabel(row, 0, "alice", Role::R);
                ++labels;
            }
            std::string expert;
            if (!walker->expertAction(expert))
                break;
            walker->step(expert);
        }
    }
    tx->commit();
    return labels;
}

} // namespace

class TestLearnHumanLabels : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void trainsOnHumanLabels();
    void labelledPoolNeedsLabels();
};

void TestLearnHumanLabels::trainsOnHumanLabels()
{
    QTemporaryDir dir;
    const std::string db = dir.filePath("runs.db").toStdString();
    {
        Store store(db);
        QVERIFY(storeLabelledNeighbourhood(store) > 20);
    }
    const std::vector<std::pair<std::string, std::string>> keys { { "credit.method", "triage" },
        { "judge.name", "human" }, { "rl.task_pool", "labelled" }, { "rl.iterations", "2" } };
    auto withKeys = [&](std::vector<std::pair<std::string, std::string>> extra) {
        extra.insert(extra.begin(), keys.begin(), keys.end());
        return TrainConfig::parse(kTinyConfig, "tiny.yaml", extra);
    };
    // Run A trains on the labelled tasks; then "bob" labels every turn of its first iteration E.
    Trainer first(withKeys({}), { db, "cpu" });
    const auto a = first.run([](const TrainProgress&) { return true; });
    QCOMPARE(a.iterationsDone, 2LL);
    Store store(db);
    int bobLabels = 0;
    for (const auto& info : store.trajectories(a.runId, 1)) {
        const Trajectory t = store.loadTrajectory(info.rowId);
        QVERIFY(t.task.key);
        QVERIFY2(*t.task.key == "household:seed=11" || *t.task.key == "household:seed=12", t.task.key->c_str());
        for (std::size_t k = 0; k < t.turns.size(); ++k) {
            store.setHumanLabel(info.rowId, static_cast<int>(k), "bob", Role::E);
            ++bobLabels;
        }
        bool tagged = false; // the judge's labels are stored under its tag beside the oracle's
        for (const auto& l : store.judgeLabels(info.rowId))
            tagged = tagged || l.judge == "human:annotator=*,backing=oracle";
        QVERIFY(tagged);
    }
    QVERIFY(bobLabels > 0);

    // Run B, the same seed with bob's labels only: its first iteration repeats A's rollouts (judging comes after
    // rolling out), so every turn of it takes bob's label.
    Trainer second(withKeys({ { "judge.annotator", "bob" } }), { db, "cpu" });
    const auto b = second.run([](const TrainProgress&) { return true; });
    QCOMPARE(b.iterationsDone, 2LL);
    int turns = 0;
    for (const auto& info : store.trajectories(b.runId, 1)) {
        const Trajectory t = store.loadTrajectory(info.rowId);
        for (const Turn& turn : t.turns) {
            ++turns;
            QCOMPARE(turn.roleSource.value_or(""), std::string("human:bob"));
            QVERIFY(turn.role == Role::E);
        }
    }
    QCOMPARE(turns, bobLabels);
    // Turns no label matches (iteration 2 may differ) come from the backing oracle, named by the judge's tag.
    for (const auto& info : store.trajectories(b.runId, 2))
        for (const Turn& turn : store.loadTrajectory(info.rowId).turns)
            QVERIFY(turn.roleSource == std::string("human:bob")
                || turn.roleSource == std::string("judge:human:annotator=bob,backing=oracle"));
    std::map<std::int64_t, double> share;
    for (const auto& m : store.metrics(b.runId))
        if (m.name == "judge/human_share")
            share[m.iteration] = m.value;
    QCOMPARE(share.size(), std::size_t(2));
    QCOMPARE(share[1], 1.0);
    QVERIFY(share[2] >= 0.0 && share[2] <= 1.0);
}

void TestLearnHumanLabels::labelledPoolNeedsLabels()
{
    QTemporaryDir dir;
    const std::string db = dir.filePath("runs.db").toStdString();
    const auto config = TrainConfig::parse(kTinyConfig, "tiny.yaml",
        { { "judge.name", "human" }, { "rl.task_pool", "labelled" }, { "rl.iterations", "1" },
            { "sft.expert_episodes", "2" }, { "sft.noisy_episodes", "0" } });
    Trainer trainer(config, { db, "cpu" });
    try {
        trainer.run([](const TrainProgress&) { return true; });
        QFAIL("a labelled task pool without labels trained");
    } catch (const std::exception& e) {
        QVERIFY2(std::string(e.what()).find("rl.task_pool=labelled") != std::string::npos, e.what());
    }
    Store store(db);
    const auto runs = store.runs();
    QCOMPARE(runs.size(), std::size_t(1));
    QCOMPARE(runs.front().status, RunStatus::Failed);
}

QTEST_GUILESS_MAIN(TestLearnHumanLabels)
#include "tst_learn_humanlabels.moc"
