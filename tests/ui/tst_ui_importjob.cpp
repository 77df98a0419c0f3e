// File → Import's background job on foreign formats: each file's format is detected (chat records, a verl
// dump), each lands as one run; a bad line fails the file with its file, line and field and imports nothing.
// The sample files are the core tests' (tests/core/data/import; their sources are cited in tst_import_formats).
#include "core/storage/store.h"
#include "ui/runs/runbrowserpage.h"
#include "ui/runs/runmodel.h"
#include "ui/shell/importjob.h"
#include "ui/shell/importoptionsdialog.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/settings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace creditlab;
using creditlab::ui::ImportJob;

class TestImportJob : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void detectsEachFilesFormat();
    void sessionFilesAreOneRun();
    void badForeignLineFailsTheFile();
    void optionsDialogImportsWithAMappingFile();
    void undetectableFileSaysWhereToGo();

private:
    QTemporaryDir m_dir;
};

namespace {

QString sample(const char* name) { return QStringLiteral(CREDITLAB_IMPORT_SAMPLES "/") + QLatin1String(name); }

} // namespace

void TestImportJob::detectsEachFilesFormat()
{
    const QString db = m_dir.filePath(QStringLiteral("detect.db"));
    ImportJob job;
    QSignalSpy imported(&job, &ImportJob::fileImported);
    QSignalSpy failed(&job, &ImportJob::failed);
    QSignalSpy finished(&job, &ImportJob::finished);
    job.start(db, { sample("chat.jsonl"), sample("3.jsonl"), sample("agentgym.jsonl"), sample("steps.jsonl") });
    QVERIFY(finished.wait(60000));
    QCOMPARE(failed.count(), 0);
    QCOMPARE(imported.count(), 4);
    // fileImported(runId, file, trajectories, turns, seconds)
    QCOMPARE(imported.at(0).at(2).toULongLong(), 3ull);
    QCOMPARE(imported.at(0).at(3).toULongLong(), 5ull);
    QCOMPARE(imported.at(1).at(2).toULongLong(), 4ull);
    QCOMPARE(imported.at(1).at(3).toULongLong(), 7ull);
    QCOMPARE(imported.at(2).at(3).toULongLong(), 4ull);
    QCOMPARE(imported.at(3).at(2).toULongLong(), 2ull);
    {
        // Each run records the format its source named, and the Runs page shows it beside the kind.
        Store store(db.toStdString(), Store::Access::ReadOnly);
        const auto runs = store.runs();
        QCOMPARE(runs.size(), std::size_t(4));
        QCOMPARE(runs[0].sourceFormat, std::optional<std::string>("chat"));
        QCOMPARE(runs[1].sourceFormat, std::optional<std::string>("verl"));
        QCOMPARE(runs[2].sourceFormat, std::optional<std::string>("sharegpt"));
        QCOMPARE(runs[3].sourceFormat, std::optional<std::string>("steps"));
    }
    ui::MainWindow window(std::make_unique<ui::Settings>(m_dir.filePath(QStringLiteral("detect.ini"))));
    QVERIFY(window.openDatabase(db));
    const ui::RunModel* model = window.runBrowser()->runModel();
    QCOMPARE(model->rowCount(), 4);
    QStringList kinds;
    for (int row = 0; row < model->rowCount(); ++row)
        kinds << model->index(row, int(ui::RunModel::Column::Kind)).data().toString();
    QCOMPARE(kinds,
        (QStringList { QStringLiteral("import · chat"), QStringLiteral("import · verl"),
            QStringLiteral("import · sharegpt"), QStringLiteral("import · steps") }));
    QVERIFY(model->index(0, int(ui::RunModel::Column::Kind)).data(Qt::ToolTipRole).toString().contains("chat"));
}

void TestImportJob::sessionFilesAreOneRun()
{
    // WebShop's human sessions hold one trajectory per file: chosen together, they are one run named after their
    // directory, as `creditlab-cli import all_trajs/*.jsonl` makes them. Files of other formats stay a run each.
    const QString db = m_dir.filePath(QStringLiteral("sessions.db"));
    ImportJob job;
    QSignalSpy imported(&job, &ImportJob::fileImported);
    QSignalSpy finished(&job, &ImportJob::finished);
    job.start(db, { sample("documents/webshop-session-7.jsonl"), sample("documents/webshop-session-8.jsonl") });
    QVERIFY(finished.wait(60000));
    QCOMPARE(imported.count(), 1);
    QCOMPARE(imported.at(0).at(2).toULongLong(), 2ull);
    QCOMPARE(imported.at(0).at(3).toULongLong(), 7ull);
    QVERIFY(imported.at(0).at(1).toString().startsWith(QStringLiteral("2 files in ")));
    job.start(db, { sample("chat.jsonl"), sample("documents/webshop-session-7.jsonl") });
    QVERIFY(finished.wait(60000));
    QCOMPARE(imported.count(), 3);
    Store store(db.toStdString(), Store::Access::ReadOnly);
    const auto runs = store.runs();
    QCOMPARE(runs.size(), std::size_t(3));
    QCOMPARE(runs[0].name, std::string("documents"));
    QCOMPARE(runs[0].sourceFormat, std::optional<std::string>("WebShop human session"));
    QCOMPARE(runs[2].trajectoryCount, std::int64_t(1));
}

