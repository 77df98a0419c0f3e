// The training part of the workbench, offscreen: the form generated from parameter metadata, configs loaded and
// saved as YAML, a tiny run launched from the launcher whose curves grow live, pause, stop and resume from the
// checkpoint, the runs table with its training columns, undoable rename and tags, delete, and the database poll
// that makes runs of other processes appear.
#include "core/credit/estimator.h"
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
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QScrollBar>
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

class TestLaunch : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void launcherExplainsChoices();
    void formFollowsMetadata();
    void formRefusesBadValues_data();
    void formRefusesBadValues();
    void configRoundTrip();
    void badConfigNamesLine();
    void presetsLoad();
    void humanJudgeShowsLabels();
    void requestWithoutAConfigIsRefused();
    void launchedRunGrowsCurves();
    void pauseStopAndResume();
    void secondRunQueues();
    void remoteOutageShowsWaiting();
    void checkServersReportsEach();
    void runsTableAndActions();
    void otherProcessRunsAppear();
};

/// The launcher names its default policy size, says what the method does, describes the preset and estimates
/// its time from the database's earlier runs of it.
void TestLaunch::launcherExplainsChoices()
{
    QTemporaryDir dir;
    MainWindow window(testSettings(dir));
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    QVERIFY(window.openDatabase(db));
    window.show();
    window.showPage(MainWindow::Page::Launch);
    LauncherPage* launcher = window.launcher();
    QVERIFY(launcher->isVisible());
    QVERIFY2(launcher->sizeCombo()->currentText().startsWith(QStringLiteral("Default (128×4")),
        qPrintable(launcher->sizeCombo()->currentText()));
    QVERIFY(launcher->setValue(QStringLiteral("credit.method"), QStringLiteral("triage")));
    QCOMPARE(launcher->methodNote()->text(),
        QString::fromStdString(std::string(credit::requireEstimator("triage").summary())));
    QString error;
    QVERIFY2(launcher->loadPreset(QStringLiteral("household-quick.yaml"), &error), qPrintable(error));
    QVERIFY2(launcher->presetNote()->text().startsWith(QStringLiteral("The first run:")),
        qPrintable(launcher->presetNote()->text()));
    QVERIFY2(launcher->presetNote()->text().contains(QStringLiteral("No earlier run")),
        qPrintable(launcher->presetNote()->text()));
    {
        Store store(db.toStdString());
        for (const double total : { 100.0, 200.0 }) {
            const qint64 id = store.createRun(
                { "household-quick \u00b7 grpo \u00b7 s0", RunKind::Train, RunStatus::Finished, std::nullopt });
            const std::pair<std::string, double> time { "time/sft_s", total };
            store.writeMetrics(id, 0, std::span(&time, 1));
        }
    }
    // Hidden, the page reads no runs however often they change (about once a second while a run trains); shown, it
    // catches up once.
    window.showPage(MainWindow::Page::Runs);
    QVERIFY(!launcher->isVisible());
    const int rereads = launcher->runRereads();
    for (int i = 0; i < 5; ++i)
        window.workspace()->notifyRunsChanged();
    QCOMPARE(launcher->runRereads(), rereads);
    QVERIFY(launcher->presetNote()->text().contains(QStringLiteral("No earlier run")));
    window.showPage(MainWindow::Page::Launch);
    QCOMPARE(launcher->runRereads(), rereads + 1);
    QVERIFY2(launcher->presetNote()->text().contains(QStringLiteral("2 earlier runs here took 1 min 40 s–3 min 20 s")),
        qPrintable(launcher->presetNote()->text()));
    // Visible, each change is read once.
    window.workspace()->notifyRunsChanged();
    QCOMPARE(launcher->runRereads(), rereads + 2);
}

void TestLaunch::formFollowsMetadata()
{
    QTemporaryDir dir;
    MainWindow window(testSettings(dir));
    QVERIFY(window.openDatabase(dir.filePath(QStringLiteral("runs.db"))));
    LauncherPage* launcher = window.launcher();
    // Every trainer key but the three chosen by combos, plus the method's and the environment's.
    for (const auto& spec : learn::TrainConfig::specs()) {
        const QString key = QString::fromStdString(spec.name);
        if (key == QLatin1String("env.name") || key == QLatin1String("credit.method")
            || key == QLatin1String("judge.name"))
            continue;
        QVERIFY2(launcher->form()->hasKey(key), qPrintable(key));
        QCOMPARE(launcher->form()->defaultValue(key), QString::fromStdString(spec.defaultValue));
    }
    QVERIFY(launcher->setValue(QStringLiteral("credit.method"), QStringLiteral("has")));
    QVERIFY(launcher->form()->hasKey(QStringLiteral("credit.alpha")));
    QVERIFY(launcher->form()->hasKey(QStringLiteral("env.max_steps")));
    QVERIFY(!launcher->form()->hasKey(QStringLiteral("credit.lambda.R"))); // a triage key is gone
    QVERIFY(launcher->setValue(QStringLiteral("credit.alpha"), QStringLiteral("0.25")));
    QVERIFY(!launcher->form()->isDefault(QStringLiteral("credit.alpha")));
    launcher->form()->resetValue(QStringLiteral("credit.alpha"));
    QVERIFY(launcher->form()->isDefault(QStringLiteral("credit.alpha")));
    QVERIFY(launcher->setValue(QStringLiteral("judge.name"), QStringLiteral("noisy")));
    QVERIFY(launcher->form()->hasKey(QStringLiteral("judge.accuracy")));
}

