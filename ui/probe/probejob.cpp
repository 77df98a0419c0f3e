#include "ui/probe/probejob.h"

#include "ui/common/textutil.h"

#include <QMetaObject>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include <spdlog/spdlog.h>

#include <chrono>
#include <exception>

namespace creditlab::ui {

namespace {

using Clock = std::chrono::steady_clock;
/// Progress is sent at most this often (STYLE rule 7).
constexpr auto kProgressInterval = std::chrono::milliseconds(100);

/// The whole computation's fraction: building the records is cheap next to the teacher-forced features; fitting the
/// nine probes takes the last tenth.
double overallFraction(const learn::ProbeProgress& p)
{
    const double within = p.total > 0 ? static_cast<double>(p.done) / static_cast<double>(p.total) : 0.0;
    if (p.phase == "data")
        return 0.15 * within;
    if (p.phase == "features")
        return 0.15 + 0.75 * within;
    return 0.9 + 0.1 * within;
}

std::shared_ptr<spdlog::logger> logger()
{
    static auto log = [] {
        auto existing = spdlog::get("probe");
        return existing ? existing : spdlog::default_logger()->clone("probe");
    }();
    return log;
}

} // namespace

QString probeJobStatusName(ProbeJobResult::Status status)
{
    switch (status) {
    case ProbeJobResult::Status::Finished:
        return QStringLiteral("finished");
    case ProbeJobResult::Status::Cancelled:
        return QStringLiteral("cancelled");
    case ProbeJobResult::Status::Failed:
        break;
    }
    return QStringLiteral("failed");
}

ProbeJob::ProbeJob(QObject* parent)
    : QObject(parent)
    , m_cancel(std::make_shared<std::atomic<bool>>(false))
    , m_watcher(new QFutureWatcher<ProbeJobResult>(this))
{
    qRegisterMetaType<ProbeJobProgress>();
    qRegisterMetaType<ProbeJobResult>();
    connect(m_watcher, &QFutureWatcher<ProbeJobResult>::finished, this, &ProbeJob::onFinished);
}

ProbeJob::~ProbeJob()
{
    // The worker posts progress to this object: it must be done before the object goes.
    cancel();
    m_watcher->waitForFinished();
}

void ProbeJob::cancel() { m_cancel->store(true); }

bool ProbeJob::start(const learn::ProbeSource& source, const learn::ProbeDataOptions& options)
{
    if (m_running)
        return false;
    m_running = true;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    QPointer<ProbeJob> self(this);
    m_watcher->setFuture(QtConcurrent::run([self, cancel = m_cancel, source, options] {
        ProbeJobResult result;
        const auto start = Clock::now();
        auto lastSent = start - kProgressInterval;
        const auto callback = [&](const learn::ProbeProgress& p) {
            const auto now = Clock::now();
            if (now - lastSent >= kProgressInterval || p.done == p.total) {
                lastSent = now;
                ProbeJobProgress out;
                out.phase = toQString(p.phase);
                out.done = p.done;
                out.total = p.total;
                out.fraction = overallFraction(p);
                out.elapsedSeconds = std::chrono::duration<double>(now - start).count();
                out.etaSeconds = out.fraction > 0.0 ? out.elapsedSeconds * (1.0 - out.fraction) / out.fraction : -1.0;
                // Queued to the GUI thread; the destructor waits for this function, so `self` is alive here.
                QMetaObject::invokeMethod(
                    self, [self, out] { Q_EMIT self->progressed(out); }, Qt::QueuedConnection);
            }
            return !cancel->load();
        };
        try {
            // The training module (LibTorch) is opened on first use; usually the launcher has loaded it already.
            result.table = learn::trainingBackend().probeTable(source, options, callback);
            result.status = cancel->load() ? ProbeJobResult::Status::Cancelled : ProbeJobResult::Status::Finished;
        } catch (const std::exception& e) {
            // A cancelled pipeline throws creditlab::Cancelled; the flag says so without matching its type across
            // the module boundary.
            result.status = cancel->load() ? ProbeJobResult::Status::Cancelled : ProbeJobResult::Status::Failed;
            result.error = result.status == ProbeJobResult::Status::Failed ? toQString(e.what()) : QString();
        }
        if (result.status != ProbeJobResult::Status::Finished)
            result.table = {};
        return result;
    }));
    return true;
}

void ProbeJob::onFinished()
{
    m_running = false;
    const ProbeJobResult result = m_watcher->result();
    if (result.status == ProbeJobResult::Status::Failed)
        logger()->error("probe table failed: {}", result.error.toStdString());
    else
        logger()->info(
            "probe table {}: {} probes", probeJobStatusName(result.status).toStdString(), result.table.rows.size());
    Q_EMIT finished(result);
}

} // namespace creditlab::ui
