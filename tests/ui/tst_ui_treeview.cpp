// The rollout tree view and the Trees page, offscreen: a hand-made group paints with the right visible node count,
// a click on a node's centre emits its id, collapse hides the subtree, follow highlights the path, search finds
// nodes, a 20,000-node tree paints fast (time printed, not asserted tightly), the page loads a store's group, and the
// colour legend's title, range and bar colours follow the coloured quantity, on screen and in PNG/SVG export.
// Issue 20: imported groups (no iteration) are browsable and a run without groups says why; a database change
// leaves nothing of the old one; the clicked node is highlighted; the legend explains every marker; node and state
// counts agree; edge labels do not overlap; turns are numbered from 1; the page fits 1280x720. Issue 38's cases are in
// tst_ui_treeloops.
#include "core/storage/store.h"
#include "tests/ui/treeviewtestdata.h"
#include "ui/charts/colours.h"
#include "ui/shell/workspace.h"
#include "ui/trees/treepage.h"
#include "ui/treeview/rollouttreeview.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <random>

using namespace creditlab;
using namespace creditlab::ui;
using namespace creditlab::ui::treeview;

using namespace creditlab::ui::testing;

class TestTreeView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void paintsClicksCollapsesFollowsSearches();
    void largeTreePaints();
    void pageLoadsGroup();
    void legendFollowsQuantity();
    void importedGroupsAreBrowsable();
    void databaseChangeClearsThePage();
    void clickedNodeIsHighlighted();
    void legendExplainsEveryMarker();
    void nodeAndStateCountsAgree();
    void edgeLabelsDoNotOverlap();
    void turnsNumberedFromOne();
    void pageFitsAt1280x720();
};

void TestTreeView::paintsClicksCollapsesFollowsSearches()
{
    const auto group = handMade();
    auto tree = std::make_shared<const tree::RolloutTree>(tree::RolloutTree::build(group));
    const std::size_t total = tree->nodes().size();
    QCOMPARE(total, std::size_t(6 + 3)); // 6 states and a terminal after each of a1, a2, b1
    RolloutTreeView view;
    view.resize(800, 500);
    view.setTree(tree);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const QImage image = view.viewport()->grab().toImage();
    QVERIFY(!image.isNull());
    QCOMPARE(view.visibleNodeCount(), total);
    QCOMPARE(view.lastPaintedNodes(), total);
    // Something other than the background was painted.
    int coloured = 0;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            coloured += image.pixel(x, y) != image.pixel(0, 0);
    QVERIFY(coloured > 50);

    // Click on node a's centre.
    const tree::NodeId a = tree->findState("a");
    QVERIFY(a != tree::kNone);
    QSignalSpy clicked(&view, &RolloutTreeView::nodeClicked);
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, view.nodeCenter(a).toPoint());
    QCOMPARE(clicked.count(), 1);
    QCOMPARE(clicked.at(0).at(0).toUInt(), a);
    QCOMPARE(view.nodeAt(QPointF(-100, -100)), tree::kNone);
    // An edge click: the midpoint of root → b.
    const tree::NodeId root = tree->findState("root"), b = tree->findState("b");
    QSignalSpy edgeClicked(&view, &RolloutTreeView::edgeClicked);
    QTest::mouseClick(
        view.viewport(), Qt::LeftButton, {}, ((view.nodeCenter(root) + view.nodeCenter(b)) / 2).toPoint());
    QCOMPARE(edgeClicked.count(), 1);
    QCOMPARE(tree->edge(edgeClicked.at(0).at(0).toUInt()).target, b);

    // Double-click collapses a's subtree (a1, a2 and their two terminals), again expands it.
    QSignalSpy relaid(&view, &RolloutTreeView::layoutChanged);
    QTest::mouseDClick(view.viewport(), Qt::LeftButton, {}, view.nodeCenter(a).toPoint());
    QCOMPARE(relaid.count(), 1);
    QVERIFY(view.isCollapsed(a));
    QCOMPARE(view.visibleNodeCount(), total - 4);
    QVERIFY(!view.layout().visible[tree->findState("a1")]);
    QCOMPARE(view.layout().hiddenBelow[a], 4u);
    view.setCollapsed(a, false);
    QCOMPARE(view.visibleNodeCount(), total);

    // Follow R3: root, b, b1 and its terminal.
    view.setFollowedRollout(2);
    std::vector<tree::NodeId> expected(tree->path(2).begin(), tree->path(2).end());
    std::sort(expected.begin(), expected.end());
    QCOMPARE(view.followedNodes(), expected);
    QCOMPARE(expected.size(), std::size_t(4));
    QVERIFY(std::find(expected.begin(), expected.end(), b) != expected.end());
    view.setFollowedRollout(-1);
    QVERIFY(view.followedNodes().empty());

    // Search: "a1" finds node a1 (and a, whose outgoing action "go a1" matches).
    QCOMPARE(view.setSearchText(QStringLiteral("A1")), 2);
    QCOMPARE(view.searchMatches(),
        (std::vector<tree::NodeId> { std::min(a, tree->findState("a1")), std::max(a, tree->findState("a1")) }));
    QCOMPARE(view.setSearchText(QString()), 0);

    // Zoom keeps working and export writes a PNG.
    view.setZoom(3.0);
    view.viewport()->grab();
    QTemporaryDir dir;
    QString error;
    QVERIFY2(view.exportImage(dir.filePath(QStringLiteral("tree.png")), &error), qPrintable(error));
    QVERIFY(QImage(dir.filePath(QStringLiteral("tree.png"))).width() > 0);
}

