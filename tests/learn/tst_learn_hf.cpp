// The Hugging Face decoder (issue 34) on tiny random checkpoints written here in the Hugging Face layout: every
// architecture, fp32, bf16 and f16 weights, sharded, tied and untied, llama3 and transformers-5 rope configs, against
// an independent float64 implementation in Debian's python3-torch (tests/learn/hf_reference.py), within 1e-4 in
// log-probs; incremental decoding against the full pass; padding on either side.
#include "../hf/hftestutil.h"

#include "core/hf/error.h"
#include "core/learn/torch/hf/hfexport.h"
#include "core/learn/torch/hf/hfgeneration.h"
#include "core/learn/torch/hf/hfmodel.h"
#include "core/learn/torch/hf/hfupdate.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest/QTest>

#include <filesystem>
#include <fstream>

using namespace creditlab;
namespace fs = std::filesystem;

namespace {

/// Fixed sequences of several lengths (ids below the tiny vocabulary of 97).
std::vector<std::vector<std::int64_t>> sequences()
{
    return { { 1, 5, 9, 17, 33, 65, 2, 40, 41, 42, 96, 0, 7 }, { 1, 3 },
        { 4, 8, 15, 16, 23, 42, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81,
            82, 83, 84, 85 },
        { 95, 94, 93, 92, 91 } };
}

std::string referenceScript() { return std::string(CREDITLAB_SOURCE_DIR) + "/tests/learn/hf_reference.py"; }

/// The reference's log-probs of sequences() for the model in `dir`.
std::vector<std::vector<double>> reference(const fs::path& dir)
{
    const fs::path input = dir / "seqs.jsonl", output = dir / "ref.jsonl";
    {
        std::ofstream out(input);
        for (const auto& s : sequences())
            out << nlohmann::json(s).dump() << "\n";
    }
    QProcess python;
    python.start("/usr/bin/python3",
        { QString::fromStdString(referenceScript()), QString::fromStdString(dir.string()),
            QString::fromStdString(input.string()), QString::fromStdString(output.string()) });
    if (!python.waitForFinished(300000) || python.exitCode() != 0) {
        qWarning("%s", python.readAllStandardError().constData());
        return {};
    }
    std::vector<std::vector<double>> out;
    std::ifstream in(output);
    for (std::string line; std::getline(in, line);)
        out.push_back(nlohmann::json::parse(line).get<std::vector<double>>());
    return out;
}

double maxDifference(const std::vector<std::vector<double>>& a, const std::vector<std::vector<double>>& b)
{
    double worst = a.size() == b.size() ? 0.0 : INFINITY;
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
        if (a[i].size() != b[i].size())
            return INFINITY;
        for (std::size_t j = 0; j < a[i].size(); ++j)
            worst = std::max(worst, std::abs(a[i][j] - b[i][j]));
    }
    return worst;
}

} // namespace

