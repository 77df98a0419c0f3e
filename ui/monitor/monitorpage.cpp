#include "ui/monitor/monitorpage.h"

#include "core/model/vocabulary.h"

#include "ui/charts/linechart.h"
#include "ui/common/textutil.h"
#include "ui/monitor/monitorcharts.h"
#include "ui/runs/runmodel.h"
#include "ui/shell/logbridge.h"
#include "ui/shell/workspace.h"

#include <QDateTime>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QSlider>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <limits>
#include <map>

namespace creditlab::ui {

namespace {

constexpr int kLogFlushMs = 100;
constexpr int kMaxLogLines = 20000;
/// The ranks of a data-parallel run, on its every iteration (core/learn/torch/engine/iteration.cpp).
constexpr std::string_view kDistRanks = "dist/ranks";

/// The phase line of a run that is not training (or of another process): the status, as a phase.
QString statusPhase(RunStatus status)
{
    switch (status) {
    case RunStatus::Running:
        return MonitorPage::tr("Running");
    case RunStatus::Paused:
        return MonitorPage::tr("Paused");
    case RunStatus::Finished:
        return MonitorPage::tr("Finished");
    case RunStatus::Failed:
        return MonitorPage::tr("Failed");
    case RunStatus::Cancelled:
        return MonitorPage::tr("Stopped");
    }
    return {};
}

QString levelName(int level)
{
    static const char* const names[] = { "trace", "debug", "info", "warning", "error", "critical", "off" };
    return QString::fromLatin1(names[std::clamp(level, 0, 6)]);
}

} // namespace

MonitorPage::MonitorPage(Workspace* workspace, RunController* controller, QWidget* parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_controller(controller)
    , m_title(new QLabel(this))
    , m_ranks(new QLabel(this))
    , m_failure(new QLabel(this))
    , m_phase(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_eta(new QLabel(this))
    , m_throughput(new QLabel(this))
    , m_pause(new QPushButton(tr("&Pause"), this))
    , m_stop(new QPushButton(tr("S&top"), this))
    , m_resume(new QPushButton(tr("&Resume from checkpoint"), this))
    , m_filter(new QLineEdit(this))
    , m_smoothing(new QSlider(Qt::Horizontal, this))
    , m_smoothingValue(new QLabel(this))
    , m_charts(new MonitorCharts(this))
    , m_log(new QPlainTextEdit(this))
    , m_logTimer(new QTimer(this))
{
    setObjectName(QStringLiteral("monitorPage"));
    m_title->setTextFormat(Qt::PlainText);
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.25);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_ranks->setObjectName(QStringLiteral("monitorRanks"));
    m_ranks->setTextFormat(Qt::PlainText);
    m_ranks->setToolTip(tr("Data-parallel: this many processes train the run, each on its share of the tasks; rank 0 "
                           "writes the run (dist/ranks)"));
    m_failure->setObjectName(QStringLiteral("monitorFailure"));
    m_failure->setTextFormat(Qt::PlainText);
    m_failure->setWordWrap(true);
    m_failure->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_failure->setFrameShape(QFrame::StyledPanel);
    m_failure->setBackgroundRole(QPalette::ToolTipBase);
    m_failure->setForegroundRole(QPalette::ToolTipText);
    m_failure->setAutoFillBackground(true);
    m_failure->setMargin(4);
    m_failure->hide();
    m_phase->setTextFormat(Qt::PlainText);
    m_phase->setObjectName(QStringLiteral("monitorPhase"));
    m_eta->setTextFormat(Qt::PlainText);
    m_throughput->setTextFormat(Qt::PlainText);
    m_throughput->setObjectName(QStringLiteral("monitorThroughput"));
    m_throughput->setToolTip(tr("The newest iteration: its time, tokens generated and trained per second, environment "
                                "steps per second, and the peak device memory (device/memory_gb; — when the run does "
                                "not report it)"));
    m_pause->setToolTip(tr("Pause after the current step (Ctrl+P)"));
    m_stop->setToolTip(tr("Stop after the current step, with a checkpoint to resume from (Ctrl+.)"));
    m_filter->setPlaceholderText(tr("Filter metrics…"));
    m_filter->setClearButtonEnabled(true);
    m_smoothing->setRange(0, 99);
    m_smoothing->setValue(static_cast<int>(charts::kDefaultSmoothing * 100 + 0.5));
    m_smoothing->setToolTip(tr("EMA smoothing weight (debiased); the raw curve stays underneath, faded"));
    m_smoothingValue->setMinimumWidth(32);
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(kMaxLogLines);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_log->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_log->setPlaceholderText(tr("The log of runs trained in this window (iterations, pauses, checkpoints, errors)."));
    m_logTimer->setSingleShot(true);
    m_logTimer->setInterval(kLogFlushMs);

    auto* header = new QHBoxLayout;
    header->addWidget(m_title, 1);
    header->addWidget(m_ranks);
    header->addWidget(m_pause);
    header->addWidget(m_stop);
    header->addWidget(m_resume);
    auto* progressLine = new QHBoxLayout;
    progressLine->addWidget(m_phase);
    progressLine->addWidget(m_progress, 1);
    progressLine->addWidget(m_eta);
    auto* tools = new QHBoxLayout;
    tools->addWidget(m_throughput, 1);
    tools->addWidget(m_filter);
    tools->addWidget(new QLabel(tr("Smoothing:"), this));
    tools->addWidget(m_smoothing);
    tools->addWidget(m_smoothingValue);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_charts);
    splitter->addWidget(m_log);
    splitter->setStretchFactor(0, 4);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({ 640, 140 });
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(header);
    layout->addLayout(progressLine);
    layout->addWidget(m_failure);
    layout->addLayout(tools);
    layout->addWidget(splitter, 1);

    connect(m_pause, &QPushButton::clicked, this, [this] {
        if (m_controller->isPaused())
            m_controller->resume();
        else
            m_controller->pause();
        m_pause->setText(tr("Pausing…"));
    });
    connect(m_stop, &QPushButton::clicked, this, [this] {
        m_controller->requestStop();
        updateButtons();
    });
    connect(m_resume, &QPushButton::clicked, this, [this] { Q_EMIT resumeRequested(m_runId); });
    connect(m_filter, &QLineEdit::textChanged, m_charts, &MonitorCharts::setFilter);
    connect(m_smoothing, &QSlider::valueChanged, this, [this](int value) {
        m_smoothingValue->setText(QString::number(value / 100.0, 'f', 2));
        m_charts->setSmoothing(value / 100.0);
    });
    m_smoothingValue->setText(QString::number(m_smoothing->value() / 100.0, 'f', 2));
    auto* pauseShortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_P), this);
    connect(pauseShortcut, &QShortcut::activated, m_pause, &QPushButton::click);
    auto* stopShortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period), this);
    connect(stopShortcut, &QShortcut::activated, m_stop, &QPushButton::click);

    connect(m_controller, &RunController::runStarted, this, [this](qint64 runId) { showRun(runId); });
    connect(m_controller, &RunController::runningChanged, this, [this](bool running) {
        if (running && m_controller->isExternal()) // the run's row follows when the CLI has made it
            showRun(0);
    });
    connect(m_controller, &RunController::progressed, this, &MonitorPage::onProgress);
    connect(m_controller, &RunController::pausedChanged, this, [this](bool paused) {
        updateButtons();
        if (m_controller->runId() == m_runId && paused)
            m_phase->setText(tr("Paused")); // the next progress report names the phase again
    });
    connect(m_controller, &RunController::runningChanged, this, [this] { updateButtons(); });
    connect(m_controller, &RunController::runFinished, this, [this](qint64 runId, RunStatus status) {
        if (runId == m_runId) {
            m_phase->setText(statusPhase(status));
            m_eta->clear();
            reloadFromStore(true);
        }
        updateHeader();
    });
    connect(m_controller, &RunController::runFailed, this, [this](qint64 runId, const QString& message) {
        if (runId == m_runId || runId == 0)
            showFailure(message);
        updateHeader();
    });
    connect(m_workspace, &Workspace::runsChanged, this, [this] {
        // The controller's run arrives through progress; others (e.g. from the CLI) through the store.
        if (m_runId != 0 && !reportsProgress())
            reloadFromStore(true);
        updateHeader();
    });
    connect(m_workspace, &Workspace::aboutToReplace, this, [this] { showRun(0); });
    connect(LogBridge::instance(), &LogBridge::messageLogged, this, &MonitorPage::onLog);
    connect(m_logTimer, &QTimer::timeout, this, &MonitorPage::flushLog);

    showRun(0);
}

