// The rollout tree (issue 7 §1): the same nodes and counts as rtmc on hand-made groups and on random ones,
// re-convergence edges, the prefix-tree variant, statistics by hand, credits, follow-a-rollout, search, layout.
#include "core/credit/estimator.h"
#include "core/tree/rollouttree.h"
#include "core/tree/treelayout.h"
#include "credittestutil.h"

#include <QtTest/QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

using namespace creditlab;
using namespace creditlab::tree;

namespace {

struct Step {
    std::string state;
    std::string action;
    double reward = 0.0;
};

Trajectory traj(const std::string& id, double reward, const std::vector<Step>& steps)
{
    Trajectory t;
    t.id = id;
    t.group = "g";
    t.reward = reward;
    for (const Step& s : steps) {
        Turn u;
        u.observation = "You see " + s.state;
        u.state = s.state;
        u.action = s.action;
        if (s.reward != 0.0)
            u.reward = s.reward;
        t.turns.push_back(u);
    }
    return t;
}

/// rtmc.md §9 (as tst_credit_rtmc): R3 and R4 meet at "a.py:Vf|b.py:S".
std::vector<Trajectory> workedExample()
{
    return {
        traj("R1", 1.0,
            { { "", "view:full@a.py" }, { "a.py:Vf", "modify:replace:1111@a.py" }, { "a.py:M:1111,Vf", "finish" } }),
        traj("R2", 0.0,
            { { "", "view:full@a.py" }, { "a.py:Vf", "modify:replace:2222@a.py" }, { "a.py:M:2222,Vf", "finish" } }),
        traj("R3", 0.0, { { "", "view:full@a.py" }, { "a.py:Vf", "search@b.py" }, { "a.py:Vf|b.py:S", "finish" } }),
        traj("R4", 1.0, { { "", "search@b.py" }, { "b.py:S", "view:full@a.py" }, { "a.py:Vf|b.py:S", "finish" } }),
    };
}

credit::CreditResult rtmc(const std::vector<Trajectory>& group, double gamma, double kappa)
{
    return test::runMethod("rtmc", Batch::fromTrajectories(group),
        { { "gamma", QString::number(gamma, 'g', 17).toStdString() },
            { "kappa", QString::number(kappa, 'g', 17).toStdString() }, { "normalize", "false" } });
}

bool near(double a, double b) { return std::abs(a - b) < 1e-9; }

/// Every turn's node and edge carry rtmc's N_s, N_sa, Q, V and V' of that turn.
void compareWithRtmc(const std::vector<Trajectory>& group, double gamma, double kappa)
{
    const RolloutTree t = RolloutTree::build(group, { Merge::StateKey, gamma, kappa });
    const credit::CreditResult r = rtmc(group, gamma, kappa);
    const auto col = [&](const char* name) { return r.detail(name)->numbers; };
    const auto ns = col("N_s"), nsa = col("N_sa"), q = col("Q"), v = col("V"), vp = col("V_prime");
    for (std::uint32_t i = 0; i < group.size(); ++i)
        for (std::uint32_t k = 0; k < group[i].turns.size(); ++k) {
            const std::size_t at = r.offsets[i] + k;
            const Node& n = t.node(t.path(i)[k]);
            const Edge& e = t.edge(t.edgePath(i)[k]);
            QCOMPARE(n.key, group[i].turns[k].stateKey());
            QCOMPARE(e.source, t.path(i)[k]);
            QVERIFY2(near(n.visits, ns[at]), qPrintable(QStringLiteral("N(s) %1 vs %2").arg(n.visits).arg(ns[at])));
            QVERIFY(near(e.pairVisits, nsa[at]));
            QVERIFY(near(e.q, q[at]));
            QVERIFY(near(n.v, v[at]));
            QVERIFY(near(n.vPrime, vp[at]));
        }
    // One node per distinct state key, as rtmc's table.
    std::map<std::string, int> keys;
    for (const Trajectory& tr : group)
        for (const Turn& u : tr.turns)
            ++keys[u.stateKey()];
    QCOMPARE(t.statistics().stateNodes, keys.size());
}

std::vector<NodeId> sorted(std::vector<NodeId> v)
{
    std::sort(v.begin(), v.end());
    return v;
}

/// Layout invariants: distinct levels >= 1 apart, parents centred over visible children, depth = parent + 1.
void checkLayout(const RolloutTree& t, const TreeLayout& l)
{
    std::map<int, std::vector<double>> levels;
    for (NodeId id = 0; id < t.nodes().size(); ++id)
        if (l.visible[id])
            levels[l.depth[id]].push_back(l.x[id]);
    for (auto& [depth, xs] : levels) {
        std::sort(xs.begin(), xs.end());
        for (std::size_t k = 1; k < xs.size(); ++k)
            QVERIFY2(xs[k] - xs[k - 1] >= 1.0 - 1e-12, qPrintable(QStringLiteral("overlap on level %1").arg(depth)));
    }
    for (NodeId id = 0; id < t.nodes().size(); ++id) {
        if (!l.visible[id])
            continue;
        std::vector<double> xs;
        for (EdgeId e : t.node(id).out)
            if (t.edge(e).spanning && l.visible[t.edge(e).target]) {
                xs.push_back(l.x[t.edge(e).target]);
                QCOMPARE(l.depth[t.edge(e).target], l.depth[id] + 1);
            }
        if (!xs.empty())
            QVERIFY(
                near(l.x[id], (*std::min_element(xs.begin(), xs.end()) + *std::max_element(xs.begin(), xs.end())) / 2));
    }
}

} // namespace

