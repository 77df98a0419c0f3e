#pragma once

#include "core/storage/store.h"

#include <QWidget>

#include <vector>

class QCheckBox;
class QLabel;
class QPushButton;
class QTableView;

namespace creditlab::ui {

class SortFilterProxyModel;
class TokenModel;

/// The Tokens view of a trajectory: the exact sequence the update trained on, one row per token, with its loss mask,
/// behaviour and current log-prob, their difference and its advantage (TokenModel). A summary line gives the counts
/// and the drift between the sampler and the trainer; "Trained only" hides the context, "Largest drift" (Ctrl+D) jumps
/// to the worst token. Shows why nothing is there when the trajectory has no stored tokens. GUI thread.
class TokenView : public QWidget {
    Q_OBJECT
public:
    explicit TokenView(QWidget* parent = nullptr);

    /// Shows these segments (empty: the explanation why none are stored).
    void setSegments(std::vector<TokenSegment> segments);
    void clear();
    /// Scrolls to (and selects) the first token of `turn`, 0-based; false when it has none shown.
    bool showTurn(int turn);
    /// Selects the trained token with the largest |current - behaviour|; false when there is none.
    bool showLargestDrift();

    TokenModel* model() const { return m_model; }
    QTableView* tableView() const { return m_table; }
    QLabel* summaryLabel() const { return m_summary; }
    QCheckBox* trainedOnlyBox() const { return m_trainedOnly; }

private:
    void updateSummary();
    bool selectSourceRow(int row);

    TokenModel* m_model;
    SortFilterProxyModel* m_proxy;
    QLabel* m_summary;
    QCheckBox* m_trainedOnly;
    QPushButton* m_largest;
    QTableView* m_table;
};

} // namespace creditlab::ui
