#include "core/learn/torch/hf/decoder.h"

#include "core/hf/error.h"
#include "core/hf/safetensors.h"

#include <torch/version.h>
#if defined(CREDITLAB_WITH_CUDA_HEADERS)
#include <ATen/cuda/CUDAGeneratorImpl.h>
#endif

#include <algorithm>
#include <cmath>
#include <map>

namespace creditlab::learn {

namespace {

// at::scaled_dot_product_attention with `scale` and `enable_gqa` (PyTorch 2.5+); Debian's 1.13 has none.
#if defined(TORCH_VERSION_MAJOR) && (TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 5))
#define CREDITLAB_HAS_SDPA_GQA 1
#else
#define CREDITLAB_HAS_SDPA_GQA 0
#endif

/// transformers' rotate_half: (x1, x2) -> (-x2, x1) over the last dimension's halves.
torch::Tensor rotateHalf(const torch::Tensor& x)
{
    const auto half = x.size(-1) / 2;
    return torch::cat({ -x.narrow(-1, half, half), x.narrow(-1, 0, half) }, -1);
}

torch::ScalarType scalarType(hf::DType dtype)
{
    switch (dtype) {
    case hf::DType::F32:
        return torch::kFloat32;
    case hf::DType::F16:
        return torch::kFloat16;
    case hf::DType::BF16:
        return torch::kBFloat16;
    default:
        throw hf::HfError(std::string("dtype ") + hf::dtypeName(dtype) + " is not a weight dtype");
    }
}

/// Attention of q (B, H, T, D) over k, v (B, KV, S, D) where `allowed` (B, 1, T, S) is true; float32 softmax as
/// transformers' eager path, or the fused kernel where LibTorch has it and no map is wanted. The math path groups the
/// G = H / KV query heads of each key/value head into one product instead of repeating the keys and values G times;
/// one new token (decoding) takes elementwise products, which the CPU runs without bmm's per-matrix dispatch.
torch::Tensor attend(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
    const torch::Tensor& allowed, double scale, torch::Tensor* map)
{
    const auto batch = q.size(0), heads = q.size(1), steps = q.size(2), dim = q.size(3);
    const auto kvHeads = k.size(1), keys = k.size(2), groups = heads / kvHeads;
#if CREDITLAB_HAS_SDPA_GQA
    if (map == nullptr)
        return at::scaled_dot_product_attention(q, k, v, allowed, 0.0, false, scale, groups > 1);
#endif
    const auto grouped = q.reshape({ batch, kvHeads, groups * steps, dim });
    const auto scores
        = steps == 1 ? (grouped.unsqueeze(3) * k.unsqueeze(2)).sum(-1) : torch::matmul(grouped, k.transpose(-1, -2));
    const auto masked = (scores.to(torch::kFloat32) * scale)
                            .view({ batch, kvHeads, groups, steps, keys })
                            .masked_fill(allowed.logical_not().unsqueeze(1), -std::numeric_limits<float>::infinity());
    const auto probs = torch::softmax(masked, -1);
    if (map != nullptr)
        *map = probs.view({ batch, heads, steps, keys });
    const auto p = probs.to(q.scalar_type()).view({ batch, kvHeads, groups * steps, keys });
    const auto out = steps == 1 ? (p.unsqueeze(-1) * v.unsqueeze(2)).sum(-2) : torch::matmul(p, v);
    return out.reshape({ batch, heads, steps, dim });
}

/// Queries per block of the blocked attention on the math path (measured on 900-token episodes with the 128-wide
/// built-in policy: 128 was fastest of 64, 128 and 256).
constexpr std::int64_t kAttentionBlock = 128;

/// Causal self-attention of (N, T, dh) queries, keys and values (N = batch x heads), in blocks of kAttentionBlock
/// queries: block [s, e) scores only the keys [0, e), with the causal mask added in the product (baddbmm) on the
/// block's own diagonal tile. Its backward accumulates each block's key and value gradients in place, so no block
/// pays a full-size zero gradient for its slice of the keys, as the same blocks through autograd do (SliceBackward).
/// Only for rows whose every valid query sees every key at or before it: right-padded rows without a cache.
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

/// Rows `at` (B, A) of `t` (B, T, ...) along dimension `dim` (1, or 2 for (B, 1, T, ...) tables and masks).
torch::Tensor gatherSteps(const torch::Tensor& t, const torch::Tensor& at, std::int64_t dim)
{
    auto sizes = t.sizes().vec();
    sizes[static_cast<std::size_t>(dim)] = at.size(1);
    std::vector<std::int64_t> view(t.dim(), 1);
    view[0] = at.size(0);
    view[static_cast<std::size_t>(dim)] = at.size(1);
    return t.gather(dim, at.to(t.device()).view(view).expand(sizes));
}

/// The attention of one layer: q (B, H, Tq, D) over k, v (B, KV, S, D) under `mask`, whose queries are all T steps of
/// the pass, or `at` (B, A) of them (then Tq = A).
torch::Tensor attendMasked(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
    const HfAttentionMask& mask, const torch::Tensor& at, double scale, torch::Tensor* map)
{
    const auto batch = q.size(0), heads = q.size(1), steps = q.size(2), dim = q.size(3);
    const auto kvHeads = k.size(1), keys = k.size(2);
    if (at.defined()) {
        // The rows of `at`: of the mask, or, for causal rows, every valid key up to the query and the query itself.
        torch::Tensor rows;
        if (mask.causal) {
            const auto keyIndex = torch::arange(keys, at.options().device(q.device())).view({ 1, 1, keys });
            const auto query = at.to(q.device()).unsqueeze(-1);
            rows = ((keyIndex <= query) & mask.valid.unsqueeze(1)) | (keyIndex == query);
            rows = rows.unsqueeze(1);
        } else {
            rows = gatherSteps(mask.allowed, at, 2);
        }
        return attend(q, k, v, rows, scale, map);
    }
    if (mask.causal && map == nullptr) {
#if CREDITLAB_HAS_SDPA_GQA
        return at::scaled_dot_product_attention(q, k, v, {}, 0.0, true, scale, kvHeads < heads);
#else
        if (q.scalar_type() == torch::kFloat32) {
            const auto groups = heads / kvHeads;
            const auto expand = [&](const torch::Tensor& t) {
                return (groups > 1 ? t.repeat_interleave(groups, 1) : t).reshape({ batch * heads, keys, dim });
            };
            return CausalBlockAttention::apply(q.reshape({ batch * heads, steps, dim }), expand(k), expand(v), scale)
                .view({ batch, heads, steps, dim });
        }
#endif
    }
    torch::Tensor allowed = mask.allowed;
    if (!allowed.defined()) { // causal rows on a path that needs the mask (bf16 on 1.13, or with internals)
        const auto index = torch::arange(steps, torch::TensorOptions().device(q.device()).dtype(torch::kInt64));
        const auto causal = index.unsqueeze(0) <= index.unsqueeze(1);
        allowed = ((mask.valid.unsqueeze(1) & causal.unsqueeze(0))
            | torch::eye(steps, torch::TensorOptions().device(q.device()).dtype(torch::kBool)).unsqueeze(0))
                      .unsqueeze(1);
    }
#if !CREDITLAB_HAS_SDPA_GQA
    if (mask.lowerTriangular && map == nullptr && steps > kAttentionBlock && keys == steps) {
        std::vector<torch::Tensor> parts;
        for (std::int64_t s = 0; s < steps; s += kAttentionBlock) {
            const auto e = std::min(steps, s + kAttentionBlock);
            parts.push_back(attend(q.narrow(2, s, e - s), k.narrow(2, 0, e), v.narrow(2, 0, e),
                allowed.narrow(2, s, e - s).narrow(3, 0, e), scale, nullptr));
        }
        return torch::cat(parts, 2);
    }
#endif
    return attend(q, k, v, allowed, scale, map);
}

} // namespace

HfRmsNormImpl::HfRmsNormImpl(std::int64_t size, double eps)
    : m_eps(eps)
{
    weight = register_parameter("weight", torch::ones({ size }));
}

torch::Tensor HfRmsNormImpl::forward(const torch::Tensor& x)
{
    const auto h = x.to(torch::kFloat32);
    const auto normed = h * torch::rsqrt(h.pow(2).mean(-1, true) + m_eps);
    return weight * normed.to(x.scalar_type());
}

HfLinearImpl::HfLinearImpl(std::int64_t in, std::int64_t out, bool withBias)
{
    weight = register_parameter("weight", torch::empty({ out, in }));
    torch::nn::init::kaiming_uniform_(weight, std::sqrt(5.0));
    if (withBias)
        bias = register_parameter("bias", torch::zeros({ out }));
}

torch::Tensor HfLinearImpl::forward(const torch::Tensor& x)
{
    auto y = torch::nn::functional::linear(x, weight, bias);
    if (lora_A.is_empty() || !adapterEnabled)
        return y;
    auto in = x.to(lora_A->weight.scalar_type());
    if (loraDropout > 0 && is_training())
        in = torch::dropout(in, loraDropout, true);
    return y + (lora_B(lora_A(in)) * loraScaling).to(y.scalar_type());
}

void HfLinearImpl::addLora(std::int64_t rank, double alpha, double dropout)
{
    const auto out = weight.size(0), in = weight.size(1);
    // Adapters of a bf16 or f16 model are kept in float32, as PEFT keeps them (autocast_adapter_dtype): their small
    // updates are not rounded away, and the optimizer needs no master copy of them.
    lora_A = register_module("lora_A", torch::nn::Linear(torch::nn::LinearOptions(in, rank).bias(false)));
    lora_B = register_module("lora_B", torch::nn::Linear(torch::nn::LinearOptions(rank, out).bias(false)));
    lora_A->to(weight.device(), torch::kFloat32);
    lora_B->to(weight.device(), torch::kFloat32);
    {
        torch::NoGradGuard noGrad;
        torch::nn::init::kaiming_uniform_(lora_A->weight, std::sqrt(5.0));
        lora_B->weight.zero_();
    }
    loraScaling = alpha / static_cast<double>(rank);
    loraDropout = dropout;
}

void HfLinearImpl::mergeLora()
{
    if (lora_A.is_empty())
        return;
    {
        torch::NoGradGuard noGrad;
        weight.add_((torch::matmul(lora_B->weight, lora_A->weight) * loraScaling).to(weight.scalar_type()));
    }
    unregister_module("lora_A");
    unregister_module("lora_B");
    lora_A = nullptr;
    lora_B = nullptr;
}

HfAttentionImpl::HfAttentionImpl(const hf::ModelConfig& c)
{
    const auto q = c.heads * c.headDim, kv = c.kvHeads * c.headDim;
    q_proj = register_module("q_proj", HfLinear(c.hiddenSize, q, c.attentionBias));
    k_proj = register_module("k_proj", HfLinear(c.hiddenSize, kv, c.attentionBias));
    v_proj = register_module("v_proj", HfLinear(c.hiddenSize, kv, c.attentionBias));
    o_proj = register_module("o_proj", HfLinear(q, c.hiddenSize, c.attentionOutputBias));
    if (c.qkNorm) {
        q_norm = register_module("q_norm", HfRmsNorm(c.headDim, c.rmsNormEps));
        k_norm = register_module("k_norm", HfRmsNorm(c.headDim, c.rmsNormEps));
    }
}

HfMlpImpl::HfMlpImpl(const hf::ModelConfig& c)
{
    gate_proj = register_module("gate_proj", HfLinear(c.hiddenSize, c.intermediateSize, c.mlpBias));
    up_proj = register_module("up_proj", HfLinear(c.hiddenSize, c.intermediateSize, c.mlpBias));
    down_proj = register_module("down_proj", HfLinear(c.intermediateSize, c.hiddenSize, c.mlpBias));
}

namespace {

/// Whether `linear` computes its base projection alone (no adapter, or adapters off): then several such projections
/// of one input may run as one matrix product.
bool plainProjection(const HfLinear& linear) { return !linear->hasLora() || !linear->adapterEnabled; }

/// The most weights stacked for one product (2 MB in float32): the built-in policies' projections are, a pretrained
/// model's are not, where copying the weights on every pass (every decoding step) would cost more memory traffic than
/// the products save in dispatch. Measured on household-quick's 128 x 2 policy: rollouts 12% and updates 4% faster.
constexpr std::int64_t kMaxStackedWeights = 512 * 1024;

/// Whether `linears` run as one product: all plain and small (kMaxStackedWeights).
bool stackable(std::initializer_list<HfLinear> linears)
{
    std::int64_t total = 0;
    for (const HfLinear& l : linears) {
        if (!plainProjection(l))
            return false;
        total += l->weight.numel();
    }
    return total <= kMaxStackedWeights;
}

/// The projections `linears` of `x` as one product over their stacked weights (and biases), split back: one GEMM
/// (and one in the backward pass) where each would pay its own. The caller checks stackable().
std::vector<torch::Tensor> stackedProjections(const torch::Tensor& x, std::initializer_list<HfLinear> linears)
{
    std::vector<torch::Tensor> weights, biases;
    std::vector<std::int64_t> sizes;
    for (const HfLinear& l : linears) {
        weights.push_back(l->weight);
        sizes.push_back(l->weight.size(0));
        if (l->bias.defined())
            biases.push_back(l->bias);
    }
    const auto bias = biases.empty() ? torch::Tensor() : torch::cat(biases);
    TORCH_CHECK(biases.empty() || biases.size() == weights.size(), "stacked projections need biases on all or none");
    return torch::nn::functional::linear(x, torch::cat(weights), bias).split_with_sizes(sizes, -1);
}

} // namespace

torch::Tensor HfMlpImpl::forward(const torch::Tensor& x)
{
    if (stackable({ gate_proj, up_proj })) {
        const auto gateUp = stackedProjections(x, { gate_proj, up_proj });
        return down_proj(torch::silu(gateUp[0]) * gateUp[1]);
    }
    return down_proj(torch::silu(gate_proj(x)) * up_proj(x));
}

HfDecoderLayerImpl::HfDecoderLayerImpl(const hf::ModelConfig& c)
{
    input_layernorm = register_module("input_layernorm", HfRmsNorm(c.hiddenSize, c.rmsNormEps));
    self_attn = register_module("self_attn", HfAttention(c));
    post_attention_layernorm = register_module("post_attention_layernorm", HfRmsNorm(c.hiddenSize, c.rmsNormEps));
    mlp = register_module("mlp", HfMlp(c));
}

HfBodyImpl::HfBodyImpl(const hf::ModelConfig& c)
{
    embed_tokens = register_module("embed_tokens", torch::nn::Embedding(c.vocabSize, c.hiddenSize));
    layers = register_module("layers", torch::nn::ModuleList());
    for (std::int64_t l = 0; l < c.layers; ++l)
        layers->push_back(HfDecoderLayer(c));
    norm = register_module("norm", HfRmsNorm(c.hiddenSize, c.rmsNormEps));
}

torch::Tensor hfRopeInverseFrequencies(const hf::ModelConfig& c)
{
    const auto dim = c.headDim;
    // transformers: 1 / base ** (arange(0, dim, 2).float() / dim), in float32.
    auto invFreq = 1.0
        / torch::pow(torch::full({}, c.ropeTheta, torch::kFloat32),
            torch::arange(0, dim, 2, torch::kInt64).to(torch::kFloat32) / static_cast<double>(dim));
    switch (c.rope.type) {
    case hf::RopeScaling::Type::None:
        break;
    case hf::RopeScaling::Type::Linear:
        invFreq = invFreq / c.rope.factor;
        break;
    case hf::RopeScaling::Type::Llama3: { // transformers `_compute_llama3_parameters`
        const double factor = c.rope.factor, low = c.rope.lowFreqFactor, high = c.rope.highFreqFactor;
        const double oldContext = static_cast<double>(c.rope.originalMaxPositions);
        const double lowWavelen = oldContext / low, highWavelen = oldContext / high;
        const auto wavelen = 2 * M_PI / invFreq;
        auto scaled = torch::where(wavelen > lowWavelen, invFreq / factor, invFreq);
        const auto smooth = (oldContext / wavelen - low) / (high - low);
        const auto smoothed = (1 - smooth) * scaled / factor + smooth * scaled;
        const auto medium = (wavelen < highWavelen).logical_not() & (wavelen > lowWavelen).logical_not();
        invFreq = torch::where(medium, smoothed, scaled);
        break;
    }
    }
    return invFreq;
}

HfDecoderImpl::HfDecoderImpl(const hf::ModelConfig& config)
    : m_config(config)
{
    model = register_module("model", HfBody(config));
    if (!config.tieWordEmbeddings)
        lm_head = register_module("lm_head", HfLinear(config.hiddenSize, config.vocabSize, false));
    m_invFreq = hfRopeInverseFrequencies(config);
}

void HfDecoderImpl::initializeFromScratch(double std)
{
    torch::NoGradGuard noGrad;
    const double residualStd = std / std::sqrt(2.0 * static_cast<double>(m_config.layers));
    model->embed_tokens->weight.normal_(0.0, std);
    for (std::int64_t l = 0; l < m_config.layers; ++l)
        for (auto& [name, linear] : projections(l)) {
            const bool residual = name == "self_attn.o_proj" || name == "mlp.down_proj";
            linear->weight.normal_(0.0, residual ? residualStd : std);
            if (linear->bias.defined())
                linear->bias.zero_();
        }
    if (lm_head)
        lm_head->weight.normal_(0.0, std);
    for (auto& module : modules(false))
        if (auto* norm = module->as<HfRmsNormImpl>())
            norm->weight.fill_(1.0);
}

torch::Device HfDecoderImpl::device() const { return model->embed_tokens->weight.device(); }

torch::Dtype HfDecoderImpl::dtype() const { return model->embed_tokens->weight.scalar_type(); }

torch::Tensor HfDecoderImpl::rope(const torch::Tensor& positions, torch::Dtype dtype) const
{
    // (B, T, D/2) angles in float32, duplicated to (B, 1, T, D); cos and sin cast to the compute dtype, as in
    // transformers' rotary embedding.
    if (m_invFreq.device() != positions.device())
        m_invFreq = m_invFreq.to(positions.device());
    const auto freqs = positions.to(torch::kFloat32).unsqueeze(-1) * m_invFreq;
    const auto emb = torch::cat({ freqs, freqs }, -1).unsqueeze(1);
    return torch::stack({ emb.cos().to(dtype), emb.sin().to(dtype) });
}

HfKvCache HfDecoderImpl::makeCache(std::int64_t batch, std::int64_t capacity) const
{
    HfKvCache cache;
    const auto options = torch::TensorOptions().device(device()).dtype(dtype());
    for (std::int64_t l = 0; l < m_config.layers; ++l) {
        cache.keys.push_back(torch::zeros({ batch, m_config.kvHeads, capacity, m_config.headDim }, options));
        cache.values.push_back(torch::zeros({ batch, m_config.kvHeads, capacity, m_config.headDim }, options));
    }
    cache.keyValid = torch::zeros({ batch, capacity }, torch::TensorOptions().device(device()).dtype(torch::kBool));
    cache.nextPosition = torch::zeros({ batch }, torch::TensorOptions().device(device()).dtype(torch::kInt64));
    cache.capacity = capacity;
    return cache;
}

namespace {

void growHfCache(HfKvCache& cache, std::int64_t capacity)
{
    if (capacity <= cache.capacity)
        return;
    const auto grow = [&](torch::Tensor& t, std::int64_t dim) {
        auto sizes = t.sizes().vec();
        sizes[dim] = capacity - cache.capacity;
        t = torch::cat({ t, torch::zeros(sizes, t.options()) }, dim);
    };
    for (auto& k : cache.keys)
        grow(k, 2);
    for (auto& v : cache.values)
        grow(v, 2);
    grow(cache.keyValid, 1);
    cache.capacity = capacity;
}

} // namespace

namespace {

/// The random state a layer's forward pass draws from (LoRA dropout): the CPU generator's, and the current CUDA
/// device's where LibTorch has CUDA headers.
struct RandomState {
    torch::Tensor cpu;
#if defined(CREDITLAB_WITH_CUDA_HEADERS)
    torch::Tensor cuda;
#endif
    static RandomState capture(const torch::Device& device)
    {
        RandomState s;
        s.cpu = at::detail::getDefaultCPUGenerator().get_state();
#if defined(CREDITLAB_WITH_CUDA_HEADERS)
        if (device.is_cuda())
            s.cuda = at::cuda::detail::getDefaultCUDAGenerator(device.index()).get_state();
#else
        (void)device;
#endif
        return s;
    }
    void restore(const torch::Device& device) const
    {
        at::Generator generator = at::detail::getDefaultCPUGenerator(); // a handle to the shared generator
        generator.set_state(cpu);
#if defined(CREDITLAB_WITH_CUDA_HEADERS)
        if (device.is_cuda() && cuda.defined()) {
            at::Generator generator = at::cuda::detail::getDefaultCUDAGenerator(device.index());
            generator.set_state(cuda);
        }
#else
        (void)device;
#endif
    }
};

} // namespace

torch::Tensor CheckpointedLayer::forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x,
    const torch::Tensor& cos, const torch::Tensor& sin, const HfAttentionMask& mask, std::int64_t index,
    HfDecoderImpl* model)
{
    const RandomState state = RandomState::capture(x.device());
    torch::Tensor y;
    {
        torch::NoGradGuard noGrad;
        y = model->layer(index, x, cos, sin, mask);
    }
    ctx->save_for_backward({ x, cos, sin, mask.allowed, mask.valid, state.cpu });
#if defined(CREDITLAB_WITH_CUDA_HEADERS)
    ctx->saved_data["cuda_state"] = state.cuda.defined() ? state.cuda : torch::Tensor();
#endif
    ctx->saved_data["index"] = index;
    ctx->saved_data["causal"] = mask.causal;
    ctx->saved_data["lowerTriangular"] = mask.lowerTriangular;
    ctx->saved_data["model"] = reinterpret_cast<std::int64_t>(model);
    return y;
}

