#include "ui/heatmap/heatmapdata.h"

#include "core/store.h"

#include <algorithm>
#include <cmath>

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
        rows.push_back(HeatmapRow { rowId, t.id, t.group, t.successOrDefault(), turns });
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
    return data;
}

} // namespace creditlab::ui::heatmap
