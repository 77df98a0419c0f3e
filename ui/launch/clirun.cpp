#include "ui/launch/clirun.h"

#include "core/learn/api/trainconfig.h"
#include "core/storage/store.h"
#include "ui/common/textutil.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryFile>
#include <QTimer>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <csignal>
#include <exception>
#include <sys/types.h>

namespace creditlab::ui {

namespace {

constexpr int kErrorLines = 12; ///< stderr lines kept for a failure's message
constexpr int kStopWaitMs = 60000; ///< how long the destructor lets the ranks finish their iteration
constexpr qint64 kSignalGapMs = 200; ///< at least this long between the SIGINT and the SIGTERM

std::shared_ptr<spdlog::logger> logger()
{
    static auto log = [] {
        auto existing = spdlog::get("run");
        return existing ? existing : spdlog::default_logger()->clone("run");
    }();
    return log;
}

/// The reason rank 0 wrote into the run's notes ("failed: <reason>", the last such line); empty when none.
QString failureNote(const std::string& notes)
{
    const QString text = toQString(notes);
    const qsizetype at = text.lastIndexOf(QLatin1String("failed: "));
    return at < 0 ? QString() : text.mid(at + 8).trimmed();
}

} // namespace

CliRun::CliRun(QObject* parent)
    : QObject(parent)
{
}

CliRun::~CliRun()
{
    if (!isRunning())
        return;
    m_process->disconnect(this);
    ::kill(static_cast<pid_t>(m_process->processId()), SIGINT);
    if (!m_process->waitForFinished(kStopWaitMs)) {
        ::kill(static_cast<pid_t>(m_process->processId()), SIGTERM);
        m_process->waitForFinished(5000);
    }
}

QString CliRun::program()
{
    const QString configured = qEnvironmentVariable("CREDITLAB_CLI");
    if (!configured.isEmpty())
        return QFileInfo(configured).isExecutable() ? configured : QString();
    const QString beside = QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("creditlab-cli"));
    if (QFileInfo(beside).isExecutable())
        return beside;
    return QStandardPaths::findExecutable(QStringLiteral("creditlab-cli"));
}

bool CliRun::isRunning() const { return m_process && m_process->state() != QProcess::NotRunning; }

bool CliRun::start(const RunRequest& request, QString* error)
{
    const auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    if (!request.config)
        return fail(tr("There is no valid config to start a run from."));
    const QString cli = program();
    if (cli.isEmpty())
        return fail(tr("Cannot run %1 processes: creditlab-cli is neither beside the workbench nor on PATH (or set "
                       "CREDITLAB_CLI).")
                        .arg(request.processes));
    // The very config the in-process run would get, as the store keeps it (TrainConfig::toYaml).
    m_configFile = std::make_unique<QTemporaryFile>(QDir::temp().filePath(QStringLiteral("creditlab-run-XXXXXX.yaml")));
    if (!m_configFile->open() || m_configFile->write(QByteArray::fromStdString(request.config->toYaml())) < 0
        || !m_configFile->flush())
        return fail(tr("Cannot write the run's config: %1").arg(m_configFile->errorString()));
    m_configFile->close();

    delete m_process;
    m_process = new QProcess(this);
    m_database = request.database;
    m_runId = 0;
    m_stops = 0;
    m_stopped = false;
    m_partial[0].clear();
    m_partial[1].clear();
    m_errorTail.clear();
    // The workbench may itself run under a launcher: the CLI would take its rank variables for its own.
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const char* name :
        { "RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "SLURM_PROCID", "MASTER_ADDR", "MASTER_PORT" })
        environment.remove(QString::fromLatin1(name));
    m_process->setProcessEnvironment(environment);
    QStringList arguments { QStringLiteral("train"), QStringLiteral("-c"), m_configFile->fileName(),
        QStringLiteral("--db"), request.database, QStringLiteral("--nproc"), QString::number(request.processes) };
    if (!request.device.isEmpty())
        arguments << QStringLiteral("--device") << request.device;
    connect(m_process, &QProcess::readyReadStandardOutput, this, [this] { readOutput(QProcess::StandardOutput); });
    connect(m_process, &QProcess::readyReadStandardError, this, [this] { readOutput(QProcess::StandardError); });
    connect(m_process, &QProcess::finished, this, &CliRun::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError processError) {
        if (processError != QProcess::FailedToStart)
            return;
        const QString message = tr("Cannot start creditlab-cli: %1").arg(m_process->errorString());
        logger()->error("{}", message.toStdString());
        Q_EMIT ended(0, RunStatus::Failed, message);
    });
    logger()->info("starting {} {}", cli.toStdString(), arguments.join(QLatin1Char(' ')).toStdString());
    m_process->start(cli, arguments);
    return true;
}