torch::autograd::variable_list CheckpointedLayer::backward(
    torch::autograd::AutogradContext* ctx, torch::autograd::variable_list grads)
{
    const auto saved = ctx->get_saved_variables();
    auto* model = reinterpret_cast<HfDecoderImpl*>(ctx->saved_data["model"].toInt());
    const auto index = ctx->saved_data["index"].toInt();
    HfAttentionMask mask;
    mask.allowed = saved[3];
    mask.valid = saved[4];
    mask.causal = ctx->saved_data["causal"].toBool();
    mask.lowerTriangular = ctx->saved_data["lowerTriangular"].toBool();
    auto x = saved[0].detach().requires_grad_(true);
    RandomState state;
    state.cpu = saved[5];
#if defined(CREDITLAB_WITH_CUDA_HEADERS)
    state.cuda = ctx->saved_data["cuda_state"].toTensor();
#endif
    // Recompute with the same draws, then put the generator back where the outer pass left it.
    const RandomState now = RandomState::capture(x.device());
    state.restore(x.device());
    torch::Tensor y;
    {
        torch::AutoGradMode enable(true);
        y = model->layer(index, x, saved[1], saved[2], mask);
    }
    now.restore(x.device());
    // Parameters are leaves: their gradients accumulate here, as in torch.utils.checkpoint's reentrant form.
    torch::autograd::backward({ y }, { grads[0] });
    return { x.grad(), torch::Tensor(), torch::Tensor(), torch::Tensor(), torch::Tensor(), torch::Tensor() };
}

