#include "ui/agreement/agreementmodel.h"

#include "ui/common/itemroles.h"
#include "ui/common/textutil.h"

#include <QCoreApplication>

#include <algorithm>
#include <exception>
#include <limits>

namespace creditlab::ui {

std::shared_ptr<const AgreementLoad> loadAgreement(const std::string& path, std::int64_t runId)
{
    auto d = std::make_shared<AgreementLoad>();
    try {
        Store store(path, Store::Access::ReadOnly);
        const std::vector<judge::LabelledRun> labelled = judge::labelledRuns(store);
        for (const judge::LabelledRun& r : labelled)
            d->labelledRuns.push_back(r.run);
        const bool known = std::any_of(
            d->labelledRuns.begin(), d->labelledRuns.end(), [runId](const RunInfo& r) { return r.id == runId; });
        // The run the CLI picks without --run: the newest with two sources to compare, else the newest with labels.
        // The newest labelled run alone opened on a training run whose judge labels had nothing to compare with.
        if (runId != 0 && !known)
            runId = judge::defaultAgreementRun(labelled).value_or(0);
        d->runId = runId;
        if (runId > 0) {
            d->labels = judge::loadRunLabels(store, runId);
        } else {
            std::vector<judge::RunLabels> all;
            for (auto it = d->labelledRuns.rbegin(); it != d->labelledRuns.rend(); ++it)
                all.push_back(judge::loadRunLabels(store, it->id));
            d->labels = judge::mergeRunLabels(all);
        }
    } catch (const std::exception& e) {
        d->error = QCoreApplication::translate("creditlab::ui::AgreementPage", "Cannot read the labels: %1")
                       .arg(toQString(e.what()));
    }
    return d;
}

std::vector<AgreementRow> computeAgreement(
    const judge::RunLabels& labels, const std::string& reference, const std::vector<std::string>& compared)
{
    std::vector<AgreementRow> rows;
    const auto* ref = labels.find(reference);
    if (!ref)
        return rows;
    const std::vector<bool> flags = labels.successFlags();
    for (const std::string& source : compared) {
        const auto* other = labels.find(source);
        if (!other || source == reference)
            continue;
        rows.push_back(AgreementRow { source, judge::comparePair(*ref, *other, flags), std::nullopt });
    }
    return rows;
}

std::vector<judge::KappaInterval> computeKappaIntervals(
    const judge::RunLabels& labels, const std::string& reference, const std::vector<std::string>& compared)
{
    std::vector<judge::KappaInterval> out;
    const auto* ref = labels.find(reference);
    if (!ref)
        return out;
    for (const std::string& source : compared) {
        const auto* other = labels.find(source);
        if (!other || source == reference)
            continue; // as computeAgreement
        out.push_back(judge::bootstrapKappa(*ref, *other));
    }
    return out;
}

std::vector<double> rowShares(const judge::RoleCounts& counts)
{
    std::vector<double> out;
    out.reserve(judge::kRoleCount * judge::kRoleCount);
    for (const auto& row : counts) {
        std::int64_t total = 0;
        for (const std::int64_t c : row)
            total += c;
        for (const std::int64_t c : row)
            out.push_back(total > 0 ? double(c) / double(total) : std::numeric_limits<double>::quiet_NaN());
    }
    return out;
}

std::vector<std::size_t> cellTurns(const judge::RunLabels& labels, const std::string& reference,
    const std::string& other, Role referenceRole, Role otherRole)
{
    std::vector<std::size_t> out;
    const auto* a = labels.find(reference);
    const auto* b = labels.find(other);
    if (!a || !b)
        return out;
    for (std::size_t i = 0; i < a->size(); ++i)
        if ((*a)[i] == referenceRole && (*b)[i] == otherRole)
            out.push_back(i);
    return out;
}

int AgreementTableModel::roleColumn(std::size_t roleIndex, RoleMetric metric)
{
    return int(Column::RolePrecision) + 3 * int(roleIndex) + int(metric);
}

AgreementTableModel::AgreementTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void AgreementTableModel::setRows(std::vector<AgreementRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

void AgreementTableModel::setKappaIntervals(const std::vector<judge::KappaInterval>& intervals)
{
    if (intervals.size() != m_rows.size() || m_rows.empty())
        return;
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        m_rows[i].kappaInterval = intervals[i];
    Q_EMIT dataChanged(index(0, int(Column::KappaLow)), index(rowCount() - 1, int(Column::KappaHigh)));
}

int AgreementTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }

int AgreementTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(Column::Count);
}

std::optional<double> AgreementTableModel::number(const AgreementRow& row, int column) const
{
    const judge::PairAgreement& r = row.result;
    constexpr std::size_t e = 1; // kRoles: D, E, N, R
    constexpr std::size_t rr = 3;
    switch (Column(column)) {
    case Column::Turns:
        return double(r.count);
    case Column::Accuracy:
        return r.accuracy;
    case Column::Kappa:
        return r.kappa;
    case Column::KappaLow:
        return row.kappaInterval ? row.kappaInterval->low : std::nullopt;
    case Column::KappaHigh:
        return row.kappaInterval ? row.kappaInterval->high : std::nullopt;
    case Column::MacroF1:
        return r.macroF1;
    case Column::RegressionSuccessF1:
        return r.cellF1[rr][1];
    case Column::ExplorationFailureF1:
        return r.cellF1[e][0];
    case Column::RegressionSuccessMissed:
        return r.regressionInSuccess.rate;
    case Column::ExplorationFailureMissed:
        return r.explorationInFailure.rate;
    default:
        break;
    }
    const int offset = column - int(Column::RolePrecision);
    if (offset < 0 || offset >= 12)
        return std::nullopt;
    const judge::RoleScores& s = r.roles[std::size_t(offset / 3)];
    switch (RoleMetric(offset % 3)) {
    case RoleMetric::Precision:
        return s.precision;
    case RoleMetric::Recall:
        return s.recall;
    case RoleMetric::F1:
        return s.f1;
    }
    return std::nullopt;
}

