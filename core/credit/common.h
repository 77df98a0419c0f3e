#pragma once

// Shared building blocks of the estimators (CONVENTIONS.md "Shared conventions"). The action key is
// text::actionKey (core/model/text.h).

#include "core/credit/estimator.h"

#include <cmath>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace creditlab::credit {

/// CONVENTIONS.md: eps added to a standard deviation before dividing.
inline constexpr double kEps = 1e-6;

/// Mean of `values`; 0 for an empty list.
double mean(std::span<const double> values);
/// Sample standard deviation (n-1); 0 for fewer than two values.
double sampleStd(std::span<const double> values);
/// Population standard deviation (n); 0 for an empty list.
double populationStd(std::span<const double> values);

/// Step reward rho_{i,t} = r_{i,t} + [t = T_i] * R_i.
double stepReward(const Trajectory& t, std::size_t turn);
/// S_i as 1 or 0.
inline double successValue(const Trajectory& t) { return t.successOrDefault() ? 1.0 : 0.0; }

/// GRPO's per-trajectory advantage A_i (CONVENTIONS.md "grpo") for every trajectory of the batch,
/// honouring `binarize`, `norm_std` and `singleton` from `params`.
std::vector<double> grpoAdvantages(const Batch& batch, const Params& params);
/// The same from the columnar batch's rewards and successes (Columns::Outcomes), else from its source().
std::vector<double> grpoAdvantages(const CreditBatch& batch, const Params& params);
/// The ParamSpecs of grpo (`binarize`, `norm_std`, `singleton`), which triage, has and scalar_judge share.
std::vector<ParamSpec> grpoParamSpecs();
/// The `singleton` parameter (zero or pass): what a group of one trajectory gets, in grpo and loop.
ParamSpec singletonParamSpec();
/// Whether `singleton=pass`: a group of one has mean 0 and std 1, as verl's GRPO, RLOO and REINFORCE++.
inline bool singletonPasses(const Params& params) { return params.getChoice("singleton") == "pass"; }

/// Throws CreditInputError unless every turn has the field: "role", "progress" or "score".
void requireTurnField(const Batch& batch, std::string_view field, std::string_view method);
/// The turn's per-method credit entry named `name` (JSONL `"credit": {"<name>": x}`); nullopt when absent.
/// Learned models the trainer runs (TurnRD's r̂_t as "turnrd") hand their per-turn output to estimators this way.
std::optional<double> turnCredit(const Turn& turn, std::string_view name);
/// Throws CreditInputError naming the trajectory and turn when a turn lacks the credit entry `name`.
void requireTurnCredit(const Batch& batch, std::string_view name, std::string_view method);

/// How whitening divides: (x - mean) / (std + eps), CreditLab's, or (x - mean) / sqrt(var + eps), verl's
/// masked_whiten; the sample std and variance either way.
struct Whitening {
    double eps = kEps;
    bool onVariance = false;
};
/// The whitening keys `whiten_eps` and `whiten_eps_on` of triage, scalar_judge and value_baseline.
std::vector<ParamSpec> whiteningParamSpecs();
/// The Whitening those keys select.
Whitening whitening(const Params& params);
/// Whitening over all turns of the batch, sample std (triage, scalar_judge, value_baseline).
void whiten(std::vector<double>& values, Whitening how = {});
/// out = whiten(raw) without a copy: the same values, `out` sized as `raw`.
void whitenInto(std::span<const double> raw, std::vector<double>& out, Whitening how = {});

/// For a large buffer just allocated and not yet written (a million-turn column is 1 to 8 MB, a fresh mapping that
/// the first writes would fault in page by page): on Linux, asks for transparent huge pages where the system offers
/// them on request (the common "madvise" setting) and maps the buffer in one call. Page faults on fresh result
/// columns were most of a computation's time on large batches (docs/benchmarks.md). A hint; does nothing for
/// buffers under 4 MB or elsewhere.
void prepareLargeBuffer(const void* data, std::size_t bytes);

/// A value-initialised (zero) column of `n` values, prepared with prepareLargeBuffer().
template <typename T> std::vector<T> largeColumn(std::size_t n)
{
    std::vector<T> v;
    v.reserve(n);
    prepareLargeBuffer(v.data(), n * sizeof(T));
    v.resize(n);
    return v;
}

} // namespace creditlab::credit