void TestImportJob::badForeignLineFailsTheFile()
{
    const QString db = m_dir.filePath(QStringLiteral("bad.db"));
    const QString bad = m_dir.filePath(QStringLiteral("bad.jsonl"));
    {
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"messages\":[{\"role\":\"user\",\"content\":\"q\"},{\"role\":\"assistant\",\"content\":\"a\"}]}\n"
                "{\"messages\":[{\"role\":\"assistant\",\"content\":\"a\",\"score\":2}]}\n");
    }
    ImportJob job;
    QSignalSpy failed(&job, &ImportJob::failed);
    QSignalSpy finished(&job, &ImportJob::finished);
    job.start(db, { bad });
    QVERIFY(finished.wait(60000));
    QCOMPARE(failed.count(), 1);
    const QString message = failed.at(0).at(1).toString();
    QVERIFY2(message.startsWith(bad + QStringLiteral(":2: field \"messages[0].score\": must be in [0, 1]")),
        qPrintable(message));
    Store store(db.toStdString(), Store::Access::ReadOnly);
    QVERIFY(store.runs().empty());
}

void TestImportJob::optionsDialogImportsWithAMappingFile()
{
    // File → Import with Options…: a layout no importer knows, read through a mapping file, from the workbench.
    // OK stays disabled, saying why, until the choice can be imported.
    ui::ImportOptionsDialog dialog(m_dir.path());
    auto* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    auto* problem = dialog.findChild<QLabel*>(QStringLiteral("importOptionsProblem"));
    QVERIFY(!ok->isEnabled());
    QVERIFY(problem->text().contains(QStringLiteral("Choose the files")));
    dialog.setFiles({ sample("custom.jsonl") });
    QVERIFY(ok->isEnabled()); // detect
    dialog.setFormat(ImportFormat::Mapped);
    QVERIFY(!ok->isEnabled());
    QVERIFY(problem->text().contains(QStringLiteral("mapping file")));
    dialog.setMapFile(m_dir.filePath(QStringLiteral("missing.yaml")));
    QVERIFY(!ok->isEnabled());
    QVERIFY(problem->text().contains(QStringLiteral("no such file")));
    dialog.setMapFile(sample("custom.map.yaml"));
    QVERIFY(ok->isEnabled());
    QVERIFY(problem->text().isEmpty());
    dialog.setFormat(ImportFormat::Verl); // one marker without the other is refused
    dialog.setMarkers(QStringLiteral("<s>"), QString());
    QVERIFY(!ok->isEnabled());
    dialog.setMarkers(QStringLiteral("<s>"), QStringLiteral("</s>"));
    QVERIFY(ok->isEnabled());
    QCOMPARE(dialog.options().markers->end, std::string("</s>"));
    // The group-by field and the old-export option reach the import's options.
    QVERIFY(dialog.options().groupBy.empty());
    QVERIFY(!dialog.options().renameDuplicates);
    auto* groupBy = dialog.findChild<QLineEdit*>(QStringLiteral("importGroupBy"));
    QVERIFY(groupBy);
    groupBy->setText(QStringLiteral(" task_id "));
    QCOMPARE(dialog.options().groupBy, std::string("task_id"));
    groupBy->clear();
    dialog.findChild<QCheckBox*>(QStringLiteral("importRenameDuplicates"))->setChecked(true);
    QVERIFY(dialog.options().renameDuplicates);
    dialog.setFormat(ImportFormat::Mapped);

    const QString db = m_dir.filePath(QStringLiteral("mapped.db"));
    ui::MainWindow window(std::make_unique<ui::Settings>(m_dir.filePath(QStringLiteral("settings.ini"))));
    QVERIFY(window.openDatabase(db));
    QSignalSpy imported(&window, &ui::MainWindow::importFinished);
    window.importFiles(dialog.files(), dialog.options());
    QTRY_COMPARE_WITH_TIMEOUT(imported.count(), 1, 60000);
    Store store(db.toStdString(), Store::Access::ReadOnly);
    const auto runs = store.runs();
    QCOMPARE(runs.size(), std::size_t(1));
    const auto trajectories = store.trajectories(runs.front().id);
    QCOMPARE(trajectories.size(), std::size_t(2));
    QCOMPARE(trajectories.front().id, std::string("ep-1"));
    QCOMPARE(trajectories.front().group, std::string("maze-4"));
}

void TestImportJob::undetectableFileSaysWhereToGo()
{
    // The same file through File → Import (detection) cannot be read, and the error says where to name its layout.
    const QString db = m_dir.filePath(QStringLiteral("undetected.db"));
    ui::MainWindow window(std::make_unique<ui::Settings>(m_dir.filePath(QStringLiteral("settings2.ini"))));
    QVERIFY(window.openDatabase(db));
    QSignalSpy failed(&window, &ui::MainWindow::importFailed);
    window.importFiles({ sample("custom.jsonl") });
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 60000);
    auto* box = window.findChild<QMessageBox*>(QStringLiteral("errorBox"));
    QVERIFY(box);
    QVERIFY2(box->text().contains(QStringLiteral("Import with Options")), qPrintable(box->text()));
    QVERIFY(failed.at(0).at(0).toString().contains(QStringLiteral("cannot tell the format")));
}

QTEST_MAIN(TestImportJob)
#include "tst_ui_importjob.moc"
