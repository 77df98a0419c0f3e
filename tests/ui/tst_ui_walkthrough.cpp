// Issue 7's newcomer path through the main window, offscreen, without a terminal: import a JSONL batch, open a group's
// rollout tree, compute GRPO, RTMC and TRIAGE credits and see them side by side in the heatmap, label 50 turns with
// the keyboard, read the judge–human agreement (Cohen's kappa), and set up a run that learns from those labels.
#include "core/storage/store.h"
#include "ui/agreement/agreementmodel.h"
#include "ui/agreement/agreementpage.h"
#include "ui/annotate/annotationpage.h"
#include "ui/credit/creditpage.h"
#include "ui/heatmap/creditheatmapview.h"
#include "ui/launch/launcherpage.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/settings.h"
#include "ui/trees/treepage.h"
#include "ui/treeview/rollouttreeview.h"

#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace creditlab;
using namespace creditlab::ui;

namespace {

constexpr int kWaitMs = 30000;

/// 8 rollouts of one task in two groups, 8 turns each, shared early states (so the tree merges them), judge labels.
QByteArray batchJsonl()
{
    static const char* const roles = "DENR";
    QByteArray out;
    for (int i = 0; i < 8; ++i) {
        QByteArray turns;
        for (int k = 0; k < 8; ++k) {
            const int state = k < 2 ? k : 10 * i + k; // rollouts share their first two states
            turns += QStringLiteral(R"(%1{"observation":"room %2","action":"go %3","state":"s%2","role":"%4",)"
                                    R"("role_source":"judge:noisy"})")
                         .arg(k ? QStringLiteral(",") : QString())
                         .arg(state)
                         .arg(k + (i % 3))
                         .arg(QLatin1Char(roles[(i + k) % 4]))
                         .toUtf8();
        }
        out += QStringLiteral(R"({"id":"r%1","group":"g%2","task":"household:seed=%2","goal":"find the mug",)"
                              R"("reward":%3,"turns":[)")
                   .arg(i)
                   .arg(i / 4)
                   .arg(i % 2 ? 1 : 0)
                   .toUtf8()
            + turns + "]}\n";
    }
    return out;
}

} // namespace

class TestWalkthrough : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void importTreeCreditLabelAgreement();
};

void TestWalkthrough::importTreeCreditLabelAgreement()
{
    QTemporaryDir dir;
    const QString jsonl = dir.filePath(QStringLiteral("batch.jsonl"));
    {
        QFile file(jsonl);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(batchJsonl());
    }
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    MainWindow window(std::make_unique<Settings>(dir.filePath(QStringLiteral("settings.ini"))));
    QVERIFY(window.openDatabase(db));
    window.resize(1300, 850);
    window.show();

    // 1. File → Import JSONL.
    QSignalSpy imported(&window, &MainWindow::importFinished);
    window.importFiles({ jsonl });
    QVERIFY(imported.wait(kWaitMs));
    const qint64 runId = imported.first().first().toLongLong();

    // 2. Trees: the first group merged by state.
    QSignalSpy treeLoaded(window.trees(), &TreePage::loaded);
    window.showPage(MainWindow::Page::Trees);
    window.trees()->showRun(runId);
    QVERIFY(treeLoaded.wait(kWaitMs));
    QVERIFY(window.trees()->data() && window.trees()->data()->tree);
    QVERIFY(window.trees()->view()->visibleNodeCount() > 0);
    QVERIFY(window.trees()->statisticsText().contains(QLatin1String("branching factor")));

    // 3. Credit: compute three methods, then see them side by side.
    CreditPage* credit = window.credit();
    QSignalSpy creditLoaded(credit, &CreditPage::loaded);
    QSignalSpy computed(credit, &CreditPage::creditsComputed);
    window.showPage(MainWindow::Page::Credit);
    credit->showRun(runId);
    QVERIFY(creditLoaded.wait(kWaitMs));
    credit->computeCredits({ QStringLiteral("grpo"), QStringLiteral("rtmc"), QStringLiteral("triage") });
    QVERIFY(computed.wait(kWaitMs));
    QTRY_VERIFY_WITH_TIMEOUT(credit->view()->data() && credit->view()->data()->methods.size() == 3, kWaitMs);
    credit->setMethods({ QStringLiteral("grpo"), QStringLiteral("rtmc"), QStringLiteral("triage") });
    QCOMPARE(credit->view()->methodBlockCount(), 3);

    // 4. Annotate: 50 turns with the keyboard.
    AnnotationPage* annotate = window.annotation();
    window.showPage(MainWindow::Page::Annotate);
    QSignalSpy annotateLoaded(annotate, &AnnotationPage::loaded);
    annotate->setRun(runId);
    QVERIFY(annotateLoaded.wait(kWaitMs)); // the run is read in the background
    annotate->setAnnotator(QStringLiteral("newcomer"));
    const char keys[] = { '1', '2', '3', '4', 'D', 'E', 'N', 'R' };
    for (int i = 0; i < 50; ++i)
        QTest::keyClick(annotate, keys[i % 8]);
    {
        Store store(db.toStdString());
        int labelled = 0;
        for (const auto& t : store.trajectories(runId))
            for (const auto& label : store.humanLabels(t.rowId))
                labelled += label.annotator == "newcomer";
        QCOMPARE(labelled, 50);
    }

    // 5. Agreement: the judge against the newcomer; kappa is there.
    AgreementPage* agreement = window.agreement();
    QSignalSpy agreementLoaded(agreement, &AgreementPage::loaded);
    window.showPage(MainWindow::Page::Agreement);
    agreement->setRun(runId);
    QVERIFY(agreementLoaded.wait(kWaitMs));
    QString human, judge;
    for (const QString& source : agreement->sources()) {
        if (source.contains(QLatin1String("newcomer")))
            human = source;
        else if (source.contains(QLatin1String("noisy")) && judge.isEmpty())
            judge = source;
    }
    QVERIFY2(!human.isEmpty() && !judge.isEmpty(), qPrintable(agreement->sources().join(QStringLiteral(", "))));
    agreement->setReference(human);
    agreement->setCompared({ judge });
    const auto& rows = agreement->tableModel()->rows();
    QCOMPARE(rows.size(), std::size_t(1));
    QCOMPARE(rows.front().result.count, 50);
    QVERIFY(rows.front().result.accuracy.has_value());

    // 6. Learn from the labels: the Annotate page's button sets the launcher up and shows it.
    window.showPage(MainWindow::Page::Annotate);
    auto* train = annotate->findChild<QPushButton*>(QStringLiteral("annotationTrainButton"));
    QVERIFY(train);
    train->click();
    LauncherPage* launcher = window.launcher();
    QCOMPARE(window.tabs()->currentWidget(), launcher);
    QCOMPARE(launcher->value(QStringLiteral("credit.method")), QStringLiteral("triage"));
    QCOMPARE(launcher->value(QStringLiteral("judge.name")), QStringLiteral("human"));
    QCOMPARE(launcher->value(QStringLiteral("judge.annotator")), QStringLiteral("newcomer"));
    QCOMPARE(launcher->value(QStringLiteral("rl.task_pool")), QStringLiteral("labelled"));
    auto* summary = launcher->findChild<QLabel*>(QStringLiteral("launchSummary"));
    QVERIFY(summary);
    QVERIFY2(summary->text().contains(QStringLiteral("Human labels by newcomer: 50")), qPrintable(summary->text()));
    QVERIFY2(summary->text().contains(QStringLiteral("in 2 household train tasks")), qPrintable(summary->text()));
}

QTEST_MAIN(TestWalkthrough)
#include "tst_ui_walkthrough.moc"
