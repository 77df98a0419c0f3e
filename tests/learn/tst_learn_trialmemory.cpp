// The memory check of parallel trials (core/learn/api/trialmemory.h, issue 38): the estimate of one trial from its
// config, and how many trials run at once for the memory available.
#include "core/hf/config.h"
#include "core/learn/api/trialmemory.h"

#include <QTemporaryDir>
#include <QtTest/QTest>

#include <fstream>

using namespace creditlab;
using namespace creditlab::learn;

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

TrainConfig shipped(const char* name, const std::vector<std::pair<std::string, std::string>>& overrides = {})
{
    return TrainConfig::load(std::string(CREDITLAB_SOURCE_DIR "/resources/configs/") + name, overrides);
}

} // namespace

class TestLearnTrialMemory : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fitsOrRunsFewer()
    {
        const double trial = 8.0 * kGiB;
        WorkerFit fit = fitWorkers(2, trial, 20.0 * kGiB);
        QCOMPARE(fit.workers, 2);
        QVERIFY(fit.note.empty());
        fit = fitWorkers(2, trial, 12.0 * kGiB);
        QCOMPARE(fit.workers, 1);
        QCOMPARE(QString::fromStdString(fit.note),
            QStringLiteral(
                "memory: 2 trials at once need about 16.0 GiB and 12.0 GiB is available: running 1 at a time"));
        fit = fitWorkers(4, trial, 17.0 * kGiB);
        QCOMPARE(fit.workers, 2);
        fit = fitWorkers(2, trial, 4.0 * kGiB);
        QCOMPARE(fit.workers, 1);
        QVERIFY2(fit.note.find("(even one may not fit)") != std::string::npos, fit.note.c_str());
        // Nothing known about the machine, or one worker anyway: no check.
        QCOMPARE(fitWorkers(2, trial, std::nullopt).workers, 2);
        QCOMPARE(fitWorkers(1, trial, 1.0).workers, 1);
        QVERIFY(fitWorkers(1, trial, 1.0).note.empty());
    }

    void availableMemoryIsReadOrFaked()
    {
        const auto real = availableMemoryBytes();
        QVERIFY(real && *real > 0); // Linux has /proc/meminfo
        qputenv("CREDITLAB_MEMAVAILABLE_MIB", "1536");
        const auto fake = availableMemoryBytes();
        qunsetenv("CREDITLAB_MEMAVAILABLE_MIB");
        QVERIFY(fake);
        QCOMPARE(*fake, 1536.0 * 1024 * 1024);
    }

    void builtinPolicyGrowsWithItsShape()
    {
        // The shipped household method configs (256 x 2, context 1024): a working set of about a gigabyte, twice
        // that resident.
        const TrialMemory grpo = estimateTrialMemory(shipped("household-grpo.yaml"));
        QVERIFY2(grpo.live > 0.5 * kGiB && grpo.live < 3.0 * kGiB, qPrintable(QString::number(grpo.live / kGiB)));
        QCOMPARE(grpo.resident, grpo.live * kResidentPerLive);
        // A longer context makes the KV caches longer; fewer tokens per update micro-batch make it smaller.
        QVERIFY(estimateTrialMemory(shipped("household-grpo.yaml", { { "policy.context", "2048" } })).live > grpo.live);
        QVERIFY(
            estimateTrialMemory(shipped("household-grpo.yaml", { { "rl.micro_tokens", "4096" } })).live < grpo.live);
        QVERIFY(estimateTrialMemory(shipped("household-grpo.yaml", { { "policy.width", "512" } })).live > grpo.live);
        // On a GPU the working set is the device's: the host holds the weights' copy only.
        QVERIFY(estimateTrialMemory(shipped("household-grpo.yaml"), "cuda:0").live < 0.05 * grpo.live);
    }

    void pretrainedPolicyFromItsConfig()
    {
        // A Qwen2.5-0.5B-shaped folder (config.json is all the estimate reads): full fine-tuning in float32 on the CPU
        // holds the weights, the reference copy, the gradient and AdamW's moments; LoRA only the adapters' state.
        QTemporaryDir dir;
        hf::ModelConfig shape;
        shape.vocabSize = 151936;
        shape.hiddenSize = 896;
        shape.intermediateSize = 4864;
        shape.layers = 24;
        shape.heads = 14;
        shape.kvHeads = 2;
        shape.headDim = 64;
        shape.maxPositions = 32768;
        shape.tieWordEmbeddings = true;
        {
            std::ofstream out(dir.filePath(QStringLiteral("config.json")).toStdString());
            out << hf::llamaConfigJson(shape);
        }
        const std::string folder = dir.path().toStdString();
        const auto config = [&](const char* finetune) {
            return shipped("household-grpo.yaml",
                { { "policy.pretrained", folder }, { "policy.finetune", finetune }, { "policy.context", "1024" } });
        };
        const double params = static_cast<double>(shape.parameterCount());
        const TrialMemory full = estimateTrialMemory(config("full"));
        const TrialMemory lora = estimateTrialMemory(config("lora"));
        QVERIFY2(full.live > params * 4.0 * 5, qPrintable(QString::number(full.live / kGiB))); // w, ref, grad, m, v
        // Full fine-tuning adds the reference copy, the gradient and both moments: 16 bytes a parameter.
        QVERIFY2(full.live - lora.live > params * 4.0 * 3.9, qPrintable(QString::number((full.live - lora.live) / kGiB)));
        QVERIFY(lora.live > params * 4.0); // the frozen weights are there
    }
};

QTEST_GUILESS_MAIN(TestLearnTrialMemory)
#include "tst_learn_trialmemory.moc"
