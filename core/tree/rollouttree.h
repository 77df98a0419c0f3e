#pragma once

// The rollout tree of one group (issue 7 §1): the group's trajectories merged by canonical state key, as RTMC
// builds its table (shared/methods/rtmc.md §2.4–§2.6, core/credit/rtmc.cpp). Qt-free; the tree view draws it.

#include "core/model/trajectory.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace creditlab::tree {

using NodeId = std::uint32_t;
using EdgeId = std::uint32_t;
inline constexpr std::uint32_t kNone = 0xffffffffu;

/// How turns become nodes.
enum class Merge {
    StateKey, ///< one node per distinct state key in the group: RTMC's states; paths may re-converge (a graph)
    Prefix, ///< one node per distinct (parent node, state key): a pure prefix tree, never re-converges
};

/// The parameters of Q and V; the defaults are rtmc's (gamma 1, kappa 2).
struct TreeOptions {
    Merge merge = Merge::StateKey;
    double gamma = 1.0; ///< discount of G_t = rho_t + gamma G_{t+1} (RTMC Eq. 5)
    double kappa = 2.0; ///< prior strength of V' = (N V + kappa p) / (N + kappa) (RTMC Eq. 11)
};

/// One turn of the group: trajectory index (into the span given to build()) and turn index.
struct TurnRef {
    std::uint32_t trajectory = 0;
    std::uint32_t turn = 0;
    bool operator==(const TurnRef&) const = default;
};

enum class NodeKind { State, Terminal };

/// A canonical state, or the end of the episodes that took one action from one node (Terminal).
struct Node {
    NodeKind kind = NodeKind::State;
    std::string key; ///< the state key (Terminal: empty)
    std::string observation; ///< the observation of its first turn (Terminal: empty)
    std::vector<TurnRef> turns; ///< every turn at this state, repeats included (Terminal: the last turns)
    std::vector<std::uint32_t> rollouts; ///< distinct trajectories through it, ascending
    double visits = 0; ///< RTMC's N(s): first visits of (s, a) pairs summed over a (Terminal: rollouts ended here)
    double v = 0; ///< RTMC Eq. 8, W(s) / N(s) (Terminal: the mean outcome reward)
    double vPrime = 0; ///< RTMC Eq. 11, the smoothed V (Terminal: = v)
    double successRate = 0; ///< share of `rollouts` that succeeded
    bool anchor = false; ///< a GiGPO anchor group: the state occurs at more than one turn of the group
    bool singleton = false; ///< visited by exactly one rollout (RTMC: Q = V there without the prior)
    std::vector<EdgeId> in; ///< edges into it, first traversal first
    std::vector<EdgeId> out; ///< edges out of it, first traversal first
    EdgeId treeParent = kNone; ///< the edge that first reached it: the spanning forest the layout draws
};

/// A transition (source, action key, target), labelled with the action and the turns that took it.
struct Edge {
    NodeId source = kNone;
    NodeId target = kNone;
    std::string actionKey; ///< text::actionKey of the action
    std::string action; ///< the raw action text of its first turn
    std::vector<TurnRef> turns; ///< the turns (at `source`) that took it
    double pairVisits = 0; ///< RTMC's N(s, a), first visit (shared by every edge of the same (s, a))
    double q = 0; ///< RTMC Eq. 7, W(s, a) / N(s, a)
    bool spanning = false; ///< the node's treeParent (false: a re-convergence or back edge)
};

/// Per-tree statistics (issue 7 §1; the paper reports none, rtmc.md §8.17: these are the workbench's own).
struct TreeStatistics {
    std::size_t stateNodes = 0;
    std::size_t terminalNodes = 0;
    std::size_t edges = 0;
    std::size_t turns = 0;
    std::size_t anchors = 0;
    std::size_t singletons = 0;
    double branchingFactor = 0; ///< mean distinct child states of the state nodes that have one (0 if none)
    double sharedStateShare = 0; ///< share of state nodes visited by more than one rollout
    /// Per method with credits: share of the group's turns whose advantage is non-zero (|A| > 1e-12).
    std::vector<std::pair<std::string, double>> nonZeroAdvantageShare;
};

