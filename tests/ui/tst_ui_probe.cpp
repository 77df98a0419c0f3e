// The "PAIR probes" dialog, offscreen: a tiny run trained through the training module, the AUROC table computed
// from the dialog (Enter starts) equal to TrainingBackend::probeTable for the same options, the table model, CSV
// export, Cancel (Esc) stopping a started computation, errors named in the dialog, and the Run menu's action.
#include "core/learn/api/backend.h"
#include "core/learn/api/trainconfig.h"
#include "tests/learn/tinyconfig.h"
#include "ui/charts/errorbarchart.h"
#include "ui/common/csvexport.h"
#include "ui/common/itemroles.h"
#include "ui/shell/mainwindow.h"
#include "ui/probe/probedialog.h"
#include "ui/probe/probejob.h"
#include "ui/probe/probetablemodel.h"
#include "ui/shell/settings.h"
#include "ui/shell/workspace.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QFile>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace creditlab;
using namespace creditlab::ui;

namespace {

constexpr int kWaitMs = 300000;

/// Every probe name and metric of two tables agree (the pipeline is seeded: same options, same table).
void compareRows(const std::vector<learn::ProbeRow>& a, const std::vector<learn::ProbeRow>& b)
{
    QCOMPARE(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(a[i].name, b[i].name);
        QCOMPARE(a[i].features, b[i].features);
        for (const auto column : { ProbeTableModel::Column::AurocClean, ProbeTableModel::Column::AurocContaminated,
                 ProbeTableModel::Column::AurocUnion, ProbeTableModel::Column::Ece, ProbeTableModel::Column::Brier }) {
            const double x = probeMetric(a[i], column);
            const double y = probeMetric(b[i], column);
            QVERIFY2(std::abs(x - y) <= 1e-9,
                qPrintable(QStringLiteral("%1: %2 vs %3")
                               .arg(QString::fromStdString(a[i].name))
                               .arg(x, 0, 'g', 17)
                               .arg(y, 0, 'g', 17)));
        }
    }
}

} // namespace

class TestProbe : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void tableMatchesBackend();
    void cancelStops();
    void errorsAreNamed();
    void menuActionOpensDialog();

private:
    QTemporaryDir m_dir;
    QString m_db;
    qint64 m_runId = 0;
};

void TestProbe::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_db = m_dir.filePath(QStringLiteral("runs.db"));
    // Episodes of up to 12 steps, so that the contamination filter (3 to 12 turns) finds enough of them.
    const auto config
        = learn::TrainConfig::parse(QString::fromUtf8(creditlab::testing::kTinyConfig)
                                        .replace(QStringLiteral("max_steps: 6"), QStringLiteral("max_steps: 12"))
                                        .toStdString(),
            "tiny.yaml");
    const auto run = learn::trainingBackend().create(config, { m_db.toStdString(), "cpu" });
    const auto result = run->run([](const learn::TrainProgress&) { return true; }, nullptr);
    QCOMPARE(result.status, RunStatus::Finished);
    m_runId = run->runId();
}

