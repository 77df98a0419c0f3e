// The Sweeps page: TrialModel under QAbstractItemModelTester (live updates in place, resets on a new shape,
// stored trials), its aggregates and CSV; the controller refuses a bad sweep before anything is written; the
// page runs a 2×2 tiny sweep through the controller to the end, draws its heatmap and exports the table.
#include "tests/ui/sweeptestdata.h"
#include "ui/charts/errorbarchart.h"
#include "ui/charts/heatmapchart.h"
#include "ui/common/itemroles.h"
#include "ui/figures/curvepainter.h"
#include "ui/shell/workspace.h"
#include "ui/sweeps/planpanel.h"
#include "ui/sweeps/reportdialog.h"
#include "ui/sweeps/sweepcontroller.h"
#include "ui/sweeps/sweeppage.h"
#include "ui/sweeps/trialmodel.h"

#include "core/learn/api/experiment.h"
#include "core/storage/store.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QListView>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QtTest>

#include <cmath>

using namespace creditlab;
using namespace creditlab::ui;
using creditlab::ui::testing::kTinyExperiment;

namespace {

/// A 2×2 grid of the tiny household runs (a few seconds each), the base inline.
const char* const kTinySweep = R"(name: tiny
base:
  seed: 3
  env: {name: household, max_steps: 6}
  policy: {width: 32, layers: 1, heads: 2, context: 160, history: 1, max_action_tokens: 8}
  tokenizer.episodes: 8
  sft: {expert_episodes: 12, noisy_episodes: 4, epochs: 1, batch_size: 32}
  rl: {iterations: 2, tasks: 2, group_size: 2, epochs: 1, minibatches: 2}
  eval: {episodes: 3, every: 1}
grid:
  rl.clip: [0.1, 0.3]
  kl.mode: [fixed, adaptive]
workers: 1
threads: 1
)";

/// Writes `text` to `name` in `dir`; returns its path, or an empty string when it cannot be written.
QString writeFile(const QTemporaryDir& dir, const char* name, const QByteArray& text)
{
    const QString path = dir.filePath(QString::fromLatin1(name));
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size() ? path : QString();
}

learn::TrialProgress trial(int index, std::vector<std::pair<std::string, std::string>> point, TrialStatus status,
    std::optional<double> objective = {})
{
    learn::TrialProgress t;
    t.index = index;
    t.point = std::move(point);
    t.status = status;
    t.objective = objective;
    t.runId = objective ? index + 10 : 0;
    return t;
}

learn::SweepProgress grid()
{
    learn::SweepProgress p;
    p.sweepId = 1;
    p.trials = { trial(0, { { "x", "0.5" }, { "mode", "a,b" }, { "seed", "0" } }, TrialStatus::Finished, 0.2),
        trial(1, { { "x", "0.5" }, { "mode", "a,b" }, { "seed", "1" } }, TrialStatus::Finished, 0.4),
        trial(2, { { "x", "0.25" }, { "mode", "a,b" }, { "seed", "0" } }, TrialStatus::Finished, 1.0),
        trial(3, { { "x", "0.25" }, { "mode", "say \"c\"" }, { "seed", "1" } }, TrialStatus::Running) };
    p.total = 4;
    return p;
}

} // namespace

class TestUiSweep : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void trialModelUnderTester();
    void aggregatesOverSeeds();
    void csvQuotesFields();
    void controllerRefusesBadSweeps();
    void pageRunsTinySweep();
    void oneKeyGivesErrorBarsAndStoredSweepsReopen();
    void experimentRunsAndItsReportShowsTheVerdicts();
    void experimentStoppedInItsSftResumesFromThePage();
    void aSweepGoesOnInItsDatabaseWhenAnotherOpens();
    void figureLegendsFitLongArmNames();
    void shippedExperimentsArePresets();
};