class TestRolloutTree : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void workedExampleNodes();
    void matchesRtmc_data();
    void matchesRtmc();
    void matchesRtmcRandom();
    void reconvergenceEdges();
    void selfLoopAndFirstVisit();
    void prefixTree();
    void statistics();
    void credits();
    void followRollout();
    void search();
    void layout();
    void collapse();
    void emptyGroup();
};

void TestRolloutTree::workedExampleNodes()
{
    const RolloutTree t = RolloutTree::build(workedExample());
    const TreeStatistics s = t.statistics();
    QCOMPARE(s.stateNodes, std::size_t(6));
    QCOMPARE(s.terminalNodes, std::size_t(3)); // finish from M:1111, M:2222 and Vf|S (R3 and R4 share it)
    QCOMPARE(t.roots(), std::vector<NodeId> { t.findState("") });
    const std::map<std::string, double> visits { { "", 4 }, { "a.py:Vf", 3 }, { "b.py:S", 1 }, { "a.py:M:1111,Vf", 1 },
        { "a.py:M:2222,Vf", 1 }, { "a.py:Vf|b.py:S", 2 } };
    const std::map<std::string, double> vPrime { { "", 0.5 }, { "a.py:Vf", 0.4 }, { "b.py:S", 2.0 / 3 },
        { "a.py:M:1111,Vf", 2.0 / 3 }, { "a.py:M:2222,Vf", 1.0 / 3 }, { "a.py:Vf|b.py:S", 0.5 } };
    for (const auto& [key, n] : visits) {
        const NodeId id = t.findState(key);
        QVERIFY(id != kNone);
        QCOMPARE(t.node(id).visits, n);
        QCOMPARE(t.node(id).rollouts.size(), std::size_t(n));
        QVERIFY(near(t.node(id).vPrime, vPrime.at(key)));
        QCOMPARE(t.node(id).anchor, n > 1);
        QCOMPARE(t.node(id).singleton, n == 1);
    }
    QVERIFY(near(t.node(t.findState("a.py:Vf")).successRate, 1.0 / 3));
    QVERIFY(near(t.node(t.findState("a.py:Vf|b.py:S")).successRate, 0.5));
    // (root, view) N = 3, Q = 1/3; (a.py:Vf|b.py:S, finish) N = 2, Q = 0.5.
    const Edge& view = t.edge(t.edgePath(0)[0]);
    QCOMPARE(view.actionKey, std::string("view:full@a.py"));
    QCOMPARE(view.pairVisits, 3.0);
    QVERIFY(near(view.q, 1.0 / 3));
    QCOMPARE(view.turns, (std::vector<TurnRef> { { 0, 0 }, { 1, 0 }, { 2, 0 } }));
    const Edge& finish = t.edge(t.edgePath(3)[2]);
    QCOMPARE(finish.pairVisits, 2.0);
    QVERIFY(near(finish.q, 0.5));
    QCOMPARE(t.node(finish.target).kind, NodeKind::Terminal);
    QVERIFY(near(t.node(finish.target).successRate, 0.5));
}

