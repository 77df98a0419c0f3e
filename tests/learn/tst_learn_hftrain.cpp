// Training a pretrained Hugging Face policy (issue 34 item 5): episodes in the model's chat format through HfFormat,
// the decoder behind the engine's Transformer (rollouts, updates, learned credit models), LoRA's reference as the
// decoder without adapters, SFT adapters folded into the reference, checkpoints of the adapters alone, and an exact
// resume. Every run is a tiny random chat model written by the test (tests/hf/tinychatmodel.h).

#include "../hf/tinychatmodel.h"
#include "core/learn/api/trainconfig.h"
#include "core/learn/torch/engine/trainer.h"
#include "core/learn/torch/hf/hfexport.h"
#include "core/learn/torch/hf/hfformat.h"
#include "core/learn/torch/hf/hfmodel.h"
#include "core/learn/torch/hf/hfpolicy.h"
#include "core/learn/torch/lm/transformer.h"
#include "core/model/vocabulary.h"
#include "core/storage/paths.h"
#include "core/storage/store.h"
#include "tests/learn/resumecheck.h"
#include "tests/learn/tinyconfig.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <set>

using namespace creditlab;
using namespace creditlab::learn;
using testing::deterministicMetrics;
namespace fs = std::filesystem;

namespace {

/// The tiny run of tinyconfig.h on a pretrained chat model: longer actions (byte-level tokens) and a longer context.
TrainConfig hfConfig(const std::string& model, std::vector<std::pair<std::string, std::string>> overrides = {})
{
    overrides.insert(overrides.begin(),
        { { "policy.pretrained", model }, { "policy.context", "512" }, { "policy.max_action_tokens", "24" },
            { "sft.lr", "0.003" }, { "rl.lr", "0.001" } });
    return TrainConfig::parse(testing::kTinyConfig, "tiny.yaml", overrides);
}

std::string decode(const HfFormat& format, const std::vector<std::int32_t>& ids)
{
    return format.chatFormat().tokenizer().decode(ids);
}

} // namespace

class TestLearnHfTrain : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_model = (fs::path(m_dir.path().toStdString()) / "tiny-chat").string();
        m_size = hftest::writeTinyChatModel(m_model, "Qwen2ForCausalLM", 5);
    }
    void formatIsTheChatTemplate();
    void referenceViewIsTheBaseModel();
    void layoutPassEqualsCausalPass();
    void everyMethodTrainsAPretrainedPolicy_data();
    void everyMethodTrainsAPretrainedPolicy();
    void loraCheckpointsHoldTheAdaptersAlone();
    void loraResumeContinuesExactly();
    void exportsAreTheRunsPolicy();
    void configRefusesWindowModeAndUnknownTargets();
    void generationConfigSetsSamplingDefaults();

private:
    QTemporaryDir m_dir;
    std::string m_model;
    int m_size = 0;
};

void TestLearnHfTrain::formatIsTheChatTemplate()
{
    const auto folder = hf::ModelFolder::open(m_model);
    const HfFormat format = HfFormat::load(folder, "You act in a house.");
    QCOMPARE(format.vocabulary(), m_size);
    QCOMPARE(decode(format, format.goal("find a mug")),
        std::string("<|im_start|>system\nYou act in a house.<|im_end|>\n<|im_start|>user\nfind a mug<|im_end|>"));
    const ObservationChunk first = format.observation("You see a mug.", false);
    QCOMPARE(decode(format, first.ids),
        std::string("\n<|im_start|>user\nYou see a mug.<|im_end|>\n<|im_start|>assistant\n"));
    const ObservationChunk later = format.observation("Nothing happens.", true);
    QCOMPARE(decode(format, later.ids),
        std::string("\n<|im_start|>user\nNothing happens.<|im_end|>\n<|im_start|>assistant\n"));
    // The wrapper tokens: "\n", <|im_start|>, "user", "\n" ... and <|im_end|>, "\n", <|im_start|>, "assistant", "\n".
    QVERIFY(first.lead >= 3);
    QVERIFY(first.tail >= 3);
    QCOMPARE(decode(format, { first.ids.begin() + first.lead, first.ids.end() - first.tail }),
        std::string("You see a mug."));
    const auto action = format.action("take mug 1");
    QCOMPARE(action.back(), format.stopTokens().front());
    QCOMPARE(decode(format, action), std::string("take mug 1<|im_end|>"));
    QCOMPARE(format.actionText(action), std::string("take mug 1"));
    QVERIFY(format.builtin() == nullptr);
}

