#include "ui/heatmap/heatmapdata.h"

#include "core/credit/explain.h"
#include "core/storage/store.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace creditlab::ui::heatmap {

std::optional<Role> HeatmapData::role(std::size_t row, int turn) const
{
    if (row >= rows.size() || turn < 0 || turn >= columns)
        return std::nullopt;
    const std::int8_t value = roles[index(row, turn)];
    if (value == kNoRole)
        return std::nullopt;
    return static_cast<Role>(value);
}

int HeatmapData::methodIndex(const std::string& method) const
{
    const auto it = std::find(methods.begin(), methods.end(), method);
    return it == methods.end() ? -1 : static_cast<int>(it - methods.begin());
}

HeatmapDataPtr loadHeatmapData(Store& store, std::int64_t runId, std::optional<std::int64_t> iteration,
    std::vector<std::string> methods, const std::function<bool()>& cancelled)
{
    if (methods.empty())
        methods = store.creditMethods(runId);

    // Turns are ragged: collect per-row vectors first, then pad to the widest row.
    struct Pending {
        std::vector<std::vector<double>> values; // per method, one per turn
        std::vector<std::int8_t> roles;
    };
    std::vector<HeatmapRow> rows;
    std::vector<Pending> pending;
    int columns = 0;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const bool finished = store.forEachTrajectoryRow(runId, iteration, [&](std::int64_t rowId, const Trajectory& t) {
        if (cancelled && cancelled())
            return false;
        const int turns = static_cast<int>(t.turns.size());
        rows.push_back(HeatmapRow { rowId, t.id, t.group, t.successOrDefault(), turns, t.reward, t.iteration });
        Pending p;
        p.values.assign(methods.size(), std::vector<double>(t.turns.size(), nan));
        p.roles.resize(t.turns.size(), HeatmapData::kNoRole);
        for (int turn = 0; turn < turns; ++turn) {
            const Turn& tu = t.turns[turn];
            if (tu.role)
                p.roles[turn] = static_cast<std::int8_t>(*tu.role);
            for (const auto& [method, advantage] : tu.credits) {
                const auto it = std::find(methods.begin(), methods.end(), method);
                if (it != methods.end())
                    p.values[it - methods.begin()][turn] = advantage;
            }
        }
        pending.push_back(std::move(p));
        columns = std::max(columns, turns);
        return true;
    });
    if (!finished)
        return nullptr;

    auto data = std::make_shared<HeatmapData>();
    data->columns = columns;
    data->methods = std::move(methods);
    const std::size_t cells = rows.size() * static_cast<std::size_t>(columns);
    data->values.assign(data->methods.size(), std::vector<double>(cells, nan));
    data->roles.assign(cells, HeatmapData::kNoRole);
    for (std::size_t r = 0; r < pending.size(); ++r) {
        const std::size_t base = r * static_cast<std::size_t>(columns);
        for (std::size_t m = 0; m < data->methods.size(); ++m)
            std::copy(pending[r].values[m].begin(), pending[r].values[m].end(), data->values[m].begin() + base);
        std::copy(pending[r].roles.begin(), pending[r].roles.end(), data->roles.begin() + base);
    }
    data->rows = std::move(rows);
    data->zeroReasons = zeroCreditReasons(*data);
    return data;
}

std::vector<std::optional<std::string>> zeroCreditReasons(const HeatmapData& data)
{
    std::vector<std::optional<std::string>> out(data.methods.size());
    // The batches the credits were computed on, one per iteration (as computeRunCredits and the trainer form them),
    // built once and only when some method is all zero: each trajectory's group, outcome and turn count, which is
    // all that zeroCreditReason reads besides the credits.
    std::map<std::int64_t, Batch> batches;
    const auto buildBatches = [&] {
        if (!batches.empty())
            return;
        std::map<std::int64_t, std::vector<Trajectory>> byIteration;
        for (const HeatmapRow& row : data.rows) {
            Trajectory t;
            t.id = row.id;
            t.group = row.group;
            t.reward = row.reward;
            t.success = row.success;
            t.iteration = row.iteration;
            t.turns.resize(static_cast<std::size_t>(std::max(row.turnCount, 0)));
            byIteration[t.iterationOrDefault()].push_back(std::move(t));
        }
        for (auto& [iteration, trajectories] : byIteration)
            batches.emplace(iteration, Batch::fromTrajectories(std::move(trajectories)));
    };
    for (std::size_t m = 0; m < data.methods.size() && m < data.values.size(); ++m) {
        bool any = false;
        bool nonZero = false;
        for (const double v : data.values[m]) {
            if (std::isnan(v))
                continue; // no such turn, or no credit for it
            any = true;
            if (v != 0.0) {
                nonZero = true;
                break;
            }
        }
        if (!any || nonZero)
            continue;
        buildBatches();
        for (const auto& [iteration, batch] : batches) {
            // Every stored credit is 0: the method's result on this batch is all zeros.
            const credit::CreditResult zeros(batch);
            if (auto why = credit::zeroCreditReason(batch, zeros, data.methods[m])) {
                out[m] = std::move(why);
                break;
            }
        }
    }
    return out;
}

} // namespace creditlab::ui::heatmap