torch::Tensor HfDecoderImpl::forward(const torch::Tensor& tokens, const torch::Tensor& valid, HfKvCache* cache,
    HfInternals* internals, const torch::Tensor& at)
{
    TORCH_CHECK(!at.defined() || internals == nullptr, "positions `at` need a pass without internals");
    const auto steps = tokens.size(1);
    const auto dev = device();
    const auto validB = valid.to(dev, torch::kBool);
    auto positions = (validB.to(torch::kInt64).cumsum(1) - 1).clamp_min(0);
    HfAttentionMask mask;
    std::int64_t past = 0;
    const auto queryIndex = torch::arange(steps, torch::TensorOptions().device(dev).dtype(torch::kInt64));
    if (cache != nullptr) {
        past = cache->length;
        growHfCache(*cache, past + steps);
        positions = positions + cache->nextPosition.unsqueeze(1);
        cache->keyValid.narrow(1, past, steps).copy_(validB);
        cache->nextPosition = cache->nextPosition + validB.to(torch::kInt64).sum(1);
        const auto keyIndex = torch::arange(past + steps, queryIndex.options());
        const auto causal = keyIndex.unsqueeze(0) <= (queryIndex + past).unsqueeze(1); // (T, S)
        mask.allowed = cache->keyValid.narrow(1, 0, past + steps).unsqueeze(1) & causal.unsqueeze(0);
        mask.allowed
            = (mask.allowed | (keyIndex.unsqueeze(0) == (queryIndex + past).unsqueeze(1)).unsqueeze(0)).unsqueeze(1);
    } else if (steps > 1
        && !(validB.narrow(1, 1, steps - 1) & validB.narrow(1, 0, steps - 1).logical_not()).any().item<bool>()) {
        // Right-padded rows (no valid token after a padding one): plain causal attention, no mask formed.
        mask.causal = true;
        mask.valid = validB;
        mask.lowerTriangular = true;
    } else {
        const auto causal = queryIndex.unsqueeze(0) <= queryIndex.unsqueeze(1);
        // A padding query sees itself only, so its (unused) row stays finite.
        mask.allowed = ((validB.unsqueeze(1) & causal.unsqueeze(0))
            | torch::eye(steps, torch::TensorOptions().device(dev).dtype(torch::kBool)).unsqueeze(0))
                           .unsqueeze(1);
        mask.lowerTriangular = true;
    }
    const auto cosSin = rope(positions, dtype());
    const auto hidden = layers(tokens, cosSin, mask, cache, past, internals, at);
    if (cache != nullptr)
        cache->length = past + steps;
    return hidden;
}

