// The Store's trajectories, turns, credits and labels.
#include "core/storage/store.h"

#include "testutil.h"

#include <QTemporaryDir>
#include <QtTest/QTest>

#include <cmath>
#include <limits>

using namespace creditlab;
using test::isTimestamp;
using test::newRun;

// Declarations first: moc mis-reads raw string literals inside a class body.
class TestStoreTrajectories : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void trajectoryRoundTrip_data();
    void trajectoryRoundTrip();
    void trajectoryListsAndIterations();
    void groupsKeepImportedApart();
    void duplicateIdInRunIsRefused();
    void transactionRollsBack();
    void insertTrajectoryIsAtomic();
    void credits();
    void writeCreditsIsAtomic();
    void tokenSegments();
    void damagedTokenSegmentIsNamed();
    void humanLabels();
    void judgeLabels();

private:
    std::int64_t count(const std::string& sql) { return m_store->database().scalarInt(sql); }
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Store> m_store;
};

void TestStoreTrajectories::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_store = std::make_unique<Store>(m_dir->filePath("runs.db").toStdString());
}

void TestStoreTrajectories::cleanup()
{
    m_store.reset();
    m_dir.reset();
}

void TestStoreTrajectories::trajectoryRoundTrip_data()
{
    QTest::addColumn<int>("which");
    QTest::newRow("minimal") << 0;
    QTest::newRow("every optional field") << 1;
    QTest::newRow("no turns") << 2;
    QTest::newRow("embedded NUL bytes") << 3;
    QTest::newRow("unicode and escapes") << 4;
    QTest::newRow("empty strings and extreme numbers") << 5;
    QTest::newRow("many turns") << 6;
}

void TestStoreTrajectories::trajectoryRoundTrip()
{
    QFETCH(int, which);
    Trajectory t;
    switch (which) {
    case 0:
        t = test::minimalTrajectory("min", "g", 0.0, 1);
        break;
    case 1:
        t = test::fullTrajectory("full", "g");
        t.turns.push_back(t.turns[0]);
        t.turns[0].tokens = TokenSpan { 3, 17 };
        t.turns[1].tokens = TokenSpan { 17, 40 };
        t.turns[1].role = Role::D;
        t.turns[1].valid = true;
        t.turns.push_back(t.turns[0]); // no token span after two with one: the binding must not leak
        t.turns[2].tokens.reset();
        t.turns[2].extra.clear();
        t.turns[2].feedback.reset();
        break;
    case 2:
        t = test::minimalTrajectory("none", "g", 1.0, 0);
        t.success = true;
        break;
    case 3: {
        const std::string nul("a\0b\0", 4);
        t = test::minimalTrajectory(std::string("id\0x", 4), nul, 1.0, 2);
        t.task.key = nul;
        t.task.env = nul;
        t.task.goal = nul;
        for (Turn& u : t.turns) {
            u.observation = std::string("\0obs\0", 5);
            u.action = nul;
            u.feedback = nul;
            u.state = nul;
            u.roleSource = nul;
        }
        t.extra = R"("n":"\u0000")";
        break;
    }
    case 4:
        t = test::minimalTrajectory("\xF0\x9F\x98\x80", "caf\xC3\xA9", 0.5, 2);
        t.turns[0].observation = "line1\nline2\ttab \"quoted\" \\ \x01";
        t.turns[1].action = "\xE6\x97\xA5\xE6\x9C\xAC";
        break;
    case 5:
        t = test::minimalTrajectory("e", "", -1e-300, 1);
        t.task.key = "";
        t.turns[0].observation.clear();
        t.turns[0].action.clear();
        t.turns[0].feedback = "";
        t.turns[0].reward = 1.7976931348623157e308;
        t.turns[0].progress = 0.0;
        t.turns[0].score = 1.0;
        t.turns[0].tokens = TokenSpan { 0, 0 };
        t.iteration = 0;
        t.success = false;
        break;
    case 6:
        t = test::minimalTrajectory("many", "g", 1.0, 300);
        for (std::size_t i = 0; i < t.turns.size(); ++i)
            t.turns[i].role = static_cast<Role>(i % 4);
        break;
    }
    const std::int64_t run = m_store->createRun(newRun("r"));
    const std::int64_t row = m_store->insertTrajectory(run, 0, t);
    QVERIFY(row > 0);
    const Trajectory back = m_store->loadTrajectory(row);
    CL_COMPARE_TRAJ(back, t);
    QCOMPARE(back.turns.size(), t.turns.size());
    for (std::size_t i = 0; i < t.turns.size(); ++i)
        QVERIFY(back.turns[i].tokens == t.turns[i].tokens); // not in the JSONL text, so check it directly
    std::vector<Trajectory> visited;
    QVERIFY(m_store->forEachTrajectory(run, std::nullopt, [&](const Trajectory& x) {
        visited.push_back(x);
        return true;
    }));
    QCOMPARE(visited.size(), std::size_t(1));
    CL_COMPARE_TRAJ(visited[0], t);
}

