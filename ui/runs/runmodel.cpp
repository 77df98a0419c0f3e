#include "ui/runs/runmodel.h"

#include "core/interchange/jsondoc.h"

#include "ui/common/itemroles.h"
#include "ui/common/textutil.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QLocale>

namespace creditlab::ui {

RunModel::RunModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void RunModel::setRuns(std::vector<RunInfo> runs, QHash<qint64, QString> pretrained, QHash<qint64, QString> posted)
{
    beginResetModel();
    m_runs = std::move(runs);
    m_pretrained = std::move(pretrained);
    m_posted = std::move(posted);
    endResetModel();
}

int RunModel::rowOfRun(qint64 runId) const
{
    for (std::size_t i = 0; i < m_runs.size(); ++i) {
        if (m_runs[i].id == runId)
            return static_cast<int>(i);
    }
    return -1;
}

int RunModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_runs.size());
}

int RunModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(Column::Count);
}

QVariant RunModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.model() != this || index.row() >= rowCount())
        return {};
    const RunInfo& run = m_runs[static_cast<std::size_t>(index.row())];
    const auto column = static_cast<Column>(index.column());

    if (role == IdRole)
        return QVariant::fromValue<qint64>(run.id);
    if (role == Qt::TextAlignmentRole) {
        switch (column) {
        case Column::Id:
        case Column::BestEval:
        case Column::LastEval:
        case Column::Iterations:
        case Column::Duration:
        case Column::Trajectories:
        case Column::Turns:
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
        }
    }
    if (role == SortRole) {
        switch (column) {
        case Column::Id:
            return QVariant::fromValue<qint64>(run.id);
        case Column::Trajectories:
            return QVariant::fromValue<qint64>(run.trajectoryCount);
        case Column::Turns:
            return QVariant::fromValue<qint64>(run.turnCount);
        case Column::Created:
            return toQString(run.createdAt); // ISO 8601 sorts as text
        case Column::BestEval:
            return run.bestEval ? QVariant(*run.bestEval) : QVariant(-1.0);
        case Column::LastEval:
            return run.lastEval ? QVariant(*run.lastEval) : QVariant(-1.0);
        case Column::Iterations:
            return QVariant::fromValue<qint64>(run.iterationsDone);
        case Column::Duration:
            return run.trainSeconds;
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (column) {
        case Column::Name:
            return run.notes.empty() ? plainTooltip(toQString(run.name))
                                     : plainTooltip(toQString(run.name + "\n\n" + run.notes));
        case Column::Source:
            return run.source ? plainTooltip(toQString(*run.source)) : QVariant();
        case Column::Kind:
            return run.sourceFormat ? plainTooltip(tr("Imported from the %1 format").arg(toQString(*run.sourceFormat)))
                                    : QVariant();
        case Column::Created:
            return toQString(run.createdAt);
        case Column::Config:
            // A posted run's whole config: the column shows its top-level members only.
            return runSummary(run).empty() && m_posted.contains(run.id) ? plainTooltip(m_posted.value(run.id))
                                                                        : plainTooltip(toQString(runSummary(run)));
        case Column::Model:
            return m_pretrained.contains(run.id)
                ? plainTooltip(tr("Hugging Face model: %1").arg(m_pretrained.value(run.id)))
                : QVariant();
        case Column::Tags:
            return run.tags.empty() ? QVariant() : plainTooltip(toQString(run.tags));
        case Column::Duration:
            return run.trainSeconds > 0
                ? tr("Compute time: SFT plus the iterations, without pauses (%1 s)").arg(run.trainSeconds, 0, 'f', 1)
                : QVariant();
        default:
            return {};
        }
    }
    if (role == FullTextRole) {
        switch (column) {
        case Column::Name:
            return toQString(run.name);
        case Column::Source:
            return run.source ? toQString(*run.source) : QString();
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (role != Qt::DisplayRole)
        return {};

    switch (column) {
    case Column::Id:
        return QVariant::fromValue<qint64>(run.id);
    case Column::Name:
        return previewText(toQString(run.name));
    case Column::Kind:
        return displayKindAndFormat(run);
    case Column::Status:
        return displayStatus(run.status);
    case Column::Config:
        return displayConfig(run, m_posted.value(run.id));
    case Column::Model:
        return displayModel(run, m_pretrained.value(run.id));
    case Column::BestEval:
        return run.bestEval ? formatNumber(*run.bestEval, 3) : QString();
    case Column::LastEval:
        return run.lastEval ? formatNumber(*run.lastEval, 3) : QString();
    case Column::Iterations:
        return run.kind == RunKind::Import ? QString() : QLocale().toString(run.iterationsDone);
    case Column::Duration:
        return run.trainSeconds > 0 ? formatDuration(run.trainSeconds) : QString();
    case Column::Tags:
        return toQString(run.tags);
    case Column::Trajectories:
        return QLocale().toString(run.trajectoryCount);
    case Column::Turns:
        return QLocale().toString(run.turnCount);
    case Column::Created:
        return displayTime(toQString(run.createdAt));
    case Column::Source:
        return run.source ? QFileInfo(toQString(*run.source)).fileName() : QString();
    case Column::Count:
        break;
    }
    return {};
}

QVariant RunModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (static_cast<Column>(section)) {
    case Column::Id:
        return tr("Id");
    case Column::Name:
        return tr("Name");
    case Column::Kind:
        return tr("Kind");
    case Column::Status:
        return tr("Status");
    case Column::Config:
        return tr("Config");
    case Column::Model:
        return tr("Model");
    case Column::BestEval:
        return tr("Best eval");
    case Column::LastEval:
        return tr("Last eval");
    case Column::Iterations:
        return tr("Iterations");
    case Column::Duration:
        return tr("Duration");
    case Column::Tags:
        return tr("Tags");
    case Column::Trajectories:
        return tr("Trajectories");
    case Column::Turns:
        return tr("Turns");
    case Column::Created:
        return tr("Created");
    case Column::Source:
        return tr("Source");
    case Column::Count:
        break;
    }
    return {};
}

QString RunModel::displayKind(RunKind kind)
{
    switch (kind) {
    case RunKind::Import:
        return tr("import");
    case RunKind::Train:
        return tr("train");
    case RunKind::Trial:
        return tr("trial");
    }
    return {};
}

QString RunModel::displayKindAndFormat(const RunInfo& run)
{
    if (!run.sourceFormat || run.sourceFormat->empty())
        return displayKind(run.kind);
    return tr("%1 · %2").arg(displayKind(run.kind), previewText(toQString(*run.sourceFormat), 40));
}

QString RunModel::displayStatus(RunStatus status)
{
    switch (status) {
    case RunStatus::Running:
        return tr("running");
    case RunStatus::Paused:
        return tr("paused");
    case RunStatus::Finished:
        return tr("finished");
    case RunStatus::Failed:
        return tr("failed");
    case RunStatus::Cancelled:
        return tr("cancelled");
    }
    return {};
}

QString RunModel::displayStatus(TrialStatus status)
{
    switch (status) {
    case TrialStatus::Pending:
        return tr("pending");
    case TrialStatus::Running:
        return tr("running");
    case TrialStatus::Finished:
        return tr("finished");
    case TrialStatus::Failed:
        return tr("failed");
    case TrialStatus::Cancelled:
        return tr("cancelled");
    }
    return {};
}

QString RunModel::displayModel(const RunInfo& run, const QString& pretrained)
{
    if (!pretrained.isEmpty()) {
        // A folder by its name (the tooltip has the path); a repository id ("Qwen/Qwen2.5-0.5B") as it is.
        QString spec = pretrained;
        while (spec.size() > 1 && (spec.endsWith(QLatin1Char('/')) || spec.endsWith(QLatin1Char('\\'))))
            spec.chop(1);
        const bool path = QDir::isAbsolutePath(spec) || spec.startsWith(QLatin1String("./"))
            || spec.startsWith(QLatin1String("../")) || spec.startsWith(QLatin1Char('~'));
        return path ? QFileInfo(spec).fileName() : spec;
    }
    if (run.kind == RunKind::Import || !run.policyWidth || !run.policyLayers)
        return {};
    return tr("built-in %1×%2").arg(*run.policyWidth).arg(*run.policyLayers);
}

QString RunModel::displayTime(const QString& iso)
{
    const QDateTime time = QDateTime::fromString(iso, Qt::ISODate);
    if (!time.isValid())
        return iso;
    return time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"));
}

QString RunModel::displayConfig(const RunInfo& run, const QString& postedConfig)
{
    if (const std::string shape = runSummary(run); !shape.empty() || postedConfig.isEmpty())
        return toQString(shape);
    // A posted run has no shape the trainer recorded (it was trained elsewhere): its config, which the column left
    // empty, in the posted order with numbers as written (JsonDoc keeps the raw text; 1e-6 stays 1e-6).
    const std::string text = postedConfig.toStdString();
    JsonDoc doc;
    try {
        doc.parse(text);
    } catch (const JsonSyntaxError&) { // not JSON (no posted run's): its text, shortened
        return previewText(postedConfig, 80);
    }
    if (doc.kind(doc.root()) != JsonDoc::Kind::Object)
        return previewText(postedConfig, 80);
    QStringList parts;
    for (auto m = doc.first(doc.root()); m != JsonDoc::kNone; m = doc.next(doc.root(), m)) {
        QString value;
        switch (doc.kind(m)) {
        case JsonDoc::Kind::String:
            value = previewText(toQString(doc.string(m)), 40);
            break;
        case JsonDoc::Kind::Object:
            value = QStringLiteral("{…}");
            break;
        case JsonDoc::Kind::Array:
            value = QStringLiteral("[…]");
            break;
        default:
            value = toQString(std::string(doc.node(m).raw));
            break;
        }
        parts << QStringLiteral("%1=%2").arg(toQString(doc.key(m)), value);
    }
    return parts.join(QStringLiteral(" · "));
}

} // namespace creditlab::ui
