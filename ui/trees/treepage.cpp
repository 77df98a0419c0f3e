#include "ui/trees/treepage.h"

#include "core/store.h"
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

#include <cmath>
#include <exception>
#include <map>

namespace creditlab::ui {

namespace {

struct LoadResult {
    TreeGroupDataPtr data;
    QString error;
};

/// A group's key in the chooser: its iteration ("" when none) and its group key.
QStringList groupKey(const TrajectoryInfo& t)
{
    return { t.iteration ? QString::number(*t.iteration) : QString(), toQString(t.group) };
}

TreeGroupDataPtr loadGroup(Store& store, qint64 runId, const QStringList& key)
{
    auto data = std::make_shared<TreeGroupData>();
    const std::optional<std::int64_t> iteration
        = key.value(0).isEmpty() ? std::nullopt : std::optional<std::int64_t>(key.value(0).toLongLong());
    for (const TrajectoryInfo& info : store.trajectories(runId, iteration, Store::Which::All)) {
        if (groupKey(info) != key)
            continue;
        data->trajectories.push_back(store.loadTrajectory(info.rowId)); // with every method's stored credits
        data->rowIds.push_back(info.rowId);
    }
    data->tree = std::make_shared<const tree::RolloutTree>(tree::RolloutTree::build(data->trajectories));
    return data;
}

} // namespace

TreePage::TreePage(Workspace* workspace, QWidget* parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_run(new QComboBox(this))
    , m_group(new QComboBox(this))
    , m_colorBy(new QComboBox(this))
    , m_method(new QComboBox(this))
    , m_search(new QLineEdit(this))
    , m_rollout(new QComboBox(this))
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
    m_details->setReadOnly(true);
    m_details->setPlaceholderText(tr("Click a node or an edge"));
    m_statistics->setTextFormat(Qt::PlainText);
    m_statistics->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_open->setEnabled(false);

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Run:"), this));
    controls->addWidget(m_run, 2);
    controls->addWidget(new QLabel(tr("Group:"), this));
    controls->addWidget(m_group, 2);
    controls->addWidget(new QLabel(tr("Colour:"), this));
    controls->addWidget(m_colorBy);
    controls->addWidget(m_method);
    controls->addWidget(m_search, 2);
    controls->addWidget(new QLabel(tr("Follow:"), this));
    controls->addWidget(m_rollout, 1);
    auto* side = new QWidget(this);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(m_statistics);
    sideLayout->addWidget(m_details, 1);
    sideLayout->addWidget(m_open);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_view);
    splitter->addWidget(side);
    splitter->setSizes({ 900, 320 });
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_status);
    layout->addWidget(splitter, 1);

    connect(m_run, &QComboBox::activated, this, [this] {
        m_runId = m_run->currentData().toLongLong();
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
    connect(m_workspace, &Workspace::opened, this, [this] {
        m_runId = 0;
        reloadRuns();
    });
    connect(m_workspace, &Workspace::aboutToReplace, this, [this] {
        ++m_generation;
        m_data.reset();
        m_view->setTree(nullptr);
    });
    connect(m_workspace, &Workspace::runsChanged, this, &TreePage::reloadRuns);
    reloadRuns();
}

TreePage::~TreePage() = default;

void TreePage::reloadRuns()
{
    try {
        if (fillRunCombo(m_run, m_workspace->runs(), m_runId))
            return;
    } catch (const std::exception& e) {
        Q_EMIT errorOccurred(toQString(e.what()));
        return;
    }
    m_runId = 0; // the run shown is gone (or none was): the combo's run loads now, or when the page appears
    if (const qint64 run = runToLoad(m_run, m_runId); run != 0 && isVisible())
        showRun(run);
}

void TreePage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (const qint64 run = runToLoad(m_run, m_runId); run != 0)
        showRun(run);
}

void TreePage::reloadGroups()
{
    m_group->clear();
    Store* store = m_workspace->store();
    if (!store || m_runId == 0)
        return;
    try {
        std::map<QStringList, int> sizes; // ordered, deduplicated
        std::vector<QStringList> order;
        for (const TrajectoryInfo& t : store->trajectories(m_runId, {}, Store::Which::All))
            if (sizes[groupKey(t)]++ == 0)
                order.push_back(groupKey(t));
        for (const QStringList& key : order) {
            const QString label = key[0].isEmpty()
                ? tr("%1 (%n rollout(s))", nullptr, sizes[key]).arg(key[1])
                : tr("it %1 / %2 (%n rollout(s))", nullptr, sizes[key]).arg(key[0], key[1]);
            m_group->addItem(label, key);
        }
    } catch (const std::exception& e) {
        Q_EMIT errorOccurred(toQString(e.what()));
    }
}

void TreePage::showRun(qint64 runId, const QString& groupKeyText)
{
    m_runId = runId;
    const int index = m_run->findData(QVariant::fromValue<qint64>(runId));
    if (index >= 0)
        m_run->setCurrentIndex(index);
    reloadGroups();
    if (!groupKeyText.isEmpty())
        for (int i = 0; i < m_group->count(); ++i)
            if (m_group->itemData(i).toStringList().value(1) == groupKeyText) {
                m_group->setCurrentIndex(i);
                break;
            }
    load();
}