/// The rollout tree (or graph) of one group. An immutable value once built and given its credits; build it on
/// any thread (O(turns) with hashed keys), then share it read-only, e.g. as std::shared_ptr<const RolloutTree>.
class RolloutTree {
public:
    /// Builds from the group's trajectories (indices below are into `group`). Any Turn::credits they carry become
    /// the per-method advantages (see setCredits).
    static RolloutTree build(std::span<const Trajectory> group, const TreeOptions& options = {});

    const std::vector<Node>& nodes() const { return m_nodes; }
    const std::vector<Edge>& edges() const { return m_edges; }
    const Node& node(NodeId id) const { return m_nodes.at(id); }
    const Edge& edge(EdgeId id) const { return m_edges.at(id); }
    /// The nodes of the trajectories' first turns (and nothing else has no treeParent), first seen first.
    const std::vector<NodeId>& roots() const { return m_roots; }
    /// The state node with this key (StateKey merge; in Prefix merge the first such node), or kNone.
    NodeId findState(std::string_view key) const;
    std::size_t trajectoryCount() const { return m_paths.size(); }
    const std::string& trajectoryId(std::uint32_t trajectory) const { return m_trajectoryIds.at(trajectory); }
    bool trajectorySucceeded(std::uint32_t trajectory) const { return m_success.at(trajectory) != 0; }

    /// "Follow one rollout": the node of each turn in order (repeats kept), then its terminal node.
    const std::vector<NodeId>& path(std::uint32_t trajectory) const { return m_paths.at(trajectory); }
    /// The edges the trajectory took, one per turn.
    const std::vector<EdgeId>& edgePath(std::uint32_t trajectory) const { return m_edgePaths.at(trajectory); }
    /// Nodes whose state key, observation or outgoing action contains `text` (ASCII case-insensitive), ascending.
    std::vector<NodeId> search(std::string_view text) const;

    /// Sets (replaces) one method's advantages: `advantages[trajectory][turn]`, shaped like the group (else
    /// throws std::invalid_argument). Store::credits(rowId, method) gives one such row per trajectory.
    void setCredits(const std::string& method, std::vector<std::vector<double>> advantages);
    /// The methods with credits, in name order.
    std::vector<std::string> creditMethods() const;
    /// The advantage of one turn under `method`; nullopt when the method has no credits.
    std::optional<double> advantage(const std::string& method, TurnRef turn) const;
    /// The advantages of the node's turns (Node::turns order) under `method`; empty without credits or for a
    /// Terminal node (its turns' credit belongs to their state node). NaN marks a turn the method has no value for.
    std::vector<double> nodeAdvantages(NodeId node, const std::string& method) const;
    /// Their mean; nullopt without credits or turns. edgeMeanAdvantage: the same over the edge's turns.
    std::optional<double> nodeMeanAdvantage(NodeId node, const std::string& method) const;
    std::optional<double> edgeMeanAdvantage(EdgeId edge, const std::string& method) const;

    TreeStatistics statistics() const;

private:
    std::optional<double> meanOver(const std::vector<TurnRef>& turns, const std::string& method) const;

    std::vector<Node> m_nodes;
    std::vector<Edge> m_edges;
    std::vector<NodeId> m_roots;
    std::vector<std::string> m_trajectoryIds;
    std::vector<char> m_success;
    std::vector<std::vector<NodeId>> m_paths;
    std::vector<std::vector<EdgeId>> m_edgePaths;
    std::vector<std::size_t> m_turnCounts;
    std::vector<std::pair<std::string, std::vector<std::vector<double>>>> m_credits; ///< by method name
};

} // namespace creditlab::tree
