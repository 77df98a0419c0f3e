#include "ui/trees/treepage.h"

#include "core/storage/store.h"
#include "ui/common/runcombo.h"
#include "ui/common/textutil.h"
#include "ui/shell/workspace.h"

#include <QComboBox>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <exception>

namespace creditlab::ui {

namespace {

struct LoadResult {
    TreeGroupDataPtr data;
    QString error;
};

/// An iteration in the choosers' data: its number, or "" for trajectories without one (imported).
QString iterationText(const std::optional<std::int64_t>& iteration)
{
    return iteration ? QString::number(*iteration) : QString();
}

std::optional<std::int64_t> iterationOf(const QString& text)
{
    return text.isEmpty() ? std::nullopt : std::optional<std::int64_t>(text.toLongLong());
}

/// The entry of `combo` whose data is `iteration` (see iterationText), or -1.
int findIteration(const QComboBox* combo, const QString& iteration)
{
    for (int i = 0; i < combo->count(); ++i)
        if (combo->itemData(i).toString() == iteration)
            return i;
    return -1;
}

/// A group's key in the group chooser: its iteration ("" when none) and its group key.
QStringList groupKey(const GroupInfo& g) { return { iterationText(g.iteration), toQString(g.group) }; }

TreeGroupDataPtr loadGroup(Store& store, qint64 runId, const QStringList& key)
{
    auto data = std::make_shared<TreeGroupData>();
    for (const TrajectoryInfo& info :
        store.groupTrajectories(runId, iterationOf(key.value(0)), key.value(1).toStdString())) {
        data->trajectories.push_back(store.loadTrajectory(info.rowId)); // with every method's stored credits
        data->rowIds.push_back(info.rowId);
    }
    data->tree = std::make_shared<const tree::RolloutTree>(tree::RolloutTree::build(data->trajectories));
    return data;
}

/// A combo box that does not widen to its longest entry, so that long run or group names cannot push the
/// page's controls out of a 1280-pixel window.
QComboBox* compactCombo(QWidget* parent, int characters)
{
    auto* combo = new QComboBox(parent);
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(characters);
    QObject::connect(combo, &QComboBox::currentTextChanged, combo, [combo](const QString& text) {
        combo->setToolTip(plainTooltip(text)); // the whole entry where the box elides it; data text, never markup
    });
    return combo;
}

} // namespace

TreePage::TreePage(Workspace* workspace, QWidget* parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_run(compactCombo(this, 16))
    , m_iteration(compactCombo(this, 6))
    , m_group(compactCombo(this, 16))
    , m_colorBy(new QComboBox(this))
    , m_method(compactCombo(this, 8))
    , m_search(new QLineEdit(this))
    , m_rollout(compactCombo(this, 10))
    , m_status(new QLabel(this))
    , m_statistics(new QLabel(this))
    , m_view(new treeview::RolloutTreeView(this))
    , m_details(new QPlainTextEdit(this))
    , m_open(new QPushButton(tr("Open turn"), this))
{
    setObjectName(QStringLiteral("treePage"));
    m_colorBy->addItem(tr("Value V"), int(treeview::ColorBy::Value));
    m_colorBy->addItem(tr("Success rate below"), int(treeview::ColorBy::SuccessRate));
    m_colorBy->addItem(tr("Mean advantage"), int(treeview::ColorBy::MeanAdvantage));
    m_search->setPlaceholderText(tr("Search states and actions"));
    m_search->setClearButtonEnabled(true);
    m_search->setMinimumWidth(120);
    m_details->setReadOnly(true);
    m_details->setPlaceholderText(tr("Click a node or an edge"));
    m_statistics->setTextFormat(Qt::PlainText);
    m_statistics->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_open->setEnabled(false);

    // Two rows, what to show and how to show it, so that every control keeps its width at 1280 pixels.
    auto* what = new QHBoxLayout;
    what->addWidget(new QLabel(tr("Run:"), this));
    what->addWidget(m_run, 3);
    what->addWidget(new QLabel(tr("Iteration:"), this));
    what->addWidget(m_iteration, 1);
    what->addWidget(new QLabel(tr("Group:"), this));
    what->addWidget(m_group, 3);
    auto* how = new QHBoxLayout;
    how->addWidget(new QLabel(tr("Colour:"), this));
    how->addWidget(m_colorBy);
    how->addWidget(m_method, 1);
    how->addWidget(m_search, 2);
    how->addWidget(new QLabel(tr("Follow:"), this));
    how->addWidget(m_rollout, 1);
    auto* side = new QWidget(this);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(m_statistics);
    sideLayout->addWidget(m_details, 1);
    sideLayout->addWidget(m_open);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_view);
    splitter->addWidget(side);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({ 900, 320 });
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(what);
    layout->addLayout(how);
    layout->addWidget(m_status);
    layout->addWidget(splitter, 1);

    connect(m_run, &QComboBox::activated, this, [this] {
        m_follow.forget(); // the user's pick is the latest choice
        m_runId = m_run->currentData().toLongLong();
        reloadIterations();
        load();
    });
    connect(m_iteration, &QComboBox::activated, this, [this] {
        reloadGroups();
        load();
    });
    connect(m_group, &QComboBox::activated, this, &TreePage::load);
    connect(m_colorBy, &QComboBox::currentIndexChanged, this, &TreePage::applyColor);
    connect(m_method, &QComboBox::currentIndexChanged, this, &TreePage::applyColor);
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString& text) {
        const int matches = m_view->setSearchText(text);
        if (!text.trimmed().isEmpty()) {
            m_status->setText(tr("%n match(es)", nullptr, matches));
            if (matches > 0)
                m_view->centerOn(m_view->searchMatches().front());
        }
    });
    connect(m_rollout, &QComboBox::currentIndexChanged, this, [this] {
        m_view->setFollowedRollout(m_rollout->currentData().isValid() ? m_rollout->currentData().toInt() : -1);
    });
    connect(m_view, &treeview::RolloutTreeView::nodeClicked, this, &TreePage::showNode);
    connect(m_view, &treeview::RolloutTreeView::edgeClicked, this, &TreePage::showEdge);
    connect(m_open, &QPushButton::clicked, this, [this] {
        if (m_data && m_hasSelection && m_selectedTurn.trajectory < m_data->rowIds.size())
            Q_EMIT turnActivated(m_data->rowIds[m_selectedTurn.trajectory], int(m_selectedTurn.turn));
    });
    // A database change: nothing of the old one stays on screen, then the new one's selected run loads (now when
    // the page is visible, else when it appears).
    connect(m_workspace, &Workspace::aboutToReplace, this, [this] {
        m_runId = 0;
        m_follow.forget(); // a run id of the old database
        m_groups.clear();
        m_iteration->clear();
        m_group->clear();
        clearShown();
        m_status->clear();
    });
    connect(m_workspace, &Workspace::opened, this, [this] {
        m_runId = 0;
        reloadRuns();
    });
    connect(m_workspace, &Workspace::runsChanged, this, &TreePage::reloadRuns);
    reloadRuns();
}