torch::Tensor HfDecoderImpl::forwardLayout(const torch::Tensor& tokens, const torch::Tensor& positions,
    const torch::Tensor& allowed, HfInternals* internals, const torch::Tensor& at)
{
    TORCH_CHECK(!at.defined() || internals == nullptr, "positions `at` need a pass without internals");
    const auto dev = device();
    const auto steps = tokens.size(1);
    const auto self = torch::eye(steps, torch::TensorOptions().device(dev).dtype(torch::kBool)).unsqueeze(0);
    HfAttentionMask mask;
    const auto layout = allowed.to(dev, torch::kBool) | self;
    // Branch layouts see only keys at or before each query; the blocked attention relies on it, so it is checked.
    mask.lowerTriangular = !layout.triu(1).any().item<bool>();
    mask.allowed = layout.unsqueeze(1);
    return layers(tokens, rope(positions.to(dev, torch::kInt64), dtype()), mask, nullptr, 0, internals, at);
}

torch::Tensor HfDecoderImpl::layers(const torch::Tensor& tokens, const torch::Tensor& cosSin,
    const HfAttentionMask& mask, HfKvCache* cache, std::int64_t past, HfInternals* internals, const torch::Tensor& at)
{
    const auto cos = cosSin[0], sin = cosSin[1];
    auto x = model->embed_tokens(tokens.to(device()));
    const bool checkpoint
        = m_checkpointing && torch::GradMode::is_enabled() && cache == nullptr && internals == nullptr;
    // A frozen embedding (LoRA) gives an input without gradient; autograd would then not record the checkpointed
    // layers at all (torch.utils.checkpoint's reentrant form has the same trap). Their input is made to want one.
    if (checkpoint && !x.requires_grad())
        x = x.detach().requires_grad_(true);
    for (std::int64_t l = 0; l < m_config.layers; ++l) {
        const bool last = l + 1 == m_config.layers;
        if (last && at.defined()) // the last layer at `at` only (small: not checkpointed)
            x = layer(l, x, cos, sin, mask, cache, past, nullptr, at);
        else
            x = checkpoint ? CheckpointedLayer::apply(x, cos, sin, mask, l, this)
                           : layer(l, x, cos, sin, mask, cache, past, internals);
    }
    return model->norm(x);
}

