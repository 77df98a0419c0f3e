#include "ui/annotate/annotationqueue.h"

#include <algorithm>
#include <tuple>

namespace creditlab::ui {

double creditSpread(std::span<const double> credits)
{
    if (credits.size() < 2)
        return 0.0;
    const auto [lo, hi] = std::minmax_element(credits.begin(), credits.end());
    return *hi - *lo;
}

bool isTriageConflict(const QueueTurn& turn)
{
    const Role wrong = turn.success ? Role::R : Role::E;
    return std::find(turn.judgeRoles.begin(), turn.judgeRoles.end(), wrong) != turn.judgeRoles.end();
}

bool orderReadsHidden(QueueOrder order)
{
    switch (order) {
    case QueueOrder::Sequential:
        return false;
    case QueueOrder::JudgeLeastSure:
    case QueueOrder::MethodsDisagree:
    case QueueOrder::TriageConflicts:
        return true;
    }
    return true; // an order added later reads hidden data until it says otherwise
}

QueueTurn blinded(const QueueTurn& turn)
{
    return QueueTurn { turn.trajectory, turn.turn, false, {}, std::nullopt, {} };
}

std::vector<QueueItem> buildQueue(std::span<const QueueTurn> turns, QueueOrder order)
{
    std::vector<const QueueTurn*> sorted;
    sorted.reserve(turns.size());
    for (const QueueTurn& t : turns)
        sorted.push_back(&t);
    const auto sequential = [](const QueueTurn* a, const QueueTurn* b) {
        return std::tie(a->trajectory, a->turn) < std::tie(b->trajectory, b->turn);
    };
    std::sort(sorted.begin(), sorted.end(), sequential);

    switch (order) {
    case QueueOrder::Sequential:
        break;
    case QueueOrder::JudgeLeastSure:
        std::stable_sort(sorted.begin(), sorted.end(), [](const QueueTurn* a, const QueueTurn* b) {
            if (a->judgeConfidence.has_value() != b->judgeConfidence.has_value())
                return a->judgeConfidence.has_value(); // missing confidence last
            return a->judgeConfidence.has_value() && *a->judgeConfidence < *b->judgeConfidence;
        });
        break;
    case QueueOrder::MethodsDisagree:
        std::stable_sort(sorted.begin(), sorted.end(),
            [](const QueueTurn* a, const QueueTurn* b) { return creditSpread(a->credits) > creditSpread(b->credits); });
        break;
    case QueueOrder::TriageConflicts:
        std::stable_partition(sorted.begin(), sorted.end(), [](const QueueTurn* t) { return isTriageConflict(*t); });
        break;
    }

    std::vector<QueueItem> out;
    out.reserve(sorted.size());
    for (const QueueTurn* t : sorted)
        out.push_back(QueueItem { t->trajectory, t->turn });
    return out;
}

} // namespace creditlab::ui
