#include "ui/compare/comparepage.h"

#include "core/storage/atomicfile.h"
#include "ui/charts/linechart.h"
#include "ui/common/filedialogs.h"
#include "ui/common/sortfilterproxymodel.h"
#include "ui/common/tableviewsetup.h"
#include "ui/common/textutil.h"
#include "ui/compare/compareaddrunsdialog.h"
#include "ui/compare/comparechart.h"
#include "ui/compare/comparecontrols.h"
#include "ui/compare/comparegrid.h"
#include "ui/compare/compareloader.h"
#include "ui/compare/comparemodel.h"
#include "ui/shell/workspace.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <exception>

namespace creditlab::ui {

ComparePage::ComparePage(Workspace* workspace, QWidget* parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_loader(new CompareLoader(this))
    , m_runsModel(new CompareRunsModel(this))
    , m_tableModel(new CompareTableModel(this))
    , m_tableProxy(new SortFilterProxyModel(this))
    , m_grid(new CompareGrid(this))
    , m_runsView(new QTableView(this))
    , m_tableView(new QTableView(this))
    , m_controls(new CompareControls(this))
    , m_iterationSpin(new QSpinBox(this))
    , m_iterationSlider(new QSlider(Qt::Horizontal, this))
    , m_status(new QLabel(this))
{
    setUpTableView(m_runsView);
    m_runsView->setObjectName(QStringLiteral("compareRunsView"));
    m_runsView->setModel(m_runsModel);
    m_runsView->setSortingEnabled(false); // list order is the colour order
    m_runsView->setContextMenuPolicy(Qt::CustomContextMenu);
    m_runsView->horizontalHeader()->setSectionResizeMode(
        int(CompareRunsModel::Column::Baseline), QHeaderView::ResizeToContents);
    m_runsView->setColumnWidth(int(CompareRunsModel::Column::Name), 150);
    m_tableProxy->setSourceModel(m_tableModel);
    setUpTableView(m_tableView);
    m_tableView->setObjectName(QStringLiteral("compareTableView"));
    m_tableView->setModel(m_tableProxy);
    m_tableView->sortByColumn(-1, Qt::AscendingOrder);
    m_status->setTextFormat(Qt::PlainText);

    auto* addButton = new QPushButton(tr("Add runs…"), this);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_runsView, 1);
    leftLayout->addWidget(addButton);
    leftLayout->addWidget(m_status);

    auto* bottom = new QWidget(this);
    auto* bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    auto* iterationRow = new QHBoxLayout;
    iterationRow->addWidget(new QLabel(tr("Table at iteration"), bottom));
    iterationRow->addWidget(m_iterationSpin);
    iterationRow->addWidget(m_iterationSlider, 1);
    bottomLayout->addLayout(iterationRow);
    bottomLayout->addWidget(m_tableView, 1);

    auto* centre = new QSplitter(Qt::Vertical, this);
    centre->setChildrenCollapsible(false);
    centre->addWidget(m_grid);
    centre->addWidget(bottom);
    centre->setStretchFactor(0, 3);
    centre->setStretchFactor(1, 2);
    centre->setSizes({ 600, 260 }); // the table's size hint would otherwise take half
    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_controls);
    rightLayout->addWidget(centre, 1);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 3);
    splitter->setSizes({ 380, 1100 }); // room for the runs' names and what differs between them
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    auto* exportAction = new QAction(tr("Export chart…"), this);
    exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(exportAction);
    connect(exportAction, &QAction::triggered, this, &ComparePage::exportChartInteractive);
    connect(m_controls, &CompareControls::metricChosen, this, &ComparePage::setMetric);
    connect(m_controls, &CompareControls::gridMetricsChosen, this, &ComparePage::setGridMetrics);
    connect(m_controls, &CompareControls::wallTimeChosen, this, &ComparePage::setAlignment);
    connect(m_controls, &CompareControls::groupSeedsChosen, this, &ComparePage::setGroupSeeds);
    connect(m_controls, &CompareControls::smoothingChosen, m_grid, &CompareGrid::setSmoothing);
    connect(m_controls, &CompareControls::exportChartRequested, this, &ComparePage::exportChartInteractive);
    connect(m_controls, &CompareControls::exportTableRequested, this, &ComparePage::exportTableInteractive);
    connect(m_iterationSpin, &QSpinBox::valueChanged, this, [this](int value) { setTableIteration(value); });
    connect(m_iterationSlider, &QSlider::valueChanged, this, [this](int value) { setTableIteration(value); });
    connect(addButton, &QPushButton::clicked, this, &ComparePage::addRunsInteractive);
    connect(m_runsView, &QWidget::customContextMenuRequested, this, &ComparePage::showRunsMenu);
    connect(m_runsModel, &CompareRunsModel::visibilityChanged, this, [this](qint64 runId, bool visible) {
        if (visible)
            m_hidden.remove(runId);
        else
            m_hidden.insert(runId);
        rebuildChart();
        rebuildTable();
    });
    connect(m_loader, &CompareLoader::loaded, this, &ComparePage::onLoaded);
    connect(m_workspace, &Workspace::aboutToReplace, this, [this] { setRuns({}); });
    connect(m_workspace, &Workspace::runsChanged, this, [this] {
        if (!m_runIds.isEmpty())
            requestLoad(); // runs still training grow live
    });
    refreshAll();
}

