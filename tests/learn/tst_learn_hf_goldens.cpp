// Goldens from transformers and peft (issue 34), replayed on the CPU: tests/learn/data/hf_goldens.tar.gz, written by
// tests/device/hf_checks.py on a GPU machine (docs/hf-models.md, "GPU checks"). It holds tiny random Qwen2, Qwen3 and
// Llama folders saved by transformers itself (fp32 and bf16 safetensors, tied and untied), transformers' CPU float32
// log-probabilities of fixed sequences, and peft adapters with peft's log-probabilities and gradients. CreditLab must
// match each within the manifest's tolerance (1e-4; relative for gradients). Until the archive is committed, the
// test skips, naming the missing file.
#include "core/hf/safetensors.h"
#include "core/learn/torch/hf/hfexport.h"
#include "core/learn/torch/hf/hfmodel.h"
#include "core/learn/torch/hf/hfupdate.h"

#include <nlohmann/json.hpp>

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest/QTest>

#include <filesystem>
#include <fstream>

using namespace creditlab;
namespace fs = std::filesystem;

namespace {

const std::string kArchive = std::string(CREDITLAB_SOURCE_DIR) + "/tests/learn/data/hf_goldens.tar.gz";

std::vector<std::vector<double>> readRows(const fs::path& path)
{
    std::vector<std::vector<double>> out;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);)
        if (!line.empty())
            out.push_back(nlohmann::json::parse(line).get<std::vector<double>>());
    return out;
}

std::vector<std::vector<std::int64_t>> readSequences(const fs::path& path)
{
    std::vector<std::vector<std::int64_t>> out;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);)
        if (!line.empty())
            out.push_back(nlohmann::json::parse(line).get<std::vector<std::int64_t>>());
    return out;
}

double maxDifference(const std::vector<std::vector<double>>& a, const std::vector<std::vector<double>>& b)
{
    if (a.size() != b.size())
        return INFINITY;
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i].size() != b[i].size())
            return INFINITY;
        for (std::size_t j = 0; j < a[i].size(); ++j)
            worst = std::max(worst, std::abs(a[i][j] - b[i][j]));
    }
    return worst;
}

torch::Tensor tensorOf(const hf::TensorView& view)
{
    if (view.dtype != hf::DType::F32)
        throw std::runtime_error(view.name + ": expected F32");
    return torch::from_blob(const_cast<std::byte*>(view.data), view.shape, torch::kFloat32).to(torch::kFloat64);
}

} // namespace

class TestLearnHfGoldens : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    fs::path m_root;
    nlohmann::json m_manifest;

private Q_SLOTS:
    void initTestCase()
    {
        if (!fs::exists(kArchive))
            QSKIP(qPrintable(QString::fromStdString(kArchive + " is not committed yet: it comes from a GPU session's "
                                                                "tests/device/run.sh ($OUT/goldens.tar.gz)")));
        torch::manual_seed(0);
        at::set_num_threads(1);
        QProcess tar;
        tar.start("tar", { "-xzf", QString::fromStdString(kArchive), "-C", m_dir.path() });
        QVERIFY(tar.waitForFinished(60000) && tar.exitCode() == 0);
        m_root = fs::path(m_dir.path().toStdString()) / "hf_goldens";
        std::ifstream in(m_root / "manifest.json");
        m_manifest = nlohmann::json::parse(in);
        qInfo("goldens of %s: transformers %s, peft %s, torch %s", m_manifest.value("created", "?").c_str(),
            m_manifest.value("transformers", "?").c_str(), m_manifest.value("peft", "?").c_str(),
            m_manifest.value("torch", "?").c_str());
        QVERIFY(!m_manifest["cases"].empty());
    }

    void scoresMatchTransformers()
    {
        const auto sequences = readSequences(m_root / "seqs.jsonl");
        for (const auto& c : m_manifest["cases"]) {
            const std::string name = c["name"];
            const auto folder = hf::ModelFolder::open((m_root / name).string(), false);
            auto model = learn::loadHfDecoder(folder);
            const double diff
                = maxDifference(learn::scoreSequences(model, sequences), readRows(m_root / name / "logprobs.jsonl"));
            qInfo("%-20s max |log p - transformers| = %.3g", name.c_str(), diff);
            QVERIFY2(diff <= c.value("tolerance", 1e-4), (name + ": " + std::to_string(diff)).c_str());
        }
    }

    void peftAdaptersMatch()
    {
        if (m_manifest["lora"].empty())
            QSKIP("the goldens hold no peft adapter");
        const auto sequences = readSequences(m_root / "lora-seqs.jsonl");
        for (const auto& l : m_manifest["lora"]) {
            const std::string name = l["model"];
            const fs::path adapter = m_root / l["adapter"].get<std::string>();
            auto model = learn::loadHfDecoder(hf::ModelFolder::open((m_root / name).string(), false));
            learn::loadLoraAdapter(model, adapter.string());
            // peft's log-probabilities of the adapted model.
            const double diff
                = maxDifference(learn::scoreSequences(model, sequences), readRows(adapter / "peft_logprobs.jsonl"));
            qInfo("%-20s adapter: max |log p - peft| = %.3g", name.c_str(), diff);
            QVERIFY2(diff <= l.value("tolerance", 1e-4), (name + ": " + std::to_string(diff)).c_str());
            // peft's gradients of the summed NLL, every lora_A and lora_B, relative to each tensor's largest entry.
            model->eval();
            for (const auto& seq : sequences) {
                const auto n = static_cast<std::int64_t>(seq.size());
                const auto tokens = torch::tensor(seq, torch::kInt64).view({ 1, n });
                const auto from = torch::arange(n - 1, torch::kInt64).unsqueeze(0);
                (-learn::hfTargetLogProbs(model, tokens, torch::ones_like(tokens, torch::kBool), from,
                     tokens.narrow(1, 1, n - 1))
                        .sum())
                    .backward();
            }
            const auto expected = hf::SafetensorsFile::open((adapter / "peft_grads.safetensors").string());
            double worst = 0;
            std::size_t compared = 0;
            for (auto& [key, param] : model->loraWeights()) {
                const hf::TensorView* view = expected->find(key);
                QVERIFY2(view != nullptr, (key + " is not in peft_grads.safetensors").c_str());
                const auto theirs = tensorOf(*view);
                const double scale = std::max(theirs.abs().max().item<double>(), 1e-12);
                worst = std::max(worst, (param.grad().to(torch::kFloat64) - theirs).abs().max().item<double>() / scale);
                ++compared;
            }
            QCOMPARE(compared, expected->tensors().size());
            qInfo("%-20s adapter: max relative gradient error = %.3g", name.c_str(), worst);
            QVERIFY2(worst <= l.value("tolerance", 1e-4), (name + ": " + std::to_string(worst)).c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestLearnHfGoldens)
#include "tst_learn_hf_goldens.moc"
