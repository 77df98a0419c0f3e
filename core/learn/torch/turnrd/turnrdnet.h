#pragma once

// TurnRD's network and its padded minibatch (HAS §2.5–2.8): the encoder over turn embeddings with goal-aware FiLM,
// the attention head that splits the reward and the per-turn value head. Learn-internal (torch): only turnrd_p.h
// includes it.

#include "core/learn/torch/turnrd/turnrd.h"

#include <ATen/CPUGeneratorImpl.h>
#include <torch/torch.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace creditlab::learn {

using torch::Tensor;

/// Rows [offset, offset + batch) of a minibatch of `total` rows: a data-parallel rank's share of it. Dropout then draws
/// the whole minibatch's masks and keeps these rows, so that the ranks together draw what one process draws, from the
/// same generator state. total = 0: the batch is the whole minibatch.
struct RowSlice {
    std::int64_t offset = 0;
    std::int64_t total = 0;
};

/// The network. Dropout draws its masks from an explicit CPU generator (passed only while training), so results
/// depend on the seed alone, never on torch's global generator that the trainer also uses.
class TurnRdNetImpl : public torch::nn::Module {
public:
    struct Output {
        Tensor logits; ///< attention logits a_t, −inf on padded turns (B, T)
        Tensor weights; ///< w = softmax_t(a) (B, T)
        Tensor values; ///< V_t (B, T)
        Tensor predicted; ///< R̂ = Σ_t w_t V_t (B)
        Tensor deltaGamma, beta; ///< FiLM (B, d); undefined without FiLM
    };