void TestLearnHfTrain::referenceViewIsTheBaseModel()
{
    const auto folder = hf::ModelFolder::open(m_model);
    torch::manual_seed(3);
    HfDecoder decoder = loadHfDecoder(folder);
    decoder->addLora({ .rank = 4, .alpha = 8.0, .dropout = 0.0 });
    {
        torch::NoGradGuard noGrad;
        for (auto& item : decoder->named_parameters())
            if (item.key().find("lora_B") != std::string::npos)
                item.value().normal_(0.0, 0.5); // adapters that change the output
    }
    TransformerOptions options;
    options.context = 512;
    Transformer policy(decoder, options);
    Transformer reference(decoder, options, true);
    HfDecoder base = loadHfDecoder(folder);
    Transformer plain(base, options);
    policy->eval();
    reference->eval();
    plain->eval();
    torch::NoGradGuard noGrad;
    const auto tokens = torch::randint(0, m_size, { 2, 9 }, torch::kLong);
    const auto valid = torch::ones({ 2, 9 }, torch::kBool);
    const auto p = policy->logits(policy->forward(tokens, valid).hidden);
    const auto r = reference->logits(reference->forward(tokens, valid).hidden);
    const auto b = plain->logits(plain->forward(tokens, valid).hidden);
    QVERIFY((r - b).abs().max().item<double>() < 1e-5);
    QVERIFY((p - b).abs().max().item<double>() > 1e-2);
    // A pass of the reference leaves the adapters on for the policy.
    QVERIFY((policy->logits(policy->forward(tokens, valid).hidden) - p).abs().max().item<double>() < 1e-6);
    // Under LoRA only the adapters train, and they are all a checkpoint of the policy holds.
    std::int64_t trainable = 0;
    for (const auto& t : policy->parameters())
        trainable += t.requires_grad() ? t.numel() : 0;
    QCOMPARE(trainable, hf::loraParameterCount(folder.config, 4));
    std::stringstream saved;
    torch::save(policy, saved);
    std::stringstream full;
    torch::save(plain, full);
    QVERIFY(saved.str().size() * 3 < full.str().size());
}

void TestLearnHfTrain::layoutPassEqualsCausalPass()
{
    const auto folder = hf::ModelFolder::open(m_model);
    TransformerOptions options;
    options.context = 512;
    Transformer model(loadHfDecoder(folder), options);
    model->eval();
    torch::NoGradGuard noGrad;
    const std::int64_t steps = 11;
    const auto tokens = torch::randint(0, m_size, { 2, steps }, torch::kLong);
    const auto valid = torch::ones({ 2, steps }, torch::kBool);
    const auto causal = model->forward(tokens, valid).hidden;
    const auto positions = torch::arange(steps, torch::kLong).unsqueeze(0).expand({ 2, steps });
    const auto allowed = torch::ones({ steps, steps }, torch::kBool).tril().unsqueeze(0).expand({ 2, steps, steps });
    QVERIFY((model->forwardLayout(tokens, positions, allowed).hidden - causal).abs().max().item<double>() < 1e-5);
    const auto at = torch::tensor({ 3, 10, 0, 7 }, torch::kLong).view({ 2, 2 });
    const auto gathered = causal.gather(1, at.unsqueeze(-1).expand({ 2, 2, causal.size(2) }));
    QVERIFY((model->forwardAt(tokens, valid, at).hidden - gathered).abs().max().item<double>() < 1e-5);
    // A branch: tokens 8..10 continue the stream from position 5 and see only tokens 0..4 and themselves; the same as
    // the stream 0..4 followed by those tokens.
    auto branched = torch::ones({ steps, steps }, torch::kBool).tril();
    branched.narrow(0, 8, 3).narrow(1, 5, 3).zero_();
    auto branchPositions = torch::arange(steps, torch::kLong);
    branchPositions.narrow(0, 8, 3).copy_(torch::arange(5, 8, torch::kLong));
    const auto tree
        = model->forwardLayout(tokens.narrow(0, 0, 1), branchPositions.unsqueeze(0), branched.unsqueeze(0)).hidden;
    const auto straight
        = torch::cat({ tokens.narrow(0, 0, 1).narrow(1, 0, 5), tokens.narrow(0, 0, 1).narrow(1, 8, 3) }, 1);
    const auto expected = model->forward(straight, torch::ones({ 1, 8 }, torch::kBool)).hidden;
    QVERIFY((tree.narrow(1, 8, 3) - expected.narrow(1, 5, 3)).abs().max().item<double>() < 1e-5);
}

