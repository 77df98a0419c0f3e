#pragma once

// The spatial index of a laid-out rollout tree: nodes per level sorted by x, so that painting and hit tests
// touch only what lies in a rectangle. Qt-free, a pure value, any thread.

#include "core/tree/rollouttree.h"
#include "core/tree/treelayout.h"

#include <vector>

namespace creditlab::ui::treeview {

/// The visible nodes of a TreeLayout grouped by depth, each level sorted by x. An immutable value.
class TreeViewIndex {
public:
    TreeViewIndex() = default;
    /// Indexes the visible nodes of `layout`. O(n log n).
    explicit TreeViewIndex(const tree::TreeLayout& layout);

    /// Calls `visit(node)` for each visible node with x in [x0, x1] and depth in [d0, d1].
    template <typename Visit> void forEachIn(double x0, double x1, int d0, int d1, Visit&& visit) const
    {
        if (d0 < 0)
            d0 = 0;
        for (int d = d0; d <= d1 && d < static_cast<int>(m_levels.size()); ++d) {
            const auto& level = m_levels[static_cast<std::size_t>(d)];
            for (std::size_t i = lowerBound(level, x0); i < level.size() && level[i].x <= x1; ++i)
                visit(level[i].node);
        }
    }
    /// The visible node at depth `depth` whose x is closest to `x` and within `maxDistance`; kNone if none.
    tree::NodeId nearest(int depth, double x, double maxDistance) const;
    int levels() const { return static_cast<int>(m_levels.size()); }

private:
    struct Entry {
        double x;
        tree::NodeId node;
    };
    static std::size_t lowerBound(const std::vector<Entry>& level, double x);
    std::vector<std::vector<Entry>> m_levels;
};

} // namespace creditlab::ui::treeview