torch::Tensor HfDecoderImpl::layer(std::int64_t l, const torch::Tensor& x, const torch::Tensor& cos,
    const torch::Tensor& sin, const HfAttentionMask& mask, HfKvCache* cache, std::int64_t past, HfInternals* internals,
    const torch::Tensor& at)
{
    const auto batch = x.size(0), steps = x.size(1);
    auto* block = model->layers[l]->as<HfDecoderLayerImpl>();
    auto& attention = block->self_attn;
    const double scale = 1.0 / std::sqrt(static_cast<double>(m_config.headDim));
    const auto h = block->input_layernorm->forward(x);
    // Queries (and everything after the attention) at every step, or at `at` only.
    const auto hq = at.defined() ? gatherSteps(h, at, 1) : h;
    const auto queries = hq.size(1);
    torch::Tensor q, k, v;
    if (!at.defined() && stackable({ attention->q_proj, attention->k_proj, attention->v_proj })) {
        const auto qkv = stackedProjections(h, { attention->q_proj, attention->k_proj, attention->v_proj });
        q = qkv[0];
        k = qkv[1];
        v = qkv[2];
    } else {
        q = attention->q_proj(hq);
        k = attention->k_proj(h);
        v = attention->v_proj(h);
    }
    q = q.view({ batch, queries, m_config.heads, m_config.headDim });
    k = k.view({ batch, steps, m_config.kvHeads, m_config.headDim });
    v = v.view({ batch, steps, m_config.kvHeads, m_config.headDim }).transpose(1, 2);
    if (m_config.qkNorm) {
        q = attention->q_norm(q);
        k = attention->k_norm(k);
    }
    q = q.transpose(1, 2);
    k = k.transpose(1, 2);
    const auto qCos = at.defined() ? gatherSteps(cos, at, 2) : cos;
    const auto qSin = at.defined() ? gatherSteps(sin, at, 2) : sin;
    q = q * qCos + rotateHalf(q) * qSin;
    k = k * cos + rotateHalf(k) * sin;
    if (cache != nullptr) {
        cache->keys[l].narrow(2, past, steps).copy_(k);
        cache->values[l].narrow(2, past, steps).copy_(v);
        k = cache->keys[l].narrow(2, 0, past + steps);
        v = cache->values[l].narrow(2, 0, past + steps);
    }
    torch::Tensor map;
    auto attn = attendMasked(q, k, v, mask, at, scale, internals != nullptr ? &map : nullptr);
    if (internals != nullptr)
        internals->attention.push_back(map);
    attn = attn.transpose(1, 2).reshape({ batch, queries, m_config.heads * m_config.headDim });
    auto out = (at.defined() ? gatherSteps(x, at, 1) : x) + attention->o_proj(attn);
    out = out + block->mlp->forward(block->post_attention_layernorm->forward(out));
    if (internals != nullptr)
        internals->layerHidden.push_back(out);
    return out;
}