void TestLearnHfTrain::everyMethodTrainsAPretrainedPolicy_data()
{
    QTest::addColumn<QStringList>("keys");
    QTest::newRow("grpo, lora") << QStringList { "credit.method=grpo" };
    QTest::newRow("grpo, full fine-tuning") << QStringList { "credit.method=grpo", "policy.finetune=full" };
    QTest::newRow("triage, noisy judge") << QStringList { "credit.method=triage", "judge.name=noisy" };
    QTest::newRow("mgr, critic") << QStringList { "credit.method=mgr", "critic.enabled=true" };
    QTest::newRow("rtmc") << QStringList { "credit.method=rtmc" };
    QTest::newRow("gigpo") << QStringList { "credit.method=gigpo" };
    QTest::newRow("has, turnrd") << QStringList { "credit.method=has", "credit.decomposer=turnrd", "turnrd.width=16",
        "turnrd.epochs=2" };
    QTest::newRow("pair") << QStringList { "credit.method=pair", "pair.probe_episodes=40" };
}

void TestLearnHfTrain::everyMethodTrainsAPretrainedPolicy()
{
    QFETCH(QStringList, keys);
    std::vector<std::pair<std::string, std::string>> extra { { "rl.iterations", "2" } };
    for (const auto& kv : keys)
        extra.emplace_back(kv.section('=', 0, 0).toStdString(), kv.section('=', 1).toStdString());
    QTemporaryDir dir;
    const std::string db = dir.filePath("runs.db").toStdString();
    Trainer trainer(hfConfig(m_model, extra), { db, "cpu" });
    const auto result = trainer.run();
    QCOMPARE(result.status, RunStatus::Finished);
    QCOMPARE(result.iterationsDone, 2LL);
    Store store(db);
    std::set<std::string> names;
    for (const auto& m : store.metrics(trainer.runId())) {
        names.insert(m.name);
        QVERIFY2(std::isfinite(m.value), m.name.c_str());
    }
    for (const char* name : { "train/policy_loss", "train/kl", "rollout/success", "sft/loss" })
        QVERIFY2(names.count(name), name);
    for (const auto& name : names)
        QVERIFY2(metricnames::familyOf(name), ("no family: " + name).c_str());
    // The actions are the model's decoded text, without its end of turn.
    int turns = 0;
    store.forEachTrajectory(trainer.runId(), 1, [&](const Trajectory& t) {
        for (const auto& turn : t.turns) {
            ++turns;
            if (turn.action.find("<|im_end|>") != std::string::npos)
                return false;
        }
        return true;
    });
    QVERIFY(turns > 0);
    QVERIFY(store.forEachTrajectory(trainer.runId(), 1, [](const Trajectory& t) {
        for (const auto& turn : t.turns)
            if (turn.action.find("<|im_end|>") != std::string::npos)
                return false;
        return true;
    }));
    // The Tokens view's data: the chat stream in the model's own pieces, the sampled log-probs equal to the trainer's.
    const auto rows = store.trajectories(trainer.runId(), 1);
    QVERIFY(!rows.empty());
    const auto segments = store.tokenSegments(rows.front().rowId);
    QVERIFY(!segments.empty());
    QCOMPARE(QString::fromStdString(segments.front().pieces.front()), QString("<|im_start|>"));
    std::int64_t trained = 0;
    for (const auto& s : segments)
        for (std::size_t i = 0; i < s.tokens.size(); ++i)
            if (s.mask[i]) {
                ++trained;
                QVERIFY2(std::abs(s.behaviour[i] - s.current[i]) < 1e-4F,
                    qPrintable(QString("%1 vs %2").arg(s.behaviour[i]).arg(s.current[i])));
            }
    QVERIFY(trained > 0);
}

void TestLearnHfTrain::loraCheckpointsHoldTheAdaptersAlone()
{
    QTemporaryDir dir;
    const std::string db = dir.filePath("runs.db").toStdString();
    // Rank 2: the tiny model's adapters are then a small part of its weights, as a real model's are at rank 16.
    Trainer trainer(hfConfig(m_model, { { "rl.iterations", "1" }, { "policy.lora.rank", "2" } }), { db, "cpu" });
    QCOMPARE(trainer.run().status, RunStatus::Finished);
    Store store(db);
    const auto checkpoint = store.lastCheckpoint(trainer.runId());
    QVERIFY(checkpoint.has_value());
    const auto weights = fs::file_size(fs::path(m_model) / "model.safetensors");
    const auto policy = fs::file_size(checkpoint->second + "/policy.pt");
    const auto reference = fs::file_size(fs::path(checkpoint->second).parent_path() / "reference.pt");
    QVERIFY2(policy * 3 < weights, qPrintable(QString("policy.pt %1 bytes, the model %2").arg(policy).arg(weights)));
    QVERIFY(reference * 3 < weights);
    // A full fine-tuning run checkpoints every weight.
    Trainer full(hfConfig(m_model, { { "rl.iterations", "1" }, { "policy.finetune", "full" } }), { db, "cpu" });
    QCOMPARE(full.run().status, RunStatus::Finished);
    const auto fullCheckpoint = store.lastCheckpoint(full.runId());
    QVERIFY(fs::file_size(fullCheckpoint->second + "/policy.pt") > weights / 2);
}

