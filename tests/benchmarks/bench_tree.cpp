// Benchmark: rollout tree layout (issue 7 §8: "tree layout time for 20,000 nodes"; target < 200 ms).
// Builds one group whose tree has at least `nodes` nodes, then times layoutTree() with nothing collapsed and with
// the first level collapsed (median of `repeats`). Build time is printed too. Both merges: the prefix tree and the
// state-key graph (re-converging paths).
//
// Usage: bench_tree [nodes=20000] [repeats=7]
#include "core/tree/rollouttree.h"
#include "core/tree/treelayout.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

using namespace creditlab;
using namespace creditlab::tree;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// Rollouts of 40 turns; each turn picks one of `fanout` actions, and the state is where the actions led.
/// Prefix merge: the prefix of action choices; StateKey: (turn, the prefix mod 997), so paths meet.
std::vector<Trajectory> generate(std::size_t rollouts, Merge merge)
{
    std::mt19937 rng(5);
    std::vector<Trajectory> out;
    for (std::size_t i = 0; i < rollouts; ++i) {
        Trajectory t;
        t.id = "r" + std::to_string(i);
        t.reward = rng() % 2;
        std::string prefix;
        unsigned sum = 0;
        for (int k = 0; k < 40; ++k) {
            Turn u;
            u.state = merge == Merge::Prefix ? prefix : std::to_string(k) + ":" + std::to_string(sum);
            u.observation = "You are at " + *u.state;
            const unsigned choice = rng() % 3;
            u.action = "go " + std::to_string(choice);
            prefix.push_back(static_cast<char>('a' + choice));
            sum = (sum * 3 + choice) % 997; // the prefix, hashed into 997 values: paths collide
            t.turns.push_back(std::move(u));
        }
        out.push_back(std::move(t));
    }
    return out;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    const std::size_t target = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 20000;
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 7;
    bool ok = true;
    for (Merge merge : { Merge::Prefix, Merge::StateKey }) {
        // Grow the group until the tree has `target` nodes (a graph saturates: give it more rollouts).
        std::size_t rollouts = 64;
        RolloutTree tree;
        double buildMs = 0;
        for (;;) {
            const std::vector<Trajectory> group = generate(rollouts, merge);
            const auto start = Clock::now();
            tree = RolloutTree::build(group, { merge, 1.0, 2.0 });
            buildMs = msSince(start);
            if (tree.nodes().size() >= target || rollouts > 1u << 16)
                break;
            rollouts = rollouts * 11 / 10;
        }
        std::vector<double> full, collapsed;
        std::vector<NodeId> firstLevel;
        for (NodeId r : tree.roots())
            for (EdgeId e : tree.node(r).out)
                if (tree.edge(e).spanning)
                    firstLevel.push_back(tree.edge(e).target);
        std::size_t visible = 0;
        for (int k = 0; k < repeats; ++k) {
            auto start = Clock::now();
            const TreeLayout l = layoutTree(tree);
            full.push_back(msSince(start));
            start = Clock::now();
            visible = layoutTree(tree, firstLevel).visibleCount;
            collapsed.push_back(msSince(start));
            if (l.visibleCount != tree.nodes().size())
                ok = false;
        }
        const double ms = median(full);
        std::printf("%-9s %zu rollouts, %zu nodes, %zu edges: build %.1f ms, layout %.2f ms (target < 200 ms), "
                    "layout with %zu first-level nodes collapsed %.2f ms (%zu visible)\n",
            merge == Merge::Prefix ? "prefix" : "state-key", rollouts, tree.nodes().size(), tree.edges().size(),
            buildMs, ms, firstLevel.size(), median(collapsed), visible);
        ok = ok && ms < 200.0;
    }
    return ok ? 0 : 1;
}
