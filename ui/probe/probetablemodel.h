#pragma once

#include "core/learn/api/backend.h"

#include <QAbstractTableModel>

namespace creditlab::ui {

/// PAIR's AUROC table (pair.md Table 1 on our environment) as a table model: one row per probe, with its feature
/// count, AUROC on clean-prefix, contaminated-prefix and all test records, ECE and Brier. Numbers show 3 decimals
/// (FullTextRole: every digit, for CSV) and the best value of each metric column is bold (highest AUROC, lowest
/// ECE and Brier). GUI thread.
class ProbeTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Column { Probe, Dims, AurocClean, AurocContaminated, AurocUnion, Ece, Brier, Count };

    explicit ProbeTableModel(QObject* parent = nullptr);

    /// Shows `rows` (resets the model).
    void setRows(std::vector<learn::ProbeRow> rows);
    void clear();
    const std::vector<learn::ProbeRow>& rows() const { return m_rows; }
    /// The row whose value in `column` is best (a metric column), or -1 when none has a finite value.
    int bestRow(Column column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<learn::ProbeRow> m_rows;
    std::vector<int> m_best; ///< bestRow() per column, cached by setRows()
};

/// A metric of a row by column (NaN for Probe and Dims). Any thread.
double probeMetric(const learn::ProbeRow& row, ProbeTableModel::Column column);

} // namespace creditlab::ui
