#pragma once

#include <QDialog>
#include <QList>

class QLineEdit;
class QTableView;

namespace creditlab::ui {

class RunModel;
class SortFilterProxyModel;
class Workspace;

/// "Add runs…" of the Compare page: the database's runs with a filter box, several selectable; runs
/// already compared are left out. Reads the workspace's GUI-thread store once when opened. GUI thread.
class CompareAddRunsDialog : public QDialog {
    Q_OBJECT
public:
    CompareAddRunsDialog(Workspace* workspace, const QList<qint64>& alreadyCompared, QWidget* parent = nullptr);

    /// The selected runs, newest first as listed.
    QList<qint64> selectedRunIds() const;
    /// Selects the listed run (tests, keyboard users); false when it is not listed.
    bool selectRun(qint64 runId);
    QLineEdit* filterEdit() const { return m_filter; }
    RunModel* runModel() const { return m_model; }

private:
    RunModel* m_model;
    SortFilterProxyModel* m_proxy;
    QLineEdit* m_filter;
    QTableView* m_view;
};

} // namespace creditlab::ui
