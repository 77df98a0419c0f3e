// The workbench side of pretrained Hugging Face policies (issue 34), offscreen: the Launch page's policy choice on a
// tiny Llama folder written here (what the model panel shows, policy.pretrained in the YAML, the built-in shape's keys
// disabled), folders it refuses (the error names the file and field, Start is disabled, also after another database
// opens), the Runs page's Model column, and the Monitor's throughput and device memory figures.
#include "core/model/vocabulary.h"
#include "core/storage/store.h"
#include "tests/hf/hftestutil.h"
#include "tests/hf/tinytokenizer.h"
#include "tests/ui/launchtestutil.h"
#include "ui/launch/launcherpage.h"
#include "ui/launch/modelpanel.h"
#include "ui/launch/paramform.h"
#include "ui/monitor/monitorpage.h"
#include "ui/runs/runmodel.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/workspace.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <span>

using namespace creditlab;
using namespace creditlab::ui;
using namespace creditlab::ui::testing;
namespace fs = std::filesystem;

namespace {

constexpr int kReadWaitMs = 20000;

/// A ChatML template (Qwen's shape): a special end-of-turn token after each message.
constexpr const char* kChatMl = "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + "
                                "message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}{% if add_generation_prompt "
                                "%}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/// A tiny Llama (hidden 32, 2 layers, 4 heads, 2 key/value heads, vocabulary 300) with a byte-level tokenizer whose
/// ids 256 and 257 are <|im_start|> and <|im_end|>, and a ChatML template.
void writeTinyFolder(const fs::path& dir)
{
    hftest::writeTinyModel(dir, { .vocab = 300 });
    const nlohmann::json added = nlohmann::json::array(
        { hf::test::addedToken(256, "<|im_start|>", true), hf::test::addedToken(257, "<|im_end|>", true) });
    hftest::writeText(
        dir / "tokenizer.json", hf::test::tinyTokenizer({}, hf::test::byteLevelPreTokenizer(), nullptr, added).dump());
    const nlohmann::json tokenizerConfig
        = { { "chat_template", kChatMl }, { "eos_token", "<|im_end|>" }, { "bos_token", nullptr } };
    hftest::writeText(dir / "tokenizer_config.json", tokenizerConfig.dump());
}

/// The tiny Llama's parameters, counted here by hand: embedding and LM head 300 × 32 each, per layer q and o 32 × 32,
/// k and v 32 × 16, gate, up and down 32 × 48, two norms of 32; the final norm.
constexpr qint64 kTinyParameters = 2 * 300 * 32 + 2 * (2 * 32 * 32 + 2 * 32 * 16 + 3 * 32 * 48 + 2 * 32) + 32;

} // namespace

class TestHfModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void launchShowsTheModel();
    void badFolderDisablesStart_data();
    void badFolderDisablesStart();
    void runsShowTheModel();
    void monitorShowsThroughputAndMemory();
};

