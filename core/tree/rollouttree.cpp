// The rollout tree of one group. Node and pair bookkeeping follows core/credit/rtmc.cpp exactly: the state key is
// Turn::stateKey(), the action key text::actionKey(), returns G_t = rho_t + gamma G_{t+1} with credit::stepReward
// (RTMC Eq. 5), and a (state, action) pair counts once per trajectory with the return of its first occurrence
// (Eq. 6, rtmc.md §2.4 [C]); N(s) and W(s) sum those first visits over the actions (Eq. 8).
#include "core/tree/rollouttree.h"

#include "core/credit/common.h"
#include "core/model/text.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <unordered_map>

namespace creditlab::tree {

namespace {

/// |A| above this counts as a non-zero advantage in the statistics.
constexpr double kNonZero = 1e-12;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool containsFolded(std::string_view haystack, std::string_view needle)
{
    return std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(), [](char a, char b) {
        return text::lowerAscii(a) == text::lowerAscii(b);
    }) != haystack.end();
}

std::string idKey(std::uint32_t a, std::uint32_t b, std::string_view rest)
{
    std::string key = std::to_string(a);
    key.push_back('\x1f');
    key += std::to_string(b);
    key.push_back('\x1f');
    key += rest;
    return key;
}

} // namespace

RolloutTree RolloutTree::build(std::span<const Trajectory> group, const TreeOptions& options)
{
    RolloutTree t;
    std::unordered_map<std::string, NodeId> stateIndex;
    std::unordered_map<std::string, NodeId> terminalIndex; // (source, action key) -> terminal node
    std::unordered_map<std::string, EdgeId> edgeIndex; // (source, target, action key)
    std::unordered_map<std::string, std::uint32_t> pairIndex; // (source, action key): RTMC's (s, a)
    std::vector<std::uint32_t> edgePair;
    std::vector<double> pairN, pairW, nodeN, nodeW, terminalReward;
    std::vector<std::uint32_t> pairLastVisit;

    const auto newNode = [&](NodeKind kind) {
        t.m_nodes.emplace_back().kind = kind;
        nodeN.push_back(0.0);
        nodeW.push_back(0.0);
        terminalReward.push_back(0.0);
        return static_cast<NodeId>(t.m_nodes.size() - 1);
    };
    const auto visit = [&](NodeId n, std::uint32_t trajectory, std::uint32_t turn) {
        Node& node = t.m_nodes[n];
        node.turns.push_back({ trajectory, turn });
        if (node.rollouts.empty() || node.rollouts.back() != trajectory)
            node.rollouts.push_back(trajectory); // trajectories come in order, so this stays ascending
    };
    // The edge source --action--> target taken at `turn`; sets the target's spanning parent when it is new.
    const auto traverse = [&](NodeId source, NodeId target, bool targetIsNew, const Turn& turn, TurnRef at) {
        std::string akey = text::actionKey(turn.action);
        const auto [it, inserted] = edgeIndex.try_emplace(idKey(source, target, akey), EdgeId(t.m_edges.size()));
        if (inserted) {
            Edge& e = t.m_edges.emplace_back();
            e.source = source;
            e.target = target;
            e.action = turn.action;
            const auto [p, newPair] = pairIndex.try_emplace(idKey(source, 0, akey), std::uint32_t(pairN.size()));
            if (newPair) {
                pairN.push_back(0.0);
                pairW.push_back(0.0);
                pairLastVisit.push_back(kNone);
            }
            edgePair.push_back(p->second);
            e.actionKey = std::move(akey);
            t.m_nodes[source].out.push_back(it->second);
            t.m_nodes[target].in.push_back(it->second);
            if (targetIsNew) {
                t.m_nodes[target].treeParent = it->second;
                e.spanning = true;
            }
        }
        t.m_edges[it->second].turns.push_back(at);
        return it->second;
    };

    double successes = 0.0;
    std::vector<double> returns;
    for (std::uint32_t i = 0; i < group.size(); ++i) {
        const Trajectory& tr = group[i];
        t.m_trajectoryIds.push_back(tr.id);
        t.m_success.push_back(tr.successOrDefault() ? 1 : 0);
        t.m_turnCounts.push_back(tr.turns.size());
        successes += credit::successValue(tr);
        std::vector<NodeId>& path = t.m_paths.emplace_back();
        std::vector<EdgeId>& edgePath = t.m_edgePaths.emplace_back();
        const auto n = static_cast<std::uint32_t>(tr.turns.size());
        returns.assign(n, 0.0);
        double running = 0.0;
        for (std::size_t k = n; k-- > 0;) {
            running = credit::stepReward(tr, k) + options.gamma * running; // RTMC Eq. 5
            returns[k] = running;
        }
        for (std::uint32_t k = 0; k < n; ++k) {
            const Turn& u = tr.turns[k];
            const NodeId prev = k == 0 ? kNone : path.back();
            std::string key = options.merge == Merge::StateKey ? u.stateKey() : idKey(prev, 0, u.stateKey());
            const auto [it, inserted] = stateIndex.try_emplace(std::move(key), NodeId(t.m_nodes.size()));
            if (inserted) {
                newNode(NodeKind::State);
                t.m_nodes.back().key = u.stateKey();
                t.m_nodes.back().observation = u.observation;
                if (k == 0)
                    t.m_roots.push_back(it->second);
            }
            visit(it->second, i, k);
            if (k > 0)
                edgePath.push_back(traverse(prev, it->second, inserted, tr.turns[k - 1], { i, k - 1 }));
            path.push_back(it->second);
        }
        if (n > 0) {
            const NodeId last = path.back();
            const auto [it, inserted]
                = terminalIndex.try_emplace(idKey(last, 0, text::actionKey(tr.turns[n - 1].action)), NodeId(0));
            if (inserted)
                it->second = newNode(NodeKind::Terminal);
            visit(it->second, i, n - 1);
            terminalReward[it->second] += tr.reward;
            edgePath.push_back(traverse(last, it->second, inserted, tr.turns[n - 1], { i, n - 1 }));
            path.push_back(it->second);
        }
        // The table (Eq. 6), first visit only.
        for (std::uint32_t k = 0; k < n; ++k) {
            const std::uint32_t pr = edgePair[edgePath[k]];
            if (pairLastVisit[pr] == i)
                continue;
            pairLastVisit[pr] = i;
            pairN[pr] += 1.0;
            pairW[pr] += returns[k];
            nodeN[path[k]] += 1.0;
            nodeW[path[k]] += returns[k];
        }
    }

    const double p = group.empty() ? 0.0 : successes / static_cast<double>(group.size());
    for (NodeId id = 0; id < t.m_nodes.size(); ++id) {
        Node& node = t.m_nodes[id];
        double succeeded = 0.0;
        for (std::uint32_t r : node.rollouts)
            succeeded += t.m_success[r];
        node.successRate = node.rollouts.empty() ? 0.0 : succeeded / static_cast<double>(node.rollouts.size());
        if (node.kind == NodeKind::Terminal) {
            node.visits = static_cast<double>(node.rollouts.size());
            node.v = node.vPrime = terminalReward[id] / static_cast<double>(node.turns.size());
            continue;
        }
        node.visits = nodeN[id];
        node.v = nodeW[id] / nodeN[id]; // Eq. 8
        node.vPrime = (nodeW[id] + options.kappa * p) / (nodeN[id] + options.kappa); // Eq. 11
        node.anchor = node.turns.size() > 1;
        node.singleton = node.rollouts.size() == 1;
    }
    for (EdgeId e = 0; e < t.m_edges.size(); ++e) {
        t.m_edges[e].pairVisits = pairN[edgePair[e]];
        t.m_edges[e].q = pairW[edgePair[e]] / pairN[edgePair[e]]; // Eq. 7
    }

    // Credits the trajectories carry (JSONL "credit", or loaded from the store).
    std::map<std::string, std::vector<std::vector<double>>> carried;
    for (std::uint32_t i = 0; i < group.size(); ++i)
        for (std::uint32_t k = 0; k < group[i].turns.size(); ++k)
            for (const auto& [method, value] : group[i].turns[k].credits) {
                auto [it, inserted] = carried.try_emplace(method);
                if (inserted)
                    for (std::size_t j = 0; j < group.size(); ++j)
                        it->second.emplace_back(group[j].turns.size(), kNaN);
                it->second[i][k] = value;
            }
    for (auto& [method, values] : carried)
        t.setCredits(method, std::move(values));
    return t;
}

