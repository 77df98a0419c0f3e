// Issue 38's papercuts of the tree view and the Trees page, offscreen: self-loops are drawn as loops; the legend has a
// strip of its own and covers no node; the iteration list follows a training run.
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

class TestTreeLoops : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void selfLoopsAreDrawn();
    void legendCoversNoNode();
    void iterationsFollowTheRun();
};

void TestTreeLoops::selfLoopsAreDrawn()
{
    // R1 looks twice without the state changing, then goes on; R2 goes on at once.
    const std::vector<Trajectory> group {
        traj("R1", 1.0, { { "root", "look" }, { "root", "look" }, { "root", "go a" }, { "a", "finish" } }),
        traj("R2", 0.0, { { "root", "go a" }, { "a", "finish" } }),
    };
    auto tree = std::make_shared<const tree::RolloutTree>(tree::RolloutTree::build(group));
    const tree::NodeId root = tree->findState("root");
    tree::EdgeId loop = tree::kNone;
    for (tree::EdgeId e = 0; e < tree->edges().size(); ++e)
        if (tree->edge(e).source == tree->edge(e).target)
            loop = e;
    QVERIFY(loop != tree::kNone);
    QCOMPARE(tree->edge(loop).source, root);
    RolloutTreeView view;
    view.resize(800, 500);
    view.setTree(tree);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setZoom(2.0);
    view.centerOn(root);
    const QImage image = view.viewport()->grab().toImage();
    const QRectF box = view.selfLoopRect(loop);
    QVERIFY(!box.isEmpty());
    QVERIFY(box.width() >= 8);
    QVERIFY(view.treeArea().contains(box.toAlignedRect()));
    for (tree::EdgeId e = 0; e < tree->edges().size(); ++e)
        QCOMPARE(view.selfLoopRect(e).isEmpty(), e != loop); // other edges have no loop
    // The loop's top is painted in the edge colour (blue-grey), clear of the node.
    const QPoint top(qRound(box.center().x()), qRound(box.top()));
    QVERIFY(view.nodeAt(top) == tree::kNone);
    bool drawn = false;
    for (int dy = -2; dy <= 2 && !drawn; ++dy)
        for (int dx = -2; dx <= 2 && !drawn; ++dx) {
            const QColor c = image.pixelColor(top + QPoint(dx, dy));
            drawn = c.blue() - c.red() > 30 && c.blue() > 150;
        }
    QVERIFY2(drawn, qPrintable(image.pixelColor(top).name()));
    // A click on it selects the loop; the tooltip says what it is.
    QSignalSpy edgeClicked(&view, &RolloutTreeView::edgeClicked);
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, top);
    QCOMPARE(edgeClicked.count(), 1);
    QCOMPARE(edgeClicked.at(0).at(0).toUInt(), loop);
    QCOMPARE(view.selectedEdge(), loop);
    QVERIFY2(view.toolTipAt(top).contains(QStringLiteral("state unchanged")), qPrintable(view.toolTipAt(top)));
    view.viewport()->grab();
    QVERIFY2(view.legendEntries().join(QLatin1Char('|')).contains(QStringLiteral("loop")),
        qPrintable(view.legendEntries().join(QLatin1Char('|'))));
}

