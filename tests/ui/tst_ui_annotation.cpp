// The Annotation page: a temp store with 2 trajectories of 3 turns (judge labels, credits of two methods). Key
// presses label turns and advance; undo/redo restore the store exactly; labels survive a new Store and page; blind
// mode hides the judge labels; every queue order on hand-made data; progress text; JSONL export → clear → import;
// a bad JSONL line is refused naming line and field and imports nothing; fifty key presses walk the queue. The run
// loads in the background: loaded() comes after setRun returns, a stale load is dropped, and a label written during
// a reload survives it. Issue 20 finding 10: the current turn as a card with clickable role chips (role colours,
// definitions) and the own label apart from the judge's; blind mode hides outcome and reward too; the trajectory band
// with its own progress and the boundary to the next one; skip, flag and comment persisted (schema 7) and undoable;
// an observation that repeats the previous feedback is not shown again; turns counted from 1. Issue 38: blind mode
// orders the queue without the judge (Sequential, the other orders greyed out), and the JSONL file carries the notes.
#include "core/storage/humannote.h"
#include "core/storage/store.h"
#include "tests/ui/annotationtestdata.h"
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

using namespace creditlab;
using namespace creditlab::ui;

using namespace creditlab::ui::testing;

class TestAnnotation : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void queueOrders();
    void keysLabelAndAdvance();
    void undoRedoRestoreStore();
    void loadsTheNewestRunWhenShown();
    void importedJudgeRolesShow();
    void persistsAcrossReopen();
    void blindHidesJudge();
    void jsonlRoundTrip();
    void jsonlBadLineImportsNothing();
    void keysWalkTheWholeQueue();
    void loadsInBackground();
    void staleLoadIsDropped();
    void labelDuringReloadSurvives();
    void cardWithRoleChips();
    void blindHidesOutcomeAndReward();
    void trajectoryBandAndBoundary();
    void skipFlagCommentPersist();
    void observationShownOnlyWhenNew();
    void turnsCountFromOne();
};

void TestAnnotation::queueOrders()
{
    // Given out of order on purpose: the result must not depend on it.
    const std::vector<QueueTurn> turns {
        { 1, 0, false, { Role::E }, 0.5, { -0.5, 0.0 } }, { 0, 0, true, { Role::D }, 0.9, { 0.1, 0.0 } },
        { 0, 1, true, { Role::R }, 0.2, { 0.0, 0.0 } }, { 0, 2, true, { Role::N }, std::nullopt, { 0.9, 0.0 } },
        { 1, 1, false, { Role::N }, 0.7, { 0.3, 0.0 } },
        { 1, 2, false, {}, std::nullopt, { 0.2 } }, // one method only: spread 0
    };
    QCOMPARE(buildQueue(turns, QueueOrder::Sequential),
        (std::vector<Item> { { 0, 0 }, { 0, 1 }, { 0, 2 }, { 1, 0 }, { 1, 1 }, { 1, 2 } }));
    QCOMPARE(buildQueue(turns, QueueOrder::JudgeLeastSure),
        (std::vector<Item> { { 0, 1 }, { 1, 0 }, { 1, 1 }, { 0, 0 }, { 0, 2 }, { 1, 2 } }));
    QCOMPARE(buildQueue(turns, QueueOrder::MethodsDisagree),
        (std::vector<Item> { { 0, 2 }, { 1, 0 }, { 1, 1 }, { 0, 0 }, { 0, 1 }, { 1, 2 } }));
    QCOMPARE(buildQueue(turns, QueueOrder::TriageConflicts),
        (std::vector<Item> { { 0, 1 }, { 1, 0 }, { 0, 0 }, { 0, 2 }, { 1, 1 }, { 1, 2 } }));
    QCOMPARE(creditSpread(std::vector<double> { 0.3, -0.2, 0.1 }), 0.5);
    QCOMPARE(creditSpread(std::vector<double> { 0.3 }), 0.0);
    QVERIFY(isTriageConflict(turns[0]));
    QVERIFY(!isTriageConflict(turns[1]));
}

