#include "ui/sweeps/trialmodel.h"

#include "core/storage/atomicfile.h"
#include "ui/common/csvexport.h"
#include "ui/common/itemroles.h"
#include "ui/common/textutil.h"
#include "ui/runs/runmodel.h"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <map>

namespace creditlab::ui {

namespace {

std::vector<std::string> keysOf(const std::vector<learn::TrialProgress>& trials)
{
    std::vector<std::string> keys;
    for (const auto& t : trials)
        for (const auto& [k, v] : t.point)
            if (std::find(keys.begin(), keys.end(), k) == keys.end())
                keys.push_back(k);
    return keys;
}

std::string valueOf(const learn::TrialProgress& t, const std::string& key)
{
    for (const auto& [k, v] : t.point)
        if (k == key)
            return v;
    return {};
}

std::optional<double> numberOf(const QString& text)
{
    bool ok = false;
    const double v = text.toDouble(&ok);
    return ok && std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

} // namespace

TrialModel::TrialModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void TrialModel::replace(std::int64_t sweepId, std::vector<learn::TrialProgress> trials)
{
    beginResetModel();
    m_sweepId = sweepId;
    m_keys = keysOf(trials);
    m_trials = std::move(trials);
    endResetModel();
}

void TrialModel::setSnapshot(const learn::SweepProgress& progress)
{
    const bool sameShape = progress.sweepId == m_sweepId && progress.trials.size() == m_trials.size()
        && keysOf(progress.trials) == m_keys;
    if (!sameShape) {
        replace(progress.sweepId, progress.trials);
        return;
    }
    for (std::size_t row = 0; row < m_trials.size(); ++row) {
        const auto& now = progress.trials[row];
        auto& old = m_trials[row];
        const bool changed = now.status != old.status || now.runId != old.runId || now.phase != old.phase
            || now.iteration != old.iteration || now.objective != old.objective || now.error != old.error;
        old = now;
        if (changed)
            Q_EMIT dataChanged(index(static_cast<int>(row), 0), index(static_cast<int>(row), columnCount() - 1));
    }
}

void TrialModel::setStoredTrials(
    std::int64_t sweepId, const std::vector<TrialInfo>& trials, const std::map<std::int64_t, RunInfo>& runs)
{
    std::vector<learn::TrialProgress> rows;
    for (const auto& info : trials) {
        learn::TrialProgress t;
        t.index = static_cast<int>(rows.size());
        t.trialId = info.id;
        try {
            t.point = learn::SweepTrialSpec::parseParams(info.params);
        } catch (const std::invalid_argument&) {
            t.point = { { "params", info.params } };
        }
        t.status = info.status;
        t.runId = info.runId.value_or(0);
        t.objective = info.objective;
        t.fraction = info.status == TrialStatus::Finished ? 1.0 : 0.0;
        if (auto run = runs.find(t.runId); run != runs.end()) {
            t.iteration = run->second.iterationsDone;
            t.iterations = run->second.iterationsPlanned.value_or(0);
            if (t.iteration > 0)
                t.phase = Phase::Rl; // before its first iteration the store cannot tell setup from SFT
            if (t.iterations > 0 && info.status != TrialStatus::Finished)
                t.fraction = static_cast<double>(std::min(t.iteration, t.iterations)) / static_cast<double>(t.iterations);
        }
        rows.push_back(std::move(t));
    }
    replace(sweepId, std::move(rows));
}

void TrialModel::clear() { replace(0, {}); }

TrialModel::Column TrialModel::columnKind(int column) const
{
    const int keys = static_cast<int>(m_keys.size());
    if (column == 0)
        return Column::Trial;
    if (column <= keys)
        return Column::Parameter;
    return static_cast<Column>(column - keys + static_cast<int>(Column::Parameter));
}

int TrialModel::columnOf(Column column) const
{
    if (column == Column::Trial)
        return 0;
    if (column == Column::Parameter)
        return 1;
    return static_cast<int>(column) - static_cast<int>(Column::Parameter) + static_cast<int>(m_keys.size());
}

int TrialModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_trials.size());
}

int TrialModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_keys.size()) + 5;
}

QString TrialModel::text(const learn::TrialProgress& t, int column) const
{
    switch (columnKind(column)) {
    case Column::Trial:
        return QString::number(t.index + 1);
    case Column::Parameter:
        return toQString(valueOf(t, m_keys[static_cast<std::size_t>(column - 1)]));
    case Column::Run:
        return t.runId > 0 ? QString::number(t.runId) : QString();
    case Column::Status:
        return RunModel::displayStatus(t.status);
    case Column::Progress:
        if (t.status == TrialStatus::Finished)
            return tr("done");
        if (t.status != TrialStatus::Running)
            return t.iterations > 0 && t.iteration > 0 ? tr("%1/%2").arg(t.iteration).arg(t.iterations) : QString();
        if (t.phase == Phase::Rl)
            return tr("%1/%2").arg(t.iteration).arg(t.iterations);
        if (t.phase == Phase::Waiting)
            return tr("waiting for a server");
        return t.phase == Phase::Sft ? tr("SFT") : tr("setting up");
    case Column::Objective:
        return t.objective ? formatNumber(*t.objective) : QString();
    }
    return {};
}

