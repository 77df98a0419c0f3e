// The Monitor page on runs launched from the window, offscreen: SFT's curves and one-value metrics while it trains,
// the phases, the shared x axis, the wheel (scroll) and Ctrl+wheel (zoom), an ETA without paused time, and a run of
// two processes (creditlab-cli train --nproc 2) started from the launcher and followed through the database. The
// worker's throttle never drops a report that changes the phase shown (issue 38).
#include "core/credit/estimator.h"
#include "core/learn/api/backend.h"
#include "core/learn/api/trainconfig.h"
#include "core/storage/store.h"
#include "tests/core/fake_chat_server.h"
#include "tests/core/remote_test_server.h"
#include "tests/learn/tinyconfig.h"
#include "tests/ui/launchtestutil.h"
#include "ui/charts/linechart.h"
#include "ui/common/csvexport.h"
#include "ui/common/sortfilterproxymodel.h"
#include "ui/launch/launcherpage.h"
#include "ui/launch/paramform.h"
#include "ui/launch/progressthrottle.h"
#include "ui/launch/runcontroller.h"
#include "ui/monitor/monitorcharts.h"
#include "ui/monitor/monitorpage.h"
#include "ui/runs/runactions.h"
#include "ui/runs/runbrowserpage.h"
#include "ui/runs/runmodel.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/settings.h"
#include "ui/shell/workspace.h"

#include <QAbstractItemModelTester>
#include <QChartView>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QWheelEvent>
#include <QtTest/qtestspontaneevent.h>
#include <QtTest>

#include <span>

using namespace creditlab;
using namespace creditlab::ui;

using namespace creditlab::ui::testing;

class TestMonitor : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void monitorShowsSftNumbersAndSharedAxes();
    void monitorWheelScrollsCtrlWheelZooms();
    void throttleKeepsThePhaseShown();
    void etaLeavesOutPausedTime();
    void dataParallelRunFollowedFromTheDatabase();
    void dataParallelRunStops();
    void dataParallelRunTerminated();
};

void TestMonitor::initTestCase()
{
    // The launcher looks for creditlab-cli as it is built (the test binaries are not beside it when installed).
    qputenv("CREDITLAB_CLI", CREDITLAB_CLI_PATH);
    // Each window loads the training module (LibTorch) in the background 500 ms after it shows. dlopen holds glibc's
    // loader lock through LibTorch's relocation (seconds under load), and the GUI thread waits for that lock whenever
    // it starts a thread: a test's steps could stall for as long, past the 5 s of a plain QTRY. Loaded once here,
    // the windows find it loaded (learn::trainingBackend() keeps it).
    try {
        learn::trainingBackend();
    } catch (const std::exception& e) {
        qWarning("the training module did not load: %s", e.what()); // the tests that train report it
    }
}

