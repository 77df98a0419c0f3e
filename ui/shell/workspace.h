#pragma once

#include "core/storage/store.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

class QTimer;

namespace creditlab::ui {

/// The database the GUI works on: owns the GUI thread's own Store (one SQLite connection per
/// thread) and tells the pages when it changes. Background jobs open their own Store on path().
/// Lives on the GUI thread.
class Workspace : public QObject {
    Q_OBJECT
public:
    explicit Workspace(QObject* parent = nullptr);
    ~Workspace() override;

    /// Opens (and creates, when missing) the database at `path`. On failure the previous database
    /// stays open, nothing is emitted, and `errorMessage` (when given) receives the reason.
    bool open(const QString& path, QString* errorMessage = nullptr);
    bool isOpen() const { return m_store != nullptr; }
    /// The open store, or nullptr.
    Store* store() const { return m_store.get(); }
    /// The absolute path of the open database; empty when none.
    QString path() const { return m_path; }
    /// The schema version of the open database; 0 when none.
    int schemaVersion() const;

    /// The runs of the open database (empty when none), read once per change: every page that lists runs shares
    /// this snapshot instead of querying on each runsChanged(). Throws StoreError when the read fails.
    const std::vector<RunInfo>& runs();
    /// policy.pretrained of every training run in runs() whose stored config names a Hugging Face model, by run id.
    /// Each run's config is read once (a run's model does not change; the cache goes with the database).
    const QHash<qint64, QString>& pretrainedModels();
    /// The config text of every posted run in runs() (an import with a stored config: serve's POST /v1/runs keeps its
    /// "config" object as JSON), by run id. Read once per run, as pretrainedModels().
    const QHash<qint64, QString>& postedConfigs();

    /// Tells the pages that runs were added, changed or removed (e.g. by an import).
    void notifyRunsChanged();
    /// Tells the pages that this window changed human labels (a commit of its own connection, which the poll for
    /// other connections' commits does not see).
    void notifyLabelsChanged();
    /// How often the database is checked for commits of other connections (the trainer's, another process's):
    /// when there are any, runsChanged() is emitted. 0 turns the check off. Default 1000 ms.
    void setPollInterval(int milliseconds);

Q_SIGNALS:
    /// A new database was opened and is about to replace the current one: drop what was read
    /// from it. Emitted before opened(), so that every page has let go before any reloads.
    void aboutToReplace();
    /// A database was opened and replaced the previous one.
    void opened(const QString& path);
    /// The runs in the open database changed; lists should reload.
    void runsChanged();
    /// This window changed human labels (Annotate); pages that show them should reload.
    void labelsChanged();

private:
    void poll();
    /// Reads the stored config of each run not read yet, for pretrainedModels() and postedConfigs().
    void readConfigs();
    /// Drops the run snapshot, then emits runsChanged().
    void emitRunsChanged();

    std::unique_ptr<Store> m_store;
    QTimer* m_pollTimer;
    qint64 m_dataVersion = -1;
    std::optional<std::vector<RunInfo>> m_runs;
    QHash<qint64, QString> m_pretrained; ///< the runs whose config names a model
    QHash<qint64, QString> m_postedConfigs; ///< posted runs' configs (JSON)
    QSet<qint64> m_configRead; ///< the runs whose config was read for m_pretrained and m_postedConfigs
    QString m_path;
};

} // namespace creditlab::ui
