#include "ui/compare/compareseries.h"

#include "core/learn/api/trainconfig.h"
#include "core/storage/store.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

namespace creditlab::ui::compare {

namespace {

struct Moments {
    double mean = 0.0;
    double stdev = 0.0;
};

/// Mean and sample standard deviation (n − 1); 0 for a single value.
Moments momentsOf(const std::vector<double>& values)
{
    Moments m;
    if (values.empty())
        return m;
    double sum = 0.0;
    for (const double v : values)
        sum += v;
    m.mean = sum / static_cast<double>(values.size());
    if (values.size() > 1) {
        double squares = 0.0;
        for (const double v : values)
            squares += (v - m.mean) * (v - m.mean);
        m.stdev = std::sqrt(squares / static_cast<double>(values.size() - 1));
    }
    return m;
}

const Series kEmpty;

const Series& seriesOf(const RunSeries& run, const std::string& metric)
{
    const auto it = run.metrics.find(metric);
    return it == run.metrics.end() ? kEmpty : it->second;
}

std::string csvField(const std::string& text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + '"';
}

} // namespace

std::vector<std::int64_t> RunSeries::iterations() const
{
    std::set<std::int64_t> all;
    for (const auto& [name, series] : metrics) {
        for (const auto& [iteration, value] : series)
            all.insert(iteration);
    }
    return { all.begin(), all.end() };
}

ConfigMap parseConfig(const std::string& yaml)
{
    ConfigMap config;
    for (auto& entry : learn::flattenYaml(yaml, "stored config"))
        config[std::move(entry.key)] = std::move(entry.value);
    return config;
}

Series wallTimeOf(const std::map<std::string, Series>& metrics)
{
    std::set<std::int64_t> iterations;
    for (const auto& [name, series] : metrics) {
        for (const auto& [iteration, value] : series)
            iterations.insert(iteration);
    }
    const auto sft = metrics.find(std::string(metricnames::kTimeSft));
    const auto total = metrics.find(std::string(metricnames::kTimeTotal));
    double seconds = 0.0;
    if (sft != metrics.end()) {
        if (const auto it = sft->second.find(0); it != sft->second.end())
            seconds = it->second;
    }
    Series wall;
    for (const std::int64_t iteration : iterations) {
        if (total != metrics.end()) {
            if (const auto it = total->second.find(iteration); it != total->second.end())
                seconds += it->second;
        }
        wall[iteration] = seconds;
    }
    return wall;
}

RunSeries loadRunSeries(Store& store, std::int64_t runId)
{
    std::optional<RunSeries> run = readRunSeries(store, runId);
    if (!run)
        throw std::runtime_error("run " + std::to_string(runId) + " does not exist");
    return std::move(*run);
}

std::optional<RunSeries> readRunSeries(Store& store, std::int64_t runId, const RunSeries* previous)
{
    const std::optional<RunInfo> info = store.run(runId);
    if (!info)
        return std::nullopt;
    RunSeries run;
    std::int64_t from = std::numeric_limits<std::int64_t>::min();
    if (previous && previous->runId == runId && previous->createdAt == info->createdAt) {
        run = *previous;
        const auto iterations = previous->iterations();
        if (!iterations.empty())
            from = iterations.back();
    } else if (const std::optional<std::string> config = store.runConfig(runId)) {
        run.hasConfig = true;
        run.config = parseConfig(*config);
    }
    run.runId = runId;
    run.createdAt = info->createdAt;
    run.name = info->name;
    run.status = info->status;
    for (const MetricPoint& point : store.metrics(runId, from))
        run.metrics[point.name][point.iteration] = point.value;
    run.wallTime = wallTimeOf(run.metrics);
    return run;
}

Curve curveOf(const RunSeries& run, const std::string& metric, Alignment alignment)
{
    Curve curve;
    const Series& series = seriesOf(run, metric);
    curve.x.reserve(series.size());
    curve.y.reserve(series.size());
    for (const auto& [iteration, value] : series) {
        if (alignment == Alignment::Iteration) {
            curve.x.push_back(static_cast<double>(iteration));
        } else {
            const auto it = run.wallTime.find(iteration);
            if (it == run.wallTime.end())
                continue;
            curve.x.push_back(it->second);
        }
        curve.y.push_back(value);
    }
    return curve;
}

std::vector<std::vector<std::size_t>> groupBySeed(const std::vector<const RunSeries*>& runs)
{
    std::vector<std::vector<std::size_t>> groups;
    std::vector<ConfigMap> keys; // the config of each group without seed and name
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (!runs[i]->hasConfig) {
            groups.push_back({ i });
            keys.emplace_back(); // never matched: see the hasConfig check below
            continue;
        }
        ConfigMap key = runs[i]->config;
        key.erase("seed");
        key.erase("name");
        bool placed = false;
        for (std::size_t g = 0; g < groups.size() && !placed; ++g) {
            if (runs[groups[g].front()]->hasConfig && keys[g] == key) {
                groups[g].push_back(i);
                placed = true;
            }
        }
        if (!placed) {
            groups.push_back({ i });
            keys.push_back(std::move(key));
        }
    }
    return groups;
}