void TestRolloutTree::matchesRtmc_data()
{
    QTest::addColumn<double>("gamma");
    QTest::addColumn<double>("kappa");
    QTest::newRow("gamma 1, kappa 2") << 1.0 << 2.0;
    QTest::newRow("gamma 1, kappa 0") << 1.0 << 0.0;
    QTest::newRow("gamma 0.9, kappa 2") << 0.9 << 2.0;
}

void TestRolloutTree::matchesRtmc()
{
    QFETCH(double, gamma);
    QFETCH(double, kappa);
    compareWithRtmc(workedExample(), gamma, kappa);
    // tst_credit_rtmc's firstVisitOnly groups: a repeated pair, and one state left by two actions.
    compareWithRtmc({ traj("t1", 1.0, { { "S", "go" }, { "S", "go" }, { "T", "stop" } }),
                        traj("t2", 0.0, { { "S", "go" }, { "T", "stop" } }) },
        gamma, kappa);
    compareWithRtmc({ traj("t3", 1.0, { { "S", "a" }, { "S", "b" } }) }, gamma, kappa);
    // Action keys: "Go  North" and "go north" are one pair.
    compareWithRtmc(
        { traj("x", 1.0, { { "s", "Go  North" } }), traj("y", 0.0, { { "s", "go north" } }) }, gamma, kappa);
}

void TestRolloutTree::matchesRtmcRandom()
{
    std::mt19937 rng(4242);
    const char* actions[] = { "go", "Go", " go ", "take", "TAKE  it", "take it", "stop" };
    for (int round = 0; round < 60; ++round) {
        std::vector<Trajectory> group;
        const int n = 1 + static_cast<int>(rng() % 8);
        for (int i = 0; i < n; ++i) {
            std::vector<Step> steps;
            const int turns = static_cast<int>(rng() % 7);
            for (int k = 0; k < turns; ++k)
                steps.push_back({ "s" + std::to_string(rng() % 4), actions[rng() % 7],
                    rng() % 4 == 0 ? 0.1 * static_cast<double>(rng() % 5) - 0.2 : 0.0 });
            group.push_back(traj("t" + std::to_string(i), static_cast<double>(rng() % 3) * 0.5, steps));
        }
        compareWithRtmc(group, 0.8, 2.0);
        if (QTest::currentTestFailed())
            return;
    }
}

void TestRolloutTree::reconvergenceEdges()
{
    const RolloutTree t = RolloutTree::build(workedExample());
    const Node& meet = t.node(t.findState("a.py:Vf|b.py:S"));
    QCOMPARE(meet.in.size(), std::size_t(2));
    const Edge& a = t.edge(meet.in[0]);
    const Edge& b = t.edge(meet.in[1]);
    QCOMPARE(a.source, t.findState("a.py:Vf")); // R3 reached it first
    QCOMPARE(a.actionKey, std::string("search@b.py"));
    QVERIFY(a.spanning);
    QCOMPARE(meet.treeParent, meet.in[0]);
    QCOMPARE(b.source, t.findState("b.py:S"));
    QCOMPARE(b.actionKey, std::string("view:full@a.py"));
    QVERIFY(!b.spanning);
    QCOMPARE(b.turns, std::vector<TurnRef> { (TurnRef { 3, 1 }) });
    // Every node but the roots has exactly one spanning parent.
    for (NodeId id = 0; id < t.nodes().size(); ++id) {
        const auto spanning
            = std::count_if(t.node(id).in.begin(), t.node(id).in.end(), [&](EdgeId e) { return t.edge(e).spanning; });
        QCOMPARE(spanning, std::find(t.roots().begin(), t.roots().end(), id) == t.roots().end() ? 1 : 0);
    }
}