ComparePage::~ComparePage() = default;

void ComparePage::setRuns(const QList<qint64>& runIds)
{
    m_runIds.clear();
    for (const qint64 id : runIds) {
        if (id > 0 && !m_runIds.contains(id))
            m_runIds << id;
    }
    if (!m_runIds.contains(m_baseline))
        m_baseline = 0;
    requestLoad();
}

void ComparePage::addRuns(const QList<qint64>& runIds)
{
    QList<qint64> all = m_runIds;
    all += runIds;
    setRuns(all);
}

void ComparePage::removeRuns(const QList<qint64>& runIds)
{
    for (const qint64 id : runIds) {
        m_runIds.removeAll(id);
        m_hidden.remove(id);
    }
    if (!m_runIds.contains(m_baseline))
        m_baseline = 0;
    refreshAll();
}

charts::LineChart* ComparePage::chart() const { return m_grid->mainChart(); }

void ComparePage::setMetric(const QString& name)
{
    m_metricChosen = true;
    if (name == m_metric)
        return;
    m_metric = name;
    m_gridMetrics.removeAll(name); // in the main chart now
    refreshMetricCombo();
    rebuildChart();
    m_grid->resetZoom(); // other numbers: a zoom into the previous metric means nothing here
}

void ComparePage::setGridMetrics(const QStringList& metrics)
{
    QStringList unique;
    for (const QString& metric : metrics) {
        if (!metric.isEmpty() && metric != m_metric && !unique.contains(metric))
            unique << metric;
    }
    if (unique == m_gridMetrics)
        return;
    m_gridMetrics = unique;
    refreshMetricCombo();
    rebuildChart();
}

void ComparePage::setBaseline(qint64 runId)
{
    m_baseline = m_runIds.contains(runId) ? runId : 0;
    m_runsModel->setBaseline(m_baseline);
    rebuildChart();
    rebuildTable();
}

void ComparePage::setAlignment(bool wallTime)
{
    if (wallTime == m_wallTime)
        return;
    m_wallTime = wallTime;
    m_controls->setWallTime(wallTime);
    rebuildChart();
    m_grid->resetZoom(); // another x axis
}

void ComparePage::setGroupSeeds(bool group)
{
    if (group == m_groupSeeds)
        return;
    m_groupSeeds = group;
    m_controls->setGroupSeeds(group);
    rebuildChart();
    rebuildTable();
}

void ComparePage::setTableIteration(qint64 iteration)
{
    const int value = std::clamp(int(iteration), m_iterationSpin->minimum(), m_iterationSpin->maximum());
    m_followLatest = value == m_iterationSpin->maximum();
    const QSignalBlocker spinBlocker(m_iterationSpin);
    const QSignalBlocker sliderBlocker(m_iterationSlider);
    m_iterationSpin->setValue(value);
    m_iterationSlider->setValue(value);
    rebuildTable();
}

qint64 ComparePage::tableIteration() const { return m_iterationSpin->value(); }

bool ComparePage::exportChart(const QString& path, QString* error) { return chart()->exportImage(path, error); }

bool ComparePage::exportTableCsv(const QString& path, QString* error)
{
    try {
        writeFileAtomically(QFile::encodeName(path).toStdString(), compare::tableToCsv(m_tableModel->table()));
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = toQString(e.what());
        return false;
    }
}

