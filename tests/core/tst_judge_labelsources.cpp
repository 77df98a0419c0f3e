// Label sources of a stored run: listing (human, judge, turn roles), alignment on (trajectory, turn) with
// each turn's success, name resolution, errors, and writing judge labels back.
#include "core/judge/labelsources.h"
#include "core/judge/noisyjudge.h"

#include "testutil.h"

#include <QTemporaryDir>
#include <QtTest/QTest>

using namespace creditlab;
using namespace creditlab::judge;
using test::minimalTrajectory;
using test::newRun;

class TestJudgeLabelSources : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void listsSources();
    void alignsLabels();
    void loadsChosenSources();
    void errors();
    void resolvesNames_data();
    void resolvesNames();
    void storesJudgeLabels();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Store> m_store;
    std::int64_t m_run = 0;
    std::int64_t m_other = 0;
    std::vector<std::int64_t> m_rows;
};

void TestJudgeLabelSources::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_store = std::make_unique<Store>(m_dir->filePath("runs.db").toStdString());
    m_run = m_store->createRun(newRun("labelled"));
    m_other = m_store->createRun(newRun("other"));
    // t0: success, 3 turns, oracle roles on turns 0 and 2. t1: failure (reward 0), 2 turns, one role
    // without a source and one from a noisy judge. t2: success flag false despite reward 1, 1 turn.
    Trajectory t0 = minimalTrajectory("t0", "g", 1.0, 3);
    t0.turns[0].role = Role::D;
    t0.turns[0].roleSource = "judge:oracle";
    t0.turns[2].role = Role::R;
    t0.turns[2].roleSource = "judge:oracle";
    Trajectory t1 = minimalTrajectory("t1", "g", 0.0, 2);
    t1.turns[1].role = Role::E;
    t1.turns[0].role = Role::N;
    t1.turns[0].roleSource = "judge:noisy:accuracy=0.8,seed=0"; // a judge's roles written onto the turns
    Trajectory t2 = minimalTrajectory("t2", "g", 1.0, 1);
    t2.success = false;
    m_rows = { m_store->insertTrajectory(m_run, 0, t0), m_store->insertTrajectory(m_run, 1, t1),
        m_store->insertTrajectory(m_run, 2, t2) };
    m_store->setHumanLabel(m_rows[0], 0, "bob", Role::D);
    m_store->setHumanLabel(m_rows[0], 2, "bob", Role::N);
    m_store->setHumanLabel(m_rows[1], 0, "alice", Role::N);
    m_store->setHumanLabel(m_rows[2], 0, "alice", Role::R);
    m_store->setHumanLabel(m_rows[2], 5, "alice", Role::R); // past the end: ignored
    m_store->setJudgeLabel(JudgeLabel { m_rows[0], 1, "noisy:accuracy=0.8,seed=0", Role::E, {}, {}, {} });
    // Another run's labels never leak in.
    const std::int64_t foreign = m_store->insertTrajectory(m_other, 0, minimalTrajectory("x", "g", 1.0, 1));
    m_store->setHumanLabel(foreign, 0, "carol", Role::D);
}

void TestJudgeLabelSources::cleanup()
{
    m_store.reset();
    m_dir.reset();
}

void TestJudgeLabelSources::listsSources()
{
    const std::vector<std::string> expected { "human:alice", "human:bob", "judge:noisy:accuracy=0.8,seed=0",
        "turn:judge:noisy:accuracy=0.8,seed=0", "turn:judge:oracle", "turn:unspecified" };
    QVERIFY(labelSources(*m_store, m_run) == expected);
    QVERIFY(labelSources(*m_store, m_other) == std::vector<std::string> { "human:carol" });
    const std::int64_t empty = m_store->createRun(newRun("empty"));
    QVERIFY(labelSources(*m_store, empty).empty());
}

void TestJudgeLabelSources::alignsLabels()
{
    const RunLabels r = loadRunLabels(*m_store, m_run);
    QCOMPARE(r.runId, m_run);
    QCOMPARE(r.turns.size(), std::size_t(6));
    QCOMPARE(r.sources.size(), std::size_t(6));
    // Turn order: t0 turns 0..2, t1 turns 0..1, t2 turn 0.
    QCOMPARE(r.turns[3].trajectoryRowId, m_rows[1]);
    QCOMPARE(r.turns[4].turn, 1);
    QVERIFY(r.successFlags() == (std::vector<bool> { true, true, true, false, false, false }));
    using L = std::vector<std::optional<Role>>;
    const std::optional<Role> x;
    QVERIFY(*r.find("turn:judge:oracle") == (L { Role::D, x, Role::R, x, x, x }));
    QVERIFY(*r.find("turn:unspecified") == (L { x, x, x, x, Role::E, x }));
    QVERIFY(*r.find("turn:judge:noisy:accuracy=0.8,seed=0") == (L { x, x, x, Role::N, x, x }));
    QVERIFY(*r.find("human:bob") == (L { Role::D, x, Role::N, x, x, x }));
    QVERIFY(*r.find("human:alice") == (L { x, x, x, Role::N, x, Role::R }));
    QVERIFY(*r.find("judge:noisy:accuracy=0.8,seed=0") == (L { x, Role::E, x, x, x, x }));
    QCOMPARE(r.labelledCount("human:alice"), 2);
    QVERIFY(!r.find("human:carol"));
    QCOMPARE(r.labelledCount("human:carol"), 0);
}

