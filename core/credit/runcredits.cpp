#include "core/credit/runcredits.h"
#include "core/credit/explain.h"

#include <map>
#include <span>

namespace creditlab::credit {

RunCreditsResult computeRunCredits(Store& store, std::int64_t runId, std::optional<std::int64_t> iteration,
    const Estimator& method, const Params& params, const std::string& label,
    const std::function<void(const Trajectory&, const CreditResult&, std::size_t)>& perTrajectory,
    const std::function<void()>& beforeCommit)
{
    if (!store.run(runId))
        throw StoreError(store.path() + ": no run with id " + std::to_string(runId));
    // One batch per iteration, as the trainer computes it.
    std::map<std::int64_t, std::vector<std::int64_t>> rowIds;
    std::map<std::int64_t, std::vector<Trajectory>> byIteration;
    store.forEachTrajectoryRow(runId, iteration, [&](std::int64_t rowId, const Trajectory& t) {
        rowIds[t.iterationOrDefault()].push_back(rowId);
        byIteration[t.iterationOrDefault()].push_back(t);
        return true;
    });
    if (byIteration.empty())
        throw StoreError(store.path() + ": run " + std::to_string(runId) + " has no trajectories"
            + (iteration ? " in iteration " + std::to_string(*iteration) : std::string()));
    std::vector<std::pair<std::int64_t, Batch>> batches;
    for (auto& [it, trajectories] : byIteration) {
        batches.emplace_back(it, Batch::fromTrajectories(std::move(trajectories)));
        method.validate(batches.back().second, params); // every batch checked before anything is written
    }
    RunCreditsResult result;
    result.label = label.empty() ? std::string(method.name()) : label;
    result.tag = std::string(method.name()) + (params.canonical().empty() ? "" : ":") + params.canonical();
    auto tx = store.begin();
    std::vector<std::string> details;
    bool allZero = true;
    for (const auto& [it, batch] : batches) {
        const CreditResult r = method.compute(batch, params);
        auto why = zeroCreditReason(batch, r, method.name());
        if (!why)
            allZero = false;
        else if (!result.zeroReason)
            result.zeroReason = std::move(why);
        const auto& ids = rowIds[it];
        for (std::size_t i = 0; i < batch.trajectories.size(); ++i) {
            details.clear();
            for (std::size_t k = r.offsets[i]; k < r.offsets[i + 1]; ++k)
                details.push_back(r.turnDetailsJson(k));
            store.writeCredits(ids[i], result.label,
                std::span<const double>(r.advantages.data() + r.offsets[i], r.offsets[i + 1] - r.offsets[i]), details,
                result.tag);
            if (perTrajectory)
                perTrajectory(batch.trajectories[i], r, i);
        }
        result.turns += r.advantages.size();
    }
    if (!allZero)
        result.zeroReason.reset();
    if (beforeCommit)
        beforeCommit();
    tx->commit();
    return result;
}

} // namespace creditlab::credit