QVariant AgreementTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const AgreementRow& row = m_rows[std::size_t(index.row())];
    const int column = index.column();
    if (column == int(Column::Source)) {
        if (role == Qt::DisplayRole || role == SortRole || role == FullTextRole)
            return toQString(row.source);
        return {};
    }
    const std::optional<double> v = number(row, column);
    switch (role) {
    case Qt::DisplayRole:
    case FullTextRole:
        if (!v && !row.kappaInterval && (column == int(Column::KappaLow) || column == int(Column::KappaHigh)))
            return tr("…"); // computing
        if (!v)
            return tr("n/a");
        if (column == int(Column::Turns))
            return QString::number(row.result.count);
        return QString::number(*v, 'f', 3);
    case SortRole:
        return v ? QVariant(*v) : QVariant(-1.0e300); // undefined sorts below every number
    case Qt::TextAlignmentRole:
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (column == int(Column::KappaLow) || column == int(Column::KappaHigh))
            return row.kappaInterval
                ? tr("Percentile bootstrap: %1 resamples of the turns both label, %2 with a defined κ; fixed seed")
                      .arg(row.kappaInterval->resamples)
                      .arg(row.kappaInterval->defined)
                : tr("Computing the bootstrap interval…");
        return {};
    default:
        return {};
    }
}

QVariant AgreementTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= int(Column::Count))
        return {};
    switch (Column(section)) {
    case Column::Source:
        return tr("Source");
    case Column::Turns:
        return tr("Turns");
    case Column::Accuracy:
        return tr("Accuracy");
    case Column::Kappa:
        return tr("Cohen's κ");
    case Column::KappaLow:
        return tr("κ 95% CI low");
    case Column::KappaHigh:
        return tr("κ 95% CI high");
    case Column::MacroF1:
        return tr("Macro F1");
    case Column::RegressionSuccessF1:
        return tr("F1 R|success");
    case Column::ExplorationFailureF1:
        return tr("F1 E|failure");
    case Column::RegressionSuccessMissed:
        return tr("R|success missed");
    case Column::ExplorationFailureMissed:
        return tr("E|failure missed");
    default:
        break;
    }
    const int offset = section - int(Column::RolePrecision);
    const QString roleText = toQString(std::string(roleName(judge::kRoles[std::size_t(offset / 3)])));
    switch (RoleMetric(offset % 3)) {
    case RoleMetric::Precision:
        return tr("%1 precision").arg(roleText);
    case RoleMetric::Recall:
        return tr("%1 recall").arg(roleText);
    case RoleMetric::F1:
        return tr("%1 F1").arg(roleText);
    }
    return {};
}

CellTurnsModel::CellTurnsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void CellTurnsModel::setEntries(std::vector<Entry> entries, const QString& referenceName, const QString& otherName)
{
    beginResetModel();
    m_entries = std::move(entries);
    m_referenceName = referenceName;
    m_otherName = otherName;
    endResetModel();
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, int(Column::Count) - 1);
}

int CellTurnsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_entries.size()); }

int CellTurnsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(Column::Count); }

QVariant CellTurnsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Entry& e = m_entries[std::size_t(index.row())];
    if (role == IdRole)
        return qint64(e.turn.trajectoryRowId);
    const auto roleText = [](Role r) { return toQString(std::string(roleName(r))); };
    switch (Column(index.column())) {
    case Column::Trajectory:
        return role == Qt::DisplayRole || role == SortRole || role == FullTextRole ? QVariant(e.trajectoryId)
                                                                                   : QVariant();
    case Column::Turn: // counted from 1, as on every page
        return role == Qt::DisplayRole || role == SortRole || role == FullTextRole ? QVariant(e.turn.turn + 1)
                                                                                   : QVariant();
    case Column::Action:
        if (role == Qt::DisplayRole)
            return previewText(e.action);
        if (role == FullTextRole || role == SortRole)
            return e.action;
        if (role == Qt::ToolTipRole)
            return plainTooltip(e.action);
        return {};
    case Column::Reference:
        return role == Qt::DisplayRole || role == SortRole || role == FullTextRole ? QVariant(roleText(e.reference))
                                                                                   : QVariant();
    case Column::Other:
        return role == Qt::DisplayRole || role == SortRole || role == FullTextRole ? QVariant(roleText(e.other))
                                                                                   : QVariant();
    case Column::Count:
        break;
    }
    return {};
}

QVariant CellTurnsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Column::Trajectory:
        return tr("Trajectory");
    case Column::Turn:
        return tr("Turn");
    case Column::Action:
        return tr("Action");
    case Column::Reference:
        return m_referenceName.isEmpty() ? tr("Reference") : m_referenceName;
    case Column::Other:
        return m_otherName.isEmpty() ? tr("Other") : m_otherName;
    case Column::Count:
        break;
    }
    return {};
}

} // namespace creditlab::ui