void TestJudgeLabelSources::loadsChosenSources()
{
    const RunLabels r = loadRunLabels(*m_store, m_run, { "turn:judge:oracle", "human:bob" });
    QVERIFY(r.sources == (std::vector<std::string> { "turn:judge:oracle", "human:bob" }));
    QCOMPARE(r.labels.size(), std::size_t(2));
    QCOMPARE(r.labels[1][2], std::optional<Role>(Role::N));
    QVERIFY(!r.find("human:alice"));
}

void TestJudgeLabelSources::errors()
{
    try {
        loadRunLabels(*m_store, m_run, { "human:zed" });
        QFAIL("no error");
    } catch (const std::invalid_argument& e) {
        QVERIFY2(std::string(e.what()).find("no labels from 'human:zed'") != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).find("human:alice") != std::string::npos, e.what());
    }
    QVERIFY_THROWS_EXCEPTION(StoreError, loadRunLabels(*m_store, 999));
    QVERIFY_THROWS_EXCEPTION(StoreError, labelSources(*m_store, 999));
}

void TestJudgeLabelSources::resolvesNames_data()
{
    QTest::addColumn<QString>("wanted");
    QTest::addColumn<QString>("prefix");
    QTest::addColumn<QString>("expected"); // empty: an error
    QTest::newRow("exact") << "human:bob"
                           << ""
                           << "human:bob";
    QTest::newRow("annotator") << "alice"
                               << "human"
                               << "human:alice";
    QTest::newRow("annotator without kind") << "alice"
                                            << ""
                                            << "human:alice";
    QTest::newRow("judge name") << "noisy"
                                << "judge"
                                << "judge:noisy:accuracy=0.8,seed=0";
    QTest::newRow("judge with params prefix") << "noisy:accuracy=0.8"
                                              << "judge"
                                              << "judge:noisy:accuracy=0.8,seed=0";
    QTest::newRow("turn source") << "judge:oracle"
                                 << "turn"
                                 << "turn:judge:oracle";
    QTest::newRow("turn source by judge name") << "oracle"
                                               << ""
                                               << "turn:judge:oracle";
    QTest::newRow("shallowest match wins") << "noisy"
                                           << ""
                                           << "judge:noisy:accuracy=0.8,seed=0";
    QTest::newRow("unknown") << "zed"
                             << "human"
                             << "";
    QTest::newRow("wrong kind") << "alice"
                                << "judge"
                                << "";
    QTest::newRow("ambiguous kind") << "human"
                                    << ""
                                    << "";
}

void TestJudgeLabelSources::resolvesNames()
{
    QFETCH(QString, wanted);
    QFETCH(QString, prefix);
    QFETCH(QString, expected);
    const std::vector<std::string> sources = labelSources(*m_store, m_run);
    if (expected.isEmpty()) {
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument, resolveSource(sources, wanted.toStdString(), prefix.toStdString()));
        return;
    }
    QCOMPARE(resolveSource(sources, wanted.toStdString(), prefix.toStdString()), expected.toStdString());
}

void TestJudgeLabelSources::storesJudgeLabels()
{
    const RunLabels truth = loadRunLabels(*m_store, m_run, { "turn:judge:oracle" });
    NoisyJudge judge = NoisyJudge::resolve({ { "accuracy", "1" } });
    std::vector<std::optional<Role>> judged;
    for (std::size_t i = 0; i < truth.turns.size(); ++i)
        judged.push_back(truth.labels[0][i] ? std::optional(judge.judge(*truth.labels[0][i], truth.turns[i].success))
                                            : std::nullopt);
    QCOMPARE(storeJudgeLabels(*m_store, judge.tag(), truth.turns, judged), 2);
    const RunLabels back = loadRunLabels(*m_store, m_run, { "judge:" + judge.tag() });
    QVERIFY(back.labels[0] == truth.labels[0]);
    // Rewriting replaces, never duplicates.
    QCOMPARE(storeJudgeLabels(*m_store, judge.tag(), truth.turns, judged), 2);
    QCOMPARE(m_store->judgeLabels(m_rows[0]).size(), std::size_t(3));
}

QTEST_GUILESS_MAIN(TestJudgeLabelSources)
#include "tst_judge_labelsources.moc"