TreePage::~TreePage() = default;

void TreePage::reloadRuns()
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
    if (kept) {
        // The run shown may have grown (a training run's new iterations, a posted run's): its iteration list was
        // only read when the run was picked. It follows now, or when the page appears; the group on screen stays.
        if (isVisible())
            refreshGroups();
        else
            m_groupsStale = m_runId != 0;
        return;
    }
    // The combo's run loads now, or when the page appears.
    if (m_run->count() == 0) {
        m_groups.clear();
        m_iteration->clear();
        m_group->clear();
        clearShown();
        m_status->setText(
            m_workspace->isOpen() ? tr("This database has no runs: import trajectories or start a run.") : QString());
        return;
    }
    if (const qint64 run = runToLoad(m_run, m_runId); run != 0 && isVisible())
        showRun(run);
}

void TreePage::followRun(qint64 runId)
{
    // The chooser names it at once; a hidden page loads it when it appears.
    if (runId != 0 && m_follow.follow(m_run, runId, m_runId) && isVisible())
        showFollowedRun();
}

bool TreePage::showFollowedRun()
{
    const qint64 run = m_follow.listed(m_run);
    if (run == 0)
        return false;
    showRun(run);
    return true;
}

void TreePage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (showFollowedRun())
        return;
    if (const qint64 run = runToLoad(m_run, m_runId); run != 0)
        showRun(run);
    else if (m_groupsStale)
        refreshGroups();
}