void MonitorPage::showRun(qint64 runId)
{
    m_runId = runId;
    m_lastIteration = -1;
    m_iterationSeconds = 0.0;
    m_charts->clear();
    m_progress->reset();
    m_eta->clear();
    m_phase->clear();
    m_throughput->clear();
    m_failure->clear();
    m_failure->hide();
    m_phase->setToolTip({});
    setRanks(
        m_controller->isExternal() && m_controller->runId() == runId && runId != 0 ? m_controller->processes() : 1);
    reloadFromStore(false);
    updateHeader();
    updateButtons();
}

void MonitorPage::reloadFromStore(bool incremental)
{
    Store* store = m_workspace->store();
    if (!store || m_runId == 0)
        return;
    std::map<qint64, std::vector<std::pair<QString, double>>> byIteration;
    try {
        // Incremental: only the iterations after the last one shown.
        const qint64 from = incremental ? m_lastIteration + 1 : std::numeric_limits<qint64>::min();
        for (const auto& point : store->metrics(m_runId, from))
            byIteration[point.iteration].emplace_back(toQString(point.name), point.value);
    } catch (const std::exception&) {
        return; // the run may just have been deleted; the runs view reports errors
    }
    for (const auto& [iteration, metrics] : byIteration)
        appendIteration(iteration, metrics);
    reloadSft();
}