NodeId RolloutTree::findState(std::string_view key) const
{
    for (NodeId id = 0; id < m_nodes.size(); ++id)
        if (m_nodes[id].kind == NodeKind::State && m_nodes[id].key == key)
            return id;
    return kNone;
}

std::vector<NodeId> RolloutTree::search(std::string_view text) const
{
    std::vector<NodeId> found;
    for (NodeId id = 0; id < m_nodes.size(); ++id) {
        const Node& n = m_nodes[id];
        bool hit = containsFolded(n.key, text) || containsFolded(n.observation, text);
        for (std::size_t k = 0; !hit && k < n.out.size(); ++k)
            hit = containsFolded(m_edges[n.out[k]].action, text);
        if (hit)
            found.push_back(id);
    }
    return found;
}

void RolloutTree::setCredits(const std::string& method, std::vector<std::vector<double>> advantages)
{
    if (advantages.size() != m_turnCounts.size())
        throw std::invalid_argument("credits of " + method + ": " + std::to_string(advantages.size())
            + " trajectories, the tree has " + std::to_string(m_turnCounts.size()));
    for (std::size_t i = 0; i < advantages.size(); ++i)
        if (advantages[i].size() != m_turnCounts[i])
            throw std::invalid_argument("credits of " + method + ": trajectory " + m_trajectoryIds[i] + " has "
                + std::to_string(m_turnCounts[i]) + " turns, got " + std::to_string(advantages[i].size()));
    const auto it = std::lower_bound(m_credits.begin(), m_credits.end(), method,
        [](const auto& entry, const std::string& name) { return entry.first < name; });
    if (it != m_credits.end() && it->first == method)
        it->second = std::move(advantages);
    else
        m_credits.insert(it, { method, std::move(advantages) });
}