void TestMonitor::monitorShowsSftNumbersAndSharedAxes()
{
    // Issue 20 §9 on a run of another process, step by step as its trainer writes: SFT's per-step curves while SFT
    // trains (the Monitor was blank), one-point metrics as numbers (not empty axes), the phase, and the eval chart
    // (from iteration 0) on the same x range as the rollout charts (from iteration 1).
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    MainWindow window(testSettings(dir));
    QVERIFY(window.openDatabase(db));
    const qint64 id = createRunningRun(db, 3);
    {
        Store store(db.toStdString());
        std::vector<MetricPoint> sft;
        for (std::int64_t step = 1; step <= 5; ++step) {
            sft.push_back({ step, "sft/loss", 2.0 / static_cast<double>(step) });
            sft.push_back({ step, "sft/token_accuracy", 0.1 * static_cast<double>(step) });
        }
        store.writeSftMetrics(id, sft);
    }
    MonitorPage* monitor = window.monitor();
    MonitorCharts* sections = monitor->sections();
    monitor->showRun(id);
    QCOMPARE(monitor->phaseText(), QStringLiteral("SFT"));
    QVERIFY(sections->sftChart(QStringLiteral("sft/loss")));
    QCOMPARE(sections->sftChart(QStringLiteral("sft/loss"))->pointCount(0), 5);
    QCOMPARE(sections->sftPointCount(QStringLiteral("sft/token_accuracy")), 5);
    QVERIFY(monitor->metricNames().isEmpty());
    {
        Store store(db.toStdString()); // two more steps, then SFT's summary and first evaluation
        store.writeSftMetrics(id, std::vector<MetricPoint> { { 6, "sft/loss", 0.3 }, { 7, "sft/loss", 0.25 } });
        store.writeMetrics(id, 0,
            Values { { "eval/success", 0.25 }, { "time/sft_s", 12.5 }, { "sft/loss", 0.25 },
                { "sft/demonstrations", 40.0 }, { "sft/tokens", 152530.0 } });
    }
    window.workspace()->notifyRunsChanged();
    QCOMPARE(sections->sftPointCount(QStringLiteral("sft/loss")), 7);
    QCOMPARE(monitor->phaseText(), QStringLiteral("RL"));
    QCOMPARE(sections->numberText(QStringLiteral("time/sft_s")), QStringLiteral("12.5 s"));
    QCOMPARE(sections->numberText(QStringLiteral("sft/demonstrations")), QStringLiteral("40"));
    QCOMPARE(sections->numberText(QStringLiteral("sft/tokens")), QLocale().toString(152530)); // a count, in full
    QCOMPARE(sections->numberText(QStringLiteral("eval/success")), QStringLiteral("0.25"));
    QVERIFY(!monitor->chart(QStringLiteral("time/sft_s"))); // one value: no empty axes
    QCOMPARE(monitor->pointCount(QStringLiteral("eval/success")), 1);
    {
        Store store(db.toStdString());
        store.writeMetrics(
            id, 1, Values { { "eval/success", 0.5 }, { "rollout/success", 0.25 }, { "time/total_s", 4.0 } });
        store.writeMetrics(
            id, 2, Values { { "eval/success", 0.75 }, { "rollout/success", 0.5 }, { "time/total_s", 5.0 } });
    }
    window.workspace()->notifyRunsChanged();
    charts::LineChart* eval = monitor->chart(QStringLiteral("eval/success"));
    charts::LineChart* rollout = monitor->chart(QStringLiteral("rollout/success"));
    QVERIFY(eval && rollout);
    QVERIFY(sections->numberText(QStringLiteral("eval/success")).isEmpty()); // a curve now
    QCOMPARE(sections->numberText(QStringLiteral("time/sft_s")), QStringLiteral("12.5 s"));
    QCOMPARE(eval->smoothing(), charts::kDefaultSmoothing);
    eval->redrawNow();
    rollout->redrawNow();
    QCOMPARE(eval->visibleRange().left(), 0.0);
    QCOMPARE(rollout->visibleRange().left(), 0.0); // where the eval curve starts, not at 1
    QCOMPARE(rollout->visibleRange().right(), eval->visibleRange().right());
    QCOMPARE(monitor->findChild<QLabel*>(QStringLiteral("monitorPhase"))->text(), QStringLiteral("RL"));
    {
        Store store(db.toStdString());
        store.setRunStatus(id, RunStatus::Finished);
    }
    window.workspace()->notifyRunsChanged();
    QCOMPARE(monitor->phaseText(), QStringLiteral("Finished"));
}

