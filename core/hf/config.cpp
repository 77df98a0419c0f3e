#include "core/hf/config.h"

#include "core/hf/error.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace creditlab::hf {

namespace {

using nlohmann::json;

/// Typed reads of one JSON object, each error naming the file and key.
class Reader {
public:
    Reader(const json& doc, std::string source)
        : m_doc(doc)
        , m_source(std::move(source))
    {
    }
    [[noreturn]] void fail(const std::string& key, const std::string& what) const
    {
        throw HfError(m_source + ": key \"" + key + "\": " + what);
    }
    const json* find(const std::string& key) const
    {
        const auto it = m_doc.find(key);
        return it == m_doc.end() || it->is_null() ? nullptr : &*it;
    }
    std::int64_t integer(const std::string& key) const
    {
        const json* v = find(key);
        if (v == nullptr)
            fail(key, "missing");
        return integerOf(key, *v);
    }
    std::int64_t integerOf(const std::string& key, const json& v) const
    {
        if (!v.is_number_integer())
            fail(key, "expected an integer, not " + v.dump());
        return v.get<std::int64_t>();
    }
    std::optional<std::int64_t> optionalInteger(const std::string& key) const
    {
        const json* v = find(key);
        return v == nullptr ? std::nullopt : std::optional(integerOf(key, *v));
    }
    std::int64_t positive(const std::string& key) const
    {
        const std::int64_t v = integer(key);
        if (v <= 0)
            fail(key, "must be positive, not " + std::to_string(v));
        return v;
    }
    std::optional<double> optionalNumber(const std::string& key) const
    {
        const json* v = find(key);
        if (v == nullptr)
            return std::nullopt;
        if (!v->is_number())
            fail(key, "expected a number, not " + v->dump());
        return v->get<double>();
    }
    std::optional<bool> optionalBool(const std::string& key) const
    {
        const json* v = find(key);
        if (v == nullptr)
            return std::nullopt;
        if (!v->is_boolean())
            fail(key, "expected true or false, not " + v->dump());
        return v->get<bool>();
    }
    std::string optionalString(const std::string& key) const
    {
        const json* v = find(key);
        if (v == nullptr)
            return {};
        if (!v->is_string())
            fail(key, "expected a string, not " + v->dump());
        return v->get<std::string>();
    }
    /// An id or a list of ids (`eos_token_id`).
    std::vector<std::int64_t> ids(const std::string& key) const
    {
        const json* v = find(key);
        if (v == nullptr)
            return {};
        if (v->is_array()) {
            std::vector<std::int64_t> out;
            for (const json& e : *v)
                out.push_back(integerOf(key, e));
            return out;
        }
        return { integerOf(key, *v) };
    }
    const std::string& source() const { return m_source; }

private:
    const json& m_doc;
    std::string m_source;
};

json parseObject(const std::string& text, const std::string& source)
{
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::exception& e) { // parse_error, or out_of_range for a number past double
        throw HfError(source + ": invalid JSON: " + e.what());
    }
    if (!doc.is_object())
        throw HfError(source + ": expected a JSON object");
    return doc;
}

/// `rope_scaling` (transformers 4) or `rope_parameters` (5), whose `rope_theta` then lives inside it.
void readRope(const Reader& r, const json& doc, ModelConfig& c)
{
    if (const auto theta = r.optionalNumber("rope_theta"))
        c.ropeTheta = *theta;
    std::string key = "rope_scaling";
    const json* rope = r.find(key);
    if (rope == nullptr) {
        key = "rope_parameters";
        rope = r.find(key);
    }
    if (rope == nullptr)
        return;
    if (!rope->is_object())
        r.fail(key, "expected an object");
    const Reader rr(*rope, r.source());
    auto sub = [&](const std::string& k) { return key + "." + k; };
    if (const json* theta = rr.find("rope_theta")) {
        if (!theta->is_number())
            r.fail(sub("rope_theta"), "expected a number");
        c.ropeTheta = theta->get<double>();
    }
    std::string type = rr.optionalString("rope_type");
    if (type.empty())
        type = rr.optionalString("type");
    if (type.empty() || type == "default")
        return;
    auto number = [&](const std::string& k, double fallback) {
        const json* v = rr.find(k);
        if (v == nullptr)
            return fallback;
        if (!v->is_number())
            r.fail(sub(k), "expected a number");
        return v->get<double>();
    };
    c.rope.factor = number("factor", 1.0);
    if (type == "llama3") {
        c.rope.type = RopeScaling::Type::Llama3;
        c.rope.lowFreqFactor = number("low_freq_factor", 1.0);
        c.rope.highFreqFactor = number("high_freq_factor", 4.0);
        const json* original = rr.find("original_max_position_embeddings");
        if (original == nullptr || !original->is_number_integer())
            r.fail(sub("original_max_position_embeddings"), "missing or not an integer");
        c.rope.originalMaxPositions = original->get<std::int64_t>();
        if (c.rope.lowFreqFactor <= 0 || c.rope.highFreqFactor <= c.rope.lowFreqFactor)
            r.fail(sub("high_freq_factor"), "must exceed low_freq_factor > 0");
    } else if (type == "linear") {
        c.rope.type = RopeScaling::Type::Linear;
    } else {
        r.fail(sub("rope_type"), "\"" + type + "\" is not supported (default, linear and llama3 are)");
    }
    if (c.rope.factor <= 0)
        r.fail(sub("factor"), "must be positive");
    (void)doc;
}

} // namespace

