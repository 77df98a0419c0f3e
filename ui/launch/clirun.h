#pragma once

#include "core/model/vocabulary.h"
#include "ui/launch/runcontroller.h"

#include <QElapsedTimer>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <memory>

class QTemporaryFile;

namespace creditlab::ui {

/// A data-parallel run on this machine: `creditlab-cli train -c FILE --db DB --nproc N` as a child process (issue 36).
/// Its rank 0 writes the run to the database, where the Monitor follows it; this object reads the run's id from the
/// CLI's first line ("run <id> '<name>': ..."), passes its output to the "run" log, stops it with SIGINT (after the
/// current iteration, with a checkpoint) and, asked again, with SIGTERM (the CLI passes it to its ranks, which quit at
/// once). Lives on the GUI thread; RunController owns it.
class CliRun : public QObject {
    Q_OBJECT
public:
    explicit CliRun(QObject* parent = nullptr);
    /// Stops a running process (SIGINT, then SIGTERM after a minute) and waits for it.
    ~CliRun() override;

    /// The creditlab-cli the workbench starts: $CREDITLAB_CLI when set, else the one beside this executable, else the
    /// one on PATH; empty when there is none.
    static QString program();

    /// Starts `request` (a new run's config with processes > 1). False with the reason in `error` when the config
    /// cannot be written or there is no creditlab-cli; started() or ended() follow otherwise.
    bool start(const RunRequest& request, QString* error = nullptr);
    bool isRunning() const;
    /// First call: SIGINT (the CLI stops after the current iteration with a checkpoint); later calls: SIGTERM.
    void requestStop();
    /// How many stop requests the running process had.
    int stopRequests() const { return m_stops; }

Q_SIGNALS:
    /// The CLI printed the run's id (its row exists).
    void started(qint64 runId, const QString& name);
    /// The process ended: Finished, Cancelled (stopped, resumable) or Failed with the reason (the run's notes when
    /// rank 0 wrote them, the exit code and the last lines of its stderr).
    void ended(qint64 runId, creditlab::RunStatus status, const QString& error);

private:
    void readOutput(QProcess::ProcessChannel channel);
    void onFinished(int exitCode, QProcess::ExitStatus exitStatus);

    QProcess* m_process = nullptr;
    std::unique_ptr<QTemporaryFile> m_configFile;
    QString m_database;
    qint64 m_runId = 0;
    int m_stops = 0;
    QElapsedTimer m_interrupted; ///< since the SIGINT
    bool m_stopped = false; ///< the CLI said it stopped ("stopped after iteration ...", "stopped during SFT")
    QByteArray m_partial[2]; ///< an unfinished line of stdout, stderr
    QStringList m_errorTail; ///< the last lines of stderr
};

} // namespace creditlab::ui
