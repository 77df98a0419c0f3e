#pragma once

#include "core/probe/linearprobe.h"

#include <cstdint>

namespace creditlab::probe {

/// PAIR's Stage 2 (pair.md §2.4). Concat is Eq. 4 as published: a logistic regression on the scaled
/// [a ; s_bc]. LogitResidual is the released code's "PAIR-NEW": s_final = σ(z_base + Δ) with
/// Δ = w2ᵀ[â ; s_base] + b2, the attention scaled on its own and s_base left unscaled; Δ = 0 passes Stage 1 through.
/// The code trains Δ from zero with AdamW epochs and weight decay; here it is the exact minimiser of the same
/// BCE(z_base + Δ) plus Stage 2's ℓ2 penalty (C), so that the fit is deterministic and does not depend on a schedule.
enum class PairStage2Mode { Concat, LogitResidual };

/// Options of PairProbe::fit. Defaults follow the paper: C = 0.01 for both stages, mixed training data,
/// in-sample s_bc (pair.md §2.4 and §7.1 items 1 and 7).
struct PairProbeOptions {
    LogisticOptions stage1;
    LogisticOptions stage2;
    PairStage2Mode mode = PairStage2Mode::Concat;
    /// Rows Stage 1 fits on (empty = all rows, the code's "mixed"); e.g. clean rows only for §3.2's variant.
    /// s_bc is still computed for every row.
    std::vector<bool> stage1Rows;
    /// 0 = in-sample s_bc (faithful). K ≥ 2: Stage 2 trains on K-fold cross-fitted s_bc (§7.1 item 7); the
    /// Stage 1 used at scoring time is still the one fit on all Stage 1 rows.
    int crossFitFolds = 0;
    std::uint64_t crossFitSeed = 42;
};

/// Both stages' solver reports.
struct PairFitReport {
    LogisticFitReport stage1;
    LogisticFitReport stage2;
};

/// Stage 1 and final scores of a batch of evaluation turns.
struct PairScores {
    std::vector<double> stage1; ///< s_bc = σ(w1ᵀĥ + b1), Eq. 3
    std::vector<double> final; ///< s_final, Eq. 4 (or the logit-residual form)
};

/// PAIR's two-stage probe (pair.md §2.4): Stage 1 on the last-token, last-layer hidden state h, Stage 2 on the
/// multi-layer attention statistics a (4 stats × heads × layers) plus Stage 1's probability. Fit once offline,
/// then frozen; score() is the per-turn reward input. Rows of `hidden` and `attention` are the same turns.
/// A value type; any thread, no cancellation.
class PairProbe {
public:
    /// Fits both stages. Throws std::invalid_argument on mismatched row counts, a bad stage1Rows mask, a single
    /// class (in the data, the Stage 1 rows, or a cross-fitting fold).
    PairFitReport fit(const FeatureMatrix& hidden, const FeatureMatrix& attention, const std::vector<int>& labels,
        const PairProbeOptions& options = {});
    /// s_bc and s_final per row.
    PairScores scoreStages(const FeatureMatrix& hidden, const FeatureMatrix& attention) const;
    /// s_final = P(correct) per row.
    std::vector<double> score(const FeatureMatrix& hidden, const FeatureMatrix& attention) const;
    /// AUROC of s_final against `labels` (NaN when one class is absent).
    double evaluate(const FeatureMatrix& hidden, const FeatureMatrix& attention, const std::vector<int>& labels) const;

    bool fitted() const { return m_stage1.fitted() && m_stage2Model.fitted(); }
    PairStage2Mode mode() const { return m_mode; }
    const LinearProbe& stage1() const { return m_stage1; }
    /// Stage 2's scaler: over [a ; s_bc] in Concat, over a only in LogitResidual.
    const StandardScaler& stage2Scaler() const { return m_stage2Scaler; }
    /// Stage 2's classifier: d_attn + 1 weights, the last on s_bc (the weight inspector's "trust in Stage 1").
    const LogisticRegression& stage2Model() const { return m_stage2Model; }
    std::size_t attentionFeatures() const
    {
        return m_stage2Model.weights().empty() ? 0 : m_stage2Model.weights().size() - 1;
    }
    /// Restores a saved probe (probe JSON). Throws std::invalid_argument on inconsistent sizes.
    void restore(PairStage2Mode mode, LinearProbe stage1, StandardScaler stage2Scaler, LogisticRegression stage2Model);

private:
    std::vector<double> stage2Logit(
        const FeatureMatrix& attention, const std::vector<double>& sbc, const std::vector<double>& zbase) const;

    PairStage2Mode m_mode = PairStage2Mode::Concat;
    LinearProbe m_stage1;
    StandardScaler m_stage2Scaler;
    LogisticRegression m_stage2Model;
};

/// The stage-2 mode's name in files and on the command line: "concat" or "logit_residual".
const char* pairStage2ModeName(PairStage2Mode mode);
/// Parses pairStage2ModeName's output; throws std::invalid_argument otherwise.
PairStage2Mode pairStage2ModeFromName(const std::string& name);

} // namespace creditlab::probe