void TestLaunch::formRefusesBadValues_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::newRow("not a number") << "rl.lr" << "fast";
    QTest::newRow("below range") << "rl.group_size" << "0";
    QTest::newRow("bad choice") << "kl.mode" << "sometimes";
    QTest::newRow("bad bool") << "rl.whiten_advantages" << "maybe";
    QTest::newRow("unknown key") << "rl.speed" << "1";
}

void TestLaunch::formRefusesBadValues()
{
    QFETCH(QString, key);
    QFETCH(QString, value);
    QTemporaryDir dir;
    MainWindow window(testSettings(dir));
    QVERIFY(window.openDatabase(dir.filePath(QStringLiteral("runs.db"))));
    QString error;
    QVERIFY(!window.launcher()->setValue(key, value, &error));
    QVERIFY2(error.contains(key), qPrintable(error));
}

void TestLaunch::configRoundTrip()
{
    QTemporaryDir dir;
    MainWindow window(testSettings(dir));
    QVERIFY(window.openDatabase(dir.filePath(QStringLiteral("runs.db"))));
    LauncherPage* launcher = window.launcher();
    QString error;
    QVERIFY2(launcher->loadConfigText(tinyConfig(4), QStringLiteral("tiny.yaml"), &error), qPrintable(error));
    QVERIFY(launcher->setValue(QStringLiteral("credit.method"), QStringLiteral("mgr")));
    QVERIFY(launcher->setValue(QStringLiteral("credit.gate"), QStringLiteral("keep")));
    const QString path = dir.filePath(QStringLiteral("saved.yaml"));
    QVERIFY(launcher->saveConfigFile(path, &error));
    // The saved file is what `creditlab-cli train --config` reads: the same resolved config.
    const auto saved = learn::TrainConfig::load(path.toStdString());
    const auto expected = learn::TrainConfig::parse(tinyConfig(4).toStdString(), "tiny.yaml",
        { { "credit.method", "mgr" }, { "credit.gate", "keep" } });
    QCOMPARE(QString::fromStdString(saved.toYaml()), QString::fromStdString(expected.toYaml()));
    // And loading it back gives the same form.
    QVERIFY(launcher->loadConfigText(QStringLiteral("{}"), QStringLiteral("defaults"), &error));
    QCOMPARE(launcher->value(QStringLiteral("rl.iterations")), launcher->form()->defaultValue(QStringLiteral("rl.iterations")));
    QVERIFY2(launcher->loadConfigFile(path, &error), qPrintable(error));
    QCOMPARE(launcher->value(QStringLiteral("rl.iterations")), QStringLiteral("4"));
    QCOMPARE(launcher->value(QStringLiteral("credit.gate")), QStringLiteral("keep"));

    // A judge's key stays in its environment variable: the saved config names the variable, never the key
    // (issue 22 §8), and neither does the database.
    const QByteArray secret = "sk-launcher-secret-0123456789";
    qputenv("CREDITLAB_TEST_SAVED_KEY", secret);
    QVERIFY(launcher->setValue(QStringLiteral("judge.name"), QStringLiteral("http")));
    QVERIFY(launcher->setValue(QStringLiteral("judge.url"), QStringLiteral("http://127.0.0.1:9/v1")));
    QVERIFY(launcher->setValue(QStringLiteral("judge.api_key_env"), QStringLiteral("CREDITLAB_TEST_SAVED_KEY")));
    const QString withJudge = dir.filePath(QStringLiteral("judge.yaml"));
    QVERIFY2(launcher->saveConfigFile(withJudge, &error), qPrintable(error));
    QFile savedFile(withJudge);
    QVERIFY(savedFile.open(QIODevice::ReadOnly));
    const QByteArray text = savedFile.readAll();
    QVERIFY2(text.contains("CREDITLAB_TEST_SAVED_KEY"), text.constData());
    QVERIFY2(!text.contains(secret), text.constData());
    QFile db(dir.filePath(QStringLiteral("runs.db")));
    QVERIFY(db.open(QIODevice::ReadOnly));
    QVERIFY(!db.readAll().contains(secret));
    qunsetenv("CREDITLAB_TEST_SAVED_KEY");
}