void TestUiSweep::experimentRunsAndItsReportShowsTheVerdicts()
{
    // The page runs an experiment (its shared SFT first, then arms x seeds, then the probe tables); Report… shows
    // the claims with the verdicts buildReport() gives and the probe table, and exports report.md with SVG and PNG
    // figures.
    QTemporaryDir dir;
    Workspace workspace;
    QVERIFY(workspace.open(dir.filePath("runs.db")));
    const QString file = writeFile(dir, "tiny-exp.yaml", kTinyExperiment);
    QVERIFY(!file.isEmpty());
    SweepPage page(&workspace);
    page.resize(1200, 800);
    page.show();
    page.openSweepFile(file);
    QSignalSpy finished(page.controller(), &SweepController::sweepFinished);
    QSignalSpy started(page.controller(), &SweepController::sweepStarted);
    // While the shared SFT trains, the engine reports it (sftFraction), the experiment already exists, and the
    // controller announces it.
    std::vector<SweepSnapshot> sftSnapshots;
    QObject::connect(page.controller(), &SweepController::progressed, &page, [&](const SweepSnapshot& p) {
        if (p->sftFraction >= 0.0)
            sftSnapshots.push_back(p);
    });
    // Before its first run the database holds no pilot: the plan says how to make one.
    QTRY_VERIFY2(
        page.planPanel()->isVisibleTo(&page) && page.planPanel()->text().startsWith(QStringLiteral("Plan: no pilot")),
        qPrintable(page.planPanel()->text()));
    page.startSweep();
    QVERIFY(finished.wait(240000));
    QCOMPARE(finished.at(0).at(0).value<TrialStatus>(), TrialStatus::Finished);
    // Finished, the experiment is the pilot: a line per claim with its seeds now and those it needs.
    QTRY_VERIFY2(page.planPanel()->text().startsWith(
                     QStringLiteral("Plan from experiment %1").arg(started.at(0).at(0).toLongLong())),
        qPrintable(page.planPanel()->text()));
    QCOMPARE(page.planPanel()->text().count(QStringLiteral("\n• ")), 3);
    QVERIFY2(page.planPanel()->text().contains(QStringLiteral(": 2 seed")), qPrintable(page.planPanel()->text()));
    QVERIFY(!sftSnapshots.empty());
    QVERIFY(sftSnapshots.front()->sweepId > 0);
    QCOMPARE(sftSnapshots.front()->total, 4);
    QVERIFY(!started.isEmpty());
    QCOMPARE(started.at(0).at(0).toLongLong(), sftSnapshots.front()->sweepId);
    const auto runs = workspace.store()->runs();
    QCOMPARE(static_cast<int>(runs.size()), 5); // the shared SFT and 2 x 2 trials
    QVERIFY(std::any_of(runs.begin(), runs.end(), [](const RunInfo& r) { return r.name == "tiny-exp-sft"; }));
    // The progress line counts the probe tables computed after the trials.
    bool probeProgress = false;
    for (auto* label : page.findChildren<QLabel*>())
        probeProgress = probeProgress || label->text().contains(QStringLiteral("probe tables 2 of 2"));
    QVERIFY(probeProgress);

    auto* list = page.findChild<QListView*>();
    QVERIFY(list);
    list->setCurrentIndex(list->model()->index(0, 0));
    ReportDialog* dialog = page.openReport();
    QVERIFY(dialog);
    const auto expected = learn::buildReport(*workspace.store(), list->currentIndex().data(IdRole).toLongLong());
    QCOMPARE(dialog->report().claims.size(), std::size_t(3));
    QCOMPARE(dialog->report().probeRows.size(), std::size_t(18)); // 9 probes x 2 seeds
    const QString text = dialog->text();
    QVERIFY(text.contains(QStringLiteral("Probe tables")));
    for (const auto& c : expected.claims) {
        QVERIFY2(text.contains(QString::fromStdString(c.claim.canonical())), qPrintable(text));
        QVERIFY2(text.contains(QString::fromLatin1(learn::verdictName(c.verdict))), qPrintable(text));
    }
    for (std::size_t k = 0; k < expected.claims.size(); ++k)
        QVERIFY(dialog->report().claims[k].verdict == expected.claims[k].verdict);
    // The aggregates section, and its performance profiles rendered from their SVG (issue 37).
    QVERIFY(text.contains(QStringLiteral("Aggregates (rliable)")));
    auto* browser = dialog->findChild<QTextBrowser*>();
    QVERIFY(browser);
    const QImage profile
        = browser->loadResource(QTextDocument::ImageResource, QUrl(QStringLiteral("profile_eval_success_at_end.svg")))
              .value<QImage>();
    QCOMPARE(profile.size(), QSize(720, 420));
    int ink = 0; // axes, ticks, title and the arms' lines: not a blank page
    for (int y = 0; y < profile.height(); y += 3)
        for (int x = 0; x < profile.width(); x += 3)
            ink += profile.pixelColor(x, y) != QColor(Qt::white);
    QVERIFY2(ink > 200, qPrintable(QString::number(ink)));
    // The summary line counts the same verdicts.
    int counts[3] = { 0, 0, 0 };
    for (const auto& c : expected.claims)
        ++counts[static_cast<int>(c.verdict)];
    const QString summary = QStringLiteral("3 claim(s): %1 supported, %2 contradicted, %3 inconclusive")
                                .arg(counts[0])
                                .arg(counts[1])
                                .arg(counts[2]);
    bool found = false;
    for (auto* label : dialog->findChildren<QLabel*>())
        found = found || label->text().startsWith(summary);
    QVERIFY2(found, qPrintable(summary));

    // The page's line for an SFT report: the SFT's share, its elapsed time and ETA, and the trials to come.
    auto sft = std::make_shared<learn::SweepProgress>(*sftSnapshots.front());
    sft->sftFraction = 0.37;
    sft->elapsedSeconds = 65;
    sft->etaSeconds = 130;
    Q_EMIT page.controller()->progressed(sft);
    QTRY_VERIFY([&] {
        for (auto* label : page.findChildren<QLabel*>())
            if (label->text() == QStringLiteral("Shared SFT 37% · 1 min 05 s elapsed · ETA 2 min 10 s · then 4 trials"))
                return true;
        return false;
    }());
    // sft: per_seed's: the share of all the starts, and the seed whose start trains.
    auto perSeed = std::make_shared<learn::SweepProgress>(*sft);
    perSeed->sftFraction = 0.62;
    perSeed->sftSeed = "1";
    Q_EMIT page.controller()->progressed(perSeed);
    QTRY_VERIFY([&] {
        for (auto* label : page.findChildren<QLabel*>())
            if (label->text()
                == QStringLiteral(
                    "SFT starts 62%, seed 1's training · 1 min 05 s elapsed · ETA 2 min 10 s · then 4 trials"))
                return true;
        return false;
    }());

    QString error;
    QVERIFY2(dialog->exportTo(dir.filePath("report"), &error), qPrintable(error));
    for (const char* name : { "report/report.md", "report/eval_success.svg", "report/rollout_invalid_rate.svg",
             "report/eval_success.png", "report/rollout_invalid_rate.png", "report/profile_eval_success_at_end.svg" })
        QVERIFY2(QFile::exists(dir.filePath(name)), name);
    const QImage png(dir.filePath("report/eval_success.png"));
    QCOMPARE(png.size(), QSize(1440, 840));
    dialog->close();

    // Names in the report are data: markup in them shows as written, never rendered (issue 22 §8).
    const qint64 sweepId = list->currentIndex().data(IdRole).toLongLong();
    workspace.store()
        ->database()
        .prepare("UPDATE sweep SET name = ? WHERE id = ?")
        .bind(1, std::string("tiny <b>MARKUP</b><img src=\"x.png\">"))
        .bind(2, static_cast<std::int64_t>(sweepId))
        .exec();
    ReportDialog* again = page.openReport();
    QVERIFY(again);
    QVERIFY2(again->text().contains(QStringLiteral("tiny <b>MARKUP</b><img src=\"x.png\">")), qPrintable(again->text()));
    again->close();
}

