#pragma once

#include "core/model/trajectory.h"

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace creditlab::judge {

/// The four TRIAGE roles in index order (D, E, N, R), matching `static_cast<int>(Role)`.
inline constexpr std::size_t kRoleCount = 4;
inline constexpr std::array<Role, kRoleCount> kRoles { Role::D, Role::E, Role::N, Role::R };
inline constexpr std::size_t roleIndex(Role r) { return static_cast<std::size_t>(r); }

/// A malformed or invalid confusion matrix; `what()` says which row or cell and why.
class ConfusionError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

/// P(judged role | true role) for the four roles: rows are the true role, columns the judged one,
/// every entry in [0, 1] and every row summing to 1 within 1e-6. Immutable, any thread.
///
/// Text form (parse): either
/// - cells `T:J=p` separated by ',', ';' or white space, e.g. "R:R=0.2,R:D=0.4,R:N=0.4". A row that is
///   named by at least one cell consists of exactly its listed cells (unlisted cells are 0) and must sum to 1;
///   a row named by no cell is copied from `base`. So "R:D=1" overrides only row R.
/// - or 16 numbers in row-major order (rows and columns D, E, N, R), separated by ',', ';' or white space.
class ConfusionMatrix {
public:
    using Row = std::array<double, kRoleCount>;
    using Rows = std::array<Row, kRoleCount>;

    /// The identity: a perfect judge.
    ConfusionMatrix();
    /// Validates; throws ConfusionError naming the row.
    explicit ConfusionMatrix(const Rows& rows);

    /// Accuracy `a` on the diagonal and (1 − a)/3 in every off-diagonal cell. Throws unless a ∈ [0, 1].
    static ConfusionMatrix fromAccuracy(double accuracy);
    /// Parses the text form above; rows that it does not name come from `base`. Throws ConfusionError.
    static ConfusionMatrix parse(std::string_view text, const ConfusionMatrix& base = ConfusionMatrix());

    double probability(Role truth, Role judged) const { return m_rows[roleIndex(truth)][roleIndex(judged)]; }
    const Row& row(Role truth) const { return m_rows[roleIndex(truth)]; }
    const Rows& rows() const { return m_rows; }

    /// Samples a judged role for `truth` from a uniform `u` in [0, 1): the first role whose cumulative
    /// probability exceeds u. A zero cell is never chosen; rounding slack falls to the row's last non-zero cell.
    Role sample(Role truth, double u) const;

    /// The canonical text: every non-zero cell as `T:J=p`, row-major, joined by ';'. parse() reads it back.
    std::string toString() const;

    bool operator==(const ConfusionMatrix&) const = default;

private:
    Rows m_rows {};
};

} // namespace creditlab::judge
