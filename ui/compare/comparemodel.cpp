#include "ui/compare/comparemodel.h"

#include "ui/common/itemroles.h"
#include "ui/runs/runmodel.h"
#include "ui/common/textutil.h"

#include <QFont>
#include <QLocale>

namespace creditlab::ui {

// ---- CompareRunsModel ------------------------------------------------------------------------

CompareRunsModel::CompareRunsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void CompareRunsModel::setEntries(std::vector<Entry> entries)
{
    beginResetModel();
    m_entries = std::move(entries);
    endResetModel();
    if (m_baseline != 0 && rowOfRun(m_baseline) < 0) {
        m_baseline = 0;
        Q_EMIT baselineChanged(0);
    }
}

int CompareRunsModel::rowOfRun(qint64 runId) const
{
    for (std::size_t i = 0; i < m_entries.size(); ++i) {
        if (m_entries[i].runId == runId)
            return static_cast<int>(i);
    }
    return -1;
}

QList<qint64> CompareRunsModel::runIds() const
{
    QList<qint64> ids;
    for (const Entry& entry : m_entries)
        ids << entry.runId;
    return ids;
}

QList<qint64> CompareRunsModel::visibleRunIds() const
{
    QList<qint64> ids;
    for (const Entry& entry : m_entries) {
        if (entry.visible)
            ids << entry.runId;
    }
    return ids;
}

bool CompareRunsModel::isVisible(qint64 runId) const
{
    const int row = rowOfRun(runId);
    return row >= 0 && m_entries[static_cast<std::size_t>(row)].visible;
}

bool CompareRunsModel::setVisible(qint64 runId, bool visible)
{
    const int row = rowOfRun(runId);
    if (row < 0)
        return false;
    Entry& entry = m_entries[static_cast<std::size_t>(row)];
    if (entry.visible != visible) {
        entry.visible = visible;
        const QModelIndex cell = index(row, int(Column::Name));
        Q_EMIT dataChanged(cell, cell, { Qt::CheckStateRole });
        Q_EMIT visibilityChanged(runId, visible);
    }
    return true;
}

void CompareRunsModel::setBaseline(qint64 runId)
{
    const qint64 next = rowOfRun(runId) >= 0 ? runId : 0;
    if (next == m_baseline)
        return;
    const int oldRow = rowOfRun(m_baseline);
    m_baseline = next;
    for (const int row : { oldRow, rowOfRun(next) }) {
        if (row >= 0)
            Q_EMIT dataChanged(index(row, 0), index(row, int(Column::Count) - 1));
    }
    Q_EMIT baselineChanged(m_baseline);
}

int CompareRunsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_entries.size());
}

int CompareRunsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(Column::Count); }

QVariant CompareRunsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.model() != this || index.row() >= rowCount())
        return {};
    const Entry& entry = m_entries[static_cast<std::size_t>(index.row())];
    const auto column = static_cast<Column>(index.column());
    const bool pinned = entry.runId == m_baseline;

    // The tooltip names each key in full; the cell, narrow beside the runs, drops the key's section
    // ("credit.method=triage" reads "method=triage") unless two keys would then read alike.
    QStringList diffParts, shortParts, shortKeys;
    for (const auto& [key, value] : entry.diff) {
        diffParts << key + QLatin1Char('=') + value;
        shortKeys << key.section(QLatin1Char('.'), -1);
    }
    for (qsizetype i = 0; i < diffParts.size(); ++i)
        shortParts << (shortKeys.count(shortKeys[i]) > 1 ? diffParts[i]
                                                         : shortKeys[i] + QLatin1Char('=') + entry.diff[std::size_t(i)].second);

    switch (role) {
    case IdRole:
        return QVariant::fromValue<qint64>(entry.runId);
    case Qt::CheckStateRole:
        return column == Column::Name ? QVariant(entry.visible ? Qt::Checked : Qt::Unchecked) : QVariant();
    case Qt::DecorationRole:
        return column == Column::Name ? QVariant(entry.color) : QVariant();
    case Qt::FontRole: {
        if (!pinned)
            return {};
        QFont font;
        font.setBold(true);
        return font;
    }
    case Qt::ToolTipRole:
        switch (column) {
        case Column::Name:
            return plainTooltip(
                tr("Run %1: %2 (%3)").arg(entry.runId).arg(entry.name, RunModel::displayStatus(entry.status)));
        case Column::Config:
            return diffParts.isEmpty() ? QVariant() : plainTooltip(diffParts.join(QLatin1Char('\n')));
        default:
            return {};
        }
    case FullTextRole:
        return column == Column::Name ? QVariant(entry.name)
            : column == Column::Config  ? QVariant(diffParts.join(QStringLiteral(", ")))
                                        : data(index, Qt::DisplayRole);
    case SortRole:
    case Qt::DisplayRole:
        switch (column) {
        case Column::Name:
            return role == SortRole ? entry.name : previewText(entry.name);
        case Column::Baseline:
            return pinned ? tr("baseline") : QString();
        case Column::Config:
            return role == SortRole ? diffParts.join(QStringLiteral(", ")) : previewText(shortParts.join(QStringLiteral(", ")));
        case Column::Count:
            break;
        }
        return {};
    default:
        return {};
    }
}

