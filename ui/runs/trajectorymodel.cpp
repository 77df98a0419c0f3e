#include "ui/runs/trajectorymodel.h"

#include "ui/common/itemroles.h"
#include "ui/common/textutil.h"

#include <QBrush>
#include <QColor>

namespace creditlab::ui {

namespace {
QString taskText(const Task& task)
{
    if (task.key)
        return toQString(*task.key);
    if (task.env)
        return toQString(*task.env);
    return {};
}
} // namespace

TrajectoryModel::TrajectoryModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void TrajectoryModel::setTrajectories(std::vector<TrajectoryInfo> trajectories)
{
    beginResetModel();
    m_trajectories = std::move(trajectories);
    endResetModel();
}

int TrajectoryModel::rowOfTrajectory(qint64 rowId) const
{
    for (std::size_t i = 0; i < m_trajectories.size(); ++i) {
        if (m_trajectories[i].rowId == rowId)
            return static_cast<int>(i);
    }
    return -1;
}

int TrajectoryModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_trajectories.size());
}

int TrajectoryModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(Column::Count);
}

QVariant TrajectoryModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.model() != this || index.row() >= rowCount())
        return {};
    const TrajectoryInfo& info = m_trajectories[static_cast<std::size_t>(index.row())];
    const auto column = static_cast<Column>(index.column());

    switch (role) {
    case Qt::DisplayRole:
        return display(info, column);
    case IdRole:
        return QVariant::fromValue<qint64>(info.rowId);
    case SortRole:
        return sortValue(info, column);
    case FullTextRole:
        switch (column) {
        case Column::Id:
            return toQString(info.id);
        case Column::Group:
            return toQString(info.group);
        case Column::Task:
            return taskText(info.task);
        default:
            return display(info, column);
        }
    case Qt::ToolTipRole:
        if (column == Column::Task && info.task.goal)
            return plainTooltip(toQString(*info.task.goal));
        if (column == Column::Id || column == Column::Group)
            return plainTooltip(data(index, FullTextRole).toString());
        return {};
    case Qt::TextAlignmentRole:
        switch (column) {
        case Column::Iteration:
        case Column::Reward:
        case Column::Turns:
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        case Column::Success:
            return QVariant::fromValue(Qt::AlignCenter);
        default:
            return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
        }
    case Qt::ForegroundRole:
        if (column == Column::Success)
            return QBrush(info.successOrDefault() ? QColor(0x1b, 0x7f, 0x3b) : QColor(0xb0, 0x2a, 0x2a));
        return {};
    default:
        return {};
    }
}

QVariant TrajectoryModel::display(const TrajectoryInfo& info, Column column) const
{
    switch (column) {
    case Column::Id:
        return previewText(toQString(info.id));
    case Column::Group:
        return previewText(toQString(info.group));
    case Column::Task:
        return previewText(taskText(info.task));
    case Column::Iteration:
        return info.iteration ? QVariant::fromValue<qint64>(*info.iteration) : QVariant(QString());
    case Column::Reward:
        return formatNumber(info.reward);
    case Column::Success:
        return info.successOrDefault() ? tr("yes") : tr("no");
    case Column::Turns:
        return QVariant::fromValue<qint64>(info.turnCount);
    case Column::Count:
        break;
    }
    return {};
}

QVariant TrajectoryModel::sortValue(const TrajectoryInfo& info, Column column) const
{
    switch (column) {
    case Column::Iteration:
        // Trajectories without an iteration sort before iteration 0.
        return QVariant::fromValue<qint64>(info.iteration.value_or(-1));
    case Column::Reward:
        return info.reward;
    case Column::Success:
        return info.successOrDefault() ? 1 : 0;
    case Column::Turns:
        return QVariant::fromValue<qint64>(info.turnCount);
    case Column::Id:
        return toQString(info.id);
    case Column::Group:
        return toQString(info.group);
    case Column::Task:
        return taskText(info.task);
    case Column::Count:
        break;
    }
    return {};
}

QVariant TrajectoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (static_cast<Column>(section)) {
    case Column::Id:
        return tr("Id");
    case Column::Group:
        return tr("Group");
    case Column::Task:
        return tr("Task");
    case Column::Iteration:
        return tr("Iteration");
    case Column::Reward:
        return tr("Reward");
    case Column::Success:
        return tr("Success");
    case Column::Turns:
        return tr("Turns");
    case Column::Count:
        break;
    }
    return {};
}

} // namespace creditlab::ui
