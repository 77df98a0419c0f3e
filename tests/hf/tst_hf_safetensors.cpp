// Hugging Face model folders without LibTorch (issue 34): safetensors read through mmap and written, sharded
// checkpoints, config.json and generation_config.json of each architecture, the Hub cache, and bad folders, each
// refused with an error naming the file and the key or tensor.
#include "hftestutil.h"

#include "core/hf/error.h"
#include "core/hf/hubcache.h"
#include "core/hf/modelfolder.h"

#include <QTemporaryDir>
#include <QtTest/QTest>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace creditlab;
namespace fs = std::filesystem;

namespace {

std::string readAll(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// The HfError text of `f`, or "" when it does not throw.
template <typename F> std::string errorOf(F&& f)
{
    try {
        f();
    } catch (const hf::HfError& e) {
        return e.what();
    }
    return {};
}

/// A safetensors file of raw header text and data bytes.
std::string rawFile(const std::string& header, const std::string& data)
{
    std::string out(8, '\0');
    const std::uint64_t n = header.size();
    std::memcpy(out.data(), &n, 8);
    return out + header + data;
}

} // namespace

class TestHfSafetensors : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void writeThenReadRoundTrips()
    {
        QTemporaryDir dir;
        const std::vector<float> a { 1.0f, -2.5f, 3.25f, 0.0f, 1e-3f, 7.0f };
        const std::vector<std::uint16_t> b { hf::floatToBf16(1.5f), hf::floatToBf16(-0.25f) };
        const std::string path = (fs::path(dir.path().toStdString()) / "w.safetensors").string();
        hf::writeSafetensors(path,
            { { "a", hf::DType::F32, { 2, 3 }, std::as_bytes(std::span(a)) },
                { "b.bias", hf::DType::BF16, { 2 }, std::as_bytes(std::span(b)) } },
            { { "format", "pt" } });
        const auto file = hf::SafetensorsFile::open(path);
        QCOMPARE(file->tensors().size(), std::size_t(2));
        QCOMPARE(file->metadata().at("format"), std::string("pt"));
        const hf::TensorView* ta = file->find("a");
        QVERIFY(ta != nullptr);
        QCOMPARE(ta->shape, (std::vector<std::int64_t> { 2, 3 }));
        QCOMPARE(ta->elements(), std::int64_t(6));
        QVERIFY(std::memcmp(ta->data, a.data(), 24) == 0);
        const hf::TensorView* tb = file->find("b.bias");
        QCOMPARE(tb->dtype, hf::DType::BF16);
        std::uint16_t first = 0;
        std::memcpy(&first, tb->data, 2);
        QCOMPARE(hf::bf16ToFloat(first), 1.5f);
        // The header is padded to 8 bytes, so the data stays aligned for any dtype.
        std::uint64_t headerSize = 0;
        std::memcpy(&headerSize, readAll(path).data(), 8);
        QCOMPARE(headerSize % 8, std::uint64_t(0));
        QVERIFY(reinterpret_cast<std::uintptr_t>(ta->data) % 8 == 0);
    }

    void bf16RoundsToNearestEven()
    {
        // 1 + 2^-8 is halfway between two bf16 values: ties go to the even mantissa (1.0); just above rounds up.
        QCOMPARE(hf::bf16ToFloat(hf::floatToBf16(1.0f + 1.0f / 256)), 1.0f);
        QCOMPARE(hf::bf16ToFloat(hf::floatToBf16(1.0f + 3.0f / 256)), 1.0f + 1.0f / 64);
        QVERIFY(std::isnan(hf::bf16ToFloat(hf::floatToBf16(std::nanf("")))));
        QCOMPARE(hf::f16ToFloat(0x3c00), 1.0f);
        QCOMPARE(hf::f16ToFloat(0xc000), -2.0f);
        QCOMPARE(hf::f16ToFloat(0x0001), std::ldexp(1.0f, -24)); // the smallest subnormal
    }