torch::Tensor HfDecoderImpl::logits(const torch::Tensor& hidden)
{
    const auto& head = lm_head ? lm_head->weight : model->embed_tokens->weight;
    return torch::nn::functional::linear(hidden, head).to(torch::kFloat32);
}

void HfDecoderImpl::loadWeights(const hf::Checkpoint& checkpoint)
{
    torch::NoGradGuard noGrad;
    std::map<std::string, torch::Tensor> params;
    for (const auto& item : named_parameters(true))
        params[item.key()] = item.value();
    for (const hf::WeightSpec& spec : hf::expectedWeights(m_config)) {
        const hf::TensorView* view = checkpoint.find(spec.name);
        if (view == nullptr)
            throw hf::HfError("tensor \"" + spec.name + "\" is missing from the checkpoint");
        const auto it = params.find(spec.name);
        if (it == params.end())
            throw hf::HfError("tensor \"" + spec.name + "\" has no parameter in the decoder");
        // A view of the mapped bytes (never written), copied and converted into the parameter.
        const auto source = torch::from_blob(
            const_cast<std::byte*>(view->data), view->shape, torch::TensorOptions().dtype(scalarType(view->dtype)));
        it->second.copy_(source);
    }
}

std::vector<std::pair<std::string, HfLinear>> HfDecoderImpl::projections(std::int64_t layer)
{
    auto* block = model->layers[layer]->as<HfDecoderLayerImpl>();
    auto& a = block->self_attn;
    auto& m = block->mlp;
    return { { "self_attn.q_proj", a->q_proj }, { "self_attn.k_proj", a->k_proj }, { "self_attn.v_proj", a->v_proj },
        { "self_attn.o_proj", a->o_proj }, { "mlp.gate_proj", m->gate_proj }, { "mlp.up_proj", m->up_proj },
        { "mlp.down_proj", m->down_proj } };
}