void TreePage::refreshGroups()
{
    const QStringList shown = m_group->currentData().toStringList();
    reloadIterations(); // keeps the iteration and the group chosen where the run still has them
    // The run's first group has come (there was none to show), or the one shown is gone.
    if (m_group->currentData().toStringList() != shown)
        load();
}

void TreePage::reloadIterations()
{
    m_groupsStale = false;
    const bool hadIteration = m_iteration->currentIndex() >= 0;
    const QString keep = m_iteration->currentData().toString();
    m_groups.clear();
    m_iteration->clear();
    Store* store = m_workspace->store();
    if (store && m_runId != 0) {
        try {
            m_groups = store->groups(m_runId);
        } catch (const std::exception& e) {
            Q_EMIT errorOccurred(toQString(e.what()));
        }
    }
    // Imported trajectories (no iteration) first, then the iterations in ascending order.
    std::vector<std::optional<std::int64_t>> iterations;
    for (const GroupInfo& g : m_groups)
        iterations.push_back(g.iteration);
    std::sort(iterations.begin(), iterations.end());
    iterations.erase(std::unique(iterations.begin(), iterations.end()), iterations.end());
    for (const auto& iteration : iterations)
        m_iteration->addItem(
            iteration ? QLocale().toString(qlonglong(*iteration)) : tr("none (imported)"), iterationText(iteration));
    const int index = hadIteration ? findIteration(m_iteration, keep) : -1;
    m_iteration->setCurrentIndex(index >= 0 ? index : std::min(0, m_iteration->count() - 1));
    reloadGroups();
}

void TreePage::reloadGroups()
{
    const QString keep = m_group->currentData().toStringList().value(1);
    m_group->clear();
    if (m_iteration->currentIndex() < 0)
        return;
    const QString iteration = m_iteration->currentData().toString();
    for (const GroupInfo& g : m_groups) {
        if (iterationText(g.iteration) != iteration)
            continue;
        const QString name = toQString(g.group);
        const QString task = g.task ? toQString(*g.task) : QString();
        // The group key names the group; its task too when that says something else.
        const QString label = task.isEmpty() || task == name
            ? tr("%1 (%n rollout(s))", nullptr, int(g.rollouts)).arg(name)
            : tr("%1, task %2 (%n rollout(s))", nullptr, int(g.rollouts)).arg(name, task);
        m_group->addItem(label, groupKey(g));
    }
    for (int i = 0; i < m_group->count(); ++i)
        if (m_group->itemData(i).toStringList().value(1) == keep) {
            m_group->setCurrentIndex(i);
            break;
        }
}

void TreePage::showRun(qint64 runId, const QString& groupKeyText)
{
    m_follow.forget();
    m_runId = runId;
    const int index = m_run->findData(QVariant::fromValue<qint64>(runId));
    if (index >= 0)
        m_run->setCurrentIndex(index);
    reloadIterations();
    if (!groupKeyText.isEmpty()) {
        // The first group of that key, in whichever iteration it is.
        for (const GroupInfo& g : m_groups)
            if (toQString(g.group) == groupKeyText) {
                m_iteration->setCurrentIndex(findIteration(m_iteration, iterationText(g.iteration)));
                reloadGroups();
                m_group->setCurrentIndex(m_group->findData(groupKey(g)));
                break;
            }
    }
    load();
}

