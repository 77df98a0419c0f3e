#include "core/credit/explain.h"

#include "core/interchange/jsondoc.h"
#include "core/interchange/jsonl.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace creditlab::credit {

namespace {

/// Source fields kept with the trajectories (their extra) that, as the group, would put rollouts with different
/// rewards in one group: what `--group-by` could use. At most three, in the order first seen.
std::vector<std::string> groupingFields(const Batch& batch)
{
    std::vector<std::string> order;
    std::map<std::string, std::map<std::string, std::set<double>>> rewardsByValue; // field -> value -> rewards
    JsonDoc doc;
    std::string text, value;
    for (const Trajectory& t : batch.trajectories) {
        if (t.extra.empty())
            continue;
        text = "{" + t.extra + "}";
        try {
            doc.parse(text);
        } catch (const JsonSyntaxError&) {
            continue;
        }
        const JsonDoc::Index root = doc.root();
        for (JsonDoc::Index m = doc.first(root); m != JsonDoc::kNone; m = doc.next(root, m)) {
            const auto kind = doc.kind(m);
            if (kind != JsonDoc::Kind::String && kind != JsonDoc::Kind::Number)
                continue;
            std::string key = doc.key(m);
            if (key.starts_with("source."))
                key.erase(0, 7);
            value.assign(doc.node(m).raw);
            if (value == "\"\"")
                continue; // an empty text names no task
            auto [it, inserted] = rewardsByValue.try_emplace(key);
            if (inserted)
                order.push_back(key);
            it->second[value].insert(t.reward);
        }
    }
    std::vector<std::string> out;
    for (const std::string& key : order) {
        // A task field: a value shared by rollouts with different rewards.
        const auto& values = rewardsByValue[key];
        const bool mixed = std::any_of(values.begin(), values.end(), [](const auto& v) { return v.second.size() > 1; });
        if (mixed && out.size() < 3)
            out.push_back(key);
    }
    return out;
}

} // namespace

std::optional<std::string> zeroCreditReason(const Batch& batch, const CreditResult& result, std::string_view method)
{
    if (result.advantages.empty())
        return std::nullopt;
    for (const double a : result.advantages)
        if (a != 0.0)
            return std::nullopt;
    std::size_t single = 0, uniform = 0;
    for (const Group& g : batch.groups) {
        if (g.members.size() <= 1) {
            ++single;
            continue;
        }
        bool same = true;
        const Trajectory& first = batch.trajectories[g.members.front()];
        for (const std::size_t m : g.members)
            same = same && batch.trajectories[m].reward == first.reward
                && batch.trajectories[m].successOrDefault() == first.successOrDefault();
        uniform += same ? 1 : 0;
    }
    const std::size_t groups = batch.groups.size();
    const std::string head = "every " + std::string(method) + " advantage is 0 (" + std::to_string(batch.turnCount())
        + " turns of " + std::to_string(batch.trajectories.size()) + " trajectories in " + std::to_string(groups)
        + " groups): ";
    std::string regroup
        = "Rollouts of one task need one group id to be compared: import with the source's task field as the group "
          "(`--group-by FIELD`, a mapping file's `group:`, or the steps format's `uid`/`task_id`), or roll out several "
          "attempts per task.";
    if (const auto fields = groupingFields(batch); !fields.empty()) {
        regroup += " Here `--group-by " + fields.front() + "` would compare rollouts with different rewards";
        for (std::size_t i = 1; i < fields.size(); ++i)
            regroup += (i + 1 == fields.size() ? " (so would " : ", ") + fields[i];
        regroup += fields.size() > 1 ? ")." : ".";
    }
    if (single == groups)
        return head
            + "every group holds one rollout, and group-relative methods compare a rollout with the others "
              "of its group. "
            + regroup;
    if (single + uniform == groups && single == 0)
        return head
            + "within every group all rollouts have the same reward (all successes, or all failures), so no "
              "rollout is better than another. Groups with mixed outcomes (more attempts, a harder task mix, "
              "or graded rewards) give non-zero credit.";
    if (single + uniform == groups)
        return head + std::to_string(single) + " groups hold one rollout and the other " + std::to_string(uniform)
            + " have the same reward in all their rollouts, so no rollout is compared with a different one. " + regroup;
    return head
        + "no group has rollouts whose turns this method tells apart (its parameters, or the fields it reads "
          "such as role, progress or score, are the same everywhere).";
}

} // namespace creditlab::credit