void TestUiSweep::trialModelUnderTester()
{
    TrialModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto p = grid();
    model.setSnapshot(p);
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.columnCount(), 3 + 5);
    QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QString("x"));
    QCOMPARE(model.headerData(3, Qt::Horizontal).toString(), QString("seed"));
    QCOMPARE(model.columnKind(4), TrialModel::Column::Run);
    QCOMPARE(model.columnOf(TrialModel::Column::Objective), 7);
    QCOMPARE(model.index(1, 0).data().toString(), QString("2"));
    QCOMPARE(model.index(1, model.columnOf(TrialModel::Column::Run)).data().toString(), QString("11"));
    QCOMPARE(model.index(1, model.columnOf(TrialModel::Column::Progress)).data().toString(), QString("done"));
    QCOMPARE(model.index(2, 1).data(SortRole).toDouble(), 0.25);

    // A running trial advancing: the row changes in place, no reset.
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    p.trials[3].phase = Phase::Rl;
    p.trials[3].iteration = 1;
    p.trials[3].iterations = 4;
    p.trials[3].runId = 13;
    model.setSnapshot(p);
    QCOMPARE(reset.count(), 0);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.at(0).at(0).toModelIndex().row(), 3);
    QCOMPARE(model.index(3, model.columnOf(TrialModel::Column::Progress)).data().toString(), QString("1/4"));
    p.trials[3].status = TrialStatus::Failed;
    p.trials[3].error = "boom <b>";
    model.setSnapshot(p);
    QVERIFY(model.index(3, 0).data(Qt::ToolTipRole).toString().contains("boom &lt;b&gt;"));

    // Another sweep: a reset.
    model.setStoredTrials(
        7, { { 1, 7, 20, "a=1,seed=0", TrialStatus::Finished, 0.5 }, { 2, 7, {}, "a=2,seed=0", TrialStatus::Pending, {} } });
    QCOMPARE(reset.count(), 1);
    QCOMPARE(model.sweepId(), std::int64_t(7));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.columnCount(), 2 + 5);
    QCOMPARE(model.index(0, model.columnOf(TrialModel::Column::Objective)).data().toString(), QString("0.5"));
    QCOMPARE(model.index(1, model.columnOf(TrialModel::Column::Run)).data().toString(), QString());
    // A trial another process runs: its iterations come from its run row.
    RunInfo running;
    running.id = 21;
    running.iterationsDone = 16;
    running.iterationsPlanned = 30;
    model.setStoredTrials(7, { { 1, 7, 21, "a=1,seed=0", TrialStatus::Running, {} } }, { { 21, running } });
    QCOMPARE(model.index(0, model.columnOf(TrialModel::Column::Progress)).data().toString(), QString("16/30"));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestUiSweep::aggregatesOverSeeds()
{
    TrialModel model;
    model.setSnapshot(grid());
    const std::vector<std::optional<double>> values { 0.2, 0.4, 1.0, std::nullopt };
    const auto one = model.aggregate(values, "x", "");
    QVERIFY(one.numericX);
    QCOMPARE(one.xLabels, QStringList({ "0.25", "0.5" })); // numeric order
    QCOMPARE(one.yLabels.size(), 1);
    QCOMPARE(one.count, (std::vector<int> { 1, 2 }));
    QCOMPARE(one.mean[1], 0.3);
    QVERIFY(std::abs(one.std[1] - std::sqrt(0.02)) < 1e-12); // sample std of 0.2 and 0.4
    QVERIFY(std::isnan(one.std[0]));
    const auto two = model.aggregate(values, "x", "mode");
    QCOMPARE(two.yLabels, QStringList({ "a,b", "say \"c\"" }));
    QCOMPARE(two.mean.size(), std::size_t(4));
    QCOMPARE(two.mean[0], 1.0); // mode a,b; x 0.25
    QVERIFY(std::isnan(two.mean[2])); // the failed trial has no value
    const auto categorical = model.aggregate(values, "mode", "");
    QVERIFY(!categorical.numericX);
}

