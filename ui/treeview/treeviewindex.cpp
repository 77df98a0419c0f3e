#include "ui/treeview/treeviewindex.h"

#include <algorithm>
#include <cmath>

namespace creditlab::ui::treeview {

TreeViewIndex::TreeViewIndex(const tree::TreeLayout& layout)
{
    m_levels.resize(static_cast<std::size_t>(std::max(layout.levels, 0)));
    for (std::size_t n = 0; n < layout.x.size(); ++n) {
        if (!layout.visible[n])
            continue;
        const auto d = static_cast<std::size_t>(layout.depth[n]);
        if (d >= m_levels.size())
            m_levels.resize(d + 1);
        m_levels[d].push_back({ layout.x[n], static_cast<tree::NodeId>(n) });
    }
    for (auto& level : m_levels)
        std::sort(level.begin(), level.end(), [](const Entry& a, const Entry& b) { return a.x < b.x; });
}

std::size_t TreeViewIndex::lowerBound(const std::vector<Entry>& level, double x)
{
    return static_cast<std::size_t>(std::lower_bound(level.begin(), level.end(), x, [](const Entry& e, double v) {
        return e.x < v;
    }) - level.begin());
}

tree::NodeId TreeViewIndex::nearest(int depth, double x, double maxDistance) const
{
    if (depth < 0 || depth >= levels())
        return tree::kNone;
    const auto& level = m_levels[static_cast<std::size_t>(depth)];
    const std::size_t i = lowerBound(level, x);
    tree::NodeId best = tree::kNone;
    double bestDistance = maxDistance;
    for (std::size_t j : { i - 1, i }) { // i - 1 wraps to a huge value when i == 0: skipped below
        if (j >= level.size())
            continue;
        const double distance = std::abs(level[j].x - x);
        if (distance <= bestDistance) {
            bestDistance = distance;
            best = level[j].node;
        }
    }
    return best;
}

} // namespace creditlab::ui::treeview
