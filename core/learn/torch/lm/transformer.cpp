#include "core/learn/torch/lm/transformer.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

namespace creditlab::learn {

namespace {

/// Queries per block of the blocked causal attention (measured on 900-token episodes: 128 was fastest of 64, 128, 256).
constexpr std::int64_t kAttentionBlock = 128;

// GPT-2 style initialisation: N(0, 0.02), residual projections scaled by 1/sqrt(2 * layers).
void initLinear(torch::nn::Linear& linear, double std)
{
    torch::NoGradGuard noGrad;
    linear->weight.normal_(0.0, std);
    if (linear->bias.defined())
        linear->bias.zero_();
}

/// Causal self-attention of (N, T, dh) queries, keys and values (N = batch x heads), in blocks of kAttentionBlock
/// queries: block [s, e) scores only the keys [0, e), with the causal mask added in the product (baddbmm) on the
/// block's own diagonal tile. Its backward accumulates each block's key and value gradients in place, so no block
/// pays a full-size zero gradient for its slice of the keys, as the same blocks through autograd do (SliceBackward).
/// Only for rows whose every valid query sees every key at or before it: right-padded rows without a layout.
struct CausalBlockAttention : public torch::autograd::Function<CausalBlockAttention> {
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& q, const torch::Tensor& k,
        const torch::Tensor& v, double scale)
    {
        const auto steps = q.size(1);
        const auto keysT = k.transpose(1, 2);
        std::vector<torch::Tensor> parts;
        torch::autograd::variable_list saved { q, k, v };
        for (std::int64_t s = 0; s < steps; s += kAttentionBlock) {
            const auto e = std::min(steps, s + kAttentionBlock);
            auto mask = torch::zeros({ 1, e - s, e }, q.options());
            mask.narrow(2, s, e - s).copy_(torch::full({ e - s, e - s }, -1e9, q.options()).triu(1));
            auto probs
                = torch::softmax(torch::baddbmm(mask, q.narrow(1, s, e - s), keysT.narrow(2, 0, e), 1.0, scale), -1);
            parts.push_back(torch::bmm(probs, v.narrow(1, 0, e)));
            saved.push_back(probs);
        }
        ctx->save_for_backward(saved);
        ctx->saved_data["scale"] = scale;
        return torch::cat(parts, 1);
    }

    static torch::autograd::variable_list backward(
        torch::autograd::AutogradContext* ctx, torch::autograd::variable_list grads)
    {
        const auto saved = ctx->get_saved_variables();
        const auto& q = saved[0];
        const auto& k = saved[1];
        const auto& v = saved[2];
        const double scale = ctx->saved_data["scale"].toDouble();
        const auto steps = q.size(1);
        const auto out = grads[0].contiguous();
        auto dq = torch::empty_like(q);
        auto dk = torch::zeros_like(k);
        auto dv = torch::zeros_like(v);
        std::size_t block = 3;
        for (std::int64_t s = 0; s < steps; s += kAttentionBlock, ++block) {
            const auto e = std::min(steps, s + kAttentionBlock);
            const auto& probs = saved[block];
            const auto outBlock = out.narrow(1, s, e - s);
            dv.narrow(1, 0, e).baddbmm_(probs.transpose(1, 2), outBlock);
            auto scores = torch::_softmax_backward_data(
                torch::bmm(outBlock, v.narrow(1, 0, e).transpose(1, 2)), probs, -1, probs.scalar_type());
            dq.narrow(1, s, e - s).copy_(torch::bmm(scores, k.narrow(1, 0, e))).mul_(scale);
            dk.narrow(1, 0, e).baddbmm_(scores.transpose(1, 2), q.narrow(1, s, e - s), 1.0, scale);
        }
        return { dq, dk, dv, torch::Tensor() };
    }
};

} // namespace