void TestMonitor::monitorWheelScrollsCtrlWheelZooms()
{
    // Issue 20 §9: the wheel over a chart scrolls the Monitor (it zoomed the chart, and a page of charts could not be
    // scrolled from one); Ctrl+wheel zooms, and the other charts follow its x range.
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    MainWindow window(testSettings(dir));
    QVERIFY(window.openDatabase(db));
    const qint64 id = createRunningRun(db, 20);
    {
        Store store(db.toStdString());
        for (std::int64_t it = 0; it <= 20; ++it) {
            Values values;
            for (int m = 0; m < 12; ++m)
                values.emplace_back("train/m" + std::to_string(m), static_cast<double>(it * m));
            store.writeMetrics(id, it, values);
        }
    }
    window.resize(1280, 720);
    window.show();
    window.tabs()->setCurrentWidget(window.monitor());
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.monitor()->showRun(id);
    charts::LineChart* first = window.monitor()->chart(QStringLiteral("train/m0"));
    charts::LineChart* other = window.monitor()->chart(QStringLiteral("train/m11"));
    QVERIFY(first && other);
    auto* view = first->findChild<QChartView*>();
    QScrollBar* bar = window.monitor()->sections()->scrollArea()->verticalScrollBar();
    // Wait for the page's layout to settle (the scroll range and the chart's plot area come with posted layout
    // events), and only then take the point to turn the wheel at: it was taken before the layout had run, and the
    // wait had the 5 s of a plain QTRY, which a stalled GUI thread could use up.
    QTRY_VERIFY_WITH_TIMEOUT(bar->maximum() > 0 && view->chart()->plotArea().width() > 50, 30000);
    first->redrawNow();
    const QPoint centre = view->mapFromScene(view->chart()->plotArea().center());
    QVERIFY(view->viewport()->rect().contains(centre));
    const int before = bar->value();
    const auto wheel = [&](Qt::KeyboardModifiers mods) {
        QWheelEvent event(QPointF(centre), QPointF(view->viewport()->mapToGlobal(centre)), QPoint(), QPoint(0, -240),
            Qt::NoButton, mods, Qt::NoScrollPhase, false);
        QSpontaneKeyEvent::setSpontaneous(&event); // as from the window system: an ignored one propagates
        qApp->notify(view->viewport(), &event);
    };
    wheel(Qt::NoModifier);
    QVERIFY(!first->isZoomed());
    QVERIFY2(bar->value() > before, "the wheel scrolls the page");
    const int scrolled = bar->value();
    wheel(Qt::ControlModifier); // zoom out a little from the fitted view... then in:
    QVERIFY(first->isZoomed());
    QCOMPARE(bar->value(), scrolled);
    QVERIFY(other->isZoomed()); // the shared x zoom
    QCOMPARE(other->visibleRange().left(), first->visibleRange().left());
    QCOMPARE(other->visibleRange().right(), first->visibleRange().right());
}

/// Issue 38: the worker sends at most one report per 100 ms within a phase, and dropped the rest: SFT's summary (the
/// report after which the Monitor shows RL) came within 100 ms of the last SFT step and was lost, so the Monitor said
/// "SFT" until the first RL iteration ended, minutes later. Reports that change what the phase line shows always
/// pass; the others are still thinned out.
void TestMonitor::throttleKeepsThePhaseShown()
{
    struct Report {
        Phase phase;
        bool metrics;
        int ms;
    };
    // SFT steps 10 ms apart, its summary, an evaluation, RL iterations, a wait for a server, a burst of evaluations.
    const std::vector<Report> reports { { Phase::Sft, false, 0 }, { Phase::Sft, false, 10 }, { Phase::Sft, false, 20 },
        { Phase::Sft, true, 30 }, { Phase::Eval, false, 35 }, { Phase::Eval, false, 40 }, { Phase::Rl, true, 50 },
        { Phase::Rl, true, 55 }, { Phase::Waiting, false, 60 }, { Phase::Waiting, false, 61 }, { Phase::Rl, true, 62 },
        { Phase::Eval, false, 63 }, { Phase::Eval, false, 64 }, { Phase::Eval, false, 300 } };
    ProgressThrottle throttle;
    const auto start = ProgressThrottle::Clock::time_point {};
    std::vector<bool> passed;
    std::optional<std::pair<Phase, bool>> shown;
    for (const Report& r : reports) {
        passed.push_back(throttle.admit(r.phase, r.metrics, start + std::chrono::milliseconds(r.ms)));
        if (passed.back())
            shown = std::pair(r.phase, r.metrics);
        // After every report the last one sent says what that report says: the phase line is never behind.
        QVERIFY(shown == std::pair(r.phase, r.metrics));
    }
    // Thinned out: SFT steps 2 and 3, the second evaluation report of a burst, but not one 300 ms later.
    QCOMPARE(passed,
        (std::vector<bool> { true, false, false, true, true, false, true, true, true, true, true, true, false, true }));

    // On the Monitor: SFT steps, then its summary 10 ms later, through the throttle as the worker sends them.
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    MainWindow window(testSettings(dir));
    QVERIFY(window.openDatabase(db));
    const qint64 id = createRunningRun(db, 3);
    MonitorPage* monitor = window.monitor();
    monitor->showRun(id);
    ProgressThrottle worker;
    for (int step = 1; step <= 3; ++step) {
        RunProgress p;
        p.runId = id;
        p.phase = Phase::Sft;
        p.step = step;
        p.steps = 3;
        p.iterations = 3;
        if (step == 3)
            p.metrics = { { QStringLiteral("time/sft_s"), 1.5 } }; // the summary: RL begins
        if (worker.admit(p.phase, !p.metrics.empty(), start + std::chrono::milliseconds(10 * step)))
            Q_EMIT window.runController()->progressed(p);
    }
    QCOMPARE(monitor->phaseText(), QStringLiteral("RL"));
}