void TestStoreTrajectories::trajectoryListsAndIterations()
{
    Store& s = *m_store;
    const std::int64_t run = s.createRun(newRun("r"));
    const std::int64_t other = s.createRun(newRun("o"));
    // Inserted out of order: the lists follow `ord`, not insertion order.
    const int ords[] = { 3, 0, 4, 1, 2 };
    const std::optional<std::int64_t> iters[] = { 2, std::nullopt, 1, 0, 2 };
    std::vector<std::int64_t> rowByOrd(5);
    for (int i = 0; i < 5; ++i) {
        Trajectory t = test::minimalTrajectory("t" + std::to_string(ords[i]), "g" + std::to_string(i % 2), i * 0.5, i);
        t.iteration = iters[i];
        t.task.env = "env" + std::to_string(i);
        rowByOrd[ords[i]] = s.insertTrajectory(run, ords[i], t);
    }
    s.insertTrajectory(other, 0, test::minimalTrajectory("x", "g", 1.0, 1));

    const auto all = s.trajectories(run);
    QCOMPARE(all.size(), std::size_t(5));
    for (int k = 0; k < 5; ++k) {
        QCOMPARE(all[k].id, "t" + std::to_string(k));
        QCOMPARE(all[k].rowId, rowByOrd[k]);
    }
    // ord 3 was inserted first (i = 0: iteration 2, reward 0, no turns); ord 2 last (i = 4).
    QCOMPARE(all[3].iteration, std::optional<std::int64_t>(2));
    QCOMPARE(all[3].turnCount, std::int64_t(0));
    QCOMPARE(all[3].task.env, std::optional<std::string>("env0"));
    QCOMPARE(all[3].group, std::string("g0"));
    QCOMPARE(all[3].successOrDefault(), false);
    QCOMPARE(all[2].turnCount, std::int64_t(4));
    QCOMPARE(all[2].reward, 2.0);
    QCOMPARE(all[2].successOrDefault(), true);
    QVERIFY(!all[0].iteration);

    QCOMPARE(s.iterations(run), (std::vector<std::int64_t> { 0, 1, 2 }));
    auto ids = [](const std::vector<TrajectoryInfo>& v) {
        std::vector<std::string> out;
        for (const auto& t : v)
            out.push_back(t.id);
        return out;
    };
    // Iteration 0 includes trajectories without an iteration.
    QCOMPARE(ids(s.trajectories(run, 0)), (std::vector<std::string> { "t0", "t1" }));
    QCOMPARE(ids(s.trajectories(run, 1)), (std::vector<std::string> { "t4" }));
    QCOMPARE(ids(s.trajectories(run, 2)), (std::vector<std::string> { "t2", "t3" }));
    QVERIFY(s.trajectories(run, 7).empty());

    std::vector<std::string> seen;
    QVERIFY(s.forEachTrajectory(run, 2, [&](const Trajectory& t) {
        seen.push_back(t.id);
        return true;
    }));
    QCOMPARE(seen, (std::vector<std::string> { "t2", "t3" }));
    seen.clear();
    QVERIFY(!s.forEachTrajectory(run, std::nullopt, [&](const Trajectory& t) {
        seen.push_back(t.id);
        return seen.size() < 2;
    }));
    QCOMPARE(seen, (std::vector<std::string> { "t0", "t1" }));

    QVERIFY_THROWS_EXCEPTION(StoreError, s.loadTrajectory(999999));
}

