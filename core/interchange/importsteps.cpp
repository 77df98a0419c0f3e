// Per-step rows (verl-agent style): one row per environment step, carrying a trajectory id (verl-agent's
// `traj_uid`), a group / task id (its `uid`) and a step index; rows of many trajectories may interleave
// (verl-agent steps all environments of a batch together, agent_system/multi_turn_rollout/rollout_loop.py).
// The whole file is read first, then trajectories come out in order of their first row.
#include "core/interchange/importsource_p.h"
#include "core/model/progress.h"

#include <algorithm>
#include <cmath>

namespace creditlab::importer {

namespace {

using Kind = JsonDoc::Kind;

struct PendingTrajectory {
    Trajectory trajectory;
    std::size_t firstLine = 0;
    std::size_t groupLine = 0;
    std::size_t iterationLine = 0;
    /// Per turn: its step index and line, in row order; sorted by step at the end.
    std::vector<std::pair<std::int64_t, std::size_t>> steps;
    std::optional<std::pair<std::int64_t, double>> episodeReward; ///< (step, value) of the latest step carrying one
};

class StepRowsSource : public TrajectorySource {
public:
    explicit StepRowsSource(const TextInput& input)
        : m_path(input.name)
        , m_lines(input)
    {
    }

    bool next(Trajectory& out) override
    {
        if (!m_loaded) {
            load();
            m_loaded = true;
        }
        if (m_next == m_pending.size())
            return false;
        out = std::move(m_pending[m_next++].trajectory);
        return true;
    }
    std::uint64_t bytesRead() const override { return m_lines.bytesRead(); }
    std::uint64_t size() const override { return m_lines.size(); }

private:
    void load()
    {
        std::string_view line;
        while (nextRecordLine(m_lines, line)) {
            const std::size_t lineNo = m_lines.lineNumber();
            if (lineNo % 4096 == 0 && m_readAhead && !m_readAhead(m_lines.bytesRead()))
                throw Cancelled();
            try {
                parseRecord(m_doc, line);
                readRow(m_doc, lineNo);
            } catch (const JsonlFieldError& e) {
                throw JsonlError(m_path, lineNo, e.field, e.message, e.column);
            }
        }
        PromptGroups groups;
        for (PendingTrajectory& p : m_pending)
            finish(p, groups);
    }

