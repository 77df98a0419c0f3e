#pragma once

// The `human` judge: TRIAGE's role labels from people where they exist, from a backing judge elsewhere
// (issue 7 §5, "learn from labels").

#include "core/judge/judge.h"
#include "core/storage/store.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace creditlab::judge {

/// Human labels indexed by what identifies a turn across rollouts: the task key, the canonical state key
/// before the action, and the action text. Training rollouts are new trajectories, so a stored label reaches
/// them only through this key: the label says "in this situation of this task, this action was D/E/N/R",
/// which holds for any rollout that takes the same action in the same state (household's state key carries
/// the visited set, so a repeat is a different state from a first visit). Turns of trajectories without a
/// task key cannot match and are skipped.
///
/// Several labels on one key (several annotators, or one annotator on several turns that share the key) are
/// decided by majority; a tie goes to the role labelled last. A plain value; any thread.
class HumanLabelIndex {
public:
    struct Match {
        Role role = Role::N;
        std::string annotator; ///< who gave the deciding (latest) label of the winning role
    };

    /// Builds the index from `labels` (Store::humanLabelledTurns order).
    static HumanLabelIndex build(const std::vector<LabelledTurn>& labels);

    /// The label for a turn of task `task` taking `action` in state `state`; nullptr when there is none.
    const Match* find(const std::string& task, const std::string& state, const std::string& action) const;
    /// Labelled keys.
    std::size_t size() const { return m_entries.size(); }
    /// Labels the index was built from (including those without a task key).
    std::size_t labelCount() const { return m_labelCount; }
    /// The distinct task keys that carry labels, sorted.
    const std::vector<std::string>& tasks() const { return m_tasks; }

private:
    static std::string key(const std::string& task, const std::string& state, const std::string& action);

    std::unordered_map<std::string, Match> m_entries;
    std::vector<std::string> m_tasks;
    std::size_t m_labelCount = 0;
};

/// The `human` judge. Parameters (`judge.<key>`):
/// - `annotator` (""): whose labels; empty = every annotator's, by majority;
/// - `backing` ("oracle"): the judge for turns without a human label, `oracle` or `noisy`;
/// - the noisy judge's keys (`accuracy`, `matrix`, `success_matrix`, `seed`), with `backing=noisy` only.
/// Labels are re-read from the store on every restart() (the trainer restarts judges each iteration), so
/// labels added in the Annotate tab while a run trains reach its next iteration. Verdicts from people carry
/// `source` "human:<annotator>". Not thread-safe; the store's thread.
class HumanJudge final : public Judge {
public:
    static constexpr std::string_view kName = "human";

    /// The parameter metadata: its own keys, then the noisy backing judge's.
    static const std::vector<credit::ParamSpec>& params();
    /// Resolves the parameters (throws credit::ParamError naming the key) and reads labels from `store`
    /// when given; without a store (config validation) every turn goes to the backing judge.
    static std::unique_ptr<HumanJudge> create(
        const std::vector<std::pair<std::string, std::string>>& assignments, Store* store);

    std::string tag() const override;
    std::vector<Verdict> judge(const Trajectory& trajectory, std::span<const std::optional<Role>> oracle) override;
    void restart(std::uint64_t stream) override;

    /// The index of `annotator`'s labels (every annotator's when empty) in `store`, as the judge builds it.
    static HumanLabelIndex labelIndex(Store& store, const std::string& annotator);

    /// Re-reads the labels from the store (no-op without one).
    void reload();
    const HumanLabelIndex& index() const { return m_index; }
    /// Turns judged since the last restart(), and how many of them took a human label.
    std::int64_t judgedTurns() const { return m_judged; }
    std::int64_t humanTurns() const { return m_human; }

private:
    HumanJudge(std::string annotator, std::unique_ptr<Judge> backing, Store* store);

    std::string m_annotator;
    std::unique_ptr<Judge> m_backing;
    Store* m_store = nullptr;
    HumanLabelIndex m_index;
    std::int64_t m_judged = 0;
    std::int64_t m_human = 0;
};

} // namespace creditlab::judge
