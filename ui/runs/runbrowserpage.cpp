#include "ui/runs/runbrowserpage.h"

#include "ui/common/csvexport.h"
#include "ui/common/itemroles.h"
#include "ui/runs/runmodel.h"
#include "ui/common/sortfilterproxymodel.h"
#include "ui/common/tableviewsetup.h"
#include "ui/common/textutil.h"
#include "ui/runs/trajectorymodel.h"
#include "ui/shell/workspace.h"

#include <QFrame>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QAction>
#include <QHBoxLayout>
#include <QVBoxLayout>

#include <exception>

namespace creditlab::ui {

namespace {
QWidget* titledPane(
    const QString& objectName, QLabel* title, QLayout* extra, QTableView* view, QWidget* parent)
{
    auto* pane = new QWidget(parent);
    pane->setObjectName(objectName);
    auto* layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    QFont font = title->font();
    font.setBold(true);
    title->setFont(font);
    title->setTextFormat(Qt::PlainText);
    layout->addWidget(title);
    if (extra)
        layout->addLayout(extra);
    layout->addWidget(view, 1);
    return pane;
}
} // namespace

RunBrowserPage::RunBrowserPage(Workspace* workspace, QWidget* parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_runModel(new RunModel(this))
    , m_trajectoryModel(new TrajectoryModel(this))
    , m_runProxy(new SortFilterProxyModel(this))
    , m_trajectoryProxy(new SortFilterProxyModel(this))
    , m_splitter(new QSplitter(Qt::Vertical, this))
    , m_runView(new QTableView(this))
    , m_trajectoryView(new QTableView(this))
    , m_runTitle(new QLabel(tr("Runs"), this))
    , m_trajectoryTitle(new QLabel(tr("Trajectories"), this))
    , m_filter(new QLineEdit(this))
    , m_runFilter(new QLineEdit(this))
    , m_runTools(new QHBoxLayout)
    , m_queueLabel(new QLabel(this))
    , m_welcome(new QFrame(this))
{
    m_runProxy->setSourceModel(m_runModel);
    m_trajectoryProxy->setSourceModel(m_trajectoryModel);

    setUpTableView(m_runView);
    m_runView->setObjectName(QStringLiteral("runView"));
    m_runView->setModel(m_runProxy);
    m_runView->sortByColumn(static_cast<int>(RunModel::Column::Id), Qt::DescendingOrder);
    // Short columns fit their contents (and translated headers); text columns start at a useful
    // width and stay resizable.
    const auto fitColumns = [](QTableView* view, std::initializer_list<int> columns) {
        for (const int column : columns)
            view->horizontalHeader()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    };
    using RunColumn = RunModel::Column;
    fitColumns(m_runView,
        { int(RunColumn::Id), int(RunColumn::Kind), int(RunColumn::Status), int(RunColumn::Trajectories),
            int(RunColumn::Turns), int(RunColumn::Created) });
    m_runView->setColumnWidth(int(RunColumn::Name), 170);
    m_runView->setColumnWidth(int(RunColumn::Config), 190);
    m_runView->setColumnWidth(int(RunColumn::Model), 160);

    setUpTableView(m_trajectoryView);
    m_trajectoryView->setObjectName(QStringLiteral("trajectoryView"));
    m_trajectoryView->setModel(m_trajectoryProxy);
    m_trajectoryView->sortByColumn(-1, Qt::AscendingOrder); // store order until the user sorts
    using TrajectoryColumn = TrajectoryModel::Column;
    fitColumns(m_trajectoryView,
        { int(TrajectoryColumn::Iteration), int(TrajectoryColumn::Reward), int(TrajectoryColumn::Success),
            int(TrajectoryColumn::Turns) });
    m_trajectoryView->setColumnWidth(int(TrajectoryColumn::Id), 104);
    m_trajectoryView->setColumnWidth(int(TrajectoryColumn::Group), 72);
    // The task column gives and takes the space, so the list fits its pane in any language.
    m_trajectoryView->horizontalHeader()->setStretchLastSection(false);
    m_trajectoryView->horizontalHeader()->setSectionResizeMode(int(TrajectoryColumn::Task), QHeaderView::Stretch);

    addCsvExportAction(m_trajectoryView, this);
    m_filter->setObjectName(QStringLiteral("trajectoryFilter"));
    m_filter->setPlaceholderText(tr("Filter trajectories by id, group or task…"));
    m_filter->setClearButtonEnabled(true);

    m_splitter->setChildrenCollapsible(false);
    m_runFilter->setObjectName(QStringLiteral("runFilter"));
    m_runFilter->setPlaceholderText(tr("Filter runs by name, config, status or tag…"));
    m_runFilter->setClearButtonEnabled(true);
    m_runProxy->setFilterKeyColumn(-1);
    m_runView->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_runView->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_runTools->setContentsMargins(0, 0, 0, 0);
    m_runTools->addStretch(1);
    auto* trajectoryTools = new QHBoxLayout;
    trajectoryTools->setContentsMargins(0, 0, 0, 0);
    trajectoryTools->addWidget(m_filter);
    auto* runTools = new QVBoxLayout;
    runTools->setContentsMargins(0, 0, 0, 0);
    runTools->addWidget(m_runFilter);
    runTools->addLayout(m_runTools);
    m_queueLabel->setObjectName(QStringLiteral("queueLabel"));
    m_queueLabel->setTextFormat(Qt::RichText);
    m_queueLabel->setWordWrap(true);
    m_queueLabel->hide();
    connect(m_queueLabel, &QLabel::linkActivated, this, &RunBrowserPage::clearQueueRequested);
    runTools->addWidget(m_queueLabel);
    // The way in on an empty database: one line of text and two buttons.
    m_welcome->setObjectName(QStringLiteral("welcome"));
    static_cast<QFrame*>(m_welcome)->setFrameShape(QFrame::StyledPanel);
    auto* welcomeText = new QLabel(tr("Try a quick TRIAGE run (about 5 minutes on 2 cores), or open 24 bundled household "
                                      "rollouts with a judge's roles to look around Credit, Trees, Annotate and "
                                      "Agreement now."),
        m_welcome);
    welcomeText->setWordWrap(true);
    auto* demo = new QPushButton(tr("Start a &quick demo run"), m_welcome);
    demo->setObjectName(QStringLiteral("quickDemo"));
    demo->setToolTip(tr("Launch the household-quick preset (TRIAGE) and follow it on Monitor"));
    auto* sample = new QPushButton(tr("Open the &sample rollouts"), m_welcome);
    sample->setObjectName(QStringLiteral("sampleImport"));
    sample->setToolTip(tr("Import 24 household rollouts (3 tasks × 8) with a noisy judge's roles, and compute "
                          "their credits"));
    connect(demo, &QPushButton::clicked, this, &RunBrowserPage::quickDemoRequested);
    connect(sample, &QPushButton::clicked, this, &RunBrowserPage::sampleImportRequested);
    auto* welcomeLayout = new QVBoxLayout(m_welcome);
    welcomeLayout->addWidget(welcomeText);
    auto* welcomeButtons = new QHBoxLayout;
    welcomeButtons->addWidget(demo);
    welcomeButtons->addWidget(sample);
    welcomeButtons->addStretch(1);
    welcomeLayout->addLayout(welcomeButtons);
    m_welcome->hide();
    runTools->addWidget(m_welcome);
    m_splitter->addWidget(titledPane(QStringLiteral("runPane"), m_runTitle, runTools, m_runView, m_splitter));
    m_splitter->addWidget(titledPane(
        QStringLiteral("trajectoryPane"), m_trajectoryTitle, trajectoryTools, m_trajectoryView, m_splitter));
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_splitter);

    connect(m_filter, &QLineEdit::textChanged, m_trajectoryProxy, &SortFilterProxyModel::setFilterText);
    connect(m_runFilter, &QLineEdit::textChanged, m_runProxy, &SortFilterProxyModel::setFilterText);
    connect(m_runView, &QTableView::activated, this, [this] {
        if (!m_runActions.isEmpty() && m_runActions.first()->isEnabled())
            m_runActions.first()->trigger();
    });
    connect(m_trajectoryProxy, &QAbstractItemModel::rowsInserted, this, &RunBrowserPage::updateTrajectoryTitle);
    connect(m_trajectoryProxy, &QAbstractItemModel::rowsRemoved, this, &RunBrowserPage::updateTrajectoryTitle);
    connect(m_trajectoryProxy, &QAbstractItemModel::modelReset, this, &RunBrowserPage::updateTrajectoryTitle);
    connect(m_trajectoryProxy, &QAbstractItemModel::layoutChanged, this, &RunBrowserPage::updateTrajectoryTitle);
    connect(m_runView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &RunBrowserPage::onCurrentRunChanged);
    connect(m_trajectoryView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        if (!m_resetting)
            Q_EMIT trajectorySelected(currentTrajectoryRowId());
    });
    connect(m_workspace, &Workspace::aboutToReplace, this, [this] {
        m_welcome->hide();
        m_runModel->setRuns({});
        m_trajectoryModel->setTrajectories({});
        m_loadedRunId = 0;
    });
    connect(m_workspace, &Workspace::opened, this, [this] {
        reload();
        // Start on the newest run rather than on an empty trajectory list.
        if (m_runProxy->rowCount() > 0)
            m_runView->setCurrentIndex(m_runProxy->index(0, 0));
    });
    connect(m_workspace, &Workspace::runsChanged, this, &RunBrowserPage::reload);
}

