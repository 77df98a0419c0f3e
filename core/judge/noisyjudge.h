#pragma once

#include "core/credit/params.h"
#include "core/judge/confusion.h"
#include "core/model/trajectory.h"

#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace creditlab::judge {

/// The `noisy` judge: passes true roles (e.g. the oracle's) through a 4×4 confusion matrix, to study how
/// judge errors move credit. Inside successful rollouts an optional second matrix applies instead, which
/// models TRIAGE's worst case (regressions missed inside successful rollouts, paper §4 Table 4).
///
/// Parameters (dotted keys, `--set key=value`):
/// - `accuracy` (0.8): the diagonal when no matrix row is given; errors spread uniformly, (1 − a)/3 each;
/// - `matrix` (""): rows given here replace the accuracy rows (ConfusionMatrix::parse text form);
/// - `success_matrix` (""): rows for turns of successful rollouts; rows it does not name come from `matrix`;
/// - `seed` (0): the mt19937_64 seed.
///
/// Draw order: one 53-bit uniform per turn, labelled or not, trajectory by trajectory and turn by turn, so the
/// noise of a turn depends only on the seed and its position. Not thread-safe (it owns its generator).
class NoisyJudge {
public:
    static constexpr std::string_view kName = "noisy";

    /// The parameter metadata, for the CLI and forms.
    static const std::vector<credit::ParamSpec>& params();
    /// Resolves `assignments` over the defaults. Throws credit::ParamError or ConfusionError naming the key.
    static NoisyJudge resolve(const std::vector<std::pair<std::string, std::string>>& assignments);

    NoisyJudge(ConfusionMatrix matrix, std::optional<ConfusionMatrix> successMatrix, std::uint64_t seed);

    std::string_view name() const { return kName; }
    /// The canonical parameter tag that keys stored labels: "noisy:accuracy=0.8,seed=0", with
    /// `matrix=` and `success_matrix=` (canonical cell text) included only when set.
    const std::string& tag() const { return m_tag; }
    const ConfusionMatrix& matrix() const { return m_matrix; }
    /// The matrix used inside successful rollouts (the plain matrix when no success_matrix was given).
    const ConfusionMatrix& matrixFor(bool success) const
    {
        return success && m_successMatrix ? *m_successMatrix : m_matrix;
    }
    std::uint64_t seed() const { return m_seed; }

    /// Restarts the generator from the seed.
    void reset() { m_rng.seed(m_seed); }
    /// Restarts the stream at a position derived from `stream` (e.g. a training iteration), so that each
    /// iteration's noise is independent yet reproducible on its own.
    void reset(std::uint64_t stream) { m_rng.seed(m_seed ^ (stream * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL)); }
    /// Judges one turn: draws one uniform and samples the row of `truth`.
    Role judge(Role truth, bool success);
    /// Judges one trajectory's turns in order; an unlabelled turn stays unlabelled but still uses its draw.
    std::vector<std::optional<Role>> judgeTrajectory(std::span<const std::optional<Role>> truth, bool success);

private:
    double uniform();

    ConfusionMatrix m_matrix;
    std::optional<ConfusionMatrix> m_successMatrix;
    std::uint64_t m_seed = 0;
    std::mt19937_64 m_rng;
    std::string m_tag;
};

} // namespace creditlab::judge
