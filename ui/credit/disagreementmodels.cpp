#include "ui/credit/disagreementmodels.h"

#include "ui/common/itemroles.h"

#include <QLocale>

#include <cmath>

namespace creditlab::ui {

namespace {

QString methodName(const heatmap::HeatmapData* data, int m)
{
    return data && m >= 0 && static_cast<std::size_t>(m) < data->methods.size()
        ? QString::fromStdString(data->methods[static_cast<std::size_t>(m)])
        : QString();
}

QString formatValue(double value) { return QString::number(value, 'g', 4); }

} // namespace

PairDisagreementModel::PairDisagreementModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void PairDisagreementModel::setPairs(const heatmap::HeatmapData* data, std::vector<heatmap::PairDisagreement> pairs)
{
    beginResetModel();
    m_pairs = std::move(pairs);
    m_names.clear();
    for (const auto& p : m_pairs)
        m_names.push_back(tr("%1 vs %2").arg(methodName(data, p.a), methodName(data, p.b)));
    endResetModel();
}

int PairDisagreementModel::rowOf(int a, int b) const
{
    for (std::size_t i = 0; i < m_pairs.size(); ++i)
        if ((m_pairs[i].a == a && m_pairs[i].b == b) || (m_pairs[i].a == b && m_pairs[i].b == a))
            return static_cast<int>(i);
    return -1;
}

int PairDisagreementModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_pairs.size());
}

int PairDisagreementModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(Column::Count);
}

QVariant PairDisagreementModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& p = m_pairs[static_cast<std::size_t>(index.row())];
    const auto column = static_cast<Column>(index.column());
    if (role == Qt::TextAlignmentRole)
        return column == Column::Methods ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole && role != SortRole && role != FullTextRole)
        return {};
    const bool display = role != SortRole;
    switch (column) {
    case Column::Methods:
        return m_names[static_cast<std::size_t>(index.row())];
    case Column::Disagreeing:
        return display ? QVariant(tr("%1 of %2")
                                      .arg(QLocale().toString(static_cast<qlonglong>(p.disagreeing)),
                                          QLocale().toString(static_cast<qlonglong>(p.compared))))
                       : QVariant(static_cast<qlonglong>(p.disagreeing));
    case Column::Share: {
        const double share = p.share();
        if (!display)
            return std::isnan(share) ? QVariant(-1.0) : QVariant(share);
        return std::isnan(share) ? tr("n/a") : tr("%1 %").arg(QLocale().toString(100.0 * share, 'f', 1));
    }
    case Column::Count:
        break;
    }
    return {};
}

QVariant PairDisagreementModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    const auto column = static_cast<Column>(section);
    if (role == Qt::ToolTipRole) {
        switch (column) {
        case Column::Disagreeing:
            return tr("Turns whose credits have opposite signs, of the turns where both methods have a finite, "
                      "non-zero credit (only these can disagree in sign)");
        case Column::Share:
            return tr("Share of the compared turns (both non-zero and finite) whose signs disagree");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case Column::Methods:
        return tr("Methods");
    case Column::Disagreeing:
        return tr("Signs disagree");
    case Column::Share:
        return tr("Share");
    case Column::Count:
        break;
    }
    return {};
}

DisagreeingTurnModel::DisagreeingTurnModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void DisagreeingTurnModel::setTurns(
    heatmap::HeatmapDataPtr data, int a, int b, std::vector<heatmap::DisagreeingTurn> turns)
{
    beginResetModel();
    m_data = std::move(data);
    m_a = a;
    m_b = b;
    m_turns = m_data ? std::move(turns) : std::vector<heatmap::DisagreeingTurn> {};
    endResetModel();
}

int DisagreeingTurnModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_turns.size());
}

int DisagreeingTurnModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(Column::Count);
}

QVariant DisagreeingTurnModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& t = m_turns[static_cast<std::size_t>(index.row())];
    const auto column = static_cast<Column>(index.column());
    if (role == IdRole)
        return QVariant::fromValue<qint64>(m_data->rows[t.row].rowId);
    if (role == Qt::TextAlignmentRole)
        return column == Column::Trajectory ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole && role != SortRole && role != FullTextRole)
        return {};
    const bool display = role != SortRole;
    switch (column) {
    case Column::Trajectory:
        return QString::fromStdString(m_data->rows[t.row].id);
    case Column::Turn:
        return t.turn + 1; // numbered from 1, as on every page
    case Column::First:
        return display ? QVariant(formatValue(t.a)) : QVariant(t.a);
    case Column::Second:
        return display ? QVariant(formatValue(t.b)) : QVariant(t.b);
    case Column::Gap:
        return display ? QVariant(formatValue(t.gap())) : QVariant(t.gap());
    case Column::Count:
        break;
    }
    return {};
}

QVariant DisagreeingTurnModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole && static_cast<Column>(section) == Column::Gap)
        return tr("The size of the disagreement: |difference| of the two credits");
    if (role != Qt::DisplayRole)
        return {};
    switch (static_cast<Column>(section)) {
    case Column::Trajectory:
        return tr("Trajectory");
    case Column::Turn:
        return tr("Turn");
    case Column::First:
        return m_a >= 0 ? methodName(m_data.get(), m_a) : tr("First");
    case Column::Second:
        return m_b >= 0 ? methodName(m_data.get(), m_b) : tr("Second");
    case Column::Gap:
        return tr("Gap");
    case Column::Count:
        break;
    }
    return {};
}

} // namespace creditlab::ui