std::vector<std::string> RolloutTree::creditMethods() const
{
    std::vector<std::string> out;
    for (const auto& entry : m_credits)
        out.push_back(entry.first);
    return out;
}

std::optional<double> RolloutTree::advantage(const std::string& method, TurnRef turn) const
{
    for (const auto& [name, values] : m_credits)
        if (name == method) {
            const double a = values.at(turn.trajectory).at(turn.turn);
            return std::isnan(a) ? std::nullopt : std::optional<double>(a);
        }
    return std::nullopt;
}

std::vector<double> RolloutTree::nodeAdvantages(NodeId node, const std::string& method) const
{
    std::vector<double> out;
    if (m_nodes.at(node).kind == NodeKind::Terminal)
        return out; // its turns are the last turns, whose credit belongs to their state node
    for (const auto& [name, values] : m_credits)
        if (name == method)
            for (const TurnRef& r : m_nodes.at(node).turns)
                out.push_back(values[r.trajectory][r.turn]);
    return out;
}

std::optional<double> RolloutTree::meanOver(const std::vector<TurnRef>& turns, const std::string& method) const
{
    for (const auto& [name, values] : m_credits) {
        if (name != method)
            continue;
        double sum = 0.0;
        std::size_t count = 0;
        for (const TurnRef& r : turns) {
            const double a = values[r.trajectory][r.turn];
            if (!std::isnan(a)) {
                sum += a;
                ++count;
            }
        }
        return count == 0 ? std::nullopt : std::optional<double>(sum / static_cast<double>(count));
    }
    return std::nullopt;
}

std::optional<double> RolloutTree::nodeMeanAdvantage(NodeId node, const std::string& method) const
{
    if (m_nodes.at(node).kind == NodeKind::Terminal)
        return std::nullopt; // its turns are the last turns, whose credit belongs to their state node
    return meanOver(m_nodes.at(node).turns, method);
}

std::optional<double> RolloutTree::edgeMeanAdvantage(EdgeId edge, const std::string& method) const
{
    return meanOver(m_edges.at(edge).turns, method);
}

TreeStatistics RolloutTree::statistics() const
{
    TreeStatistics s;
    s.edges = m_edges.size();
    for (std::size_t n : m_turnCounts)
        s.turns += n;
    std::size_t shared = 0, parents = 0, children = 0;
    std::vector<NodeId> targets;
    for (NodeId id = 0; id < m_nodes.size(); ++id) {
        const Node& n = m_nodes[id];
        if (n.kind == NodeKind::Terminal) {
            ++s.terminalNodes;
            continue;
        }
        ++s.stateNodes;
        s.anchors += n.anchor ? 1 : 0;
        s.singletons += n.singleton ? 1 : 0;
        shared += n.rollouts.size() > 1 ? 1 : 0;
        // Distinct child states; a self-loop (an action that left the state unchanged) is no branch.
        targets.clear();
        for (EdgeId e : n.out)
            if (m_nodes[m_edges[e].target].kind == NodeKind::State && m_edges[e].target != id)
                targets.push_back(m_edges[e].target);
        std::sort(targets.begin(), targets.end());
        const auto distinct = static_cast<std::size_t>(std::unique(targets.begin(), targets.end()) - targets.begin());
        if (distinct > 0) {
            ++parents;
            children += distinct;
        }
    }
    s.branchingFactor = parents == 0 ? 0.0 : static_cast<double>(children) / static_cast<double>(parents);
    s.sharedStateShare = s.stateNodes == 0 ? 0.0 : static_cast<double>(shared) / static_cast<double>(s.stateNodes);
    for (const auto& [method, values] : m_credits) {
        std::size_t known = 0, nonZero = 0;
        for (const auto& row : values)
            for (double a : row)
                if (!std::isnan(a)) {
                    ++known;
                    nonZero += std::abs(a) > kNonZero ? 1 : 0;
                }
        s.nonZeroAdvantageShare.emplace_back(
            method, known == 0 ? 0.0 : static_cast<double>(nonZero) / static_cast<double>(known));
    }
    return s;
}

} // namespace creditlab::tree