    void badFilesNameTheFileAndTensor_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        const std::string data(24, '\0');
        QTest::newRow("shorter than the size") << QByteArray("\x01\x02", 2) << "truncated: 2 bytes";
        QTest::newRow("header past the end") << QByteArray::fromStdString(rawFile("{}", "").substr(0, 8) + "{")
                                             << "the header claims 2 bytes but the file has 1";
        QTest::newRow("not JSON") << QByteArray::fromStdString(rawFile("{\"a\": ", "")) << "header: invalid JSON";
        // Found by fuzz_hf_safetensors: nlohmann's out_of_range escaped as no HfError (and named no file).
        QTest::newRow("number past double") << QByteArray::fromStdString(
            rawFile(R"({"e": {"dtype": "I64", "shape": [0, 1e999], "data_offsets": [0, 0]}})", ""))
                                            << "header: invalid JSON";
        QTest::newRow("not an object") << QByteArray::fromStdString(rawFile("[1, 2]", "")) << "does not start with '{'";
        QTest::newRow("unknown dtype") << QByteArray::fromStdString(
            rawFile(R"({"w": {"dtype": "F8", "shape": [6], "data_offsets": [0, 24]}})", data))
                                       << "tensor \"w\": unknown dtype \"F8\"";
        QTest::newRow("offsets past the end")
            << QByteArray::fromStdString(
                   rawFile(R"({"w": {"dtype": "F32", "shape": [6], "data_offsets": [0, 24]}})", data.substr(0, 20)))
            << "tensor \"w\": data_offsets end 24 is past the end of the data (20 bytes";
        QTest::newRow("size does not match the shape") << QByteArray::fromStdString(
            rawFile(R"({"w": {"dtype": "F32", "shape": [5], "data_offsets": [0, 24]}})", data))
                                                       << "tensor \"w\": 24 bytes for a F32 shape that needs 20";
        QTest::newRow("overlap") << QByteArray::fromStdString(
            rawFile(R"({"a": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]},)"
                    R"( "b": {"dtype": "F32", "shape": [4], "data_offsets": [8, 24]}})",
                data)) << "two tensors overlap at data offset 8";
        QTest::newRow("negative dimension") << QByteArray::fromStdString(
            rawFile(R"({"w": {"dtype": "F32", "shape": [-6], "data_offsets": [0, 24]}})", data))
                                            << "tensor \"w\": key \"shape\": expected non-negative integers";
        QTest::newRow("huge shape") << QByteArray::fromStdString(
            rawFile(R"({"w": {"dtype": "F32", "shape": [4611686018427387904, 8], "data_offsets": [0, 24]}})", data))
                                    << "tensor \"w\": shape too large";
    }
    void badFilesNameTheFileAndTensor()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const std::string path = (fs::path(dir.path().toStdString()) / "bad.safetensors").string();
        hftest::writeText(path, bytes.toStdString());
        const std::string error = errorOf([&] { hf::SafetensorsFile::open(path); });
        QVERIFY2(error.starts_with(path + ": "), error.c_str());
        QVERIFY2(error.find(expected.toStdString()) != std::string::npos, error.c_str());
    }

    void shardedCheckpointOpensEveryShardOnce()
    {
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        hftest::writeTinyModel(d, { .arch = "Qwen2ForCausalLM", .dtype = hf::DType::BF16, .shards = 3 });
        const hf::Checkpoint ckpt = hf::Checkpoint::open(d.string());
        QCOMPARE(ckpt.files().size(), std::size_t(3));
        const hf::ModelConfig config = hf::parseModelConfig(readAll(d / "config.json"), "config.json");
        QCOMPARE(ckpt.names().size(), hf::expectedWeights(config).size());
        QVERIFY(ckpt.fileOf("lm_head.weight").ends_with("model-00003-of-00003.safetensors"));
        QVERIFY(ckpt.fileOf("model.embed_tokens.weight").ends_with("model-00001-of-00003.safetensors"));
        // A shard that lacks a tensor its index puts in it.
        const std::string original = readAll(d / "model.safetensors.index.json");
        std::string index = original;
        const auto at = index.find("\"lm_head.weight\"");
        index.insert(at, "\"ghost.weight\": \"model-00002-of-00003.safetensors\", ");
        hftest::writeText(d / "model.safetensors.index.json", index);
        QVERIFY(errorOf([&] { hf::Checkpoint::open(d.string()); })
                    .find("model-00002-of-00003.safetensors: lacks tensor \"ghost.weight\", which "
                          "model.safetensors.index.json puts in it")
            != std::string::npos);
        hftest::writeText(d / "model.safetensors.index.json", original);
        fs::remove(d / "model-00003-of-00003.safetensors");
        QVERIFY(errorOf([&] {
            hf::Checkpoint::open(d.string());
        }).find("names shard \"model-00003-of-00003.safetensors\", which is missing")
            != std::string::npos);
    }

    void pickleWeightsAreRefused()
    {
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        hftest::writeText(d / "pytorch_model.bin", "PK\x03\x04 pickled");
        const std::string error = errorOf([&] { hf::Checkpoint::open(d.string()); });
        QVERIFY2(error.find("holds only pickle weights (pytorch_model.bin)") != std::string::npos, error.c_str());
        QVERIFY2(error.find("unpickling runs code") != std::string::npos, error.c_str());
    }

    void configsOfEachArchitecture()
    {
        const auto qwen3 = hf::parseModelConfig(hftest::tinyConfig({ .arch = "Qwen3ForCausalLM" }).dump(), "c");
        QCOMPARE(qwen3.arch, hf::Architecture::Qwen3);
        QCOMPARE(qwen3.headDim, std::int64_t(16)); // explicit, not 32 / 4
        QVERIFY(qwen3.qkNorm && !qwen3.attentionBias);
        const auto qwen2 = hf::parseModelConfig(hftest::tinyConfig({ .arch = "Qwen2ForCausalLM" }).dump(), "c");
        QVERIFY(qwen2.attentionBias && !qwen2.attentionOutputBias && !qwen2.qkNorm);
        QCOMPARE(qwen2.ropeTheta, 1e6);
        const auto llama = hf::parseModelConfig(
            hftest::tinyConfig({ .arch = "LlamaForCausalLM", .llama3Rope = true, .v5Rope = true }).dump(), "c");
        QCOMPARE(llama.rope.type, hf::RopeScaling::Type::Llama3);
        QCOMPARE(llama.ropeTheta, 500000.0); // inside rope_parameters (transformers 5)
        QCOMPARE(llama.rope.originalMaxPositions, std::int64_t(16));
        QCOMPARE(llama.eosTokenIds, (std::vector<std::int64_t> { 2 }));
    }

    void realShapesCountTheirParameters()
    {
        // Qwen2.5-0.5B's and Qwen3-0.6B's published config.json sizes; the counts transformers reports for them.
        nlohmann::json qwen25 = { { "architectures", { "Qwen2ForCausalLM" } }, { "vocab_size", 151936 },
            { "hidden_size", 896 }, { "intermediate_size", 4864 }, { "num_hidden_layers", 24 },
            { "num_attention_heads", 14 }, { "num_key_value_heads", 2 }, { "tie_word_embeddings", true },
            { "rope_theta", 1000000.0 }, { "use_sliding_window", false }, { "sliding_window", 32768 } };
        QCOMPARE(hf::parseModelConfig(qwen25.dump(), "c").parameterCount(), std::int64_t(494'032'768));
        nlohmann::json qwen3 = { { "architectures", { "Qwen3ForCausalLM" } }, { "vocab_size", 151936 },
            { "hidden_size", 1024 }, { "intermediate_size", 3072 }, { "num_hidden_layers", 28 },
            { "num_attention_heads", 16 }, { "num_key_value_heads", 8 }, { "head_dim", 128 },
            { "tie_word_embeddings", true }, { "eos_token_id", 151645 } };
        QCOMPARE(hf::parseModelConfig(qwen3.dump(), "c").parameterCount(), std::int64_t(596'049'920));
        // LoRA r = 32 on the seven projections of Qwen2.5-1.5B: 1,318,912 a layer, 28 layers.
        nlohmann::json qwen15 = { { "architectures", { "Qwen2ForCausalLM" } }, { "vocab_size", 151936 },
            { "hidden_size", 1536 }, { "intermediate_size", 8960 }, { "num_hidden_layers", 28 },
            { "num_attention_heads", 12 }, { "num_key_value_heads", 2 }, { "tie_word_embeddings", true } };
        const auto c15 = hf::parseModelConfig(qwen15.dump(), "c");
        QCOMPARE(hf::loraParameterCount(c15, 32), std::int64_t(1'318'912) * 28);
        const auto estimate
            = hf::estimateMemory(c15, { .rows = 8, .context = 2048, .computeBytes = 2, .loraRank = 32 });
        QVERIFY(estimate.weights > 3.0e9 && estimate.weights < 3.2e9); // 1.54 B parameters in bf16
        QVERIFY(estimate.total() < 24e9); // LoRA on a 1.5B model fits a 24 GB card by this estimate
        QVERIFY(estimate.total() > estimate.weights + estimate.kvCache);
    }

    void badConfigsNameTheKey_data()
    {
        QTest::addColumn<QString>("patch");
        QTest::addColumn<QString>("expected");
        QTest::newRow("architecture") << R"({"architectures": ["MistralForCausalLM"]})"
                                      << "key \"architectures\": \"MistralForCausalLM\" is not supported";
        QTest::newRow("activation") << R"({"hidden_act": "gelu"})"
                                    << "key \"hidden_act\": \"gelu\" is not supported";
        QTest::newRow("type") << R"({"hidden_size": "32"})"
                              << "key \"hidden_size\": expected an integer, not \"32\"";
        QTest::newRow("missing") << R"({"num_hidden_layers": null})"
                                 << "key \"num_hidden_layers\": missing";
        QTest::newRow("groups") << R"({"num_key_value_heads": 3})"
                                << "key \"num_key_value_heads\": 3 does not divide num_attention_heads 4";
        QTest::newRow("sliding window") << R"({"use_sliding_window": true})"
                                        << "key \"use_sliding_window\": sliding-window attention is not supported";
        QTest::newRow("rope type") << R"({"rope_scaling": {"rope_type": "yarn", "factor": 4.0}})"
                                   << "key \"rope_scaling.rope_type\": \"yarn\" is not supported";
    }
    void badConfigsNameTheKey()
    {
        QFETCH(QString, patch);
        QFETCH(QString, expected);
        auto config = hftest::tinyConfig({});
        config.merge_patch(nlohmann::ordered_json::parse(patch.toStdString()));
        const std::string error = errorOf([&] { hf::parseModelConfig(config.dump(), "/m/config.json"); });
        QVERIFY2(error.starts_with("/m/config.json: "), error.c_str());
        QVERIFY2(error.find(expected.toStdString()) != std::string::npos, error.c_str());
    }

    void badFoldersAreRefusedByName_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no tokenizer") << "tokenizer"
                                      << "tokenizer.json is missing";
        QTest::newRow("no config") << "config"
                                   << "config.json is missing";
        QTest::newRow("missing tensor") << "missing"
                                        << "tensor \"model.norm.weight\" is missing from the checkpoint";
        QTest::newRow("extra tensor") << "extra"
                                      << "model.safetensors: tensor \"model.layers.0.self_attn.rotary.scale\" "
                                         "is not part of LlamaForCausalLM";
        QTest::newRow("wrong shape") << "shape"
                                     << "model.safetensors: tensor \"model.norm.weight\": shape [31], but "
                                        "config.json implies [32]";
        QTest::newRow("integer weights") << "dtype"
                                         << "model.safetensors: tensor \"model.norm.weight\": dtype I32 is "
                                            "not supported for weights";
        QTest::newRow("truncated") << "truncate"
                                   << "is past the end of the data";
    }
    void badFoldersAreRefusedByName()
    {
        QFETCH(QString, damage);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        hftest::writeTinyModel(d, {});
        hftest::writeText(d / "tokenizer.json", "{}");
        const std::string what = damage.toStdString();
        const std::vector<float> norm(32, 1.0f), shortNorm(31, 1.0f);
        const std::vector<std::int32_t> ints(32, 1);
        auto rewriteNorm = [&](hf::TensorData replacement, bool keep, const std::string& extraName = {}) {
            const auto file = hf::SafetensorsFile::open((d / "model.safetensors").string());
            std::vector<hf::TensorData> tensors;
            for (const auto& t : file->tensors())
                if (t.name != "model.norm.weight" || keep)
                    tensors.push_back({ t.name, t.dtype, t.shape, { t.data, t.bytes } });
            if (!replacement.name.empty())
                tensors.push_back(replacement);
            if (!extraName.empty())
                tensors.push_back({ extraName, hf::DType::F32, { 32 }, std::as_bytes(std::span(norm)) });
            hf::writeSafetensors((d / "model.tmp").string(), tensors);
            fs::rename(d / "model.tmp", d / "model.safetensors");
        };
        if (what == "tokenizer")
            fs::remove(d / "tokenizer.json");
        else if (what == "config")
            fs::remove(d / "config.json");
        else if (what == "missing")
            rewriteNorm({}, false);
        else if (what == "extra")
            rewriteNorm({}, true, "model.layers.0.self_attn.rotary.scale");
        else if (what == "shape")
            rewriteNorm({ "model.norm.weight", hf::DType::F32, { 31 }, std::as_bytes(std::span(shortNorm)) }, false);
        else if (what == "dtype")
            rewriteNorm({ "model.norm.weight", hf::DType::I32, { 32 }, std::as_bytes(std::span(ints)) }, false);
        else if (what == "truncate")
            fs::resize_file(d / "model.safetensors", fs::file_size(d / "model.safetensors") - 100);
        const std::string error = errorOf([&] { hf::ModelFolder::open(d.string()); });
        QVERIFY2(error.find(expected.toStdString()) != std::string::npos, error.c_str());
    }

    void aGoodFolderOpens()
    {
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        hftest::writeTinyModel(d, { .arch = "Qwen3ForCausalLM", .dtype = hf::DType::BF16, .tied = true });
        hftest::writeText(d / "generation_config.json",
            R"({"do_sample": true, "temperature": 0.6, "top_p": 0.95, "top_k": 20, "eos_token_id": [151645, 151643]})");
        const auto folder = hf::ModelFolder::open(d.string(), false);
        QCOMPARE(folder.storedDType(), hf::DType::BF16);
        QVERIFY(folder.generation.has_value());
        QCOMPARE(*folder.generation->temperature, 0.6);
        QCOMPARE(*folder.generation->topK, std::int64_t(20));
        QCOMPARE(folder.generation->eosTokenIds, (std::vector<std::int64_t> { 151645, 151643 }));
        QVERIFY(folder.tokenizerFile.empty());
    }

    void repositoryIdsResolveThroughTheCache()
    {
        QTemporaryDir dir;
        const fs::path cache = fs::path(dir.path().toStdString()) / "hub";
        const std::string commit = "0123456789abcdef0123456789abcdef01234567";
        const fs::path snapshot = cache / "models--Qwen--Qwen2.5-0.5B-Instruct" / "snapshots" / commit;
        fs::create_directories(snapshot);
        fs::create_directories(cache / "models--Qwen--Qwen2.5-0.5B-Instruct" / "refs");
        hftest::writeText(cache / "models--Qwen--Qwen2.5-0.5B-Instruct" / "refs" / "main", commit + "\n");
        ::setenv("HF_HUB_CACHE", cache.c_str(), 1);
        QCOMPARE(hf::resolveModelFolder("Qwen/Qwen2.5-0.5B-Instruct"), snapshot.string());
        QCOMPARE(hf::resolveModelFolder("Qwen/Qwen2.5-0.5B-Instruct@" + commit), snapshot.string());
        std::string error = errorOf([] { hf::resolveModelFolder("Qwen/Qwen2.5-0.5B-Instruct@dev"); });
        QVERIFY2(error.find("the cache has no revision \"dev\"") != std::string::npos, error.c_str());
        error = errorOf([] { hf::resolveModelFolder("meta-llama/Llama-3.2-1B"); });
        QVERIFY2(error.find("not in the Hugging Face cache") != std::string::npos, error.c_str());
        QVERIFY2(error.find("never downloads") != std::string::npos, error.c_str());
        error = errorOf([] { hf::resolveModelFolder("./no/such/folder"); });
        QVERIFY2(error.find("no such folder") != std::string::npos, error.c_str());
        // HF_HOME/hub when HF_HUB_CACHE is unset.
        ::unsetenv("HF_HUB_CACHE");
        ::setenv("HF_HOME", dir.path().toStdString().c_str(), 1);
        QCOMPARE(hf::hubCacheDir(), cache.string());
        QCOMPARE(hf::resolveModelFolder("Qwen/Qwen2.5-0.5B-Instruct"), snapshot.string());
        ::unsetenv("HF_HOME");
    }
};

QTEST_GUILESS_MAIN(TestHfSafetensors)
#include "tst_hf_safetensors.moc"
