#pragma once

#include "core/model/trajectory.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace creditlab {
class Store;
}

namespace creditlab::ui::heatmap {

/// One heatmap row: a trajectory.
struct HeatmapRow {
    std::int64_t rowId = 0; ///< the store's key
    std::string id; ///< the JSONL id
    std::string group;
    bool success = false;
    int turnCount = 0;
    double reward = 0.0; ///< the outcome reward
    std::optional<std::int64_t> iteration = std::nullopt; ///< nullopt for imported trajectories
};

/// An immutable snapshot of the advantages of a run (or one iteration) for several credit methods:
/// rows = trajectories in store order, columns = turns (up to the longest trajectory). Built on any
/// thread, then shared read-only (as HeatmapDataPtr) with the GUI thread.
struct HeatmapData {
    static constexpr std::int8_t kNoRole = -1;

    std::vector<HeatmapRow> rows;
    int columns = 0; ///< the largest turn count
    std::vector<std::string> methods;
    /// Per method, rows × columns row-major; NaN where the trajectory has no such turn or no credit.
    std::vector<std::vector<double>> values;
    /// rows × columns row-major: the turn's Role as an integer, kNoRole when unlabelled or absent.
    std::vector<std::int8_t> roles;
    /// Per method (as `methods`): when every credit it has here is 0, why, in words a user can act on
    /// (credit::zeroCreditReason on each iteration's batch, the first batch's reason); else nullopt.
    std::vector<std::optional<std::string>> zeroReasons;

    std::size_t index(std::size_t row, int turn) const { return row * static_cast<std::size_t>(columns) + turn; }
    /// NaN outside the matrix.
    double value(std::size_t method, std::size_t row, int turn) const
    {
        if (method >= values.size() || row >= rows.size() || turn < 0 || turn >= columns)
            return std::numeric_limits<double>::quiet_NaN();
        return values[method][index(row, turn)];
    }
    std::optional<Role> role(std::size_t row, int turn) const;
    /// The index of `method` in `methods`, or -1.
    int methodIndex(const std::string& method) const;
};
using HeatmapDataPtr = std::shared_ptr<const HeatmapData>;

/// HeatmapData::zeroReasons of `data` (whose values and rows are filled). Any thread.
std::vector<std::optional<std::string>> zeroCreditReasons(const HeatmapData& data);

/// Builds a heatmap snapshot from `store` (opened by the calling thread; any thread): the trajectories of
/// `runId` (only `iteration` when given) and the credits of `methods` (every method the run has when
/// empty), with the reasons for all-zero credits. Reads in one read transaction. `cancelled` is polled between
/// trajectories; when it returns true the load stops and returns nullptr. Throws StoreError on database errors.
HeatmapDataPtr loadHeatmapData(Store& store, std::int64_t runId, std::optional<std::int64_t> iteration,
    std::vector<std::string> methods, const std::function<bool()>& cancelled = {});

} // namespace creditlab::ui::heatmap