void TestUiSweep::csvQuotesFields()
{
    TrialModel model;
    model.setSnapshot(grid());
    const QStringList lines = model.toCsv().split('\n');
    QCOMPARE(lines.size(), 6); // header, 4 rows, the empty string after the final newline
    QCOMPARE(lines[0], QString("Trial,x,mode,seed,Run,Status,Progress,Objective"));
    QCOMPARE(lines[1], QString("1,0.5,\"a,b\",0,10,finished,done,0.20000000000000001"));
    QCOMPARE(lines[4], QString("4,0.25,\"say \"\"c\"\"\",1,,running,setting up,"));
    QTemporaryDir dir;
    const QString path = dir.filePath("trials.csv");
    QVERIFY(model.writeCsv(path));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(f.readAll()), model.toCsv());
    QString error;
    QVERIFY(!model.writeCsv(dir.filePath("missing/dir/trials.csv"), &error));
    QVERIFY(!error.isEmpty());
}

/// The preset list offers the shipped experiments beside the sweeps, and one picked parses with its relative base
/// (../configs/household-grpo.yaml) resolved.
void TestUiSweep::shippedExperimentsArePresets()
{
    QTemporaryDir dir;
    Workspace workspace;
    QVERIFY(workspace.open(dir.filePath("runs.db")));
    SweepPage page(&workspace);
    QComboBox* presets = nullptr;
    for (auto* box : page.findChildren<QComboBox*>())
        if (box->itemText(0) == QStringLiteral("Presets…"))
            presets = box;
    QVERIFY(presets);
    const QDir shipped(QStringLiteral(CREDITLAB_SOURCE_DIR "/resources/experiments"));
    const QStringList files = shipped.entryList({ QStringLiteral("*.yaml") }, QDir::Files, QDir::Name);
    QVERIFY(files.size() >= 7);
    for (const QString& file : files) {
        const QString label = QStringLiteral("experiment: ") + QFileInfo(file).completeBaseName();
        const int index = presets->findText(label);
        QVERIFY2(index > 0, qPrintable(label));
        Q_EMIT presets->activated(index);
        QTRY_VERIFY2(page.trialPreview()->text().contains(QStringLiteral("trials"))
                && !page.trialPreview()->text().startsWith(QStringLiteral("Not a valid")),
            qPrintable(label + QStringLiteral(": ") + page.trialPreview()->text()));
    }
    QVERIFY(presets->findText(QStringLiteral("sweep-has-alpha")) > 0);
}

