#pragma once

#include "core/model/trajectory.h"

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace creditlab::ui {

/// The order in which the annotation page visits the turns of a run.
enum class QueueOrder {
    Sequential, ///< trajectory by trajectory, turn by turn
    JudgeLeastSure, ///< judge confidence ascending; turns without a confidence last
    MethodsDisagree, ///< spread (max − min) of the stored credits across methods, descending
    TriageConflicts, ///< TRIAGE conflict cells first: judge R in a successful rollout, judge E in a failed one
};

/// What the queue needs to know about one turn: plain data, no store, no Qt.
struct QueueTurn {
    std::size_t trajectory = 0; ///< index of the trajectory in run order
    int turn = 0; ///< index of the turn in its trajectory
    bool success = false; ///< the rollout's outcome
    std::vector<Role> judgeRoles; ///< the roles the judges gave this turn (any number)
    std::optional<double> judgeConfidence; ///< the least confidence among the judges; nullopt when none gave one
    std::vector<double> credits; ///< the turn's credit under each method that has one
};

/// One position of the queue.
struct QueueItem {
    std::size_t trajectory = 0;
    int turn = 0;
    bool operator==(const QueueItem&) const = default;
};

/// max − min of `credits`; 0 with fewer than two values. Any thread.
double creditSpread(std::span<const double> credits);

/// True when a judge labelled the turn R inside a successful rollout or E inside a failed one. Any thread.
bool isTriageConflict(const QueueTurn& turn);

/// Whether `order` reads what blind mode hides from the annotator: the judges' labels or confidences
/// (JudgeLeastSure, TriageConflicts), the outcome (TriageConflicts) or the stored credits (MethodsDisagree: they come
/// from the rewards and, for triage, scalar_judge, pair and has, from the judges' roles and scores). Only Sequential
/// reads none of them. Any thread.
bool orderReadsHidden(QueueOrder order);

/// `turn` as blind mode lets the queue see it: its place only, without judge roles, confidence, outcome or credits,
/// so that no order can put the judge's view into the sequence the annotator walks. Any thread.
QueueTurn blinded(const QueueTurn& turn);

/// The queue of `turns` in `order`. Ties (and Sequential) keep trajectory, then turn order, so the result does
/// not depend on the order of `turns`. Any thread.
std::vector<QueueItem> buildQueue(std::span<const QueueTurn> turns, QueueOrder order);

} // namespace creditlab::ui