void TreePage::load()
{
    const quint64 generation = ++m_generation;
    if (!m_workspace->isOpen() || m_runId == 0 || m_group->currentIndex() < 0)
        return;
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

void TreePage::onLoaded(const TreeGroupDataPtr& data)
{
    m_data = data;
    m_hasSelection = false;
    m_open->setEnabled(false);
    m_details->clear();
    m_view->setTree(data ? data->tree : nullptr);
    const QString method = m_method->currentText();
    {
        const QSignalBlocker blockMethod(m_method);
        const QSignalBlocker blockRollout(m_rollout);
        m_method->clear();
        m_rollout->clear();
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
    m_search->clear();
    m_statistics->setText(statisticsText());
    m_status->setText(data ? tr("%n rollout(s), %1 nodes, %2 edges", nullptr, int(data->trajectories.size()))
                                 .arg(QLocale().toString(qlonglong(data->tree->nodes().size())))
                                 .arg(QLocale().toString(qlonglong(data->tree->edges().size())))
                           : QString());
    Q_EMIT loaded();
}

void TreePage::applyColor()
{
    const auto quantity = static_cast<treeview::ColorBy>(m_colorBy->currentData().toInt());
    m_method->setEnabled(quantity == treeview::ColorBy::MeanAdvantage);
    m_view->setColorBy(quantity, m_method->currentText());
}

QString TreePage::statisticsText() const
{
    if (!m_data)
        return {};
    const tree::TreeStatistics s = m_data->tree->statistics();
    const QLocale locale;
    QString text = tr("%1 states (%2 anchors, %3 singletons), %4 terminals, %5 edges, %6 turns\n"
                      "branching factor %7; states shared by more than one rollout: %8%")
                       .arg(s.stateNodes)
                       .arg(s.anchors)
                       .arg(s.singletons)
                       .arg(s.terminalNodes)
                       .arg(s.edges)
                       .arg(s.turns)
                       .arg(locale.toString(s.branchingFactor, 'f', 2))
                       .arg(locale.toString(100.0 * s.sharedStateShare, 'f', 1));
    for (const auto& [method, share] : s.nonZeroAdvantageShare)
        text += QLatin1Char('\n')
            + tr("%1: non-zero advantage on %2% of turns")
                  .arg(toQString(method), locale.toString(100.0 * share, 'f', 1));
    return text;
}

QString TreePage::detailsText() const { return m_details->toPlainText(); }

QString TreePage::creditLines(const std::vector<tree::TurnRef>& turns) const
{
    QString text;
    const QLocale locale;
    for (const auto& method : m_data->tree->creditMethods()) {
        double sum = 0;
        int count = 0;
        for (const tree::TurnRef& t : turns)
            if (const auto a = m_data->tree->advantage(method, t); a && std::isfinite(*a)) {
                sum += *a;
                ++count;
            }
        if (count > 0)
            text += tr("credit %1: mean %2 over %n turn(s)", nullptr, count)
                        .arg(toQString(method), locale.toString(sum / count, 'g', 4))
                + QLatin1Char('\n');
    }
    return text;
}

void TreePage::showNode(tree::NodeId node)
{
    if (!m_data)
        return;
    const tree::Node& n = m_data->tree->node(node);
    const QLocale locale;
    QString text;
    if (n.kind == tree::NodeKind::Terminal) {
        text = tr("Terminal: %n rollout(s) ended here, mean outcome %1\n", nullptr, int(n.rollouts.size()))
                   .arg(locale.toString(n.v, 'g', 4));
    } else {
        text = tr("State %1\n\nObservation:\n%2\n\nvisits %3, V %4, V' %5, success rate %6%, rollouts %7%8\n")
                   .arg(toQString(n.key), toQString(n.observation), locale.toString(n.visits, 'g', 4),
                       locale.toString(n.v, 'g', 4), locale.toString(n.vPrime, 'g', 4),
                       locale.toString(100.0 * n.successRate, 'f', 0), QString::number(n.rollouts.size()),
                       n.anchor ? tr(", anchor") : QString());
        text += creditLines(n.turns);
    }
    m_details->setPlainText(text);
    m_hasSelection = !n.turns.empty();
    if (m_hasSelection)
        m_selectedTurn = n.turns.front();
    m_open->setEnabled(m_hasSelection);
}

void TreePage::showEdge(tree::EdgeId edge)
{
    if (!m_data)
        return;
    const tree::Edge& e = m_data->tree->edge(edge);
    const QLocale locale;
    QString text = tr("Action:\n%1\n\nQ %2, N(s,a) %3, taken %n time(s)%4\n", nullptr, int(e.turns.size()))
                       .arg(toQString(e.action), locale.toString(e.q, 'g', 4), locale.toString(e.pairVisits, 'g', 4),
                           e.spanning ? QString() : tr(", re-convergence"));
    if (!e.turns.empty()) {
        const tree::TurnRef first = e.turns.front();
        const Turn& turn = m_data->trajectories.at(first.trajectory).turns.at(first.turn);
        text += tr("\nObservation:\n%1\n").arg(toQString(turn.observation));
        if (turn.feedback)
            text += tr("\nFeedback:\n%1\n").arg(toQString(*turn.feedback));
        text += QLatin1Char('\n') + creditLines(e.turns);
        m_selectedTurn = first;
    }
    m_details->setPlainText(text);
    m_hasSelection = !e.turns.empty();
    m_open->setEnabled(m_hasSelection);
}

} // namespace creditlab::ui
