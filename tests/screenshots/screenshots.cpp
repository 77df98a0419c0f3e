// Renders the workbench's pages on a database into PNG files: the screenshots of docs/ and the README's tour.
// Built on demand (target `screenshots`); run offscreen:
//   build/release/bin/creditlab-screenshots DATABASE OUTDIR [COMPARE_RUN_IDS...]
// The pages are shown as a user finds them: the newest training run monitored, every training run compared on
// eval/success, the triage preset in the launcher, the newest sweep's results.
#include "core/storage/store.h"
#include "ui/agreement/agreementpage.h"
#include "ui/annotate/annotationpage.h"
#include "ui/compare/comparepage.h"
#include "ui/credit/creditpage.h"
#include "ui/launch/launcherpage.h"
#include "ui/launch/runcontroller.h"
#include "ui/monitor/monitorpage.h"
#include "ui/probe/probedialog.h"
#include "ui/runs/runbrowserpage.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/settings.h"
#include "ui/sweeps/sweepcontroller.h"
#include "ui/sweeps/sweeppage.h"
#include "ui/trees/treepage.h"

#include <QApplication>
#include <QDir>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>

using namespace creditlab;

namespace {

void settle(int ms = 300)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

bool save(ui::MainWindow& window, const QString& dir, const QString& name)
{
    settle();
    const QString path = QDir(dir).filePath(name + QStringLiteral(".png"));
    const bool ok = window.grab().save(path);
    std::printf("%s %s\n", ok ? "wrote" : "FAILED", qPrintable(path));
    return ok;
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    if (argc < 3) {
        std::fprintf(stderr, "usage: creditlab-screenshots DATABASE OUTDIR [COMPARE_RUN_IDS...]\n");
        return 2;
    }
    const QString db = QString::fromLocal8Bit(argv[1]);
    const QString out = QString::fromLocal8Bit(argv[2]);
    QDir().mkpath(out);
    QTemporaryDir settingsDir;
    ui::MainWindow window(std::make_unique<ui::Settings>(settingsDir.filePath(QStringLiteral("settings.ini"))));
    if (!window.openDatabase(db)) {
        std::fprintf(stderr, "creditlab-screenshots: cannot open %s\n", qPrintable(db));
        return 1;
    }
    window.resize(1500, 920);
    window.show();

    QList<qint64> trained;
    qint64 newest = 0;
    {
        Store store(db.toStdString());
        for (const auto& run : store.runs())
            if (run.kind == RunKind::Train) {
                trained.append(run.id);
                newest = run.id;
            }
    }
    QList<qint64> compared;
    for (int i = 3; i < argc; ++i)
        compared.append(QString::fromLocal8Bit(argv[i]).toLongLong());
    if (compared.isEmpty())
        compared = trained;

    bool ok = true;
    window.showPage(ui::MainWindow::Page::Runs);
    if (newest)
        window.runBrowser()->selectRun(newest);
    ok &= save(window, out, QStringLiteral("runs"));

    window.showPage(ui::MainWindow::Page::Launch);
    QString error;
    window.launcher()->loadPreset(QStringLiteral("household-triage.yaml"), &error);
    ok &= save(window, out, QStringLiteral("launch"));

    if (newest) {
        window.monitor()->showRun(newest);
        window.showPage(ui::MainWindow::Page::Monitor);
        ok &= save(window, out, QStringLiteral("monitor"));
    }

    if (!compared.isEmpty()) {
        QSignalSpy loaded(window.compare(), &ui::ComparePage::loaded);
        window.compare()->setRuns(compared);
        loaded.wait(30000);
        window.compare()->setMetric(QStringLiteral("eval/success"));
        window.showPage(ui::MainWindow::Page::Compare);
        ok &= save(window, out, QStringLiteral("compare"));
    }

    if (!compared.isEmpty()) {
        QSignalSpy loaded(window.credit(), &ui::CreditPage::loaded);
        window.showPage(ui::MainWindow::Page::Credit);
        // CREDITLAB_SCREENSHOT_CREDIT_RUN picks the run (default: the first compared one); the page's own default
        // methods (the run's method and its nearest rival).
        const qint64 creditRun = qEnvironmentVariableIsSet("CREDITLAB_SCREENSHOT_CREDIT_RUN")
            ? qEnvironmentVariable("CREDITLAB_SCREENSHOT_CREDIT_RUN").toLongLong()
            : compared.first();
        window.credit()->showRun(creditRun);
        loaded.wait(30000);
        ok &= save(window, out, QStringLiteral("credit"));
    }
    if (!compared.isEmpty()) {
        const qint64 treeRun = qEnvironmentVariableIsSet("CREDITLAB_SCREENSHOT_CREDIT_RUN")
            ? qEnvironmentVariable("CREDITLAB_SCREENSHOT_CREDIT_RUN").toLongLong()
            : compared.first();
        QSignalSpy loaded(window.trees(), &ui::TreePage::loaded);
        window.showPage(ui::MainWindow::Page::Trees);
        window.trees()->showRun(treeRun);
        loaded.wait(30000);
        ok &= save(window, out, QStringLiteral("trees"));

        // Annotation: a few turns labelled by "alice" with the keyboard's functions, judge labels shown.
        window.showPage(ui::MainWindow::Page::Annotate);
        QSignalSpy annotationLoaded(window.annotation(), &ui::AnnotationPage::loaded);
        window.annotation()->setRun(treeRun); // read in the background
        annotationLoaded.wait(30000);
        window.annotation()->setAnnotator(QStringLiteral("alice"));
        for (const Role role : { Role::E, Role::E, Role::D, Role::N, Role::R })
            window.annotation()->labelCurrent(role);
        ok &= save(window, out, QStringLiteral("annotate"));
    }
    {
        QSignalSpy loaded(window.agreement(), &ui::AgreementPage::loaded);
        window.showPage(ui::MainWindow::Page::Agreement);
        loaded.wait(5000);
        ok &= save(window, out, QStringLiteral("agreement"));
    }

    window.showPage(ui::MainWindow::Page::Sweeps);
    // CREDITLAB_SCREENSHOT_SWEEP=FILE runs that sweep from the Sweeps page first (its trials go into the database).
    if (const QString sweepFile = qEnvironmentVariable("CREDITLAB_SCREENSHOT_SWEEP"); !sweepFile.isEmpty()) {
        QSignalSpy done(window.sweeps()->controller(), &ui::SweepController::sweepFinished);
        QSignalSpy failed(window.sweeps()->controller(), &ui::SweepController::sweepFailed);
        window.sweeps()->openSweepFile(sweepFile);
        window.sweeps()->startSweep();
        while (done.isEmpty() && failed.isEmpty())
            done.wait(600000);
        if (!failed.isEmpty())
            std::fprintf(stderr, "creditlab-screenshots: the sweep failed: %s\n",
                qPrintable(failed.first().first().toString()));
        std::printf("sweep %s\n", done.isEmpty() ? "failed" : std::string(trialStatusName(done.first().first().value<TrialStatus>())).c_str());
    }
    ok &= save(window, out, QStringLiteral("sweeps"));

    // PAIR's AUROC table of a training run (CREDITLAB_SCREENSHOT_PROBE_RUN=ID; its policy files must be beside the
    // database), computed in the dialog as a user would.
    if (const qint64 probeRun = qEnvironmentVariable("CREDITLAB_SCREENSHOT_PROBE_RUN").toLongLong(); probeRun > 0) {
        ui::ProbeDialog dialog(window.workspace(), probeRun, &window);
        dialog.resize(1100, 760);
        dialog.show();
        QSignalSpy finished(&dialog, &ui::ProbeDialog::computationFinished);
        if (dialog.start(&error) && finished.wait(600000)) {
            settle();
            const QString path = QDir(out).filePath(QStringLiteral("probes.png"));
            ok &= dialog.grab().save(path);
            std::printf("wrote %s\n", qPrintable(path));
        } else {
            std::fprintf(stderr, "creditlab-screenshots: the probe table failed: %s\n", qPrintable(error));
            ok = false;
        }
    }

    // A run launched here, caught while it trains: progress, pause and stop, the log (CREDITLAB_SCREENSHOT_LIVE=1;
    // it trains the tiny preset for a few iterations into the database).
    if (qEnvironmentVariableIntValue("CREDITLAB_SCREENSHOT_LIVE") == 1) {
        window.launcher()->loadPreset(QStringLiteral("household-tiny.yaml"), &error);
        window.launcher()->setValue(QStringLiteral("rl.iterations"), QStringLiteral("12"));
        window.launcher()->setValue(QStringLiteral("name"), QStringLiteral("triage-live"));
        QSignalSpy curves(window.monitor(), &ui::MonitorPage::curvesUpdated);
        QSignalSpy finished(window.runController(), &ui::RunController::runFinished);
        if (!window.launcher()->startRun(&error)) {
            std::fprintf(stderr, "creditlab-screenshots: %s\n", qPrintable(error));
            return 1;
        }
        while (curves.count() < 8 && finished.isEmpty())
            curves.wait(120000);
        ok &= save(window, out, QStringLiteral("monitor-live"));
        window.runController()->requestStop();
        finished.wait(120000);
    }
    return ok ? 0 : 1;
}