void MonitorPage::reloadSft()
{
    Store* store = m_workspace->store();
    if (!store || m_runId == 0)
        return;
    try {
        const std::vector<MetricPoint> points = store->sftMetrics(m_runId, m_charts->lastSftStep() + 1);
        if (!points.empty())
            m_charts->appendSftPoints(points);
    } catch (const std::exception&) {
        // the run may just have been deleted; the runs view reports errors
    }
}

void MonitorPage::appendIteration(qint64 iteration, const std::vector<std::pair<QString, double>>& metrics)
{
    if (iteration <= m_lastIteration)
        return;
    m_lastIteration = iteration;
    m_charts->appendIteration(iteration, metrics);
    // Iteration timing and throughput of the newest iteration.
    QStringList parts;
    const auto find = [&metrics](std::string_view name) -> std::optional<double> {
        for (const auto& [key, value] : metrics)
            if (key == QLatin1String(name.data(), static_cast<qsizetype>(name.size())))
                return value;
        return std::nullopt;
    };
    if (const auto total = find(metricnames::kTimeTotal)) {
        parts << tr("iteration %1: %2").arg(iteration).arg(formatDuration(*total));
        m_iterationSeconds += *total;
    }
    const QLocale locale;
    if (const auto gen = find(metricnames::kThroughputGenTokens))
        parts << tr("%1 generated tok/s").arg(locale.toString(qRound64(*gen)));
    if (const auto trained = find(metricnames::kThroughputTrainTokens))
        parts << tr("%1 trained tok/s").arg(locale.toString(qRound64(*trained)));
    if (const auto steps = find(metricnames::kThroughputEnvSteps))
        parts << tr("%1 env steps/s").arg(locale.toString(qRound64(*steps)));
    if (const auto ranks = find(kDistRanks))
        setRanks(static_cast<int>(*ranks));
    if (!parts.isEmpty()) {
        // Peak device memory of the iteration, which CUDA runs report; a dash where the run does not.
        const auto memory = find(metricnames::kDeviceMemory);
        parts << tr("device memory %1")
                     .arg(memory ? tr("%1 GiB").arg(locale.toString(*memory, 'f', 2)) : QStringLiteral("—"));
        m_throughput->setText(parts.join(QStringLiteral(" · ")));
    }
    Q_EMIT curvesUpdated(m_runId, iteration);
}