void TestUiSweep::controllerRefusesBadSweeps()
{
    {
        // The editor's preview says why a sweep is not valid yet, naming the line (source:line).
        QTemporaryDir dir;
        Workspace workspace;
        QVERIFY(workspace.open(dir.filePath("runs.db")));
        SweepPage page(&workspace);
        page.findChild<QPlainTextEdit*>()->setPlainText(QStringLiteral("grid:\n  rl.clip: [0.1\n"));
        QTRY_VERIFY2(page.trialPreview()->text().startsWith(QStringLiteral("Not a valid sweep yet:")),
            qPrintable(page.trialPreview()->text()));
        QVERIFY2(page.trialPreview()->text().contains(QStringLiteral("sweep:3:")), qPrintable(page.trialPreview()->text()));
    }
    QTemporaryDir dir;
    SweepController controller;
    QString error;
    SweepRequest request;
    request.database = dir.filePath("runs.db");
    request.sweepText = QString(kTinySweep) + "gird: 1\n";
    request.source = "bad.yaml";
    QVERIFY(!controller.start(request, &error));
    QVERIFY2(error.contains("bad.yaml:15: unknown key 'gird'"), qPrintable(error));
    request.sweepText = kTinySweep;
    request.workers = 100000;
    QVERIFY(!controller.start(request, &error));
    QVERIFY2(error.contains("exceeds"), qPrintable(error));
    QVERIFY(!controller.isRunning());
    QVERIFY(!QFile::exists(request.database)); // nothing was written
}