/// Groups of trajectories without an iteration (imported, env rollout) are groups of their own, apart from iteration
/// 0's groups of the same key, and their trajectories are found without an iteration (the Trees page, issue 20).
void TestStoreTrajectories::groupsKeepImportedApart()
{
    Store& s = *m_store;
    const std::int64_t run = s.createRun(newRun("r"));
    const std::int64_t other = s.createRun(newRun("o"));
    struct Row {
        const char* id;
        const char* group;
        std::optional<std::int64_t> iteration;
        bool evaluation;
    };
    const Row rows[] = { { "a0", "g", std::nullopt, false }, { "b0", "h", std::nullopt, false },
        { "a1", "g", std::nullopt, false }, { "c0", "g", 0, false }, { "d0", "g", 1, true }, { "c1", "g", 0, false } };
    for (std::size_t i = 0; i < std::size(rows); ++i) {
        Trajectory t = test::minimalTrajectory(rows[i].id, rows[i].group, 0.0, 1);
        t.iteration = rows[i].iteration;
        t.task.key = std::string("task-") + (rows[i].evaluation ? rows[i].id : rows[i].group); // d0: its own task
        s.insertTrajectory(run, std::int64_t(i), t, rows[i].evaluation);
    }
    Trajectory mixed = test::minimalTrajectory("d1", "g", 0.0, 1); // an evaluation group over several tasks
    mixed.iteration = 1;
    mixed.task.key = "another task";
    s.insertTrajectory(run, 6, mixed, true);
    s.insertTrajectory(other, 0, test::minimalTrajectory("x", "g", 1.0, 1));

    const std::vector<GroupInfo> groups = s.groups(run);
    QCOMPARE(groups.size(), std::size_t(4));
    QVERIFY(!groups[0].iteration);
    QCOMPARE(groups[0].group, std::string("g"));
    QCOMPARE(groups[0].rollouts, std::int64_t(2));
    QCOMPARE(groups[0].task, std::optional<std::string>("task-g"));
    QVERIFY(!groups[1].iteration);
    QCOMPARE(groups[1].group, std::string("h"));
    QCOMPARE(groups[2].iteration, std::optional<std::int64_t>(0));
    QCOMPARE(groups[2].rollouts, std::int64_t(2));
    QCOMPARE(groups[3].iteration, std::optional<std::int64_t>(1)); // an evaluation group is listed too
    QCOMPARE(groups[3].rollouts, std::int64_t(2));
    QVERIFY(!groups[3].task); // its trajectories' tasks differ
    QVERIFY(s.groups(run + 100).empty());

    auto ids = [](const std::vector<TrajectoryInfo>& v) {
        std::vector<std::string> out;
        for (const auto& t : v)
            out.push_back(t.id);
        return out;
    };
    QCOMPARE(ids(s.groupTrajectories(run, std::nullopt, "g")), (std::vector<std::string> { "a0", "a1" }));
    QCOMPARE(ids(s.groupTrajectories(run, 0, "g")), (std::vector<std::string> { "c0", "c1" }));
    QCOMPARE(ids(s.groupTrajectories(run, 1, "g")), (std::vector<std::string> { "d0", "d1" }));
    QCOMPARE(ids(s.groupTrajectories(other, std::nullopt, "g")), (std::vector<std::string> { "x" }));
    QVERIFY(s.groupTrajectories(run, std::nullopt, "zz").empty());
}