void HfDecoderImpl::addLora(const LoraOptions& options)
{
    if (options.rank < 1)
        throw hf::HfError("lora.rank must be at least 1, not " + std::to_string(options.rank));
    if (m_lora)
        throw hf::HfError("the model already has LoRA adapters");
    for (const std::string& target : options.targets) {
        bool known = false;
        for (const auto& [name, linear] : projections(0))
            known = known || name.substr(name.find('.') + 1) == target;
        if (!known)
            throw hf::HfError("lora.targets: \"" + target
                + "\" is not a projection (q_proj, k_proj, v_proj, o_proj, gate_proj, up_proj, down_proj)");
    }
    for (auto& p : parameters(true))
        p.set_requires_grad(false);
    for (std::int64_t l = 0; l < m_config.layers; ++l)
        for (auto& [name, linear] : projections(l))
            if (std::find(options.targets.begin(), options.targets.end(), name.substr(name.find('.') + 1))
                != options.targets.end())
                linear->addLora(options.rank, options.alpha, options.dropout);
    m_lora = options;
}

std::vector<std::pair<std::string, torch::Tensor>> HfDecoderImpl::loraWeights()
{
    std::vector<std::pair<std::string, torch::Tensor>> out;
    for (std::int64_t l = 0; l < m_config.layers; ++l)
        for (auto& [name, linear] : projections(l))
            if (linear->hasLora()) {
                const std::string prefix = "base_model.model.model.layers." + std::to_string(l) + "." + name;
                out.emplace_back(prefix + ".lora_A.weight", linear->lora_A->weight);
                out.emplace_back(prefix + ".lora_B.weight", linear->lora_B->weight);
            }
    return out;
}

