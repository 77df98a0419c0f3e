// The workbench follows a run that another trainer is posting to `creditlab-cli serve` (issue 21 §3): the run
// appears in Runs, its trajectory count and the Monitor's curves grow with each posted iteration, and its status
// changes when the trainer finishes it. The server writes on its own connection, as the CLI server process would.
// Issue 38: the Runs page shows a posted run's config, and the server gives its tags back as a list.
#include "core/server/ingestserver.h"
#include "core/storage/store.h"
#include "tests/ui/launchtestutil.h"
#include "ui/monitor/monitorpage.h"
#include "ui/runs/runbrowserpage.h"
#include "ui/runs/runmodel.h"
#include "ui/shell/mainwindow.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QtTest>

#include <httplib.h>
#include <thread>

using namespace creditlab;
using namespace creditlab::ui;
using namespace creditlab::ui::testing;

namespace {

/// `n` trajectories of two turns as our JSONL records, ids "<prefix>-<i>", in groups of four.
std::string records(const std::string& prefix, int n)
{
    std::string out = "[";
    for (int i = 0; i < n; ++i) {
        out += i > 0 ? "," : "";
        out += "{\"id\":\"" + prefix + "-" + std::to_string(i) + "\",\"group\":\"g" + std::to_string(i / 4)
            + "\",\"reward\":" + (i % 2 ? "0" : "1")
            + ",\"turns\":[{\"observation\":\"a room\",\"action\":\"look\"},{\"observation\":\"a key\",\"action\":\"take key\"}]}";
    }
    return out + "]";
}

} // namespace

class TestUiServe : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void followsARunBeingPosted();
    void postedRunShowsItsConfigAndTags();
};

void TestUiServe::followsARunBeingPosted()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    MainWindow window(testSettings(dir));
    QVERIFY(window.openDatabase(db));
    window.show();

    server::ServerOptions options;
    options.database = db.toStdString();
    options.port = 0;
    server::IngestServer srv(options);
    std::thread serving([&srv] { srv.run(); });
    struct Stop {
        server::IngestServer& s;
        std::thread& t;
        ~Stop()
        {
            s.stop();
            t.join();
        }
    } stop { srv, serving };
    httplib::Client trainer("127.0.0.1", srv.port());

    const auto created = trainer.Post("/v1/runs", R"({"name":"verl qwen grpo","tags":["verl"]})", "application/json");
    QVERIFY(created && created->status == 201);
    const qint64 id = std::stoll(created->body.substr(created->body.find(':') + 1));
    RunModel* model = window.runBrowser()->runModel();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 1, 10000);
    QCOMPARE(model->runs().front().status, RunStatus::Running);

    MonitorPage* monitor = window.monitor();
    monitor->showRun(id);
    for (int it = 0; it < 3; ++it) {
        const std::string body = "{\"iteration\":" + std::to_string(it) + ",\"metrics\":{\"rollout/success\":"
            + std::to_string(0.25 * (it + 1)) + ",\"critic/score/mean\":0.5},\"trajectories\":"
            + records("it" + std::to_string(it), 8) + "}";
        const auto posted = trainer.Post("/v1/runs/" + std::to_string(id) + "/iterations", body, "application/json");
        QVERIFY(posted);
        QVERIFY2(posted->status == 201, posted->body.c_str());
        // Both pages move on their own: nobody calls them.
        QTRY_COMPARE_WITH_TIMEOUT(model->runs().front().trajectoryCount, std::int64_t(8) * (it + 1), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(monitor->pointCount(QStringLiteral("rollout/success")), qsizetype(it + 1), 10000);
        QCOMPARE(monitor->phaseText(), QStringLiteral("Receiving")); // no plan to show a fraction of
    }
    QCOMPARE(model->runs().front().turnCount, 48);
    QVERIFY(monitor->metricNames().contains(QStringLiteral("critic/score/mean"))); // a trainer's own metric names
    QCOMPARE(trainer.Post("/v1/runs/" + std::to_string(id) + "/finish", "{}", "application/json")->status, 200);
    QTRY_COMPARE_WITH_TIMEOUT(model->runs().front().status, RunStatus::Finished, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(monitor->phaseText(), QStringLiteral("Finished"), 10000);
}

/// Issue 38: a run posted to the server kept its "config" object as the run's config, but the Runs page's Config
/// column showed only a training run's shape, so it was empty; and the tags, posted as a list, came back from the
/// server as one string.
void TestUiServe::postedRunShowsItsConfigAndTags()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    MainWindow window(testSettings(dir));
    QVERIFY(window.openDatabase(db));
    window.show();
    server::ServerOptions options;
    options.database = db.toStdString();
    options.port = 0;
    server::IngestServer srv(options);
    std::thread serving([&srv] { srv.run(); });
    struct Stop {
        server::IngestServer& s;
        std::thread& t;
        ~Stop()
        {
            s.stop();
            t.join();
        }
    } stop { srv, serving };
    httplib::Client trainer("127.0.0.1", srv.port());
    const auto created = trainer.Post("/v1/runs",
        R"({"name":"verl qwen grpo","config":{"algorithm":"grpo","lr":1e-6,"model":"Qwen/Qwen2.5-3B","rollout":{"n":8}},)"
        R"("tags":["verl","a100"]})",
        "application/json");
    QVERIFY(created && created->status == 201);
    RunModel* model = window.runBrowser()->runModel();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 1, 10000);
    const QModelIndex config = model->index(0, int(RunModel::Column::Config));
    QCOMPARE(config.data().toString(),
        QStringLiteral("algorithm=grpo · lr=1e-6 · model=Qwen/Qwen2.5-3B · rollout={…}")); // as posted, in order
    QTextDocument tooltip; // the tooltip is the whole config, as plain text in a paragraph
    tooltip.setHtml(config.data(Qt::ToolTipRole).toString());
    QVERIFY2(tooltip.toPlainText().contains(QStringLiteral(R"("rollout":{"n":8})")), qPrintable(tooltip.toPlainText()));
    // A training run keeps its shape; a run without either shows nothing.
    RunInfo trained;
    trained.kind = RunKind::Train;
    trained.environment = "household";
    trained.method = "triage";
    QCOMPARE(RunModel::displayConfig(trained, QStringLiteral(R"({"a":1})")), QStringLiteral("household · triage"));
    QCOMPARE(RunModel::displayConfig(RunInfo {}, QString()), QString());

    // The tags come back as the list they were posted as.
    const auto listed = trainer.Get("/v1/runs");
    QVERIFY(listed && listed->status == 200);
    const QJsonObject run = QJsonDocument::fromJson(QByteArray::fromStdString(listed->body))
                                .object()
                                .value("runs")
                                .toArray()
                                .at(0)
                                .toObject();
    QCOMPARE(run.value("tags").toArray(), (QJsonArray { QStringLiteral("verl"), QStringLiteral("a100") }));
    QCOMPARE(model->index(0, int(RunModel::Column::Tags)).data().toString(), QStringLiteral("verl, a100"));
}

QTEST_MAIN(TestUiServe)
#include "tst_ui_serve.moc"