void TestStoreTrajectories::duplicateIdInRunIsRefused()
{
    const std::int64_t a = m_store->createRun(newRun("a"));
    const std::int64_t b = m_store->createRun(newRun("b"));
    m_store->insertTrajectory(a, 0, test::minimalTrajectory("same", "g", 0.0, 1));
    QVERIFY_THROWS_EXCEPTION(StoreError, m_store->insertTrajectory(a, 1, test::minimalTrajectory("same", "g", 0.0, 1)));
    m_store->insertTrajectory(b, 0, test::minimalTrajectory("same", "g", 0.0, 1)); // other run: fine
    QCOMPARE(count("SELECT count(*) FROM trajectory"), std::int64_t(2));
    QCOMPARE(count("SELECT count(*) FROM turn"), std::int64_t(2));
}

void TestStoreTrajectories::transactionRollsBack()
{
    Store& s = *m_store;
    {
        auto tx = s.begin();
        const std::int64_t run = s.createRun(newRun("rolled back"));
        s.insertTrajectory(run, 0, test::minimalTrajectory("t", "g", 0.0, 2));
        QCOMPARE(s.runs().size(), std::size_t(1)); // visible inside the transaction
    }
    QVERIFY(s.runs().empty());
    QCOMPARE(count("SELECT count(*) FROM turn"), std::int64_t(0));
    {
        auto tx = s.begin();
        const std::int64_t run = s.createRun(newRun("kept"));
        const std::pair<std::string, double> m[] = { { "loss", 1.0 } };
        s.writeMetrics(run, 0, m); // nested: joins the open transaction
        tx->commit();
    }
    QCOMPARE(s.runs().size(), std::size_t(1));
    QCOMPARE(s.metrics(s.runs()[0].id).size(), std::size_t(1));
}

void TestStoreTrajectories::insertTrajectoryIsAtomic()
{
    // Outside a caller's transaction, insertTrajectory must run in its own (store.h: "Writes below run in
    // the caller's transaction when there is one, else in their own"): a failure on the third turn
    // leaves neither the trajectory row nor its first turns.
    Store& s = *m_store;
    const std::int64_t run = s.createRun(newRun("r"));
    s.database().exec("CREATE TEMP TRIGGER inject BEFORE INSERT ON main.turn WHEN NEW.idx = 2 "
                      "BEGIN SELECT RAISE(ABORT, 'injected failure'); END");
    QVERIFY_THROWS_EXCEPTION(StoreError, s.insertTrajectory(run, 0, test::minimalTrajectory("t", "g", 1.0, 4)));
    s.database().exec("DROP TRIGGER temp.inject");
    QCOMPARE(count("SELECT count(*) FROM turn"), std::int64_t(0));
    QCOMPARE(count("SELECT count(*) FROM trajectory"), std::int64_t(0));
    QCOMPARE(s.run(run)->trajectoryCount, std::int64_t(0));
    // And a retry succeeds.
    s.insertTrajectory(run, 0, test::minimalTrajectory("t", "g", 1.0, 4));
    QCOMPARE(s.run(run)->turnCount, std::int64_t(4));
}

void TestStoreTrajectories::credits()
{
    Store& s = *m_store;
    const std::int64_t run = s.createRun(newRun("r"));
    const std::int64_t other = s.createRun(newRun("o"));
    const std::int64_t t1 = s.insertTrajectory(run, 0, test::minimalTrajectory("a", "g", 1.0, 3));
    const std::int64_t t2 = s.insertTrajectory(run, 1, test::minimalTrajectory("b", "g", 0.0, 3));
    const std::int64_t t3 = s.insertTrajectory(other, 0, test::minimalTrajectory("c", "g", 0.0, 3));
    QVERIFY(s.credits(t1, "grpo").empty());
    QVERIFY(s.creditMethods(run).empty());
    const double grpo[] = { 0.5, -0.5, 0.25 };
    const double triage[] = { 1.0, 0.0, -1e-9 };
    const std::string details[] = { R"({"role":"D"})", R"({"role":"N"})" };
    s.writeCredits(t1, "grpo", grpo);
    s.writeCredits(t1, "triage", triage, details);
    s.writeCredits(t2, "grpo", grpo);
    s.writeCredits(t3, "other-method", grpo);
    QCOMPARE(s.credits(t1, "grpo"), (std::vector<double> { 0.5, -0.5, 0.25 }));
    QCOMPARE(s.credits(t1, "triage"), (std::vector<double> { 1.0, 0.0, -1e-9 }));
    QCOMPARE(s.creditMethods(run), (std::vector<std::string> { "grpo", "triage" }));
    QCOMPARE(s.creditMethods(other), (std::vector<std::string> { "other-method" }));
    // Details default to "{}" where none is given.
    Statement st
        = s.database().prepare("SELECT details FROM credit WHERE trajectory_id = ? AND method = 'triage' ORDER BY idx");
    st.bind(1, t1);
    std::vector<std::string> got;
    while (st.step())
        got.push_back(st.columnText(0));
    QCOMPARE(got, (std::vector<std::string> { R"({"role":"D"})", R"({"role":"N"})", "{}" }));
    // Rewriting replaces the values.
    const double again[] = { 2.0, 3.0, 4.0 };
    s.writeCredits(t1, "grpo", again);
    QCOMPARE(s.credits(t1, "grpo"), (std::vector<double> { 2.0, 3.0, 4.0 }));
    QCOMPARE(s.credits(t2, "grpo"), (std::vector<double> { 0.5, -0.5, 0.25 }));
}

