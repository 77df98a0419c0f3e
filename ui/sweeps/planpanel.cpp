#include "ui/sweeps/planpanel.h"

#include "core/learn/api/experimentplan.h"
#include "core/storage/store.h"
#include "ui/common/textutil.h"

#include <QFutureWatcher>
#include <QLabel>
#include <QLocale>
#include <QPointer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <exception>
#include <optional>

namespace creditlab::ui {

struct PlanPanel::Result {
    std::optional<learn::ExperimentPlan> plan;
    QString details; ///< planText(), for the tooltip
    QString error;
};

namespace {

QString number(double v, int decimals) { return QLocale().toString(v, 'f', decimals); }

} // namespace

PlanPanel::PlanPanel(QWidget* parent)
    : QWidget(parent)
    , m_label(new QLabel(this))
{
    m_label->setObjectName(QStringLiteral("planText"));
    m_label->setTextFormat(Qt::PlainText);
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label);
    hide();
}

PlanPanel::~PlanPanel() = default; // m_inFlight waits for the plans still reading

QString PlanPanel::text() const { return m_label->text(); }

void PlanPanel::showPlanFor(const QString& database, const std::string& name)
{
    const std::uint64_t generation = ++m_generation; // a plan in flight is for another file or database
    m_summary.clear();
    if (database.isEmpty() || name.empty()) {
        m_label->clear();
        hide();
        return;
    }
    m_label->setText(tr("Plan: looking for a pilot of %1 in this database…").arg(toQString(name)));
    m_label->setToolTip(QString());
    show();
    auto* watcher = new QFutureWatcher<std::shared_ptr<Result>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        onResult(generation, watcher->result());
    });
    const auto future = QtConcurrent::run([path = database.toStdString(), name] {
        auto out = std::make_shared<Result>();
        try {
            Store store(path, Store::Access::ReadOnly); // one connection per thread
            if (const auto pilot = learn::findPilot(store, name)) {
                out->plan = learn::planExperiment(store, *pilot);
                out->details = toQString(learn::planText(*out->plan));
            }
        } catch (const std::exception& e) {
            out->error = toQString(e.what());
        }
        return out;
    });
    if (std::all_of(
            m_inFlight.futures().cbegin(), m_inFlight.futures().cend(), [](const auto& f) { return f.isFinished(); }))
        m_inFlight.clearFutures();
    m_inFlight.addFuture(future);
    watcher->setFuture(future);
}

void PlanPanel::onResult(std::uint64_t generation, const std::shared_ptr<Result>& result)
{
    if (generation != m_generation)
        return; // superseded
    if (!result->error.isEmpty()) {
        m_label->setText(tr("Plan: cannot read this database's pilot: %1").arg(result->error));
        Q_EMIT planShown();
        return;
    }
    if (!result->plan) {
        m_label->setText(tr("Plan: no pilot of this experiment in this database. Run it at smoke scale first "
                            "(creditlab-cli experiment run FILE --scale smoke), or start it and plan again as its "
                            "seeds finish (creditlab-cli experiment plan ID)."));
        Q_EMIT planShown();
        return;
    }
    const learn::ExperimentPlan& plan = *result->plan;
    QStringList lines;
    lines << tr("Plan from experiment %1 (%2 scale%3), power %4:")
                 .arg(plan.sweepId)
                 .arg(toQString(plan.scale))
                 .arg(plan.partial ? tr(", seeds so far") : QString())
                 .arg(number(plan.options.power, 2));
    int most = 0;
    double hours = 0.0;
    for (const learn::ClaimPlan& c : plan.claims) {
        const learn::ClaimResult& now = c.now;
        QString line = QStringLiteral("• ") + toQString(c.claim.canonical()) + QStringLiteral(": ");
        line += tr("%n seed(s) now", nullptr, now.seeds);
        if (!now.left.empty() && !now.right.empty())
            line += QStringLiteral(", %1 [%2, %3] %4")
                        .arg(number(now.interval.difference, 3), number(now.interval.low, 3),
                            number(now.interval.high, 3), toQString(learn::verdictName(now.verdict)));
        if (c.seedsNeeded == 0) {
            line += QStringLiteral("; ") + toQString(c.note);
        } else {
            const learn::PlanOption* first = c.options.empty() ? nullptr : &c.options.front();
            line += tr("; effect %1 needs %n seed(s)", nullptr, c.seedsNeeded).arg(number(c.effect, 3));
            if (first && std::isfinite(first->hours)) {
                line += tr(" (%1 compute hours more)").arg(number(first->hours, 1));
                hours = std::max(hours, first->hours);
            }
            most = std::max(most, c.seedsNeeded);
        }
        lines << line;
    }
    m_label->setText(lines.join(QLatin1Char('\n')));
    m_label->setToolTip(result->details);
    if (most > 0)
        m_summary = tr("The plan: up to %n seed(s) per arm to decide its claims", nullptr, most)
            + (hours > 0.0 ? tr(", about %1 compute hours more.").arg(number(hours, 1)) : QStringLiteral("."));
    Q_EMIT planShown();
}

} // namespace creditlab::ui
