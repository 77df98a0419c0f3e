#include "ui/credit/creditpage.h"

#include "core/credit/estimator.h"
#include "core/credit/runcredits.h"
#include "core/storage/store.h"
#include "ui/charts/colours.h"
#include "ui/charts/linechart.h"
#include "ui/common/runcombo.h"
#include "ui/common/textutil.h"
#include "ui/credit/disagreementpanel.h"
#include "ui/heatmap/creditheatmapview.h"
#include "ui/heatmap/heatmaplegend.h"
#include "ui/heatmap/heatmapmath.h"
#include "ui/shell/workspace.h"

#include <QColor>
#include <QComboBox>
#include <QFont>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QMenu>
#include <QPalette>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <exception>
#include <optional>

namespace creditlab::ui {

namespace {

/// What a background load hands back: the data, or the reason it failed.
struct LoadResult {
    heatmap::HeatmapDataPtr data;
    QString error;
};

constexpr int kHistogramBins = 41;

} // namespace

CreditPage::CreditPage(Workspace* workspace, QWidget* parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_run(new QComboBox(this))
    , m_iteration(new QComboBox(this))
    , m_order(new QComboBox(this))
    , m_methods(new QListWidget(this))
    , m_status(new QLabel(this))
    , m_zeroBanner(new QLabel(this))
    , m_view(new heatmap::CreditHeatmapView(this))
    , m_legend(new heatmap::HeatmapLegend(this))
    , m_disagreement(new DisagreementPanel(this))
    , m_distribution(new charts::LineChart(this))
    , m_distributionMethod(new QComboBox(this))
    , m_compute(new QToolButton(this))
{
    setObjectName(QStringLiteral("creditPage"));
    m_run->setObjectName(QStringLiteral("creditRun"));
    m_iteration->setObjectName(QStringLiteral("creditIteration"));
    m_methods->setObjectName(QStringLiteral("creditMethods"));
    m_distributionMethod->setObjectName(QStringLiteral("distributionMethod"));
    // At 1280 px the controls share one line: long run names and messages shrink instead of pushing it wider.
    m_run->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_run->setMinimumContentsLength(16);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_order->addItem(tr("Stored order"), int(heatmap::RowOrder::Stored));
    m_order->addItem(tr("By group"), int(heatmap::RowOrder::Group));
    m_order->addItem(tr("By outcome"), int(heatmap::RowOrder::Outcome));
    m_order->addItem(tr("By disagreement"), int(heatmap::RowOrder::Disagreement));
    m_order->setCurrentIndex(1);
    m_methods->setToolTip(tr("Methods shown side by side; cells where the first two disagree in sign are outlined "
                             "and struck through. Until you pick, the run's own method and its nearest rival."));
    m_methods->setMaximumWidth(200);
    m_status->setTextFormat(Qt::PlainText);
    // A warning strip in fixed colours (readable on light and dark themes): the reason names the method and the
    // batch's shape, both from the data.
    m_zeroBanner->setObjectName(QStringLiteral("zeroCreditBanner"));
    m_zeroBanner->setTextFormat(Qt::PlainText);
    m_zeroBanner->setWordWrap(true);
    m_zeroBanner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_zeroBanner->setFrameShape(QFrame::StyledPanel);
    m_zeroBanner->setMargin(4);
    m_zeroBanner->setAutoFillBackground(true);
    {
        QPalette palette = m_zeroBanner->palette();
        palette.setColor(QPalette::Window, QColor(0xff, 0xf3, 0xcd));
        palette.setColor(QPalette::WindowText, QColor(0x5c, 0x45, 0x00));
        m_zeroBanner->setPalette(palette);
    }
    m_zeroBanner->hide();
    m_distribution->setTitle(tr("Advantages per role"));
    m_compute->setText(tr("Compute credits"));
    m_compute->setToolTip(tr("Compute a method's credits for this run (default parameters) and store them"));
    m_compute->setPopupMode(QToolButton::InstantPopup);
    auto* computeMenu = new QMenu(m_compute);
    QStringList allMethods;
    for (const auto* estimator : credit::estimators()) {
        const QString name = toQString(std::string(estimator->name()));
        allMethods << name;
        computeMenu->addAction(name, this, [this, name] { computeCredits({ name }); });
    }
    computeMenu->addSeparator();
    computeMenu->addAction(tr("All methods"), this, [this, allMethods] { computeCredits(allMethods); });
    m_compute->setMenu(computeMenu);
    m_distribution->setAxisTitles(tr("advantage"), tr("turns"));
    // Five entries (four roles and the unlabelled turns) do not fit one row of the chart's width at 1280 x 720.
    m_distribution->setLegendAlignment(Qt::AlignRight);

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Run:"), this));
    controls->addWidget(m_run, 2);
    controls->addWidget(new QLabel(tr("Iteration:"), this));
    controls->addWidget(m_iteration);
    controls->addWidget(new QLabel(tr("Rows:"), this));
    controls->addWidget(m_order);
    controls->addWidget(m_compute);
    controls->addWidget(m_status, 3);
    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->setSpacing(2);
    topLayout->addWidget(m_zeroBanner);
    topLayout->addWidget(m_view, 1);
    topLayout->addWidget(m_legend);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(new QLabel(tr("Methods:"), this));
    leftLayout->addWidget(m_methods, 1);
    auto* bottom = new QWidget(this);
    auto* bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    auto* bottomControls = new QHBoxLayout;
    bottomControls->addWidget(new QLabel(tr("Distribution of:"), this));
    bottomControls->addWidget(m_distributionMethod);
    bottomControls->addStretch(1);
    bottomLayout->addLayout(bottomControls);
    bottomLayout->addWidget(m_distribution, 1);
    auto* below = new QSplitter(Qt::Horizontal, this);
    below->addWidget(bottom);
    below->addWidget(m_disagreement);
    below->setSizes({ 400, 600 }); // the summary's two tables need the width more than the distribution
    auto* centre = new QSplitter(Qt::Vertical, this);
    centre->addWidget(top);
    centre->addWidget(below);
    centre->setStretchFactor(0, 3);
    centre->setStretchFactor(1, 2);
    centre->setSizes({ 540, 240 });
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    splitter->addWidget(centre);
    splitter->setSizes({ 180, 1200 });
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(splitter, 1);

    connect(m_run, &QComboBox::activated, this, [this] {
        m_follow.forget(); // the user's pick is the latest choice
        m_runId = m_run->currentData().toLongLong();
        reloadIterations();
        load();
    });
    connect(m_iteration, &QComboBox::activated, this, &CreditPage::load);
    connect(m_order, &QComboBox::currentIndexChanged, this,
        [this] { m_view->setRowOrder(static_cast<heatmap::RowOrder>(m_order->currentData().toInt())); });
    connect(m_methods, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
        m_methodsChosen = true; // the user's pick: it outlives reloads
        // A method checked now shows right of those shown; the rest keep their places.
        m_shown.removeAll(item->text());
        if (item->checkState() == Qt::Checked)
            m_shown << item->text();
        applyMethods();
    });
    connect(m_distributionMethod, &QComboBox::currentIndexChanged, this, &CreditPage::updateDistribution);
    connect(m_view, &heatmap::CreditHeatmapView::turnActivated, this, &CreditPage::turnActivated);
    connect(m_disagreement, &DisagreementPanel::turnSelected, m_view, &heatmap::CreditHeatmapView::selectCell);
    connect(m_disagreement, &DisagreementPanel::turnActivated, this, &CreditPage::turnActivated);
    connect(m_workspace, &Workspace::opened, this, [this] {
        m_runId = 0;
        reloadRuns();
    });
    // Nothing read from the old database may survive it: not its run, iterations, methods or rows (issue 20).
    connect(m_workspace, &Workspace::aboutToReplace, this, &CreditPage::clear);
    connect(m_workspace, &Workspace::runsChanged, this, &CreditPage::reloadRuns);
    // Tooltips show the turn's action: read on demand through the GUI thread's store.
    m_view->setActionTextProvider([this](qint64 rowId, int turn) {
        Store* store = m_workspace->store();
        if (!store)
            return QString();
        try {
            const Trajectory t = store->loadTrajectory(rowId);
            return turn >= 0 && turn < static_cast<int>(t.turns.size()) ? toQString(t.turns[turn].action) : QString();
        } catch (const std::exception&) {
            return QString();
        }
    });
    reloadRuns();
}

CreditPage::~CreditPage() = default;

void CreditPage::clear()
{
    ++m_generation; // loads in flight read the old database: drop them
    m_runId = 0;
    m_follow.forget(); // a run id of the old database
    m_data.reset();
    m_trainedMethod.clear();
    m_methodsChosen = false;
    m_shown.clear();
    m_run->clear();
    {
        const QSignalBlocker blockMethods(m_methods);
        const QSignalBlocker blockDistribution(m_distributionMethod);
        m_methods->clear();
        m_distributionMethod->clear();
    }
    m_iteration->clear();
    m_iteration->addItem(tr("all"), QVariant::fromValue<qint64>(-1));
    m_view->setData(nullptr);
    m_view->setShownMethods({});
    m_legend->setComparedMethods({}, {});
    m_disagreement->setData(nullptr);
    updateDistribution(); // no data: empty, under its plain title (a clipped one would name the old database's turns)
    m_status->clear();
    m_zeroBanner->clear();
    m_zeroBanner->hide();
}

void CreditPage::reloadRuns()
{
    bool kept = false;
    try {
        kept = fillRunCombo(m_run, m_workspace->runs(), m_runId);
    } catch (const std::exception& e) {
        Q_EMIT errorOccurred(toQString(e.what()));
        return;
    }
    if (!kept)
        m_runId = 0; // the run shown is gone (or none was)
    // The run selected in Runs, listed now (one just imported, the new database's): it shows now or when the page
    // appears.
    if (m_follow.listed(m_run) != 0) {
        if (isVisible())
            showFollowedRun();
        return;
    }
    if (kept)
        return;
    // The combo's run loads now, or when the page appears.
    if (const qint64 run = runToLoad(m_run, m_runId); run != 0 && isVisible())
        showRun(run);
}

void CreditPage::followRun(qint64 runId)
{
    // The chooser names it at once; a hidden page loads it when it appears.
    if (runId != 0 && m_follow.follow(m_run, runId, m_runId) && isVisible())
        showFollowedRun();
}

bool CreditPage::showFollowedRun()
{
    const qint64 run = m_follow.listed(m_run);
    if (run == 0)
        return false;
    showRun(run);
    return true;
}

void CreditPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (showFollowedRun())
        return;
    if (const qint64 run = runToLoad(m_run, m_runId); run != 0)
        showRun(run);
}