void MonitorPage::onProgress(const RunProgress& progress)
{
    if (progress.runId != m_runId)
        return;
    if (progress.phase == Phase::Waiting) {
        // A remote environment server or judge endpoint stopped answering: the run waits for it (rl.outage_wait_s).
        m_phase->setText(tr("Waiting for a server"));
        m_phase->setToolTip(progress.message);
        m_progress->setRange(0, static_cast<int>(std::clamp<qint64>(progress.steps, 1, 1 << 30)));
        m_progress->setValue(static_cast<int>(std::clamp<qint64>(progress.step, 0, 1 << 30)));
        m_progress->setFormat(tr("waited %1 of %2").arg(formatDuration(progress.elapsedSeconds),
            formatDuration(static_cast<double>(progress.steps))));
        m_eta->setText(m_eta->fontMetrics().elidedText(progress.message, Qt::ElideMiddle, 640));
        m_eta->setToolTip(progress.message);
        return;
    }
    m_eta->setToolTip({});
    if (progress.phase == Phase::Eval) {
        // An evaluation begins; the progress bar and the ETA stay as the last step left them.
        m_phase->setText(tr("Evaluating"));
        m_phase->setToolTip(progress.message);
        reloadSft(); // SFT's last points are in the store before its evaluation
        return;
    }
    // SFT's last report carries its summary: RL begins, at iteration 0 of its iterations.
    const bool sftDone = progress.phase == Phase::Sft && !progress.metrics.empty() && progress.iterations > 0;
    const bool rl = progress.phase == Phase::Rl || sftDone;
    const QString phase = rl             ? tr("RL")
        : progress.phase == Phase::Sft   ? tr("SFT")
        : progress.phase == Phase::Setup ? tr("Setting up")
                                         : tr("Finished");
    m_phase->setText(phase);
    m_phase->setToolTip(
        progress.phase == Phase::Sft && !sftDone ? tr("Supervised warm start: %1").arg(progress.message) : QString());
    const qint64 step = sftDone ? 0 : progress.step;
    const qint64 steps = std::max<qint64>(sftDone ? progress.iterations : progress.steps, 1);
    m_progress->setRange(0, static_cast<int>(std::min<qint64>(steps, 1 << 30)));
    m_progress->setValue(static_cast<int>(std::min(step, steps)));
    m_progress->setFormat(
        rl ? tr("iteration %1 / %2").arg(step).arg(steps) : tr("%1 / %2 (%p%)").arg(progress.step).arg(progress.steps));
    // The trainer leaves paused time out of both (TrainProgress::elapsedSeconds).
    if (sftDone)
        m_eta->setText(tr("SFT took %1").arg(formatDuration(progress.elapsedSeconds)));
    else
        m_eta->setText(progress.etaSeconds >= 0
                ? tr("%1 elapsed, %2 left")
                      .arg(formatDuration(progress.elapsedSeconds), formatDuration(progress.etaSeconds))
                : tr("%1 elapsed").arg(formatDuration(progress.elapsedSeconds)));
    if (progress.phase == Phase::Sft && progress.metrics.empty())
        reloadSft(); // the trainer writes SFT's curves as it trains; reports come at most ~10 per second
    if (!progress.metrics.empty()) {
        // Metrics that came without a progress snapshot (those of SFT, at iteration 0) are in the store.
        if (progress.iteration > m_lastIteration + 1)
            reloadFromStore(true);
        appendIteration(progress.iteration, progress.metrics);
    }
}