void TestRolloutTree::selfLoopAndFirstVisit()
{
    const RolloutTree t = RolloutTree::build(
        std::vector<Trajectory> { traj("t1", 1.0, { { "S", "go" }, { "S", "go" }, { "T", "stop" } }),
            traj("t2", 0.0, { { "S", "go" }, { "T", "stop" } }) },
        { Merge::StateKey, 0.5, 2.0 });
    const NodeId s = t.findState("S");
    QCOMPARE(t.path(0), (std::vector<NodeId> { s, s, t.findState("T"), t.path(0).back() }));
    QCOMPARE(t.node(s).visits, 2.0); // first visit: t1's repeat does not count
    QCOMPARE(t.node(s).turns.size(), std::size_t(3));
    QVERIFY(t.node(s).anchor);
    const Edge& loop = t.edge(t.edgePath(0)[0]);
    QCOMPARE(loop.target, s);
    QVERIFY(near(loop.q, 0.125));
    QCOMPARE(t.statistics().branchingFactor, 1.0); // S -> T; the self-loop is no branch
}

void TestRolloutTree::prefixTree()
{
    const RolloutTree t = RolloutTree::build(workedExample(), { Merge::Prefix, 1.0, 2.0 });
    QCOMPARE(t.statistics().stateNodes, std::size_t(7)); // a.py:Vf|b.py:S splits by its two prefixes
    for (const Node& n : t.nodes())
        QVERIFY(n.in.size() <= 1);
    QVERIFY(t.path(2)[2] != t.path(3)[2]);
    QCOMPARE(t.node(t.path(2)[2]).key, t.node(t.path(3)[2]).key);
    QCOMPARE(t.node(t.path(0)[1]).visits, 3.0); // a.py:Vf after the shared root is still shared
}

void TestRolloutTree::statistics()
{
    const std::vector<Trajectory> group = workedExample();
    RolloutTree t = RolloutTree::build(group);
    // root -> {Vf, S}, Vf -> {M1111, M2222, Vf|S}, S -> {Vf|S}: (2 + 3 + 1) / 3.
    TreeStatistics s = t.statistics();
    QVERIFY(near(s.branchingFactor, 2.0));
    QVERIFY(near(s.sharedStateShare, 0.5)); // root, Vf, Vf|S of 6
    QCOMPARE(s.anchors, std::size_t(3));
    QCOMPARE(s.singletons, std::size_t(3));
    QCOMPARE(s.edges, std::size_t(9));
    QCOMPARE(s.turns, std::size_t(12));
    QVERIFY(s.nonZeroAdvantageShare.empty());
    // rtmc's raw advantages: two exact zeros with kappa 2 (R3, R4 at finish), five with kappa 0.
    for (const auto& [kappa, name, share] : { std::tuple { 2.0, "rtmc", 10.0 / 12 }, { 0.0, "rtmc k0", 7.0 / 12 } }) {
        const credit::CreditResult r = rtmc(group, 1.0, kappa);
        std::vector<std::vector<double>> rows;
        for (std::size_t i = 0; i < group.size(); ++i)
            rows.emplace_back(r.advantages.begin() + static_cast<std::ptrdiff_t>(r.offsets[i]),
                r.advantages.begin() + static_cast<std::ptrdiff_t>(r.offsets[i + 1]));
        t.setCredits(name, rows);
        s = t.statistics();
        const auto it = std::find_if(s.nonZeroAdvantageShare.begin(), s.nonZeroAdvantageShare.end(),
            [&](const auto& e) { return e.first == name; });
        QVERIFY(it != s.nonZeroAdvantageShare.end());
        QVERIFY2(near(it->second, share), qPrintable(QString::number(it->second)));
    }
}