/// A tiny Llama folder chosen on Launch: the panel shows its architecture, parameters, shape, context, tokenizer and
/// template, the YAML names it in policy.pretrained, the built-in shape's controls are disabled, and Start is enabled.
/// Back to the built-in size, policy.pretrained leaves the YAML.
void TestHfModel::launchShowsTheModel()
{
    QTemporaryDir dir;
    const fs::path model = fs::path(dir.path().toStdString()) / "tiny-llama";
    writeTinyFolder(model);
    MainWindow window(testSettings(dir));
    QVERIFY(window.openDatabase(dir.filePath(QStringLiteral("runs.db"))));
    LauncherPage* launcher = window.launcher();
    QVERIFY(launcher->builtinPolicyButton()->isChecked());
    QVERIFY(launcher->sizeCombo()->isEnabled());
    QVERIFY(launcher->browseButton()->text().contains(QStringLiteral("&B"))); // Alt+B
    QVERIFY(launcher->startButton()->isEnabled());
    QVERIFY(!launcher->form()->isKeyEnabled(QStringLiteral("policy.lora.rank"))); // only for a model

    const QString folder = QString::fromStdString(model.string());
    launcher->setPretrained(folder);
    QVERIFY(launcher->pretrainedPolicyButton()->isChecked());
    QTRY_VERIFY_WITH_TIMEOUT(launcher->modelPanel()->state() != ModelPanel::State::Reading, kReadWaitMs);
    ModelPanel* panel = launcher->modelPanel();
    QVERIFY2(panel->state() == ModelPanel::State::Ready, qPrintable(panel->text()));
    const QString text = panel->text();
    QVERIFY2(text.startsWith(QStringLiteral("tiny-llama")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Architecture: LlamaForCausalLM (llama)")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Parameters: %1 (F32, one file,").arg(QLocale().toString(kTinyParameters))),
        qPrintable(text));
    QVERIFY2(
        text.contains(QStringLiteral("2 layers, hidden 32 (MLP 48), 4 heads, 2 key/value heads")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Context: 256 positions")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Tokenizer: 258 ids: byte-level BPE")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("episodes are append-only")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("LoRA r=16 trains")), qPrintable(text));
    QVERIFY(launcher->configText().contains(QStringLiteral("policy.pretrained: %1").arg(folder)));
    QVERIFY(launcher->startButton()->isEnabled());
    QVERIFY(!launcher->sizeCombo()->isEnabled());
    for (const char* key : { "policy.width", "policy.layers", "policy.heads", "policy.positions" })
        QVERIFY2(!launcher->form()->isKeyEnabled(QString::fromLatin1(key)), key); // the model's own shape applies
    QVERIFY(launcher->form()->isKeyEnabled(QStringLiteral("policy.lora.rank")));
    // The memory estimate follows the run: full fine-tuning on the CPU.
    QVERIFY(launcher->setValue(QStringLiteral("policy.finetune"), QStringLiteral("full")));
    QVERIFY2(panel->text().contains(QStringLiteral("full fine-tuning")), qPrintable(panel->text()));
    QVERIFY(!launcher->form()->isKeyEnabled(QStringLiteral("policy.lora.rank")));

    // Back to the built-in size: policy.pretrained leaves the YAML, the size combo is back; the model stays typed.
    launcher->builtinPolicyButton()->click();
    QVERIFY(!launcher->configText().contains(QStringLiteral("policy.pretrained")));
    QVERIFY(launcher->sizeCombo()->isEnabled());
    QCOMPARE(launcher->pretrainedEdit()->text(), folder);
    QVERIFY(panel->isHidden());
    launcher->pretrainedPolicyButton()->click();
    QVERIFY(launcher->configText().contains(QStringLiteral("policy.pretrained: %1").arg(folder)));
    QTRY_VERIFY_WITH_TIMEOUT(launcher->modelPanel()->state() != ModelPanel::State::Reading, kReadWaitMs);
    QVERIFY(launcher->startButton()->isEnabled());

    // A config that names the model chooses it; one that does not chooses the built-in size.
    QString error;
    QVERIFY2(launcher->loadConfigText(
                 QStringLiteral("policy.pretrained: %1\n").arg(folder), QStringLiteral("m.yaml"), &error),
        qPrintable(error));
    QVERIFY(launcher->pretrainedPolicyButton()->isChecked());
    QVERIFY2(
        launcher->loadConfigText(QStringLiteral("seed: 3\n"), QStringLiteral("b.yaml"), &error), qPrintable(error));
    QVERIFY(launcher->builtinPolicyButton()->isChecked());
    QVERIFY(launcher->startButton()->isEnabled());
}

void TestHfModel::badFolderDisablesStart_data()
{
    QTest::addColumn<QString>("breakage");
    QTest::addColumn<QStringList>("expected"); // what the error must name
    QTest::newRow("config field") << "config" << QStringList { "config.json", "hidden_size" };
    QTest::newRow("weight shape") << "shape" << QStringList { "model.safetensors", "config.json", "shape [48, 32]" };
    QTest::newRow("no tokenizer") << "tokenizer" << QStringList { "tokenizer.json is missing" };
    QTest::newRow("bad template") << "template" << QStringList { "chat template" };
    QTest::newRow("no folder") << "missing" << QStringList { "nowhere" };
}