void MonitorPage::onLog(int level, const QString& loggerName, const QString& text)
{
    m_pendingLog.append(QStringLiteral("%1 %2 [%3] %4")
                            .arg(QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss")),
                                levelName(level).leftJustified(7), loggerName, text));
    if (!m_logTimer->isActive())
        m_logTimer->start();
}

void MonitorPage::flushLog()
{
    if (m_pendingLog.isEmpty())
        return;
    m_log->appendPlainText(m_pendingLog.join(QLatin1Char('\n')));
    m_pendingLog.clear();
}

void MonitorPage::updateButtons()
{
    updateButtons(readRun());
}

std::optional<RunInfo> MonitorPage::readRun() const
{
    Store* store = m_workspace->store();
    if (!store || m_runId == 0)
        return std::nullopt;
    try {
        return store->run(m_runId);
    } catch (const std::exception&) {
        return std::nullopt; // the run may just have been deleted; the runs view reports errors
    }
}

bool MonitorPage::reportsProgress() const
{
    return m_controller->isRunning() && m_controller->runId() == m_runId && !m_controller->isExternal();
}

void MonitorPage::setRanks(int ranks)
{
    m_ranks->setText(ranks > 1 ? tr("%n ranks", nullptr, ranks) : QString());
    m_ranks->setVisible(ranks > 1);
}

void MonitorPage::showFailure(const QString& message)
{
    const QString firstLine = message.section(QLatin1Char('\n'), 0, 0);
    m_phase->setText(m_phase->fontMetrics().elidedText(tr("Failed: %1").arg(firstLine), Qt::ElideRight, 480));
    m_phase->setToolTip(message);
    m_failure->setText(message);
    m_failure->setVisible(!message.isEmpty());
}

void MonitorPage::updateButtons(const std::optional<RunInfo>& run)
{
    const bool ours = m_controller->isRunning() && (m_runId == 0 || m_controller->runId() == m_runId);
    const bool external = ours && m_controller->isExternal();
    m_pause->setEnabled(ours && !external);
    m_pause->setText(m_controller->isPaused() ? tr("&Continue") : tr("&Pause"));
    m_pause->setToolTip(external ? tr("A run of several processes cannot pause; Stop ends it with a checkpoint")
                                 : tr("Pause after the current step (Ctrl+P)"));
    // Asked once, a run stops after its current step; a run of several processes can be asked again to quit at once.
    const int stops = ours ? m_controller->stopRequests() : 0;
    m_stop->setEnabled(ours && (stops == 0 || (external && stops == 1)));
    m_stop->setText(stops == 0       ? tr("S&top")
            : external && stops == 1 ? tr("S&top now")
            : external               ? tr("Terminating…")
                                     : tr("Stopping…"));
    m_stop->setToolTip(external && stops == 1
            ? tr("Terminate the processes now, without waiting for the current iteration (its work is lost)")
            : tr("Stop after the current step, with a checkpoint to resume from (Ctrl+.)"));
    const std::optional<RunStatus> status = run ? std::optional(run->status) : std::nullopt;
    m_resume->setVisible(!m_controller->isRunning() && m_runId != 0
        && (status == RunStatus::Cancelled || status == RunStatus::Failed));
}

void MonitorPage::updateHeader()
{
    if (m_runId == 0 && m_controller->isExternal()) {
        m_title->setText(tr("Starting creditlab-cli with %n processes…", nullptr, m_controller->processes()));
        setRanks(m_controller->processes());
        return;
    }
    if (m_runId == 0) {
        m_title->setText(tr("No run shown. Start one in Launch (Ctrl+2), or select one in Runs and choose Run → Monitor (Ctrl+M)."));
        return;
    }
    const std::optional<RunInfo> run = readRun(); // once per poll: the buttons and the progress use it too
    m_title->setText(run ? tr("Run %1: %2 (%3)").arg(m_runId).arg(toQString(run->name), RunModel::displayStatus(run->status))
                         : tr("Run %1").arg(m_runId));
    updateButtons(run);
    updateStoredProgress(run);
}