void TreePage::load()
{
    const quint64 generation = ++m_generation;
    if (!m_workspace->isOpen() || m_runId == 0 || m_group->currentIndex() < 0) {
        clearShown();
        // Say why there is no tree rather than leave an empty page.
        if (m_workspace->isOpen() && m_runId != 0 && m_groups.empty())
            m_status->setText(tr("Run %1 has no trajectories yet, so it has no groups to draw as trees. Import "
                                 "trajectories into it or train it first.")
                                  .arg(m_runId));
        return;
    }
    const std::string path = m_workspace->path().toStdString();
    const qint64 runId = m_runId;
    const QStringList key = m_group->currentData().toStringList();
    m_status->setText(tr("Loading group %1…").arg(key.value(1)));
    auto* watcher = new QFutureWatcher<LoadResult>(this);
    connect(watcher, &QFutureWatcher<LoadResult>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        const LoadResult result = watcher->result();
        if (generation != m_generation)
            return; // superseded
        if (!result.error.isEmpty()) {
            clearShown();
            m_status->setText(result.error);
            Q_EMIT errorOccurred(result.error);
            Q_EMIT loaded();
            return;
        }
        onLoaded(result.data);
    });
    watcher->setFuture(QtConcurrent::run([path, runId, key] {
        LoadResult out;
        try {
            Store store(path, Store::Access::ReadOnly); // one connection per thread
            out.data = loadGroup(store, runId, key);
        } catch (const std::exception& e) {
            out.error = toQString(e.what());
        }
        return out;
    }));
}

void TreePage::clearShown()
{
    ++m_generation; // a load in flight is for what was shown
    m_data.reset();
    m_hasSelection = false;
    m_open->setEnabled(false);
    m_open->setText(tr("Open turn"));
    m_details->clear();
    m_statistics->clear();
    {
        const QSignalBlocker blockMethod(m_method);
        const QSignalBlocker blockRollout(m_rollout);
        const QSignalBlocker blockSearch(m_search);
        m_method->clear();
        m_rollout->clear();
        m_search->clear();
    }
    m_view->setTree(nullptr);
    applyColor();
}

QString TreePage::statusText() const { return m_status->text(); }

void TreePage::onLoaded(const TreeGroupDataPtr& data)
{
    const QString method = m_method->currentText();
    clearShown();
    m_data = data;
    m_view->setTree(data ? data->tree : nullptr);
    {
        const QSignalBlocker blockMethod(m_method);
        const QSignalBlocker blockRollout(m_rollout);
        m_rollout->addItem(tr("none"));
        if (data) {
            for (const auto& name : data->tree->creditMethods())
                m_method->addItem(toQString(name));
            for (std::size_t i = 0; i < data->trajectories.size(); ++i) {
                const Trajectory& t = data->trajectories[i];
                m_rollout->addItem(tr("%1 (reward %2)").arg(toQString(t.id)).arg(t.reward), int(i));
            }
        }
        const int keep = m_method->findText(method);
        m_method->setCurrentIndex(keep >= 0 ? keep : 0);
    }
    applyColor();
    m_statistics->setText(statisticsText());
    // The counts are in the statistics only, so that the page states them once (issue 20).
    m_status->setText(data ? tr("Group %1: %n rollout(s)", nullptr, int(data->trajectories.size()))
                                 .arg(m_group->currentData().toStringList().value(1))
                           : QString());
    Q_EMIT loaded();
}

void TreePage::applyColor()
{
    const auto quantity = static_cast<treeview::ColorBy>(m_colorBy->currentData().toInt());
    m_method->setEnabled(quantity == treeview::ColorBy::MeanAdvantage);
    m_view->setColorBy(quantity, m_method->currentText());
}

} // namespace creditlab::ui