const char* architectureName(Architecture arch)
{
    switch (arch) {
    case Architecture::Llama:
        return "LlamaForCausalLM";
    case Architecture::Qwen2:
        return "Qwen2ForCausalLM";
    case Architecture::Qwen3:
        return "Qwen3ForCausalLM";
    }
    return "?";
}

ModelConfig parseModelConfig(const std::string& text, const std::string& source)
{
    const json doc = parseObject(text, source);
    const Reader r(doc, source);
    ModelConfig c;
    const json* archs = r.find("architectures");
    if (archs == nullptr || !archs->is_array() || archs->empty() || !(*archs)[0].is_string())
        r.fail("architectures", "missing or not a list of names");
    const std::string arch = (*archs)[0].get<std::string>();
    if (arch == "LlamaForCausalLM")
        c.arch = Architecture::Llama;
    else if (arch == "Qwen2ForCausalLM")
        c.arch = Architecture::Qwen2;
    else if (arch == "Qwen3ForCausalLM")
        c.arch = Architecture::Qwen3;
    else
        r.fail("architectures",
            "\"" + arch + "\" is not supported (LlamaForCausalLM, Qwen2ForCausalLM and Qwen3ForCausalLM are)");
    c.modelType = r.optionalString("model_type");
    const std::string act = r.optionalString("hidden_act");
    if (!act.empty() && act != "silu")
        r.fail("hidden_act", "\"" + act + "\" is not supported (silu is)");
    c.vocabSize = r.positive("vocab_size");
    c.hiddenSize = r.positive("hidden_size");
    c.intermediateSize = r.positive("intermediate_size");
    c.layers = r.positive("num_hidden_layers");
    c.heads = r.positive("num_attention_heads");
    c.kvHeads = r.optionalInteger("num_key_value_heads").value_or(c.heads);
    if (c.kvHeads <= 0 || c.heads % c.kvHeads != 0)
        r.fail("num_key_value_heads",
            std::to_string(c.kvHeads) + " does not divide num_attention_heads " + std::to_string(c.heads));
    if (const auto hd = r.optionalInteger("head_dim")) {
        c.headDim = *hd;
    } else {
        if (c.hiddenSize % c.heads != 0)
            r.fail("num_attention_heads", "does not divide hidden_size, and there is no head_dim");
        c.headDim = c.hiddenSize / c.heads;
    }
    if (c.headDim <= 0 || c.headDim % 2 != 0)
        r.fail("head_dim", "must be a positive even number, not " + std::to_string(c.headDim));
    c.maxPositions = r.optionalInteger("max_position_embeddings").value_or(2048);
    c.rmsNormEps = r.optionalNumber("rms_norm_eps").value_or(1e-6);
    readRope(r, doc, c);
    c.tieWordEmbeddings = r.optionalBool("tie_word_embeddings").value_or(false);
    const bool attentionBias = r.optionalBool("attention_bias").value_or(false);
    switch (c.arch) {
    case Architecture::Qwen2: // q, k, v always have biases; o never
        c.attentionBias = true;
        c.attentionOutputBias = false;
        break;
    case Architecture::Llama:
    case Architecture::Qwen3:
        c.attentionBias = attentionBias;
        c.attentionOutputBias = attentionBias;
        break;
    }
    c.mlpBias = c.arch == Architecture::Llama && r.optionalBool("mlp_bias").value_or(false);
    c.qkNorm = c.arch == Architecture::Qwen3;
    if (r.optionalBool("use_sliding_window").value_or(false))
        r.fail("use_sliding_window", "sliding-window attention is not supported");
    c.torchDtype = r.optionalString("torch_dtype");
    if (c.torchDtype.empty())
        c.torchDtype = r.optionalString("dtype");
    c.bosTokenId = r.optionalInteger("bos_token_id");
    c.eosTokenIds = r.ids("eos_token_id");
    c.padTokenId = r.optionalInteger("pad_token_id");
    return c;
}