/// Issue 38: the legend was painted over the tree's top-right corner, where it covered nodes, at the fitted view
/// and wherever the tree was scrolled. It has a strip of its own: the tree is fitted beside it and never drawn into
/// it, so the legend looks the same wherever the tree is scrolled, and no node can be clicked under it.
void TestTreeLoops::legendCoversNoNode()
{
    auto tree = std::make_shared<const tree::RolloutTree>(tree::RolloutTree::build(bigGroup(60, 6)));
    RolloutTreeView view;
    view.resize(900, 600);
    view.setTree(tree);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.viewport()->grab();
    const QRect legend = view.legendRect();
    QVERIFY(!legend.isEmpty());
    QVERIFY(!view.treeArea().intersects(legend));
    QVERIFY(view.treeArea().width() >= view.viewport()->width() / 2);
    // Fitted beside the legend: every node's centre in the tree's area.
    for (tree::NodeId n = 0; n < tree->nodes().size(); ++n)
        QVERIFY2(view.treeArea().contains(view.nodeCenter(n).toPoint()), qPrintable(QString::number(n)));
    // Zoomed in, over the whole tree: the legend's pixels never change, and nothing under it answers a click.
    view.setZoom(3.0);
    QScrollBar* h = view.horizontalScrollBar();
    QScrollBar* v = view.verticalScrollBar();
    QVERIFY(h->maximum() > 0 && v->maximum() > 0);
    QImage reference;
    for (const int x : { 0, h->maximum() / 3, 2 * h->maximum() / 3, h->maximum() })
        for (const int y : { 0, v->maximum() / 2, v->maximum() }) {
            h->setValue(x);
            v->setValue(y);
            const QImage region = view.viewport()->grab().toImage().copy(legend);
            QCOMPARE(view.legendRect(), legend);
            if (reference.isNull())
                reference = region;
            else
                QVERIFY2(region == reference, qPrintable(QStringLiteral("scrolled to %1, %2").arg(x).arg(y)));
            for (const QPoint p : { legend.center(), legend.topLeft() + QPoint(2, 2), legend.bottomLeft() })
                QCOMPARE(view.nodeAt(p), tree::kNone);
        }
    // Hidden, the legend gives its strip back to the tree.
    view.setLegendVisible(false);
    QCOMPARE(view.treeArea(), view.viewport()->rect());
}

/// Issue 38: a training run's iteration list was read when the run was picked and not again, so iterations written
/// since did not appear until the run was picked once more. It follows Workspace::runsChanged, as the other pages
/// do, keeping the group on screen; a run that had no groups loads its first one when it comes, and a hidden page
/// catches up when it shows.
void TestTreeLoops::iterationsFollowTheRun()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    const auto addIteration = [&db](qint64 run, std::int64_t iteration) {
        Store store(db.toStdString());
        std::int64_t ord = std::int64_t(store.trajectories(run).size());
        for (Trajectory t : handMade()) {
            t.id = "it" + std::to_string(iteration) + "-" + t.id;
            t.iteration = iteration;
            store.insertTrajectory(run, ord++, t);
        }
    };
    qint64 training = 0;
    qint64 fresh = 0;
    {
        Store store(db.toStdString());
        training = store.createRun({ "training", RunKind::Train, RunStatus::Running, {} });
        fresh = store.createRun({ "just started", RunKind::Train, RunStatus::Running, {} });
    }
    addIteration(training, 0);
    Workspace workspace;
    workspace.setPollInterval(0);
    QVERIFY(workspace.open(db));
    TreePage page(&workspace);
    page.resize(1200, 700);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    QSignalSpy loaded(&page, &TreePage::loaded);
    page.showRun(training);
    QVERIFY(loaded.count() > 0 || loaded.wait(10000));
    QCOMPARE(page.iterationChooser()->count(), 1);
    const TreeGroupDataPtr shown = page.data();
    QVERIFY(shown);

    addIteration(training, 1);
    addIteration(training, 2);
    loaded.clear();
    workspace.notifyRunsChanged();
    QCOMPARE(page.iterationChooser()->count(), 3);
    QCOMPARE(page.iterationChooser()->currentData().toString(), QStringLiteral("0")); // the one on screen stays
    QCOMPARE(page.groupChooser()->count(), 1);
    QCOMPARE(page.data(), shown); // and is not loaded again
    QCOMPARE(loaded.count(), 0);

    // A run without trajectories yet: its first group loads when it comes.
    page.showRun(fresh);
    QCOMPARE(page.groupChooser()->count(), 0);
    QVERIFY(!page.data());
    addIteration(fresh, 0);
    workspace.notifyRunsChanged();
    QCOMPARE(page.iterationChooser()->count(), 1);
    QVERIFY(loaded.count() > 0 || loaded.wait(10000));
    QVERIFY(page.data() && page.data()->trajectories.size() == 3);

    // Hidden: it catches up when it shows.
    page.hide();
    addIteration(fresh, 1);
    workspace.notifyRunsChanged();
    page.show();
    QCOMPARE(page.iterationChooser()->count(), 2);
    QCOMPARE(page.runId(), fresh);
}

QTEST_MAIN(TestTreeLoops)
#include "tst_ui_treeloops.moc"
