#pragma once

#include "ui/compare/compareseries.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QList>
#include <QString>

#include <utility>
#include <vector>

namespace creditlab::ui {

/// The runs being compared: one checkable row per run (checked = drawn), its colour swatch
/// (Qt::DecorationRole of the name column), name, the config keys in which it differs from the
/// others, and a baseline column; the pinned baseline's row is bold. IdRole gives the run id.
/// Lives on the GUI thread.
class CompareRunsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Column { Name, Baseline, Config, Count };

    /// One compared run as the list shows it.
    struct Entry {
        qint64 runId = 0;
        QString name;
        RunStatus status = RunStatus::Finished;
        QColor color;
        bool visible = true;
        /// (key, value) of the config keys that differ between the compared runs; empty when the run has
        /// no config.
        std::vector<std::pair<QString, QString>> diff;
    };

    explicit CompareRunsModel(QObject* parent = nullptr);

    /// Replaces the rows (a model reset). The baseline stays pinned when its run is still listed.
    void setEntries(std::vector<Entry> entries);
    const std::vector<Entry>& entries() const { return m_entries; }
    /// The row of the run, or -1.
    int rowOfRun(qint64 runId) const;
    /// The listed run ids, in row order.
    QList<qint64> runIds() const;
    /// The checked (drawn) run ids, in row order.
    QList<qint64> visibleRunIds() const;
    bool isVisible(qint64 runId) const;
    /// Checks or unchecks a run; emits visibilityChanged() when that changes it. False when not listed.
    bool setVisible(qint64 runId, bool visible);
    /// Pins a listed run as the baseline; 0 (or a run not listed) unpins.
    void setBaseline(qint64 runId);
    qint64 baseline() const { return m_baseline; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    /// A run was checked or unchecked (by the user or setVisible()).
    void visibilityChanged(qint64 runId, bool visible);
    /// The pinned baseline changed; 0 when none.
    void baselineChanged(qint64 runId);

private:
    std::vector<Entry> m_entries;
    qint64 m_baseline = 0;
};

/// The compared runs (or seed groups) at one iteration: one row per run or group, column 0 the run,
/// then one column per metric. A cell shows the value (a group's mean ± std with n), "*" when it is the
/// last value before the iteration, and the delta against the pinned baseline as "(+0.12)"; the tooltip
/// says where the value comes from and the delta. SortRole gives the value, IdRole the first run id.
/// Lives on the GUI thread.
class CompareTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit CompareTableModel(QObject* parent = nullptr);

    /// Replaces the table (a model reset).
    void setTable(compare::CompareTable table);
    const compare::CompareTable& table() const { return m_table; }
    /// The metric of a column; empty for column 0.
    QString metricOfColumn(int column) const;
    /// The cell of a metric column (column ≥ 1), or nullptr.
    const compare::TableCell* cell(int row, int column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// A delta as text with its sign, e.g. "+0.12" or "−0.05". Any thread.
    static QString formatDelta(double delta);

private:
    QString cellText(const compare::TableRow& row, const compare::TableCell& cell) const;
    QString cellToolTip(const compare::TableRow& row, const compare::TableCell& cell, int column) const;

    compare::CompareTable m_table;
};

} // namespace creditlab::ui