void TestLaunch::badConfigNamesLine()
{
    QTemporaryDir dir;
    MainWindow window(testSettings(dir));
    QVERIFY(window.openDatabase(dir.filePath(QStringLiteral("runs.db"))));
    LauncherPage* launcher = window.launcher();
    QVERIFY(launcher->setValue(QStringLiteral("rl.iterations"), QStringLiteral("7")));
    QString error;
    QVERIFY(!launcher->loadConfigText(QStringLiteral("seed: 1\nrl:\n  lr: fast\n"), QStringLiteral("bad.yaml"), &error));
    QVERIFY2(error.contains(QLatin1String("bad.yaml:3")) && error.contains(QLatin1String("rl.lr")), qPrintable(error));
    QCOMPARE(launcher->value(QStringLiteral("rl.iterations")), QStringLiteral("7")); // untouched
    QVERIFY(!launcher->loadConfigFile(dir.filePath(QStringLiteral("missing.yaml")), &error));
    QVERIFY(error.contains(QLatin1String("missing.yaml")));
}

void TestLaunch::presetsLoad()
{
    QTemporaryDir dir;
    MainWindow window(testSettings(dir));
    QVERIFY(window.openDatabase(dir.filePath(QStringLiteral("runs.db"))));
    const QStringList presets = LauncherPage::presetNames();
    QVERIFY(presets.contains(QStringLiteral("household-triage.yaml")));
    for (const QString& preset : presets) {
        QString error;
        QVERIFY2(window.launcher()->loadPreset(preset, &error), qPrintable(preset + QStringLiteral(": ") + error));
    }
    QString error;
    QVERIFY(window.launcher()->loadPreset(QStringLiteral("household-triage.yaml"), &error));
    QCOMPARE(window.launcher()->value(QStringLiteral("credit.method")), QStringLiteral("triage"));
}

void TestLaunch::humanJudgeShowsLabels()
{
    QTemporaryDir dir;
    MainWindow window(testSettings(dir));
    QVERIFY(window.openDatabase(dir.filePath(QStringLiteral("runs.db"))));
    LauncherPage* launcher = window.launcher();
    auto* summary = launcher->findChild<QLabel*>(QStringLiteral("launchSummary"));
    QVERIFY(summary);
    QVERIFY(!summary->text().contains(QStringLiteral("Human labels")));
    // The human judge's own keys and its backing judge's appear in the form.
    QVERIFY(launcher->setValue(QStringLiteral("judge.name"), QStringLiteral("human")));
    for (const char* key : { "judge.annotator", "judge.backing", "judge.accuracy" })
        QVERIFY2(launcher->form()->hasKey(QString::fromLatin1(key)), key);
    QVERIFY2(summary->text().contains(QStringLiteral("No human labels by every annotator")), qPrintable(summary->text()));
    // Labels in the database are counted once the form changes.
    Store* store = window.workspace()->store();
    NewRun imported;
    imported.name = "imported";
    const auto run = store->createRun(imported);
    Trajectory t;
    t.id = "a";
    t.group = "g";
    t.task.key = "household:seed=4";
    t.turns.resize(2);
    t.turns[0].action = "look";
    t.turns[1].action = "go to sink 1";
    const auto row = store->insertTrajectory(run, 0, t);
    store->setHumanLabel(row, 0, "alice", Role::E);
    store->setHumanLabel(row, 1, "alice", Role::D);
    QVERIFY(launcher->setValue(QStringLiteral("judge.annotator"), QStringLiteral("alice")));
    QVERIFY(launcher->setValue(QStringLiteral("rl.task_pool"), QStringLiteral("labelled")));
    QVERIFY2(summary->text().contains(QStringLiteral("Human labels by alice: 2, on 2 distinct (task, state, action) "
                                                     "keys in 1 household train tasks")),
        qPrintable(summary->text()));
    // The YAML carries the judge's keys exactly as the trainer reads them.
    const auto config = learn::TrainConfig::parse(launcher->configText().toStdString(), "launcher");
    QCOMPARE(config.judgeName(), std::string("human"));
    QCOMPARE(config.getText("rl.task_pool"), std::string("labelled"));
    QCOMPARE(config.judgeAssignments(),
        (std::vector<std::pair<std::string, std::string>> { { "annotator", "alice" } }));
    // Labels of another annotator only: the labelled pool would have nothing to train on.
    QVERIFY(launcher->setValue(QStringLiteral("judge.annotator"), QStringLiteral("bob")));
    QVERIFY2(summary->text().contains(QStringLiteral("rl.task_pool=labelled needs labelled household train tasks")),
        qPrintable(summary->text()));
}

