#include "ui/probe/probetablemodel.h"

#include "ui/common/itemroles.h"
#include "ui/common/textutil.h"

#include <QFont>
#include <QLocale>

#include <cmath>

namespace creditlab::ui {

namespace {

constexpr int kColumns = static_cast<int>(ProbeTableModel::Column::Count);

bool lowerIsBetter(ProbeTableModel::Column column)
{
    return column == ProbeTableModel::Column::Ece || column == ProbeTableModel::Column::Brier;
}

} // namespace

double probeMetric(const learn::ProbeRow& row, ProbeTableModel::Column column)
{
    switch (column) {
    case ProbeTableModel::Column::AurocClean:
        return row.aurocClean;
    case ProbeTableModel::Column::AurocContaminated:
        return row.aurocContaminated;
    case ProbeTableModel::Column::AurocUnion:
        return row.aurocUnion;
    case ProbeTableModel::Column::Ece:
        return row.ece;
    case ProbeTableModel::Column::Brier:
        return row.brier;
    default:
        return std::nan("");
    }
}

ProbeTableModel::ProbeTableModel(QObject* parent)
    : QAbstractTableModel(parent)
    , m_best(kColumns, -1)
{
}

void ProbeTableModel::setRows(std::vector<learn::ProbeRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    for (int c = 0; c < kColumns; ++c) {
        const auto column = static_cast<Column>(c);
        int best = -1;
        for (int r = 0; r < static_cast<int>(m_rows.size()); ++r) {
            const double v = probeMetric(m_rows[r], column);
            if (!std::isfinite(v))
                continue;
            const double b = best < 0 ? 0.0 : probeMetric(m_rows[best], column);
            if (best < 0 || (lowerIsBetter(column) ? v < b : v > b))
                best = r;
        }
        m_best[c] = best;
    }
    endResetModel();
}

void ProbeTableModel::clear() { setRows({}); }

int ProbeTableModel::bestRow(Column column) const
{
    const int c = static_cast<int>(column);
    return c >= 0 && c < kColumns ? m_best[c] : -1;
}

int ProbeTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ProbeTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : kColumns; }

QVariant ProbeTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const learn::ProbeRow& row = m_rows[index.row()];
    const auto column = static_cast<Column>(index.column());
    const double value = probeMetric(row, column);
    switch (role) {
    case Qt::DisplayRole:
        if (column == Column::Probe)
            return toQString(row.name);
        if (column == Column::Dims)
            return QLocale().toString(static_cast<qlonglong>(row.features));
        return std::isfinite(value) ? QLocale().toString(value, 'f', 3) : QStringLiteral("–");
    case FullTextRole:
        if (column == Column::Probe)
            return toQString(row.name);
        if (column == Column::Dims)
            return QString::number(row.features);
        return std::isfinite(value) ? QString::number(value, 'g', 17) : QString();
    case SortRole:
        if (column == Column::Probe)
            return toQString(row.name);
        return column == Column::Dims ? QVariant::fromValue<qint64>(row.features) : QVariant(value);
    case Qt::FontRole:
        if (m_best[index.column()] == index.row()) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::TextAlignmentRole:
        return column == Column::Probe ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                       : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant ProbeTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= kColumns)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (static_cast<Column>(section)) {
        case Column::AurocClean:
            return tr("AUROC on the test turns whose earlier turns are all correct");
        case Column::AurocContaminated:
            return tr("AUROC on every test turn of the contaminated episodes");
        case Column::AurocUnion:
            return tr("AUROC on clean and contaminated test turns together");
        case Column::Ece:
            return tr("Expected calibration error on all test turns (lower is better)");
        case Column::Brier:
            return tr("Brier score on all test turns (lower is better)");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (static_cast<Column>(section)) {
    case Column::Probe:
        return tr("Probe");
    case Column::Dims:
        return tr("Dims");
    case Column::AurocClean:
        return tr("AUROC clean");
    case Column::AurocContaminated:
        return tr("AUROC contaminated");
    case Column::AurocUnion:
        return tr("AUROC union");
    case Column::Ece:
        return tr("ECE");
    case Column::Brier:
        return tr("Brier");
    case Column::Count:
        break;
    }
    return {};
}

} // namespace creditlab::ui