void TestTreeView::largeTreePaints()
{
    const auto group = bigGroup(1200, 20);
    QElapsedTimer build;
    build.start();
    auto tree = std::make_shared<const tree::RolloutTree>(tree::RolloutTree::build(group));
    const qint64 buildMs = build.elapsed();
    QVERIFY2(tree->nodes().size() >= 20000, qPrintable(QString::number(tree->nodes().size())));
    RolloutTreeView view;
    view.resize(1200, 800);
    QElapsedTimer setTimer;
    setTimer.start();
    view.setTree(tree);
    const qint64 setMs = setTimer.elapsed();
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QElapsedTimer timer;
    timer.start();
    view.viewport()->grab();
    const double fittedMs = view.lastPaintMilliseconds();
    const std::size_t fittedNodes = view.lastPaintedNodes();
    view.setZoom(2.5);
    view.viewport()->grab();
    const double zoomedMs = view.lastPaintMilliseconds();
    qInfo("tree of %zu nodes, %zu edges: build %lld ms, setTree (layout+index+fit) %lld ms; paint fitted %.1f ms "
          "(%zu nodes drawn), zoomed 2.5x %.1f ms (%zu nodes drawn)",
        tree->nodes().size(), tree->edges().size(), buildMs, setMs, fittedMs, fittedNodes, zoomedMs,
        view.lastPaintedNodes());
    QCOMPARE(view.visibleNodeCount(), tree->nodes().size());
    QVERIFY(view.lastPaintedNodes() < fittedNodes); // culled when zoomed in
    QVERIFY(zoomedMs < 2000); // loose: a sanity bound, not a benchmark
}

void TestTreeView::pageLoadsGroup()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    qint64 runId = 0;
    std::vector<std::int64_t> rows;
    {
        Store store(db.toStdString());
        runId = store.createRun({ "tree", RunKind::Import, RunStatus::Finished, {} });
        auto group = handMade();
        Trajectory other = traj("X", 1.0, { { "zzz", "noop" } });
        other.group = "h";
        group.push_back(other);
        for (std::size_t i = 0; i < group.size(); ++i) {
            rows.push_back(store.insertTrajectory(runId, std::int64_t(i), group[i]));
            std::vector<double> adv(group[i].turns.size(), i == 0 ? 0.5 : 0.0);
            store.writeCredits(rows.back(), "grpo", adv);
        }
    }
    Workspace workspace;
    QVERIFY(workspace.open(db));
    TreePage page(&workspace);
    page.resize(1200, 700);
    page.show();
    QSignalSpy loaded(&page, &TreePage::loaded);
    page.showRun(runId, QStringLiteral("g"));
    QVERIFY(loaded.wait(10000));
    QVERIFY(page.data());
    QCOMPARE(page.data()->trajectories.size(), std::size_t(3));
    QCOMPARE(page.groupChooser()->count(), 2);
    QCOMPARE(page.view()->visibleNodeCount(), page.data()->tree->nodes().size());
    const QString stats = page.statisticsText();
    QVERIFY2(stats.contains(QStringLiteral("6 states")), qPrintable(stats));
    QVERIFY2(stats.contains(QStringLiteral("grpo")), qPrintable(stats));
    // grpo non-zero on R1's 3 turns of 9.
    QVERIFY2(stats.contains(QStringLiteral("33.3")), qPrintable(stats));
    // Click node a: details show its observation and grpo credit; Open turn emits its first turn.
    const tree::NodeId a = page.data()->tree->findState("a");
    QTest::mouseClick(page.view()->viewport(), Qt::LeftButton, {}, page.view()->nodeCenter(a).toPoint());
    QVERIFY2(page.detailsText().contains(QStringLiteral("You see a")), qPrintable(page.detailsText()));
    QVERIFY2(page.detailsText().contains(QStringLiteral("credit grpo")), qPrintable(page.detailsText()));
    QSignalSpy opened(&page, &TreePage::turnActivated);
    auto* open = page.findChild<QPushButton*>();
    QVERIFY(open && open->isEnabled());
    open->click();
    QCOMPARE(opened.count(), 1);
    QCOMPARE(opened.at(0).at(0).toLongLong(), rows[0]);
    QCOMPARE(opened.at(0).at(1).toInt(), 1);
    // Follow R2 through the chooser.
    page.rolloutChooser()->setCurrentIndex(2);
    QCOMPARE(page.view()->followedRollout(), 1);
}

