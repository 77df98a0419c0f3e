// Data text is shown as plain text everywhere (issue 22 §8): a database whose every text field carries markup (a run
// posted by someone else's trainer, a file someone sent) is opened on every page, and no label, tooltip, item
// tooltip or text view renders that markup: each shows it literally, or escaped for a rich-text tooltip.
#include "core/storage/humannote.h"
#include "core/storage/store.h"
#include "tests/ui/launchtestutil.h"
#include "ui/agreement/agreementpage.h"
#include "ui/annotate/annotationpage.h"
#include "ui/compare/comparepage.h"
#include "ui/credit/creditpage.h"
#include "ui/monitor/monitorpage.h"
#include "ui/runs/runbrowserpage.h"
#include "ui/shell/mainwindow.h"
#include "ui/trees/treepage.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextEdit>
#include <QtTest>

using namespace creditlab;
using namespace creditlab::ui;
using namespace creditlab::ui::testing;

namespace {

/// What a hostile or careless source may put in any text field.
const std::string kMarkup = "<b>MARKUP</b><img src=\"x.png\"><a href=\"http://example.com/\">link</a>";
/// Seen in a widget only when the markup was NOT rendered (plain text, or escaped for a tooltip).
const QString kLiteral = QStringLiteral("<b>MARKUP</b>");
/// Seen in a widget's plain text when the markup was rendered: the bold text without its tags.
const QString kWord = QStringLiteral("MARKUP");

std::string marked(const std::string& what) { return what + " " + kMarkup; }

/// A run with markup in its name, tags, config, ids, groups, task, every turn text, labels, notes and metric names.
qint64 hostileRun(const QString& db)
{
    Store store(db.toStdString());
    auto tx = store.begin();
    const qint64 id = store.createRun({ marked("run"), RunKind::Import, RunStatus::Finished, marked("source") });
    store.setRunTags(id, marked("tag"));
    store.setRunConfig(id, "yaml", "name: " + marked("config") + "\n");
    for (int i = 0; i < 8; ++i) {
        Trajectory t;
        t.id = marked("traj" + std::to_string(i));
        t.group = marked("group" + std::to_string(i / 4));
        t.task.key = marked("task");
        t.task.goal = marked("goal");
        t.reward = i % 2;
        t.iteration = 0;
        for (int k = 0; k < 3; ++k) {
            Turn u;
            u.observation = marked("observation " + std::to_string(k));
            u.action = marked("action " + std::to_string(k));
            u.feedback = marked("feedback");
            u.state = marked("state " + std::to_string(k));
            u.role = k == 0 ? Role::D : Role::N;
            u.roleSource = "judge:" + marked("judge");
            u.credits = { { "grpo", i % 2 ? 0.5 : -0.5 }, { "gigpo", i % 2 ? 0.25 : -0.75 } };
            t.turns.push_back(u);
        }
        const std::int64_t row = store.insertTrajectory(id, i, t);
        store.setHumanLabel(row, 0, "me", Role::E);
        JudgeLabel j;
        j.trajectoryRowId = row;
        j.turn = 1;
        j.judge = "noisy";
        j.role = Role::R;
        j.rationale = marked("rationale");
        store.setJudgeLabel(j);
        setHumanNote(store, HumanNote { row, 0, "me", true, false, marked("comment"), {} });
    }
    const std::vector<std::pair<std::string, double>> metrics { { "eval/success", 0.5 }, { marked("custom"), 1.0 } };
    store.writeMetrics(id, 0, metrics);
    store.writeMetrics(id, 1, metrics);
    tx->commit();
    return id;
}

/// Every place in `window` that shows text, checked; returns what renders markup (empty: none).
QStringList renderedMarkup(QWidget* window)
{
    QStringList bad;
    auto describe = [](const QObject* o) {
        QString path;
        for (const QObject* p = o; p; p = p->parent())
            path.prepend(QString::fromLatin1(p->metaObject()->className()) + "/");
        return path + o->objectName();
    };
    for (QLabel* label : window->findChildren<QLabel*>()) {
        const QString text = label->text();
        if (text.contains(kLiteral) && label->textFormat() != Qt::PlainText
            && (label->textFormat() == Qt::RichText || Qt::mightBeRichText(text)))
            bad << QStringLiteral("label %1: %2").arg(describe(label), text.left(120));
    }
    for (QWidget* w : window->findChildren<QWidget*>())
        if (w->toolTip().contains(kLiteral))
            bad << QStringLiteral("tooltip of %1: %2").arg(describe(w), w->toolTip().left(120));
    for (QTextEdit* edit : window->findChildren<QTextEdit*>()) {
        const QString plain = edit->toPlainText();
        if (plain.contains(kWord) && !plain.contains(kLiteral))
            bad << QStringLiteral("text view %1 renders markup").arg(describe(edit));
    }
    auto checkModel = [&](const QAbstractItemModel* model, const QString& where) {
        if (!model)
            return;
        const int rows = std::min(model->rowCount(), 200);
        const int cols = std::min(model->columnCount(), 40);
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) {
                const QString tip = model->data(model->index(r, c), Qt::ToolTipRole).toString();
                if (tip.contains(kLiteral))
                    bad << QStringLiteral("item tooltip in %1 (%2, %3): %4").arg(where).arg(r).arg(c).arg(tip.left(120));
            }
        for (int c = 0; c < cols; ++c) {
            const QString tip = model->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString();
            if (tip.contains(kLiteral))
                bad << QStringLiteral("header tooltip in %1: %2").arg(where, tip.left(120));
        }
    };
    for (QAbstractItemView* view : window->findChildren<QAbstractItemView*>())
        checkModel(view->model(), describe(view));
    for (QComboBox* combo : window->findChildren<QComboBox*>())
        checkModel(combo->model(), describe(combo));
    return bad;
}

} // namespace