/// A folder the trainer could not use shows why (the file and field) and disables Start, also after another database
/// is opened; the built-in size enables it again.
void TestHfModel::badFolderDisablesStart()
{
    QFETCH(QString, breakage);
    QFETCH(QStringList, expected);
    QTemporaryDir dir;
    fs::path model = fs::path(dir.path().toStdString()) / "broken";
    writeTinyFolder(model);
    if (breakage == QLatin1String("config") || breakage == QLatin1String("shape")) {
        auto config = nlohmann::ordered_json::parse(hftest::readText(model / "config.json"));
        if (breakage == QLatin1String("config"))
            config["hidden_size"] = "thirty-two";
        else
            config["intermediate_size"] = 64;
        hftest::writeText(model / "config.json", config.dump());
    } else if (breakage == QLatin1String("tokenizer")) {
        fs::remove(model / "tokenizer.json");
    } else if (breakage == QLatin1String("template")) {
        hftest::writeText(model / "tokenizer_config.json",
            nlohmann::json({ { "chat_template", "{% for message in messages %}" } }).dump());
    } else {
        model = fs::path(dir.path().toStdString()) / "nowhere";
    }
    MainWindow window(testSettings(dir));
    QVERIFY(window.openDatabase(dir.filePath(QStringLiteral("runs.db"))));
    LauncherPage* launcher = window.launcher();
    QVERIFY(launcher->startButton()->isEnabled());
    launcher->setPretrained(QString::fromStdString(model.string()));
    QTRY_VERIFY_WITH_TIMEOUT(launcher->modelPanel()->state() != ModelPanel::State::Reading, kReadWaitMs);
    ModelPanel* panel = launcher->modelPanel();
    QVERIFY2(panel->state() == ModelPanel::State::Failed, qPrintable(panel->text()));
    for (const QString& part : expected) {
        QVERIFY2(panel->errorText().contains(part), qPrintable(panel->errorText()));
        QVERIFY2(panel->text().contains(part), qPrintable(panel->text()));
    }
    QVERIFY(!launcher->startButton()->isEnabled());
    QString error;
    QVERIFY(!launcher->startRun(&error)); // Ctrl+Return too
    QVERIFY2(error.contains(expected.first()), qPrintable(error));
    QVERIFY(window.openDatabase(dir.filePath(QStringLiteral("other.db"))));
    QVERIFY(!launcher->startButton()->isEnabled());
    launcher->builtinPolicyButton()->click();
    QVERIFY(launcher->startButton()->isEnabled());
}