void TestLearnHfTrain::loraResumeContinuesExactly()
{
    // Without dropout (whose draws are not checkpointed) a resumed LoRA run repeats the uninterrupted one: the SFT
    // adapters fold into the reference again and the RL adapters load on top.
    const auto config = hfConfig(m_model, { { "policy.lora.dropout", "0" } });
    QTemporaryDir dir;
    const std::string straight = dir.filePath("straight.db").toStdString();
    std::int64_t straightRun = 0;
    {
        Trainer trainer(config, { straight, "cpu" });
        straightRun = trainer.run().runId;
    }
    const std::string db = dir.filePath("resumed.db").toStdString();
    std::int64_t runId = 0;
    {
        const auto r = testing::trainFirstIteration(config, db);
        QCOMPARE(r.iterationsDone, 1LL);
        runId = r.runId;
    }
    {
        auto resumed = Trainer::resume(runId, { db, "cpu" });
        const auto r = resumed->run();
        QCOMPARE(r.status, RunStatus::Finished);
        QCOMPARE(r.iterationsDone, 3LL);
    }
    Store a(straight), b(db);
    const auto expected = deterministicMetrics(a, straightRun);
    const auto actual = deterministicMetrics(b, runId);
    const std::string difference = testing::metricDifference(expected, actual);
    QVERIFY2(difference.empty(), difference.c_str());
}

void TestLearnHfTrain::exportsAreTheRunsPolicy()
{
    // A LoRA run whose SFT adapters were folded into its reference: its policy is base + SFT + RL adapters. Exported
    // as one PEFT adapter (the two side by side, twice the rank) and as merged weights, both score as the run's policy.
    QTemporaryDir dir;
    const std::string db = dir.filePath("runs.db").toStdString();
    // MGR's per-turn validity rewards give the RL adapters a gradient even when every episode fails (GRPO's
    // advantages would all be zero on a random model).
    const auto config
        = hfConfig(m_model, { { "rl.iterations", "1" }, { "policy.lora.rank", "2" }, { "credit.method", "mgr" } });
    Trainer trainer(config, { db, "cpu" });
    QCOMPARE(trainer.run().status, RunStatus::Finished);
    Store store(db);
    const auto checkpoint = store.lastCheckpoint(trainer.runId());
    const std::string reference = paths::runFiles(db, trainer.runId()) + "/reference.pt";
    const auto folder = hf::ModelFolder::open(m_model);
    auto policy = loadRunPolicy(config, folder, torch::kCPU, reference, checkpoint->second + "/policy.pt");
    auto sftOnly = loadRunPolicy(config, folder, torch::kCPU, reference);

    const std::string adapterDir = dir.filePath("adapter").toStdString();
    auto adapters = runAdapters(config, folder, reference, checkpoint->second + "/policy.pt");
    QCOMPARE(adapters->loraOptions().rank, 4LL);
    saveLoraAdapter(adapters, m_model, adapterDir);
    HfDecoder base = loadHfDecoder(folder);
    loadLoraAdapter(base, adapterDir);
    const std::string mergedDir = dir.filePath("merged").toStdString();
    saveHfFolder(policy->decoder(), folder, mergedDir, hf::DType::F32);
    HfDecoder merged = loadHfDecoder(hf::ModelFolder::open(mergedDir));

    std::vector<std::vector<std::int64_t>> sequences;
    for (int i = 0; i < 3; ++i) {
        const auto ids = torch::randint(0, m_size, { 12 + i }, torch::kLong);
        sequences.emplace_back(ids.data_ptr<std::int64_t>(), ids.data_ptr<std::int64_t>() + ids.numel());
    }
    const auto expected = scoreSequences(policy->decoder(), sequences);
    const auto worst = [&](HfDecoder& model) {
        const auto got = scoreSequences(model, sequences);
        double w = 0.0;
        for (std::size_t i = 0; i < got.size(); ++i)
            for (std::size_t k = 0; k < got[i].size(); ++k)
                w = std::max(w, std::abs(got[i][k] - expected[i][k]));
        return w;
    };
    QVERIFY2(worst(base) < 1e-5, qPrintable(QString::number(worst(base))));
    QVERIFY2(worst(merged) < 1e-5, qPrintable(QString::number(worst(merged))));
    // Both adapters matter: the SFT policy alone, and the base model, score otherwise.
    HfDecoder sft = sftOnly->decoder();
    QVERIFY2(worst(sft) > 1e-6, qPrintable(QString::number(worst(sft))));
    HfDecoder plain = loadHfDecoder(folder);
    QVERIFY2(worst(plain) > 1e-3, qPrintable(QString::number(worst(plain))));
}

