// File → Import's background job on foreign formats: each file's format is detected (chat records, a verl
// dump), each lands as one run; a bad line fails the file with its file, line and field and imports nothing.
// The sample files are the core tests' (tests/core/data/import; their sources are cited in tst_import_formats).
#include "core/store.h"
#include "ui/shell/importjob.h"

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
    void badForeignLineFailsTheFile();

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
    Store store(db.toStdString(), Store::Access::ReadOnly);
    QCOMPARE(store.runs().size(), std::size_t(4));
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

QTEST_MAIN(TestImportJob)
#include "tst_ui_importjob.moc"