BandCurve groupCurve(const std::vector<const RunSeries*>& members, const std::string& metric, Alignment alignment)
{
    std::map<std::int64_t, std::pair<std::vector<double>, std::vector<double>>> byIteration; // x values, y values
    for (const RunSeries* run : members) {
        for (const auto& [iteration, value] : seriesOf(*run, metric)) {
            double x = static_cast<double>(iteration);
            if (alignment == Alignment::WallTime) {
                const auto it = run->wallTime.find(iteration);
                if (it == run->wallTime.end())
                    continue;
                x = it->second;
            }
            auto& [xs, ys] = byIteration[iteration];
            xs.push_back(x);
            ys.push_back(value);
        }
    }
    BandCurve band;
    for (const auto& [iteration, values] : byIteration) {
        const Moments y = momentsOf(values.second);
        band.x.push_back(momentsOf(values.first).mean);
        band.mean.push_back(y.mean);
        band.stdev.push_back(y.stdev);
        band.n.push_back(static_cast<int>(values.second.size()));
    }
    return band;
}

std::optional<ValueAt> valueAt(const Series& series, std::int64_t iteration)
{
    auto it = series.upper_bound(iteration);
    if (it == series.begin())
        return std::nullopt;
    --it;
    return ValueAt { it->second, it->first, it->first < iteration };
}

CompareTable tableAt(const std::vector<const RunSeries*>& runs, const std::vector<std::string>& metrics,
    std::int64_t iteration, std::int64_t baselineRunId, const std::vector<std::vector<std::size_t>>* groups)
{
    CompareTable table;
    table.iteration = iteration;
    table.baselineRunId = baselineRunId;
    table.grouped = groups != nullptr;
    table.metrics = metrics;

    std::vector<std::vector<std::size_t>> rowsOfRuns;
    if (groups) {
        rowsOfRuns = *groups;
    } else {
        for (std::size_t i = 0; i < runs.size(); ++i)
            rowsOfRuns.push_back({ i });
    }
    std::optional<std::size_t> baselineRow;
    for (const auto& members : rowsOfRuns) {
        TableRow row;
        for (const std::size_t i : members) {
            row.runIds.push_back(runs[i]->runId);
            if (baselineRunId != 0 && runs[i]->runId == baselineRunId)
                row.isBaseline = true;
        }
        row.label = runs[members.front()]->name;
        if (members.size() > 1)
            row.label += " (×" + std::to_string(members.size()) + ")";
        for (const std::string& metric : metrics) {
            TableCell cell;
            std::vector<double> values;
            for (const std::size_t i : members) {
                const std::optional<ValueAt> at = valueAt(seriesOf(*runs[i], metric), iteration);
                if (!at)
                    continue;
                values.push_back(at->value);
                cell.fromIteration = std::max(cell.fromIteration, at->iteration);
                cell.carried = cell.carried || at->carried;
            }
            if (!values.empty()) {
                const Moments m = momentsOf(values);
                cell.present = true;
                cell.value = m.mean;
                cell.stdev = m.stdev;
                cell.n = static_cast<int>(values.size());
            }
            row.cells.push_back(cell);
        }
        if (row.isBaseline)
            baselineRow = table.rows.size();
        table.rows.push_back(std::move(row));
    }
    if (baselineRow) {
        const TableRow& base = table.rows[*baselineRow];
        for (TableRow& row : table.rows) {
            for (std::size_t m = 0; m < metrics.size(); ++m) {
                if (row.cells[m].present && base.cells[m].present)
                    row.cells[m].delta = row.cells[m].value - base.cells[m].value;
            }
        }
    }
    return table;
}