void TestAnnotation::keysLabelAndAdvance()
{
    Fixture f;
    Workspace ws;
    QVERIFY(ws.open(f.path));
    AnnotationPage page(&ws);
    QVERIFY(showRun(page, f.run));
    page.setAnnotator(QStringLiteral("alice"));
    QCOMPARE(page.current(), std::make_optional(std::make_pair(f.t1, 0)));
    QVERIFY(page.progressText().startsWith(QStringLiteral("0 / 6")));
    QSignalSpy moved(&page, &AnnotationPage::currentChanged);
    QTest::keyClick(&page, Qt::Key_1);
    QCOMPARE(page.current(), std::make_optional(std::make_pair(f.t1, 1)));
    QCOMPARE(moved.count(), 1);
    QTest::keyClick(&page, Qt::Key_R);
    QTest::keyClick(&page, Qt::Key_3);
    QCOMPARE(page.current(), std::make_optional(std::make_pair(f.t2, 0)));
    QTest::keyClick(&page, Qt::Key_Up);
    QCOMPARE(page.current(), std::make_optional(std::make_pair(f.t1, 2)));
    QTest::keyClick(&page, Qt::Key_E); // relabel t1 turn 2 as E
    QTest::keyClick(&page, Qt::Key_Down);
    QCOMPARE(page.current(), std::make_optional(std::make_pair(f.t2, 1)));
    QTest::keyClick(&page, Qt::Key_4);
    QCOMPARE(dump(*ws.store(), f),
        (QStringList { QStringLiteral("%1:0:alice:D").arg(f.t1), QStringLiteral("%1:1:alice:R").arg(f.t1),
            QStringLiteral("%1:2:alice:E").arg(f.t1), QStringLiteral("%1:1:alice:R").arg(f.t2) }));
    QVERIFY2(page.progressText().startsWith(QStringLiteral("4 / 6 turns labelled by alice")),
        qPrintable(page.progressText()));
    QVERIFY(page.transcriptText().contains(QStringLiteral("[you: R]")));
    // The order chooser reorders the queue: judge least sure first starts at t2 turn 2 (confidence 0.1).
    page.setOrder(QueueOrder::JudgeLeastSure);
    QCOMPARE(page.current(), std::make_optional(std::make_pair(f.t2, 2)));
    // No annotator: the key is refused, nothing written.
    page.setAnnotator(QString());
    QSignalSpy errors(&page, &AnnotationPage::errorOccurred);
    QTest::keyClick(&page, Qt::Key_2);
    QCOMPARE(errors.count(), 1);
    QCOMPARE(dump(*ws.store(), f).size(), 4);
}