void TestRolloutTree::credits()
{
    std::vector<Trajectory> group = workedExample();
    group[0].turns[0].credits = { { "grpo", 0.5 } };
    group[1].turns[0].credits = { { "grpo", -0.5 } };
    RolloutTree t = RolloutTree::build(group);
    QCOMPARE(t.creditMethods(), std::vector<std::string> { "grpo" });
    QCOMPARE(t.advantage("grpo", { 0, 0 }), std::optional<double>(0.5));
    QCOMPARE(t.advantage("grpo", { 2, 0 }), std::nullopt); // not carried
    QCOMPARE(t.advantage("rtmc", { 0, 0 }), std::nullopt);
    const NodeId root = t.findState("");
    QCOMPARE(t.nodeMeanAdvantage(root, "grpo"), std::optional<double>(0.0)); // mean of the known 0.5 and -0.5
    QCOMPARE(t.nodeAdvantages(root, "grpo").size(), std::size_t(4));

    t.setCredits("a", { { 1, 2, 3 }, { 4, 5, 6 }, { 7, 8, 9 }, { 10, 11, 12 } });
    QCOMPARE(t.creditMethods(), (std::vector<std::string> { "a", "grpo" }));
    QCOMPARE(t.nodeAdvantages(root, "a"), (std::vector<double> { 1, 4, 7, 10 }));
    QCOMPARE(t.nodeMeanAdvantage(t.findState("a.py:Vf|b.py:S"), "a"), std::optional<double>(10.5)); // 9 and 12
    QCOMPARE(t.edgeMeanAdvantage(t.edgePath(0)[0], "a"), std::optional<double>(4.0)); // (root, view): 1, 4, 7
    QCOMPARE(t.nodeMeanAdvantage(t.path(0).back(), "a"), std::nullopt); // terminal
    QVERIFY(t.nodeAdvantages(t.path(0).back(), "a").empty());
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, t.setCredits("b", { { 1, 2, 3 } }));
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument, t.setCredits("b", { { 1, 2, 3 }, { 4, 5 }, { 7, 8, 9 }, { 1, 1, 1 } }));
}

void TestRolloutTree::followRollout()
{
    const RolloutTree t = RolloutTree::build(workedExample());
    const std::vector<NodeId>& p = t.path(3);
    QCOMPARE(p.size(), std::size_t(4));
    QCOMPARE(p[0], t.findState(""));
    QCOMPARE(p[1], t.findState("b.py:S"));
    QCOMPARE(p[2], t.findState("a.py:Vf|b.py:S"));
    QCOMPARE(t.node(p[3]).kind, NodeKind::Terminal);
    QCOMPARE(t.path(2)[3], p[3]); // R3 and R4 end with the same (state, finish)
    QVERIFY(t.path(0)[3] != p[3]);
    for (std::size_t k = 0; k < 3; ++k) {
        const Edge& e = t.edge(t.edgePath(3)[k]);
        QCOMPARE(e.source, p[k]);
        QCOMPARE(e.target, p[k + 1]);
    }
    QCOMPARE(t.trajectoryId(3), std::string("R4"));
    QVERIFY(t.trajectorySucceeded(3));
    QVERIFY(!t.trajectorySucceeded(2));
}

void TestRolloutTree::search()
{
    const RolloutTree t = RolloutTree::build(workedExample());
    // State keys with "b.py", and the nodes where "search@b.py" was taken (root, a.py:Vf).
    const std::vector<NodeId> expected
        = sorted({ t.findState(""), t.findState("a.py:Vf"), t.findState("b.py:S"), t.findState("a.py:Vf|b.py:S") });
    QCOMPARE(t.search("b.py"), expected);
    QCOMPARE(t.search("B.PY"), expected);
    QCOMPARE(t.search("MODIFY:replace:1111"), std::vector<NodeId> { t.findState("a.py:Vf") });
    QCOMPARE(t.search("you see a.py:M:2222"), std::vector<NodeId> { t.findState("a.py:M:2222,Vf") }); // observation
    QVERIFY(t.search("nowhere").empty());
}