void TestMonitor::etaLeavesOutPausedTime()
{
    // Issue 20 §9: a run paused for a while reported the pause as training time, so its ETA grew by the pause times
    // the iterations left. Paused between iterations for 3 s, the elapsed time the trainer reports grows by the
    // iterations' time only.
    QTemporaryDir dir;
    MainWindow window(testSettings(dir));
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    QVERIFY(window.openDatabase(db));
    QString error;
    QVERIFY(window.launcher()->loadConfigText(tinyConfig(4), QStringLiteral("tiny.yaml"), &error));
    RunController* controller = window.runController();
    struct Report {
        qint64 iteration;
        double elapsed;
        double wall;
    };
    std::vector<Report> reports;
    QElapsedTimer clock;
    clock.start();
    bool pauseAsked = false;
    connect(controller, &RunController::progressed, this, [&](const RunProgress& p) {
        if (p.phase != Phase::Rl || p.metrics.empty())
            return;
        reports.push_back({ p.iteration, p.elapsedSeconds, static_cast<double>(clock.elapsed()) / 1000.0 });
        if (!pauseAsked) { // after the first iteration: pause at the trainer's next report
            pauseAsked = true;
            controller->pause();
        }
    });
    QSignalSpy paused(controller, &RunController::pausedChanged);
    QSignalSpy finished(controller, &RunController::runFinished);
    QVERIFY2(window.launcher()->startRun(&error), qPrintable(error));
    QVERIFY(paused.wait(kRunWaitMs));
    QCOMPARE(paused.last().first().toBool(), true);
    QCOMPARE(window.monitor()->phaseText(), QStringLiteral("Paused"));
    QTest::qWait(3000);
    controller->resume();
    QVERIFY(finished.wait(kRunWaitMs));
    QCOMPARE(finished.last().at(1).value<RunStatus>(), RunStatus::Finished);
    QCOMPARE(window.monitor()->phaseText(), QStringLiteral("Finished"));
    QVERIFY(reports.size() >= 2);
    const Report& a = reports.front();
    const Report& b = reports.back();
    const double wall = b.wall - a.wall;
    const double elapsed = b.elapsed - a.elapsed;
    QVERIFY2(wall >= 3.0, qPrintable(QString::number(wall)));
    QVERIFY2(elapsed < wall - 2.0,
        qPrintable(QStringLiteral("elapsed %1 s over %2 s of wall time with 3 s paused").arg(elapsed).arg(wall)));
}