void TestStoreTrajectories::writeCreditsIsAtomic()
{
    // Non-finite advantages (e.g. a zero-variance group divided by its std) are refused, naming the
    // method and the turn, and nothing of that call is written.
    Store& s = *m_store;
    const std::int64_t run = s.createRun(newRun("r"));
    const std::int64_t t = s.insertTrajectory(run, 0, test::minimalTrajectory("a", "g", 1.0, 3));
    for (const double bad : { std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
             -std::numeric_limits<double>::infinity() }) {
        const double adv[] = { 0.5, -0.5, bad };
        try {
            s.writeCredits(t, "grpo", adv);
            QFAIL("a non-finite credit was accepted");
        } catch (const StoreError& e) {
            QVERIFY2(std::string(e.what()).find("grpo") != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("turn 2") != std::string::npos, e.what());
        }
        QCOMPARE(s.credits(t, "grpo"), std::vector<double> {});
    }
    // A failure while writing (injected on the third row) leaves none of the call's rows either.
    s.database().exec("CREATE TEMP TRIGGER inject BEFORE INSERT ON main.credit WHEN NEW.idx = 2 "
                      "BEGIN SELECT RAISE(ABORT, 'injected failure'); END");
    const double adv[] = { 0.5, -0.5, 0.25 };
    QVERIFY_THROWS_EXCEPTION(StoreError, s.writeCredits(t, "grpo", adv));
    s.database().exec("DROP TRIGGER temp.inject");
    QCOMPARE(s.credits(t, "grpo"), std::vector<double> {});
    QVERIFY(s.creditMethods(run).empty());
    s.writeCredits(t, "grpo", adv);
    QCOMPARE(s.credits(t, "grpo"), (std::vector<double> { 0.5, -0.5, 0.25 }));
}

namespace {
TokenSegment segment(int index, std::size_t n)
{
    TokenSegment s;
    s.segment = index;
    for (std::size_t i = 0; i < n; ++i) {
        const bool action = i % 3 == 2;
        s.tokens.push_back(static_cast<std::int32_t>(i * 1000 + 151'643)); // past 16 bits
        s.pieces.push_back(i == 0 ? std::string("<|im_start|>") : i == 1 ? std::string("\"q\"\n\u00e9") : " x");
        s.turns.push_back(action ? static_cast<std::int32_t>(i / 3) : -1);
        s.mask.push_back(action ? 1 : 0);
        const float none = std::numeric_limits<float>::quiet_NaN();
        s.behaviour.push_back(action ? -0.25F * static_cast<float>(i) : none);
        s.current.push_back(action ? -0.25F * static_cast<float>(i) - 1e-7F : none);
        s.advantage.push_back(action ? 1.5F : none);
    }
    return s;
}

/// Equal, NaN equal to NaN.
bool same(const std::vector<float>& a, const std::vector<float>& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i]))))
            return false;
    return true;
}
} // namespace

