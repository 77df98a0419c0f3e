#pragma once

#include "core/model/vocabulary.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace creditlab {
class Store;
}

namespace creditlab::ui::compare {

/// Parsed run config: key → value text (quotes removed), from TrainConfig::toYaml's one `key: value`
/// line per key. Ordered by key.
using ConfigMap = std::map<std::string, std::string>;
/// One metric's values by iteration.
using Series = std::map<std::int64_t, double>;

/// What the x axis of a compare chart counts.
enum class Alignment {
    Iteration, ///< x = the iteration
    WallTime, ///< x = cumulative seconds of training (see wallTimeOf)
};

/// One run's metrics and config, read once: an immutable value snapshot that crosses threads.
struct RunSeries {
    std::int64_t runId = 0;
    std::string name;
    RunStatus status = RunStatus::Finished;
    std::string createdAt; ///< tells a run from a later one that reused its id
    bool hasConfig = false;
    ConfigMap config;
    std::map<std::string, Series> metrics; ///< metric name → iteration → value
    Series wallTime; ///< iteration → cumulative seconds, see wallTimeOf

    /// The iterations that have any metric, ascending.
    std::vector<std::int64_t> iterations() const;
};

/// A stored config as key → value (learn::flattenYaml: nested maps as dotted keys, YAML's quoting and folding).
/// Throws ConfigError naming the line for malformed YAML. Any thread.
ConfigMap parseConfig(const std::string& yaml);

/// Cumulative wall-clock seconds per iteration: `time/sft_s` of iteration 0 (when present) plus the
/// running sum of `time/total_s` (the seconds of each iteration) up to and including that iteration.
/// Every iteration that has any metric gets an x value. Any thread.
Series wallTimeOf(const std::map<std::string, Series>& metrics);

/// Reads one run through `store` (the calling thread's own Store). Throws what Store throws, or
/// std::runtime_error when the run does not exist. Any thread.
RunSeries loadRunSeries(Store& store, std::int64_t runId);
/// Reads a run's series, nullopt when the run does not exist. With `previous` (an earlier read of the same run)
/// it reads only what can have changed: the run row once, and the metrics from previous's last iteration on (that
/// iteration again, since a run may add to it); the stored config is kept. Any thread.
std::optional<RunSeries> readRunSeries(Store& store, std::int64_t runId, const RunSeries* previous = nullptr);

/// A metric of a run as x/y vectors under the alignment; iterations without an x value are skipped.
struct Curve {
    std::vector<double> x;
    std::vector<double> y;
};
Curve curveOf(const RunSeries& run, const std::string& metric, Alignment alignment);

/// Indices into `runs` of runs whose configs differ only in `seed` and `name`, in order of first
/// appearance; each group lists its members in input order. Runs without a config are each a group
/// of their own (nothing says they are seeds of one setup). Any thread.
std::vector<std::vector<std::size_t>> groupBySeed(const std::vector<const RunSeries*>& runs);

/// Mean ± sample standard deviation (n − 1 in the denominator; 0 for n = 1) of one metric across the
/// members of a group, per iteration, over the members that have that iteration. With wall-time
/// alignment, x is the mean of those members' wall times. Any thread.
struct BandCurve {
    std::vector<double> x;
    std::vector<double> mean;
    std::vector<double> stdev;
    std::vector<int> n;
};
BandCurve groupCurve(const std::vector<const RunSeries*>& members, const std::string& metric, Alignment alignment);

/// The value of a series at `iteration`: exact when present, else the last one before it (carried);
/// nullopt when the series has nothing at or before it. Any thread.
struct ValueAt {
    double value = 0.0;
    std::int64_t iteration = 0; ///< where the value comes from
    bool carried = false; ///< iteration < the requested one
};
std::optional<ValueAt> valueAt(const Series& series, std::int64_t iteration);

/// One cell of the table at a chosen iteration.
struct TableCell {
    bool present = false; ///< false: no value at or before the iteration
    double value = 0.0; ///< the run's value, or the group's mean
    double stdev = 0.0; ///< sample std across the group's members (0 for a single run)
    int n = 0; ///< how many runs contribute
    std::int64_t fromIteration = 0; ///< the (latest) iteration the value comes from
    bool carried = false; ///< some contribution is the last value before the iteration
    std::optional<double> delta; ///< value − the baseline row's value, where both exist
};

/// One row: a run, or a group of seeds.
struct TableRow {
    std::string label;
    std::vector<std::int64_t> runIds; ///< one for a run, the members for a group
    bool isBaseline = false;
    std::vector<TableCell> cells; ///< one per CompareTable::metrics
};

/// The compared runs (or groups) side by side at one iteration, with deltas against the baseline.
struct CompareTable {
    std::int64_t iteration = 0;
    std::int64_t baselineRunId = 0; ///< 0: none pinned
    bool grouped = false;
    std::vector<std::string> metrics;
    std::vector<TableRow> rows;
};

/// Builds the table at `iteration` for `metrics`. With `groups` (indices into `runs`, as groupBySeed
/// gives), one row per group whose value is the mean of its members' values (each exact or carried);
/// without, one row per run. The baseline row is the one containing `baselineRunId`; every row's delta
/// is its value minus the baseline row's value for the same metric. Any thread.
CompareTable tableAt(const std::vector<const RunSeries*>& runs, const std::vector<std::string>& metrics,
    std::int64_t iteration, std::int64_t baselineRunId, const std::vector<std::vector<std::size_t>>* groups = nullptr);

/// The table as CSV (RFC 4180 quoting, numbers in shortest round-trip form): columns `run`, `run_ids`,
/// then per metric its value, `<metric> iteration` (where the value comes from), `<metric> std` and
/// `<metric> n` when grouped, and `<metric> delta` when a baseline is pinned. Any thread.
std::string tableToCsv(const CompareTable& table);

/// The config keys whose values differ between the runs (a key missing in some run counts as
/// different), sorted; `name` is left out (every run has its own, shown beside it). Runs without a
/// config are ignored. W&B's "diff only". Any thread.
std::vector<std::string> diffKeys(const std::vector<const RunSeries*>& runs);

/// All metric names of the runs, sorted, with `eval/success` first when present. Any thread.
std::vector<std::string> metricNames(const std::vector<const RunSeries*>& runs);

/// The metric a comparison opens on: the first of a preferred list (eval/success, rollout/success, eval/return,
/// rollout/return, reward/mean) that some run has a curve of (two points or more) with a value other than 0, else the
/// first such metric of `names` in metricnames::rank order, else the first of `names`; empty when there is none. A
/// metric that is all zeros (runs early in training, a method that never succeeds) draws a flat line on the axis,
/// and one point draws no line at all. Any thread.
std::string defaultMetric(const std::vector<const RunSeries*>& runs, const std::vector<std::string>& names);

/// Shortest text that reads back as the same double ("0.1", "3", "1e-07"). Any thread.
std::string formatShortest(double value);

} // namespace creditlab::ui::compare
