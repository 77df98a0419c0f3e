#pragma once

// A tidy layout of a rollout tree's spanning forest (Node::treeParent), with collapsed subtrees. Qt-free.

#include "core/tree/rollouttree.h"

#include <span>
#include <vector>

namespace creditlab::tree {

/// Positions in layout units: one unit between neighbouring leaves, one level per depth. Hidden nodes (inside a
/// collapsed subtree) keep x = y = 0 and visible = false. An immutable value.
struct TreeLayout {
    std::vector<double> x; ///< per node
    std::vector<int> depth; ///< per node: the level (y); roots are at 0
    std::vector<char> visible; ///< per node
    std::vector<std::uint32_t> hiddenBelow; ///< per node: descendants hidden because it is collapsed
    double width = 0; ///< max x + 1 (0 for an empty tree)
    int levels = 0; ///< max depth + 1 among visible nodes
    std::size_t visibleCount = 0;
};

/// Lays out the spanning forest of `tree`: leaves (and collapsed nodes) take consecutive x in depth-first order,
/// children in first-traversal order and roots side by side; a parent sits at the midpoint of its first and last
/// visible child. So nodes on a level are at least one unit apart and every parent is centred over its children.
/// The subtrees of the nodes in `collapsed` are hidden. O(nodes), iterative (no recursion depth limit); any thread.
TreeLayout layoutTree(const RolloutTree& tree, std::span<const NodeId> collapsed = {});

} // namespace creditlab::tree