void TestMonitor::dataParallelRunFollowedFromTheDatabase()
{
    // Issue 36: Processes 2 on the launcher starts `creditlab-cli train --nproc 2`; the Monitor shows the run its rank
    // 0 writes, with "2 ranks" and the curves, until it finishes; the database has dist/ranks = 2 on every iteration.
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    MainWindow window(testSettings(dir));
    QVERIFY(window.openDatabase(db));
    window.show();
    QString error;
    QVERIFY(window.launcher()->loadConfigText(tinyConfig(3), QStringLiteral("tiny.yaml"), &error));
    QSpinBox* processes = window.launcher()->processesSpin();
    QVERIFY(processes->isEnabled());
    QCOMPARE(processes->value(), 1);
    processes->setValue(2);
    QVERIFY(window.launcher()
                ->findChild<QLabel*>(QStringLiteral("launchSummary"))
                ->text()
                .contains(QStringLiteral("2 processes")));
    RunController* controller = window.runController();
    QSignalSpy started(controller, &RunController::runStarted);
    QSignalSpy finished(controller, &RunController::runFinished);
    QSignalSpy failed(controller, &RunController::runFailed);
    QVERIFY2(window.launcher()->startRun(&error), qPrintable(error));
    QVERIFY(controller->isExternal());
    QCOMPARE(window.monitor()->ranksText(), QStringLiteral("2 ranks")); // before the CLI has made the run's row
    QVERIFY(started.count() == 1 || started.wait(kRunWaitMs));
    const qint64 runId = started.first().first().toLongLong();
    QVERIFY(runId > 0);
    QCOMPARE(window.monitor()->runId(), runId);
    QPushButton* pause = nullptr;
    for (auto* button : window.monitor()->findChildren<QPushButton*>())
        if (button->text() == QStringLiteral("&Pause"))
            pause = button;
    QVERIFY(pause && !pause->isEnabled()); // a child process cannot pause
    QTRY_VERIFY_WITH_TIMEOUT(window.monitor()->pointCount(QStringLiteral("rollout/success")) >= 1, kRunWaitMs);
    QCOMPARE(window.monitor()->ranksText(), QStringLiteral("2 ranks"));
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(1).toString()));
    QVERIFY(finished.count() == 1 || finished.wait(kRunWaitMs));
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(1).toString()));
    QCOMPARE(finished.first().at(0).toLongLong(), runId);
    QCOMPARE(finished.first().at(1).value<RunStatus>(), RunStatus::Finished);
    QTRY_COMPARE_WITH_TIMEOUT(window.monitor()->pointCount(QStringLiteral("rollout/success")), 3, 10000);
    QCOMPARE(window.monitor()->phaseText(), QStringLiteral("Finished"));
    QCOMPARE(window.monitor()->ranksText(), QStringLiteral("2 ranks")); // from the run's metrics, after it ended
    QVERIFY(!controller->isExternal());
    Store store(db.toStdString());
    QCOMPARE(store.run(runId)->status, RunStatus::Finished);
    int ranks = 0;
    for (const auto& m : store.metrics(runId))
        if (m.name == "dist/ranks") {
            QCOMPARE(m.value, 2.0);
            ++ranks;
        }
    QCOMPARE(ranks, 3);
    // Shown again later, from the store alone.
    window.monitor()->showRun(0);
    QVERIFY(window.monitor()->ranksText().isEmpty());
    window.monitor()->showRun(runId);
    QCOMPARE(window.monitor()->ranksText(), QStringLiteral("2 ranks"));
}

void TestMonitor::dataParallelRunStops()
{
    // After a first run in the same window: Stop sends SIGINT, and the ranks stop after the current iteration with a
    // checkpoint (Cancelled, resumable). Without a creditlab-cli, a run of several processes is refused with the
    // reason.
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    MainWindow window(testSettings(dir));
    QVERIFY(window.openDatabase(db));
    window.show();
    QString error;
    RunController* controller = window.runController();
    {
        qputenv("CREDITLAB_CLI", dir.filePath(QStringLiteral("no-such-cli")).toUtf8());
        RunRequest request;
        request.database = db;
        request.config = learn::TrainConfig::parse(tinyConfig(2).toStdString(), "tiny.yaml");
        request.processes = 2;
        QVERIFY(!controller->start(request, &error));
        QVERIFY2(error.contains(QStringLiteral("creditlab-cli")), qPrintable(error));
        QVERIFY(!controller->isRunning());
        qputenv("CREDITLAB_CLI", CREDITLAB_CLI_PATH);
    }
    window.launcher()->processesSpin()->setValue(2);
    QSignalSpy finished(controller, &RunController::runFinished);
    QSignalSpy failed(controller, &RunController::runFailed);
    QSignalSpy started(controller, &RunController::runStarted);
    // A first run to its end: the next ones are followed as well (the window's connection sees them).
    QVERIFY(window.launcher()->loadConfigText(tinyConfig(2), QStringLiteral("tiny.yaml"), &error));
    QVERIFY2(window.launcher()->startRun(&error), qPrintable(error));
    QVERIFY(finished.count() == 1 || finished.wait(kRunWaitMs));
    QVERIFY(window.launcher()->loadConfigText(tinyConfig(40), QStringLiteral("tiny.yaml"), &error));
    finished.clear();
    started.clear();
    QVERIFY2(window.launcher()->startRun(&error), qPrintable(error));
    QVERIFY(started.count() == 1 || started.wait(kRunWaitMs));
    const qint64 runId = started.first().first().toLongLong();
    QCOMPARE(window.monitor()->runId(), runId);
    QTRY_VERIFY_WITH_TIMEOUT(window.monitor()->pointCount(QStringLiteral("rollout/success")) >= 1, kRunWaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(window.monitor()->phaseText() == QStringLiteral("RL"), 10000); // read from the store
    controller->requestStop();
    QVERIFY(finished.count() == 1 || finished.wait(kRunWaitMs));
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(1).toString()));
    QCOMPARE(finished.first().at(1).value<RunStatus>(), RunStatus::Cancelled);
    Store store(db.toStdString());
    const auto run = store.run(runId);
    QVERIFY(run);
    QCOMPARE(run->status, RunStatus::Cancelled);
    QVERIFY(run->iterationsDone < 40);
    QVERIFY(window.monitor()->failureText().isEmpty());
}

