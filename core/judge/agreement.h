#pragma once

#include "core/judge/confusion.h"
#include "core/model/trajectory.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace creditlab::judge {

/// Counts of (reference role, other role): rows are the reference, columns the other source.
using RoleCounts = std::array<std::array<std::int64_t, kRoleCount>, kRoleCount>;

/// One role's scores with the reference as truth. Undefined ratios (0/0) are nullopt.
struct RoleScores {
    std::int64_t support = 0; ///< reference turns with this role
    std::int64_t predicted = 0; ///< other-source turns with this role
    std::int64_t truePositives = 0;
    std::optional<double> precision; ///< tp / predicted
    std::optional<double> recall; ///< tp / support
    std::optional<double> f1; ///< 2tp / (support + predicted): 0 when one side has the role and they never meet
};

/// A TRIAGE conflict cell: reference turns of one role inside rollouts of one outcome, and how many of them
/// the other source labels otherwise. `rate` = missed / total, nullopt when total is 0.
struct ConflictCell {
    std::int64_t total = 0;
    std::int64_t missed = 0;
    std::optional<double> rate;
};

/// Agreement of two label sources over the turns that both label; `reference` (A) is taken as truth for
/// precision, recall and the conflict cells.
struct PairAgreement {
    std::int64_t count = 0; ///< turns labelled by both
    std::int64_t onlyReference = 0; ///< turns labelled by the reference only
    std::int64_t onlyOther = 0; ///< turns labelled by the other source only
    std::optional<double> accuracy; ///< observed agreement p_o; nullopt when count is 0
    /// Cohen's kappa (p_o − p_e)/(1 − p_e); nullopt when p_e = 1 (both use one and the same role) or count is 0.
    std::optional<double> kappa;
    RoleCounts confusion {};
    std::array<RoleScores, kRoleCount> roles {};
    std::optional<double> macroF1; ///< mean F1 over the roles whose F1 is defined
    /// TRIAGE conflict cell 1: reference R inside successful rollouts that the other source does not call R.
    ConflictCell regressionInSuccess;
    /// TRIAGE conflict cell 2: reference E inside failed rollouts that the other source does not call E.
    ConflictCell explorationInFailure;
    /// TRIAGE Table 4: binary F1 of each role within each outcome cell, [role][0 = failure, 1 = success].
    std::array<std::array<std::optional<double>, 2>, kRoleCount> cellF1 {};
};

/// Compares two aligned label vectors (one entry per turn, nullopt = unlabelled); `success[i]` is the
/// outcome of turn i's rollout. Throws std::invalid_argument when the sizes differ. Pure; any thread.
PairAgreement comparePair(std::span<const std::optional<Role>> reference, std::span<const std::optional<Role>> other,
    const std::vector<bool>& success);

/// Cohen's kappa of a square count matrix of any size (row = rater A, column = rater B): (p_o − p_e)/(1 − p_e)
/// with p_e = Σ_k (row_k/n)(col_k/n) (Cohen 1960). nullopt when n = 0 or p_e = 1.
std::optional<double> cohenKappa(std::span<const std::int64_t> counts, std::size_t categories);
std::optional<double> cohenKappa(const RoleCounts& counts);

/// A percentile bootstrap confidence interval on Cohen's kappa.
struct KappaInterval {
    std::optional<double> low; ///< nullopt when no resample has a defined kappa
    std::optional<double> high;
    int resamples = 0; ///< drawn
    int defined = 0; ///< resamples whose kappa is defined (p_e < 1); the percentiles are taken over these
};

/// The seed bootstrapKappa uses unless told otherwise: the same labels always give the same interval.
inline constexpr std::uint64_t kBootstrapSeed = 20240601;

/// Percentile bootstrap CI on cohenKappa over the turns both sources label (nullopt entries are left out, as in
/// comparePair): `resamples` times, draw that many turns with replacement, compute kappa of their confusion
/// matrix; low and high are the (1 − level)/2 and (1 + level)/2 quantiles of the defined kappas (linear
/// interpolation between order statistics, R's type 7). Resamples where kappa is undefined (every drawn turn one
/// and the same role for both) are skipped and counted out of `defined`. Draws come from std::mt19937_64 seeded
/// with `seed`, index = draw mod n, so the result is the same on every platform. Throws std::invalid_argument when
/// the sizes differ, `resamples` < 1 or `level` is not in (0, 1). Pure; any thread; O(resamples × turns).
KappaInterval bootstrapKappa(std::span<const std::optional<Role>> reference, std::span<const std::optional<Role>> other,
    int resamples = 1000, double level = 0.95, std::uint64_t seed = kBootstrapSeed);

/// Krippendorff's alpha with the nominal metric.
struct AlphaResult {
    std::optional<double> alpha; ///< nullopt when there are no pairable values or they all agree on one value
    std::int64_t units = 0; ///< units with at least two values (the pairable units)
    std::int64_t values = 0; ///< pairable values n
    std::int64_t coders = 0;
};

/// `coders[c][u]` is coder c's value for unit u (nullopt = missing); values are category codes ≥ 0. Units
/// with fewer than two values are dropped. alpha = 1 − D_o/D_e over the coincidence matrix o_ck
/// (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability", §C nominal):
/// alpha = ((n − 1) Σ_c o_cc − Σ_c n_c(n_c − 1)) / (n(n − 1) − Σ_c n_c(n_c − 1)).
/// Throws std::invalid_argument when coders' vectors differ in length or a code is negative.
AlphaResult krippendorffAlphaNominal(const std::vector<std::vector<std::optional<int>>>& coders);
/// The same over roles.
AlphaResult krippendorffAlpha(const std::vector<std::vector<std::optional<Role>>>& coders);

} // namespace creditlab::judge