void CreditPage::reloadIterations()
{
    m_iteration->clear();
    m_iteration->addItem(tr("all"), QVariant::fromValue<qint64>(-1));
    Store* store = m_workspace->store();
    if (!store || m_runId == 0)
        return;
    try {
        for (const auto it : store->iterations(m_runId))
            m_iteration->addItem(QString::number(it), QVariant::fromValue<qint64>(it));
    } catch (const std::exception& e) {
        Q_EMIT errorOccurred(toQString(e.what()));
    }
    // A trained run: its last iteration (every trajectory of hundreds of iterations is rarely what one wants).
    if (m_iteration->count() > 1)
        m_iteration->setCurrentIndex(m_iteration->count() - 1);
}

void CreditPage::showRun(qint64 runId, qint64 iteration)
{
    m_follow.forget();
    m_runId = runId;
    const int index = m_run->findData(QVariant::fromValue<qint64>(runId));
    if (index >= 0)
        m_run->setCurrentIndex(index);
    reloadIterations();
    if (iteration >= 0) {
        const int at = m_iteration->findData(QVariant::fromValue<qint64>(iteration));
        if (at >= 0)
            m_iteration->setCurrentIndex(at);
    }
    load();
}

void CreditPage::load()
{
    const quint64 generation = ++m_generation;
    if (!m_workspace->isOpen() || m_runId == 0)
        return;
    const std::string path = m_workspace->path().toStdString();
    const qint64 runId = m_runId;
    const qint64 iteration = m_iteration->currentData().toLongLong();
    m_status->setText(tr("Loading run %1…").arg(runId));
    auto* watcher = new QFutureWatcher<LoadResult>(this);
    connect(watcher, &QFutureWatcher<LoadResult>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        const LoadResult result = watcher->result();
        if (generation != m_generation)
            return; // a newer request superseded this one
        if (!result.error.isEmpty()) {
            m_status->setText(result.error);
            Q_EMIT errorOccurred(result.error);
            Q_EMIT loaded();
            return;
        }
        onLoaded(result.data, generation);
    });
    watcher->setFuture(QtConcurrent::run([path, runId, iteration] {
        LoadResult out;
        try {
            Store store(path, Store::Access::ReadOnly); // one connection per thread
            out.data = heatmap::loadHeatmapData(
                store, runId, iteration >= 0 ? std::optional<std::int64_t>(iteration) : std::nullopt, {});
        } catch (const std::exception& e) {
            out.error = toQString(e.what());
        }
        return out;
    }));
}