void TestLaunch::requestWithoutAConfigIsRefused()
{
    QTemporaryDir dir;
    MainWindow window(testSettings(dir));
    QVERIFY(window.openDatabase(dir.filePath(QStringLiteral("runs.db"))));
    RunRequest request;
    request.database = dir.filePath(QStringLiteral("runs.db"));
    QString error;
    QVERIFY(!window.runController()->start(request, &error));
    QCOMPARE(error, QStringLiteral("There is no valid config to start a run from."));
    QVERIFY(!window.runController()->isRunning());
    // A form value the config refuses stops Start with the reason, before any request is made.
    QVERIFY(window.launcher()->loadConfigText(tinyConfig(3), QStringLiteral("tiny.yaml"), &error));
    QVERIFY(!window.launcher()->setValue(QStringLiteral("rl.iterations"), QStringLiteral("-3")));
    QVERIFY(!window.launcher()->startRun(&error));
    QVERIFY2(error.contains(QStringLiteral("rl.iterations")), qPrintable(error));
    QVERIFY(!window.runController()->isRunning());
}

void TestLaunch::launchedRunGrowsCurves()
{
    QTemporaryDir dir;
    MainWindow window(testSettings(dir));
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    QVERIFY(window.openDatabase(db));
    window.show();
    QString error;
    QVERIFY(window.launcher()->loadConfigText(tinyConfig(3), QStringLiteral("tiny.yaml"), &error));
    QVERIFY(window.launcher()->setValue(QStringLiteral("credit.method"), QStringLiteral("triage")));
    QSignalSpy started(window.runController(), &RunController::runStarted);
    QSignalSpy curves(window.monitor(), &MonitorPage::curvesUpdated);
    QSignalSpy finished(window.runController(), &RunController::runFinished);
    // The phase line as each report leaves it (the Monitor's slot runs first: it connected first).
    QStringList phases;
    connect(window.runController(), &RunController::progressed, this, [&] {
        if (phases.isEmpty() || phases.last() != window.monitor()->phaseText())
            phases << window.monitor()->phaseText();
    });
    QVERIFY2(window.launcher()->startRun(&error), qPrintable(error));
    QCOMPARE(window.tabs()->currentWidget(), window.monitor());
    // The GUI stays responsive: the event loop runs while the worker trains.
    QVERIFY(started.wait(kRunWaitMs));
    const qint64 runId = started.first().first().toLongLong();
    QCOMPARE(window.monitor()->runId(), runId);
    QVERIFY(curves.wait(kRunWaitMs)); // SFT's metrics (iteration 0) come first
    QTRY_VERIFY_WITH_TIMEOUT(window.monitor()->pointCount(QStringLiteral("rollout/success")) >= 1, kRunWaitMs);
    const qsizetype first = window.monitor()->pointCount(QStringLiteral("rollout/success"));
    QVERIFY(finished.count() == 1 || finished.wait(kRunWaitMs));
    QCOMPARE(finished.first().at(1).value<RunStatus>(), RunStatus::Finished);
    // The run got the config the launcher parsed once, as it is (the controller and the worker parse nothing).
    {
        Store store(db.toStdString());
        const auto stored = learn::TrainConfig::parse(*store.runConfig(runId), "stored");
        // ... but for the name, which the launcher makes distinct (preset · method · seed).
        const std::string name = store.run(runId)->name;
        QCOMPARE(stored.runName(), name);
        QVERIFY2(name.find(stored.method()) != std::string::npos, name.c_str());
        QCOMPARE(stored.toYaml(),
            learn::TrainConfig::parse(window.launcher()->configText().toStdString(), "launcher", { { "name", name } })
                .toYaml());
        QCOMPARE(stored.method(), std::string("triage"));
    }
    QVERIFY(window.monitor()->pointCount(QStringLiteral("rollout/success")) > first);
    // Issue 20 §9: the phase is said (SFT, each evaluation, RL, finished), and SFT's curves are shown per step.
    QVERIFY2(phases.contains(QStringLiteral("SFT")) && phases.contains(QStringLiteral("Evaluating"))
            && phases.contains(QStringLiteral("RL")),
        qPrintable(phases.join(QStringLiteral(", "))));
    QCOMPARE(window.monitor()->phaseText(), QStringLiteral("Finished"));
    QVERIFY(window.monitor()->sections()->sftPointCount(QStringLiteral("sft/loss")) >= 2);
    QVERIFY(window.monitor()->sections()->sftChart(QStringLiteral("sft/token_accuracy")));
    QCOMPARE(window.monitor()->pointCount(QStringLiteral("eval/success")), 4); // after SFT and each iteration
    QVERIFY(window.monitor()->chart(QStringLiteral("train/kl")) != nullptr);
    // The log pane got the run's lines through spdlog (coalesced on a timer).
    auto* log = window.monitor()->findChild<QPlainTextEdit*>();
    QVERIFY(log);
    QTRY_VERIFY_WITH_TIMEOUT(log->toPlainText().contains(QStringLiteral("iteration 3/3")), 5000);
    // A second start while one runs is refused; here none runs any more.
    QVERIFY(!window.runController()->isRunning());
    QCOMPARE(metricIterations(db, runId), 3);
}