void ComparePage::requestLoad()
{
    if (m_runIds.isEmpty() || !m_workspace->isOpen()) {
        m_loader->cancel();
        m_data.reset();
        refreshAll();
        Q_EMIT loaded();
        return;
    }
    m_status->setText(tr("Loading %n run(s)…", nullptr, int(m_runIds.size())));
    m_loader->load(m_workspace->path(), m_runIds);
}

void ComparePage::onLoaded(const std::shared_ptr<const CompareData>& data)
{
    if (!data->error.isEmpty()) {
        // Not a message box: a reload after every runsChanged() would repeat it; the window shows the signal.
        Q_EMIT errorOccurred(data->error);
        refreshAll();
        m_status->setText(data->error);
        Q_EMIT loaded();
        return;
    }
    for (const qint64 id : data->missing)
        m_runIds.removeAll(id); // deleted meanwhile
    if (!m_runIds.contains(m_baseline))
        m_baseline = 0;
    m_data = data;
    refreshAll();
    Q_EMIT loaded();
}

std::vector<const compare::RunSeries*> ComparePage::comparedRuns(bool visibleOnly) const
{
    std::vector<const compare::RunSeries*> runs;
    if (!m_data)
        return runs;
    for (const qint64 id : m_runIds) {
        if (visibleOnly && m_hidden.contains(id))
            continue;
        const auto it = std::find_if(
            m_data->runs.begin(), m_data->runs.end(), [id](const compare::RunSeries& run) { return run.runId == id; });
        if (it != m_data->runs.end())
            runs.push_back(&*it);
    }
    return runs;
}

void ComparePage::refreshAll()
{
    refreshRunsList();
    refreshMetricCombo();
    refreshIterationRange();
    rebuildChart();
    rebuildTable();
    const auto runs = comparedRuns(false);
    m_status->setText(
        runs.empty() ? tr("Add runs to compare them.") : tr("%n run(s) compared", nullptr, int(runs.size())));
}

void ComparePage::refreshRunsList()
{
    const auto runs = comparedRuns(false);
    const std::vector<std::string> keys = compare::diffKeys(runs);
    std::vector<CompareRunsModel::Entry> entries;
    for (const compare::RunSeries* run : runs) {
        CompareRunsModel::Entry entry { run->runId, toQString(run->name), run->status, colorOf(run->runId),
            !m_hidden.contains(run->runId), {} };
        for (const std::string& key : keys) {
            const auto it = run->config.find(key);
            if (run->hasConfig)
                entry.diff.emplace_back(
                    toQString(key), it == run->config.end() ? tr("(unset)") : toQString(it->second));
        }
        entries.push_back(std::move(entry));
    }
    // A live reload changes numbers, rarely the list: keep the view (selection, scroll) when it is the same.
    const auto& old = m_runsModel->entries();
    const bool same
        = std::equal(entries.begin(), entries.end(), old.begin(), old.end(), [](const auto& a, const auto& b) {
              return a.runId == b.runId && a.name == b.name && a.status == b.status && a.color == b.color
                  && a.visible == b.visible && a.diff == b.diff;
          });
    if (!same)
        m_runsModel->setEntries(std::move(entries));
    m_runsModel->setBaseline(m_baseline);
}

void ComparePage::refreshMetricCombo()
{
    const auto runs = comparedRuns(false);
    const std::vector<std::string> all = compare::metricNames(runs);
    QStringList names;
    for (const std::string& name : all)
        names << toQString(name);
    if (!m_metricChosen && !names.isEmpty()) {
        // Not chosen yet: a metric that is not all zeros (eval/success while any run has succeeded).
        const QString best = toQString(compare::defaultMetric(runs, all));
        if (best != m_metric) {
            m_metric = best;
            m_gridMetrics.removeAll(best);
            m_grid->resetZoom();
        }
    }
    m_controls->setMetrics(names, m_metric, m_gridMetrics);
}

void ComparePage::refreshIterationRange()
{
    std::int64_t low = 0;
    std::int64_t high = 0;
    bool any = false;
    for (const compare::RunSeries* run : comparedRuns(false)) {
        const auto iterations = run->iterations();
        if (iterations.empty())
            continue;
        low = any ? std::min(low, iterations.front()) : iterations.front();
        high = any ? std::max(high, iterations.back()) : iterations.back();
        any = true;
    }
    const QSignalBlocker spinBlocker(m_iterationSpin);
    const QSignalBlocker sliderBlocker(m_iterationSlider);
    m_iterationSpin->setRange(int(low), int(high));
    m_iterationSlider->setRange(int(low), int(high));
    if (m_followLatest)
        m_iterationSpin->setValue(int(high));
    m_iterationSlider->setValue(m_iterationSpin->value());
}