void TestMonitor::dataParallelRunTerminated()
{
    // Stop twice: SIGTERM after the SIGINT, and the run is marked failed with the reason, which the Monitor shows with
    // the process's exit code and last lines. A stand-in for creditlab-cli that stops only when terminated (the real
    // ranks may finish their iteration before the second request) and names a run of the database as its own.
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    MainWindow window(testSettings(dir));
    QVERIFY(window.openDatabase(db));
    window.show();
    const qint64 runId = createRunningRun(db, 10);
    const QString script = dir.filePath(QStringLiteral("fake-cli"));
    {
        QFile file(script);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QStringLiteral("#!/bin/sh\n"
                                  "echo \"run %1 'cli run': training on household with grpo\"\n"
                                  "trap 'echo interrupted' INT\n"
                                  "trap 'echo \"rank 0 of 2 was killed by signal 15\" >&2; exit 143' TERM\n"
                                  "while true; do sleep 0.05; done\n")
                       .arg(runId)
                       .toUtf8());
        file.close();
        QVERIFY(file.setPermissions(file.permissions() | QFileDevice::ExeOwner));
    }
    qputenv("CREDITLAB_CLI", script.toUtf8());
    RunController* controller = window.runController();
    QSignalSpy started(controller, &RunController::runStarted);
    QSignalSpy failed(controller, &RunController::runFailed);
    RunRequest request;
    request.database = db;
    request.config = learn::TrainConfig::parse(tinyConfig(2).toStdString(), "tiny.yaml");
    request.processes = 2;
    QString error;
    const bool ok = controller->start(request, &error);
    qputenv("CREDITLAB_CLI", CREDITLAB_CLI_PATH);
    QVERIFY2(ok, qPrintable(error));
    QVERIFY(started.count() == 1 || started.wait(10000));
    QCOMPARE(started.first().first().toLongLong(), runId);
    QCOMPARE(window.monitor()->runId(), runId);
    QCOMPARE(window.monitor()->ranksText(), QStringLiteral("2 ranks"));
    controller->requestStop();
    QVERIFY(!failed.wait(500)); // the stand-in, as the ranks, goes on after a SIGINT until its iteration ends
    QVERIFY(controller->isRunning());
    controller->requestStop();
    QVERIFY(failed.count() == 1 || failed.wait(10000));
    QCOMPARE(failed.first().at(0).toLongLong(), runId);
    QVERIFY(!controller->isRunning());
    Store store(db.toStdString());
    const auto run = store.run(runId);
    QCOMPARE(run->status, RunStatus::Failed);
    QVERIFY2(run->notes.find("terminated from the workbench") != std::string::npos, run->notes.c_str());
    const QString shown = window.monitor()->failureText();
    QVERIFY2(shown.contains(QStringLiteral("terminated from the workbench"))
            && shown.contains(QStringLiteral("exited with code 143"))
            && shown.contains(QStringLiteral("killed by signal 15")),
        qPrintable(shown));
    QVERIFY(window.monitor()->phaseText().startsWith(QStringLiteral("Failed: terminated from the workbench")));
}

QTEST_MAIN(TestMonitor)
#include "tst_ui_monitor.moc"