void TestLaunch::remoteOutageShowsWaiting()
{
    // A run on a remote environment server that dies mid-run: the Monitor says the run waits, and the run goes
    // on when a server is back on the port.
    auto server = std::make_unique<creditlab::test::RemoteTestServer>("alfworld", false);
    const int port = server->port();
    QTemporaryDir dir;
    MainWindow window(testSettings(dir));
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    QVERIFY(window.openDatabase(db));
    window.show();
    QString config = tinyConfig(30);
    config.replace(QStringLiteral("env:\n  name: household\n"),
        QStringLiteral("env:\n  name: remote\n  url: %1\n  retries: 1\n  backoff_ms: 5\n")
            .arg(QString::fromStdString(server->url())));
    QString error;
    QVERIFY2(window.launcher()->loadConfigText(config, QStringLiteral("remote.yaml"), &error), qPrintable(error));
    RunController* controller = window.runController();
    QSignalSpy started(controller, &RunController::runStarted);
    QSignalSpy paused(controller, &RunController::pausedChanged);
    QSignalSpy finished(controller, &RunController::runFinished);
    QVERIFY2(window.launcher()->startRun(&error), qPrintable(error));
    QVERIFY(started.count() == 1 || started.wait(kRunWaitMs));
    const qint64 runId = started.first().first().toLongLong();
    // Held at its next progress report (at the latest after SFT), the run loses its server, then goes on.
    controller->pause();
    QVERIFY(paused.count() == 1 || paused.wait(kRunWaitMs));
    QCOMPARE(paused.last().first().toBool(), true);
    QVERIFY(finished.isEmpty());
    server->stop();
    controller->resume();
    auto* phase = window.monitor()->findChild<QLabel*>(QStringLiteral("monitorPhase"));
    QVERIFY(phase);
    QTRY_COMPARE_WITH_TIMEOUT(phase->text(), QStringLiteral("Waiting for a server"), kRunWaitMs);
    QVERIFY2(phase->toolTip().contains(QString::fromStdString(server->url())), qPrintable(phase->toolTip()));
    server = std::make_unique<creditlab::test::RemoteTestServer>("alfworld", false, port);
    QVERIFY(finished.count() == 1 || finished.wait(kRunWaitMs));
    QCOMPARE(finished.first().at(1).value<RunStatus>(), RunStatus::Finished);
    QCOMPARE(metricIterations(db, runId), 30);
    QVERIFY(phase->text() != QStringLiteral("Waiting for a server"));
}