class TestUiPlainText : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void markupInDataIsNeverRendered();
};

void TestUiPlainText::markupInDataIsNeverRendered()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("hostile.db"));
    const qint64 id = hostileRun(db);
    MainWindow window(testSettings(dir));
    window.resize(1600, 1000);
    window.show();
    QVERIFY(window.openDatabase(db));
    QVERIFY(window.runBrowser()->selectRun(id));
    window.monitor()->showRun(id);
    window.compare()->setRuns({ id });
    window.credit()->showRun(id, 0);
    window.trees()->showRun(id);
    window.annotation()->setRun(id);
    window.agreement()->setRun(id);
    // Each page shown in turn, given time to load in the background.
    for (int page = 0; page < window.tabs()->count(); ++page) {
        window.tabs()->setCurrentIndex(page);
        QTest::qWait(400);
    }
    QTRY_COMPARE_WITH_TIMEOUT(window.credit()->runId(), id, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(window.trees()->runId(), id, 10000);
    QTest::qWait(500);
    // The data did reach the pages: the test sees the markup's literal text somewhere, or it proves nothing.
    int shown = 0;
    for (QLabel* label : window.findChildren<QLabel*>())
        shown += label->text().contains(kLiteral) ? 1 : 0;
    for (QAbstractItemView* view : window.findChildren<QAbstractItemView*>())
        if (const QAbstractItemModel* m = view->model(); m && m->rowCount() > 0)
            shown += m->data(m->index(0, 0)).toString().contains(kLiteral) ? 1 : 0;
    QVERIFY2(shown >= 3, qPrintable(QStringLiteral("markup shown in only %1 places").arg(shown)));
    const QStringList bad = renderedMarkup(&window);
    for (const QString& b : bad)
        qWarning("%s", qPrintable(b.left(300)));
    QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QLatin1Char('\n'))));
}

QTEST_MAIN(TestUiPlainText)
#include "tst_ui_plaintext.moc"