namespace {

/// True when `a` and `b` differ by at most `tolerance` in each channel.
bool near(QColor a, QColor b, int tolerance = 6)
{
    return std::abs(a.red() - b.red()) <= tolerance && std::abs(a.green() - b.green()) <= tolerance
        && std::abs(a.blue() - b.blue()) <= tolerance;
}

/// The colours at the left and right ends of the legend's bar in `image` (viewport coordinates).
std::pair<QColor, QColor> barEnds(const QImage& image, const QRect& bar)
{
    const int y = bar.center().y();
    return { image.pixelColor(bar.left() + 2, y), image.pixelColor(bar.right() - 2, y) };
}

} // namespace

void TestTreeView::legendFollowsQuantity()
{
    // grpo credits: R1 +0.5 on every turn, R2 -0.2, R3 -0.8, so the largest |mean advantage| of a node is 0.8 (b, b1).
    auto group = handMade();
    const double credit[] = { 0.5, -0.2, -0.8 };
    for (std::size_t i = 0; i < group.size(); ++i)
        for (Turn& turn : group[i].turns)
            turn.credits = { { "grpo", credit[i] } };
    auto tree = std::make_shared<const tree::RolloutTree>(tree::RolloutTree::build(group));
    RolloutTreeView view;
    view.resize(800, 500);
    view.setTree(tree);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));

    ColorLegend legend = view.colorLegend();
    QCOMPARE(legend.title, QStringLiteral("Value V (RTMC)"));
    QVERIFY(!legend.diverging);
    QCOMPARE(legend.labels, (QStringList { QStringLiteral("0"), QStringLiteral("0.5"), QStringLiteral("1") }));
    QImage image = view.viewport()->grab().toImage();
    QVERIFY(!view.legendRect().isEmpty());
    QVERIFY(view.viewport()->rect().contains(view.legendRect()));
    QVERIFY(view.legendRect().contains(view.legendBarRect()));
    auto [low, high] = barEnds(image, view.legendBarRect());
    // Values in [0, 1] use the workbench's sequential map (viridis), not a red–green ramp.
    QVERIFY2(near(low, QColor(0x440154)), qPrintable(low.name())); // dark purple at 0
    QVERIFY2(near(high, QColor(0xfde724)), qPrintable(high.name())); // yellow at 1

    view.setColorBy(ColorBy::SuccessRate);
    QCOMPARE(view.colorLegend().title, QStringLiteral("Success rate below"));
    QCOMPARE(view.colorLegend().maximum, 1.0);

    view.setColorBy(ColorBy::MeanAdvantage, QStringLiteral("grpo"));
    legend = view.colorLegend();
    QCOMPARE(legend.title, QStringLiteral("Mean advantage (grpo)"));
    QVERIFY(legend.diverging);
    QCOMPARE(legend.minimum, -0.8);
    QCOMPARE(legend.middle, 0.0);
    QCOMPARE(legend.maximum, 0.8);
    QCOMPARE(legend.labels, (QStringList { QStringLiteral("-0.8"), QStringLiteral("0"), QStringLiteral("0.8") }));
    image = view.viewport()->grab().toImage();
    std::tie(low, high) = barEnds(image, view.legendBarRect());
    // Signed credit: the same diverging map as the Credit page, red negative and blue positive.
    QVERIFY2(near(low, QColor(178, 24, 43), 12), qPrintable(low.name())); // red at -0.8
    QVERIFY2(near(high, QColor(33, 102, 172), 12), qPrintable(high.name())); // blue at +0.8
    // A node's colour is the legend's colour of its value (root: filled, the mean of 0.5, -0.2 and -0.8).
    const tree::NodeId root = tree->findState("root");
    QCOMPARE(tree->nodeMeanAdvantage(root, "grpo").value_or(0), (0.5 - 0.2 - 0.8) / 3);
    const QColor rootColor = image.pixelColor(view.nodeCenter(root).toPoint());
    QVERIFY2(near(rootColor, legendColor(legend, (0.5 - 0.2 - 0.8) / 3)), qPrintable(rootColor.name()));

    // The legend is in the exported images.
    QTemporaryDir dir;
    QString error;
    const QString png = dir.filePath(QStringLiteral("tree.png"));
    QVERIFY2(view.exportImage(png, &error), qPrintable(error));
    const QImage exported(png);
    const int scale = exported.width() / view.viewport()->width(); // the PNG may be written at a higher resolution
    QVERIFY(scale >= 1);
    QCOMPARE(exported.size(), view.viewport()->size() * scale);
    const QRect bar = view.legendBarRect();
    std::tie(low, high) = barEnds(exported, QRect(bar.topLeft() * scale, bar.size() * scale));
    QVERIFY2(near(low, QColor(178, 24, 43), 12), qPrintable(low.name()));
    const QString svg = dir.filePath(QStringLiteral("tree.svg"));
    QVERIFY2(view.exportImage(svg, &error), qPrintable(error));
    QFile svgFile(svg);
    QVERIFY(svgFile.open(QIODevice::ReadOnly));
    const QByteArray svgText = svgFile.readAll();
    QVERIFY(svgText.contains("Mean advantage (grpo)"));
    QVERIFY(svgText.contains("singleton"));

    // Hidden: nothing painted there any more.
    view.setLegendVisible(false);
    view.viewport()->grab();
    QVERIFY(view.legendRect().isEmpty());
}

