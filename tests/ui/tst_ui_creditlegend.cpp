// The credit page's distribution chart at the page's size in a 1280 x 720 window: its legend shows every entry whole.
#include "core/storage/store.h"
#include "ui/charts/linechart.h"
#include "ui/credit/creditpage.h"
#include "ui/shell/workspace.h"

#include <QChart>
#include <QGraphicsTextItem>
#include <QGraphicsView>
#include <QLegend>
#include <QLegendMarker>
#include <QTemporaryDir>
#include <QtTest>

using namespace creditlab;
using namespace creditlab::ui;

class TestCreditLegend : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fitsA1280By720Window();
};

/// At the page's size in a 1280 × 720 window, the distribution's legend shows each entry whole: four roles with
/// five-digit counts and the unlabelled turns. Its entries had been cut ("D (273 tur...").
void TestCreditLegend::fitsA1280By720Window()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    qint64 runId = 0;
    {
        Store store(db.toStdString());
        runId = store.createRun({ "roles", RunKind::Import, RunStatus::Finished, {} });
        for (int i = 0; i < 1000; ++i) {
            Trajectory t;
            t.id = "t" + std::to_string(i);
            t.group = "g" + std::to_string(i / 2);
            t.reward = i % 2;
            for (int k = 0; k < 50; ++k) {
                Turn turn;
                turn.observation = "obs";
                turn.action = "act";
                if (k % 5 < 4) // D, E, N, R, then a turn without a role: 10,000 turns each
                    turn.role = static_cast<Role>(k % 5);
                t.turns.push_back(turn);
            }
            const auto row = store.insertTrajectory(runId, i, t);
            std::vector<double> values(50);
            for (int k = 0; k < 50; ++k)
                values[static_cast<std::size_t>(k)] = 0.01 * (k % 7 - 3) * (i % 2 ? 1.0 : -1.0);
            store.writeCredits(row, "grpo", values);
        }
    }
    Workspace workspace;
    workspace.setPollInterval(0);
    QVERIFY(workspace.open(db));
    CreditPage page(&workspace);
    page.resize(1280, 620);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    QSignalSpy loaded(&page, &CreditPage::loaded);
    page.showRun(runId);
    QVERIFY(loaded.count() > 0 || loaded.wait(10000));
    charts::LineChart* chart = page.distributionChart();
    QCOMPARE(chart->seriesCount(), 5);
    chart->redrawNow();
    QTest::qWait(300); // Qt Charts lays out on posted events
    auto* graphics = chart->findChild<QGraphicsView*>();
    QVERIFY(graphics && graphics->scene());
    QChart* qchart = nullptr;
    QStringList shown;
    for (QGraphicsItem* item : graphics->scene()->items()) {
        if (auto* c = dynamic_cast<QChart*>(item))
            qchart = c;
        else if (auto* text = dynamic_cast<QGraphicsTextItem*>(item))
            shown << text->toPlainText();
    }
    QVERIFY(qchart);
    QList<QLegendMarker*> markers; // the series' own (LineChart's helper series keep theirs hidden)
    for (QLegendMarker* marker : qchart->legend()->markers())
        if (marker->isVisible())
            markers << marker;
    QCOMPARE(markers.size(), 5);
    for (QLegendMarker* marker : std::as_const(markers))
        QVERIFY2(shown.contains(marker->label()),
            qPrintable(QStringLiteral("legend entry \"%1\" is not shown whole at %2 px; the scene shows: %3")
                           .arg(marker->label())
                           .arg(chart->width())
                           .arg(shown.join(QStringLiteral(" | ")))));
}

QTEST_MAIN(TestCreditLegend)
#include "tst_ui_creditlegend.moc"