class TestLearnHf : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        torch::manual_seed(0);
        at::set_num_threads(1);
    }

    void matchesTheFloat64Reference_data()
    {
        QTest::addColumn<QString>("arch");
        QTest::addColumn<int>("dtype");
        QTest::addColumn<int>("shards");
        QTest::addColumn<bool>("tied");
        QTest::addColumn<bool>("llama3");
        QTest::addColumn<bool>("v5");
        const int f32 = int(hf::DType::F32), bf16 = int(hf::DType::BF16), f16 = int(hf::DType::F16);
        QTest::newRow("llama fp32") << "LlamaForCausalLM" << f32 << 1 << false << false << false;
        QTest::newRow("llama bf16 tied llama3 rope") << "LlamaForCausalLM" << bf16 << 1 << true << true << false;
        QTest::newRow("llama fp32 sharded, rope_parameters") << "LlamaForCausalLM" << f32 << 3 << false << true << true;
        QTest::newRow("qwen2 fp32 tied") << "Qwen2ForCausalLM" << f32 << 1 << true << false << false;
        QTest::newRow("qwen2 bf16 sharded") << "Qwen2ForCausalLM" << bf16 << 2 << false << false << false;
        QTest::newRow("qwen3 fp32") << "Qwen3ForCausalLM" << f32 << 1 << false << false << false;
        QTest::newRow("qwen3 bf16 tied") << "Qwen3ForCausalLM" << bf16 << 1 << true << false << true;
        QTest::newRow("qwen3 f16 sharded") << "Qwen3ForCausalLM" << f16 << 2 << false << false << false;
    }
    void matchesTheFloat64Reference()
    {
        QFETCH(QString, arch);
        QFETCH(int, dtype);
        QFETCH(int, shards);
        QFETCH(bool, tied);
        QFETCH(bool, llama3);
        QFETCH(bool, v5);
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        hftest::writeTinyModel(d,
            { .arch = arch.toStdString(),
                .dtype = hf::DType(dtype),
                .shards = shards,
                .tied = tied,
                .llama3Rope = llama3,
                .v5Rope = v5 },
            7);
        const auto folder = hf::ModelFolder::open(d.string(), false);
        auto model = learn::loadHfDecoder(folder);
        // Sequences scored one at a time and in one padded batch give the same numbers.
        const auto batched = learn::scoreSequences(model, sequences());
        const auto single = learn::scoreSequences(model, sequences(), 1);
        QVERIFY(maxDifference(batched, single) < 1e-5);
        const auto expected = reference(d);
        QVERIFY2(!expected.empty(), "the python3-torch reference failed");
        const double diff = maxDifference(batched, expected);
        qInfo("max |log p - reference| = %.3g", diff);
        QVERIFY2(diff < 1e-4, std::to_string(diff).c_str());
    }

    void bf16ComputeKeepsTheRotaryTableInFloat32()
    {
        // A model moved to bf16 keeps its rotary frequencies in float32, as transformers does: rounded to bf16 (a
        // relative error up to 2^-9), the angles at position ~1,500 drift by up to several radians at head_dim 64.
        const nlohmann::json c = { { "architectures", { "LlamaForCausalLM" } }, { "vocab_size", 97 },
            { "hidden_size", 64 }, { "intermediate_size", 64 }, { "num_hidden_layers", 1 },
            { "num_attention_heads", 1 }, { "rope_theta", 500000.0 } };
        const auto config = hf::parseModelConfig(c.dump(), "config.json");
        learn::HfDecoder fp32(config), bf16(config);
        {
            torch::NoGradGuard noGrad;
            auto from = fp32->named_parameters(true);
            for (auto& p : bf16->named_parameters(true))
                p.value().copy_(from[p.key()]);
        }
        bf16->to(torch::kCPU, torch::kBFloat16);
        torch::NoGradGuard noGrad;
        const auto tokens = torch::randint(0, 97, { 1, 1500 }, torch::kInt64);
        const auto valid = torch::ones_like(tokens, torch::kBool);
        auto cacheA = fp32->makeCache(1, 1500), cacheB = bf16->makeCache(1, 1500);
        fp32->forward(tokens, valid, &cacheA);
        bf16->forward(tokens, valid, &cacheB);
        // The keys after RoPE at the last positions: one projection of rounding, then the rotation.
        const auto ka = cacheA.keys[0].narrow(2, 1400, 100).to(torch::kFloat32);
        const auto kb = cacheB.keys[0].narrow(2, 1400, 100).to(torch::kFloat32);
        const double relative = ((ka - kb).norm() / ka.norm()).item<double>();
        qInfo("keys at positions 1400-1499, bf16 against fp32: relative difference %.3g", relative);
        QVERIFY2(relative < 0.05, std::to_string(relative).c_str()); // bf16 rounding alone: about 0.01
    }

    void parametersAreTheCheckpointsNames()
    {
        for (const char* arch : { "LlamaForCausalLM", "Qwen2ForCausalLM", "Qwen3ForCausalLM" }) {
            for (const bool tied : { false, true }) {
                const auto config
                    = hf::parseModelConfig(hftest::tinyConfig({ .arch = arch, .tied = tied }).dump(), "config.json");
                learn::HfDecoder model(config);
                std::set<std::string> names;
                for (const auto& p : model->named_parameters(true))
                    names.insert(p.key());
                std::set<std::string> expected;
                for (const auto& w : hf::expectedWeights(config))
                    expected.insert(w.name);
                QCOMPARE(names, expected);
                QCOMPARE(model->hfWeights().size(), expected.size());
            }
        }
    }

    void cachedDecodingEqualsTheFullPass()
    {
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        hftest::writeTinyModel(d, { .arch = "Qwen3ForCausalLM" }, 3);
        auto model = learn::loadHfDecoder(hf::ModelFolder::open(d.string(), false));
        torch::NoGradGuard noGrad;
        // Two rows of different prompt lengths, left-padded, then 6 tokens one at a time through the cache.
        const auto full = torch::tensor({ 0, 0, 5, 9, 17, 33, 65, 2, 40, 41, 42, 43 }, torch::kInt64).view({ 1, 12 });
        auto tokens
            = torch::cat({ full, torch::tensor({ 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18 }).view({ 1, 12 }) });
        auto valid = torch::ones({ 2, 12 }, torch::kBool);
        valid[0][0] = false;
        valid[0][1] = false;
        const auto reference = model->logits(model->forward(tokens, valid));
        auto cache = model->makeCache(2, 4); // grown as tokens arrive
        auto hidden = model->forward(tokens.narrow(1, 0, 6), valid.narrow(1, 0, 6), &cache);
        std::vector<torch::Tensor> steps { model->logits(hidden) };
        for (int t = 6; t < 12; ++t)
            steps.push_back(model->logits(model->forward(tokens.narrow(1, t, 1), valid.narrow(1, t, 1), &cache)));
        const auto incremental = torch::cat(steps, 1);
        // Compare the valid positions only (the padding rows' outputs are unused).
        const auto diff = (incremental - reference).abs().masked_fill(valid.logical_not().unsqueeze(-1), 0);
        QVERIFY2(diff.max().item<double>() < 1e-5, std::to_string(diff.max().item<double>()).c_str());
        QCOMPARE(cache.length, std::int64_t(12));
        QCOMPARE(cache.nextPosition[0].item<std::int64_t>(), std::int64_t(10));
        // Right padding gives the same log-probs as left padding.
        auto right = torch::cat({ tokens[0].narrow(0, 2, 10), torch::zeros({ 2 }, torch::kInt64) }).view({ 1, 12 });
        auto rightValid = torch::ones({ 1, 12 }, torch::kBool);
        rightValid[0][10] = false;
        rightValid[0][11] = false;
        const auto rightLogits = model->logits(model->forward(right, rightValid));
        const double sideDiff
            = (rightLogits[0].narrow(0, 0, 10) - reference[0].narrow(0, 2, 10)).abs().max().item<double>();
        QVERIFY2(sideDiff < 1e-5, std::to_string(sideDiff).c_str());
    }

    void loraStartsAsTheBaseModel()
    {
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        hftest::writeTinyModel(d, { .arch = "Qwen2ForCausalLM" }, 5);
        const auto folder = hf::ModelFolder::open(d.string(), false);
        auto model = learn::loadHfDecoder(folder);
        const auto base = learn::scoreSequences(model, sequences());
        model->addLora({ .rank = 4, .alpha = 8 });
        // B = 0: the adapted model is the base model, up to float32 rounding: on an AVX-512 machine (AMD EPYC) the
        // scores moved by 6e-6, where a nonzero B moves them by more than 1e-3 (below).
        const double startDiff = maxDifference(learn::scoreSequences(model, sequences()), base);
        QVERIFY2(startDiff < 1e-5, std::to_string(startDiff).c_str());
        // Only the adapters train: 2 x 7 per layer.
        std::int64_t trainable = 0;
        for (const auto& p : model->parameters())
            trainable += p.requires_grad() ? 1 : 0;
        QCOMPARE(trainable, std::int64_t(2 * 7 * 2));
        QCOMPARE(model->loraWeights().front().first,
            std::string("base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight"));
        QCOMPARE(model->loraWeights().front().second.sizes().vec(), (std::vector<std::int64_t> { 4, 32 }));
        QCOMPARE(model->loraWeights()[1].second.sizes().vec(), (std::vector<std::int64_t> { 32, 4 }));
        // Nonzero B changes the scores; with the adapters disabled the base model comes back (the reference policy).
        {
            torch::NoGradGuard noGrad;
            for (auto& [name, w] : model->loraWeights())
                if (name.ends_with("lora_B.weight"))
                    w.normal_(0.0, 0.2);
        }
        QVERIFY(maxDifference(learn::scoreSequences(model, sequences()), base) > 1e-3);
        {
            learn::HfDecoderImpl::AdaptersDisabled off(*model);
            QVERIFY(maxDifference(learn::scoreSequences(model, sequences()), base) < 1e-6);
        }
        QVERIFY(maxDifference(learn::scoreSequences(model, sequences()), base) > 1e-3);
        bool refused = false;
        try {
            learn::HfDecoder other(folder.config);
            other->addLora({ .targets = { "q_proj", "qkv" } });
        } catch (const hf::HfError& e) {
            refused = std::string(e.what()).find("lora.targets: \"qkv\" is not a projection") != std::string::npos;
        }
        QVERIFY(refused);
    }

    void loraGradientsAreTheMergedWeightsGradients()
    {
        // For W' = W + s B A: dL/dA = s B^T dL/dW' and dL/dB = s dL/dW' A^T.
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        hftest::writeTinyModel(d, { .arch = "Qwen3ForCausalLM" }, 9);
        const auto folder = hf::ModelFolder::open(d.string(), false);
        auto lora = learn::loadHfDecoder(folder);
        lora->addLora({ .rank = 3, .alpha = 6, .dropout = 0.0 });
        {
            torch::NoGradGuard noGrad;
            for (auto& [name, w] : lora->loraWeights())
                if (name.ends_with("lora_B.weight"))
                    w.normal_(0.0, 0.1);
        }
        auto merged = learn::loadHfDecoder(folder);
        {
            torch::NoGradGuard noGrad;
            auto from = lora->named_parameters(true);
            for (auto& p : merged->named_parameters(true))
                p.value().copy_(from[p.key()]);
            std::map<std::string, torch::Tensor> target;
            for (auto& item : merged->named_modules())
                if (auto* linear = item.value()->as<learn::HfLinearImpl>())
                    target[item.key()] = linear->weight;
            for (auto& item : lora->named_modules())
                if (auto* linear = item.value()->as<learn::HfLinearImpl>(); linear != nullptr && linear->hasLora())
                    target[item.key()].add_(
                        torch::matmul(linear->lora_B->weight, linear->lora_A->weight) * linear->loraScaling);
        }
        const auto tokens = torch::tensor({ 1, 5, 9, 17, 33, 65, 2, 40, 41, 42 }, torch::kInt64).view({ 1, 10 });
        const auto valid = torch::ones({ 1, 10 }, torch::kBool);
        auto loss = [&](learn::HfDecoder& m) {
            const auto lp = torch::log_softmax(m->logits(m->forward(tokens, valid)).narrow(1, 0, 9), -1);
            return -lp.gather(-1, tokens.narrow(1, 1, 9).unsqueeze(-1)).sum();
        };
        QVERIFY(std::abs(loss(lora).item<double>() - loss(merged).item<double>()) < 1e-4);
        loss(lora).backward();
        loss(merged).backward();
        std::map<std::string, torch::Tensor> mergedGrad;
        for (auto& item : merged->named_modules())
            if (auto* linear = item.value()->as<learn::HfLinearImpl>())
                mergedGrad[item.key()] = linear->weight.grad();
        double worst = 0;
        int checked = 0;
        for (auto& item : lora->named_modules()) {
            auto* linear = item.value()->as<learn::HfLinearImpl>();
            if (linear == nullptr || !linear->hasLora())
                continue;
            QVERIFY(!linear->weight.grad().defined()); // the base weight is frozen
            const auto g = mergedGrad[item.key()];
            QVERIFY(g.defined());
            const auto expectA = linear->loraScaling * torch::matmul(linear->lora_B->weight.t(), g);
            const auto expectB = linear->loraScaling * torch::matmul(g, linear->lora_A->weight.t());
            const double scale
                = 1e-3 + std::max(expectA.abs().max().item<double>(), expectB.abs().max().item<double>());
            worst = std::max(worst, (linear->lora_A->weight.grad() - expectA).abs().max().item<double>() / scale);
            worst = std::max(worst, (linear->lora_B->weight.grad() - expectB).abs().max().item<double>() / scale);
            ++checked;
        }
        QCOMPARE(checked, 14);
        QVERIFY2(worst < 1e-4, std::to_string(worst).c_str());
    }

    void exportsLoadBackWithTheSameScores()
    {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        hftest::writeTinyModel(root / "base", { .arch = "LlamaForCausalLM", .llama3Rope = true }, 11);
        hftest::writeText(root / "base" / "tokenizer.json", "{\"model\": {}}");
        const auto folder = hf::ModelFolder::open((root / "base").string(), false);
        auto model = learn::loadHfDecoder(folder);
        model->addLora({ .rank = 2, .alpha = 4, .targets = { "q_proj", "v_proj", "down_proj" } });
        {
            torch::NoGradGuard noGrad;
            for (auto& [name, w] : model->loraWeights())
                if (name.ends_with("lora_B.weight"))
                    w.normal_(0.0, 0.2);
        }
        const auto expected = learn::scoreSequences(model, sequences());
        // The adapter, PEFT's way, onto a fresh base model.
        learn::saveLoraAdapter(model, "tiny/llama", (root / "adapter").string());
        const auto adapterConfig = nlohmann::json::parse(hftest::readText(root / "adapter" / "adapter_config.json"));
        QCOMPARE(adapterConfig["r"].get<int>(), 2);
        QCOMPARE(adapterConfig["task_type"].get<std::string>(), std::string("CAUSAL_LM"));
        QCOMPARE(adapterConfig["target_modules"].size(), std::size_t(3));
        auto reloaded = learn::loadHfDecoder(folder);
        learn::loadLoraAdapter(reloaded, (root / "adapter").string());
        QVERIFY(maxDifference(learn::scoreSequences(reloaded, sequences()), expected) < 1e-6);
        // Merged weights as a Hugging Face folder, with the tokenizer files copied.
        learn::saveHfFolder(model, folder, (root / "merged").string(), hf::DType::F32);
        QVERIFY(fs::exists(root / "merged" / "tokenizer.json"));
        auto merged = learn::loadHfDecoder(hf::ModelFolder::open((root / "merged").string()));
        QVERIFY(!merged->hasLora());
        QVERIFY(maxDifference(learn::scoreSequences(merged, sequences()), expected) < 1e-5);
        // The live model keeps its adapters.
        QVERIFY(model->hasLora());
        // bf16 weights: within bf16's rounding.
        learn::saveHfFolder(model, folder, (root / "merged-bf16").string(), hf::DType::BF16);
        const auto bf16 = hf::ModelFolder::open((root / "merged-bf16").string());
        QCOMPARE(bf16.storedDType(), hf::DType::BF16);
        auto bf16Model = learn::loadHfDecoder(bf16);
        QVERIFY(maxDifference(learn::scoreSequences(bf16Model, sequences()), expected) < 0.1);
        // An existing folder is refused, and nothing is left behind.
        bool refused = false;
        try {
            learn::saveHfFolder(model, folder, (root / "merged").string(), hf::DType::F32);
        } catch (const hf::HfError& e) {
            refused = std::string(e.what()).find("already exists") != std::string::npos;
        }
        QVERIFY(refused);
        for (const auto& entry : fs::directory_iterator(root))
            QVERIFY2(entry.path().filename().string().find("partial") == std::string::npos, entry.path().c_str());
        // A bad adapter config names its file and key.
        fs::create_directories(root / "dora");
        fs::copy_file(root / "adapter" / "adapter_model.safetensors", root / "dora" / "adapter_model.safetensors");
        auto dora = adapterConfig;
        dora["use_dora"] = true;
        hftest::writeText(root / "dora" / "adapter_config.json", dora.dump());
        auto fresh = learn::loadHfDecoder(folder);
        try {
            learn::loadLoraAdapter(fresh, (root / "dora").string());
            QFAIL("no error");
        } catch (const hf::HfError& e) {
            QVERIFY2(std::string(e.what()).find("adapter_config.json: key \"use_dora\": is not supported")
                    != std::string::npos,
                e.what());
        }
    }

    void greedyGenerationEqualsRepeatedFullPasses()
    {
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        hftest::writeTinyModel(d, { .arch = "LlamaForCausalLM", .llama3Rope = true }, 13);
        auto model = learn::loadHfDecoder(hf::ModelFolder::open(d.string(), false));
        model->eval();
        torch::NoGradGuard noGrad;
        const std::vector<std::vector<std::int64_t>> prompts { { 1, 5, 9, 17, 33 }, { 4, 8 },
            { 60, 61, 62, 63, 64, 65, 66 } };
        learn::Rng rng(1);
        const auto generated = learn::hfGenerate(model, prompts, { .greedy = true, .maxNewTokens = 10 }, rng);
        for (std::size_t r = 0; r < prompts.size(); ++r) {
            std::vector<std::int64_t> seq = prompts[r];
            for (int step = 0; step < 10; ++step) {
                const auto n = static_cast<std::int64_t>(seq.size());
                const auto t = torch::tensor(seq, torch::kInt64).view({ 1, n });
                const auto logits = model->logits(model->forward(t, torch::ones({ 1, n }, torch::kBool)));
                seq.push_back(logits[0][n - 1].argmax().item<std::int64_t>());
            }
            const std::vector<std::int64_t> expected(
                seq.begin() + static_cast<std::ptrdiff_t>(prompts[r].size()), seq.end());
            QCOMPARE(generated[r].tokens, expected);
            QVERIFY(!generated[r].stopped);
        }
    }

    void samplingIsSeededFilteredAndStops()
    {
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        hftest::writeTinyModel(d, { .arch = "Qwen2ForCausalLM" }, 17);
        auto model = learn::loadHfDecoder(hf::ModelFolder::open(d.string(), false));
        model->eval();
        torch::NoGradGuard noGrad;
        const std::vector<std::vector<std::int64_t>> prompts(6, std::vector<std::int64_t> { 1, 5, 9 });
        const learn::HfSamplingOptions sampled { .temperature = 1.5, .topP = 0.95, .maxNewTokens = 12 };
        learn::Rng a(42), b(42), c(43);
        const auto first = learn::hfGenerate(model, prompts, sampled, a);
        const auto again = learn::hfGenerate(model, prompts, sampled, b);
        const auto other = learn::hfGenerate(model, prompts, sampled, c);
        bool differs = false;
        for (std::size_t r = 0; r < prompts.size(); ++r) {
            QCOMPARE(first[r].tokens, again[r].tokens);
            differs = differs || first[r].tokens != other[r].tokens;
            differs = differs || first[r].tokens != first[0].tokens; // rows draw apart
        }
        QVERIFY(differs);
        // top-k = 1 is greedy, with log-prob 0 under the filtered distribution.
        learn::Rng g(5);
        const auto greedy = learn::hfGenerate(model, prompts, { .greedy = true, .maxNewTokens = 6 }, g);
        const auto topOne = learn::hfGenerate(model, prompts, { .topK = 1, .maxNewTokens = 6 }, g);
        QCOMPARE(topOne[0].tokens, greedy[0].tokens);
        QCOMPARE(topOne[0].logProbs[3], 0.0);
        // Padded embedding rows past the tokenizer are never drawn.
        learn::Rng h(7);
        const auto limited
            = learn::hfGenerate(model, prompts, { .temperature = 3.0, .maxNewTokens = 30, .vocabLimit = 10 }, h);
        for (const auto& row : limited)
            for (const auto t : row.tokens)
                QVERIFY(t >= 0 && t < 10);
        // A stop token ends its row and is kept as its last token.
        const std::int64_t stop = greedy[0].tokens[2];
        learn::Rng s(9);
        const auto stopped
            = learn::hfGenerate(model, prompts, { .greedy = true, .maxNewTokens = 6, .stopTokens = { stop } }, s);
        QVERIFY(stopped[0].stopped);
        QCOMPARE(stopped[0].tokens.back(), stop);
        QVERIFY(stopped[0].tokens.size() <= 3);
    }

    void trainedTokenLogProbsAreTheScores()
    {
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        hftest::writeTinyModel(d, { .arch = "Qwen3ForCausalLM", .tied = true }, 19);
        auto model = learn::loadHfDecoder(hf::ModelFolder::open(d.string(), false));
        const auto seqs = sequences();
        const auto scores = learn::scoreSequences(model, { seqs[0] });
        // Positions 3, 7 and 11 predict tokens 4, 8 and 12.
        const auto tokens = torch::tensor(seqs[0], torch::kInt64).unsqueeze(0);
        const auto valid = torch::ones_like(tokens, torch::kBool);
        const auto from = torch::tensor({ 3, 7, 11 }, torch::kInt64).unsqueeze(0);
        const auto targets = tokens.index_select(1, torch::tensor({ 4, 8, 12 }, torch::kInt64));
        const auto lp = learn::hfTargetLogProbs(model, tokens, valid, from, targets);
        QVERIFY(std::abs(lp[0][0].item<double>() - scores[0][3]) < 1e-5);
        QVERIFY(std::abs(lp[0][1].item<double>() - scores[0][7]) < 1e-5);
        QVERIFY(std::abs(lp[0][2].item<double>() - scores[0][11]) < 1e-5);
    }

    void learnsASequenceAndAccumulatesAsOneBatch()
    {
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        hftest::writeTinyModel(d, { .arch = "LlamaForCausalLM" }, 23);
        const auto folder = hf::ModelFolder::open(d.string(), false);
        // Two rows, every next token trained.
        const auto tokens
            = torch::tensor({ 1, 5, 9, 17, 33, 65, 2, 40, 7, 7, 7, 7, 3, 3, 3, 3 }, torch::kInt64).view({ 2, 8 });
        const auto valid = torch::ones_like(tokens, torch::kBool);
        const auto from = torch::arange(7, torch::kInt64).unsqueeze(0).expand({ 2, 7 }).contiguous();
        const auto targets = tokens.narrow(1, 1, 7);
        auto nll = [&](learn::HfDecoder& m, std::int64_t row, std::int64_t rows) {
            return -learn::hfTargetLogProbs(m, tokens.narrow(0, row, rows), valid.narrow(0, row, rows),
                from.narrow(0, row, rows), targets.narrow(0, row, rows))
                        .mean();
        };
        // Learns: 30 AdamW steps take the loss well down.
        auto model = learn::loadHfDecoder(folder);
        learn::HfOptimizer optimizer(model, { .lr = 3e-3 });
        QCOMPARE(optimizer.trainableParameters(), model->config().parameterCount());
        const double before = nll(model, 0, 2).item<double>();
        for (int step = 0; step < 30; ++step) {
            nll(model, 0, 2).backward();
            QVERIFY(std::isfinite(optimizer.step()));
        }
        const double after = nll(model, 0, 2).item<double>();
        qInfo("loss %.3f -> %.3f", before, after);
        QVERIFY(after < 0.25 * before);
        // Two half-batch backward passes, each weighted 1/2, then one step: the same as one full-batch step.
        auto whole = learn::loadHfDecoder(folder);
        auto halves = learn::loadHfDecoder(folder);
        learn::HfOptimizer wholeOpt(whole, { .lr = 1e-3, .maxGradNorm = 0.5 });
        learn::HfOptimizer halvesOpt(halves, { .lr = 1e-3, .maxGradNorm = 0.5 });
        nll(whole, 0, 2).backward();
        const double wholeNorm = wholeOpt.step();
        (0.5 * nll(halves, 0, 1)).backward();
        (0.5 * nll(halves, 1, 1)).backward();
        const double halvesNorm = halvesOpt.step();
        QVERIFY(std::abs(wholeNorm - halvesNorm) < 1e-4 * wholeNorm);
        QVERIFY(wholeNorm > 0.5); // the clipping applied
        double worst = 0;
        auto a = whole->named_parameters(true);
        for (const auto& p : halves->named_parameters(true))
            worst = std::max(worst, (p.value() - a[p.key()]).abs().max().item<double>());
        // Within 1% of one step (lr 1e-3): Adam divides each gradient by its own size, so the rounding of the two sums
        // shows in the parameters (3e-6 on an AVX-512 machine); a half left out or weighted wrong moves them by ~lr.
        QVERIFY2(worst < 1e-5, std::to_string(worst).c_str());
    }

    void bf16ParametersStepFloat32Masters()
    {
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        hftest::writeTinyModel(d, { .arch = "Qwen2ForCausalLM", .dtype = hf::DType::BF16 }, 29);
        auto model = learn::loadHfDecoder(hf::ModelFolder::open(d.string(), false), { .dtype = torch::kBFloat16 });
        QCOMPARE(model->dtype(), torch::kBFloat16);
        const auto before = model->model->norm->weight.detach().clone();
        learn::HfOptimizer optimizer(model, { .lr = 1e-3 });
        const auto tokens = torch::tensor({ 1, 5, 9, 17, 33, 65 }, torch::kInt64).view({ 1, 6 });
        const auto from = torch::arange(5, torch::kInt64).unsqueeze(0);
        // Ten Adam steps of about 1e-3 on weights near 1: each alone is below half of bf16's resolution there (2^-8),
        // together they are not; without master weights every step would round back to the start.
        for (int i = 0; i < 10; ++i) {
            (-learn::hfTargetLogProbs(
                 model, tokens, torch::ones_like(tokens, torch::kBool), from, tokens.narrow(1, 1, 5))
                    .mean())
                .backward();
            optimizer.step();
        }
        const auto moved = (model->model->norm->weight.to(torch::kFloat32) - before.to(torch::kFloat32)).abs();
        QVERIFY(moved.max().item<double>() > 0);
        QCOMPARE(model->model->norm->weight.scalar_type(), torch::kBFloat16);
    }

    void trainerAdamStepsFloat32Masters()
    {
        // The trainer's optimizer (MasterWeightAdam): Adam steps of 1e-4 on bf16 weights of 1.0 are each below half
        // of bf16's resolution there (2^-8), so plain Adam never moves them; with masters forty steps move them by a
        // whole ulp. The archive carries the masters: a reloaded optimizer continues from them, not from the rounding.
        const auto weight = [] { return torch::ones({ 4 }, torch::kBFloat16).requires_grad_(true); };
        const auto train = [](torch::Tensor& w, torch::optim::Adam& adam, int steps) {
            for (int i = 0; i < steps; ++i) {
                adam.zero_grad();
                (w.to(torch::kFloat32) * torch::tensor({ 1.0f, 2.0f, 3.0f, 4.0f })).sum().backward();
                adam.step();
            }
        };
        auto plainWeight = weight();
        torch::optim::Adam plain({ plainWeight }, torch::optim::AdamOptions(1e-4));
        train(plainWeight, plain, 40);
        QCOMPARE(plainWeight.to(torch::kFloat32).max().item<double>(), 1.0);
        auto w = weight();
        QVERIFY(learn::MasterWeightAdam::needed({ w }));
        QVERIFY(!learn::MasterWeightAdam::needed({ torch::ones({ 2 }) }));
        learn::MasterWeightAdam adam({ w }, torch::optim::AdamOptions(1e-4));
        train(w, adam, 40);
        QCOMPARE(w.scalar_type(), torch::kBFloat16);
        QVERIFY2(w.to(torch::kFloat32).max().item<double>() < 1.0, "the bf16 weights did not move");
        QVERIFY(!w.grad().defined()); // step() cleared it
        // Save, then continue two ways: the same optimizer, and a fresh one loaded from the archive.
        QTemporaryDir dir;
        const std::string path = dir.filePath("optimizer.pt").toStdString();
        torch::save(adam, path);
        auto copy = w.detach().clone().requires_grad_(true);
        learn::MasterWeightAdam loaded({ copy }, torch::optim::AdamOptions(1e-4));
        torch::load(loaded, path);
        train(w, adam, 25);
        train(copy, loaded, 25);
        QVERIFY(torch::equal(w, copy));
    }

    void checkpointedLayersGiveTheSameGradients()
    {
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        hftest::writeTinyModel(d, { .arch = "Qwen3ForCausalLM" }, 31);
        const auto folder = hf::ModelFolder::open(d.string(), false);
        const auto tokens = torch::tensor({ 1, 5, 9, 17, 33, 65, 2, 40, 41, 42, 7, 8 }, torch::kInt64).view({ 2, 6 });
        const auto valid = torch::ones_like(tokens, torch::kBool);
        const auto from = torch::arange(5, torch::kInt64).unsqueeze(0).expand({ 2, 5 }).contiguous();
        std::vector<std::map<std::string, torch::Tensor>> grads;
        std::vector<double> losses;
        for (const bool checkpointing : { false, true }) {
            // LoRA with dropout in training mode: the recomputation must draw the same masks.
            auto model = learn::loadHfDecoder(folder);
            torch::manual_seed(77);
            model->addLora({ .rank = 4, .alpha = 8, .dropout = 0.3 });
            {
                torch::NoGradGuard noGrad;
                for (auto& [name, w] : model->loraWeights())
                    if (name.ends_with("lora_B.weight"))
                        w.normal_(0.0, 0.2);
            }
            model->train();
            model->setActivationCheckpointing(checkpointing);
            torch::manual_seed(5);
            const auto loss = -learn::hfTargetLogProbs(model, tokens, valid, from, tokens.narrow(1, 1, 5)).sum();
            loss.backward();
            losses.push_back(loss.item<double>());
            std::map<std::string, torch::Tensor> g;
            for (auto& [name, w] : model->loraWeights())
                g[name] = w.grad().clone();
            grads.push_back(std::move(g));
        }
        QVERIFY(std::abs(losses[0] - losses[1]) < 1e-5);
        QCOMPARE(grads[1].size(), grads[0].size());
        double worst = 0;
        for (const auto& [name, g] : grads[0]) {
            QVERIFY2(grads[1].at(name).defined(), name.c_str());
            worst = std::max(worst, (g - grads[1].at(name)).abs().max().item<double>());
        }
        QVERIFY2(worst < 1e-5, std::to_string(worst).c_str());
    }

    void idsOutsideTheVocabularyAreRefused()
    {
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        hftest::writeTinyModel(d, {});
        auto model = learn::loadHfDecoder(hf::ModelFolder::open(d.string(), false));
        try {
            learn::scoreSequences(model, { { 1, 2 }, { 3, 97 } });
            QFAIL("no error");
        } catch (const hf::HfError& e) {
            QCOMPARE(std::string(e.what()), std::string("sequence 2: id 97 is outside the vocabulary (0..96)"));
        }
    }
};

QTEST_GUILESS_MAIN(TestLearnHf)
#include "tst_learn_hf.moc"