void CreditPage::computeCredits(const QStringList& methods)
{
    if (!m_workspace->isOpen() || m_runId == 0 || methods.isEmpty())
        return;
    const std::string path = m_workspace->path().toStdString();
    const qint64 runId = m_runId;
    const qint64 iteration = m_iteration->currentData().toLongLong();
    std::vector<std::string> names;
    for (const QString& m : methods)
        names.push_back(m.toStdString());
    m_compute->setEnabled(false);
    m_status->setText(tr("Computing %1 for run %2…").arg(methods.join(QStringLiteral(", "))).arg(runId));
    struct Outcome {
        qint64 turns = 0;
        QString error;
    };
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher, methods] {
        watcher->deleteLater();
        m_compute->setEnabled(true);
        const Outcome outcome = watcher->result();
        if (!outcome.error.isEmpty()) {
            m_status->setText(outcome.error);
            Q_EMIT errorOccurred(outcome.error);
            return;
        }
        Q_EMIT creditsComputed(methods, outcome.turns);
        load();
    });
    watcher->setFuture(QtConcurrent::run([path, runId, iteration, names] {
        Outcome out;
        try {
            Store store(path); // this thread's own connection; each method is one transaction
            for (const auto& name : names) {
                const auto& method = credit::requireEstimator(name);
                const auto params = method.resolve({});
                out.turns += static_cast<qint64>(credit::computeRunCredits(store, runId,
                    iteration >= 0 ? std::optional<std::int64_t>(iteration) : std::nullopt, method, params)
                                                     .turns);
            }
        } catch (const std::exception& e) {
            out.error = toQString(e.what());
        }
        return out;
    }));
}