std::string defaultMetric(const std::vector<const RunSeries*>& runs, const std::vector<std::string>& names)
{
    // A curve (two points or more: one point draws no line) with a value other than 0 in some run.
    const auto nonZero = [&runs](const std::string& metric) {
        for (const RunSeries* run : runs) {
            const Series& series = seriesOf(*run, metric);
            if (series.size() < 2)
                continue;
            for (const auto& [iteration, value] : series) {
                if (std::isfinite(value) && value != 0.0)
                    return true;
            }
        }
        return false;
    };
    static const std::string kPreferred[]
        = { std::string(metricnames::kEvalSuccess), std::string(metricnames::kRolloutSuccess),
              std::string(metricnames::kEvalReturn), std::string(metricnames::kRolloutReturn), "reward/mean" };
    for (const std::string& metric : kPreferred) {
        if (std::find(names.begin(), names.end(), metric) != names.end() && nonZero(metric))
            return metric;
    }
    std::vector<std::string> ranked = names; // learning metrics before bookkeeping
    std::stable_sort(ranked.begin(), ranked.end(),
        [](const std::string& a, const std::string& b) { return metricnames::rank(a) < metricnames::rank(b); });
    for (const std::string& metric : ranked) {
        if (nonZero(metric))
            return metric;
    }
    return names.empty() ? std::string() : names.front();
}

std::string formatShortest(double value)
{
    if (std::isnan(value))
        return "nan";
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
}

std::string tableToCsv(const CompareTable& table)
{
    const bool withDelta = table.baselineRunId != 0;
    std::string out = "run,run_ids";
    for (const std::string& metric : table.metrics) {
        out += ',' + csvField(metric) + ',' + csvField(metric + " iteration");
        if (table.grouped)
            out += ',' + csvField(metric + " std") + ',' + csvField(metric + " n");
        if (withDelta)
            out += ',' + csvField(metric + " delta");
    }
    out += "\r\n";
    for (const TableRow& row : table.rows) {
        std::string ids;
        for (const std::int64_t id : row.runIds)
            ids += (ids.empty() ? "" : " ") + std::to_string(id);
        out += csvField(row.label) + ',' + ids;
        for (const TableCell& cell : row.cells) {
            out += ',' + (cell.present ? formatShortest(cell.value) : std::string());
            out += ',' + (cell.present ? std::to_string(cell.fromIteration) : std::string());
            if (table.grouped) {
                out += ',' + (cell.present ? formatShortest(cell.stdev) : std::string());
                out += ',' + std::to_string(cell.n);
            }
            if (withDelta)
                out += ',' + (cell.delta ? formatShortest(*cell.delta) : std::string());
        }
        out += "\r\n";
    }
    return out;
}

std::vector<std::string> diffKeys(const std::vector<const RunSeries*>& runs)
{
    std::vector<const RunSeries*> configured;
    std::set<std::string> keys;
    for (const RunSeries* run : runs) {
        if (!run->hasConfig)
            continue;
        configured.push_back(run);
        for (const auto& [key, value] : run->config)
            keys.insert(key);
    }
    keys.erase("name");
    std::vector<std::string> differing;
    for (const std::string& key : keys) {
        std::optional<std::string> first;
        bool differs = false;
        for (std::size_t i = 0; i < configured.size() && !differs; ++i) {
            const auto it = configured[i]->config.find(key);
            const std::optional<std::string> value
                = it == configured[i]->config.end() ? std::nullopt : std::optional(it->second);
            if (i == 0)
                first = value;
            else
                differs = value != first;
        }
        if (differs)
            differing.push_back(key);
    }
    return differing;
}

std::vector<std::string> metricNames(const std::vector<const RunSeries*>& runs)
{
    std::set<std::string> names;
    for (const RunSeries* run : runs) {
        for (const auto& [name, series] : run->metrics)
            names.insert(name);
    }
    std::vector<std::string> sorted;
    const std::string first(metricnames::kEvalSuccess);
    if (names.erase(first) > 0)
        sorted.push_back(first);
    sorted.insert(sorted.end(), names.begin(), names.end());
    return sorted;
}

} // namespace creditlab::ui::compare