/// The Model column: a Hugging Face model by folder name (the path in the tooltip) or repository id, else the built-in
/// shape; read from the stored configs through the workspace.
void TestHfModel::runsShowTheModel()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    qint64 folderRun = 0, repoRun = 0, builtinRun = 0, importRun = 0;
    {
        Store store(db.toStdString());
        const auto trainRun = [&](const std::string& name, const std::string& pretrained) {
            const qint64 id = store.createRun({ name, RunKind::Train, RunStatus::Finished, std::nullopt });
            store.setRunShape(id, { "grpo", "household", 0, 128, 2, 3 });
            store.setRunConfig(
                id, "yaml", "policy.layers: 2\npolicy.pretrained: \"" + pretrained + "\"\npolicy.width: 128\n");
            return id;
        };
        folderRun = trainRun("folder", "/models/SmolLM2-135M-Instruct/");
        repoRun = trainRun("repo", "Qwen/Qwen2.5-0.5B-Instruct");
        builtinRun = trainRun("builtin", "");
        importRun = store.createRun({ "import", RunKind::Import, RunStatus::Finished, std::string("a.jsonl") });
    }
    Workspace workspace;
    QVERIFY(workspace.open(db));
    RunModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRuns(workspace.runs(), workspace.pretrainedModels());
    const auto cell = [&](qint64 run, int role = Qt::DisplayRole) {
        return model.index(model.rowOfRun(run), int(RunModel::Column::Model)).data(role).toString();
    };
    QCOMPARE(model.headerData(int(RunModel::Column::Model), Qt::Horizontal).toString(), QStringLiteral("Model"));
    QCOMPARE(cell(folderRun), QStringLiteral("SmolLM2-135M-Instruct"));
    QVERIFY2(cell(folderRun, Qt::ToolTipRole).contains(QStringLiteral("/models/SmolLM2-135M-Instruct/")),
        qPrintable(cell(folderRun, Qt::ToolTipRole)));
    QCOMPARE(cell(repoRun), QStringLiteral("Qwen/Qwen2.5-0.5B-Instruct"));
    QCOMPARE(cell(builtinRun), QStringLiteral("built-in 128×2"));
    QVERIFY(cell(builtinRun, Qt::ToolTipRole).isEmpty());
    QCOMPARE(cell(importRun), QString());
    // The Runs page shows the column from its workspace.
    MainWindow window(testSettings(dir));
    QVERIFY(window.openDatabase(db));
    const QAbstractItemModel* shown = window.findChild<RunModel*>();
    QVERIFY(shown);
    bool found = false;
    for (int row = 0; row < shown->rowCount(); ++row)
        found = found
            || shown->index(row, int(RunModel::Column::Model)).data().toString()
                == QLatin1String("Qwen/Qwen2.5-0.5B-Instruct");
    QVERIFY(found);
}

/// The Monitor's line of figures: tokens per second generated and trained, and the peak device memory when the run
/// reports it ("—" when it does not).
void TestHfModel::monitorShowsThroughputAndMemory()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("runs.db"));
    MainWindow window(testSettings(dir));
    QVERIFY(window.openDatabase(db));
    const qint64 cuda = createRunningRun(db, 3);
    const qint64 cpu = createRunningRun(db, 3);
    {
        Store store(db.toStdString());
        const std::vector<std::pair<std::string, double>> withMemory { { std::string(metricnames::kTimeTotal), 12.0 },
            { std::string(metricnames::kThroughputGenTokens), 1234.4 },
            { std::string(metricnames::kThroughputTrainTokens), 5678.0 },
            { std::string(metricnames::kDeviceMemory), 3.256 } };
        store.writeMetrics(cuda, 1, withMemory);
        const std::vector<std::pair<std::string, double>> without { { std::string(metricnames::kTimeTotal), 2.0 },
            { std::string(metricnames::kThroughputGenTokens), 99.0 } };
        store.writeMetrics(cpu, 1, without);
    }
    MonitorPage* monitor = window.monitor();
    const auto* figures = monitor->findChild<QLabel*>(QStringLiteral("monitorThroughput"));
    QVERIFY(figures);
    monitor->showRun(cuda);
    const QLocale locale;
    QVERIFY2(figures->text().contains(QStringLiteral("%1 generated tok/s").arg(locale.toString(qint64(1234)))),
        qPrintable(figures->text()));
    QVERIFY2(figures->text().contains(QStringLiteral("%1 trained tok/s").arg(locale.toString(qint64(5678)))),
        qPrintable(figures->text()));
    QVERIFY2(figures->text().contains(QStringLiteral("device memory %1 GiB").arg(locale.toString(3.256, 'f', 2))),
        qPrintable(figures->text()));
    monitor->showRun(cpu);
    QVERIFY2(figures->text().contains(QStringLiteral("99 generated tok/s")), qPrintable(figures->text()));
    QVERIFY2(figures->text().endsWith(QStringLiteral("device memory —")), qPrintable(figures->text()));
}

QTEST_MAIN(TestHfModel)
#include "tst_ui_hfmodel.moc"
