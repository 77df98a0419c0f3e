// The rollout tree view and the Trees page, offscreen: a hand-made group paints with the right visible node count,
// a click on a node's centre emits its id, collapse hides the subtree, follow highlights the path, search finds
// nodes, a 20,000-node tree paints fast (time printed, not asserted tightly), the page loads a store's group, and the
// colour legend's title, range and bar colours follow the coloured quantity, on screen and in PNG/SVG export.
#include "core/store.h"
#include "ui/trees/treepage.h"
#include "ui/treeview/rollouttreeview.h"
#include "ui/shell/workspace.h"

#include <QComboBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <random>

using namespace creditlab;
using namespace creditlab::ui;
using namespace creditlab::ui::treeview;

namespace {

Trajectory traj(const std::string& id, double reward, const std::vector<std::pair<std::string, std::string>>& steps)
{
    Trajectory t;
    t.id = id;
    t.group = "g";
    t.reward = reward;
    for (const auto& [state, action] : steps) {
        Turn u;
        u.observation = "You see " + state;
        u.state = state;
        u.action = action;
        u.feedback = "ok " + action;
        t.turns.push_back(u);
    }
    return t;
}

/// root → {a, b}; a → {a1, a2}; b → b1. Terminals after each last turn.
std::vector<Trajectory> handMade()
{
    return {
        traj("R1", 1.0, { { "root", "go a" }, { "a", "go a1" }, { "a1", "finish" } }),
        traj("R2", 0.0, { { "root", "go a" }, { "a", "go a2" }, { "a2", "finish" } }),
        traj("R3", 0.0, { { "root", "go b" }, { "b", "go b1" }, { "b1", "finish" } }),
    };
}

/// A random prefix tree of about `nodes` state nodes: `rollouts` trajectories branching off shared prefixes.
std::vector<Trajectory> bigGroup(int rollouts, int depth)
{
    std::vector<Trajectory> out;
    std::mt19937 rng(7);
    for (int i = 0; i < rollouts; ++i) {
        std::vector<std::pair<std::string, std::string>> steps;
        std::string key = "s";
        const int share = i == 0 ? 0 : int(rng() % depth); // shares `share` steps with an earlier rollout
        const int other = i == 0 ? 0 : int(rng() % i);
        for (int k = 0; k < depth; ++k) {
            const std::string branch = k < share ? std::to_string(other) : std::to_string(i);
            key += "/" + branch;
            steps.push_back({ key, "act " + branch + "." + std::to_string(k) });
        }
        out.push_back(traj("R" + std::to_string(i), double(i % 2), steps));
    }
    return out;
}

} // namespace

class TestTreeView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void paintsClicksCollapsesFollowsSearches();
    void largeTreePaints();
    void pageLoadsGroup();
    void legendFollowsQuantity();
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

QTEST_MAIN(TestTreeView)
#include "tst_ui_treeview.moc"