void HfDecoderImpl::mergeLora()
{
    for (std::int64_t l = 0; l < m_config.layers; ++l)
        for (auto& [name, linear] : projections(l))
            linear->mergeLora();
    m_lora.reset();
}

void HfDecoderImpl::setAdaptersEnabled(bool enabled)
{
    for (std::int64_t l = 0; l < m_config.layers; ++l)
        for (auto& [name, linear] : projections(l))
            linear->adapterEnabled = enabled;
}

HfDecoderImpl::AdaptersDisabled::AdaptersDisabled(HfDecoderImpl& model)
    : m_model(model)
{
    m_model.setAdaptersEnabled(false);
}

HfDecoderImpl::AdaptersDisabled::~AdaptersDisabled() { m_model.setAdaptersEnabled(true); }

std::vector<std::pair<std::string, torch::Tensor>> HfDecoderImpl::hfWeights()
{
    std::map<std::string, torch::Tensor> params;
    for (const auto& item : named_parameters(true))
        params[item.key()] = item.value();
    std::vector<std::pair<std::string, torch::Tensor>> out;
    for (const hf::WeightSpec& spec : hf::expectedWeights(m_config)) {
        const auto it = params.find(spec.name);
        if (it == params.end())
            throw hf::HfError("tensor \"" + spec.name + "\" has no parameter in the decoder");
        out.emplace_back(spec.name, it->second);
    }
    return out;
}

} // namespace creditlab::learn