namespace {

/// Writes `groups` as run `name` of a new database at `path`: each trajectory with `iteration` and grpo credits
/// (+0.5 for the first of each group, else 0). Returns the run id.
qint64 writeRun(const QString& path, const std::string& name, const std::vector<std::vector<Trajectory>>& groups,
    std::optional<std::int64_t> iteration = std::nullopt, const std::string& method = "grpo")
{
    Store store(path.toStdString());
    const qint64 runId = store.createRun({ name, RunKind::Import, RunStatus::Finished, {} });
    std::int64_t ord = 0;
    for (const auto& group : groups)
        for (std::size_t i = 0; i < group.size(); ++i) {
            Trajectory t = group[i];
            t.iteration = iteration;
            const auto row = store.insertTrajectory(runId, ord++, t);
            store.writeCredits(row, method, std::vector<double>(t.turns.size(), i == 0 ? 0.5 : 0.0));
        }
    return runId;
}

std::vector<Trajectory> renamed(std::vector<Trajectory> group, const std::string& key)
{
    for (Trajectory& t : group) {
        t.group = key;
        t.id = key + "-" + t.id;
    }
    return group;
}

/// Shows `page` and waits for the load that showing it starts (the run its run list shows).
bool showAndWait(TreePage& page)
{
    QSignalSpy loaded(&page, &TreePage::loaded);
    page.show();
    return QTest::qWaitForWindowExposed(&page) && (loaded.count() > 0 || loaded.wait(10000));
}

/// The view's tree with a node clicked at its centre.
void clickNode(RolloutTreeView* view, tree::NodeId node)
{
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->nodeCenter(node).toPoint());
}

} // namespace

/// Finding 1: a run imported with env rollout or a JSONL import has no iterations; its groups are listed under an
/// explicit "none (imported)" iteration, by group key (and task where that differs), and load. A run that has no
/// trajectories at all says why the page is empty instead of showing an empty group list with no reason.
void TestTreeView::importedGroupsAreBrowsable()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("imported.db"));
    auto g = handMade();
    for (Trajectory& t : g)
        t.task.key = "household:seed=3";
    const qint64 imported = writeRun(db, "env rollout", { g, renamed(handMade(), "h") });
    qint64 empty = 0;
    {
        Store store(db.toStdString());
        empty = store.createRun({ "nothing yet", RunKind::Import, RunStatus::Finished, {} });
    }
    Workspace workspace;
    QVERIFY(workspace.open(db));
    TreePage page(&workspace);
    page.resize(1200, 700);
    QSignalSpy loaded(&page, &TreePage::loaded);
    page.show();
    page.showRun(imported);
    QVERIFY(loaded.wait(10000));
    QCOMPARE(page.iterationChooser()->count(), 1);
    QCOMPARE(page.iterationChooser()->currentText(), QStringLiteral("none (imported)"));
    QCOMPARE(page.groupChooser()->count(), 2);
    QCOMPARE(page.groupChooser()->itemText(0), QStringLiteral("g, task household:seed=3 (3 rollout(s))"));
    QCOMPARE(page.groupChooser()->itemText(1), QStringLiteral("h (3 rollout(s))"));
    QVERIFY(page.data() && page.data()->trajectories.size() == 3);
    QVERIFY(page.view()->visibleNodeCount() > 0);
    // The second group through the chooser.
    page.groupChooser()->setCurrentIndex(1);
    Q_EMIT page.groupChooser()->activated(1);
    QVERIFY(loaded.wait(10000));
    QCOMPARE(page.data()->trajectories.front().group, std::string("h"));

    // A run without trajectories: no groups, and the page says why.
    page.showRun(empty);
    QCOMPARE(page.groupChooser()->count(), 0);
    QVERIFY(!page.data());
    QVERIFY(!page.view()->tree());
    QVERIFY2(page.statusText().contains(QStringLiteral("no trajectories")), qPrintable(page.statusText()));
}