void TestProbe::tableMatchesBackend()
{
    Workspace workspace;
    QVERIFY(workspace.open(m_db));
    ProbeDialog dialog(&workspace, m_runId);
    QAbstractItemModelTester tester(dialog.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(dialog.runId(), m_runId);
    QCOMPARE(dialog.options().episodes, std::int64_t(200)); // the defaults
    QCOMPARE(dialog.options().seed, std::uint64_t(42));
    QVERIFY(!dialog.source().sftPolicy);
    dialog.setEpisodes(40);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QSignalSpy finished(&dialog, &ProbeDialog::computationFinished);
    QTest::keyClick(&dialog, Qt::Key_Return); // Enter starts
    QVERIFY(dialog.isRunning());
    QVERIFY(finished.wait(kWaitMs));
    QCOMPARE(finished.first().at(0).toString(), QStringLiteral("finished"));
    QVERIFY2(dialog.errorText().isEmpty(), qPrintable(dialog.errorText()));

    // Nine probes, in Table 1 order, with AUROCs in [0, 1].
    const auto& rows = dialog.table().rows;
    QCOMPARE(dialog.model()->rowCount(), 9);
    QCOMPARE(rows.front().name, std::string("last_token"));
    QCOMPARE(rows[7].name, std::string("pair"));
    QCOMPARE(rows.back().name, std::string("layerwise"));
    for (const auto& row : rows) {
        QVERIFY(row.features > 0);
        for (const double auroc : { row.aurocClean, row.aurocContaminated, row.aurocUnion })
            QVERIFY2(auroc >= 0.0 && auroc <= 1.0, row.name.c_str());
    }
    QVERIFY(dialog.summaryText().contains(QString::fromStdString(dialog.table().policy)));
    const auto& counts = dialog.table().counts;
    QVERIFY(counts.testClean > 0 && counts.testContaminated > 0 && counts.trainRecords > 0);
    const QString summary = dialog.summaryText();
    QVERIFY2(summary.contains(QStringLiteral("%1 after a corrupted turn").arg(counts.testContaminated)),
        qPrintable(summary));
    QVERIFY2(summary.contains(QStringLiteral("train %1").arg(counts.trainRecords)), qPrintable(summary));

    // The same options straight through the backend give the same table.
    const auto direct = learn::trainingBackend().probeTable(dialog.source(), dialog.options(), {});
    compareRows(rows, direct.rows);
    QCOMPARE(direct.counts.testContaminated, dialog.table().counts.testContaminated);
    QCOMPARE(direct.policy, dialog.table().policy);

    // 3 decimals on screen, the best AUROC of a column bold.
    ProbeTableModel* model = dialog.model();
    const int aurocColumn = static_cast<int>(ProbeTableModel::Column::AurocUnion);
    QCOMPARE(model->index(0, aurocColumn).data().toString(), QLocale().toString(rows[0].aurocUnion, 'f', 3));
    const int best = model->bestRow(ProbeTableModel::Column::AurocUnion);
    QVERIFY(best >= 0);
    for (const auto& row : rows)
        QVERIFY(row.aurocUnion <= rows[best].aurocUnion);
    QVERIFY(model->index(best, aurocColumn).data(Qt::FontRole).value<QFont>().bold());
    const int bestBrier = model->bestRow(ProbeTableModel::Column::Brier);
    for (const auto& row : rows)
        QVERIFY(row.brier >= rows[bestBrier].brier);
    QCOMPARE(dialog.findChild<charts::ErrorBarChart*>()->seriesCount(), 2);

    // CSV: the header, then one line per probe with every digit.
    const QString path = m_dir.filePath(QStringLiteral("probes.csv"));
    QString error;
    QVERIFY2(dialog.exportCsv(path, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 10);
    QCOMPARE(lines[0], QStringLiteral("Probe,Dims,AUROC clean,AUROC contaminated,AUROC union,ECE,Brier"));
    const QStringList first = lines[1].split(QLatin1Char(','));
    QCOMPARE(first.size(), 7);
    QCOMPARE(first[0], QStringLiteral("last_token"));
    QCOMPARE(first[1].toLongLong(), static_cast<qlonglong>(rows[0].features));
    QCOMPARE(first[2].toDouble(), rows[0].aurocClean);
    QCOMPARE(first[6].toDouble(), rows[0].brier);
}

void TestProbe::cancelStops()
{
    Workspace workspace;
    QVERIFY(workspace.open(m_db));
    ProbeDialog dialog(&workspace, m_runId);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto* job = dialog.findChild<ProbeJob*>();
    QVERIFY(job);
    QSignalSpy progressed(job, &ProbeJob::progressed);
    QSignalSpy finished(&dialog, &ProbeDialog::computationFinished);
    QVERIFY(dialog.start());
    QVERIFY(!dialog.start()); // one at a time
    QVERIFY(progressed.wait(kWaitMs)); // it is under way
    QTest::keyClick(&dialog, Qt::Key_Escape); // Esc cancels a running computation, and keeps the dialog open
    QVERIFY(finished.wait(kWaitMs));
    QCOMPARE(finished.first().at(0).toString(), QStringLiteral("cancelled"));
    // It stopped part way: the last progress it sent was short of the end.
    const auto last = progressed.last().first().value<ProbeJobProgress>();
    QVERIFY2(last.fraction < 1.0, qPrintable(QString::number(last.fraction)));
    QVERIFY(last.total > 0);
    QVERIFY(dialog.isVisible());
    QVERIFY(!dialog.isRunning());
    QCOMPARE(dialog.model()->rowCount(), 0);
    QVERIFY(dialog.table().rows.empty());
    QVERIFY2(dialog.errorText().isEmpty(), qPrintable(dialog.errorText()));
    QTest::keyClick(&dialog, Qt::Key_Escape); // idle: Esc closes
    QVERIFY(!dialog.isVisible());
}

void TestProbe::errorsAreNamed()
{
    // A database with no training run: Start is refused with the reason.
    {
        Workspace workspace;
        QVERIFY(workspace.open(m_dir.filePath(QStringLiteral("empty.db"))));
        ProbeDialog dialog(&workspace);
        QString error;
        QVERIFY(!dialog.start(&error));
        QVERIFY2(error.contains(QStringLiteral("no training run")), qPrintable(error));
        QCOMPARE(dialog.errorText(), error);
    }
    // The run's files are not beside this copy of the database: the engine's error names what is missing.
    const QString copy = m_dir.filePath(QStringLiteral("copy.db"));
    QVERIFY(QFile::copy(m_db, copy));
    Workspace workspace;
    QVERIFY(workspace.open(copy));
    ProbeDialog dialog(&workspace, m_runId);
    QSignalSpy finished(&dialog, &ProbeDialog::computationFinished);
    QVERIFY(dialog.start());
    QVERIFY(finished.wait(kWaitMs));
    QCOMPARE(finished.first().at(0).toString(), QStringLiteral("failed"));
    const QString error = finished.first().at(1).toString();
    QVERIFY(!error.isEmpty());
    QVERIFY2(dialog.errorText().contains(error), qPrintable(dialog.errorText()));
    QVERIFY2(dialog.errorText().contains(QString::number(m_runId)), qPrintable(dialog.errorText()));
    QCOMPARE(dialog.model()->rowCount(), 0);
}

void TestProbe::menuActionOpensDialog()
{
    QTemporaryDir dir;
    MainWindow window(std::make_unique<Settings>(dir.filePath(QStringLiteral("settings.ini"))));
    QVERIFY(window.openDatabase(m_db));
    QAction* action = nullptr;
    for (QAction* a : window.menuBar()->findChildren<QAction*>())
        if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P))
            action = a;
    QVERIFY(action);
    action->trigger();
    auto* dialog = window.findChild<ProbeDialog*>();
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    QCOMPARE(dialog->runId(), m_runId);
    QCOMPARE(dialog->source().database, window.workspace()->path().toStdString());
}

QTEST_MAIN(TestProbe)
#include "tst_ui_probe.moc"
