#pragma once

#include "core/storage/store.h"
#include "ui/treeview/rollouttreeview.h"

#include "ui/common/runcombo.h"

#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace creditlab::ui {

class Workspace;

/// One group's trajectories as the rollout tree it makes (issue 7 §1).
struct TreeGroupData {
    treeview::TreePtr tree;
    std::vector<Trajectory> trajectories; ///< the group, in the tree's trajectory order
    std::vector<qint64> rowIds; ///< per trajectory
};
using TreeGroupDataPtr = std::shared_ptr<const TreeGroupData>;

/// The rollout tree of one group of one run: run, iteration and group choosers, colour-by and method choosers,
/// search, follow-a-rollout, a details pane for the clicked node or edge (observation, action, feedback, visits, Q/V,
/// its turns numbered from 1 and every method's credit) and the tree's statistics. A group is the trajectories of a
/// run sharing a group key and an iteration; imported trajectories have none and are listed under the iteration
/// "none (imported)".
/// Loads in the background with its own store connection and drops stale results; a database change clears
/// everything shown. The iteration and group lists follow the run as it grows (Workspace::runsChanged, as the other
/// pages follow it). GUI thread.
class TreePage : public QWidget {
    Q_OBJECT
public:
    explicit TreePage(Workspace* workspace, QWidget* parent = nullptr);
    ~TreePage() override;

    /// Shows run `runId`, and its group `groupKey` when given (else the first group).
    void showRun(qint64 runId, const QString& groupKey = {});
    qint64 runId() const { return m_runId; }
    /// The run selected elsewhere (the Runs page): shown at once when the page is visible, else when it next appears
    /// (or when the run is listed, for one just imported). The most recent choice wins: a run picked here afterwards
    /// stays until another is selected; a database change forgets it.
    void followRun(qint64 runId);
    treeview::RolloutTreeView* view() const { return m_view; }
    const TreeGroupDataPtr& data() const { return m_data; }
    /// The statistics line and the details pane's text (for tests and the lead's wiring).
    QString statisticsText() const;
    QString detailsText() const;
    /// The status line: the group loading or loaded, search matches, or why there is nothing to show.
    QString statusText() const;
    QComboBox* iterationChooser() const { return m_iteration; }
    QComboBox* groupChooser() const { return m_group; }
    QComboBox* methodChooser() const { return m_method; }
    QComboBox* rolloutChooser() const { return m_rollout; }

Q_SIGNALS:
    /// A group's load finished (shown) or failed (errorOccurred came first).
    void loaded();
    void errorOccurred(const QString& message);
    /// "Open turn" on the selected node or edge: its first turn.
    void turnActivated(qint64 trajectoryRowId, int turn);

protected:
    /// Loads the run the run list shows when the page appears with none loaded (first show, a database change).
    void showEvent(QShowEvent* event) override;

private:
    void reloadRuns();
    /// Shows the run followRun() left pending, when it is listed; false when there is none to show.
    bool showFollowedRun();
    /// Reads the run's groups and fills the iteration chooser (keeping its iteration when the run has it), then the
    /// group chooser.
    void reloadIterations();
    /// Re-reads the shown run's iterations and groups after the database changed (Workspace::runsChanged), keeping the
    /// group on screen; loads one when there was none to show or the one shown is gone.
    void refreshGroups();
    void reloadGroups();
    void load();
    /// Drops the group shown: tree, statistics, details, methods, rollouts, search and selection.
    void clearShown();
    void onLoaded(const TreeGroupDataPtr& data);
    void applyColor();
    void showNode(tree::NodeId node);
    void showEdge(tree::EdgeId edge);
    QString creditLines(const std::vector<tree::TurnRef>& turns) const;
    /// "turn 2 of R1, turn 2 of R2 and 3 more": turns numbered from 1, as every page numbers them.
    QString turnList(const std::vector<tree::TurnRef>& turns) const;
    void select(const std::vector<tree::TurnRef>& turns);

    Workspace* m_workspace;
    qint64 m_runId = 0;
    FollowedRun m_follow; ///< the run selected in Runs, until it shows or the user picks another
    quint64 m_generation = 0;
    std::vector<GroupInfo> m_groups; ///< the run's, as the store lists them
    bool m_groupsStale = false; ///< the database changed while the page was hidden: refreshGroups() when it shows
    TreeGroupDataPtr m_data;
    tree::TurnRef m_selectedTurn;
    bool m_hasSelection = false;
    QComboBox* m_run;
    QComboBox* m_iteration;
    QComboBox* m_group;
    QComboBox* m_colorBy;
    QComboBox* m_method;
    QLineEdit* m_search;
    QComboBox* m_rollout;
    QLabel* m_status;
    QLabel* m_statistics;
    treeview::RolloutTreeView* m_view;
    QPlainTextEdit* m_details;
    QPushButton* m_open;
};

} // namespace creditlab::ui
