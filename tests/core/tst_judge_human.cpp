// The `human` judge (issue 7 §5): stored human labels matched onto new rollouts by (task, state, action),
// majority and ties across annotators, the backing judge elsewhere, parameters, and live reloading.
#include "core/judge/humanjudge.h"
#include "core/judge/judge.h"

#include "testutil.h"

#include <QTemporaryDir>
#include <QtTest/QTest>

using namespace creditlab;
using namespace creditlab::judge;
using test::minimalTrajectory;
using test::newRun;

namespace {

/// A three-turn trajectory of task `task`: states s0..s2 (s1 only via `state`, the others through the
/// observation), actions "act 0".."act 2".
Trajectory taskTrajectory(const std::string& id, const std::string& task)
{
    Trajectory t = minimalTrajectory(id, "g", 1.0, 3);
    t.task.key = task;
    t.task.env = "household";
    t.turns[1].state = "s1";
    return t;
}

std::vector<std::optional<Role>> oracleOf(const Trajectory& t, Role role)
{
    return std::vector<std::optional<Role>>(t.turns.size(), role);
}

} // namespace

class TestJudgeHuman : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void storeListsLabelledTurns();
    void matchesByTaskStateAndAction();
    void majorityAndTies();
    void annotatorFilter();
    void noisyBackingAndParameters();
    void reloadsOnRestart();
    void withoutStoreEverythingIsBacking();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Store> m_store;
    std::int64_t m_row = 0;
};

void TestJudgeHuman::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_store = std::make_unique<Store>(m_dir->filePath("runs.db").toStdString());
    const auto run = m_store->createRun(newRun("imported"));
    m_row = m_store->insertTrajectory(run, 0, taskTrajectory("a", "household:seed=7"));
    m_store->insertTrajectory(run, 1, minimalTrajectory("no-task", "g", 0.0, 3)); // no task key: never matches
}

void TestJudgeHuman::cleanup()
{
    m_store.reset();
    m_dir.reset();
}

void TestJudgeHuman::storeListsLabelledTurns()
{
    m_store->setHumanLabel(m_row, 1, "alice", Role::R);
    m_store->setHumanLabel(m_row, 0, "bob", Role::E);
    const auto all = m_store->humanLabelledTurns();
    QCOMPARE(all.size(), std::size_t(2));
    QCOMPARE(all[0].task, std::string("household:seed=7"));
    QCOMPARE(all[0].env, std::string("household"));
    QCOMPARE(all[0].state, std::string("s1")); // the state key, not the observation
    QCOMPARE(all[0].action, std::string("act 1"));
    QCOMPARE(all[0].annotator, std::string("alice"));
    QVERIFY(all[0].role == Role::R);
    QCOMPARE(all[1].state, std::string("obs 0")); // no state: the observation
    QVERIFY(all[0].order < all[1].order);
    QCOMPARE(m_store->humanLabelledTurns("bob").size(), std::size_t(1));
    QVERIFY(m_store->humanLabelledTurns("carol").empty());
}

void TestJudgeHuman::matchesByTaskStateAndAction()
{
    m_store->setHumanLabel(m_row, 1, "alice", Role::R);
    auto judge = makeJudge("human", {}, m_store.get());
    judge->restart(1);
    // A new rollout of the same task through the same states and actions: turn 1 takes the human label.
    Trajectory same = taskTrajectory("new", "household:seed=7");
    auto v = judge->judge(same, oracleOf(same, Role::D));
    QCOMPARE(v.size(), std::size_t(3));
    QVERIFY(v[1].role == Role::R);
    QCOMPARE(v[1].score.value_or(-1), roleScore(Role::R));
    QCOMPARE(v[1].source.value_or(""), std::string("human:alice"));
    QVERIFY(v[0].role == Role::D && !v[0].source); // the oracle elsewhere
    QVERIFY(v[2].role == Role::D && !v[2].source);
    // Another action in that state, the same action in another state, or another task: no match.
    Trajectory otherAction = same;
    otherAction.turns[1].action = "act 9";
    QVERIFY(!judge->judge(otherAction, oracleOf(same, Role::D))[1].source);
    Trajectory otherState = same;
    otherState.turns[1].state = "s9";
    QVERIFY(!judge->judge(otherState, oracleOf(same, Role::D))[1].source);
    Trajectory otherTask = taskTrajectory("x", "household:seed=8");
    QVERIFY(!judge->judge(otherTask, oracleOf(same, Role::D))[1].source);
    const auto* human = dynamic_cast<HumanJudge*>(judge.get());
    QVERIFY(human);
    QCOMPARE(human->judgedTurns(), std::int64_t(12));
    QCOMPARE(human->humanTurns(), std::int64_t(1));
    QCOMPARE(judge->tag(), std::string("human:annotator=*,backing=oracle"));
}