    TurnRdNetImpl(const TurnRdOptions& o, at::Generator& init)
        : m_o(o)
    {
        if (o.modelWidth % o.heads != 0)
            throw std::invalid_argument("TurnRD: modelWidth must be a multiple of heads");
        const auto d = o.modelWidth;
        m_in = register_module("in_proj", torch::nn::Linear(o.inputWidth, d)); // [paper] D → H
        m_pos = register_module("pos", torch::nn::Embedding(o.maxTurns, d)); // [choice] learned positions
        for (std::int64_t l = 0; l < o.layers; ++l) {
            const auto p = "enc" + std::to_string(l) + "_";
            m_ln1.push_back(register_module(p + "ln1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({ d }))));
            m_qkv.push_back(register_module(p + "qkv", torch::nn::Linear(d, 3 * d)));
            m_out.push_back(register_module(p + "out", torch::nn::Linear(d, d)));
            m_ln2.push_back(register_module(p + "ln2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({ d }))));
            m_fc1.push_back(register_module(p + "fc1", torch::nn::Linear(d, o.ffnWidth)));
            m_fc2.push_back(register_module(p + "fc2", torch::nn::Linear(o.ffnWidth, d)));
        }
        if (o.film)
            m_film = register_module("film", // → (Δγ, β), then (Δγ_attn, β_attn) with separate head FiLM
                torch::nn::Linear(o.goalWidth, (o.separateHeadFilm ? 4 : 2) * d));
        m_attnHead = register_module("attn_head", torch::nn::Linear(d, 1)); // [choice] single Linear heads
        m_valueHead = register_module("value_head", torch::nn::Linear(d, 1));

        // PyTorch's default Linear initialisation (uniform ±1/√fan_in), drawn from the seeded generator.
        torch::NoGradGuard noGrad;
        for (auto& item : named_parameters()) {
            auto& p = item.value();
            const auto& name = item.key();
            if (name.rfind("film.", 0) == 0)
                p.zero_(); // [paper] zero-initialised FiLM projector: starts as the unconditioned decomposer
            else if (name.rfind("pos.", 0) == 0)
                p.normal_(0.0, 0.02, init);
            else if (name.find("ln") != std::string::npos)
                p.fill_(name.size() >= 6 && name.compare(name.size() - 6, 6, "weight") == 0 ? 1.0 : 0.0);
            else {
                const auto fanIn = static_cast<double>(name.find("in_proj") == 0 ? o.inputWidth
                        : name.find("fc2") != std::string::npos                  ? o.ffnWidth
                                                                                 : d);
                const double bound = 1.0 / std::sqrt(fanIn);
                p.uniform_(-bound, bound, init);
            }
        }
    }

    /// `hidden` (B, T, D), `valid` (B, T) bool, `goal` (B, g) or undefined. `zeroFilm` forces Δγ = β = 0 (the
    /// §2.13a probe). `dropout` = nullptr in inference; `slice` says which rows of the minibatch `hidden` holds.
    Output forward(const Tensor& hidden, const Tensor& valid, const Tensor& goal, bool zeroFilm, at::Generator* dropout,
        RowSlice slice = {})
    {
        const auto batch = hidden.size(0), steps = hidden.size(1), d = m_o.modelWidth, heads = m_o.heads;
        const auto headWidth = d / heads;
        auto positions = torch::arange(steps, torch::TensorOptions().dtype(torch::kLong).device(hidden.device()));
        auto x = m_in(hidden) + m_pos(positions).unsqueeze(0); // [paper] projection, [choice] + PosEmb[t]
        const auto keyMask = valid.logical_not().view({ batch, 1, 1, steps });
        for (std::size_t l = 0; l < m_qkv.size(); ++l) {
            // [choice] pre-LN block, GELU FFN; NO causal mask: bidirectional over the trajectory's turns [paper].
            auto qkv = m_qkv[l](m_ln1[l](x)).view({ batch, steps, 3, heads, headWidth }).permute({ 2, 0, 3, 1, 4 });
            auto scores = torch::matmul(qkv[0], qkv[1].transpose(-2, -1)) / std::sqrt(static_cast<double>(headWidth));
            auto attention = drop(torch::softmax(scores.masked_fill(keyMask, -INFINITY), -1), dropout, slice);
            auto mixed = torch::matmul(attention, qkv[2]).transpose(1, 2).reshape({ batch, steps, d });
            x = x + drop(m_out[l](mixed), dropout, slice);
            x = x + drop(m_fc2[l](drop(torch::gelu(m_fc1[l](m_ln2[l](x))), dropout, slice)), dropout, slice);
        }
        Output out;
        auto forAttention = x;
        if (m_film) {
            // [note §7.1] residual FiLM: FiLM(z) = (1 + Δγ) ⊙ z + β (Eq. 6 with γ = 1 + Δγ), after the encoder
            // [note §7.2]. Default: one shared FiLM feeding both heads [note §7.2 choice]; the option gives the
            // attention head its own (Δγ, β). The reported Δγ, β are the value head's ("goal-conditioned value head").
            auto gb = m_film(goal);
            out.deltaGamma = gb.slice(1, 0, d);
            out.beta = gb.slice(1, d, 2 * d);
            if (!zeroFilm) {
                x = (1 + out.deltaGamma.unsqueeze(1)) * x + out.beta.unsqueeze(1);
                forAttention = m_o.separateHeadFilm ? (1 + gb.slice(1, 2 * d, 3 * d).unsqueeze(1)) * forAttention
                        + gb.slice(1, 3 * d, 4 * d).unsqueeze(1)
                                                    : x;
            }
        }
        out.logits = m_attnHead(forAttention).squeeze(-1).masked_fill(valid.logical_not(), -INFINITY);
        out.weights = torch::softmax(out.logits, 1); // masked softmax over turns: Σ_t w_t = 1 [paper]
        out.values = m_valueHead(x).squeeze(-1).masked_fill(valid.logical_not(), 0.0);
        out.predicted = (out.weights * out.values).sum(1); // Eq. 7's R̂
        return out;
    }

    /// (Δγ, β) for goals (B, g): the FiLM projector's output (B, 2d).
    Tensor film(const Tensor& goal) { return m_film(goal); }

private:
    /// Every tensor dropped out has the minibatch's rows first.
    Tensor drop(const Tensor& x, at::Generator* generator, RowSlice slice) const
    {
        if (!generator || m_o.dropout <= 0.0)
            return x;
        auto sizes = x.sizes().vec();
        if (slice.total > 0)
            sizes[0] = slice.total;
        auto keep = torch::rand(sizes, *generator, torch::TensorOptions().dtype(x.scalar_type())) >= m_o.dropout;
        if (slice.total > 0)
            keep = keep.narrow(0, slice.offset, x.size(0));
        return x * keep.to(x.device(), x.scalar_type()) / (1.0 - m_o.dropout);
    }

    TurnRdOptions m_o;
    torch::nn::Linear m_in { nullptr }, m_film { nullptr }, m_attnHead { nullptr }, m_valueHead { nullptr };
    torch::nn::Embedding m_pos { nullptr };
    std::vector<torch::nn::LayerNorm> m_ln1, m_ln2;
    std::vector<torch::nn::Linear> m_qkv, m_out, m_fc1, m_fc2;
};
TORCH_MODULE(TurnRdNet);

/// A padded minibatch on the device.
struct Batch {
    Tensor hidden, valid, goal, reward, target, targetMask, hasTarget, weight;
    std::vector<std::int64_t> turns;
    std::vector<double> rewards;
};

} // namespace creditlab::learn