void MonitorPage::updateStoredProgress(const std::optional<RunInfo>& run)
{
    // The controller reports its own run's progress (with SFT steps and ETA); others are read from the store.
    if (m_runId == 0 || reportsProgress())
        return;
    if (!run)
        return;
    if (run->status == RunStatus::Failed && m_failure->text().isEmpty()) {
        // Why, as the trainer (rank 0 of a data-parallel run) wrote it: the notes' last "failed: " line.
        const QString notes = toQString(run->notes);
        const qsizetype at = notes.lastIndexOf(QLatin1String("failed: "));
        if (at >= 0)
            showFailure(notes.mid(at + 8).trimmed());
    }
    if (run->kind == RunKind::Import) {
        // Another trainer posting to `creditlab-cli serve`: no plan to measure against, so a busy bar and the
        // last iteration that arrived; then its final status.
        if (run->status == RunStatus::Running) {
            m_phase->setText(tr("Receiving"));
            m_phase->setToolTip(toQString(run->source.value_or(std::string())));
            m_progress->setRange(0, 0);
            m_eta->setText(m_lastIteration >= 0 ? tr("iteration %1 received").arg(m_lastIteration)
                                                : tr("waiting for the first iteration"));
        } else {
            m_phase->setText(statusPhase(run->status));
            m_phase->setToolTip({});
            m_progress->setRange(0, 1);
            m_progress->setValue(run->status == RunStatus::Finished ? 1 : 0);
            m_progress->setFormat(QString());
            m_eta->clear();
        }
        return;
    }
    const qint64 total = run->iterationsPlanned.value_or(0);
    if (total <= 0)
        return;
    const qint64 done = run->iterationsDone;
    m_progress->setRange(0, static_cast<int>(total));
    m_progress->setValue(static_cast<int>(std::min(done, total)));
    const bool inSft = run->status == RunStatus::Running && m_lastIteration < 0 && m_charts->lastSftStep() > 0;
    m_progress->setFormat(inSft ? tr("SFT step %1, then %2 iterations").arg(m_charts->lastSftStep()).arg(total)
                                : tr("iteration %1 / %2").arg(done).arg(total));
    // A run of another process: its phase from what it has stored (SFT writes its curves, then iteration 0).
    if (run->status == RunStatus::Running)
        m_phase->setText(m_lastIteration >= 0 ? tr("RL") : m_charts->lastSftStep() > 0 ? tr("SFT") : tr("Setting up"));
    else if (run->status != RunStatus::Failed || m_failure->text().isEmpty()) // else the reason stays
        m_phase->setText(statusPhase(run->status));
    if (run->status == RunStatus::Running && done > 0) {
        // Mean iteration time so far (SFT excluded; summed as the iterations arrive) times the iterations left.
        m_eta->setText(tr("about %1 left").arg(formatDuration(m_iterationSeconds / done * (total - done))));
    } else {
        m_eta->clear();
    }
}

charts::LineChart* MonitorPage::chart(const QString& metric) const { return m_charts->chart(metric); }

QStringList MonitorPage::metricNames() const { return m_charts->metricNames(); }

qsizetype MonitorPage::pointCount(const QString& metric) const { return m_charts->pointCount(metric); }

QString MonitorPage::phaseText() const { return m_phase->text(); }

QString MonitorPage::ranksText() const { return m_ranks->text(); }

QString MonitorPage::failureText() const { return m_failure->text(); }

void MonitorPage::setSmoothing(double weight) { m_smoothing->setValue(static_cast<int>(weight * 100 + 0.5)); }

} // namespace creditlab::ui
