#pragma once

#include "ui/heatmap/heatmapdata.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace creditlab::ui {

class DisagreeingTurnModel;
class PairDisagreementModel;
class SortFilterProxyModel;

/// The Credit page's sign-disagreement summary: for each pair of the run's methods, the share of turns whose signs
/// disagree (among the turns where both are non-zero and finite), and for the selected pair the turns they disagree
/// on most. Clicking a turn selects its cell in the heatmap (turnSelected); a double click opens it (turnActivated).
/// Pure maths in heatmap/heatmapmath.h. Lives on the GUI thread.
class DisagreementPanel : public QWidget {
    Q_OBJECT
public:
    /// How many turns the top list holds.
    static constexpr std::size_t kTopTurns = 50;

    explicit DisagreementPanel(QWidget* parent = nullptr);

    /// Summarises every pair of `data`'s methods (nullptr clears) and selects the pair (`first`, `second`) when both
    /// are method indices, else the first pair.
    void setData(heatmap::HeatmapDataPtr data, int first = -1, int second = -1);
    /// Selects the pair of methods (a, b), in either order, when it is listed.
    void selectPair(int a, int b);
    PairDisagreementModel* pairModel() const { return m_pairs; }
    DisagreeingTurnModel* turnModel() const { return m_turns; }
    QTableView* pairView() const { return m_pairView; }
    QTableView* turnView() const { return m_turnView; }

Q_SIGNALS:
    /// A top turn was clicked: its data row and 0-based turn.
    void turnSelected(std::size_t row, int turn);
    /// A top turn was double-clicked: open it (the trajectory's store row id, the 0-based turn).
    void turnActivated(qint64 trajectoryRowId, int turn);

private:
    void showPair(int pairRow);
    int currentTurnRow(const QModelIndex& proxyIndex) const;

    heatmap::HeatmapDataPtr m_data;
    PairDisagreementModel* m_pairs;
    DisagreeingTurnModel* m_turns;
    SortFilterProxyModel* m_pairProxy;
    SortFilterProxyModel* m_turnProxy;
    QTableView* m_pairView;
    QTableView* m_turnView;
    QLabel* m_turnTitle;
};

} // namespace creditlab::ui