void TestUiSweep::pageRunsTinySweep()
{
    QTemporaryDir dir;
    Workspace workspace;
    QVERIFY(workspace.open(dir.filePath("runs.db")));
    const QString file = writeFile(dir, "tiny-sweep.yaml", kTinySweep);
    QVERIFY(!file.isEmpty());
    SweepPage page(&workspace);
    page.resize(1200, 800);
    page.show();
    page.openSweepFile(file);
    // Before starting: the trials it would run, their count and grid.
    QTRY_COMPARE(page.trialPreview()->text(),
        QStringLiteral("4 trials: rl.clip \u2208 {0.1, 0.3} \u00d7 kl.mode \u2208 {fixed, adaptive} · 1 at a time"));
    QSignalSpy started(page.controller(), &SweepController::sweepStarted);
    QSignalSpy progressed(page.controller(), &SweepController::progressed);
    QSignalSpy finished(page.controller(), &SweepController::sweepFinished);
    QSignalSpy runsChanged(&workspace, &Workspace::runsChanged);
    page.startSweep();
    QVERIFY(page.controller()->isRunning());
    QVERIFY(finished.wait(240000));
    QCOMPARE(finished.at(0).at(0).value<TrialStatus>(), TrialStatus::Finished);
    QCOMPARE(started.count(), 1);
    QVERIFY(progressed.count() >= 2);
    QVERIFY(runsChanged.count() >= 1);
    // After the end: how long it took, not "elapsed" (nor an ETA).
    QTRY_VERIFY(page.etaLabel()->text().startsWith(QStringLiteral("4 of 4 trials")));
    QVERIFY2(!page.etaLabel()->text().contains(QStringLiteral("elapsed")), qPrintable(page.etaLabel()->text()));
    QVERIFY2(!page.etaLabel()->text().contains(QStringLiteral("ETA")), qPrintable(page.etaLabel()->text()));

    TrialModel* model = page.trialModel();
    QCOMPARE(model->rowCount(), 4);
    QCOMPARE(static_cast<qlonglong>(model->sweepId()), started.at(0).at(0).toLongLong());
    for (int row = 0; row < 4; ++row) {
        QCOMPARE(model->index(row, model->columnOf(TrialModel::Column::Status)).data().toString(), QString("finished"));
        QVERIFY(model->trials()[static_cast<std::size_t>(row)].objective);
    }
    QCOMPARE(static_cast<int>(workspace.store()->runs().size()), 4);

    // Two swept keys: the heatmap shows the mean objective of each (kl.mode, rl.clip) cell.
    auto* heatmap = page.findChild<charts::HeatmapChart*>();
    QVERIFY(heatmap);
    QVERIFY(heatmap->isVisible());
    const auto& trials = model->trials();
    QCOMPARE(heatmap->value(0, 0), *trials[0].objective); // kl.mode fixed, rl.clip 0.1
    QCOMPARE(heatmap->value(1, 1), *trials[3].objective); // kl.mode adaptive, rl.clip 0.3

    const QString csv = dir.filePath("trials.csv");
    QVERIFY(model->writeCsv(csv));
    QFile f(csv);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(f.readAll()).trimmed().split('\n');
    QCOMPARE(lines.size(), 5);
    QCOMPARE(lines[0], QString("Trial,rl.clip,kl.mode,Run,Status,Progress,Objective"));
    QVERIFY2(lines[4].startsWith("4,0.3,adaptive,"), qPrintable(lines[4]));
    QVERIFY(lines[4].contains(",finished,done,"));
    QVERIFY(heatmap->exportImage(dir.filePath("heatmap.png")));
    QVERIFY(QFileInfo(dir.filePath("heatmap.png")).size() > 0);
}