void TestRolloutTree::layout()
{
    const RolloutTree t = RolloutTree::build(workedExample());
    const TreeLayout l = layoutTree(t);
    QCOMPARE(l.visibleCount, t.nodes().size());
    checkLayout(t, l);
    // Spanning tree: root -> Vf -> {M1 -> T, M2 -> T, Vf|S -> T}, root -> S. Leaves T, T, T, S: x 0..3.
    QCOMPARE(l.width, 4.0);
    QCOMPARE(l.levels, 4);
    QCOMPARE(l.x[t.findState("b.py:S")], 3.0);
    QCOMPARE(l.x[t.findState("a.py:Vf")], 1.0);
    QCOMPARE(l.x[t.findState("")], 2.0);

    // A bigger random graph, with re-convergence and loops.
    std::mt19937 rng(9);
    std::vector<Trajectory> group;
    for (int i = 0; i < 40; ++i) {
        std::vector<Step> steps;
        for (int k = 0; k < 12; ++k)
            steps.push_back(
                { "s" + std::to_string(k) + "-" + std::to_string(rng() % 5), "a" + std::to_string(rng() % 2) });
        group.push_back(traj("t" + std::to_string(i), static_cast<double>(rng() % 2), steps));
    }
    for (Merge merge : { Merge::StateKey, Merge::Prefix }) {
        const RolloutTree big = RolloutTree::build(group, { merge, 1.0, 2.0 });
        const TreeLayout bl = layoutTree(big);
        QCOMPARE(bl.visibleCount, big.nodes().size());
        checkLayout(big, bl);
    }
}

void TestRolloutTree::collapse()
{
    const RolloutTree t = RolloutTree::build(workedExample());
    const NodeId vf = t.findState("a.py:Vf");
    const std::vector<NodeId> collapsed { vf };
    const TreeLayout l = layoutTree(t, collapsed);
    // Vf's subtree (M1, M2, Vf|S and their three terminals) disappears; Vf becomes a leaf.
    QCOMPARE(l.hiddenBelow[vf], 6u);
    QCOMPARE(l.visibleCount, t.nodes().size() - 6);
    QVERIFY(l.visible[vf]);
    for (const char* key : { "a.py:M:1111,Vf", "a.py:M:2222,Vf", "a.py:Vf|b.py:S" })
        QVERIFY(!l.visible[t.findState(key)]);
    QCOMPARE(l.width, 2.0);
    QCOMPARE(l.levels, 2);
    checkLayout(t, l);
    // Expanding again restores it.
    QCOMPARE(layoutTree(t).visibleCount, t.nodes().size());
}

void TestRolloutTree::emptyGroup()
{
    const RolloutTree empty = RolloutTree::build({});
    QVERIFY(empty.nodes().empty());
    QCOMPARE(layoutTree(empty).width, 0.0);
    const RolloutTree turnless
        = RolloutTree::build(std::vector<Trajectory> { traj("e", 1.0, {}), traj("one", 0.0, { { "s", "a" } }) });
    QCOMPARE(turnless.nodes().size(), std::size_t(2)); // s and its terminal
    QVERIFY(turnless.path(0).empty());
    // rtmc: p = 0.5 counts the turnless success: V' = (0 + 2 * 0.5) / 3.
    QVERIFY(near(turnless.node(turnless.findState("s")).vPrime, 1.0 / 3));
    QCOMPARE(turnless.statistics().branchingFactor, 0.0);
}

QTEST_GUILESS_MAIN(TestRolloutTree)
#include "tst_rollout_tree.moc"