    void readRow(const JsonDoc& doc, std::size_t lineNo)
    {
        const Index root = doc.root();
        const Index active = doc.firstMember(root, { "active_masks", "active_mask" });
        if (active != kNone && !readBool(doc, active, doc.key(active)))
            return; // verl-agent pads finished environments with inactive rows
        const Index trajId = doc.firstMember(root, { "traj_uid", "trajectory_id", "traj_id", "episode_id" });
        if (trajId == kNone)
            fieldError("traj_uid", "is required but missing (or trajectory_id, traj_id, episode_id)");
        const Index stepNode = doc.firstMember(root, { "step_idx", "step_id", "step", "turn_idx" });
        if (stepNode == kNone)
            fieldError("step_idx", "is required but missing (or step_id, step, turn_idx)");
        const std::string id = readId(doc, trajId, doc.key(trajId));
        const std::int64_t step = readIndex(doc, stepNode, doc.key(stepNode));

        auto [it, inserted] = m_index.try_emplace(id, m_pending.size());
        if (inserted) {
            m_pending.emplace_back();
            m_pending.back().trajectory.id = id;
            m_pending.back().firstLine = lineNo;
        }
        PendingTrajectory& p = m_pending[it->second];
        Trajectory& t = p.trajectory;

        Turn& turn = t.turns.emplace_back();
        p.steps.emplace_back(step, lineNo);
        std::vector<Index> used { active, trajId, stepNode };
        auto take = [&](std::initializer_list<std::string_view> keys) {
            const Index i = doc.firstMember(root, keys);
            if (i != kNone)
                used.push_back(i);
            return i;
        };
        const Index obs = take({ "observation", "obs", "anchor_obs", "prompt", "input" });
        const Index act = take({ "action", "response", "output" });
        if (obs == kNone)
            fieldError("observation", "is required but missing (or obs, anchor_obs, prompt, input)");
        if (act == kNone)
            fieldError("action", "is required but missing (or response, output)");
        readText(doc, obs, doc.key(obs), turn.observation);
        readText(doc, act, doc.key(act), turn.action);
        if (const Index i = take({ "feedback", "next_observation", "next_obs" }); i != kNone)
            readText(doc, i, doc.key(i), turn.feedback.emplace());
        if (const Index i = take({ "reward", "rewards", "step_reward" }); i != kNone)
            turn.reward = readNumber(doc, i, doc.key(i));
        if (const Index i = take({ "valid", "is_action_valid" }); i != kNone)
            turn.valid = readBool(doc, i, doc.key(i));
        if (const Index i = take({ "score" }); i != kNone)
            turn.score = readUnit(doc, i, "score");
        if (const Index i = take({ "role" }); i != kNone)
            turn.role = readRole(doc, i, "role");
        if (const Index i = take({ "episode_reward", "episode_rewards", "traj_reward", "trajectory_reward" });
            i != kNone) {
            const double v = readNumber(doc, i, doc.key(i));
            if (!p.episodeReward || p.episodeReward->first <= step)
                p.episodeReward = { step, v };
        }
        if (const Index i = take({ "success", "won" }); i != kNone)
            t.success = readBool(doc, i, doc.key(i)) || t.success.value_or(false);
        if (const Index i = take({ "uid", "group", "group_id", "task_id" }); i != kNone) {
            const std::string group = readId(doc, i, doc.key(i));
            if (p.groupLine == 0) {
                t.group = group;
                p.groupLine = lineNo;
            } else if (group != t.group) {
                fieldError(doc.key(i),
                    "\"" + group + "\" differs from \"" + t.group + "\" on line " + std::to_string(p.groupLine)
                        + " of the same trajectory");
            }
        }
        if (const Index i = take({ "iteration", "global_step", "global_steps" }); i != kNone) {
            const std::int64_t iteration = readIndex(doc, i, doc.key(i));
            if (p.iterationLine == 0) {
                t.iteration = iteration;
                p.iterationLine = lineNo;
            } else if (iteration != *t.iteration) {
                fieldError(doc.key(i),
                    std::to_string(iteration) + " differs from " + std::to_string(*t.iteration) + " on line "
                        + std::to_string(p.iterationLine) + " of the same trajectory");
            }
        }
        // The source's step index, for keying credit back to the row; then the row's other members verbatim.
        turn.extra = "\"step_index\":" + std::to_string(step);
        for (Index c = doc.first(root); c != kNone; c = doc.next(root, c))
            if (std::find(used.begin(), used.end(), c) == used.end())
                keepMember(turn.extra, doc, c, KeptLevel::Turn);
    }

    void finish(PendingTrajectory& p, PromptGroups& groups)
    {
        Trajectory& t = p.trajectory;
        // Order turns by step index (rows may come in any order); a repeated index is an error on its line.
        std::vector<std::size_t> order(t.turns.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::stable_sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return p.steps[a].first < p.steps[b].first; });
        std::vector<Turn> turns;
        turns.reserve(order.size());
        for (std::size_t k = 0; k < order.size(); ++k) {
            if (k > 0 && p.steps[order[k]].first == p.steps[order[k - 1]].first) {
                const auto [step, line] = p.steps[std::max(order[k], order[k - 1])];
                throw JsonlError(m_path, line, "step",
                    "step " + std::to_string(step) + " of trajectory \"" + t.id + "\" appears twice (also on line "
                        + std::to_string(p.steps[std::min(order[k], order[k - 1])].second) + ")");
            }
            turns.push_back(std::move(t.turns[order[k]]));
        }
        t.turns = std::move(turns);
        // A row's reward is the environment's reward at that step, the outcome included: verl-agent's episode_rewards
        // is their sum. Ours are intermediate (CONVENTIONS.md: the step reward is r_t + [t = T] R), so when the rows'
        // rewards sum to the episode reward, or no episode reward is given, the outcome R is taken off the last step:
        // every step reward then equals its row's, and the outcome is counted once. Rewards that do not sum to the
        // episode reward exclude the outcome and are kept as they are.
        if (p.episodeReward) {
            t.reward = p.episodeReward->second;
        } else {
            t.reward = 0.0;
            for (const Turn& u : t.turns)
                t.reward += u.rewardOrDefault();
        }
        countOutcomeOnce(t);
        if (t.group.empty())
            t.group = groups.groupOf(t.iteration, t.turns.front().observation);
    }

    std::string m_path;
    LineReader m_lines;
    JsonDoc m_doc;
    std::vector<PendingTrajectory> m_pending;
    std::unordered_map<std::string, std::size_t> m_index;
    std::size_t m_next = 0;
    bool m_loaded = false;
};

} // namespace

std::unique_ptr<TrajectorySource> openSteps(const TextInput& input)
{
    return std::make_unique<StepRowsSource>(input);
}

} // namespace creditlab::importer