void TestAnnotation::undoRedoRestoreStore()
{
    Fixture f;
    {
        Store store(f.path.toStdString());
        store.setHumanLabel(f.t1, 1, "alice", Role::N); // a label from before, which undo must restore
    }
    Workspace ws;
    QVERIFY(ws.open(f.path));
    QUndoStack stack;
    AnnotationPage page(&ws, nullptr, &stack);
    QCOMPARE(page.undoStack(), &stack);
    QVERIFY(showRun(page, f.run));
    page.setAnnotator(QStringLiteral("alice"));
    const QStringList before = dump(*ws.store(), f);
    QTest::keyClick(&page, Qt::Key_D);
    const QStringList afterOne = dump(*ws.store(), f);
    QTest::keyClick(&page, Qt::Key_E); // overwrites the old N on t1 turn 1
    const QStringList afterTwo = dump(*ws.store(), f);
    QCOMPARE(
        afterTwo, (QStringList { QStringLiteral("%1:0:alice:D").arg(f.t1), QStringLiteral("%1:1:alice:E").arg(f.t1) }));
    QCOMPARE(page.current(), std::make_optional(std::make_pair(f.t1, 2)));

    QTest::keyClick(&page, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(dump(*ws.store(), f), afterOne); // the N is back
    QCOMPARE(page.current(), std::make_optional(std::make_pair(f.t1, 1)));
    QTest::keyClick(&page, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(dump(*ws.store(), f), before); // turn 0 cleared again
    QCOMPARE(page.current(), std::make_optional(std::make_pair(f.t1, 0)));
    QTest::keyClick(&page, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(dump(*ws.store(), f), afterOne);
    QTest::keyClick(&page, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(dump(*ws.store(), f), afterTwo);
    QCOMPARE(page.current(), std::make_optional(std::make_pair(f.t1, 2)));
}

/// The page loads the chooser's run (the newest) when it first shows, and again after a database change: it once
/// showed an empty chooser and a blank card until a run was picked.
void TestAnnotation::loadsTheNewestRunWhenShown()
{
    Fixture f;
    const qint64 second = addSecondRun(f);
    Workspace ws;
    AnnotationPage page(&ws);
    QVERIFY(ws.open(f.path));
    QCOMPARE(page.runId(), 0); // hidden: nothing read yet
    QSignalSpy loaded(&page, &AnnotationPage::loaded);
    page.show();
    QVERIFY(loaded.wait(kWaitMs));
    QCOMPARE(page.runId(), second);
    QVERIFY2(page.cardText().contains(QStringLiteral("u1")) || page.transcriptText().contains(QStringLiteral("u1")),
        qPrintable(page.transcriptText()));
    // Another database while it shows: its newest run.
    Fixture other;
    loaded.clear();
    QVERIFY(ws.open(other.path));
    QVERIFY(loaded.wait(kWaitMs));
    QCOMPARE(page.runId(), other.run);
}

/// Roles a judge gave in an imported file show as that judge's labels (the bundled sample's noisy judge), unless the
/// store holds that judge's label for the turn.
void TestAnnotation::importedJudgeRolesShow()
{
    AnnotationTrajectory t;
    t.info.rowId = 7;
    Turn labelled;
    labelled.role = Role::R;
    labelled.roleSource = "judge:noisy:accuracy=0.8";
    labelled.score = 0.4;
    Turn human = labelled;
    human.roleSource = "human:ana"; // not a judge
    Turn stored = labelled;
    t.trajectory.turns = { labelled, human, stored, Turn {} };
    t.judge.push_back(JudgeLabel { 7, 2, "noisy:accuracy=0.8", Role::D, std::nullopt, std::nullopt, "now" });
    addImportedJudgeRoles(t);
    QCOMPARE(t.judge.size(), std::size_t(2));
    QCOMPARE(t.judge[1].turn, 0);
    QCOMPARE(t.judge[1].judge, std::string("noisy:accuracy=0.8"));
    QVERIFY(t.judge[1].role == Role::R);
    QCOMPARE(t.judge[1].confidence.value_or(-1), 0.4);
}

void TestAnnotation::persistsAcrossReopen()
{
    Fixture f;
    {
        Workspace ws;
        QVERIFY(ws.open(f.path));
        AnnotationPage page(&ws);
        QVERIFY(showRun(page, f.run));
        page.setAnnotator(QStringLiteral("bob"));
        QTest::keyClick(&page, Qt::Key_2);
        QTest::keyClick(&page, Qt::Key_3);
    } // no explicit save anywhere
    Store store(f.path.toStdString());
    QCOMPARE(dump(store, f),
        (QStringList { QStringLiteral("%1:0:bob:E").arg(f.t1), QStringLiteral("%1:1:bob:N").arg(f.t1) }));
    Workspace ws;
    QVERIFY(ws.open(f.path));
    AnnotationPage page(&ws);
    QCOMPARE(page.annotator(), QStringLiteral("bob")); // remembered for the session
    QVERIFY(showRun(page, f.run));
    QVERIFY(page.progressText().startsWith(QStringLiteral("2 / 6")));
    QVERIFY(page.transcriptText().contains(QStringLiteral("[you: E]")));
}

void TestAnnotation::blindHidesJudge()
{
    Fixture f;
    Workspace ws;
    QVERIFY(ws.open(f.path));
    AnnotationPage page(&ws);
    QVERIFY(showRun(page, f.run));
    QVERIFY(page.trajectoryText().contains(QStringLiteral("Goal: goal of t1")));
    const QString shown = page.transcriptText();
    QVERIFY(shown.contains(QStringLiteral("t1-obs0")) && shown.contains(QStringLiteral("t1-act2"))
        && shown.contains(QStringLiteral("t1-fb1")));
    QVERIFY(shown.contains(QStringLiteral("[judge oracle: R (0.2)]")));
    page.setBlind(true);
    QVERIFY(!page.transcriptText().contains(QStringLiteral("judge")));
    QVERIFY(!page.transcriptText().contains(QStringLiteral("oracle")));
    QVERIFY(!page.cardText().contains(QStringLiteral("oracle")));
    QVERIFY(page.transcriptText().contains(QStringLiteral("t1-act1")));
}

void TestAnnotation::jsonlRoundTrip()
{
    Fixture f;
    Workspace ws;
    QVERIFY(ws.open(f.path));
    AnnotationPage page(&ws);
    QVERIFY(showRun(page, f.run));
    page.setAnnotator(QStringLiteral("carol"));
    for (const auto key : { Qt::Key_1, Qt::Key_2, Qt::Key_3, Qt::Key_4 })
        QTest::keyClick(&page, key);
    ws.store()->setHumanLabel(f.t2, 2, "dave", Role::D);
    const QStringList before = dump(*ws.store(), f);
    const QString file = f.dir.filePath(QStringLiteral("labels.jsonl"));
    QString error;
    QVERIFY2(page.exportLabels(file, &error), qPrintable(error));
    QFile in(file);
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QByteArray text = in.readAll();
    QCOMPARE(text.count('\n'), 5);
    QVERIFY(text.contains(R"({"annotator":"carol","role":"R","trajectory":"t2","turn":0})"));
    for (const auto row : { f.t1, f.t2 })
        for (const HumanLabel& h : ws.store()->humanLabels(row))
            ws.store()->clearHumanLabel(row, h.turn, h.annotator);
    QVERIFY(dump(*ws.store(), f).isEmpty());
    QCOMPARE(page.importLabels(file, &error), 5);
    QCOMPARE(dump(*ws.store(), f), before);
    QVERIFY(page.progressText().startsWith(QStringLiteral("4 / 6")));
}

void TestAnnotation::jsonlBadLineImportsNothing()
{
    Fixture f;
    Workspace ws;
    QVERIFY(ws.open(f.path));
    AnnotationPage page(&ws);
    QVERIFY(showRun(page, f.run));
    const QString file = f.dir.filePath(QStringLiteral("bad.jsonl"));
    const auto write = [&](const QByteArray& content) {
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(content);
    };
    const QByteArray good = R"({"trajectory":"t1","turn":0,"annotator":"eve","role":"D"})"
                            "\n\n";
    QString error;
    write(good
        + R"({"trajectory":"t2","turn":1,"annotator":"eve","role":"X"})"
          "\n");
    QCOMPARE(page.importLabels(file, &error), -1);
    QCOMPARE(error, QStringLiteral("bad.jsonl:3: field \"role\": expected one of D, E, N, R"));
    QVERIFY(dump(*ws.store(), f).isEmpty());
    write(good
        + R"({"trajectory":"t2","turn":3,"annotator":"eve","role":"E"})"
          "\n");
    QCOMPARE(page.importLabels(file, &error), -1);
    QVERIFY2(error.startsWith(QStringLiteral("bad.jsonl:3: field \"turn\"")), qPrintable(error));
    write(good
        + R"({"trajectory":"nope","turn":0,"annotator":"eve","role":"E"})"
          "\n");
    QCOMPARE(page.importLabels(file, &error), -1);
    QVERIFY2(error.startsWith(QStringLiteral("bad.jsonl:3: field \"trajectory\"")), qPrintable(error));
    write(good + "{not json\n");
    QCOMPARE(page.importLabels(file, &error), -1);
    QVERIFY2(error.startsWith(QStringLiteral("bad.jsonl:3: not a JSON object")), qPrintable(error));
    QVERIFY(dump(*ws.store(), f).isEmpty());
    write(good);
    QCOMPARE(page.importLabels(file, &error), 1);
    QCOMPARE(dump(*ws.store(), f), QStringList { QStringLiteral("%1:0:eve:D").arg(f.t1) });
}

void TestAnnotation::keysWalkTheWholeQueue()
{
    // Fifty presses in a row, wrapping at the end: every one labels and advances (speed: bench_annotation).
    Fixture f;
    Workspace ws;
    QVERIFY(ws.open(f.path));
    AnnotationPage page(&ws);
    page.resize(900, 600);
    page.show();
    QVERIFY(showRun(page, f.run));
    page.setAnnotator(QStringLiteral("walker"));
    for (int i = 0; i < 50; ++i) {
        if (page.queuePosition() == int(page.queue().size()) - 1)
            page.move(-int(page.queue().size()));
        const int before = page.queuePosition();
        QTest::keyClick(&page, i % 2 ? Qt::Key_D : Qt::Key_2);
        QCOMPARE(page.queuePosition(), before + 1);
    }
}

void TestAnnotation::loadsInBackground()
{
    Fixture f;
    Workspace ws;
    QVERIFY(ws.open(f.path));
    AnnotationPage page(&ws);
    QSignalSpy loaded(&page, &AnnotationPage::loaded);
    page.setRun(f.run);
    // setRun returned without reading the run: nothing shown yet, the page says it is loading.
    QCOMPARE(loaded.count(), 0);
    QVERIFY(page.isLoading());
    QVERIFY(!page.current());
    QVERIFY2(page.transcriptText().startsWith(QStringLiteral("Loading run")), qPrintable(page.transcriptText()));
    page.setAnnotator(QStringLiteral("early"));
    QSignalSpy errors(&page, &AnnotationPage::errorOccurred);
    QTest::keyClick(&page, Qt::Key_1); // nothing to label yet: refused, nothing written
    QCOMPARE(errors.count(), 1);
    QVERIFY(loaded.wait(kWaitMs));
    QCOMPARE(loaded.count(), 1);
    QVERIFY(!page.isLoading());
    QCOMPARE(page.current(), std::make_optional(std::make_pair(f.t1, 0)));
    QVERIFY(page.transcriptText().contains(QStringLiteral("t1-obs0")));
    QVERIFY(dump(*ws.store(), f).isEmpty());
}

void TestAnnotation::staleLoadIsDropped()
{
    Fixture f;
    const qint64 other = addSecondRun(f);
    {
        // The loader alone: two requests in a row, one answer, for the newest.
        AnnotationLoader loader;
        QSignalSpy answers(&loader, &AnnotationLoader::loaded);
        loader.load(f.path, other);
        loader.load(f.path, f.run);
        QVERIFY(answers.wait(kWaitMs));
        QVERIFY(!loader.isBusy()); // nothing else can come
        QCOMPARE(answers.count(), 1);
        const auto data = answers.front().front().value<std::shared_ptr<const AnnotationData>>();
        QCOMPARE(data->runId, f.run);
        QVERIFY(data->error.isEmpty());
        QCOMPARE(data->trajectories.size(), std::size_t(2));
        QCOMPARE(data->trajectories.front().judge.size(), std::size_t(3));
    }
    Workspace ws;
    QVERIFY(ws.open(f.path));
    AnnotationPage page(&ws);
    QSignalSpy loaded(&page, &AnnotationPage::loaded);
    page.setRun(other);
    page.setRun(f.run); // before the first load lands
    QVERIFY(loaded.wait(kWaitMs));
    QVERIFY(!page.isLoading());
    QCOMPARE(loaded.count(), 1);
    QCOMPARE(page.run(), f.run);
    QCOMPARE(page.queue().size(), std::size_t(6));
    QVERIFY(!page.transcriptText().contains(QStringLiteral("u1")));
    // And the other way round: the newest request wins whatever the order.
    QVERIFY(showRun(page, other));
    QCOMPARE(page.queue().size(), std::size_t(2));
    QVERIFY(page.transcriptText().contains(QStringLiteral("u1-obs1")));
    // A missing run is not an error: it has no turns.
    QVERIFY(showRun(page, 9999));
    QVERIFY(page.queue().empty());
    QCOMPARE(page.transcriptText(), QStringLiteral("This run has no turns."));
}

void TestAnnotation::labelDuringReloadSurvives()
{
    Fixture f;
    Workspace ws;
    QVERIFY(ws.open(f.path));
    AnnotationPage page(&ws);
    QVERIFY(showRun(page, f.run));
    page.setAnnotator(QStringLiteral("frank"));
    QTest::keyClick(&page, Qt::Key_Down); // t1 turn 1
    QSignalSpy loaded(&page, &AnnotationPage::loaded);
    ws.notifyRunsChanged(); // a reload in the background; the old snapshot stays usable meanwhile
    QVERIFY(page.isLoading());
    QTest::keyClick(&page, Qt::Key_E); // labels t1 turn 1 while the worker reads
    QCOMPARE(page.current(), std::make_optional(std::make_pair(f.t1, 2)));
    QVERIFY(loaded.wait(kWaitMs));
    QCOMPARE(dump(*ws.store(), f), QStringList { QStringLiteral("%1:1:frank:E").arg(f.t1) });
    QCOMPARE(page.current(), std::make_optional(std::make_pair(f.t1, 2))); // kept across the reload
    QVERIFY2(page.progressText().startsWith(QStringLiteral("1 / 6")), qPrintable(page.progressText()));
    QVERIFY(page.transcriptText().contains(QStringLiteral("[you: E]")));
}

void TestAnnotation::cardWithRoleChips()
{
    Fixture f;
    Workspace ws;
    QVERIFY(ws.open(f.path));
    AnnotationPage page(&ws);
    page.resize(1200, 700);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    QVERIFY(showRun(page, f.run));
    page.setAnnotator(QStringLiteral("gina"));
    // The card holds the current turn only: its action and feedback, the judge's label, no own label yet.
    QVERIFY2(
        page.cardText().startsWith(QStringLiteral("Turn 1 of 3\nYou: not labelled\n")), qPrintable(page.cardText()));
    QVERIFY(page.cardText().contains(QStringLiteral("t1-act0")) && page.cardText().contains(QStringLiteral("t1-fb0")));
    QVERIFY(!page.cardText().contains(QStringLiteral("t1-act1")));
    QVERIFY(page.cardText().contains(QStringLiteral("oracle: D (0.9)")));
    // Four chips with the fixed role colours and the TRIAGE definitions; none checked: the judge's D is not "yours".
    for (const Role role : { Role::D, Role::E, Role::N, Role::R }) {
        QPushButton* chip = page.roleChip(role);
        QVERIFY(chip && chip->isVisible() && chip->isCheckable());
        QVERIFY(!chip->isChecked());
        QVERIFY2(
            chip->styleSheet().contains(colours::role(roleName(role).front()).name()), qPrintable(chip->styleSheet()));
        QVERIFY(chip->toolTip().size() > 60);
    }
    QVERIFY(page.roleChip(Role::E)->text().contains(QStringLiteral("useful exploration")));
    QVERIFY(page.roleChip(Role::R)->toolTip().contains(QStringLiteral("regression")));
    // A click labels and moves on, as the key does.
    QTest::mouseClick(page.roleChip(Role::E), Qt::LeftButton);
    QCOMPARE(dump(*ws.store(), f), QStringList { QStringLiteral("%1:0:gina:E").arg(f.t1) });
    QCOMPARE(page.current(), std::make_optional(std::make_pair(f.t1, 1)));
    QVERIFY(!page.roleChip(Role::E)->isChecked());
    // Back on the labelled turn: the own label is the filled chip and the badge, in its role colour; the judge's
    // label stays in its own box.
    QTest::keyClick(&page, Qt::Key_Up);
    QVERIFY(page.roleChip(Role::E)->isChecked());
    QVERIFY(!page.roleChip(Role::D)->isChecked());
    auto* badge = page.findChild<QLabel*>(QStringLiteral("annotationOwnLabel"));
    QVERIFY(badge);
    QCOMPARE(badge->text(), QStringLiteral("You: E · useful exploration"));
    QCOMPARE(badge->palette().color(QPalette::Window), colours::role('E'));
    auto* judges = page.findChild<QLabel*>(QStringLiteral("annotationJudgeLabels"));
    QVERIFY(judges && judges->text().contains(QStringLiteral("oracle: D"))
        && !judges->text().contains(QStringLiteral("gina")));
    // Without an annotator a click is refused and leaves no chip checked.
    page.setAnnotator(QString());
    QTest::mouseClick(page.roleChip(Role::R), Qt::LeftButton);
    QVERIFY(!page.roleChip(Role::R)->isChecked());
    QCOMPARE(dump(*ws.store(), f).size(), 1);
}

void TestAnnotation::blindHidesOutcomeAndReward()
{
    Fixture f;
    Workspace ws;
    QVERIFY(ws.open(f.path));
    AnnotationPage page(&ws);
    QVERIFY(showRun(page, f.run));
    QVERIFY2(page.trajectoryText().contains(QStringLiteral("success · reward 1")), qPrintable(page.trajectoryText()));
    page.setBlind(true);
    QVERIFY(page.blind());
    for (const QString& text : { page.trajectoryText(), page.transcriptText(), page.cardText() }) {
        QVERIFY2(!text.contains(QStringLiteral("success")) && !text.contains(QStringLiteral("failure"))
                && !text.contains(QStringLiteral("reward")),
            qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("oracle")));
    }
    QVERIFY(page.trajectoryText().contains(QStringLiteral("Goal: goal of t1")));
    page.move(3); // t2, a failure
    QVERIFY(!page.trajectoryText().contains(QStringLiteral("failure")));
    page.setBlind(false);
    QVERIFY(page.trajectoryText().contains(QStringLiteral("failure · reward 0")));
}

void TestAnnotation::trajectoryBandAndBoundary()
{
    Fixture f;
    Workspace ws;
    QVERIFY(ws.open(f.path));
    AnnotationPage page(&ws);
    QVERIFY(showRun(page, f.run));
    page.setAnnotator(QStringLiteral("hal"));
    QVERIFY2(
        page.trajectoryText().startsWith(QStringLiteral("Trajectory 1 of 2 · t1")), qPrintable(page.trajectoryText()));
    QCOMPARE(page.trajectoryProgressText(), QStringLiteral("Turn 1 of 3 · 0 labelled"));
    QTest::keyClick(&page, Qt::Key_1);
    QTest::keyClick(&page, Qt::Key_2);
    QCOMPARE(page.trajectoryProgressText(), QStringLiteral("Turn 3 of 3 · 2 labelled"));
    // The last turn says that the queue leaves the trajectory; the transcript marks its end.
    QVERIFY2(page.cardText().contains(QStringLiteral("moves on to trajectory 2 of 2 (turn 1)")),
        qPrintable(page.cardText()));
    QVERIFY(page.transcriptText().endsWith(QStringLiteral("— end of trajectory 1 of 2 —")));
    QVERIFY(!page.transcriptText().contains(QStringLiteral("t2-act")));
    QTest::keyClick(&page, Qt::Key_3);
    QVERIFY(page.trajectoryText().startsWith(QStringLiteral("Trajectory 2 of 2 · t2")));
    QCOMPARE(page.trajectoryProgressText(), QStringLiteral("Turn 1 of 3 · 0 labelled"));
    QVERIFY(!page.transcriptText().contains(QStringLiteral("t1-act")));
    QVERIFY(page.progressText().startsWith(QStringLiteral("3 / 6")));
}

void TestAnnotation::skipFlagCommentPersist()
{
    Fixture f;
    {
        Workspace ws;
        QVERIFY(ws.open(f.path));
        AnnotationPage page(&ws);
        page.resize(1200, 700);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(showRun(page, f.run));
        page.setAnnotator(QStringLiteral("ivy"));
        page.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&page));
        page.setFocus();
        QTest::keyClick(&page, Qt::Key_S); // skip t1 turn 1: a note, no label, and on to the next
        QCOMPARE(page.current(), std::make_optional(std::make_pair(f.t1, 1)));
        QVERIFY(dump(*ws.store(), f).isEmpty());
        QTest::keyClick(&page, Qt::Key_F); // flag t1 turn 2, stay
        QCOMPARE(page.current(), std::make_optional(std::make_pair(f.t1, 1)));
        QVERIFY(page.currentNote().flagged);
        QVERIFY(page.findChild<QPushButton*>(QStringLiteral("annotationFlag"))->isChecked());
        // C goes to the comment; Return keeps it and gives the keys back to the page.
        QTest::keyClick(&page, Qt::Key_C);
        auto* comment = page.findChild<QLineEdit*>(QStringLiteral("annotationComment"));
        QVERIFY(comment && comment->hasFocus());
        QTest::keyClicks(comment, QStringLiteral("looks redundant"));
        QTest::keyClick(comment, Qt::Key_Return);
        QVERIFY(!comment->hasFocus());
        QCOMPARE(page.currentNote().comment, std::string("looks redundant"));
        QVERIFY2(page.trajectoryProgressText().endsWith(QStringLiteral("0 labelled · 1 skipped · 1 flagged")),
            qPrintable(page.trajectoryProgressText()));
        QVERIFY(page.transcriptText().contains(QStringLiteral("skipped")));
        QVERIFY(page.transcriptText().contains(QStringLiteral("⚑ flagged")));
        QVERIFY(page.transcriptText().contains(QStringLiteral("“looks redundant”")));
        // Undo takes the comment back off, then the flag; redo puts them back.
        page.undoStack()->undo();
        QCOMPARE(page.currentNote().comment, std::string());
        page.undoStack()->undo();
        QVERIFY(!page.currentNote().flagged);
        page.undoStack()->redo();
        page.undoStack()->redo();
        QVERIFY(page.currentNote().flagged && page.currentNote().comment == "looks redundant");
        // Labelling a skipped turn counts it as labelled, not skipped.
        QTest::keyClick(&page, Qt::Key_D);
        page.move(-2);
        QTest::keyClick(&page, Qt::Key_N);
        QVERIFY2(page.trajectoryProgressText().endsWith(QStringLiteral("2 labelled · 1 flagged")),
            qPrintable(page.trajectoryProgressText()));
        page.move(-1);
        page.setCurrentFlagged(false); // not flagged: nothing to write
        QVERIFY(page.setCurrentComment(QStringLiteral("wait")));
        QTest::keyClick(&page, Qt::Key_S); // skipped already: only moves on
        QCOMPARE(page.current(), std::make_optional(std::make_pair(f.t1, 1)));
    } // no explicit save anywhere
    Store store(f.path.toStdString());
    const std::vector<HumanNote> notes = humanNotes(store, f.t1);
    QCOMPARE(notes.size(), std::size_t(2));
    QVERIFY(notes[0].turn == 0 && notes[0].skipped && !notes[0].flagged && notes[0].comment == "wait");
    QVERIFY(notes[1].turn == 1 && !notes[1].skipped && notes[1].flagged && notes[1].comment == "looks redundant");
    Workspace ws;
    QVERIFY(ws.open(f.path));
    AnnotationPage page(&ws);
    page.setAnnotator(QStringLiteral("ivy"));
    QVERIFY(showRun(page, f.run));
    QCOMPARE(page.currentNote().comment, std::string("wait"));
    QCOMPARE(page.findChild<QLineEdit*>(QStringLiteral("annotationComment"))->text(), QStringLiteral("wait"));
    page.move(1);
    QVERIFY(page.currentNote().flagged);
}

void TestAnnotation::observationShownOnlyWhenNew()
{
    Turn first;
    first.observation = "You are in a room.";
    first.feedback = "You arrive at drawer 1.";
    Turn same;
    same.observation = " You arrive at drawer 1.\n";
    Turn more;
    more.observation = "You arrive at drawer 1. Available: open, look";
    Turn other;
    other.observation = "Something else.";
    Turn silent; // no feedback: the next observation is new
    silent.observation = "x";
    QCOMPARE(newObservation(nullptr, first), QStringLiteral("You are in a room."));
    QCOMPARE(newObservation(&first, same), QString());
    QCOMPARE(newObservation(&first, more), QStringLiteral("Available: open, look"));
    QCOMPARE(newObservation(&first, other), QStringLiteral("Something else."));
    QCOMPARE(newObservation(&silent, other), QStringLiteral("Something else."));

    // A run as household writes it: each observation is the previous feedback. Each text appears once.
    Fixture f;
    qint64 run = 0;
    {
        Store store(f.path.toStdString());
        run = store.createRun(NewRun { "echo", RunKind::Import, RunStatus::Finished, {} });
        Trajectory t;
        t.id = "echo";
        t.group = "g";
        t.reward = 1.0;
        const std::vector<std::string> feedback { "You arrive at drawer 1.", "The drawer 1 is open.", "You take it." };
        for (int k = 0; k < 3; ++k) {
            Turn turn;
            turn.observation = k == 0 ? "Welcome. Your task is to take it." : feedback[std::size_t(k) - 1];
            turn.action = "act" + std::to_string(k);
            turn.feedback = feedback[std::size_t(k)];
            t.turns.push_back(turn);
        }
        store.insertTrajectory(run, 0, t);
    }
    Workspace ws;
    QVERIFY(ws.open(f.path));
    AnnotationPage page(&ws);
    QVERIFY(showRun(page, run));
    const QString text = page.transcriptText();
    QCOMPARE(text.count(QStringLiteral("You arrive at drawer 1.")), 1);
    QCOMPARE(text.count(QStringLiteral("The drawer 1 is open.")), 1);
    QCOMPARE(text.count(QStringLiteral("Observation:")), 1); // the first turn's
    QVERIFY(text.contains(QStringLiteral("Welcome. Your task is to take it.")));
    page.move(1);
    QVERIFY(!page.cardText().contains(QStringLiteral("Observation")));
    QVERIFY(page.cardText().contains(QStringLiteral("act1"))
        && page.cardText().contains(QStringLiteral("The drawer 1 is open.")));
}

void TestAnnotation::turnsCountFromOne()
{
    Fixture f;
    Workspace ws;
    QVERIFY(ws.open(f.path));
    AnnotationPage page(&ws);
    QVERIFY(showRun(page, f.run));
    page.setAnnotator(QStringLiteral("jo"));
    const QString text = page.transcriptText();
    QVERIFY(text.startsWith(QStringLiteral("Turn 1 ")));
    QVERIFY(text.contains(QStringLiteral("Turn 3 ")) && !text.contains(QStringLiteral("Turn 0")));
    QVERIFY(page.cardText().startsWith(QStringLiteral("Turn 1 of 3")));
    QTest::keyClick(&page, Qt::Key_D);
    QCOMPARE(page.undoStack()->undoText(), QStringLiteral("Label turn 1 as D"));
    QTest::keyClick(&page, Qt::Key_F);
    QCOMPARE(page.undoStack()->undoText(), QStringLiteral("Flag turn 2"));
}

/// Issue 38: blind mode hid the judges' labels but "TRIAGE conflict cells first" still put the turns the judge
/// labelled R in a success (or E in a failure) first, so the order told the annotator what the judge thought. Blind,
/// the queue is Sequential and no order that reads the judge, the outcome or the credits can be picked.
QTEST_MAIN(TestAnnotation)
#include "tst_ui_annotation.moc"
