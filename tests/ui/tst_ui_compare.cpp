// The Compare page: seed grouping with mean ± std, wall-time alignment, the table at an iteration with
// deltas against a pinned baseline, diff-only config keys, both models under QAbstractItemModelTester,
// and the page end to end (background load, chart series, CSV export, live reload). Numbers by hand.
#include "core/storage/store.h"
#include "ui/charts/linechart.h"
#include "ui/common/itemroles.h"
#include "ui/compare/compareaddrunsdialog.h"
#include "ui/compare/comparecontrols.h"
#include "ui/compare/comparegrid.h"
#include "ui/compare/comparemodel.h"
#include "ui/compare/comparepage.h"
#include "ui/compare/compareseries.h"
#include "ui/runs/runmodel.h"
#include "ui/shell/workspace.h"

#include <QAbstractItemModelTester>
#include <QChartView>
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QMenu>
#include <QTemporaryDir>
#include <QToolButton>
#include <QWheelEvent>
#include <QtTest>

#include <cmath>
#include <memory>

using namespace creditlab;
using namespace creditlab::ui;

namespace {

using Values = std::vector<std::pair<std::string, double>>;

std::string configText(const std::string& method, int seed, const std::string& name)
{
    // As TrainConfig::toYaml writes it: one `key: value` line per key, in key order.
    return "credit.method: " + method + "\nenv.name: household\nname: " + name
        + "\nrl.lr: 0.0003\nseed: " + std::to_string(seed) + "\n";
}

/// Three runs: A and B differ only in seed (and name), C differs in credit.method. Values are exact in
/// binary so that the expected numbers below are exact too.
struct Fixture {
    QTemporaryDir dir;
    QString path;
    qint64 a = 0;
    qint64 b = 0;
    qint64 c = 0;

    Fixture()
    {
        path = dir.filePath(QStringLiteral("runs.db"));
        Store store(path.toStdString());
        const auto makeRun = [&store](const std::string& name, const std::string& config) {
            NewRun run;
            run.name = name;
            run.kind = RunKind::Train;
            const qint64 id = store.createRun(run);
            store.setRunConfig(id, "yaml", config);
            return id;
        };
        a = makeRun("grpo-s1", configText("grpo", 1, "\"first run\""));
        b = makeRun("grpo-s2", configText("grpo", 2, "'second run'"));
        c = makeRun("triage-s1", configText("triage", 1, "\"\""));
        store.writeMetrics(a, 0, Values { { "eval/success", 0.25 }, { "time/sft_s", 10.0 } });
        store.writeMetrics(
            a, 1, Values { { "eval/success", 0.5 }, { "rollout/return", 1.0 }, { "time/total_s", 5.0 } });
        store.writeMetrics(
            a, 2, Values { { "eval/success", 0.75 }, { "rollout/return", 2.0 }, { "time/total_s", 6.0 } });
        store.writeMetrics(b, 0, Values { { "eval/success", 0.5 }, { "time/sft_s", 12.0 } });
        store.writeMetrics(
            b, 1, Values { { "eval/success", 0.625 }, { "rollout/return", 3.0 }, { "time/total_s", 4.0 } });
        store.writeMetrics(c, 0, Values { { "eval/success", 0.0 } });
        store.writeMetrics(
            c, 1, Values { { "eval/success", 0.5 }, { "rollout/return", 0.5 }, { "time/total_s", 3.0 } });
        store.writeMetrics(
            c, 2, Values { { "eval/success", 1.0 }, { "rollout/return", 1.5 }, { "time/total_s", 3.0 } });
    }

    std::vector<compare::RunSeries> load() const
    {
        Store store(path.toStdString(), Store::Access::ReadOnly);
        return { compare::loadRunSeries(store, a), compare::loadRunSeries(store, b), compare::loadRunSeries(store, c) };
    }
};

std::vector<const compare::RunSeries*> pointers(const std::vector<compare::RunSeries>& runs)
{
    std::vector<const compare::RunSeries*> out;
    for (const auto& run : runs)
        out.push_back(&run);
    return out;
}

constexpr int kWaitMs = 30000;

QString readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

const std::vector<std::string> kTwoMetrics { "eval/success", "rollout/return" };
const double kStdIt0 = std::sqrt(2 * 0.125 * 0.125); // (0.25, 0.5): sample std
const double kStdIt1 = std::sqrt(2 * 0.0625 * 0.0625); // (0.5, 0.625)

} // namespace

