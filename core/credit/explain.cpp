#include "core/credit/explain.h"

#include <cmath>

namespace creditlab::credit {

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
    const std::string regroup
        = "Rollouts of one task need one group id to be compared: import with the source's task field as the group "
          "(a mapping file's `group:`, or the steps format's `uid`/`task_id`), or roll out several attempts per task.";
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
