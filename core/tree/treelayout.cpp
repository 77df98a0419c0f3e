// Leaf-order tidy layout: a post-order walk gives each leaf the next free x and each parent the midpoint of its
// children. Simpler than Reingold–Tilford (subtrees are not packed under each other's gaps) but linear,
// overlap-free and centred, which is what a 20,000-node view needs.
#include "core/tree/treelayout.h"

#include <algorithm>

namespace creditlab::tree {

TreeLayout layoutTree(const RolloutTree& tree, std::span<const NodeId> collapsed)
{
    const std::vector<Node>& nodes = tree.nodes();
    const std::vector<Edge>& edges = tree.edges();
    const std::size_t n = nodes.size();
    TreeLayout out;
    out.x.assign(n, 0.0);
    out.depth.assign(n, 0);
    out.visible.assign(n, 0);
    out.hiddenBelow.assign(n, 0);
    std::vector<char> isCollapsed(n, 0);
    for (NodeId id : collapsed)
        if (id < n)
            isCollapsed[id] = 1;

    // Children in the spanning forest, in first-traversal order (a node's `out` is in that order).
    std::vector<std::uint32_t> childStart(n + 1, 0);
    for (const Edge& e : edges)
        if (e.spanning)
            ++childStart[e.source + 1];
    for (std::size_t i = 0; i < n; ++i)
        childStart[i + 1] += childStart[i];
    std::vector<NodeId> children(childStart[n]);
    {
        std::vector<std::uint32_t> fill(childStart.begin(), childStart.end() - 1);
        for (NodeId id = 0; id < n; ++id)
            for (EdgeId e : nodes[id].out)
                if (edges[e].spanning)
                    children[fill[id]++] = edges[e].target;
    }

    // Counts the descendants a collapsed node hides (walks its subtree once; subtrees are disjoint).
    std::vector<NodeId> stack;
    const auto countBelow = [&](NodeId root) {
        std::uint32_t count = 0;
        stack.assign(children.begin() + childStart[root], children.begin() + childStart[root + 1]);
        while (!stack.empty()) {
            const NodeId v = stack.back();
            stack.pop_back();
            ++count;
            stack.insert(stack.end(), children.begin() + childStart[v], children.begin() + childStart[v + 1]);
        }
        return count;
    };

    // Iterative post-order: a frame is (node, next child index).
    double nextLeaf = 0.0;
    std::vector<std::pair<NodeId, std::uint32_t>> frames;
    for (NodeId root : tree.roots()) {
        frames.push_back({ root, childStart[root] });
        out.visible[root] = 1;
        while (!frames.empty()) {
            auto& [v, next] = frames.back();
            const bool leaf = isCollapsed[v] || childStart[v] == childStart[v + 1];
            if (!leaf && next < childStart[v + 1]) {
                const NodeId c = children[next++];
                out.visible[c] = 1;
                out.depth[c] = out.depth[v] + 1;
                frames.push_back({ c, childStart[c] });
                continue;
            }
            if (leaf) {
                out.x[v] = nextLeaf;
                nextLeaf += 1.0;
                if (isCollapsed[v])
                    out.hiddenBelow[v] = countBelow(v);
            } else {
                out.x[v] = (out.x[children[childStart[v]]] + out.x[children[childStart[v + 1] - 1]]) / 2.0;
            }
            out.levels = std::max(out.levels, out.depth[v] + 1);
            ++out.visibleCount;
            frames.pop_back();
        }
    }
    out.width = nextLeaf;
    return out;
}

} // namespace creditlab::tree