void TestJudgeHuman::majorityAndTies()
{
    const auto run = m_store->createRun(newRun("more"));
    const auto second = m_store->insertTrajectory(run, 0, taskTrajectory("b", "household:seed=7"));
    // Turn 1 of both trajectories share a key. alice: R on a, E on b; bob: E on a → E wins 2:1.
    m_store->setHumanLabel(m_row, 1, "alice", Role::R);
    m_store->setHumanLabel(second, 1, "alice", Role::E);
    m_store->setHumanLabel(m_row, 1, "bob", Role::E);
    // Turn 2: alice D then carol N, one each: the later label (carol's N) wins the tie.
    m_store->setHumanLabel(m_row, 2, "alice", Role::D);
    m_store->setHumanLabel(m_row, 2, "carol", Role::N);
    auto judge = makeJudge("human", {}, m_store.get());
    Trajectory t = taskTrajectory("new", "household:seed=7");
    auto v = judge->judge(t, oracleOf(t, Role::D));
    QVERIFY(v[1].role == Role::E);
    QVERIFY(v[2].role == Role::N);
    QCOMPARE(v[2].source.value_or(""), std::string("human:carol"));
    // Relabelling makes alice's label the latest: the tie now goes to her D.
    m_store->setHumanLabel(m_row, 2, "alice", Role::D);
    judge->restart(2);
    v = judge->judge(t, oracleOf(t, Role::N));
    QVERIFY(v[2].role == Role::D);
    QCOMPARE(v[2].source.value_or(""), std::string("human:alice"));
}

void TestJudgeHuman::annotatorFilter()
{
    m_store->setHumanLabel(m_row, 1, "alice", Role::R);
    m_store->setHumanLabel(m_row, 1, "bob", Role::E);
    m_store->setHumanLabel(m_row, 1, "carol", Role::E);
    auto judge = makeJudge("human", { { "annotator", "alice" } }, m_store.get());
    Trajectory t = taskTrajectory("new", "household:seed=7");
    const auto v = judge->judge(t, oracleOf(t, Role::D));
    QVERIFY(v[1].role == Role::R); // bob and carol outvote alice, but only alice counts
    QCOMPARE(judge->tag(), std::string("human:annotator=alice,backing=oracle"));
}

void TestJudgeHuman::noisyBackingAndParameters()
{
    m_store->setHumanLabel(m_row, 1, "alice", Role::R);
    // A noisy backing judge that always says E (matrix rows mapping every role to E).
    auto judge = makeJudge("human",
        { { "backing", "noisy" }, { "matrix", "D:E=1,E:E=1,N:E=1,R:E=1" }, { "seed", "3" } }, m_store.get());
    Trajectory t = taskTrajectory("new", "household:seed=7");
    const auto v = judge->judge(t, oracleOf(t, Role::D));
    QVERIFY(v[0].role == Role::E && v[2].role == Role::E);
    QVERIFY(v[1].role == Role::R);
    QVERIFY(QString::fromStdString(judge->tag()).startsWith("human:annotator=*,backing=noisy:"));
    // Noisy keys need backing=noisy; unknown keys and bad values name the key.
    try {
        makeJudge("human", { { "accuracy", "0.7" } });
        QFAIL("accuracy without backing=noisy was accepted");
    } catch (const credit::ParamError& e) {
        QVERIFY2(std::string(e.what()).find("accuracy applies only with backing=noisy") != std::string::npos, e.what());
    }
    QVERIFY_THROWS_EXCEPTION(credit::ParamError, makeJudge("human", { { "colour", "red" } }));
    QVERIFY_THROWS_EXCEPTION(credit::ParamError, makeJudge("human", { { "backing", "gpt" } }));
    QVERIFY_THROWS_EXCEPTION(credit::ParamError, makeJudge("human", { { "backing", "noisy" }, { "accuracy", "2" } }));
    // The form's metadata: own keys first, then the backing judge's.
    const auto& specs = judgeParams("human");
    QCOMPARE(specs[0].name, std::string("annotator"));
    QCOMPARE(specs[1].name, std::string("backing"));
    QCOMPARE(specs[2].name, std::string("accuracy"));
}

void TestJudgeHuman::reloadsOnRestart()
{
    auto judge = makeJudge("human", {}, m_store.get());
    Trajectory t = taskTrajectory("new", "household:seed=7");
    QVERIFY(!judge->judge(t, oracleOf(t, Role::D))[0].source);
    // Labelled while the run trains (another connection, as the Annotate tab would): the next iteration sees it.
    {
        Store other(m_dir->filePath("runs.db").toStdString());
        other.setHumanLabel(m_row, 0, "alice", Role::N);
    }
    QVERIFY(!judge->judge(t, oracleOf(t, Role::D))[0].source); // not before the restart
    judge->restart(2);
    const auto v = judge->judge(t, oracleOf(t, Role::D));
    QVERIFY(v[0].role == Role::N);
    // Removing the label takes it back at the next restart.
    m_store->clearHumanLabel(m_row, 0, "alice");
    judge->restart(3);
    QVERIFY(!judge->judge(t, oracleOf(t, Role::D))[0].source);
}

void TestJudgeHuman::withoutStoreEverythingIsBacking()
{
    m_store->setHumanLabel(m_row, 1, "alice", Role::R);
    auto judge = makeJudge("human");
    Trajectory t = taskTrajectory("new", "household:seed=7");
    const auto v = judge->judge(t, oracleOf(t, Role::D));
    for (const auto& verdict : v)
        QVERIFY(verdict.role == Role::D && !verdict.source);
    // The backing oracle still needs the oracle roles.
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, judge->judge(t, {}));
}

QTEST_GUILESS_MAIN(TestJudgeHuman)
#include "tst_judge_human.moc"