void TestLaunch::checkServersReportsEach()
{
    creditlab::test::RemoteTestServer env("webshop", false);
    creditlab::test::FakeChatServer judge([](int, const nlohmann::json&) {
        return creditlab::test::ChatReply { 200,
            creditlab::test::chatCompletion(R"({"role": "E", "confidence": 0.5, "rationale": "looks around"})"), 0 };
    });
    QTemporaryDir dir;
    MainWindow window(testSettings(dir));
    QVERIFY(window.openDatabase(dir.filePath(QStringLiteral("runs.db"))));
    LauncherPage* launcher = window.launcher();
    auto* check = launcher->findChild<QLabel*>(QStringLiteral("serverCheck"));
    QVERIFY(check);
    QSignalSpy done(launcher, &LauncherPage::serverCheckFinished);

    // Household with the oracle calls no server: nothing to check.
    launcher->checkServers();
    QCOMPARE(done.count(), 1);
    QVERIFY2(check->text().startsWith(QStringLiteral("Nothing to check")), qPrintable(check->text()));

    QVERIFY(launcher->setValue(QStringLiteral("env.name"), QStringLiteral("remote")));
    QVERIFY(launcher->setValue(QStringLiteral("credit.method"), QStringLiteral("triage")));
    // The summary says what a remote environment lacks: an expert for SFT, oracle roles for the oracle judge.
    auto* summary = launcher->findChild<QLabel*>(QStringLiteral("launchSummary"));
    QVERIFY(summary->text().contains(QStringLiteral("No SFT: a remote server has no expert")));
    QVERIFY(summary->text().contains(QStringLiteral("The oracle judge labels nothing here")));
    QVERIFY(launcher->setValue(QStringLiteral("sft.demonstrations"), QStringLiteral("demos.jsonl")));
    QVERIFY(summary->text().contains(QStringLiteral("SFT clones the successful trajectories of demos.jsonl")));
    QVERIFY(launcher->setValue(QStringLiteral("env.dialect"), QStringLiteral("webshop")));
    QVERIFY(launcher->setValue(QStringLiteral("env.url"), QString::fromStdString(env.url())));
    QVERIFY(launcher->setValue(QStringLiteral("judge.name"), QStringLiteral("http")));
    QVERIFY(launcher->setValue(QStringLiteral("judge.url"), QString::fromStdString(judge.baseUrl())));
    QVERIFY(!summary->text().contains(QStringLiteral("labels nothing")));
    launcher->checkServers();
    QVERIFY(done.count() == 2 || done.wait(30000));
    QCOMPARE(done.last().first().toBool(), true);
    QVERIFY2(check->text().contains(QStringLiteral("Environment server: reset task 0 in")), qPrintable(check->text()));
    QVERIFY2(check->text().contains(QStringLiteral("Instruction: [SEP] reach room 2")), qPrintable(check->text()));
    QVERIFY2(check->text().contains(QStringLiteral("answered E in")), qPrintable(check->text()));
    QCOMPARE(judge.requests(), 1);

    // Both gone: each line says which and why.
    env.stop();
    judge.stop();
    QVERIFY(launcher->setValue(QStringLiteral("env.retries"), QStringLiteral("0")));
    QVERIFY(launcher->setValue(QStringLiteral("judge.retries"), QStringLiteral("0")));
    launcher->checkServers();
    QVERIFY(done.count() == 3 || done.wait(30000));
    QCOMPARE(done.last().first().toBool(), false);
    const QStringList lines = check->text().split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), 2);
    QVERIFY2(lines[0].startsWith(QStringLiteral("Environment server: remote env ")) && lines[0].contains(
                 QString::fromStdString(env.url())),
        qPrintable(lines[0]));
    QVERIFY2(lines[1].startsWith(QStringLiteral("Judge: ")) && lines[1].contains(QStringLiteral("found no server")),
        qPrintable(lines[1]));
}

