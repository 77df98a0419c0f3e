#include "core/learn/torch/lm/transformer.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace creditlab::learn {

hf::ModelConfig builtinModelConfig(const TransformerOptions& options, std::int64_t eosTokenId, std::int64_t padTokenId)
{
    TORCH_CHECK(options.width % options.heads == 0, "width must be a multiple of heads");
    TORCH_CHECK((options.width / options.heads) % 2 == 0, "rotary positions need an even head width");
    hf::ModelConfig c;
    c.arch = hf::Architecture::Llama;
    c.modelType = "llama";
    c.vocabSize = options.vocab;
    c.hiddenSize = options.width;
    const std::int64_t intermediate = (2 * options.mlpRatio * options.width + 2) / 3;
    c.intermediateSize = (intermediate + 7) / 8 * 8;
    c.layers = options.layers;
    c.heads = options.heads;
    c.kvHeads = options.heads;
    c.headDim = options.width / options.heads;
    c.maxPositions = options.context;
    c.rmsNormEps = 1e-5;
    c.ropeTheta = 10000.0;
    c.tieWordEmbeddings = false;
    c.torchDtype = "float32";
    c.eosTokenIds = { eosTokenId };
    c.padTokenId = padTokenId;
    return c;
}

namespace {

HfDecoder builtinDecoder(const TransformerOptions& options)
{
    // The ids of CreditLab's tokenizer (lm/tokenizer.h): "</act>" ends an action, "<pad>" pads.
    constexpr std::int64_t kEnd = 5, kPad = 0;
    HfDecoder decoder(builtinModelConfig(options, kEnd, kPad));
    decoder->initializeFromScratch(0.02);
    return decoder;
}

} // namespace

TransformerImpl::TransformerImpl(const TransformerOptions& options)
    : m_options(options)
{
    adopt(builtinDecoder(options));
}

TransformerImpl::TransformerImpl(HfDecoder decoder, const TransformerOptions& options, bool adaptersOff)
    : m_options(options)
    , m_pretrained(true)
    , m_adaptersOff(adaptersOff)
{
    adopt(std::move(decoder));
}

void TransformerImpl::adopt(HfDecoder decoder)
{
    const hf::ModelConfig& c = decoder->config();
    m_options.vocab = c.vocabSize;
    m_options.width = c.hiddenSize;
    m_options.layers = c.layers;
    m_options.heads = c.heads;
    const auto device = decoder->device();
    m_decoder = register_module("hf", std::move(decoder));
    if (m_options.valueHead) {
        m_valueHead = register_module("value", torch::nn::Linear(c.hiddenSize, 1));
        torch::NoGradGuard noGrad;
        m_valueHead->weight.normal_(0.0, 0.02);
        m_valueHead->bias.zero_();
        m_valueHead->to(device, torch::kFloat32);
    }
}

TransformerOutput TransformerImpl::pass(const torch::Tensor& tokens, const torch::Tensor& valid,
    const torch::Tensor& positions, const torch::Tensor& allowed, KvCache* cache, bool keepInternals,
    const torch::Tensor& at)
{
    // LoRA's reference policy: the decoder without its adapters while a pass of a reference view runs.
    std::optional<HfDecoderImpl::AdaptersDisabled> off;
    if (m_adaptersOff && m_decoder->hasLora())
        off.emplace(*m_decoder);
    HfInternals internals;
    HfInternals* wanted = keepInternals ? &internals : nullptr;
    TransformerOutput out;
    out.hidden = allowed.defined() ? m_decoder->forwardLayout(tokens, positions, allowed, wanted, at)
                                   : m_decoder->forward(tokens, valid, cache, wanted, at);
    out.layerHidden = std::move(internals.layerHidden);
    out.attention = std::move(internals.attention);
    return out;
}

void TransformerImpl::save(torch::serialize::OutputArchive& archive) const
{
    if (!m_decoder->hasLora()) {
        if (!m_adaptersOff)
            torch::nn::Module::save(archive);
        return;
    }
    for (const auto& item : named_parameters())
        if (item.value().requires_grad())
            archive.write(item.key(), item.value());
}

void TransformerImpl::load(torch::serialize::InputArchive& archive)
{
    if (!m_decoder->hasLora()) {
        if (!m_adaptersOff)
            torch::nn::Module::load(archive);
        return;
    }
    torch::NoGradGuard noGrad;
    for (auto& item : named_parameters())
        if (item.value().requires_grad()) {
            torch::Tensor value;
            archive.read(item.key(), value);
            item.value().set_data(value.to(item.value().device(), item.value().scalar_type()));
        }
}

KvCache TransformerImpl::makeCache(std::int64_t batch, std::int64_t capacity) const
{
    return m_decoder->makeCache(batch, capacity);
}

TransformerOutput TransformerImpl::forward(
    const torch::Tensor& tokens, const torch::Tensor& valid, KvCache* cache, bool keepInternals)
{
    return pass(tokens, valid, {}, {}, cache, keepInternals, {});
}

TransformerOutput TransformerImpl::forwardLayout(
    const torch::Tensor& tokens, const torch::Tensor& positions, const torch::Tensor& allowed, bool keepInternals)
{
    return pass(tokens, {}, positions, allowed, nullptr, keepInternals, {});
}

TransformerOutput TransformerImpl::forwardAt(
    const torch::Tensor& tokens, const torch::Tensor& valid, const torch::Tensor& at)
{
    return pass(tokens, valid, {}, {}, nullptr, false, at);
}

torch::Tensor TransformerImpl::forwardLast(const torch::Tensor& tokens, const torch::Tensor& valid, KvCache& cache)
{
    const auto last = torch::full({ tokens.size(0), 1 }, tokens.size(1) - 1, tokens.options().dtype(torch::kLong));
    return pass(tokens, valid, {}, {}, &cache, false, last).hidden.select(1, 0);
}

TransformerOutput TransformerImpl::forwardLayoutAt(
    const torch::Tensor& tokens, const torch::Tensor& positions, const torch::Tensor& allowed, const torch::Tensor& at)
{
    return pass(tokens, {}, positions, allowed, nullptr, false, at);
}

torch::Tensor TransformerImpl::logits(const torch::Tensor& hidden)
{
    auto logits = m_decoder->logits(hidden); // the LM head has no adapter
    if (m_options.vocabLimit > 0 && logits.size(-1) > m_options.vocabLimit)
        logits = logits.narrow(-1, 0, m_options.vocabLimit);
    return logits;
}

torch::Tensor TransformerImpl::value(const torch::Tensor& hidden)
{
    TORCH_CHECK(!m_valueHead.is_empty(), "this transformer has no value head");
    return m_valueHead->forward(hidden.to(torch::kFloat32)).squeeze(-1);
}

std::int64_t TransformerImpl::parameterCount() const
{
    std::int64_t n = 0;
    for (const auto& p : parameters())
        n += p.numel();
    return n;
}

} // namespace creditlab::learn
