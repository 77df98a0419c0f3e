#pragma once

// TurnRD, the learned per-turn reward decomposer of HAS ("Hybrid Advantage Shaping with Goal-Aware Attention",
// notes in shared/methods/has_turnrd.md §2.5–2.10, §2.13–2.14). Torch-free header: the network lives behind a
// pimpl (turnrd_p.h), so Qt code and the torch-free trainer API can include this.

#include "core/learn/torch/turnrd/turnrdreplay.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace creditlab::learn {

namespace dist {
class Communicator;
}

/// Which per-turn credit TurnRD hands to HAS.
enum class TurnRdCreditMode {
    ValueProjection, ///< Eq. 5: r̂_t = clip(V_t, −c, c) − (Σ_s clip(V_s, −c, c) − R)/T; the paper's main mode
    Attention, ///< r̂_t = w_t · R, the implied alternative (§2.7, "TurnRD(attn)")
};

/// How the replay's recency weight ω enters training (§2.9).
enum class TurnRdRecency {
    Sampling, ///< [note's choice] minibatches drawn with replacement ∝ ω; one epoch = |replay| draws
    LossWeighting, ///< [note's alternative] every record once per epoch, its loss terms weighted by ω
};

/// Every TurnRD setting. Defaults: the paper's AlfWorld TurnRD+FiLM (Table 6) where it states a value, the note's
/// choices where it is silent; each field says which.
struct TurnRdOptions {
    std::int64_t inputWidth = 1536; ///< D of the policy's hidden states [paper: 1536 for Qwen2.5-1.5B]
    std::int64_t goalWidth = 1536; ///< g_dim [choice: mean-pooled policy hiddens over the goal, so = D]
    std::int64_t modelWidth = 128; ///< d_model [paper: H=128]
    std::int64_t heads = 4; ///< [paper]
    std::int64_t layers = 2; ///< [paper]
    std::int64_t ffnWidth = 512; ///< [choice: not given]
    std::int64_t maxTurns = 50; ///< learned positions [paper: 50 AlfWorld, 16 WebShop]
    double dropout = 0.1; ///< [paper]
    bool film = true; ///< goal-aware residual FiLM (§2.6); false = the goal-blind TurnRD
    bool separateHeadFilm = false; ///< [note §7.2 option] own FiLM for the attention head; default one shared FiLM
    TurnRdCreditMode creditMode = TurnRdCreditMode::ValueProjection; ///< [paper: value projection]
    double clamp = 2.0; ///< c of Eq. 5 [paper]
    double lambdaValue = 1.0; ///< λ_V [paper: 1.0 AlfWorld, 0.5 WebShop]
    double lambdaRank = 0.1; ///< λ_rank [paper]
    double lambdaProgress = 0.01; ///< λ_prog [paper]
    double rankMargin = 0.1; ///< [paper]
    double progressEpsilon = 1e-3; ///< ε_q of the progress prior q_t ∝ |Δp_t| + ε_q [choice]
    double learningRate = 5e-4; ///< [paper]
    double weightDecay = 0.01; ///< AdamW [choice]
    std::int64_t epochs = 5; ///< per round [paper]
    std::int64_t batchSize = 64; ///< trajectories per minibatch [choice]
    double gradClip = 1.0; ///< global grad-norm clip [choice]
    TurnRdRecency recency = TurnRdRecency::Sampling;
    std::int64_t probeTrajectories = 256; ///< at most this many latest-round records feed the per-round probes
    std::uint64_t seed = 0; ///< initial weights, dropout masks, minibatch draws and the goal shuffle
    std::string device = "cpu"; ///< "cpu" or "cuda[:N]" (resolveDevice()'s names); fixed for the object's life
};

/// Per-trajectory output of a credit pass; every vector has T entries (the padded turns are dropped).
struct TurnRdCredit {
    std::vector<double> credit; ///< r̂_t in the configured mode; Σ_t r̂_t = R
    std::vector<double> attention; ///< w_t (Σ_t w_t = 1)
    std::vector<double> value; ///< V_t (before the clamp)
    double predictedReturn = 0.0; ///< R̂ = Σ_t w_t V_t
};

/// Mean loss terms over one epoch's steps (§2.8), unweighted; the total is
/// pred + λ_V·value + λ_rank·rank + λ_prog·progress.
struct TurnRdLosses {
    double total = 0.0;
    double pred = 0.0;
    double value = 0.0;
    double rank = 0.0;
    double progress = 0.0;
};

/// FiLM and conservation diagnostics on a probe set (§2.13, §2.14).
struct TurnRdProbes {
    std::int64_t trajectories = 0;
    double conservationDrift = 0.0; ///< max_i |Σ_t r̂_{i,t} − R_i| (§2.14)
    double deltaGammaNorm = 0.0; ///< mean over trajectories of ‖Δγ‖₂ (the paper's "γ norm", §2.6/§7.1)
    double betaNorm = 0.0; ///< mean of ‖β‖₂
    double zeroFilmChange = 0.0; ///< Σ|V^FiLM − V^{Δγ=β=0}| / Σ|V^FiLM| over active turns (§2.13a)
    double goalShuffleMseChange = 0.0; ///< (MSE_shuffled − MSE)/MSE of the V-head (§2.13b)
    double goalShuffleWorseFraction = 0.0; ///< share of trajectories whose own MSE got worse when shuffled
    double returnMse = 0.0; ///< mean (R̂ − R)², the return reconstruction of Eq. 7 on the probe set
    double rankAccuracy = 0.0; ///< share of pairs with R_i > R_j that have R̂_i > R̂_j (0 without such pairs)
    std::int64_t rankPairs = 0; ///< how many such pairs
};