QVariant TrialModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& t = m_trials[static_cast<std::size_t>(index.row())];
    const Column kind = columnKind(index.column());
    switch (role) {
    case Qt::DisplayRole:
    case FullTextRole:
        return text(t, index.column());
    case SortRole:
        switch (kind) {
        case Column::Trial:
            return t.index;
        case Column::Run:
            return static_cast<qlonglong>(t.runId);
        case Column::Progress:
            return t.fraction;
        case Column::Objective:
            return t.objective ? QVariant(*t.objective) : QVariant(-HUGE_VAL);
        case Column::Parameter: {
            const QString value = text(t, index.column());
            const auto number = numberOf(value);
            return number ? QVariant(*number) : QVariant(value);
        }
        case Column::Status:
            return text(t, index.column());
        }
        return {};
    case IdRole:
        return static_cast<qlonglong>(t.runId);
    case Qt::ToolTipRole:
        return t.error.empty() ? QVariant() : QVariant(plainTooltip(toQString(t.error)));
    case Qt::TextAlignmentRole:
        return kind == Column::Status || (kind == Column::Parameter && !numberOf(text(t, index.column())))
            ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
            : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant TrialModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= columnCount())
        return {};
    switch (columnKind(section)) {
    case Column::Trial:
        return tr("Trial");
    case Column::Parameter:
        return toQString(m_keys[static_cast<std::size_t>(section - 1)]);
    case Column::Run:
        return tr("Run");
    case Column::Status:
        return tr("Status");
    case Column::Progress:
        return tr("Progress");
    case Column::Objective:
        return tr("Objective");
    }
    return {};
}

TrialAggregate TrialModel::aggregate(
    const std::vector<std::optional<double>>& values, const std::string& xKey, const std::string& yKey) const
{
    TrialAggregate out;
    std::vector<QString> xs, ys;
    for (const auto& t : m_trials) {
        const QString x = toQString(valueOf(t, xKey));
        const QString y = yKey.empty() ? QString() : toQString(valueOf(t, yKey));
        if (std::find(xs.begin(), xs.end(), x) == xs.end())
            xs.push_back(x);
        if (std::find(ys.begin(), ys.end(), y) == ys.end())
            ys.push_back(y);
    }
    out.numericX = !xs.empty() && std::all_of(xs.begin(), xs.end(), [](const QString& x) { return numberOf(x); });
    // Numbers in numeric order; categories in the order the sweep lists them.
    const auto byNumber = [](const QString& a, const QString& b) { return *numberOf(a) < *numberOf(b); };
    if (out.numericX)
        std::stable_sort(xs.begin(), xs.end(), byNumber);
    if (std::all_of(ys.begin(), ys.end(), [](const QString& y) { return numberOf(y); }))
        std::stable_sort(ys.begin(), ys.end(), byNumber);
    out.xLabels = QStringList(xs.begin(), xs.end());
    out.yLabels = QStringList(ys.begin(), ys.end());
    if (out.numericX)
        for (const auto& x : xs)
            out.xValues.push_back(*numberOf(x));

    const auto cells = static_cast<std::size_t>(xs.size() * ys.size());
    std::vector<std::vector<double>> samples(cells);
    for (std::size_t i = 0; i < m_trials.size() && i < values.size(); ++i) {
        if (!values[i] || !std::isfinite(*values[i]))
            continue;
        const auto& t = m_trials[i];
        const auto col = std::find(xs.begin(), xs.end(), toQString(valueOf(t, xKey))) - xs.begin();
        const auto row
            = std::find(ys.begin(), ys.end(), yKey.empty() ? QString() : toQString(valueOf(t, yKey))) - ys.begin();
        samples[static_cast<std::size_t>(row) * xs.size() + static_cast<std::size_t>(col)].push_back(*values[i]);
    }
    for (const auto& s : samples) {
        const auto n = static_cast<double>(s.size());
        double mean = 0.0, var = 0.0;
        for (double v : s)
            mean += v / n;
        for (double v : s)
            var += (v - mean) * (v - mean) / (n - 1.0);
        out.mean.push_back(s.empty() ? NAN : mean);
        out.std.push_back(s.size() < 2 ? NAN : std::sqrt(var));
        out.count.push_back(static_cast<int>(s.size()));
    }
    return out;
}

QString TrialModel::toCsv() const
{
    QStringList lines;
    QStringList header;
    for (int c = 0; c < columnCount(); ++c)
        header << csvField(headerData(c, Qt::Horizontal).toString());
    lines << header.join(QLatin1Char(','));
    for (const auto& t : m_trials) {
        QStringList fields;
        for (int c = 0; c < columnCount(); ++c) {
            // Numbers in C locale form for other programs; the rest as shown.
            const Column kind = columnKind(c);
            fields << csvField(
                kind == Column::Objective && t.objective ? QString::number(*t.objective, 'g', 17) : text(t, c));
        }
        lines << fields.join(QLatin1Char(','));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

bool TrialModel::writeCsv(const QString& path, QString* error) const
{
    try {
        writeFileAtomically(path.toStdString(), toCsv().toStdString());
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
}

} // namespace creditlab::ui