void TestUiSweep::oneKeyGivesErrorBarsAndStoredSweepsReopen()
{
    QTemporaryDir dir;
    Workspace workspace;
    QVERIFY(workspace.open(dir.filePath("runs.db")));
    const QString file
        = writeFile(dir, "seeds.yaml", QByteArray(kTinySweep).replace("  kl.mode: [fixed, adaptive]\n", "seeds: [0, 1]\n"));
    QVERIFY(!file.isEmpty());
    SweepPage page(&workspace);
    page.show();
    page.openSweepFile(file);
    QSignalSpy finished(page.controller(), &SweepController::sweepFinished);
    page.startSweep();
    QVERIFY(finished.wait(240000));
    QCOMPARE(finished.at(0).at(0).value<TrialStatus>(), TrialStatus::Finished);
    QCOMPARE(page.trialModel()->keys(), (std::vector<std::string> { "rl.clip", "seed" }));

    // One swept key besides the seed: mean ± std over the seeds against rl.clip.
    auto* errorBars = page.findChild<charts::ErrorBarChart*>();
    QVERIFY(errorBars);
    QVERIFY(errorBars->isVisible());
    QCOMPARE(errorBars->seriesCount(), 1);

    // The stored sweeps list: selecting the sweep shows its trials from the store.
    auto* list = page.findChild<QListView*>();
    QVERIFY(list);
    QCOMPARE(list->model()->rowCount(), 1);
    QCOMPARE(list->currentIndex().row(), 0); // the sweep that ran is the one selected
    page.trialModel()->clear();
    list->setCurrentIndex(QModelIndex());
    list->setCurrentIndex(list->model()->index(0, 0));
    QCOMPARE(page.trialModel()->rowCount(), 4);
    QCOMPARE(page.trialModel()->trials()[3].status, TrialStatus::Finished);
    QVERIFY(page.trialModel()->trials()[3].objective);
    QVERIFY(errorBars->isVisible());
}

void TestUiSweep::experimentStoppedInItsSftResumesFromThePage()
{
    // Stop during the shared SFT: the experiment is listed as stopped with Resume enabled (it stays selected), and
    // Resume finishes that SFT run and the trials: one SFT run, four trial runs.
    QTemporaryDir dir;
    Workspace workspace;
    QVERIFY(workspace.open(dir.filePath("runs.db")));
    const QString file = writeFile(
        dir, "tiny-exp.yaml", QByteArray(kTinyExperiment).replace("epochs: 1, batch_size: 32", "epochs: 3, batch_size: 8"));
    QVERIFY(!file.isEmpty());
    SweepPage page(&workspace);
    page.resize(1200, 800);
    page.show();
    page.openSweepFile(file);
    QApplication::setActiveWindow(&page); // the page's keys are window shortcuts
    const auto stopInSft
        = QObject::connect(page.controller(), &SweepController::progressed, &page, [&](const SweepSnapshot& p) {
              if (p->sftFraction >= 0.0) // Ctrl+. is the Stop button's key
                  QTest::keyClick(&page, Qt::Key_Period, Qt::ControlModifier);
          });
    QSignalSpy finished(page.controller(), &SweepController::sweepFinished);
    page.startSweep();
    QVERIFY(finished.wait(120000));
    QCOMPARE(finished.at(0).at(0).value<TrialStatus>(), TrialStatus::Cancelled);
    QCOMPARE(static_cast<int>(workspace.store()->runs().size()), 1); // the SFT run, stopped
    QPushButton* resume = nullptr;
    for (auto* b : page.findChildren<QPushButton*>())
        if (b->text() == QStringLiteral("Resume"))
            resume = b;
    QVERIFY(resume);
    QVERIFY(resume->isEnabled());
    QVERIFY(!page.etaLabel()->text().contains(QStringLiteral("ETA"))); // nothing left is estimated once stopped
    // The end line says where it stopped (it said "Sweep 1: cancelled.").
    QVERIFY2(page.messageLabel()->text().contains(QStringLiteral("stopped during its shared SFT")),
        qPrintable(page.messageLabel()->text()));

    QObject::disconnect(stopInSft);
    resume->click();
    QVERIFY(finished.wait(240000));
    QCOMPARE(finished.at(1).at(0).value<TrialStatus>(), TrialStatus::Finished);
    const auto runs = workspace.store()->runs();
    QCOMPARE(static_cast<int>(runs.size()), 5);
    QCOMPARE(std::count_if(runs.begin(), runs.end(), [](const RunInfo& r) { return r.kind == RunKind::Train; }), 1L);
    QVERIFY(!resume->isEnabled());
}

