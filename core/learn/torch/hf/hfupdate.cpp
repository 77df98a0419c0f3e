#include "core/learn/torch/hf/hfupdate.h"

#include <algorithm>
#include <cmath>

namespace creditlab::learn {

torch::Tensor hfTargetLogProbs(HfDecoder& model, const torch::Tensor& tokens, const torch::Tensor& valid,
    const torch::Tensor& from, const torch::Tensor& targets)
{
    const auto hidden = model->forward(tokens, valid);
    const auto width = hidden.size(-1);
    const auto at = from.to(hidden.device()).unsqueeze(-1).expand({ from.size(0), from.size(1), width });
    const auto picked = hidden.gather(1, at);
    const auto logProbs = torch::log_softmax(model->logits(picked), -1);
    return logProbs.gather(-1, targets.to(logProbs.device()).unsqueeze(-1)).squeeze(-1);
}

struct HfOptimizer::State {
    std::vector<torch::Tensor> params; ///< the model's trainable parameters
    std::vector<torch::Tensor> masters; ///< float32 copies where a parameter is below float32, else the parameter
    std::unique_ptr<torch::optim::AdamW> adam;
    double maxGradNorm = 0.0;
};

HfOptimizer::HfOptimizer(HfDecoder& model, const HfOptimizerOptions& options)
    : m_state(std::make_unique<State>())
{
    m_state->maxGradNorm = options.maxGradNorm;
    for (auto& p : model->parameters(true)) {
        if (!p.requires_grad())
            continue;
        m_state->params.push_back(p);
        if (p.scalar_type() == torch::kFloat32) {
            m_state->masters.push_back(p);
        } else {
            auto master = p.detach().to(torch::kFloat32).clone();
            master.set_requires_grad(true);
            m_state->masters.push_back(master);
        }
    }
    m_state->adam = std::make_unique<torch::optim::AdamW>(m_state->masters,
        torch::optim::AdamWOptions(options.lr)
            .betas(std::make_tuple(options.beta1, options.beta2))
            .eps(options.eps)
            .weight_decay(options.weightDecay));
}

HfOptimizer::~HfOptimizer() = default;

double HfOptimizer::step()
{
    auto& s = *m_state;
    torch::NoGradGuard noGrad;
    for (std::size_t i = 0; i < s.params.size(); ++i) {
        auto& p = s.params[i];
        auto& m = s.masters[i];
        if (!p.grad().defined())
            continue;
        if (m.unsafeGetTensorImpl() != p.unsafeGetTensorImpl())
            m.mutable_grad() = p.grad().to(torch::kFloat32);
    }
    // The global norm over every gradient, then one scale for all: clipping after accumulation.
    double total = 0.0;
    for (auto& m : s.masters)
        if (m.grad().defined())
            total += m.grad().pow(2).sum().item<double>();
    const double norm = std::sqrt(total);
    if (s.maxGradNorm > 0 && norm > s.maxGradNorm && std::isfinite(norm))
        for (auto& m : s.masters)
            if (m.grad().defined())
                m.mutable_grad().mul_(s.maxGradNorm / (norm + 1e-6));
    s.adam->step();
    for (std::size_t i = 0; i < s.params.size(); ++i)
        if (s.masters[i].unsafeGetTensorImpl() != s.params[i].unsafeGetTensorImpl())
            s.params[i].copy_(s.masters[i]);
    zeroGrad();
    return norm;
}

namespace {

std::vector<torch::Tensor> mastersOf(const std::vector<torch::Tensor>& params)
{
    std::vector<torch::Tensor> out;
    for (const auto& p : params)
        out.push_back(p.scalar_type() == torch::kFloat32 ? p : p.detach().to(torch::kFloat32).requires_grad_(true));
    return out;
}

bool sameTensor(const torch::Tensor& a, const torch::Tensor& b)
{
    return a.unsafeGetTensorImpl() == b.unsafeGetTensorImpl();
}

} // namespace

MasterWeightAdam::MasterWeightAdam(std::vector<torch::Tensor> params, const torch::optim::AdamOptions& options)
    : torch::optim::Adam(mastersOf(params), options)
    , m_params(std::move(params))
{
}

bool MasterWeightAdam::needed(const std::vector<torch::Tensor>& params)
{
    return std::any_of(
        params.begin(), params.end(), [](const torch::Tensor& p) { return p.scalar_type() != torch::kFloat32; });
}

torch::Tensor MasterWeightAdam::step(LossClosure closure)
{
    auto& masters = param_groups().front().params();
    {
        torch::NoGradGuard noGrad;
        for (std::size_t i = 0; i < m_params.size(); ++i) {
            const auto& p = m_params[i];
            if (!sameTensor(p, masters[i]) && p.grad().defined())
                masters[i].mutable_grad() = p.grad().to(torch::kFloat32);
        }
    }
    auto loss = torch::optim::Adam::step(std::move(closure));
    torch::NoGradGuard noGrad;
    for (std::size_t i = 0; i < m_params.size(); ++i) {
        auto& p = m_params[i];
        if (sameTensor(p, masters[i]))
            continue;
        p.copy_(masters[i]);
        p.mutable_grad() = torch::Tensor();
    }
    return loss;
}

void MasterWeightAdam::save(torch::serialize::OutputArchive& archive) const
{
    torch::optim::Adam::save(archive);
    const auto& masters = param_groups().front().params();
    for (std::size_t i = 0; i < masters.size(); ++i)
        if (!sameTensor(masters[i], m_params[i]))
            archive.write("creditlab_master_" + std::to_string(i), masters[i], true);
}

void MasterWeightAdam::load(torch::serialize::InputArchive& archive)
{
    torch::optim::Adam::load(archive);
    torch::NoGradGuard noGrad;
    auto& masters = param_groups().front().params();
    for (std::size_t i = 0; i < masters.size(); ++i) {
        if (sameTensor(masters[i], m_params[i]))
            continue;
        torch::Tensor saved;
        if (archive.try_read("creditlab_master_" + std::to_string(i), saved, true))
            masters[i].copy_(saved);
        else // an archive of Adam alone: the masters start from the loaded weights
            masters[i].copy_(m_params[i]);
    }
}

void HfOptimizer::zeroGrad()
{
    for (auto& p : m_state->params)
        if (p.grad().defined())
            p.mutable_grad() = torch::Tensor();
    for (auto& m : m_state->masters)
        if (m.grad().defined())
            m.mutable_grad() = torch::Tensor();
}

std::int64_t HfOptimizer::trainableParameters() const
{
    std::int64_t n = 0;
    for (const auto& p : m_state->params)
        n += p.numel();
    return n;
}

void HfOptimizer::save(const std::string& path) const
{
    torch::serialize::OutputArchive archive;
    m_state->adam->save(archive);
    for (std::size_t i = 0; i < m_state->masters.size(); ++i)
        archive.write("master." + std::to_string(i), m_state->masters[i]);
    archive.save_to(path);
}

void HfOptimizer::load(const std::string& path)
{
    torch::serialize::InputArchive archive;
    archive.load_from(path);
    m_state->adam->load(archive);
    torch::NoGradGuard noGrad;
    for (std::size_t i = 0; i < m_state->masters.size(); ++i) {
        torch::Tensor master;
        archive.read("master." + std::to_string(i), master);
        m_state->masters[i].copy_(master);
        if (m_state->masters[i].unsafeGetTensorImpl() != m_state->params[i].unsafeGetTensorImpl())
            m_state->params[i].copy_(master);
    }
}

} // namespace creditlab::learn