void TestLaunch::pauseStopAndResume()
{
    QTemporaryDir dir;
    MainWindow window(testSettings(dir));
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    QVERIFY(window.openDatabase(db));
    QString error;
    QVERIFY(window.launcher()->loadConfigText(tinyConfig(10), QStringLiteral("tiny.yaml"), &error));
    RunController* controller = window.runController();
    QSignalSpy curves(window.monitor(), &MonitorPage::curvesUpdated);
    QSignalSpy paused(controller, &RunController::pausedChanged);
    QSignalSpy finished(controller, &RunController::runFinished);
    QVERIFY2(window.launcher()->startRun(&error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(window.monitor()->pointCount(QStringLiteral("rollout/success")) >= 1, kRunWaitMs);
    const qint64 runId = controller->runId();

    controller->pause();
    QVERIFY(paused.wait(kRunWaitMs));
    QCOMPARE(paused.last().first().toBool(), true);
    QCOMPARE(Store(db.toStdString()).run(runId)->status, RunStatus::Paused);
    const qint64 atPause = metricIterations(db, runId);
    QTest::qWait(300); // nothing advances while paused (the worker waits on a condition)
    QCOMPARE(metricIterations(db, runId), atPause);
    controller->resume();
    QVERIFY(paused.wait(kRunWaitMs));
    QCOMPARE(paused.last().first().toBool(), false);

    controller->requestStop();
    QVERIFY(finished.wait(kRunWaitMs));
    QCOMPARE(finished.last().at(1).value<RunStatus>(), RunStatus::Cancelled);
    const qint64 done = metricIterations(db, runId);
    QVERIFY(done >= 1 && done < 10);
    QCOMPARE(Store(db.toStdString()).run(runId)->status, RunStatus::Cancelled);
    // Runs → Resume from Checkpoint is on offer for the run just stopped (the controller still names it as its
    // last run, which once kept the action disabled while the status bar pointed there).
    QTRY_VERIFY(window.runBrowser()->selectRun(runId));
    QAction* resume = window.runActions()->actions().at(2);
    QCOMPARE(resume->text(), RunActions::tr("Res&ume from Checkpoint"));
    QTRY_VERIFY(resume->isEnabled());

    // Resume from the checkpoint: the run completes its ten iterations, the monitor shows all of them.
    QVERIFY2(window.resumeRun(runId, &error), qPrintable(error));
    QVERIFY(finished.wait(kRunWaitMs));
    QCOMPARE(finished.last().at(1).value<RunStatus>(), RunStatus::Finished);
    QCOMPARE(metricIterations(db, runId), 10);
    QCOMPARE(window.monitor()->pointCount(QStringLiteral("time/total_s")), 10);
}

void TestLaunch::secondRunQueues()
{
    QTemporaryDir dir;
    MainWindow window(testSettings(dir));
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    QVERIFY(window.openDatabase(db));
    QString error;
    RunController* controller = window.runController();
    QSignalSpy started(controller, &RunController::runStarted);
    QSignalSpy finished(controller, &RunController::runFinished);
    QSignalSpy queue(controller, &RunController::queueChanged);
    QVERIFY(window.launcher()->loadConfigText(tinyConfig(2), QStringLiteral("tiny.yaml"), &error));
    QVERIFY(window.launcher()->setValue(QStringLiteral("credit.method"), QStringLiteral("triage")));
    QVERIFY2(window.launcher()->startRun(&error), qPrintable(error));
    // A second launch while the first trains waits for it (the runs would otherwise share the cores).
    QVERIFY(window.launcher()->setValue(QStringLiteral("credit.method"), QStringLiteral("grpo")));
    QVERIFY2(window.launcher()->startRun(&error), qPrintable(error));
    QCOMPARE(controller->queuedCount(), 1);
    QCOMPARE(queue.last().first().toInt(), 1);
    // The queued run shows in Runs at once, by the name it will have, with a way to drop it.
    QLabel* queued = window.runBrowser()->queueLabel();
    QVERIFY(!queued->isHidden());
    QVERIFY2(queued->text().contains(QStringLiteral("grpo")), qPrintable(queued->text()));
    QVERIFY2(queued->text().contains(QStringLiteral("Clear queue")), qPrintable(queued->text()));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, kRunWaitMs);
    QCOMPARE(started.count(), 2);
    QCOMPARE(controller->queuedCount(), 0);
    QVERIFY(queued->isHidden());
    const qint64 first = started.at(0).first().toLongLong();
    const qint64 second = started.at(1).first().toLongLong();
    // Two runs of one config get names that tell them apart: the method and seed are in them.
    const std::string firstName = Store(db.toStdString()).run(first)->name;
    const std::string secondName = Store(db.toStdString()).run(second)->name;
    QVERIFY2(firstName != secondName, firstName.c_str());
    QVERIFY2(firstName.find("triage") != std::string::npos, firstName.c_str());
    QVERIFY2(secondName.find("grpo") != std::string::npos, secondName.c_str());
    QCOMPARE(window.monitor()->runId(), second); // the monitor follows the run that trains
    Store store(db.toStdString());
    QCOMPARE(store.run(second)->status, RunStatus::Finished);
    QVERIFY(store.runConfig(second)->find("credit.method: grpo") != std::string::npos);
    // A third run of the same SFT settings is offered the newest one's SFT policy instead of training it again, once
    // the page is in view (a hidden page reads no runs).
    window.show();
    window.showPage(MainWindow::Page::Launch);
    QLabel* offer = window.launcher()->sftOffer();
    QTRY_VERIFY(!offer->isHidden());
    QVERIFY2(offer->text().contains(QStringLiteral("Run %1 ").arg(second)), qPrintable(offer->text()));
    Q_EMIT offer->linkActivated(QStringLiteral("reuse"));
    QVERIFY2(window.launcher()->configText().contains(QStringLiteral("sft.from_run: %1").arg(second)),
        qPrintable(window.launcher()->configText()));
    QVERIFY(offer->isHidden()); // it starts from that run now
    // Another seed trains another SFT: no offer.
    QVERIFY(window.launcher()->setValue(QStringLiteral("sft.from_run"), QStringLiteral("0")));
    QVERIFY(!offer->isHidden());
    QVERIFY(window.launcher()->setValue(QStringLiteral("seed"), QStringLiteral("77")));
    QVERIFY(offer->isHidden());
}

void TestLaunch::runsTableAndActions()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    qint64 trained = 0, other = 0;
    {
        Store store(db.toStdString());
        trained = store.createRun({ "triage-run", RunKind::Train, RunStatus::Finished, {} });
        store.setRunConfig(trained, "yaml",
            "credit.method: triage\nenv.name: household\npolicy.layers: 2\npolicy.width: 128\nseed: 4\n");
        store.setRunShape(trained, RunShape { "triage", "household", 4, 128, 2, 30 });
        const std::vector<std::pair<std::string, double>> it1 { { "eval/success", 0.25 }, { "time/total_s", 10.0 } };
        const std::vector<std::pair<std::string, double>> it2 { { "eval/success", 0.125 }, { "time/total_s", 20.0 } };
        store.writeMetrics(trained, 1, it1);
        store.writeMetrics(trained, 2, it2);
        other = store.createRun({ "imported", RunKind::Import, RunStatus::Finished, {} });
    }
    MainWindow window(testSettings(dir));
    QVERIFY(window.openDatabase(db));
    RunModel* model = window.runBrowser()->runModel();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const int row = model->rowOfRun(trained);
    QVERIFY(row >= 0);
    const auto cell = [&](RunModel::Column c) { return model->index(row, int(c)).data().toString(); };
    QCOMPARE(cell(RunModel::Column::Config), QStringLiteral("household · triage · s4 · 128×2"));
    QCOMPARE(cell(RunModel::Column::Model), QStringLiteral("built-in 128×2"));
    QCOMPARE(cell(RunModel::Column::BestEval), QStringLiteral("0.25"));
    QCOMPARE(cell(RunModel::Column::LastEval), QStringLiteral("0.125"));
    QCOMPARE(cell(RunModel::Column::Iterations), QStringLiteral("2"));
    QCOMPARE(model->index(row, int(RunModel::Column::Duration)).data(Qt::UserRole + 1).toDouble(), 30.0);

    // Rename and tags are undoable.
    RunActions* actions = window.runActions();
    actions->renameRun(trained, QStringLiteral("better name"));
    QCOMPARE(Store(db.toStdString()).run(trained)->name, std::string("better name"));
    actions->setRunTags(trained, QStringLiteral(" baseline, ,paper ,baseline"));
    QCOMPARE(Store(db.toStdString()).run(trained)->tags, std::string("baseline, paper"));
    window.undoStack()->undo();
    QCOMPARE(Store(db.toStdString()).run(trained)->tags, std::string(""));
    window.undoStack()->undo();
    QCOMPARE(Store(db.toStdString()).run(trained)->name, std::string("triage-run"));
    window.undoStack()->redo();
    QCOMPARE(Store(db.toStdString()).run(trained)->name, std::string("better name"));
    QCOMPARE(model->index(model->rowOfRun(trained), int(RunModel::Column::Name)).data().toString(),
        QStringLiteral("better name"));

    // Filter by config text; the table exports as CSV what it shows, full text, quoted where needed.
    window.runBrowser()->runFilterEdit()->setText(QStringLiteral("triage"));
    QCOMPARE(window.runBrowser()->runProxy()->rowCount(), 1);
    actions->renameRun(trained, QStringLiteral("better, \"quoted\" name"));
    const QString csv = modelToCsv(*window.runBrowser()->runProxy());
    const QStringList lines = csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 2);
    QVERIFY2(lines[0].startsWith(QStringLiteral("Id,Name,Kind,Status,Config,Model,Best eval")), qPrintable(lines[0]));
    QVERIFY2(lines[1].contains(QStringLiteral(",\"better, \"\"quoted\"\" name\",train,")), qPrintable(lines[1]));
    const QString csvPath = dir.filePath(QStringLiteral("runs.csv"));
    QVERIFY(writeCsvFile(csvPath, csv));
    QFile csvFile(csvPath);
    QVERIFY(csvFile.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(csvFile.readAll()), csv);
    QString csvError;
    QVERIFY(!writeCsvFile(dir.filePath(QStringLiteral("no/such/dir/runs.csv")), csv, &csvError));
    QVERIFY2(csvError.contains(QLatin1String("runs.csv")), qPrintable(csvError));
    window.undoStack()->undo();
    window.runBrowser()->runFilterEdit()->clear();

    // Delete (the action asks first; the call itself does not).
    QString error;
    QVERIFY2(actions->deleteRuns({ other }, &error), qPrintable(error));
    QCOMPARE(model->rowOfRun(other), -1);
    QVERIFY(!Store(db.toStdString()).run(other));
}

void TestLaunch::otherProcessRunsAppear()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    MainWindow window(testSettings(dir));
    QVERIFY(window.openDatabase(db));
    window.workspace()->setPollInterval(50);
    QSignalSpy changed(window.workspace(), &Workspace::runsChanged);
    qint64 id = 0;
    {
        Store other(db.toStdString()); // another connection, as a CLI run has
        id = other.createRun({ "from the cli", RunKind::Train, RunStatus::Running, {} });
    }
    QVERIFY(changed.wait(5000));
    QVERIFY(window.runBrowser()->runModel()->rowOfRun(id) >= 0);
}

QTEST_MAIN(TestLaunch)
#include "tst_ui_launch.moc"
