#pragma once

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QSplitter;
class QTabWidget;
class QTableView;

namespace creditlab {
struct Turn;
}

namespace creditlab::ui {

class SortFilterProxyModel;
class TokenView;
class TurnModel;
class Workspace;

/// Shows one trajectory: a summary line, its turns as a table, and below it two tabs: the selected turn in full
/// (observation, action, feedback, reward, validity, role and its source, state, progress, score) in a read-only
/// pane, and the Tokens view (the training sequence token by token, scrolled to the selected turn). All data is
/// shown as plain text. Lives on the GUI thread.
class TrajectoryViewerPage : public QWidget {
    Q_OBJECT
public:
    explicit TrajectoryViewerPage(Workspace* workspace, QWidget* parent = nullptr);

    TurnModel* turnModel() const { return m_turnModel; }
    SortFilterProxyModel* turnProxy() const { return m_turnProxy; }
    QTableView* turnView() const { return m_turnView; }
    QPlainTextEdit* detailView() const { return m_detail; }
    QLabel* summaryLabel() const { return m_summary; }
    TokenView* tokenView() const { return m_tokens; }
    QTabWidget* detailTabs() const { return m_tabs; }

    /// The shown trajectory's store row id; 0 when none.
    qint64 trajectoryRowId() const { return m_rowId; }
    /// The selected turn's index in the trajectory; -1 when none.
    int currentTurn() const;
    /// Selects the turn with this index; false when out of range.
    bool selectTurn(int index);

    QByteArray saveSplitterState() const;
    void restoreSplitterState(const QByteArray& state);

public Q_SLOTS:
    /// Loads and shows the trajectory with this store row id; 0 clears the page.
    void showTrajectory(qint64 rowId);
    void clear();

Q_SIGNALS:
    /// Reading the store failed; the message names the database.
    void errorOccurred(const QString& message);

private:
    void showTurn(int index);
    void writeDetail(const Turn& turn, int index);

    Workspace* m_workspace;
    TurnModel* m_turnModel;
    SortFilterProxyModel* m_turnProxy;
    QLabel* m_summary;
    QSplitter* m_splitter;
    QTableView* m_turnView;
    QPlainTextEdit* m_detail;
    TokenView* m_tokens;
    QTabWidget* m_tabs;
    qint64 m_rowId = 0;
};

} // namespace creditlab::ui