/// Finding 2: after the database changes, nothing of the old one stays: iterations, groups, methods, rollouts,
/// tree, statistics and the node details are cleared at once (also while the page is hidden), then the new
/// database's selected run loads when the page shows; a database without trajectories leaves the page empty.
void TestTreeView::databaseChangeClearsThePage()
{
    QTemporaryDir dir;
    const QString first = dir.filePath(QStringLiteral("first.db"));
    const QString second = dir.filePath(QStringLiteral("second.db"));
    const QString third = dir.filePath(QStringLiteral("third.db"));
    writeRun(first, "old run", { handMade(), renamed(handMade(), "old2") }, std::int64_t(4), "grpo");
    const qint64 newRun = writeRun(second, "new run", { renamed(handMade(), "fresh") }, std::nullopt, "rtmc");
    {
        Store store(third.toStdString());
        store.createRun({ "empty", RunKind::Import, RunStatus::Finished, {} });
    }
    Workspace workspace;
    QVERIFY(workspace.open(first));
    TreePage page(&workspace);
    page.resize(1200, 700);
    QVERIFY(showAndWait(page));
    QCOMPARE(page.groupChooser()->count(), 2);
    QCOMPARE(page.methodChooser()->itemText(0), QStringLiteral("grpo"));
    clickNode(page.view(), page.data()->tree->findState("a"));
    QVERIFY(page.detailsText().contains(QStringLiteral("You see a")));
    QVERIFY(!page.statisticsText().isEmpty());

    // Hidden while the database changes: cleared at once, the new run loads when the page shows.
    page.hide();
    QVERIFY(workspace.open(second));
    QCOMPARE(page.iterationChooser()->count(), 0);
    QCOMPARE(page.groupChooser()->count(), 0);
    QCOMPARE(page.methodChooser()->count(), 0);
    QCOMPARE(page.rolloutChooser()->count(), 0);
    QVERIFY(page.detailsText().isEmpty());
    QVERIFY(page.statisticsText().isEmpty());
    QVERIFY(!page.view()->tree());
    QVERIFY(showAndWait(page));
    QCOMPARE(page.runId(), newRun);
    QCOMPARE(page.iterationChooser()->count(), 1);
    QCOMPARE(page.groupChooser()->count(), 1);
    QVERIFY(page.groupChooser()->currentText().startsWith(QStringLiteral("fresh")));
    QCOMPARE(page.methodChooser()->count(), 1);
    QCOMPARE(page.methodChooser()->itemText(0), QStringLiteral("rtmc"));
    QCOMPARE(page.data()->trajectories.front().group, std::string("fresh"));
    QVERIFY(page.detailsText().isEmpty());
    QCOMPARE(page.view()->selectedNode(), tree::kNone);
    clickNode(page.view(), page.data()->tree->findState("b"));
    QVERIFY(page.detailsText().contains(QStringLiteral("You see b")));

    // Visible while it changes to a database whose only run has no trajectories: empty, and it says why.
    QVERIFY(workspace.open(third));
    QCOMPARE(page.groupChooser()->count(), 0);
    QCOMPARE(page.methodChooser()->count(), 0);
    QVERIFY(page.detailsText().isEmpty());
    QVERIFY(page.statisticsText().isEmpty());
    QVERIFY(!page.view()->tree());
    QVERIFY2(page.statusText().contains(QStringLiteral("no trajectories")), qPrintable(page.statusText()));
}