std::string llamaConfigJson(const ModelConfig& c)
{
    if (c.arch != Architecture::Llama)
        throw HfError(std::string("config.json: only Llama configs are written, not ") + architectureName(c.arch));
    if (c.rope.type != RopeScaling::Type::None)
        throw HfError("config.json: a rope scaling is not written");
    if (c.attentionBias != c.attentionOutputBias)
        throw HfError("config.json: Llama's attention_bias covers q, k, v and o alike");
    nlohmann::ordered_json j;
    j["architectures"] = { "LlamaForCausalLM" };
    j["model_type"] = "llama";
    j["vocab_size"] = c.vocabSize;
    j["hidden_size"] = c.hiddenSize;
    j["intermediate_size"] = c.intermediateSize;
    j["num_hidden_layers"] = c.layers;
    j["num_attention_heads"] = c.heads;
    j["num_key_value_heads"] = c.kvHeads;
    j["head_dim"] = c.headDim;
    j["hidden_act"] = "silu";
    j["max_position_embeddings"] = c.maxPositions;
    j["rms_norm_eps"] = c.rmsNormEps;
    j["rope_theta"] = c.ropeTheta;
    j["rope_scaling"] = nullptr;
    j["attention_bias"] = c.attentionBias;
    j["attention_dropout"] = 0.0;
    j["mlp_bias"] = c.mlpBias;
    j["tie_word_embeddings"] = c.tieWordEmbeddings;
    j["initializer_range"] = 0.02;
    j["pretraining_tp"] = 1;
    j["use_cache"] = true;
    j["torch_dtype"] = c.torchDtype.empty() ? "float32" : c.torchDtype;
    j["bos_token_id"] = c.bosTokenId ? nlohmann::ordered_json(*c.bosTokenId) : nlohmann::ordered_json();
    if (c.eosTokenIds.size() == 1)
        j["eos_token_id"] = c.eosTokenIds.front();
    else if (c.eosTokenIds.empty())
        j["eos_token_id"] = nullptr;
    else
        j["eos_token_id"] = c.eosTokenIds;
    j["pad_token_id"] = c.padTokenId ? nlohmann::ordered_json(*c.padTokenId) : nlohmann::ordered_json();
    return j.dump(2) + "\n";
}

std::int64_t ModelConfig::parameterCount() const
{
    std::int64_t total = 0;
    for (const WeightSpec& w : expectedWeights(*this)) {
        std::int64_t n = 1;
        for (const std::int64_t d : w.shape)
            n *= d;
        total += n;
    }
    return total;
}

GenerationConfig parseGenerationConfig(const std::string& text, const std::string& source)
{
    const json doc = parseObject(text, source);
    const Reader r(doc, source);
    GenerationConfig g;
    g.doSample = r.optionalBool("do_sample");
    g.temperature = r.optionalNumber("temperature");
    g.topP = r.optionalNumber("top_p");
    g.topK = r.optionalInteger("top_k");
    g.repetitionPenalty = r.optionalNumber("repetition_penalty");
    g.bosTokenId = r.optionalInteger("bos_token_id");
    g.eosTokenIds = r.ids("eos_token_id");
    g.padTokenId = r.optionalInteger("pad_token_id");
    g.maxNewTokens = r.optionalInteger("max_new_tokens");
    return g;
}

std::vector<WeightSpec> expectedWeights(const ModelConfig& c)
{
    const std::int64_t h = c.hiddenSize, q = c.heads * c.headDim, kv = c.kvHeads * c.headDim, i = c.intermediateSize;
    std::vector<WeightSpec> out;
    out.push_back({ "model.embed_tokens.weight", { c.vocabSize, h } });
    for (std::int64_t l = 0; l < c.layers; ++l) {
        const std::string p = "model.layers." + std::to_string(l) + ".";
        out.push_back({ p + "input_layernorm.weight", { h } });
        auto linear = [&](const std::string& name, std::int64_t outDim, std::int64_t inDim, bool bias) {
            out.push_back({ p + name + ".weight", { outDim, inDim } });
            if (bias)
                out.push_back({ p + name + ".bias", { outDim } });
        };
        linear("self_attn.q_proj", q, h, c.attentionBias);
        linear("self_attn.k_proj", kv, h, c.attentionBias);
        linear("self_attn.v_proj", kv, h, c.attentionBias);
        linear("self_attn.o_proj", h, q, c.attentionOutputBias);
        if (c.qkNorm) {
            out.push_back({ p + "self_attn.q_norm.weight", { c.headDim } });
            out.push_back({ p + "self_attn.k_norm.weight", { c.headDim } });
        }
        out.push_back({ p + "post_attention_layernorm.weight", { h } });
        linear("mlp.gate_proj", i, h, c.mlpBias);
        linear("mlp.up_proj", i, h, c.mlpBias);
        linear("mlp.down_proj", h, i, c.mlpBias);
    }
    out.push_back({ "model.norm.weight", { h } });
    if (!c.tieWordEmbeddings)
        out.push_back({ "lm_head.weight", { c.vocabSize, h } });
    return out;
}

std::string readTextFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw HfError(path + ": cannot read");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace creditlab::hf