class TestCompare : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsesConfigLines()
    {
        const compare::ConfigMap config = compare::parseConfig(
            "# comment\ncredit.method: grpo\nname: \"a \\\"quoted\\\" name\"\nnote: 'it''s'\nempty: \"\"\n"
            "long: first\n  second\nseed: 7");
        QCOMPARE(config.size(), std::size_t(6));
        QCOMPARE(config.at("credit.method"), std::string("grpo"));
        QCOMPARE(config.at("name"), std::string("a \"quoted\" name"));
        QCOMPARE(config.at("note"), std::string("it's"));
        QCOMPARE(config.at("empty"), std::string());
        QCOMPARE(config.at("long"), std::string("first second"));
        QCOMPARE(config.at("seed"), std::string("7"));
    }

    void loadsRunsWithWallTime()
    {
        const Fixture fixture;
        const auto runs = fixture.load();
        QCOMPARE(runs[0].name, std::string("grpo-s1"));
        QVERIFY(runs[0].hasConfig);
        QCOMPARE(runs[0].config.at("name"), std::string("first run"));
        QCOMPARE(runs[0].iterations(), (std::vector<std::int64_t> { 0, 1, 2 }));
        // A: SFT 10 s, then 5 s and 6 s iterations; C has no SFT time.
        QCOMPARE(runs[0].wallTime, (compare::Series { { 0, 10.0 }, { 1, 15.0 }, { 2, 21.0 } }));
        QCOMPARE(runs[1].wallTime, (compare::Series { { 0, 12.0 }, { 1, 16.0 } }));
        QCOMPARE(runs[2].wallTime, (compare::Series { { 0, 0.0 }, { 1, 3.0 }, { 2, 6.0 } }));

        const compare::Curve byIteration = compare::curveOf(runs[0], "eval/success", compare::Alignment::Iteration);
        QCOMPARE(byIteration.x, (std::vector<double> { 0, 1, 2 }));
        QCOMPARE(byIteration.y, (std::vector<double> { 0.25, 0.5, 0.75 }));
        const compare::Curve byTime = compare::curveOf(runs[0], "rollout/return", compare::Alignment::WallTime);
        QCOMPARE(byTime.x, (std::vector<double> { 15.0, 21.0 }));
        QCOMPARE(byTime.y, (std::vector<double> { 1.0, 2.0 }));
        QVERIFY(compare::curveOf(runs[0], "no/such", compare::Alignment::Iteration).x.empty());

        Store store(fixture.path.toStdString());
        QVERIFY_THROWS_EXCEPTION(std::exception, compare::loadRunSeries(store, 999));
    }

    /// A reload reads only what can have changed: new iterations and the last one again; a run that reuses a
    /// deleted run's id is read afresh.
    void rereadsRunsIncrementally()
    {
        Fixture f;
        std::optional<compare::RunSeries> first;
        {
            Store store(f.path.toStdString(), Store::Access::ReadOnly);
            first = compare::readRunSeries(store, f.a);
        }
        QVERIFY(first);
        QCOMPARE(first->iterations().back(), std::int64_t(2));
        {
            Store store(f.path.toStdString());
            store.writeMetrics(f.a, 2, Values { { "eval/invalid_rate", 0.5 } }); // late, into the last iteration
            store.writeMetrics(f.a, 3, Values { { "eval/success", 1.0 }, { "time/total_s", 4.0 } });
            store.setRunStatus(f.a, RunStatus::Finished);
            // A value of an earlier iteration rewritten now is not read again: the reader's contract is "from
            // the last iteration on", and this shows it.
            store.writeMetrics(f.a, 1, Values { { "eval/success", 0.0 } });
        }
        Store store(f.path.toStdString(), Store::Access::ReadOnly);
        const auto again = compare::readRunSeries(store, f.a, &*first);
        QVERIFY(again);
        QCOMPARE(again->metrics.at("eval/success").at(3), 1.0);
        QCOMPARE(again->metrics.at("eval/invalid_rate").at(2), 0.5);
        QCOMPARE(again->metrics.at("eval/success").at(1), 0.5); // kept from the first read
        QCOMPARE(again->wallTime.at(3), 10.0 + 5.0 + 6.0 + 4.0);
        QCOMPARE(again->status, RunStatus::Finished);
        QCOMPARE(again->config, first->config);
        const auto full = compare::readRunSeries(store, f.a);
        QCOMPARE(full->metrics.at("eval/success").at(1), 0.0);

        compare::RunSeries stale = *first;
        stale.createdAt = "1999-01-01T00:00:00Z"; // another run that once had this id
        const auto fresh = compare::readRunSeries(store, f.a, &stale);
        QCOMPARE(fresh->metrics.at("eval/success").at(1), 0.0);
        QVERIFY(!compare::readRunSeries(store, 999, &*first));
    }

    void groupsSeedsWithMeanAndStd()
    {
        const Fixture fixture;
        const auto runs = fixture.load();
        const auto groups = compare::groupBySeed(pointers(runs));
        QCOMPARE(groups, (std::vector<std::vector<std::size_t>> { { 0, 1 }, { 2 } }));

        const compare::BandCurve band
            = compare::groupCurve({ &runs[0], &runs[1] }, "eval/success", compare::Alignment::Iteration);
        QCOMPARE(band.x, (std::vector<double> { 0, 1, 2 }));
        QCOMPARE(band.mean, (std::vector<double> { 0.375, 0.5625, 0.75 }));
        QCOMPARE(band.n, (std::vector<int> { 2, 2, 1 }));
        QCOMPARE(band.stdev.size(), std::size_t(3));
        QCOMPARE(band.stdev[0], kStdIt0);
        QCOMPARE(band.stdev[1], kStdIt1);
        QCOMPARE(band.stdev[2], 0.0);

        // Wall time: x is the mean of the members' times at that iteration.
        const compare::BandCurve timed
            = compare::groupCurve({ &runs[0], &runs[1] }, "eval/success", compare::Alignment::WallTime);
        QCOMPARE(timed.x, (std::vector<double> { 11.0, 15.5, 21.0 }));

        // A run without a config is a group of its own, even beside a twin.
        compare::RunSeries bare = runs[0];
        bare.hasConfig = false;
        bare.config.clear();
        QCOMPARE(compare::groupBySeed({ &runs[0], &bare, &runs[1] }),
            (std::vector<std::vector<std::size_t>> { { 0, 2 }, { 1 } }));
    }

    void tableAtIterationWithBaseline()
    {
        const Fixture fixture;
        const auto runs = fixture.load();
        const compare::CompareTable table = compare::tableAt(pointers(runs), kTwoMetrics, 2, fixture.a);
        QCOMPARE(table.rows.size(), std::size_t(3));
        QVERIFY(table.rows[0].isBaseline);
        QVERIFY(!table.rows[1].isBaseline);
        const compare::TableCell& a = table.rows[0].cells[0];
        QVERIFY(a.present && !a.carried);
        QCOMPARE(a.value, 0.75);
        QCOMPARE(a.fromIteration, std::int64_t(2));
        QCOMPARE(a.delta.value_or(-1), 0.0);
        // B stopped at iteration 1: its last value, marked as carried.
        const compare::TableCell& b = table.rows[1].cells[0];
        QVERIFY(b.present && b.carried);
        QCOMPARE(b.value, 0.625);
        QCOMPARE(b.fromIteration, std::int64_t(1));
        QCOMPARE(b.delta.value_or(-1), -0.125);
        QCOMPARE(table.rows[2].cells[0].delta.value_or(-1), 0.25);
        QCOMPARE(table.rows[1].cells[1].value, 3.0);
        QCOMPARE(table.rows[1].cells[1].delta.value_or(-1), 1.0);
        QCOMPARE(table.rows[2].cells[1].delta.value_or(-1), -0.5);

        // Nothing at or before iteration 0 for rollout/return; no baseline: no deltas.
        const compare::CompareTable first = compare::tableAt(pointers(runs), kTwoMetrics, 0, 0);
        QVERIFY(!first.rows[0].cells[1].present);
        QVERIFY(!first.rows[0].cells[0].delta);
        QCOMPARE(first.rows[0].cells[0].value, 0.25);

        // Grouped, baseline C: the seed group's mean (B carried) against C.
        const auto groups = compare::groupBySeed(pointers(runs));
        const compare::CompareTable grouped = compare::tableAt(pointers(runs), kTwoMetrics, 2, fixture.c, &groups);
        QCOMPARE(grouped.rows.size(), std::size_t(2));
        QCOMPARE(grouped.rows[0].runIds, (std::vector<std::int64_t> { fixture.a, fixture.b }));
        QCOMPARE(grouped.rows[0].label, std::string("grpo-s1 (×2)"));
        const compare::TableCell& g = grouped.rows[0].cells[0];
        QCOMPARE(g.value, 0.6875);
        QCOMPARE(g.stdev, kStdIt1);
        QCOMPARE(g.n, 2);
        QVERIFY(g.carried);
        QCOMPARE(g.delta.value_or(-1), -0.3125);
        QVERIFY(grouped.rows[1].isBaseline);
        QCOMPARE(grouped.rows[1].cells[0].delta.value_or(-1), 0.0);
    }

    void csvOfTable()
    {
        const Fixture fixture;
        const auto runs = fixture.load();
        const compare::CompareTable table = compare::tableAt(pointers(runs), kTwoMetrics, 2, fixture.a);
        const std::string expected
            = std::string("run,run_ids,eval/success,eval/success iteration,eval/success delta,rollout/return,"
                          "rollout/return iteration,rollout/return delta\r\n")
            + "grpo-s1," + std::to_string(fixture.a) + ",0.75,2,0,2,2,0\r\n" + "grpo-s2," + std::to_string(fixture.b)
            + ",0.625,1,-0.125,3,1,1\r\n" + "triage-s1," + std::to_string(fixture.c) + ",1,2,0.25,1.5,2,-0.5\r\n";
        QCOMPARE(compare::tableToCsv(table), expected);

        compare::CompareTable quoted;
        quoted.metrics = { "a,b" };
        quoted.rows.push_back({ "say \"hi\"", { 4 }, false, { compare::TableCell {} } });
        QCOMPARE(compare::tableToCsv(quoted),
            std::string("run,run_ids,\"a,b\",\"a,b iteration\"\r\n\"say \"\"hi\"\"\",4,,\r\n"));
    }

    void diffOnlyKeysAndMetricNames()
    {
        const Fixture fixture;
        const auto runs = fixture.load();
        // `name` differs too but is left out; env.name and rl.lr are equal everywhere.
        QCOMPARE(compare::diffKeys(pointers(runs)), (std::vector<std::string> { "credit.method", "seed" }));
        QCOMPARE(compare::diffKeys({ &runs[0], &runs[2] }), (std::vector<std::string> { "credit.method" }));
        QVERIFY(compare::diffKeys({ &runs[0] }).empty());
        compare::RunSeries extra = runs[0];
        extra.config["kl.coef"] = "0.1"; // present in one run only
        QCOMPARE(compare::diffKeys({ &runs[0], &extra }), (std::vector<std::string> { "kl.coef" }));

        QCOMPARE(compare::metricNames(pointers(runs)),
            (std::vector<std::string> { "eval/success", "rollout/return", "time/sft_s", "time/total_s" }));
    }

    void runsModel()
    {
        CompareRunsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        std::vector<CompareRunsModel::Entry> entries(2);
        entries[0] = { 5, QStringLiteral("<b>grpo</b>"), RunStatus::Finished, QColor(Qt::red), true,
            { { QStringLiteral("seed"), QStringLiteral("1") } } };
        entries[1] = { 7, QStringLiteral("triage"), RunStatus::Running, QColor(Qt::blue), true,
            { { QStringLiteral("credit.method"), QStringLiteral("triage") },
                { QStringLiteral("seed"), QStringLiteral("2") } } };
        model.setEntries(entries);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(CompareRunsModel::Column::Count));
        const QModelIndex name = model.index(0, int(CompareRunsModel::Column::Name));
        QCOMPARE(name.data().toString(), QStringLiteral("<b>grpo</b>"));
        QCOMPARE(name.data(Qt::DecorationRole).value<QColor>(), QColor(Qt::red));
        QCOMPARE(name.data(Qt::CheckStateRole).toInt(), int(Qt::Checked));
        QCOMPARE(name.data(IdRole).toLongLong(), qint64(5));
        QVERIFY(model.flags(name) & Qt::ItemIsUserCheckable);
        // Readable in the narrow column: the key's last section; in full in the tooltip and the full text.
        QCOMPARE(model.index(1, int(CompareRunsModel::Column::Config)).data().toString(),
            QStringLiteral("method=triage, seed=2"));
        QCOMPARE(model.index(1, int(CompareRunsModel::Column::Config)).data(FullTextRole).toString(),
            QStringLiteral("credit.method=triage, seed=2"));
        QVERIFY(model.index(1, int(CompareRunsModel::Column::Config)).data(Qt::ToolTipRole).toString().contains(
            QStringLiteral("credit.method=triage")));

        QSignalSpy visibility(&model, &CompareRunsModel::visibilityChanged);
        QVERIFY(model.setData(name, Qt::Unchecked, Qt::CheckStateRole));
        QCOMPARE(visibility.count(), 1);
        QCOMPARE(visibility.at(0).at(0).toLongLong(), qint64(5));
        QCOMPARE(visibility.at(0).at(1).toBool(), false);
        QCOMPARE(model.visibleRunIds(), QList<qint64> { 7 });
        QVERIFY(model.setVisible(5, false)); // unchanged: no signal
        QCOMPARE(visibility.count(), 1);

        QSignalSpy baseline(&model, &CompareRunsModel::baselineChanged);
        model.setBaseline(7);
        QCOMPARE(baseline.count(), 1);
        const QModelIndex pinned = model.index(1, int(CompareRunsModel::Column::Baseline));
        QVERIFY(!pinned.data().toString().isEmpty());
        QVERIFY(pinned.data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(!model.index(0, int(CompareRunsModel::Column::Baseline)).data(Qt::FontRole).isValid());
        model.setBaseline(999); // not listed: unpins
        QCOMPARE(model.baseline(), qint64(0));
        model.setBaseline(7);
        entries.pop_back();
        model.setEntries(entries); // the pinned run left the list
        QCOMPARE(model.baseline(), qint64(0));
        QCOMPARE(model.runIds(), QList<qint64> { 5 });
    }

    void tableModel()
    {
        const Fixture fixture;
        const auto runs = fixture.load();
        CompareTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTable(compare::tableAt(pointers(runs), kTwoMetrics, 2, fixture.a));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), 3);
        QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("eval/success"));
        QCOMPARE(model.index(1, 0).data().toString(), QStringLiteral("grpo-s2"));
        QCOMPARE(model.index(1, 0).data(IdRole).toLongLong(), fixture.b);
        // The baseline shows no delta; the others show it as "+x"/"-x"; carried values are marked "*".
        QCOMPARE(model.index(0, 1).data().toString(), QStringLiteral("0.75"));
        QVERIFY(model.index(0, 1).data(Qt::FontRole).value<QFont>().bold());
        QCOMPARE(model.index(1, 1).data().toString(), QStringLiteral("0.625*  (-0.125)"));
        QVERIFY(model.index(1, 1).data(Qt::FontRole).value<QFont>().italic());
        QCOMPARE(model.index(2, 1).data().toString(), QStringLiteral("1  (+0.25)"));
        QCOMPARE(model.index(2, 2).data().toString(), QStringLiteral("1.5  (-0.5)"));
        QCOMPARE(model.index(2, 1).data(SortRole).toDouble(), 1.0);
        QVERIFY(model.index(2, 1).data(Qt::ToolTipRole).toString().contains(QStringLiteral("+0.25")));
        QVERIFY(model.index(1, 1).data(Qt::ToolTipRole).toString().contains(QStringLiteral("iteration 1")));
        QCOMPARE(model.cell(1, 1)->fromIteration, std::int64_t(1));
        QVERIFY(model.cell(1, 0) == nullptr);

        const auto groups = compare::groupBySeed(pointers(runs));
        model.setTable(compare::tableAt(pointers(runs), kTwoMetrics, 1, 0, &groups));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, 1).data().toString(),
            QStringLiteral("0.5625 ± %1 (n=2)").arg(QLocale().toString(kStdIt1, 'g', 3)));
        QCOMPARE(model.index(1, 1).data().toString(), QStringLiteral("0.5")); // a group of one: no ± and no delta
        model.setTable({});
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), 1);
    }
    void pageLoadsComparesAndExports()
    {
        const Fixture fixture;
        Workspace workspace;
        QVERIFY(workspace.open(fixture.path));
        ComparePage page(&workspace);
        page.resize(1400, 900);
        page.show();
        QAbstractItemModelTester runsTester(page.runsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester tableTester(page.tableModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy loaded(&page, &ComparePage::loaded);

        // A request overtaken by a newer one before it finished is dropped: one load is applied.
        page.setRuns({ fixture.a });
        page.setRuns({ fixture.a, fixture.b, fixture.c, fixture.a });
        QVERIFY(loaded.wait(kWaitMs));
        QTest::qWait(50); // a stale result would arrive right after; none may
        QCOMPARE(loaded.count(), 1);
        QCOMPARE(page.runs(), (QList<qint64> { fixture.a, fixture.b, fixture.c }));
        QCOMPARE(page.runsModel()->rowCount(), 3);
        QCOMPARE(page.chart()->seriesCount(), 3);
        QCOMPARE(page.metric(), QStringLiteral("eval/success"));
        QCOMPARE(page.controls()->metricCombo()->count(), 4);
        QCOMPARE(page.controls()->metricCombo()->itemText(0), QStringLiteral("eval/success"));
        QCOMPARE(page.runsModel()->index(2, int(CompareRunsModel::Column::Config)).data().toString(),
            QStringLiteral("method=triage, seed=1"));
        // Colours differ per run and match the chart's lines.
        const QColor colorA = page.runsModel()->index(0, 0).data(Qt::DecorationRole).value<QColor>();
        QVERIFY(colorA.isValid());
        QVERIFY(colorA != page.runsModel()->index(1, 0).data(Qt::DecorationRole).value<QColor>());

        // The table follows the latest iteration; every metric is a column.
        QCOMPARE(page.tableIteration(), qint64(2));
        QCOMPARE(page.tableModel()->rowCount(), 3);
        QCOMPARE(page.tableModel()->columnCount(), 5);
        page.setBaseline(fixture.a);
        QVERIFY(page.runsModel()->index(0, 0).data(Qt::FontRole).value<QFont>().bold());
        QCOMPARE(page.tableModel()->index(1, 1).data().toString(), QStringLiteral("0.625*  (-0.125)"));

        // Wall time: the x axis reaches A's 21 s (10 s SFT + 5 s + 6 s); by iteration it stops at 2.
        page.chart()->redrawNow();
        QVERIFY(page.chart()->visibleRange().right() < 3.0);
        page.setAlignment(true);
        page.chart()->redrawNow();
        QVERIFY(page.chart()->visibleRange().right() >= 21.0);
        page.setAlignment(false);

        // Seeds grouped: one line for A+B with its band, one for C; then C unchecked.
        page.setGroupSeeds(true);
        QCOMPARE(page.chart()->seriesCount(), 2);
        QCOMPARE(page.tableModel()->rowCount(), 2);
        QCOMPARE(page.tableModel()->cell(0, 1)->value, 0.6875);
        QVERIFY(page.runsModel()->setData(page.runsModel()->index(2, 0), Qt::Unchecked, Qt::CheckStateRole));
        QCOMPARE(page.chart()->seriesCount(), 1);
        QCOMPARE(page.tableModel()->rowCount(), 1);
        page.setBaseline(fixture.c); // the baseline stays in the table while unchecked
        QCOMPARE(page.tableModel()->rowCount(), 2);
        QCOMPARE(page.tableModel()->cell(0, 1)->delta.value_or(0), -0.3125);
        page.setGroupSeeds(false);
        QVERIFY(page.runsModel()->setVisible(fixture.c, true));
        QCOMPARE(page.chart()->seriesCount(), 3);

        // Exports: the CSV is the table at the chosen iteration; the chart a real image.
        page.setBaseline(fixture.a);
        page.setTableIteration(1);
        QCOMPARE(page.tableIteration(), qint64(1));
        QTemporaryDir out;
        const QString csvPath = out.filePath(QStringLiteral("table.csv"));
        QVERIFY(page.exportTableCsv(csvPath));
        const QString csv = readAll(csvPath);
        QVERIFY(csv.startsWith(QStringLiteral("run,run_ids,eval/success,eval/success iteration,eval/success delta,")));
        QVERIFY2(csv.contains(QStringLiteral("\r\ngrpo-s2,%1,0.625,1,0.125,").arg(fixture.b)), qPrintable(csv));
        QCOMPARE(csv.count(QStringLiteral("\r\n")), 4);
        QString error;
        QVERIFY(!page.exportTableCsv(out.filePath(QStringLiteral("missing/dir/table.csv")), &error));
        QVERIFY(!error.isEmpty());
        const QString pngPath = out.filePath(QStringLiteral("chart.png"));
        QVERIFY2(page.exportChart(pngPath, &error), qPrintable(error));
        QVERIFY(!QImage(pngPath).isNull());

        // Live: another connection commits iteration 3 of A; runsChanged() reloads, and the table,
        // back at the latest iteration, follows it.
        page.setTableIteration(2);
        {
            Store writer(fixture.path.toStdString());
            writer.writeMetrics(fixture.a, 3, Values { { "eval/success", 1.0 }, { "time/total_s", 7.0 } });
        }
        workspace.notifyRunsChanged();
        QVERIFY(loaded.wait(kWaitMs));
        QCOMPARE(page.tableIteration(), qint64(3));
        QCOMPARE(page.tableModel()->cell(0, 1)->value, 1.0);

        // Removing and adding; a deleted run drops out on the next load.
        page.removeRuns({ fixture.a });
        QCOMPARE(page.baseline(), qint64(0));
        QCOMPARE(page.chart()->seriesCount(), 2);
        QCOMPARE(page.runsModel()->rowCount(), 2);
        page.addRuns({ fixture.a, fixture.b });
        QVERIFY(loaded.wait(kWaitMs));
        QCOMPARE(page.runs(), (QList<qint64> { fixture.b, fixture.c, fixture.a }));
        QCOMPARE(page.runsModel()->index(2, 0).data(Qt::DecorationRole).value<QColor>(), colorA); // kept
        {
            Store writer(fixture.path.toStdString());
            writer.deleteRun(fixture.c);
        }
        workspace.notifyRunsChanged();
        QVERIFY(loaded.wait(kWaitMs));
        QCOMPARE(page.runs(), (QList<qint64> { fixture.b, fixture.a }));

        // Another database replaces this one: nothing is compared any more.
        QTemporaryDir other;
        QVERIFY(workspace.open(other.filePath(QStringLiteral("other.db"))));
        QVERIFY(page.runs().isEmpty());
        QCOMPARE(page.chart()->seriesCount(), 0);
        QCOMPARE(page.tableModel()->rowCount(), 0);
    }

    void defaultMetricIsNotAllZerosAndSmoothingMatches()
    {
        // Issue 20 §9: a comparison opened on eval/success even when every run had 0 there (runs early in training, a
        // method that never succeeds): a flat line on the axis. It opens on the first preferred metric with a curve
        // that is not all zeros, and smooths like the Monitor.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("zeros.db"));
        qint64 a = 0, b = 0;
        {
            Store store(path.toStdString());
            a = store.createRun({ "a", RunKind::Train, RunStatus::Finished, {} });
            b = store.createRun({ "b", RunKind::Train, RunStatus::Finished, {} });
            for (const qint64 run : { a, b }) {
                // eval/return moves but has one point (no line); rollout/return is b's curve.
                store.writeMetrics(
                    run, 0, Values { { "eval/success", 0.0 }, { "eval/return", 1.0 }, { "aaa/first", 3.0 } });
                for (const std::int64_t it : { 1, 2 })
                    store.writeMetrics(run, it,
                        Values { { "eval/success", 0.0 }, { "rollout/success", 0.0 }, { "aaa/first", 3.0 - it },
                            { "rollout/return", run == b ? 0.25 * it : 0.0 } });
            }
        }
        Workspace workspace;
        QVERIFY(workspace.open(path));
        ComparePage page(&workspace);
        QSignalSpy loaded(&page, &ComparePage::loaded);
        page.setRuns({ a, b });
        QVERIFY(loaded.wait(kWaitMs));
        QCOMPARE(page.metric(), QStringLiteral("rollout/return"));
        QCOMPARE(page.chart()->title(), QStringLiteral("rollout/return"));
        QCOMPARE(page.controls()->metricCombo()->currentText(), QStringLiteral("rollout/return"));
        QCOMPARE(page.controls()->smoothing(), charts::kDefaultSmoothing);
        QCOMPARE(page.chart()->smoothing(), charts::kDefaultSmoothing);
        // Once eval/success moves, it is preferred (the user has not chosen).
        {
            Store store(path.toStdString());
            store.writeMetrics(a, 3, Values { { "eval/success", 0.25 } });
        }
        workspace.notifyRunsChanged();
        QVERIFY(loaded.wait(kWaitMs));
        QCOMPARE(page.metric(), QStringLiteral("eval/success"));
        // A choice sticks.
        page.setMetric(QStringLiteral("aaa/first"));
        workspace.notifyRunsChanged();
        QVERIFY(loaded.wait(kWaitMs));
        QCOMPARE(page.metric(), QStringLiteral("aaa/first"));

        // The pure rule: the preferred list first, then any metric with a non-zero value, then the first name.
        const std::vector<compare::RunSeries> runs = [&] {
            Store store(path.toStdString(), Store::Access::ReadOnly);
            return std::vector<compare::RunSeries> { compare::loadRunSeries(store, a) };
        }();
        const auto one = pointers(runs);
        QCOMPARE(compare::defaultMetric(one, compare::metricNames(one)), std::string("eval/success"));
        QCOMPARE(compare::defaultMetric(one, { "rollout/success", "aaa/first" }), std::string("aaa/first"));
        QCOMPARE(compare::defaultMetric(one, { "rollout/success" }), std::string("rollout/success"));
        QCOMPARE(compare::defaultMetric(one, {}), std::string());
    }

    void gridSharesCrosshairZoomAndLogScale()
    {
        // Issue 20 §9: several metrics at once, one chart each, with one crosshair and one x zoom; eval/success (from
        // iteration 0) and rollout/return (from 1) on one x range; a log scale per chart.
        const Fixture fixture;
        Workspace workspace;
        QVERIFY(workspace.open(fixture.path));
        ComparePage page(&workspace);
        page.resize(1280, 720);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QSignalSpy loaded(&page, &ComparePage::loaded);
        page.setRuns({ fixture.a, fixture.b, fixture.c });
        QVERIFY(loaded.wait(kWaitMs));
        QCOMPARE(page.metric(), QStringLiteral("eval/success"));
        QToolButton* gridButton = page.controls()->gridButton();
        QVERIFY(gridButton->isEnabled());
        QCOMPARE(gridButton->menu()->actions().size(), 3); // every metric but the main one
        QAction* returnAction = nullptr;
        for (QAction* action : gridButton->menu()->actions()) {
            if (action->data().toString() == QStringLiteral("rollout/return"))
                returnAction = action;
        }
        QVERIFY(returnAction);
        returnAction->trigger(); // ticks it
        QCOMPARE(page.gridMetrics(), QStringList { QStringLiteral("rollout/return") });
        charts::LineChart* main = page.chart();
        charts::LineChart* other = page.grid()->chart(QStringLiteral("rollout/return"));
        QVERIFY(other && other != main);
        QCOMPARE(other->seriesCount(), 3);
        QCOMPARE(page.grid()->chart(QStringLiteral("eval/success")), main);
        QCoreApplication::processEvents();
        main->redrawNow();
        other->redrawNow();
        QCOMPARE(other->visibleRange().left(), 0.0); // the x range of the grid, not rollout/return's own 1..2
        QCOMPARE(other->visibleRange().right(), main->visibleRange().right());

        auto* view = main->findChild<QChartView*>();
        const QPoint centre = view->mapFromScene(view->chart()->plotArea().center());
        QTest::mouseMove(view->viewport(), centre);
        QTRY_VERIFY(main->cursorX().has_value());
        QVERIFY(other->cursorX().has_value());
        QCOMPARE(*other->cursorX(), *main->cursorX());
        QWheelEvent wheel(QPointF(centre), QPointF(view->viewport()->mapToGlobal(centre)), QPoint(), QPoint(0, 240),
            Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view->viewport(), &wheel);
        QVERIFY(main->isZoomed());
        QVERIFY(other->isZoomed());
        QCOMPARE(other->visibleRange().left(), main->visibleRange().left());
        QCOMPARE(other->visibleRange().right(), main->visibleRange().right());

        // Log scale on one chart only; values of 0 (C's eval/success at iteration 0) are left out, not plotted at -inf.
        main->resetZoom();
        main->setLogScale(true);
        QVERIFY(!other->isLogScale());
        main->redrawNow();
        QVERIFY(main->visibleRange().top() > 0.0);
        // Unticked, its chart goes; the main metric stays.
        page.setGridMetrics({});
        QVERIFY(!page.grid()->chart(QStringLiteral("rollout/return")));
        QCOMPARE(page.chart(), main);
    }

    void addRunsDialogListsTheRest()
    {
        const Fixture fixture;
        Workspace workspace;
        QVERIFY(workspace.open(fixture.path));
        CompareAddRunsDialog dialog(&workspace, { fixture.b });
        QCOMPARE(dialog.runModel()->rowCount(), 2); // b is compared already
        QVERIFY(!dialog.selectRun(fixture.b));
        QVERIFY(dialog.selectRun(fixture.a));
        QVERIFY(dialog.selectRun(fixture.c));
        QCOMPARE(dialog.selectedRunIds(), (QList<qint64> { fixture.c, fixture.a })); // newest first
        dialog.filterEdit()->setText(QStringLiteral("triage"));
        QCOMPARE(dialog.selectedRunIds(), QList<qint64> { fixture.c });
    }
};

QTEST_MAIN(TestCompare)
#include "tst_ui_compare.moc"