/// Finding 3: the clicked node gets a ring in the highlight colour, apart from the node; a clicked edge becomes the
/// selection instead; a new tree clears it.
void TestTreeView::clickedNodeIsHighlighted()
{
    auto tree = std::make_shared<const tree::RolloutTree>(tree::RolloutTree::build(handMade()));
    RolloutTreeView view;
    view.resize(800, 500);
    view.setTree(tree);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const tree::NodeId a = tree->findState("a");
    const QPointF c = view.nodeCenter(a);
    const double ring = view.selectionRingRadius(a);
    const QColor highlight = QColor::fromRgb(colours::kHighlight);
    QImage image = view.viewport()->grab().toImage();
    QVERIFY(!near(image.pixelColor((c + QPointF(0, -ring)).toPoint()), highlight, 30));

    clickNode(&view, a);
    QCOMPARE(view.selectedNode(), a);
    image = view.viewport()->grab().toImage();
    int ringPixels = 0;
    for (const QPointF d : { QPointF(0, -ring), QPointF(ring, 0), QPointF(-ring, 0), QPointF(0, ring) })
        ringPixels += near(image.pixelColor((c + d).toPoint()), highlight, 30) ? 1 : 0;
    QVERIFY2(ringPixels >= 3, qPrintable(QString::number(ringPixels)));
    // Nothing else got the ring: node b's surroundings stay unhighlighted.
    const QPointF cb = view.nodeCenter(tree->findState("b"));
    QVERIFY(!near(image.pixelColor((cb + QPointF(0, -ring)).toPoint()), highlight, 30));

    const tree::NodeId root = tree->findState("root"), b = tree->findState("b");
    QTest::mouseClick(
        view.viewport(), Qt::LeftButton, {}, ((view.nodeCenter(root) + view.nodeCenter(b)) / 2).toPoint());
    QCOMPARE(view.selectedNode(), tree::kNone);
    QVERIFY(view.selectedEdge() != tree::kNone);
    QCOMPARE(tree->edge(view.selectedEdge()).target, b);
    view.setTree(tree);
    QCOMPARE(view.selectedEdge(), tree::kNone);
}

/// Finding 3: the legend says what each marker style means, "hollow" singletons and "black outline" anchors
/// included, and adds the situational ones (re-convergence, follow, selection, search, collapse) while they are
/// drawn; it stays inside the view.
void TestTreeView::legendExplainsEveryMarker()
{
    auto group = handMade();
    group.push_back(
        traj("R4", 1.0, { { "root", "go b" }, { "b", "jump" }, { "a1", "finish" } })); // b -> a1 re-converges
    auto tree = std::make_shared<const tree::RolloutTree>(tree::RolloutTree::build(group));
    RolloutTreeView view;
    view.resize(800, 500);
    view.setTree(tree);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.viewport()->grab();
    const auto has = [&view](const QString& a, const QString& b) {
        for (const QString& entry : view.legendEntries())
            if (entry.contains(a) && entry.contains(b))
                return true;
        return false;
    };
    QVERIFY2(has(QStringLiteral("hollow"), QStringLiteral("singleton")), qPrintable(view.legendEntries().join('|')));
    QVERIFY(has(QStringLiteral("black outline"), QStringLiteral("anchor")));
    QVERIFY(has(QStringLiteral("square"), QStringLiteral("terminal")));
    QVERIFY(has(QStringLiteral("size"), QStringLiteral("visits")));
    QVERIFY(has(QStringLiteral("dashed"), QStringLiteral("re-convergence")));
    QVERIFY(!has(QStringLiteral("ring"), QStringLiteral("selected")));
    QVERIFY(!has(QStringLiteral("ring"), QStringLiteral("search")));

    view.setFollowedRollout(0);
    view.setSearchText(QStringLiteral("a1"));
    view.setSelectedNode(tree->findState("b"));
    view.setCollapsed(tree->findState("a"), true);
    view.viewport()->grab();
    QVERIFY(has(QStringLiteral("orange"), QStringLiteral("followed")));
    QVERIFY(has(QStringLiteral("orange ring"), QStringLiteral("selected")));
    QVERIFY(has(QStringLiteral("magenta ring"), QStringLiteral("search")));
    QVERIFY(has(QStringLiteral("+N"), QStringLiteral("collapsed")));
    QVERIFY(view.viewport()->rect().contains(view.legendRect()));
}