TransformerImpl::TransformerImpl(const TransformerOptions& options)
    : m_options(options)
{
    TORCH_CHECK(options.width % options.heads == 0, "width must be a multiple of heads");
    TORCH_CHECK(
        !options.rotary || (options.width / options.heads) % 2 == 0, "rotary positions need an even head width");
    const auto d = options.width;
    m_tokenEmbedding = register_module("tok", torch::nn::Embedding(options.vocab, d));
    if (!options.rotary)
        m_positionEmbedding = register_module("pos", torch::nn::Embedding(options.context, d));
    {
        torch::NoGradGuard noGrad;
        m_tokenEmbedding->weight.normal_(0.0, 0.02);
        if (!options.rotary)
            m_positionEmbedding->weight.normal_(0.0, 0.01);
    }
    const double residualStd = 0.02 / std::sqrt(2.0 * static_cast<double>(options.layers));
    for (std::int64_t l = 0; l < options.layers; ++l) {
        const auto prefix = "block" + std::to_string(l) + "_";
        m_ln1.push_back(register_module(prefix + "ln1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({ d }))));
        m_qkv.push_back(register_module(prefix + "qkv", torch::nn::Linear(d, 3 * d)));
        m_proj.push_back(register_module(prefix + "proj", torch::nn::Linear(d, d)));
        m_ln2.push_back(register_module(prefix + "ln2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({ d }))));
        m_fc1.push_back(register_module(prefix + "fc1", torch::nn::Linear(d, options.mlpRatio * d)));
        m_fc2.push_back(register_module(prefix + "fc2", torch::nn::Linear(options.mlpRatio * d, d)));
        initLinear(m_qkv.back(), 0.02);
        initLinear(m_fc1.back(), 0.02);
        initLinear(m_proj.back(), residualStd);
        initLinear(m_fc2.back(), residualStd);
    }
    m_lnFinal = register_module("ln_f", torch::nn::LayerNorm(torch::nn::LayerNormOptions({ d })));
    m_head = register_module("head", torch::nn::Linear(torch::nn::LinearOptions(d, options.vocab).bias(false)));
    initLinear(m_head, 0.02);
    if (options.valueHead) {
        m_valueHead = register_module("value", torch::nn::Linear(d, 1));
        initLinear(m_valueHead, 0.02);
    }
}

TransformerImpl::TransformerImpl(HfDecoder decoder, const TransformerOptions& options, bool adaptersOff)
    : m_options(options)
    , m_adaptersOff(adaptersOff)
{
    const hf::ModelConfig& c = decoder->config();
    m_options.vocab = c.vocabSize;
    m_options.width = c.hiddenSize;
    m_options.layers = c.layers;
    m_options.heads = c.heads;
    m_options.rotary = true;
    m_options.mlpRatio = c.intermediateSize / std::max<std::int64_t>(1, c.hiddenSize);
    const auto device = decoder->device();
    m_decoder = register_module("hf", std::move(decoder));
    if (options.valueHead) {
        m_valueHead = register_module("value", torch::nn::Linear(c.hiddenSize, 1));
        initLinear(m_valueHead, 0.02);
        m_valueHead->to(device, torch::kFloat32);
    }
}

TransformerOutput TransformerImpl::decoderPass(const torch::Tensor& tokens, const torch::Tensor& valid,
    const torch::Tensor& positions, const torch::Tensor& allowed, KvCache* cache, bool keepInternals,
    const torch::Tensor& at)
{
    // LoRA's reference policy: the decoder without its adapters while a pass of a reference view runs.
    std::optional<HfDecoderImpl::AdaptersDisabled> off;
    if (m_adaptersOff && m_decoder->hasLora())
        off.emplace(*m_decoder);
    HfInternals internals;
    TransformerOutput out;
    out.hidden = allowed.defined()
        ? m_decoder->forwardLayout(tokens, positions, allowed, keepInternals ? &internals : nullptr)
        : m_decoder->forward(tokens, valid, cache, keepInternals ? &internals : nullptr);
    if (at.defined())
        out.hidden = out.hidden.gather(1, at.unsqueeze(-1).expand({ at.size(0), at.size(1), out.hidden.size(2) }));
    out.layerHidden = std::move(internals.layerHidden);
    out.attention = std::move(internals.attention);
    return out;
}

void TransformerImpl::save(torch::serialize::OutputArchive& archive) const
{
    if (!pretrained() || !m_decoder->hasLora()) {
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
    if (!pretrained() || !m_decoder->hasLora()) {
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
    if (pretrained())
        return m_decoder->makeCache(batch, capacity);
    KvCache cache;
    const auto device = m_head->weight.device();
    const auto headWidth = m_options.width / m_options.heads;
    const auto floatOptions = torch::TensorOptions().dtype(m_head->weight.dtype()).device(device);
    for (std::int64_t l = 0; l < m_options.layers; ++l) {
        cache.keys.push_back(torch::zeros({ batch, m_options.heads, capacity, headWidth }, floatOptions));
        cache.values.push_back(torch::zeros({ batch, m_options.heads, capacity, headWidth }, floatOptions));
    }
    cache.keyValid = torch::zeros({ batch, capacity }, torch::TensorOptions().dtype(torch::kBool).device(device));
    cache.nextPosition = torch::zeros({ batch }, torch::TensorOptions().dtype(torch::kLong).device(device));
    cache.capacity = capacity;
    return cache;
}

TransformerOutput TransformerImpl::forward(
    const torch::Tensor& tokens, const torch::Tensor& valid, KvCache* cache, bool keepInternals)
{
    return forwardImpl(tokens, valid, cache, keepInternals, {});
}

TransformerOutput TransformerImpl::forwardImpl(const torch::Tensor& tokens, const torch::Tensor& valid, KvCache* cache,
    bool keepInternals, const torch::Tensor& at)
{
    if (pretrained())
        return decoderPass(tokens, valid, {}, {}, cache, keepInternals, at);
    using torch::indexing::Slice;
    const auto steps = tokens.size(1);

    // Positions count valid tokens only, continuing from the cache.
    auto positions = torch::cumsum(valid.to(torch::kLong), 1) - 1;
    std::int64_t past = 0;
    torch::Tensor keyValid = valid;
    if (cache) {
        TORCH_CHECK(cache->length + steps <= cache->capacity, "KV cache overflow");
        past = cache->length;
        positions = positions + cache->nextPosition.unsqueeze(1);
        cache->keyValid.index_put_({ Slice(), Slice(past, past + steps) }, valid);
        keyValid = cache->keyValid.index({ Slice(), Slice(0, past + steps) });
        cache->nextPosition = cache->nextPosition + valid.to(torch::kLong).sum(1);
    }
    positions = positions.clamp(0, m_options.context - 1);
    const auto keys = past + steps;

    // Right-padded rows without a cache (the update's sequences) in the blocked path need the causal mask only: a valid
    // query sees no padding key. blocks() then builds its masks itself (an undefined `allowed`).
    if (!cache && !keepInternals && steps > kAttentionBlock && steps > 1
        && !(valid.narrow(1, 1, steps - 1) & valid.narrow(1, 0, steps - 1).logical_not()).any().item<bool>())
        return blocks(tokens, positions, {}, nullptr, 0, false, at, valid);

    // What each query may attend to (B, T, keys): causal over absolute cache positions, and valid keys only.
    auto queryIndex = torch::arange(past, past + steps, tokens.options().dtype(torch::kLong)).unsqueeze(1);
    auto keyIndex = torch::arange(0, keys, tokens.options().dtype(torch::kLong)).unsqueeze(0);
    auto allowed = (keyIndex <= queryIndex).unsqueeze(0) & keyValid.unsqueeze(1);
    return blocks(tokens, positions, allowed, cache, past, keepInternals, at);
}

TransformerOutput TransformerImpl::forwardLayout(
    const torch::Tensor& tokens, const torch::Tensor& positions, const torch::Tensor& allowed, bool keepInternals)
{
    if (pretrained())
        return decoderPass(tokens, {}, positions, allowed, nullptr, keepInternals, {});
    return blocks(tokens, positions.clamp(0, m_options.context - 1), allowed, nullptr, 0, keepInternals);
}

TransformerOutput TransformerImpl::forwardAt(
    const torch::Tensor& tokens, const torch::Tensor& valid, const torch::Tensor& at)
{
    return forwardImpl(tokens, valid, nullptr, false, at);
}

torch::Tensor TransformerImpl::forwardLast(const torch::Tensor& tokens, const torch::Tensor& valid, KvCache& cache)
{
    const auto last = torch::full({ tokens.size(0), 1 }, tokens.size(1) - 1, tokens.options().dtype(torch::kLong));
    return forwardImpl(tokens, valid, &cache, false, last).hidden.select(1, 0);
}

TransformerOutput TransformerImpl::forwardLayoutAt(
    const torch::Tensor& tokens, const torch::Tensor& positions, const torch::Tensor& allowed, const torch::Tensor& at)
{
    if (pretrained())
        return decoderPass(tokens, {}, positions, allowed, nullptr, false, at);
    return blocks(tokens, positions.clamp(0, m_options.context - 1), allowed, nullptr, 0, false, at);
}

TransformerOutput TransformerImpl::blocks(const torch::Tensor& tokens, const torch::Tensor& positions,
    const torch::Tensor& allowed, KvCache* cache, std::int64_t past, bool keepInternals, const torch::Tensor& at,
    const torch::Tensor& rightPadded)
{
    TORCH_CHECK(!at.defined() || !keepInternals, "positions `at` need a pass without internals");
    const bool causal = !allowed.defined();
    TORCH_CHECK(
        !causal || (rightPadded.defined() && !cache && !keepInternals), "the causal path needs right-padded rows");
    using torch::indexing::Slice;
    const auto batch = tokens.size(0);
    const auto steps = tokens.size(1);
    const auto heads = m_options.heads;
    const auto headWidth = m_options.width / heads;
    const auto keys = past + steps;
    auto x = m_tokenEmbedding->forward(tokens);
    // Rotary angles (B, 1, T, half) of `at` positions; GPT-NeoX's half split: dimension i pairs with i + headWidth/2,
    // at frequency 10000^(-2i/headWidth).
    const auto angles = [&](const torch::Tensor& at) {
        const auto half = headWidth / 2;
        auto inverse = torch::pow(10000.0,
            -torch::arange(0, half, x.options().dtype(torch::kFloat)) * (2.0 / static_cast<double>(headWidth)));
        auto a = at.to(x.dtype()).unsqueeze(-1) * inverse.to(x.dtype()); // (B, T, half)
        return std::make_pair(torch::cos(a).unsqueeze(1), torch::sin(a).unsqueeze(1));
    };
    torch::Tensor cos, sin;
    if (m_options.rotary)
        std::tie(cos, sin) = angles(positions);
    else
        x = x + m_positionEmbedding->forward(positions);
    const auto rotateWith = [&](const torch::Tensor& t, const torch::Tensor& c, const torch::Tensor& s) {
        const auto half = headWidth / 2;
        auto a = t.narrow(-1, 0, half);
        auto b = t.narrow(-1, half, half);
        return torch::cat({ a * c - b * s, a * s + b * c }, -1);
    };
    const auto rotate = [&](const torch::Tensor& t) { return rotateWith(t, cos, sin); };
    // Layer l's new keys and values enter the cache; k and v become every cached key and value so far.
    const auto appendToCache = [&](std::int64_t l, torch::Tensor& k, torch::Tensor& v) {
        cache->keys[l].index_put_({ Slice(), Slice(), Slice(past, past + steps) }, k);
        cache->values[l].index_put_({ Slice(), Slice(), Slice(past, past + steps) }, v);
        k = cache->keys[l].index({ Slice(), Slice(), Slice(0, keys) });
        v = cache->values[l].index({ Slice(), Slice(), Slice(0, keys) });
    };
    TransformerOutput out;
    const double scale = 1.0 / std::sqrt(static_cast<double>(headWidth));
    // Masked-out (query, key) pairs (B, 1, T, keys) get a finite large negative score, which keeps rows without any
    // visible key (padding queries) free of NaN. Long sequences without a cache take the attention in query blocks,
    // unless the caller wants the full attention maps.
    const bool blocked = cache == nullptr && !keepInternals && steps > kAttentionBlock;
    torch::Tensor notAllowed;
    std::vector<torch::Tensor> blockedOut;
    if (causal) {
        // CausalBlockAttention builds its own masks.
    } else if (blocked) {
        for (std::int64_t s = 0; s < steps; s += kAttentionBlock) {
            const auto e = std::min(steps, s + kAttentionBlock);
            blockedOut.push_back(allowed.narrow(1, s, e - s).narrow(2, 0, e).logical_not().unsqueeze(1));
        }
    } else {
        notAllowed = allowed.logical_not().unsqueeze(1);
    }
    for (std::int64_t l = 0; l < m_options.layers; ++l) {
        if (at.defined() && l + 1 == m_options.layers) {
            // The last block at `at` only: keys and values of every position, queries and the rest at `at`.
            const auto width = m_options.width;
            const auto count = at.size(1);
            auto h = m_ln1[l]->forward(x);
            const auto& weight = m_qkv[l]->weight;
            const auto& bias = m_qkv[l]->bias;
            auto kv
                = torch::nn::functional::linear(h, weight.narrow(0, width, 2 * width), bias.narrow(0, width, 2 * width))
                      .view({ batch, steps, 2, heads, headWidth })
                      .permute({ 2, 0, 3, 1, 4 });
            auto k = kv[0];
            auto v = kv[1];
            const auto gatherRows = [&](const torch::Tensor& t) { // (B, T, n) -> (B, A, n)
                return t.gather(1, at.unsqueeze(-1).expand({ batch, count, t.size(2) }));
            };
            auto q = torch::nn::functional::linear(gatherRows(h), weight.narrow(0, 0, width), bias.narrow(0, 0, width))
                         .view({ batch, count, heads, headWidth })
                         .permute({ 0, 2, 1, 3 });
            if (m_options.rotary) {
                const auto [c, sn] = angles(positions.gather(1, at));
                q = rotateWith(q, c, sn);
                k = rotate(k);
            }
            if (cache) { // the new keys and values still enter the cache: later tokens attend to them
                appendToCache(l, k, v);
                cache->length += steps;
            }
            // (B, A, keys): what each `at` query sees; causal rows see every key up to their own position.
            const auto seen = causal ? (torch::arange(keys, at.options()).view({ 1, 1, keys }) <= at.unsqueeze(-1))
                    & rightPadded.unsqueeze(1)
                                     : gatherRows(allowed);
            auto scores
                = torch::matmul(q * scale, k.transpose(-2, -1)).masked_fill_(seen.logical_not().unsqueeze(1), -1e9);
            auto context
                = torch::matmul(torch::softmax(scores, -1), v).permute({ 0, 2, 1, 3 }).reshape({ batch, count, width });
            auto y = gatherRows(x) + m_proj[l]->forward(context);
            y = y + m_fc2[l]->forward(torch::gelu(m_fc1[l]->forward(m_ln2[l]->forward(y))));
            out.hidden = m_lnFinal->forward(y);
            return out;
        }
        auto h = m_ln1[l]->forward(x);
        auto qkv = m_qkv[l]->forward(h).view({ batch, steps, 3, heads, headWidth }).permute({ 2, 0, 3, 1, 4 });
        auto q = qkv[0];
        auto k = qkv[1];
        auto v = qkv[2];
        if (m_options.rotary) { // keys enter the cache already rotated to their own positions
            q = rotate(q);
            k = rotate(k);
        }
        if (cache)
            appendToCache(l, k, v);
        torch::Tensor attention, context;
        if (causal) {
            const auto flat = [&](const torch::Tensor& t) { return t.reshape({ batch * heads, steps, headWidth }); };
            context = CausalBlockAttention::apply(flat(q), flat(k), flat(v), scale)
                          .view({ batch, heads, steps, headWidth });
        } else if (blocked) {
            q = q * scale;
            // Causal attention by query blocks: block [s, e) sees keys [0, e) only, so the (T, T) scores are never
            // formed and about half of them are never computed. Every query's keys lie at or before it (the causal
            // mask and the branch layouts alike), so nothing it may see is left out.
            std::vector<torch::Tensor> parts;
            for (std::int64_t s = 0; s < steps; s += kAttentionBlock) {
                const auto e = std::min(steps, s + kAttentionBlock);
                auto scores = torch::matmul(q.narrow(2, s, e - s), k.narrow(2, 0, e).transpose(-2, -1))
                                  .masked_fill_(blockedOut[static_cast<std::size_t>(s / kAttentionBlock)], -1e9);
                parts.push_back(torch::matmul(torch::softmax(scores, -1), v.narrow(2, 0, e)));
            }
            context = torch::cat(parts, 2);
        } else {
            q = q * scale;
            auto scores = torch::matmul(q, k.transpose(-2, -1)).masked_fill_(notAllowed, -1e9);
            attention = torch::softmax(scores, -1);
            context = torch::matmul(attention, v);
        }
        context = context.permute({ 0, 2, 1, 3 }).reshape({ batch, steps, m_options.width });
        x = x + m_proj[l]->forward(context);
        x = x + m_fc2[l]->forward(torch::gelu(m_fc1[l]->forward(m_ln2[l]->forward(x))));
        if (keepInternals) {
            out.layerHidden.push_back(x);
            out.attention.push_back(attention);
        }
    }
    if (cache)
        cache->length += steps;
    out.hidden = m_lnFinal->forward(x);
    return out;
}

torch::Tensor TransformerImpl::logits(const torch::Tensor& hidden)
{
    return pretrained() ? m_decoder->logits(hidden) : m_head->forward(hidden); // the LM head has no adapter
}

torch::Tensor TransformerImpl::value(const torch::Tensor& hidden)
{
    TORCH_CHECK(!m_valueHead.is_empty(), "this transformer has no value head");
    return m_valueHead->forward(pretrained() ? hidden.to(torch::kFloat32) : hidden).squeeze(-1);
}

std::int64_t TransformerImpl::parameterCount() const
{
    std::int64_t n = 0;
    for (const auto& p : parameters())
        n += p.numel();
    return n;
}

} // namespace creditlab::learn