qint64 RunBrowserPage::currentRunId() const
{
    const QModelIndex current = m_runView->currentIndex();
    return current.isValid() ? current.data(IdRole).toLongLong() : 0;
}

QList<qint64> RunBrowserPage::selectedRunIds() const
{
    QList<qint64> out;
    const QModelIndexList rows = m_runView->selectionModel()->selectedRows();
    for (const QModelIndex& index : rows)
        out.append(index.data(IdRole).toLongLong());
    if (out.isEmpty() && currentRunId() != 0)
        out.append(currentRunId());
    return out;
}

void RunBrowserPage::setRunActions(const QList<QAction*>& actions)
{
    m_runActions = actions;
    auto* separator = new QAction(this);
    separator->setSeparator(true);
    for (QAction* action : actions) {
        m_runView->addAction(action);
        auto* button = new QToolButton(this);
        button->setDefaultAction(action);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        m_runTools->insertWidget(m_runTools->count() - 1, button);
    }
    m_runView->addAction(separator);
    addCsvExportAction(m_runView, this);
}

qint64 RunBrowserPage::currentTrajectoryRowId() const
{
    const QModelIndex current = m_trajectoryView->currentIndex();
    return current.isValid() ? current.data(IdRole).toLongLong() : 0;
}

bool RunBrowserPage::selectRun(qint64 runId)
{
    const int row = m_runModel->rowOfRun(runId);
    if (row < 0)
        return false;
    const QModelIndex index = m_runProxy->mapFromSource(m_runModel->index(row, 0));
    if (!index.isValid())
        return false;
    m_runView->setCurrentIndex(index);
    m_runView->scrollTo(index);
    return true;
}

