#pragma once

#include "ui/heatmap/heatmapdata.h"
#include "ui/heatmap/heatmapmath.h"

#include <QAbstractTableModel>

#include <vector>

namespace creditlab::ui {

// The two tables of the Credit page's sign-disagreement summary (DisagreementPanel): the pairs of methods with the
// share of their turns that disagree in sign, and the turns one pair disagrees on most. Numbers sort by value through
// SortRole; both live on the GUI thread.

/// One row per pair of methods: how often their signs disagree among the turns where both are non-zero and finite.
class PairDisagreementModel : public QAbstractTableModel {
    Q_OBJECT
public:
    /// Disagreeing shows "disagreeing of compared" and sorts by the disagreeing count.
    enum class Column { Methods, Disagreeing, Share, Count };

    explicit PairDisagreementModel(QObject* parent = nullptr);

    /// Shows `pairs` of `data`'s methods (`data` names them; it must outlive nothing: the names are copied).
    void setPairs(const heatmap::HeatmapData* data, std::vector<heatmap::PairDisagreement> pairs);
    const std::vector<heatmap::PairDisagreement>& pairs() const { return m_pairs; }
    /// The model row of the pair of methods (a, b) in either order; -1 when absent.
    int rowOf(int a, int b) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<heatmap::PairDisagreement> m_pairs;
    std::vector<QString> m_names; ///< "a vs b" per pair
};

/// The turns where one pair of methods disagrees in sign most (heatmap::topDisagreements): trajectory id, turn
/// number (from 1, as every page numbers turns), both values and their gap.
class DisagreeingTurnModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Column { Trajectory, Turn, First, Second, Gap, Count };

    explicit DisagreeingTurnModel(QObject* parent = nullptr);

    /// Shows `turns` of methods `a` and `b` of `data` (nullptr clears); `data` is held.
    void setTurns(heatmap::HeatmapDataPtr data, int a, int b, std::vector<heatmap::DisagreeingTurn> turns);
    const std::vector<heatmap::DisagreeingTurn>& turns() const { return m_turns; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    heatmap::HeatmapDataPtr m_data;
    int m_a = -1;
    int m_b = -1;
    std::vector<heatmap::DisagreeingTurn> m_turns;
};

} // namespace creditlab::ui
