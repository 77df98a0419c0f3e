// Issue 38's annotation cases, offscreen: in blind mode the queue orders without the judge (its labels, confidence,
// the outcome or credits), and the JSONL export carries the notes (comment, flag, skip) and imports them back.
#include "core/storage/humannote.h"
#include "core/storage/store.h"
#include "ui/annotate/annotationloader.h"
#include "ui/annotate/annotationpage.h"
#include "ui/annotate/annotationqueue.h"
#include "ui/charts/colours.h"
#include "ui/shell/workspace.h"

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <algorithm>

#include "tests/ui/annotationtestdata.h"

using namespace creditlab;
using namespace creditlab::ui;
using namespace creditlab::ui::testing;

class TestAnnotationBlind : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void blindOrderReadsNoJudge();
    void jsonlCarriesNotes();
};

void TestAnnotationBlind::blindOrderReadsNoJudge()
{
    // On hand-made turns: blinded, every order is the sequential one.
    const std::vector<QueueTurn> turns { { 0, 0, true, { Role::D }, 0.9, { 0.1, 0.0 } },
        { 0, 1, true, { Role::R }, 0.2, { 0.0, 0.0 } }, { 1, 0, false, { Role::E }, 0.5, { -0.5, 0.0 } },
        { 1, 1, false, { Role::N }, 0.7, { 0.3, 0.0 } } };
    std::vector<QueueTurn> blind;
    for (const QueueTurn& t : turns)
        blind.push_back(blinded(t));
    const std::vector<Item> sequential { { 0, 0 }, { 0, 1 }, { 1, 0 }, { 1, 1 } };
    for (const QueueOrder order :
        { QueueOrder::JudgeLeastSure, QueueOrder::MethodsDisagree, QueueOrder::TriageConflicts }) {
        QVERIFY(orderReadsHidden(order));
        QVERIFY(buildQueue(turns, order) != sequential); // the judge's view orders these turns...
        QCOMPARE(buildQueue(blind, order), sequential); // ...and nothing of it is left when blind
    }
    QVERIFY(!orderReadsHidden(QueueOrder::Sequential));

    Fixture f;
    Workspace ws;
    QVERIFY(ws.open(f.path));
    AnnotationPage page(&ws);
    QVERIFY(showRun(page, f.run));
    page.setOrder(QueueOrder::TriageConflicts);
    // The conflict cells first: t1 turn 1 (judge R in a success), t2 turn 0 (judge E in a failure).
    QCOMPARE(page.current(), std::make_optional(std::make_pair(f.t1, 1)));
    QCOMPARE(page.queue()[1], (Item { 1, 0 }));
    page.setBlind(true);
    const std::vector<Item> runSequential { { 0, 0 }, { 0, 1 }, { 0, 2 }, { 1, 0 }, { 1, 1 }, { 1, 2 } };
    QCOMPARE(page.queue(), runSequential);
    QVERIFY(page.order() == QueueOrder::Sequential);
    QCOMPARE(page.current(), std::make_optional(std::make_pair(f.t1, 1))); // the turn on screen stays
    auto* combo = page.findChild<QComboBox*>(QStringLiteral("annotationOrderCombo"));
    QVERIFY(combo);
    QCOMPARE(QueueOrder(combo->currentData().toInt()), QueueOrder::Sequential);
    auto* items = qobject_cast<QStandardItemModel*>(combo->model());
    QVERIFY(items);
    for (int i = 0; i < combo->count(); ++i)
        QCOMPARE(items->item(i)->isEnabled(), QueueOrder(combo->itemData(i).toInt()) == QueueOrder::Sequential);
    for (const QueueOrder order :
        { QueueOrder::JudgeLeastSure, QueueOrder::MethodsDisagree, QueueOrder::TriageConflicts }) {
        page.setOrder(order); // refused while blind
        QVERIFY(page.order() == QueueOrder::Sequential);
        QCOMPARE(page.queue(), runSequential);
    }
    // Out of blind mode the orders come back.
    page.setBlind(false);
    for (int i = 0; i < combo->count(); ++i)
        QVERIFY(items->item(i)->isEnabled());
    page.setOrder(QueueOrder::JudgeLeastSure);
    QCOMPARE(page.current(), std::make_optional(std::make_pair(f.t2, 2)));
}

/// Issue 38: the JSONL export left the notes out, so a skip, a flag or a comment did not reach another database.
void TestAnnotationBlind::jsonlCarriesNotes()
{
    Fixture f;
    Workspace ws;
    QVERIFY(ws.open(f.path));
    AnnotationPage page(&ws);
    QVERIFY(showRun(page, f.run));
    page.setAnnotator(QStringLiteral("kim"));
    QVERIFY(page.skipCurrent()); // t1 turn 1 (index 0): skipped, no label
    QVERIFY(page.labelCurrent(Role::E)); // t1 turn 2 (index 1), then flagged and commented
    page.move(-1);
    QVERIFY(page.setCurrentFlagged(true));
    QVERIFY(page.setCurrentComment(QStringLiteral("why \"here\"?")));
    const QString file = f.dir.filePath(QStringLiteral("notes.jsonl"));
    QString error;
    QVERIFY2(page.exportLabels(file, &error), qPrintable(error));
    QFile in(file);
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QByteArray text = in.readAll();
    in.close();
    QCOMPARE(text,
        QByteArray(
            R"({"annotator":"kim","skipped":true,"trajectory":"t1","turn":0})"
            "\n"
            R"({"annotator":"kim","comment":"why \"here\"?","flagged":true,"role":"E","trajectory":"t1","turn":1})"
            "\n"));

    // Into a fresh copy of the run: the label and both notes come back.
    Fixture other;
    Workspace ws2;
    QVERIFY(ws2.open(other.path));
    AnnotationPage target(&ws2);
    QVERIFY(showRun(target, other.run));
    int notes = -1;
    QCOMPARE(target.importLabels(file, &error, &notes), 1);
    QCOMPARE(notes, 2);
    const std::vector<HumanNote> stored = humanNotes(*ws2.store(), other.t1);
    QCOMPARE(stored.size(), std::size_t(2));
    QVERIFY(stored[0].turn == 0 && stored[0].skipped && !stored[0].flagged && stored[0].comment.empty());
    QVERIFY(stored[1].turn == 1 && !stored[1].skipped && stored[1].flagged && stored[1].comment == "why \"here\"?");
    QCOMPARE(dump(*ws2.store(), other), QStringList { QStringLiteral("%1:1:kim:E").arg(other.t1) });
    target.setAnnotator(QStringLiteral("kim"));
    QVERIFY(target.transcriptText().contains(QStringLiteral("skipped")));
    QVERIFY(target.transcriptText().contains(QStringLiteral("⚑ flagged")));
}

QTEST_MAIN(TestAnnotationBlind)
#include "tst_ui_annotationblind.moc"