void CreditPage::onLoaded(const heatmap::HeatmapDataPtr& data, quint64)
{
    m_data = data;
    const QStringList previous = shownMethods();
    m_trainedMethod.clear();
    if (Store* store = m_workspace->store(); store && m_runId != 0) {
        try {
            if (const auto run = store->run(m_runId); run && run->method)
                m_trainedMethod = toQString(*run->method);
        } catch (const std::exception&) {
            // The list still shows; only the mark is missing.
        }
    }
    {
        const QSignalBlocker block(m_methods);
        m_methods->clear();
        m_distributionMethod->clear();
        for (const auto& method : data ? data->methods : std::vector<std::string> {}) {
            auto* item = new QListWidgetItem(toQString(method), m_methods);
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(Qt::Unchecked);
            if (item->text() == m_trainedMethod) {
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
                item->setToolTip(tr("The method run %1 trained with; the others are shadow credits computed on its "
                                    "rollouts")
                                     .arg(m_runId));
            }
            m_distributionMethod->addItem(toQString(method));
        }
    }
    // Keep the methods the user picked (those this run has); else the run's own method and its nearest rival, so
    // that a comparison shows at once and all-zero credits do not (heatmap::defaultMethods).
    QStringList wanted;
    if (m_methodsChosen && data)
        for (const QString& m : previous)
            if (data->methodIndex(m.toStdString()) >= 0)
                wanted << m;
    if (wanted.isEmpty() && data)
        for (const int m : heatmap::defaultMethods(*data, m_trainedMethod.toStdString()))
            wanted << toQString(data->methods[static_cast<std::size_t>(m)]);
    m_view->setData(data);
    m_disagreement->setData(data);
    checkMethods(wanted);
    const int rows = data ? static_cast<int>(data->rows.size()) : 0;
    m_status->setText(rows == 0
            ? tr("Run %1 has no trajectories with credits here.").arg(m_runId)
            : tr("%1 trajectories, up to %2 turns, %n method(s)", nullptr, static_cast<int>(data->methods.size()))
                  .arg(QLocale().toString(rows))
                  .arg(data->columns));
    Q_EMIT loaded();
}

void CreditPage::setMethods(const QStringList& methods)
{
    m_methodsChosen = true;
    checkMethods(methods);
}

QStringList CreditPage::shownMethods() const { return m_shown; }

void CreditPage::checkMethods(const QStringList& methods)
{
    m_shown.clear();
    for (const QString& m : methods)
        if (!m_shown.contains(m) && !m_methods->findItems(m, Qt::MatchExactly).isEmpty())
            m_shown << m;
    {
        const QSignalBlocker block(m_methods);
        for (int i = 0; i < m_methods->count(); ++i)
            m_methods->item(i)->setCheckState(
                methods.contains(m_methods->item(i)->text()) ? Qt::Checked : Qt::Unchecked);
    }
    applyMethods();
}