void TestUiSweep::aSweepGoesOnInItsDatabaseWhenAnotherOpens()
{
    // Opening another database while an experiment runs: it goes on in its own, and the page says where it runs
    // (the progress above a list of the other database's sweeps read as if it were that database's).
    QTemporaryDir dir;
    Workspace workspace;
    QVERIFY(workspace.open(dir.filePath("runs.db")));
    const QString file = writeFile(dir, "tiny-exp.yaml", QByteArray(kTinyExperiment));
    QVERIFY(!file.isEmpty());
    SweepPage page(&workspace);
    page.resize(1200, 800);
    page.show();
    page.openSweepFile(file);
    QSignalSpy started(page.controller(), &SweepController::sweepStarted);
    QSignalSpy finished(page.controller(), &SweepController::sweepFinished);
    page.startSweep();
    QCOMPARE(page.messageLabel()->text(), QStringLiteral("Running…"));
    QVERIFY(started.count() > 0 || started.wait(60000));
    QVERIFY(workspace.open(dir.filePath("other.db")));
    QVERIFY2(page.messageLabel()->text().startsWith(QStringLiteral("Running in runs.db")),
        qPrintable(page.messageLabel()->text()));
    page.requestStop();
    QVERIFY(finished.count() > 0 || finished.wait(120000));
    QVERIFY2(page.messageLabel()->text().contains(QStringLiteral("It ran in runs.db")),
        qPrintable(page.messageLabel()->text()));
    QVERIFY(workspace.store()->sweeps().empty());
    QVERIFY(workspace.store()->runs().empty());
    QVERIFY(workspace.open(dir.filePath("runs.db")));
    QCOMPARE(static_cast<int>(workspace.store()->sweeps().size()), 1);
}

void TestUiSweep::figureLegendsFitLongArmNames()
{
    // has's arms ("a075_nofilm (3 seeds)") ran past the PNG's and the SVG's right edge with a fixed legend column.
    learn::ExperimentReport report;
    report.spec.name = "legend";
    for (const char* name : { "a1", "a075_nofilm", "an_arm_with_a_much_longer_name" }) {
        learn::SweepArm arm;
        arm.name = name;
        report.spec.arms.push_back(arm);
        learn::ArmCurve c;
        c.arm = name;
        c.metric = "eval/success";
        c.iterations = { 0, 10, 20 };
        c.mean = { 0.3, 0.4, 0.5 };
        c.std = { 0.01, 0.02, 0.03 };
        c.seeds = 3;
        report.curves.push_back(c);
    }
    // The PNG: nothing drawn in the last 4 pixel columns.
    const QImage image = paintCurves(report, "eval/success", QSize(720, 420), 1.0).convertToFormat(QImage::Format_RGB32);
    for (int x = image.width() - 4; x < image.width(); ++x)
        for (int y = 0; y < image.height(); ++y)
            QVERIFY2(image.pixel(x, y) == qRgb(255, 255, 255), qPrintable(QStringLiteral("ink at (%1, %2)").arg(x).arg(y)));
    // The SVG: every legend entry starts far enough from the right edge for its text.
    const QString svg = QString::fromStdString(learn::curveSvg(report, "eval/success"));
    const QRegularExpression entry(QStringLiteral("<text x=\"([0-9.]+)\" y=\"[0-9.]+\">([^<]*seeds\\))</text>"));
    int entries = 0;
    for (auto it = entry.globalMatch(svg); it.hasNext(); ++entries) {
        const auto m = it.next();
        QVERIFY2(m.captured(1).toDouble() + 7.2 * m.captured(2).size() <= 720.0, qPrintable(m.captured(0)));
    }
    QCOMPARE(entries, 3);
}

QTEST_MAIN(TestUiSweep)
#include "tst_ui_sweep.moc"