/// Finding 3: the page states its counts once, and they agree: nodes = states + terminals, as the tree has them;
/// the status line no longer gives a second, differently labelled node count.
void TestTreeView::nodeAndStateCountsAgree()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    writeRun(db, "tree", { handMade() });
    Workspace workspace;
    QVERIFY(workspace.open(db));
    TreePage page(&workspace);
    page.resize(1200, 700);
    QVERIFY(showAndWait(page));
    const QString stats = page.statisticsText();
    const QRegularExpressionMatch m
        = QRegularExpression(QStringLiteral("(\\d+) nodes: (\\d+) states \\+ (\\d+) terminals")).match(stats);
    QVERIFY2(m.hasMatch(), qPrintable(stats));
    const tree::TreeStatistics s = page.data()->tree->statistics();
    QCOMPARE(m.captured(1).toULongLong(), qulonglong(page.data()->tree->nodes().size()));
    QCOMPARE(m.captured(2).toULongLong(), qulonglong(s.stateNodes));
    QCOMPARE(m.captured(3).toULongLong(), qulonglong(s.terminalNodes));
    QCOMPARE(m.captured(1).toULongLong(), m.captured(2).toULongLong() + m.captured(3).toULongLong());
    QVERIFY2(!page.statusText().contains(QStringLiteral("nodes")), qPrintable(page.statusText()));
    QVERIFY2(page.statusText().contains(QStringLiteral("3 rollout(s)")), qPrintable(page.statusText()));
}

/// Finding 3: action labels of sibling edges do not overlap: a root with eight children and long actions, zoomed in
/// past the label zoom; every label drawn is inside its room, and a lone edge keeps its whole action.
void TestTreeView::edgeLabelsDoNotOverlap()
{
    std::vector<Trajectory> group;
    for (int i = 0; i < 8; ++i)
        group.push_back(traj("R" + std::to_string(i), i % 2,
            { { "root", "take the very long action number " + std::to_string(i) + " towards the sink" },
                { "s" + std::to_string(i), i == 0 ? "finish" : "finish " + std::to_string(i) } }));
    auto tree = std::make_shared<const tree::RolloutTree>(tree::RolloutTree::build(group));
    RolloutTreeView view;
    view.resize(1000, 600);
    view.setTree(tree);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(view.edgeLabels().empty() || view.zoom() >= RolloutTreeView::kLabelZoom);
    for (const double zoom : { RolloutTreeView::kLabelZoom, 3.0, 5.0 }) {
        view.setZoom(zoom);
        view.centerOn(tree->findState("root"));
        view.viewport()->grab();
        const std::vector<EdgeLabel> labels = view.edgeLabels();
        QVERIFY2(labels.size() >= 4, qPrintable(QString::number(labels.size())));
        for (std::size_t i = 0; i < labels.size(); ++i) {
            QVERIFY(!labels[i].text.isEmpty());
            for (std::size_t j = i + 1; j < labels.size(); ++j)
                QVERIFY2(!labels[i].rect.intersects(labels[j].rect),
                    qPrintable(QStringLiteral("%1 and %2 at zoom %3").arg(labels[i].text, labels[j].text).arg(zoom)));
        }
    }
    // A lone edge (s0 -> its terminal is no spanning label; root's children are siblings) keeps its whole text when
    // it has the room: one rollout, one chain.
    auto chain = std::make_shared<const tree::RolloutTree>(tree::RolloutTree::build(
        std::vector<Trajectory> { traj("C", 1.0, { { "x", "open the drawer" }, { "y", "stop" } }) }));
    view.setTree(chain);
    view.setZoom(3.0);
    view.viewport()->grab();
    bool whole = false;
    for (const EdgeLabel& label : view.edgeLabels())
        whole = whole || label.text == QStringLiteral("open the drawer");
    QVERIFY(whole);
}