void TestStoreTrajectories::tokenSegments()
{
    // A trajectory's token segments come back as written, in segment order; writing again replaces them; deleting
    // the run deletes them.
    Store& s = *m_store;
    const std::int64_t run = s.createRun(newRun("r"));
    const std::int64_t t = s.insertTrajectory(run, 0, test::minimalTrajectory("a", "g", 1.0, 3));
    QVERIFY(s.tokenSegments(t).empty());
    const std::vector<TokenSegment> written { segment(0, 9), segment(1, 4) };
    s.writeTokenSegments(t, written);
    const auto read = s.tokenSegments(t);
    QCOMPARE(read.size(), std::size_t(2));
    for (std::size_t k = 0; k < 2; ++k) {
        QCOMPARE(read[k].segment, written[k].segment);
        QCOMPARE(read[k].tokens, written[k].tokens);
        QCOMPARE(read[k].pieces, written[k].pieces);
        QCOMPARE(read[k].turns, written[k].turns);
        QCOMPARE(read[k].mask, written[k].mask);
        QVERIFY(same(read[k].behaviour, written[k].behaviour));
        QVERIFY(same(read[k].current, written[k].current));
        QVERIFY(same(read[k].advantage, written[k].advantage));
    }
    // Little-endian on disk: the first id's low byte comes first.
    Statement st = s.database().prepare("SELECT hex(substr(tokens, 1, 4)) FROM token_segment WHERE segment = 0");
    QVERIFY(st.step());
    QCOMPARE(st.columnText(0), std::string("5B500200")); // 151643 = 0x0002505B
    s.writeTokenSegments(t, std::vector<TokenSegment> { segment(0, 2) });
    QCOMPARE(s.tokenSegments(t).size(), std::size_t(1));
    QCOMPARE(s.tokenSegments(t).front().tokens.size(), std::size_t(2));
    // Arrays of different lengths are refused, and the stored segments stay.
    auto bad = segment(0, 3);
    bad.current.pop_back();
    try {
        s.writeTokenSegments(t, std::vector<TokenSegment> { bad });
        QFAIL("segments of unequal arrays were accepted");
    } catch (const StoreError& e) {
        QVERIFY2(std::string(e.what()).find("differ in length") != std::string::npos, e.what());
    }
    QCOMPARE(s.tokenSegments(t).front().tokens.size(), std::size_t(2));
    s.deleteRun(run);
    QCOMPARE(count("SELECT count(*) FROM token_segment"), std::int64_t(0));
}

void TestStoreTrajectories::damagedTokenSegmentIsNamed()
{
    // A row whose arrays disagree (a file edited by hand) is refused with its trajectory, segment and column.
    Store& s = *m_store;
    const std::int64_t run = s.createRun(newRun("r"));
    const std::int64_t t = s.insertTrajectory(run, 0, test::minimalTrajectory("a", "g", 1.0, 3));
    s.writeTokenSegments(t, std::vector<TokenSegment> { segment(0, 6) });
    for (const char* damage :
        { "UPDATE token_segment SET behaviour = substr(behaviour, 1, 8)", "UPDATE token_segment SET pieces = '[\"a\"]'",
            "UPDATE token_segment SET pieces = '[\"a'", "UPDATE token_segment SET tokens = x'010203'" }) {
        s.writeTokenSegments(t, std::vector<TokenSegment> { segment(0, 6) });
        s.database().exec(damage);
        try {
            s.tokenSegments(t);
            QFAIL(damage);
        } catch (const StoreError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("segment 0") != std::string::npos, e.what());
            QVERIFY2(what.find("trajectory " + std::to_string(t)) != std::string::npos, e.what());
            QVERIFY2(what.find("column ") != std::string::npos, e.what());
        }
    }
}