bool RunBrowserPage::selectTrajectory(qint64 rowId)
{
    const int row = m_trajectoryModel->rowOfTrajectory(rowId);
    if (row < 0)
        return false;
    const QModelIndex index = m_trajectoryProxy->mapFromSource(m_trajectoryModel->index(row, 0));
    if (!index.isValid())
        return false;
    m_trajectoryView->setCurrentIndex(index);
    m_trajectoryView->scrollTo(index);
    return true;
}

void RunBrowserPage::setQueuedRuns(const QStringList& names, qint64 waitingFor)
{
    m_queueLabel->setVisible(!names.isEmpty());
    if (names.isEmpty())
        return m_queueLabel->clear();
    QStringList escaped;
    for (const QString& name : names)
        escaped.append(name.toHtmlEscaped());
    m_queueLabel->setText(tr("Queued, starting when run %1 ends: %2 · <a href=\"clear\">Clear queue</a>")
                              .arg(waitingFor)
                              .arg(escaped.join(QStringLiteral("; "))));
}

QByteArray RunBrowserPage::saveSplitterState() const { return m_splitter->saveState(); }

void RunBrowserPage::restoreSplitterState(const QByteArray& state) { m_splitter->restoreState(state); }

void RunBrowserPage::reload()
{
    const qint64 selected = currentRunId();
    const qint64 selectedTrajectory = currentTrajectoryRowId();
    std::vector<RunInfo> runs;
    QHash<qint64, QString> pretrained;
    QHash<qint64, QString> posted;
    try {
        runs = m_workspace->runs();
        pretrained = m_workspace->pretrainedModels();
        posted = m_workspace->postedConfigs();
    } catch (const std::exception& error) {
        Q_EMIT errorOccurred(toQString(error.what()));
    }
    {
        // The reset reports "no current run" in between; report the outcome once instead.
        const QScopedValueRollback guard(m_resetting, true);
        m_runModel->setRuns(std::move(runs), std::move(pretrained), std::move(posted));
        m_runTitle->setText(m_runModel->rowCount() == 0
                ? tr("No runs yet: start one in Launch (Ctrl+2), or import trajectories with File → Import JSONL… "
                     "(Ctrl+I).")
                : tr("Runs (%1)").arg(QLocale().toString(m_runModel->rowCount())));
        if (selected != 0)
            selectRun(selected);
    }
    m_welcome->setVisible(m_workspace->isOpen() && m_runModel->rowCount() == 0);
    // Reload the trajectories too, keeping the selected one when the run is still there.
    const qint64 runId = currentRunId();
    loadTrajectories(runId, runId == selected ? selectedTrajectory : 0);
    if (runId != selected)
        Q_EMIT runSelected(runId);
}