QColor ComparePage::colorOf(qint64 runId)
{
    // Each run keeps its colour while compared, whatever is added or removed around it.
    auto it = m_colors.find(runId);
    if (it == m_colors.end())
        it = m_colors.emplace(runId, comparePaletteColor(m_nextColor++)).first;
    return it->second;
}

void ComparePage::rebuildChart()
{
    QStringList metrics { m_metric };
    metrics += m_gridMetrics;
    if (m_grid->metrics() != metrics)
        m_grid->setMetrics(metrics);
    const CompareChartOptions options { m_metric.toStdString(),
        m_wallTime ? compare::Alignment::WallTime : compare::Alignment::Iteration, m_groupSeeds, m_baseline };
    m_grid->fill(comparedRuns(true), options, [this](qint64 runId) { return colorOf(runId); });
}

void ComparePage::rebuildTable()
{
    // The baseline stays in the table when unchecked, so that the deltas keep their reference.
    std::vector<const compare::RunSeries*> runs;
    for (const compare::RunSeries* run : comparedRuns(false)) {
        if (!m_hidden.contains(run->runId) || run->runId == m_baseline)
            runs.push_back(run);
    }
    const std::vector<std::string> metrics = compare::metricNames(runs);
    if (m_groupSeeds) {
        const auto groups = compare::groupBySeed(runs);
        m_tableModel->setTable(compare::tableAt(runs, metrics, tableIteration(), m_baseline, &groups));
    } else {
        m_tableModel->setTable(compare::tableAt(runs, metrics, tableIteration(), m_baseline));
    }
    // Whole numbers and headers rather than "0.4906 ± 0.0…"; cheap at the sizes a comparison table has.
    if (m_tableModel->rowCount() <= 500)
        m_tableView->resizeColumnsToContents();
}

void ComparePage::showRunsMenu(const QPoint& pos)
{
    const QModelIndex index = m_runsView->indexAt(pos);
    const qint64 runId = index.isValid() ? m_runsModel->entries()[std::size_t(index.row())].runId : 0;
    QMenu menu(this);
    if (runId != 0) {
        if (runId == m_baseline)
            menu.addAction(tr("Unpin baseline"), this, [this] { setBaseline(0); });
        else
            menu.addAction(tr("Pin as baseline"), this, [this, runId] { setBaseline(runId); });
        menu.addAction(tr("Remove from comparison"), this, [this, runId] { removeRuns({ runId }); });
        menu.addSeparator();
    }
    menu.addAction(tr("Add runs…"), this, &ComparePage::addRunsInteractive);
    menu.exec(m_runsView->viewport()->mapToGlobal(pos));
}

void ComparePage::addRunsInteractive()
{
    CompareAddRunsDialog dialog(m_workspace, m_runIds, this);
    if (dialog.exec() == QDialog::Accepted)
        addRuns(dialog.selectedRunIds());
}

void ComparePage::exportChartInteractive()
{
    QString filter;
    QString path = filedialogs::getSaveFileName(this, tr("Export chart"),
        m_metric.section(QLatin1Char('/'), -1) + QStringLiteral(".png"), tr("PNG image (*.png);;SVG image (*.svg)"),
        &filter);
    if (path.isEmpty())
        return;
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != u"png" && suffix != u"svg")
        path += filter.contains(QStringLiteral("svg")) ? QStringLiteral(".svg") : QStringLiteral(".png");
    QString error;
    if (!exportChart(path, &error))
        showError(error);
}

void ComparePage::exportTableInteractive()
{
    QString path = filedialogs::getSaveFileName(
        this, tr("Export table"), QStringLiteral("compare-it%1.csv").arg(tableIteration()), tr("CSV file (*.csv)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".csv");
    QString error;
    if (!exportTableCsv(path, &error))
        showError(error);
}

void ComparePage::showError(const QString& message)
{
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Compare"), message, QMessageBox::Ok, this);
    box->setTextFormat(Qt::PlainText);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace creditlab::ui