/// What one TurnRD stage of Algorithm 1 (line 12) did.
struct TurnRdRoundStats {
    std::int64_t round = 0; ///< r_now: the round whose data was just collected
    std::int64_t steps = 0; ///< optimizer steps
    std::int64_t samples = 0; ///< trajectories drawn over all epochs
    std::vector<TurnRdLosses> epochs; ///< one entry per finished epoch
    TurnRdLosses last; ///< the last epoch's means (the same as epochs.back())
    double gradNorm = 0.0; ///< the last step's global gradient norm before clipping
    double deltaGammaChange = 0.0; ///< how much ‖Δγ‖ moved this round (probe after − probe before)
    TurnRdProbes probes; ///< on the latest round's records after training
    double seconds = 0.0;
    bool cancelled = false; ///< the progress callback asked to stop; the weights hold the last finished step
};

/// Progress of trainRound(), reported after every step.
struct TurnRdProgress {
    std::int64_t epoch = 0;
    std::int64_t step = 0;
    std::int64_t stepsPerEpoch = 0;
    double loss = 0.0;
};

/// The TurnRD decomposer: input projection, learned positions, a 2-layer bidirectional pre-LN encoder,
/// zero-initialised residual FiLM from the goal, attention and value heads, the credit of Eq. 5, the loss of §2.8
/// trained on a recency-weighted replay (§2.9), and checkpoints. Deterministic for a seed on a given device.
/// Not thread-safe: one worker thread owns it (it may be created on one thread and used on another, one at a
/// time). Methods throw std::invalid_argument on malformed inputs and std::runtime_error on file errors.
class TurnRd {
public:
    explicit TurnRd(const TurnRdOptions& options);
    ~TurnRd();
    TurnRd(TurnRd&&) noexcept;
    TurnRd& operator=(TurnRd&&) noexcept;
    TurnRd(const TurnRd&) = delete;
    TurnRd& operator=(const TurnRd&) = delete;

    const TurnRdOptions& options() const;
    std::int64_t parameterCount() const;
    /// Every parameter's values by name (flattened), in registration order: for diagnostics and tests.
    std::vector<std::pair<std::string, std::vector<float>>> parameters() const;
    /// Rounds trained so far (trainRound() calls that finished or were cancelled).
    std::int64_t roundsTrained() const;

    /// Per-turn credits for each trajectory (inference: eval mode, no dropout, no gradients). Algorithm 1 line 8
    /// with the frozen φ_r. Batches internally by options().batchSize.
    std::vector<TurnRdCredit> credit(const std::vector<TurnRdTrajectory>& trajectories) const;

    /// The TurnRD stage of Algorithm 1 (line 12): `epochs` epochs of AdamW on the replay with recency weights
    /// relative to `currentRound`, warm-started from the current weights [note's choice], then probes on the
    /// latest round's records. `progress` (optional) is called after each step; returning false stops early.
    /// With `comm` of several ranks (a data-parallel run; every rank holds the same replay and calls this), each
    /// minibatch is shared out: a rank runs the forward and backward passes of its contiguous share of the minibatch's
    /// trajectories, their per-trajectory loss terms normalised over the whole minibatch; the ranking term, which pairs
    /// trajectories, is differentiated on the gathered predictions and reaches each rank's passes as Σ_i g_i·R̂_i over
    /// its own i; the gradients are summed over the ranks before the clip and every rank steps. Every rank returns the
    /// same statistics (the whole minibatch's losses). A progress callback that stops must stop every rank alike.
    TurnRdRoundStats trainRound(const TurnRdReplay& replay, std::int64_t currentRound,
        const std::function<bool(const TurnRdProgress&)>& progress = {}, dist::Communicator* comm = nullptr);

    /// The §2.13/§2.14 probes on any set of trajectories (eval mode, no gradients).
    TurnRdProbes probe(const std::vector<TurnRdTrajectory>& trajectories) const;

    /// Writes the module, the AdamW state and a header (format version, every option, rounds trained) to one
    /// file, through a temporary file renamed into place.
    void save(const std::string& path) const;
    /// Reads what save() wrote. `device` overrides the stored device when not empty.
    static TurnRd load(const std::string& path, const std::string& device = {});

private:
    struct Private;
    std::unique_ptr<Private> d;
};

/// Eq. 5 on plain numbers: the value projection of `values` onto Σ = `reward` with clamp `clamp`.
std::vector<double> turnRdValueProjection(const std::vector<double>& values, double reward, double clamp);

} // namespace creditlab::learn