void RunBrowserPage::onCurrentRunChanged()
{
    const qint64 runId = currentRunId();
    if (m_resetting || runId == m_loadedRunId)
        return;
    loadTrajectories(runId, 0);
    Q_EMIT runSelected(runId);
}

void RunBrowserPage::loadTrajectories(qint64 runId, qint64 keepTrajectory)
{
    m_loadedRunId = runId;
    std::vector<TrajectoryInfo> trajectories;
    if (Store* store = m_workspace->store(); store && runId != 0) {
        try {
            trajectories = store->trajectories(runId, {}, Store::Which::All); // evaluation episodes too
        } catch (const std::exception& error) {
            Q_EMIT errorOccurred(toQString(error.what()));
        }
    }
    const qint64 before = currentTrajectoryRowId();
    {
        const QScopedValueRollback guard(m_resetting, true);
        m_trajectoryModel->setTrajectories(std::move(trajectories));
        if (keepTrajectory != 0)
            selectTrajectory(keepTrajectory);
        else if (m_trajectoryProxy->rowCount() > 0)
            m_trajectoryView->setCurrentIndex(m_trajectoryProxy->index(0, 0)); // show something at once
    }
    if (currentTrajectoryRowId() != before)
        Q_EMIT trajectorySelected(currentTrajectoryRowId());
}

void RunBrowserPage::updateTrajectoryTitle()
{
    const int shown = m_trajectoryProxy->rowCount();
    const int all = m_trajectoryModel->rowCount();
    m_trajectoryTitle->setText(shown == all
            ? tr("Trajectories (%1)").arg(QLocale().toString(all))
            : tr("Trajectories (%1 of %2)").arg(QLocale().toString(shown), QLocale().toString(all)));
}

} // namespace creditlab::ui
