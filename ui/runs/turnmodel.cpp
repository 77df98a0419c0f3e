#include "ui/runs/turnmodel.h"

#include "ui/common/itemroles.h"
#include "ui/common/textutil.h"

#include <QBrush>
#include <QColor>
#include <algorithm>

namespace creditlab::ui {

TurnModel::TurnModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void TurnModel::setTrajectory(Trajectory trajectory)
{
    beginResetModel();
    m_trajectory = std::move(trajectory);
    m_methods.clear();
    for (const Turn& turn : m_trajectory.turns)
        for (const auto& credit : turn.credits)
            if (std::find(m_methods.begin(), m_methods.end(), credit.first) == m_methods.end())
                m_methods.push_back(credit.first);
    std::sort(m_methods.begin(), m_methods.end());
    m_text.clear();
    m_text.reserve(m_trajectory.turns.size());
    for (const Turn& turn : m_trajectory.turns) {
        RowText row;
        row.observation = toQString(turn.observation);
        row.action = toQString(turn.action);
        row.feedback = turn.feedback ? toQString(*turn.feedback) : QString();
        row.observationPreview = previewText(row.observation);
        row.actionPreview = previewText(row.action);
        row.feedbackPreview = previewText(row.feedback);
        m_text.push_back(std::move(row));
    }
    endResetModel();
}

void TurnModel::clear() { setTrajectory(Trajectory {}); }

const Turn* TurnModel::turn(int row) const
{
    if (row < 0 || row >= rowCount())
        return nullptr;
    return &m_trajectory.turns[static_cast<std::size_t>(row)];
}

int TurnModel::creditColumn(const std::string& method) const
{
    const auto it = std::find(m_methods.begin(), m_methods.end(), method);
    return it == m_methods.end() ? -1 : static_cast<int>(Column::Count) + static_cast<int>(it - m_methods.begin());
}

std::optional<double> TurnModel::credit(int row, std::size_t method) const
{
    for (const auto& [name, value] : m_trajectory.turns[static_cast<std::size_t>(row)].credits)
        if (name == m_methods[method])
            return value;
    return std::nullopt;
}

int TurnModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_trajectory.turns.size());
}

int TurnModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(Column::Count) + static_cast<int>(m_methods.size());
}

QVariant TurnModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.model() != this || index.row() >= rowCount())
        return {};
    const int row = index.row();
    const Turn& turn = m_trajectory.turns[static_cast<std::size_t>(row)];
    const auto column = static_cast<Column>(index.column());
    if (index.column() >= static_cast<int>(Column::Count)) {
        // A credit column: the advantage this method gave the turn.
        const auto value = credit(row, static_cast<std::size_t>(index.column() - static_cast<int>(Column::Count)));
        switch (role) {
        case Qt::DisplayRole:
            return value ? QVariant(formatNumber(*value, 4)) : QVariant();
        case Qt::ToolTipRole:
        case FullTextRole:
            return value ? QVariant(formatNumber(*value, 17)) : QVariant();
        case SortRole:
            return value ? QVariant(*value) : QVariant();
        case IdRole:
            return QVariant::fromValue<qint64>(row);
        case Qt::TextAlignmentRole:
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        case Qt::ForegroundRole:
            if (value && *value < 0)
                return QBrush(QColor(0xb0, 0x2a, 0x2a));
            return {};
        default:
            return {};
        }
    }

    switch (role) {
    case Qt::DisplayRole:
        return display(row, column);
    case IdRole:
        return QVariant::fromValue<qint64>(row);
    case SortRole:
        return sortValue(row, column);
    case FullTextRole:
        return fullText(row, column);
    case Qt::ToolTipRole:
        switch (column) {
        case Column::Observation:
        case Column::Action:
        case Column::Feedback:
            return fullText(row, column).isEmpty() ? QVariant() : QVariant(plainTooltip(fullText(row, column)));
        case Column::Role:
            if (!turn.role)
                return {};
            return plainTooltip(turn.roleSource
                    ? tr("%1 (%2)").arg(roleDescription(*turn.role), toQString(*turn.roleSource))
                    : roleDescription(*turn.role));
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        switch (column) {
        case Column::Index:
        case Column::Reward:
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        case Column::Valid:
        case Column::Role:
            return QVariant::fromValue(Qt::AlignCenter);
        default:
            return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
        }
    case Qt::ForegroundRole:
        if (column == Column::Valid && !turn.validOrDefault())
            return QBrush(QColor(0xb0, 0x2a, 0x2a));
        if (column == Column::Feedback && !turn.validOrDefault())
            return QBrush(QColor(0x80, 0x80, 0x80));
        return {};
    default:
        return {};
    }
}

QString TurnModel::fullText(int row, Column column) const
{
    const RowText& text = m_text[static_cast<std::size_t>(row)];
    switch (column) {
    case Column::Observation:
        return text.observation;
    case Column::Action:
        return text.action;
    case Column::Feedback:
        return text.feedback;
    default:
        return display(row, column).toString();
    }
}

QVariant TurnModel::display(int row, Column column) const
{
    const Turn& turn = m_trajectory.turns[static_cast<std::size_t>(row)];
    const RowText& text = m_text[static_cast<std::size_t>(row)];
    switch (column) {
    case Column::Index:
        return row + 1; // people count turns from 1; IdRole keeps the 0-based index
    case Column::Observation:
        return text.observationPreview;
    case Column::Action:
        return text.actionPreview;
    case Column::Feedback:
        return text.feedbackPreview;
    case Column::Reward:
        return formatNumber(turn.rewardOrDefault());
    case Column::Valid: // empty when the source does not say (an imported log without validity)
        return turn.valid ? (*turn.valid ? tr("yes") : tr("no")) : QString();
    case Column::Role:
        return turn.role ? QString::fromLatin1(roleName(*turn.role)) : QString();
    case Column::Count:
        break;
    }
    return {};
}

QVariant TurnModel::sortValue(int row, Column column) const
{
    const Turn& turn = m_trajectory.turns[static_cast<std::size_t>(row)];
    switch (column) {
    case Column::Index:
        return row;
    case Column::Reward:
        return turn.rewardOrDefault();
    case Column::Valid: // no, unknown, yes
        return turn.valid ? (*turn.valid ? 2 : 0) : 1;
    case Column::Role:
        // D, E, N, R in that order; unlabelled turns last.
        return turn.role ? static_cast<int>(*turn.role) : 99;
    default:
        return fullText(row, column);
    }
}

QVariant TurnModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (section >= static_cast<int>(Column::Count)) {
        const auto method = static_cast<std::size_t>(section - static_cast<int>(Column::Count));
        return method < m_methods.size() ? QVariant(toQString(m_methods[method])) : QVariant();
    }
    switch (static_cast<Column>(section)) {
    case Column::Index:
        return tr("Turn");
    case Column::Observation:
        return tr("Observation");
    case Column::Action:
        return tr("Action");
    case Column::Feedback:
        return tr("Feedback");
    case Column::Reward:
        return tr("Reward");
    case Column::Valid:
        return tr("Valid");
    case Column::Role:
        return tr("Role");
    case Column::Count:
        break;
    }
    return {};
}

QString TurnModel::roleDescription(Role role)
{
    switch (role) {
    case Role::D:
        return tr("D: decisive progress");
    case Role::E:
        return tr("E: useful exploration");
    case Role::N:
        return tr("N: no-progress infrastructure");
    case Role::R:
        return tr("R: regression");
    }
    return {};
}

} // namespace creditlab::ui
