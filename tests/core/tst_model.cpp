// The data model: role names, defaults of optional fields, batch grouping.
#include "core/model/progress.h"
#include "core/model/trajectory.h"

#include "testutil.h"

#include <QtTest/QTest>

using namespace creditlab;

Q_DECLARE_METATYPE(creditlab::Role)

class TestModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void roleNameAndParse_data()
    {
        QTest::addColumn<Role>("role");
        QTest::addColumn<QString>("name");
        QTest::newRow("D") << Role::D << "D";
        QTest::newRow("E") << Role::E << "E";
        QTest::newRow("N") << Role::N << "N";
        QTest::newRow("R") << Role::R << "R";
    }

    void roleNameAndParse()
    {
        QFETCH(Role, role);
        QFETCH(QString, name);
        const std::string expected = name.toStdString();
        QCOMPARE(std::string(roleName(role)), expected);
        const auto parsed = parseRole(expected);
        QVERIFY(parsed.has_value());
        QCOMPARE(*parsed, role);
    }

    void parseRoleRejects_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("empty") << QByteArray("");
        QTest::newRow("lowercase d") << QByteArray("d");
        QTest::newRow("two letters") << QByteArray("DE");
        QTest::newRow("unknown X") << QByteArray("X");
        QTest::newRow("space") << QByteArray(" ");
        QTest::newRow("D with space") << QByteArray("D ");
        QTest::newRow("NUL") << QByteArray("\0", 1);
    }

    void parseRoleRejects()
    {
        QFETCH(QByteArray, text);
        const auto parsed = parseRole(std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
        QVERIFY(!parsed.has_value());
    }

    void turnDefaults()
    {
        Turn u;
        u.observation = "room";
        u.action = "look";
        QCOMPARE(u.rewardOrDefault(), 0.0);
        QCOMPARE(u.validOrDefault(), true);
        QCOMPARE(u.stateKey(), std::string("room"));
        // stateKey is a reference to the observation when no state is given.
        QCOMPARE(&u.stateKey(), &u.observation);

        u.reward = -0.5;
        u.valid = false;
        u.state = "loc=1";
        QCOMPARE(u.rewardOrDefault(), -0.5);
        QCOMPARE(u.validOrDefault(), false);
        QCOMPARE(u.stateKey(), std::string("loc=1"));

        // An explicit empty state is a state, not "absent".
        u.state = std::string();
        QCOMPARE(u.stateKey(), std::string());
        // An explicit valid=true and reward=0 read the same as the defaults but stay distinct.
        Turn v = u;
        v.valid = true;
        v.reward = 0.0;
        QCOMPARE(v.validOrDefault(), true);
        QCOMPARE(v.rewardOrDefault(), 0.0);
        Turn w = v;
        w.valid.reset();
        w.reward.reset();
        QVERIFY(!(v == w));
    }

    void successOrDefault_data()
    {
        QTest::addColumn<double>("reward");
        QTest::addColumn<int>("success"); // -1 absent, 0 false, 1 true
        QTest::addColumn<bool>("expected");
        QTest::newRow("positive reward, default") << 1.0 << -1 << true;
        QTest::newRow("tiny positive reward, default") << 1e-300 << -1 << true;
        QTest::newRow("zero reward, default") << 0.0 << -1 << false;
        QTest::newRow("negative zero reward, default") << -0.0 << -1 << false;
        QTest::newRow("negative reward, default") << -1.0 << -1 << false;
        QTest::newRow("positive reward, explicit false") << 1.0 << 0 << false;
        QTest::newRow("zero reward, explicit true") << 0.0 << 1 << true;
        QTest::newRow("negative reward, explicit true") << -2.0 << 1 << true;
        QTest::newRow("positive reward, explicit true") << 0.5 << 1 << true;
    }

    void successOrDefault()
    {
        QFETCH(double, reward);
        QFETCH(int, success);
        QFETCH(bool, expected);
        Trajectory t;
        t.reward = reward;
        if (success >= 0)
            t.success = success == 1;
        QCOMPARE(t.successOrDefault(), expected);
    }

    void iterationOrDefault()
    {
        Trajectory t;
        QCOMPARE(t.iterationOrDefault(), std::int64_t(0));
        t.iteration = 42;
        QCOMPARE(t.iterationOrDefault(), std::int64_t(42));
    }

    void batchGroupsByFirstAppearance()
    {
        // Groups: b, a, c in first-appearance order; members keep input order.
        std::vector<Trajectory> in;
        in.push_back(test::minimalTrajectory("t0", "b", 1.0, 1));
        in.push_back(test::minimalTrajectory("t1", "a", 0.0, 2));
        in.push_back(test::minimalTrajectory("t2", "b", 0.0, 3));
        in.push_back(test::minimalTrajectory("t3", "c", 1.0, 0));
        in.push_back(test::minimalTrajectory("t4", "a", 1.0, 4));
        in.push_back(test::minimalTrajectory("t5", "b", 1.0, 5));
        const std::vector<Trajectory> copy = in;

        const Batch batch = Batch::fromTrajectories(std::move(in));
        QCOMPARE(batch.trajectories.size(), std::size_t(6));
        QVERIFY(batch.trajectories == copy); // order and content unchanged
        QCOMPARE(batch.groups.size(), std::size_t(3));
        QCOMPARE(batch.groups[0].key, std::string("b"));
        QCOMPARE(batch.groups[0].members, (std::vector<std::size_t> { 0, 2, 5 }));
        QCOMPARE(batch.groups[1].key, std::string("a"));
        QCOMPARE(batch.groups[1].members, (std::vector<std::size_t> { 1, 4 }));
        QCOMPARE(batch.groups[2].key, std::string("c"));
        QCOMPARE(batch.groups[2].members, (std::vector<std::size_t> { 3 }));
        QCOMPARE(batch.turnCount(), std::size_t(1 + 2 + 3 + 0 + 4 + 5));
    }

    void batchKeysAreExact()
    {
        // Group keys compare as whole strings: a prefix, a different case or an empty key are
        // different groups, and the keys survive the move of the trajectories.
        std::vector<Trajectory> in;
        in.push_back(test::minimalTrajectory("t0", "it1-task1", 1.0, 1));
        in.push_back(test::minimalTrajectory("t1", "it1-task10", 1.0, 1));
        in.push_back(test::minimalTrajectory("t2", "IT1-task1", 1.0, 1));
        in.push_back(test::minimalTrajectory("t3", "", 1.0, 1));
        in.push_back(test::minimalTrajectory("t4", "it1-task1", 1.0, 1));
        const Batch batch = Batch::fromTrajectories(std::move(in));
        QCOMPARE(batch.groups.size(), std::size_t(4));
        QCOMPARE(batch.groups[0].key, std::string("it1-task1"));
        QCOMPARE(batch.groups[0].members, (std::vector<std::size_t> { 0, 4 }));
        QCOMPARE(batch.groups[1].key, std::string("it1-task10"));
        QCOMPARE(batch.groups[2].key, std::string("IT1-task1"));
        QCOMPARE(batch.groups[3].key, std::string(""));
        QCOMPARE(batch.groups[3].members, (std::vector<std::size_t> { 3 }));
        for (const Group& g : batch.groups)
            for (std::size_t m : g.members)
                QCOMPARE(batch.trajectories[m].group, g.key);
    }

    void emptyBatch()
    {
        const Batch batch = Batch::fromTrajectories({});
        QVERIFY(batch.trajectories.empty());
        QVERIFY(batch.groups.empty());
        QCOMPARE(batch.turnCount(), std::size_t(0));
    }

    void largeBatchGroupsAreStable()
    {
        // Enough groups to force the index map to rehash while group keys are referenced.
        std::vector<Trajectory> in;
        for (int i = 0; i < 3000; ++i)
            in.push_back(test::minimalTrajectory("t" + std::to_string(i), "g" + std::to_string(i % 1000), 0.0, 1));
        const Batch batch = Batch::fromTrajectories(std::move(in));
        QCOMPARE(batch.groups.size(), std::size_t(1000));
        for (std::size_t g = 0; g < batch.groups.size(); ++g) {
            QCOMPARE(batch.groups[g].key, "g" + std::to_string(g));
            QCOMPARE(batch.groups[g].members, (std::vector<std::size_t> { g, g + 1000, g + 2000 }));
        }
        QCOMPARE(batch.turnCount(), std::size_t(3000));
    }

    void progressFractionAndEta()
    {
        Progress p;
        QCOMPARE(p.fraction(), 0.0); // total unknown
        QCOMPARE(p.etaSeconds(), -1.0);
        p.total = 200;
        p.done = 50;
        QCOMPARE(p.fraction(), 0.25);
        QCOMPARE(p.etaSeconds(), -1.0); // no time elapsed yet
        p.elapsedSeconds = 10.0;
        QCOMPARE(p.etaSeconds(), 30.0); // 10 s for a quarter: 30 s for the rest
        p.done = 200;
        QCOMPARE(p.fraction(), 1.0);
        QCOMPARE(p.etaSeconds(), 0.0);
        QCOMPARE(std::string(Cancelled().what()), std::string("cancelled"));
    }
};

QTEST_GUILESS_MAIN(TestModel)
#include "tst_model.moc"
