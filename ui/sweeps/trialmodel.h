#pragma once

#include "core/learn/api/sweep.h"
#include "core/storage/store.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace creditlab::ui {

/// Per-parameter aggregates of trial objectives, for the sweep's result charts: mean, standard deviation and
/// count over every trial at each (y, x) cell (seeds and keys not shown are averaged over).
struct TrialAggregate {
    QStringList xLabels; ///< the x key's values, numerically sorted when they are all numbers
    QStringList yLabels; ///< the y key's values; one empty label when there is no y key
    std::vector<double> xValues; ///< the numbers of xLabels, when numeric
    bool numericX = false;
    std::vector<double> mean; ///< row-major, yLabels.size() × xLabels.size(); NaN where no trial has a value
    std::vector<double> std; ///< sample standard deviation; NaN for fewer than two values
    std::vector<int> count;
};

/// The trials of one sweep as a table: the trial number, one column per swept key, the trial's run, status,
/// progress and objective. Filled from progress snapshots (live) or from the store (past sweeps). GUI thread.
class TrialModel : public QAbstractTableModel {
    Q_OBJECT
public:
    /// The fixed columns; the swept keys' columns sit between Trial and Run.
    enum class Column { Trial, Parameter, Run, Status, Progress, Objective };

    explicit TrialModel(QObject* parent = nullptr);

    /// Shows `progress`: rows are updated in place while the trials and keys stay the same, else reset.
    void setSnapshot(const learn::SweepProgress& progress);
    /// Shows a stored sweep's trials: status, run and objective, and with `runs` (the trials' runs by id) each
    /// running trial's iterations done of those planned, as read from its run row (a sweep another process runs).
    void setStoredTrials(std::int64_t sweepId, const std::vector<TrialInfo>& trials,
        const std::map<std::int64_t, RunInfo>& runs = {});
    void clear();

    std::int64_t sweepId() const { return m_sweepId; }
    /// The swept keys in column order (from the trials' points).
    const std::vector<std::string>& keys() const { return m_keys; }
    const std::vector<learn::TrialProgress>& trials() const { return m_trials; }
    Column columnKind(int column) const;
    /// The section of a fixed column (Column::Parameter gives the first key's column).
    int columnOf(Column column) const;

    /// Aggregates `values` (one per trial, e.g. each trial's objective) over the values of `xKey` and, when not
    /// empty, `yKey`.
    TrialAggregate aggregate(
        const std::vector<std::optional<double>>& values, const std::string& xKey, const std::string& yKey) const;

    /// The table as CSV: a header line, then one line per trial, fields quoted where needed (RFC 4180).
    QString toCsv() const;
    /// Writes toCsv() to `path` atomically; false with the reason in `error` when it cannot.
    bool writeCsv(const QString& path, QString* error = nullptr) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString text(const learn::TrialProgress& trial, int column) const;
    void replace(std::int64_t sweepId, std::vector<learn::TrialProgress> trials);

    std::int64_t m_sweepId = 0;
    std::vector<std::string> m_keys;
    std::vector<learn::TrialProgress> m_trials;
};

} // namespace creditlab::ui
