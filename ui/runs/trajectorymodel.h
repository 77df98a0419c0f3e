#pragma once

#include "core/storage/store.h"

#include <QAbstractTableModel>

#include <vector>

namespace creditlab::ui {

/// The trajectories of one run (without their turns) as a table. Holds a value snapshot set by
/// setTrajectories(); IdRole (= Qt::UserRole) gives the trajectory's row id in the store.
/// Lives on the GUI thread.
class TrajectoryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Column { Id, Group, Task, Iteration, Reward, Success, Turns, Count };

    explicit TrajectoryModel(QObject* parent = nullptr);

    /// Replaces the snapshot (a model reset).
    void setTrajectories(std::vector<TrajectoryInfo> trajectories);
    const std::vector<TrajectoryInfo>& trajectories() const { return m_trajectories; }
    /// The row of the trajectory with this store row id, or -1.
    int rowOfTrajectory(qint64 rowId) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant display(const TrajectoryInfo& info, Column column) const;
    QVariant sortValue(const TrajectoryInfo& info, Column column) const;

    std::vector<TrajectoryInfo> m_trajectories;
};

} // namespace creditlab::ui