void TestLearnHfTrain::configRefusesWindowModeAndUnknownTargets()
{
    try {
        hfConfig(m_model, { { "policy.memory", "window" } });
        QFAIL("window mode accepted");
    } catch (const ConfigError& e) {
        QVERIFY2(QString(e.what()).contains("policy.memory: window needs a built-in policy"), e.what());
    }
    try {
        hfConfig(m_model, { { "policy.lora.targets", "q_proj, qkv" } });
        QFAIL("unknown target accepted");
    } catch (const ConfigError& e) {
        QVERIFY2(QString(e.what()).contains("policy.lora.targets: 'qkv'"), e.what());
    }
    QCOMPARE(loraTargets("v_proj,q_proj, v_proj"), (std::vector<std::string> { "v_proj", "q_proj" }));
    // A folder that is not a model names the key and the file; nothing is left behind but the run's row.
    QTemporaryDir dir;
    const std::string db = dir.filePath("runs.db").toStdString();
    try {
        Trainer trainer(hfConfig(dir.path().toStdString()), { db, "cpu" });
        QFAIL("an empty folder accepted");
    } catch (const std::exception& e) {
        QVERIFY2(QString(e.what()).contains("policy.pretrained:"), e.what());
        QVERIFY2(QString(e.what()).contains("config.json"), e.what());
    }
}

void TestLearnHfTrain::generationConfigSetsSamplingDefaults()
{
    // The tiny model's generation_config.json has temperature 0.7 and no top_p: a new run without rl.temperature
    // samples at 0.7 and stores it (so a resume reads it back); a run that sets rl.temperature keeps its own.
    const auto storedTemperature = [&](const TrainConfig& config) {
        QTemporaryDir dir;
        const std::string db = dir.filePath("runs.db").toStdString();
        Trainer trainer(config, { db, "cpu" });
        Store store(db, Store::Access::ReadOnly);
        return TrainConfig::parse(*store.runConfig(trainer.runId()), "stored").getDouble("rl.temperature");
    };
    const TrainConfig plain
        = TrainConfig::parse("policy.pretrained: " + m_model + "\npolicy.context: 512\n", "run.yaml");
    QVERIFY(!plain.given("rl.temperature"));
    QVERIFY(plain.given("policy.context"));
    std::string note;
    const TrainConfig defaulted = withGenerationDefaults(plain, &note);
    QCOMPARE(defaulted.getDouble("rl.temperature"), 0.7);
    QCOMPARE(defaulted.getDouble("rl.top_p"), 1.0);
    QVERIFY2(QString::fromStdString(note).contains("rl.temperature 0.7"), note.c_str());
    QCOMPARE(storedTemperature(hfConfig(m_model)), 0.7);
    QCOMPARE(storedTemperature(hfConfig(m_model, { { "rl.temperature", "1" } })), 1.0);
    // A built-in policy has no generation config.
    QCOMPARE(withGenerationDefaults(TrainConfig::defaults()).getDouble("rl.temperature"), 1.0);
    // generation_config.json's top_k (Qwen3's is 20) becomes rl.top_k unless the run sets it.
    QCOMPARE(defaulted.getInt("rl.top_k"), std::int64_t(0));
    QTemporaryDir copy;
    const fs::path withTopK = fs::path(copy.path().toStdString()) / "model";
    fs::copy(m_model, withTopK, fs::copy_options::recursive);
    {
        std::ofstream out(withTopK / "generation_config.json", std::ios::trunc);
        out << R"({"eos_token_id": [1], "temperature": 0.6, "top_k": 20})";
    }
    const auto topK = [&](const std::string& extra) {
        return withGenerationDefaults(
            TrainConfig::parse("policy.pretrained: " + withTopK.string() + "\n" + extra, "run.yaml"))
            .getInt("rl.top_k");
    };
    QCOMPARE(topK(""), std::int64_t(20));
    QCOMPARE(topK("rl.top_k: 5\n"), std::int64_t(5));
}

QTEST_GUILESS_MAIN(TestLearnHfTrain)
#include "tst_learn_hftrain.moc"
