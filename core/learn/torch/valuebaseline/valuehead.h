#pragma once

// The value head of TRIAGE's shared-backbone value baseline (Xu et al. 2026, App. D; shared/methods/triage.md §4
// "Shared-backbone value baseline details" and ambiguity 24). Torch-free header: the head lives behind a pimpl in
// valuehead.cpp, so Qt code and the torch-free trainer API can include this.
//
// States and indexing. Trajectory i has segments (turns) k = 1..T_i; segment k is action a_k followed by what the
// environment returns. The trainer reads the policy's final-layer hidden state (with a stop-gradient: the backbone
// gets no value gradient, "kept frozen") at these T_i + 1 states, k = 0..T_i:
//   - s_{i,0}: the last token of the initial prompt (task and first observation), i.e. just before a_1 is
//     generated. This is ambiguity 24's choice for the undefined V(s_{i,0}).
//   - s_{i,k}, 1 <= k < T_i: the last token of the observation returned after a_k, i.e. just before a_{k+1}.
//   - s_{i,T_i}: the last token of the whole transcript after a_{T_i} (and its observation, when there is one).
// So s_{i,k-1} is the state a_k is chosen in and s_{i,k} the state it leads to, and
//   dV_{i,k} = V_φ̄(s_{i,k}) − V_φ̄(s_{i,k−1}),  k = 1..T_i            (App. D, Eq. 12; deltas())
// is segment k's credit, which the `value_baseline` estimator clips and mixes with GRPO. The head is trained on
// discounted Monte-Carlo targets for all T_i + 1 states,
//   y_{i,k} = γ^{T_i − k}·r_i,  k = 0..T_i                               (App. D, Eq. 11; monteCarloTargets())
// with L_V = mean (V_φ(s) − y)², one Adam step per GRPO step on the fresh rollouts; the mixing reads the EMA copy
// φ̄ ← τ·φ̄ + (1 − τ)·φ, updated after every step.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace creditlab::learn {

namespace dist {
class Communicator;
}

/// Settings of the value head; defaults are App. D's (ALFWorld/WebShop).
struct ValueBaselineOptions {
    std::int64_t width = 1536; ///< d_model of the policy's final-layer hidden states
    double gamma = 0.95; ///< γ of the Monte-Carlo targets [paper: 0.95 ALFWorld/WebShop, 0.9 Search-QA]
    double lr = 1e-4; ///< η_V, Adam [paper]
    double emaTau = 0.99; ///< τ of the EMA copy φ̄ [paper]
    std::int64_t warmupSteps = 10; ///< steps trained with λ = 0 [paper]
    std::uint64_t seed = 0; ///< initial weights (own generator, never torch's global one)
    std::string device = "cpu"; ///< "cpu" or "cuda[:N]"; fixed for the object's life
};

/// A training step shared out over the ranks of a data-parallel run (issue 36): every rank holds all of the step's rows
/// and computes the loss terms of its own, [begin, end).
struct ValueStepShard {
    dist::Communicator* comm = nullptr; ///< null or world 1: one process, every row
    std::int64_t begin = 0;
    std::int64_t end = 0;
};

/// The value head V_φ: R^width → R (one Linear), its EMA copy φ̄, Adam on the MSE to Monte-Carlo targets, a
/// warm-up counter and checkpoints. Deterministic for a seed on a given device. Not thread-safe: one worker thread
/// owns it (it may be created on one thread and used on another, one at a time). Never cancels: a step is one
/// Linear forward and backward. Throws std::invalid_argument on malformed inputs and std::runtime_error on file
/// errors.
class ValueBaseline {
public:
    /// Throws std::invalid_argument for a width < 1, γ outside [0, 1], lr <= 0, τ outside [0, 1] or warm-up < 0.
    explicit ValueBaseline(const ValueBaselineOptions& options);
    ~ValueBaseline();
    ValueBaseline(ValueBaseline&&) noexcept;
    ValueBaseline& operator=(ValueBaseline&&) noexcept;
    ValueBaseline(const ValueBaseline&) = delete;
    ValueBaseline& operator=(const ValueBaseline&) = delete;

    const ValueBaselineOptions& options() const;

    /// trainStep() calls so far.
    std::int64_t steps() const;
    /// True once warmupSteps steps have been trained: the mixing weight λ is 0 before that (App. D).
    bool warmedUp() const;
    /// `lambda` when warmedUp(), else 0: the λ to hand the `value_baseline` estimator for this step.
    double mixingWeight(double lambda) const;

    /// V_φ̄ (the EMA head) for `rows` hidden states, row-major rows × width floats. No gradients.
    std::vector<float> predict(const float* hidden, std::int64_t rows) const;
    /// V_φ (the online head being trained), same layout; for diagnostics and tests.
    std::vector<float> predictOnline(const float* hidden, std::int64_t rows) const;

    /// One Adam step of L_V = (1/N) Σ (V_φ(s) − y)² on `rows` states (row-major rows × width) and their targets,
    /// then the EMA update of φ̄ and steps() + 1. Returns L_V before the step. rows must be >= 1.
    double trainStep(const float* hidden, std::int64_t rows, const std::vector<double>& targets);
    /// The same step shared out: this rank's rows' squared errors over all `rows` (the global mean's share), their
    /// gradients summed over the ranks before the step, so that every rank steps alike; returns L_V over all rows on
    /// every rank. A collective: every rank calls it with the same rows. Without a communicator of several ranks it is
    /// the step above.
    double trainStep(
        const float* hidden, std::int64_t rows, const std::vector<double>& targets, const ValueStepShard& shard);

    /// y_k = γ^{turns − k}·reward for k = 0..turns (turns + 1 values, s_0 first). Throws for turns < 0.
    static std::vector<double> monteCarloTargets(std::int64_t turns, double reward, double gamma);
    /// dV_k = values[k] − values[k − 1] for k = 1..n−1, given the values of s_0..s_T (n = T + 1 >= 1). Throws on
    /// an empty list.
    static std::vector<double> deltas(const std::vector<double>& values);

    /// The head's parameters, weight row then bias (width + 1 values), of φ̄ (`ema`) or φ.
    std::vector<float> parameters(bool ema) const;

    /// Writes φ, φ̄, the Adam state and a header (format, options, steps) to one file, through a temporary file
    /// renamed into place.
    void save(const std::string& path) const;
    /// Reads what save() wrote. `device` overrides the stored device when not empty.
    static ValueBaseline load(const std::string& path, const std::string& device = {});

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace creditlab::learn
