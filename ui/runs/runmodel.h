#pragma once

#include "core/storage/store.h"

#include <QAbstractTableModel>
#include <QHash>

#include <vector>

namespace creditlab::ui {

/// The runs of a database as a table. Holds a value snapshot set by setRuns(); IdRole (=
/// Qt::UserRole) gives the run id, SortRole a sortable value. Lives on the GUI thread.
class RunModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum class Column {
        Id,
        Name,
        Kind,
        Status,
        Config, ///< "household · triage · s0 · 128×2"; a posted run's own config: "algorithm=grpo · lr=1e-6"
        Model, ///< the Hugging Face model (policy.pretrained) by folder name or repository id, else "built-in 128×2"
        BestEval, ///< the best eval/success of any iteration
        LastEval,
        Iterations,
        Duration, ///< compute time of a training run (SFT plus iterations)
        Tags,
        Trajectories,
        Turns,
        Created,
        Source,
        Count
    };

    explicit RunModel(QObject* parent = nullptr);

    /// Replaces the snapshot (a model reset). `pretrained`: policy.pretrained of the runs that name a Hugging Face
    /// model (Workspace::pretrainedModels()); the other training runs show their built-in shape. `posted`: the config
    /// JSON of runs posted to `creditlab-cli serve` (Workspace::postedConfigs()), which have no shape of their own.
    void setRuns(std::vector<RunInfo> runs, QHash<qint64, QString> pretrained = {}, QHash<qint64, QString> posted = {});
    const std::vector<RunInfo>& runs() const { return m_runs; }
    /// The row of the run with this id, or -1.
    int rowOfRun(qint64 runId) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// The translated display name of a run kind ("import", "train", "trial") or status.
    static QString displayKind(RunKind kind);
    /// The Kind column's text: the kind, and for an import the format it was read from as its source names it
    /// ("import · chat", "import · SWE-agent trajectory").
    static QString displayKindAndFormat(const RunInfo& run);
    static QString displayStatus(RunStatus status);
    static QString displayStatus(TrialStatus status);
    /// An ISO 8601 UTC time as local "yyyy-MM-dd HH:mm" (the tooltip has the exact time); the input itself when it does
    /// not parse.
    static QString displayTime(const QString& iso);
    /// The Model column's text: a folder's name or a repository id for `pretrained`, else "built-in W×L" for a
    /// training run; empty for an import.
    static QString displayModel(const RunInfo& run, const QString& pretrained);
    /// The Config column's text: the run's shape (runSummary) when it has one, else the top-level members of
    /// `postedConfig` (a JSON object) in their order, "key=value" joined by " · ", with nested objects and arrays as
    /// {…} and […] (a config that is not JSON: its text, shortened); empty when there is neither.
    static QString displayConfig(const RunInfo& run, const QString& postedConfig);

private:
    std::vector<RunInfo> m_runs;
    QHash<qint64, QString> m_pretrained;
    QHash<qint64, QString> m_posted;
};

} // namespace creditlab::ui