void CliRun::requestStop()
{
    if (!isRunning())
        return;
    // SIGINT is the CLI's "stop after the current iteration"; QProcess::terminate would send SIGTERM, which makes
    // the ranks quit at once: that is the second request.
    const int signal = m_stops == 0 ? SIGINT : SIGTERM;
    ++m_stops;
    logger()->info(
        "run {}: {}", m_runId, signal == SIGINT ? "stopping after the current iteration" : "terminating its processes");
    if (signal == SIGINT) {
        m_interrupted.start();
        ::kill(static_cast<pid_t>(m_process->processId()), SIGINT);
        return;
    }
    // `train --nproc` passes on the last signal it saw every 20 ms: a SIGTERM right behind the SIGINT would replace
    // it, and the ranks would take it for their first request (stop after the iteration) instead of the second.
    const qint64 wait = std::max<qint64>(0, kSignalGapMs - m_interrupted.elapsed());
    QTimer::singleShot(wait, m_process, [process = m_process] {
        if (process->state() != QProcess::NotRunning)
            ::kill(static_cast<pid_t>(process->processId()), SIGTERM);
    });
}

void CliRun::readOutput(QProcess::ProcessChannel channel)
{
    const bool out = channel == QProcess::StandardOutput;
    QByteArray& buffer = m_partial[out ? 0 : 1];
    buffer += out ? m_process->readAllStandardOutput() : m_process->readAllStandardError();
    static const QRegularExpression runLine(QStringLiteral("^run (\\d+) '(.*)': "));
    qsizetype end;
    while ((end = buffer.indexOf('\n')) >= 0) {
        // A progress line on a terminal redraws itself with \r; the last drawing of it is what counts.
        QString line = QString::fromUtf8(buffer.left(end));
        buffer.remove(0, end + 1);
        line = line.mid(line.lastIndexOf(QLatin1Char('\r')) + 1).trimmed();
        if (line.isEmpty())
            continue;
        if (!out) {
            m_errorTail.append(line);
            if (m_errorTail.size() > kErrorLines)
                m_errorTail.removeFirst();
            logger()->warn("creditlab-cli: {}", line.toStdString());
            continue;
        }
        logger()->info("creditlab-cli: {}", line.toStdString());
        if (line.startsWith(QLatin1String("stopped ")))
            m_stopped = true;
        const QRegularExpressionMatch match = runLine.match(line);
        if (m_runId == 0 && match.hasMatch()) {
            m_runId = match.captured(1).toLongLong();
            Q_EMIT started(m_runId, match.captured(2));
        }
    }
}

void CliRun::onFinished(int exitCode, QProcess::ExitStatus exitStatus)
{
    readOutput(QProcess::StandardOutput);
    readOutput(QProcess::StandardError);
    m_configFile.reset();
    std::optional<RunInfo> run;
    if (m_runId != 0) {
        try {
            Store store(m_database.toStdString()); // a short-lived connection of this (the GUI) thread
            run = store.run(m_runId);
            // Terminated (Stop twice) or crashed: rank 0 could not mark the run; it must not look like it trains on.
            if (run && (run->status == RunStatus::Running || run->status == RunStatus::Paused)
                && (exitStatus != QProcess::NormalExit || exitCode != 0)) {
                store.failRun(m_runId,
                    m_stops > 1 ? "terminated from the workbench"
                                : "creditlab-cli exited with code " + std::to_string(exitCode));
                run = store.run(m_runId);
            }
        } catch (const std::exception& e) {
            logger()->warn("run {}: cannot read its row: {}", m_runId, e.what());
        }
    }
    const bool ok = exitStatus == QProcess::NormalExit && exitCode == 0;
    if (ok) {
        const RunStatus status = run && run->status == RunStatus::Cancelled ? RunStatus::Cancelled
            : m_stopped                                                     ? RunStatus::Cancelled
                                                                            : RunStatus::Finished;
        logger()->info("run {} {} (creditlab-cli)", m_runId, runStatusName(status));
        Q_EMIT ended(m_runId, status, {});
        return;
    }
    QStringList parts;
    const QString note = run ? failureNote(run->notes) : QString();
    if (!note.isEmpty())
        parts << note;
    parts << (exitStatus == QProcess::CrashExit ? tr("creditlab-cli was killed.")
                                                : tr("creditlab-cli exited with code %1.").arg(exitCode));
    if (!m_errorTail.isEmpty())
        parts << tr("Its last lines:\n%1").arg(m_errorTail.join(QLatin1Char('\n')));
    const QString message = parts.join(QLatin1Char('\n'));
    logger()->error("run {} failed: {}", m_runId, message.toStdString());
    Q_EMIT ended(m_runId, RunStatus::Failed, message);
}

} // namespace creditlab::ui