void CreditPage::applyMethods()
{
    const QStringList& shown = m_shown;
    m_view->setShownMethods(shown);
    // The legend and the summary follow the pair the view marks: its first two blocks.
    const auto& blocks = m_view->shownMethods();
    const auto name = [this](int m) { return toQString(m_data->methods[static_cast<std::size_t>(m)]); };
    if (m_data && blocks.size() >= 2) {
        m_legend->setComparedMethods(name(blocks[0]), name(blocks[1]));
        m_disagreement->selectPair(blocks[0], blocks[1]);
    } else {
        m_legend->setComparedMethods({}, {});
    }
    if (!shown.isEmpty()) {
        const QSignalBlocker block(m_distributionMethod); // redrawn once, below
        m_distributionMethod->setCurrentText(shown.first()); // the distribution follows the first shown method
    }
    updateDistribution(); // and the heatmap's colour range, which the shown methods set
    updateZeroBanner();
}

void CreditPage::updateZeroBanner()
{
    // The methods whose credits are all 0 here: those shown first (left to right), then the others in list order.
    QStringList zero;
    QString reason;
    if (m_data) {
        QStringList order = m_shown;
        for (const auto& method : m_data->methods)
            if (!order.contains(toQString(method)))
                order << toQString(method);
        for (const QString& method : order) {
            const int m = m_data->methodIndex(method.toStdString());
            if (m < 0 || static_cast<std::size_t>(m) >= m_data->zeroReasons.size())
                continue;
            const auto& why = m_data->zeroReasons[static_cast<std::size_t>(m)];
            if (!why)
                continue;
            if (reason.isEmpty())
                reason = toQString(*why);
            zero << method;
        }
    }
    if (zero.isEmpty()) {
        m_zeroBanner->clear();
        m_zeroBanner->hide();
        return;
    }
    // The reason names the first method and the batch's shape (core's words, as the CLI's `credit` prints them).
    QString text = reason.left(1).toUpper() + reason.mid(1);
    if (zero.size() > 1)
        text += QLatin1Char(' ')
            + tr("The credits of %1 are all 0 here too.").arg(zero.mid(1).join(QStringLiteral(", ")));
    m_zeroBanner->setText(text);
    m_zeroBanner->show();
}

void CreditPage::updateDistribution()
{
    m_distribution->clear();
    m_distribution->setTitle(tr("Advantages per role"));
    m_distribution->setToolTip(QString());
    if (!m_data)
        return;
    const std::string method = m_distributionMethod->currentText().toStdString();
    // The heatmap's colour range (its 98th percentile of |advantage|, or the limit set): a few outliers stretched the
    // histogram's range so that every other turn fell into its middle bins. Values beyond are counted in the end
    // bins, and the title says so, as the colour bar does.
    const double limit = m_view->colorScale().limit;
    const std::optional<double> range = limit > 0.0 && std::isfinite(limit) ? std::optional(limit) : std::nullopt;
    if (const int m = m_data->methodIndex(method); range && m >= 0) {
        const auto& values = m_data->values[static_cast<std::size_t>(m)];
        const auto beyond = std::count_if(
            values.begin(), values.end(), [limit](double v) { return std::isfinite(v) && std::abs(v) > limit; });
        if (beyond > 0) {
            // Short enough for the chart's width at 1280 x 720; the tooltip says why.
            const QString bound = QString::number(limit, 'g', 3);
            m_distribution->setTitle(
                tr("Advantages per role, clipped: %n turn(s) beyond \u00b1%1", nullptr, int(beyond)).arg(bound));
            m_distribution->setToolTip(tr("The histogram spans the heatmap's colour range, \u00b1%1; the turns beyond "
                                          "it are counted in its end bins.")
                                           .arg(bound));
        }
    }
    for (const auto& h : heatmap::advantageHistograms(*m_data, kHistogramBins, range)) {
        if (h.method != method || h.total == 0)
            continue;
        // Short enough for a legend of five entries at 1280 x 720 with five-digit counts; the y axis says "turns".
        const QString name = h.role ? tr("%1 (%2)").arg(toQString(std::string(roleName(*h.role)))).arg(h.total)
                                    : tr("unlabelled (%1)").arg(h.total);
        std::vector<double> x, y;
        for (std::size_t b = 0; b < h.counts.size(); ++b) {
            x.push_back(h.lo + (static_cast<double>(b) + 0.5) * h.binWidth());
            y.push_back(h.counts[b]);
        }
        // Each role in its fixed colour (the same on every page and every redraw).
        const int id = m_distribution->addSeries(name, colours::role(h.role ? roleName(*h.role).front() : '?'));
        m_distribution->setSeriesData(id, std::move(x), std::move(y));
    }
    m_distribution->resetZoom();
}

} // namespace creditlab::ui