void TestStoreTrajectories::humanLabels()
{
    Store& s = *m_store;
    const std::int64_t run = s.createRun(newRun("r"));
    const std::int64_t t = s.insertTrajectory(run, 0, test::minimalTrajectory("a", "g", 1.0, 3));
    const std::int64_t u = s.insertTrajectory(run, 1, test::minimalTrajectory("b", "g", 1.0, 3));
    QVERIFY(s.humanLabels(t).empty());
    s.setHumanLabel(t, 1, "alice", Role::R);
    s.setHumanLabel(t, 0, "bob", Role::D);
    s.setHumanLabel(t, 0, "alice", Role::E);
    s.setHumanLabel(u, 2, "alice", Role::N);
    s.setHumanLabel(t, 0, "alice", Role::N); // replaces alice's label on turn 0
    auto labels = s.humanLabels(t);
    QCOMPARE(labels.size(), std::size_t(3));
    const std::tuple<int, std::string, Role> want[]
        = { { 0, "alice", Role::N }, { 0, "bob", Role::D }, { 1, "alice", Role::R } };
    for (std::size_t i = 0; i < labels.size(); ++i) {
        QCOMPARE(labels[i].trajectoryRowId, t);
        QCOMPARE(labels[i].turn, std::get<0>(want[i]));
        QCOMPARE(labels[i].annotator, std::get<1>(want[i]));
        QCOMPARE(labels[i].role, std::get<2>(want[i]));
        QVERIFY2(isTimestamp(labels[i].createdAt), labels[i].createdAt.c_str());
    }
    s.clearHumanLabel(t, 0, "bob");
    s.clearHumanLabel(t, 2, "nobody"); // nothing to clear: no error
    labels = s.humanLabels(t);
    QCOMPARE(labels.size(), std::size_t(2));
    QCOMPARE(labels[0].annotator, std::string("alice"));
    QCOMPARE(labels[1].turn, 1);
    QCOMPARE(s.humanLabels(u).size(), std::size_t(1));
    QCOMPARE(s.humanLabels(u)[0].role, Role::N);
}

void TestStoreTrajectories::judgeLabels()
{
    Store& s = *m_store;
    const std::int64_t run = s.createRun(newRun("r"));
    const std::int64_t t = s.insertTrajectory(run, 0, test::minimalTrajectory("a", "g", 1.0, 3));
    s.setJudgeLabel(JudgeLabel { t, 2, "gpt-judge", Role::D, 0.875, "reached the goal", "2026-01-02T03:04:05Z" });
    s.setJudgeLabel(JudgeLabel { t, 0, "rule-judge", Role::N, std::nullopt, std::nullopt, "" });
    s.setJudgeLabel(JudgeLabel { t, 0, "gpt-judge", Role::E, 0.5, std::nullopt, "" });
    auto labels = s.judgeLabels(t);
    QCOMPARE(labels.size(), std::size_t(3));
    QCOMPARE(labels[0].turn, 0);
    QCOMPARE(labels[0].judge, std::string("gpt-judge"));
    QCOMPARE(labels[0].role, Role::E);
    QCOMPARE(labels[0].confidence, std::optional<double>(0.5));
    QVERIFY(!labels[0].rationale);
    QVERIFY2(isTimestamp(labels[0].createdAt), labels[0].createdAt.c_str());
    QCOMPARE(labels[1].judge, std::string("rule-judge"));
    QCOMPARE(labels[1].role, Role::N);
    QVERIFY(!labels[1].confidence);
    QCOMPARE(labels[2].turn, 2);
    QCOMPARE(labels[2].role, Role::D);
    QCOMPARE(labels[2].confidence, std::optional<double>(0.875));
    QCOMPARE(labels[2].rationale, std::optional<std::string>("reached the goal"));
    QCOMPARE(labels[2].createdAt, std::string("2026-01-02T03:04:05Z"));
    QCOMPARE(labels[2].trajectoryRowId, t);
    // Same judge, same turn: replaced.
    s.setJudgeLabel(JudgeLabel { t, 2, "gpt-judge", Role::R, 0.25, "regressed", "" });
    labels = s.judgeLabels(t);
    QCOMPARE(labels.size(), std::size_t(3));
    QCOMPARE(labels[2].role, Role::R);
    QCOMPARE(labels[2].rationale, std::optional<std::string>("regressed"));
}

QTEST_GUILESS_MAIN(TestStoreTrajectories)
#include "tst_store_trajectories.moc"
