// The main window's databases and imports (mainwindow.h): opening a database (File → Open Database and its dialog),
// importing JSONL files in the background (File → Import, with or without options), and the first-start sample,
// imported and then given its credits.
#include "ui/shell/mainwindow.h"

#include "core/credit/estimator.h"
#include "core/credit/runcredits.h"
#include "core/storage/paths.h"
#include "core/storage/store.h"
#include "ui/common/filedialogs.h"
#include "ui/common/textutil.h"
#include "ui/runs/runbrowserpage.h"
#include "ui/shell/importjob.h"
#include "ui/shell/importoptionsdialog.h"
#include "ui/shell/mainwindow_p.h"
#include "ui/shell/workspace.h"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLocale>
#include <QSaveFile>
#include <QStatusBar>
#include <QtConcurrent/QtConcurrentRun>

namespace creditlab::ui {

bool MainWindow::openDatabase(const QString& path, QString* errorMessage)
{
    QString error;
    if (m_importJob->isRunning())
        error = tr("An import is running. Wait for it to finish or cancel it, then open another database.");
    else if (!m_workspace->open(path, &error) && error.isEmpty())
        error = tr("%1: cannot open the database").arg(path);

    if (!error.isEmpty()) {
        if (errorMessage)
            *errorMessage = error;
        else
            showError(tr("Cannot open database"),
                m_workspace->isOpen()
                    ? tr("The database was not opened; %1 stays open.").arg(QFileInfo(m_workspace->path()).fileName())
                    : tr("The database was not opened."),
                error);
        Q_EMIT databaseOpenFailed(error);
        return false;
    }
    m_settings->setLastDatabasePath(m_workspace->path());
    m_settings->addRecentDatabase(m_workspace->path());
    rebuildRecentMenu();
    updateTitle();
    updateActions();
    statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(m_workspace->path())), kStatusTimeoutMs);
    Q_EMIT databaseOpened(m_workspace->path());
    return true;
}

void MainWindow::importFiles(const QStringList& files, const ImportOptions& options)
{
    if (files.isEmpty())
        return;
    if (!m_workspace->isOpen()) {
        const QString message = tr("Open a database before importing.");
        showError(tr("Import failed"), message, {});
        Q_EMIT importFailed(message);
        return;
    }
    m_settings->setLastImportDirectory(QFileInfo(files.constLast()).absolutePath());
    m_importJob->start(m_workspace->path(), files, options);
}

void MainWindow::cancelImport() { m_importJob->cancel(); }

void MainWindow::chooseDatabase()
{
    const std::unique_ptr<QFileDialog> dialog(createOpenDatabaseDialog());
    if (dialog->exec() == QDialog::Accepted && !dialog->selectedFiles().isEmpty())
        openDatabase(dialog->selectedFiles().constFirst());
}

QFileDialog* MainWindow::createOpenDatabaseDialog()
{
    const QString start = m_workspace->isOpen() ? QFileInfo(m_workspace->path()).absolutePath() : QDir::homePath();
    // Lists the folder of the open database: names only, never its files (ui/common/filedialogs.h).
    auto* dialog
        = createFileDialog(this, tr("Open Database"), start, tr("CreditLab databases (*.db *.sqlite);;All files (*)"));
    // An Open dialog (its button says Open) that also takes a new file name: opening one creates the database.
    dialog->setAcceptMode(QFileDialog::AcceptOpen);
    dialog->setFileMode(QFileDialog::AnyFile);
    dialog->setLabelText(QFileDialog::Accept, tr("&Open"));
    return dialog;
}

void MainWindow::chooseImportFiles()
{
    QString start = m_settings->lastImportDirectory();
    if (start.isEmpty())
        start = QDir::homePath();
    const QStringList files = filedialogs::getOpenFileNames(
        this, tr("Import Trajectories"), start, tr("JSON Lines (*.jsonl *.json);;All files (*)"));
    importFiles(files);
}

ImportOptionsDialog* MainWindow::createImportOptionsDialog()
{
    QString start = m_settings->lastImportDirectory();
    if (start.isEmpty())
        start = QDir::homePath();
    return new ImportOptionsDialog(start, this);
}

void MainWindow::chooseImportWithOptions()
{
    std::unique_ptr<ImportOptionsDialog> dialog(createImportOptionsDialog());
    if (dialog->exec() == QDialog::Accepted)
        importFiles(dialog->files(), dialog->options());
}

void MainWindow::onFileImported(qint64 runId, const QString& file, quint64 trajectories, quint64 turns, double seconds)
{
    m_workspace->notifyRunsChanged();
    m_browser->selectRun(runId);
    if (!m_samplePath.isEmpty() && file == m_samplePath) {
        m_samplePath.clear();
        computeSampleCredits(runId);
    }
    const QLocale locale;
    statusBar()->showMessage(tr("Imported %1: %2 trajectories, %3 turns in %4 s")
                                 .arg(QFileInfo(file).fileName(), locale.toString(trajectories), locale.toString(turns),
                                     locale.toString(seconds, 'f', 1)),
        kStatusTimeoutMs);
    Q_EMIT importFinished(runId);
}

bool MainWindow::importSample(QString* error)
{
    const auto fail = [error](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    if (!m_workspace->isOpen())
        return fail(tr("No database is open."));
    if (m_importJob->isRunning())
        return fail(tr("An import is running; try again when it ends."));
    // The importer reads files: write the bundled sample out next to the user's data, once.
    // In the data folder the default database lives in (core/storage/paths.h), not Qt's per-application one beside it.
    const QString dir = toQString(dataDirectory()) + QStringLiteral("/samples");
    const QString target = dir + QStringLiteral("/household-sample.jsonl");
    QFile bundled(QStringLiteral(":/samples/household-sample.jsonl"));
    if (!bundled.open(QIODevice::ReadOnly))
        return fail(tr("The bundled sample is missing from this build."));
    const QByteArray content = bundled.readAll();
    QFile existing(target);
    if (!existing.open(QIODevice::ReadOnly) || existing.readAll() != content) {
        existing.close();
        QSaveFile out(target);
        if (!QDir().mkpath(dir) || !out.open(QIODevice::WriteOnly) || out.write(content) != content.size()
            || !out.commit())
            return fail(tr("Cannot write %1: %2").arg(target, out.errorString()));
    }
    m_samplePath = target;
    importFiles({ target });
    return true;
}

void MainWindow::computeSampleCredits(qint64 runId)
{
    const std::string path = m_workspace->path().toStdString();
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, runId] {
        watcher->deleteLater();
        Q_EMIT sampleReady(runId, watcher->result());
    });
    statusBar()->showMessage(tr("Computing the sample's credits (grpo, gigpo, triage, rtmc)…"));
    watcher->setFuture(QtConcurrent::run([path, runId]() -> QString {
        try {
            Store store(path); // this thread's own connection
            for (const char* name : { "grpo", "gigpo", "triage", "rtmc" }) {
                const auto& method = credit::requireEstimator(name);
                credit::computeRunCredits(store, runId, std::nullopt, method, method.resolve({}));
            }
            return {};
        } catch (const std::exception& e) {
            return toQString(e.what());
        }
    }));
}

} // namespace creditlab::ui
