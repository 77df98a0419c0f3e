#pragma once

// Training a Hugging Face decoder: log-probabilities of the trained tokens only (logits computed where a token is
// trained, never over the whole sequence), and AdamW with float32 master weights for a bf16 model, gradient
// accumulation and clipping after accumulation. Includes torch.

#include "core/learn/torch/hf/decoder.h"

#include <memory>
#include <vector>

namespace creditlab::learn {

/// Log-probabilities (B, A) float32 of `targets` (B, A) predicted by the outputs at positions `from` (B, A) of
/// `tokens` (B, T) with `valid` (B, T); every trained token's logits and nothing else. Gradients flow when enabled.
torch::Tensor hfTargetLogProbs(HfDecoder& model, const torch::Tensor& tokens, const torch::Tensor& valid,
    const torch::Tensor& from, const torch::Tensor& targets);

struct HfOptimizerOptions {
    double lr = 1e-6; ///< full fine-tuning's lr in the agentic RL recipes (verl-agent, SkyRL); LoRA uses ~10x
    double beta1 = 0.9;
    double beta2 = 0.999;
    double eps = 1e-8;
    double weightDecay = 0.0;
    double maxGradNorm = 1.0; ///< clipping of the global norm after accumulation; 0: none
};

/// AdamW over the decoder's trainable parameters (the adapters alone under LoRA). For parameters below float32
/// (bf16 on CUDA) the optimizer steps float32 master copies and writes them back rounded, so small updates are not
/// lost to bf16's 8-bit mantissa. Gradients accumulate across backward() calls until step(). One thread.
class HfOptimizer {
public:
    HfOptimizer(HfDecoder& model, const HfOptimizerOptions& options);
    ~HfOptimizer();
    /// Clips, steps and clears the gradients; returns the global gradient norm before clipping.
    double step();
    void zeroGrad();
    std::int64_t trainableParameters() const;
    /// The optimizer and master weights, for checkpoints.
    void save(const std::string& path) const;
    void load(const std::string& path);

private:
    struct State;
    std::unique_ptr<State> m_state;
};

/// LibTorch's Adam for the trainer, with float32 master copies of the parameters below float32 (a bf16 model's full
/// fine-tuning): step() reads those parameters' gradients into their masters, steps, writes the masters back rounded
/// and clears the gradients, so small updates are not lost to bf16's 8-bit mantissa. Float32 parameters are stepped
/// in place, as by Adam. The archive (save, load) holds the masters too, so a resumed run continues from them. Its
/// zero_grad() clears the masters' gradients; the parameters' are cleared by step(). One thread.
class MasterWeightAdam : public torch::optim::Adam {
public:
    MasterWeightAdam(std::vector<torch::Tensor> params, const torch::optim::AdamOptions& options);
    torch::Tensor step(LossClosure closure = nullptr) override;
    void save(torch::serialize::OutputArchive& archive) const override;
    void load(torch::serialize::InputArchive& archive) override;
    /// Whether `params` has one below float32: what needs this optimizer rather than Adam.
    static bool needed(const std::vector<torch::Tensor>& params);

private:
    std::vector<torch::Tensor> m_params; ///< the model's; param_groups() holds their masters
};

} // namespace creditlab::learn