/// Finding 4: turns are numbered from 1 in the node and edge details, the tooltips and the Open turn button, as on
/// every page; the turn opened is still the store's index (0-based).
void TestTreeView::turnsNumberedFromOne()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    writeRun(db, "tree", { handMade() });
    Workspace workspace;
    QVERIFY(workspace.open(db));
    TreePage page(&workspace);
    page.resize(1200, 700);
    QVERIFY(showAndWait(page));
    const auto& tree = page.data()->tree;
    const tree::NodeId root = tree->findState("root"), a = tree->findState("a"), b = tree->findState("b");
    // Node a is the second turn (index 1) of R1 and R2.
    clickNode(page.view(), a);
    QVERIFY2(page.detailsText().contains(QStringLiteral("turn 2 of R1, turn 2 of R2")), qPrintable(page.detailsText()));
    auto* open = page.findChild<QPushButton*>();
    QCOMPARE(open->text(), QStringLiteral("Open turn 2"));
    QSignalSpy opened(&page, &TreePage::turnActivated);
    open->click();
    QCOMPARE(opened.at(0).at(1).toInt(), 1);
    // Tooltips: the root is first reached at turn 1; the edge root -> b first taken at R3's turn 1.
    QVERIFY2(
        page.view()->toolTipAt(page.view()->nodeCenter(root)).contains(QStringLiteral("first reached at turn 1 of R1")),
        qPrintable(page.view()->toolTipAt(page.view()->nodeCenter(root))));
    const QPointF edgeMid = (page.view()->nodeCenter(root) + page.view()->nodeCenter(b)) / 2;
    QVERIFY2(page.view()->toolTipAt(edgeMid).contains(QStringLiteral("first taken at turn 1 of R3")),
        qPrintable(page.view()->toolTipAt(edgeMid)));
    // The edge's details: taken at R3's turn 1.
    QTest::mouseClick(page.view()->viewport(), Qt::LeftButton, {}, edgeMid.toPoint());
    QVERIFY2(page.detailsText().contains(QStringLiteral("taken at turn 1 of R3")), qPrintable(page.detailsText()));
    QVERIFY(!page.detailsText().contains(QStringLiteral("turn 0")));
    // A terminal: after R1's last turn, the third.
    const tree::NodeId terminal = tree->path(0).back();
    clickNode(page.view(), terminal);
    QVERIFY2(page.detailsText().contains(QStringLiteral("after turn 3 of R1")), qPrintable(page.detailsText()));
}

/// Finding 5: at 1280x720 the Trees page shows every control at no less than its minimum width, inside the page,
/// with its labels unclipped, even with long run and group names; the legend and statistics fit. The page is checked
/// at the size a 1280x720 window gives it (less the tab bar, menu and frame), alone, so that another page's minimum
/// width cannot hide or cause a failure here.
void TestTreeView::pageFitsAt1280x720()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    writeRun(db, "experiment 9 triage-judge-noise, arm pair-contaminated, seed 2, 256x2 policy, resumed",
        { renamed(handMade(), "household:seed=123456789/room=kitchen/goal=put-a-clean-mug-in-the-coffee-machine") },
        std::int64_t(12));
    Workspace workspace;
    QVERIFY(workspace.open(db));
    TreePage page(&workspace);
    const QSize available(1260, 630); // a 1280x720 window's page area
    QVERIFY2(page.minimumSizeHint().width() <= available.width(),
        qPrintable(QString::number(page.minimumSizeHint().width())));
    page.resize(available);
    QVERIFY(showAndWait(page));
    QCoreApplication::processEvents(); // the layout requests the loaded texts posted
    QVERIFY2(page.minimumSizeHint().width() <= available.width(),
        qPrintable(QString::number(page.minimumSizeHint().width())));
    QVERIFY2(page.minimumSizeHint().height() <= available.height(),
        qPrintable(QString::number(page.minimumSizeHint().height())));
    QCOMPARE(page.size(), available);
    const QRect pageRect = page.rect();
    int checked = 0;
    for (QWidget* w : page.findChildren<QWidget*>()) {
        if (!w->isVisible()
            || !(qobject_cast<QComboBox*>(w) || qobject_cast<QLineEdit*>(w) || qobject_cast<QLabel*>(w)
                || qobject_cast<QPushButton*>(w)))
            continue;
        const QRect r(w->mapTo(&page, QPoint(0, 0)), w->size());
        const QString name = QString::fromLatin1(w->metaObject()->className());
        QVERIFY2(pageRect.contains(r), qPrintable(name + QStringLiteral(" outside the page")));
        QVERIFY2(w->width() >= w->minimumSizeHint().width(), qPrintable(name + QStringLiteral(" below its minimum")));
        if (auto* label = qobject_cast<QLabel*>(w); label && !label->text().isEmpty()) {
            if (label->wordWrap())
                QVERIFY2(label->height() >= label->heightForWidth(label->width()), qPrintable(label->text()));
            else
                QVERIFY2(label->width() >= label->sizeHint().width(), qPrintable(label->text()));
        }
        ++checked;
    }
    QVERIFY(checked >= 12);
    page.view()->viewport()->grab();
    QVERIFY(page.view()->viewport()->rect().contains(page.view()->legendRect()));
    QVERIFY(page.view()->width() >= 600);
    QVERIFY(page.view()->height() >= 350);
}

/// Issue 38: an edge from a node back to itself (an action that left the state unchanged) is a line of length 0 and
/// was not drawn at all. It is a loop on the node's upper right that a click selects, its tooltip says the state did
/// not change, and the legend explains it.
QTEST_MAIN(TestTreeView)
#include "tst_ui_treeview.moc"