bool CompareRunsModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!index.isValid() || index.model() != this || role != Qt::CheckStateRole || index.column() != int(Column::Name))
        return false;
    const auto state = static_cast<Qt::CheckState>(value.toInt());
    return setVisible(m_entries[static_cast<std::size_t>(index.row())].runId, state == Qt::Checked);
}

Qt::ItemFlags CompareRunsModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags flags = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() == int(Column::Name))
        flags |= Qt::ItemIsUserCheckable;
    return flags;
}

QVariant CompareRunsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (static_cast<Column>(section)) {
    case Column::Name:
        return tr("Run");
    case Column::Baseline:
        return tr("Baseline");
    case Column::Config:
        return tr("Differs in");
    case Column::Count:
        break;
    }
    return {};
}

// ---- CompareTableModel -----------------------------------------------------------------------

CompareTableModel::CompareTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void CompareTableModel::setTable(compare::CompareTable table)
{
    beginResetModel();
    m_table = std::move(table);
    endResetModel();
}

QString CompareTableModel::metricOfColumn(int column) const
{
    if (column < 1 || column > static_cast<int>(m_table.metrics.size()))
        return {};
    return toQString(m_table.metrics[static_cast<std::size_t>(column - 1)]);
}

const compare::TableCell* CompareTableModel::cell(int row, int column) const
{
    if (row < 0 || row >= rowCount() || column < 1 || column >= columnCount())
        return nullptr;
    return &m_table.rows[static_cast<std::size_t>(row)].cells[static_cast<std::size_t>(column - 1)];
}

int CompareTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_table.rows.size());
}

int CompareTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : 1 + static_cast<int>(m_table.metrics.size());
}

QString CompareTableModel::formatDelta(double delta)
{
    const QString text = formatNumber(delta, 3);
    return delta >= 0.0 ? QLatin1Char('+') + text : text;
}

QString CompareTableModel::cellText(const compare::TableRow& row, const compare::TableCell& cell) const
{
    if (!cell.present)
        return QStringLiteral("–");
    QString text = formatNumber(cell.value);
    if (m_table.grouped && row.runIds.size() > 1)
        text += QStringLiteral(" ± %1 (n=%2)").arg(formatNumber(cell.stdev, 3)).arg(cell.n);
    if (cell.carried)
        text += QLatin1Char('*');
    if (cell.delta && !row.isBaseline)
        text += QStringLiteral("  (%1)").arg(formatDelta(*cell.delta));
    return text;
}

QString CompareTableModel::cellToolTip(const compare::TableRow& row, const compare::TableCell& cell, int column) const
{
    const QString metric = metricOfColumn(column);
    if (!cell.present)
        return plainTooltip(tr("%1: no value at or before iteration %2").arg(metric).arg(m_table.iteration));
    QStringList lines;
    lines << tr("%1 = %2").arg(metric, formatNumber(cell.value, 8));
    if (m_table.grouped && row.runIds.size() > 1)
        lines << tr("mean of %1 runs, sample std %2").arg(cell.n).arg(formatNumber(cell.stdev, 6));
    lines << (cell.carried
            ? tr("last value before iteration %1 (from iteration %2)").arg(m_table.iteration).arg(cell.fromIteration)
            : tr("at iteration %1").arg(cell.fromIteration));
    if (row.isBaseline)
        lines << tr("this is the baseline");
    else if (cell.delta)
        lines << tr("%1 vs the baseline").arg(formatDelta(*cell.delta));
    return plainTooltip(lines.join(QLatin1Char('\n'))); // the metric's name is data
}

QVariant CompareTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.model() != this || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const compare::TableRow& row = m_table.rows[static_cast<std::size_t>(index.row())];
    if (role == IdRole)
        return QVariant::fromValue<qint64>(row.runIds.empty() ? 0 : row.runIds.front());
    if (role == Qt::FontRole) {
        const compare::TableCell* c = cell(index.row(), index.column());
        if (!row.isBaseline && !(c && c->carried))
            return {};
        QFont font;
        font.setBold(row.isBaseline);
        font.setItalic(c && c->carried);
        return font;
    }
    if (index.column() == 0) {
        switch (role) {
        case Qt::DisplayRole:
            return previewText(toQString(row.label));
        case SortRole:
        case FullTextRole:
            return toQString(row.label);
        case Qt::ToolTipRole: {
            QStringList ids;
            for (const std::int64_t id : row.runIds)
                ids << QString::number(id);
            return plainTooltip(tr("%1\nruns: %2").arg(toQString(row.label), ids.join(QStringLiteral(", "))));
        }
        default:
            return {};
        }
    }
    const compare::TableCell& c = row.cells[static_cast<std::size_t>(index.column() - 1)];
    switch (role) {
    case Qt::DisplayRole:
    case FullTextRole:
        return cellText(row, c);
    case SortRole:
        return c.present ? QVariant(c.value) : QVariant();
    case Qt::ToolTipRole:
        return cellToolTip(row, c, index.column());
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant CompareTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole)
        return section == 0 ? (m_table.grouped ? tr("Group") : tr("Run")) : metricOfColumn(section);
    if (role == Qt::ToolTipRole && section > 0) // a metric's name is data (a trainer posting to serve names them)
        return plainTooltip(
            tr("%1 at iteration %2; * marks the last value before it").arg(metricOfColumn(section)).arg(m_table.iteration));
    return {};
}

} // namespace creditlab::ui
