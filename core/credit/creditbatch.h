#pragma once

// The columnar form of a Batch that the estimators compute on. A Batch is an array of Turn structs of a few
// hundred bytes each, with the state and action as strings; the methods that match states and actions (gigpo,
// rtmc, mgr) would otherwise hash those strings on every turn of every computation. A CreditBatch reads the
// Batch once: it interns each turn's state key and action key (CONVENTIONS.md) to dense ids, and copies the few
// per-turn numbers the estimators read into flat arrays. Build it once and hand it to any number of methods.

#include "core/model/trajectory.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace creditlab::credit {

/// Which columns a CreditBatch holds; flags, combined with |. The offsets are always there.
enum class Columns : std::uint8_t {
    None = 0,
    StepRewards = 1, ///< rho_{i,t}
    Validity = 2,
    Roles = 4,
    States = 8, ///< interned state keys (Turn::stateKey())
    Actions = 16, ///< interned action keys (text::actionKey())
    Outcomes = 32, ///< per trajectory: R_i and S_i
    All = 63, ///< with States and Actions together also the interned (state, action) pairs
};
constexpr Columns operator|(Columns a, Columns b)
{
    return static_cast<Columns>(static_cast<std::uint8_t>(a) | static_cast<std::uint8_t>(b));
}
/// Whether `set` holds every column of `wanted`.
constexpr bool hasColumns(Columns set, Columns wanted)
{
    return (static_cast<std::uint8_t>(set) & static_cast<std::uint8_t>(wanted)) == static_cast<std::uint8_t>(wanted);
}

/// A Batch in columns: flat per-turn arrays in batch order (turn t of trajectory i at offsets()[i] + t), the
/// per-trajectory outcome, and dense ids for the state and action keys. Ids are batch-wide and exact: two turns
/// have the same id exactly when their keys are equal strings, so no hash collision can merge two keys. Ids
/// number the keys in order of first appearance in the batch. Keeps a reference to the Batch, which must
/// outlive it and stay unchanged. Immutable once built: any thread may read it, several at once.
class CreditBatch {
public:
    /// The role column's value for a turn without a role.
    static constexpr std::uint8_t kNoRole = 0xff;

    /// Builds `columns` from `batch` in one pass over its turns (O(turns), one hash per state and per action).
    explicit CreditBatch(const Batch& batch, Columns columns = Columns::All);
    CreditBatch(Batch&&, Columns = Columns::All) = delete; // it would outlive a temporary Batch

    const Batch& source() const { return *m_batch; }
    const std::vector<Group>& groups() const { return m_batch->groups; }
    Columns columns() const { return m_columns; }
    std::size_t trajectoryCount() const { return m_offsets.size() - 1; }
    std::size_t turnCount() const { return m_offsets.back(); }

    /// trajectoryCount() + 1 entries; trajectory i's turns are [offsets[i], offsets[i + 1]).
    const std::vector<std::size_t>& offsets() const { return m_offsets; }
    /// Columns::Outcomes: R_i, the terminal reward, per trajectory.
    std::span<const double> rewards() const { return m_reward; }
    /// Columns::Outcomes: S_i as 1 or 0 (CONVENTIONS.md: `success`, default R_i > 0), per trajectory.
    std::span<const double> successes() const { return m_success; }

    /// Columns::StepRewards: rho_{i,t} = r_{i,t} + [t = T_i] R_i (CONVENTIONS.md "Step reward"), per turn.
    std::span<const double> stepRewards() const { return m_stepReward; }
    /// Columns::Validity: 1 when the turn is valid (default true), else 0.
    std::span<const std::uint8_t> valid() const { return m_valid; }
    /// Columns::Roles: the Role as its index (D, E, N, R = 0..3), kNoRole when absent.
    std::span<const std::uint8_t> roles() const { return m_role; }

    /// Columns::States: the id of each turn's state key, 0 .. stateCount() - 1.
    std::span<const std::uint32_t> stateIds() const { return m_stateId; }
    std::size_t stateCount() const { return m_stateText.size(); }
    /// The state key with id `id` (a view into the Batch).
    std::string_view stateText(std::uint32_t id) const { return m_stateText[id]; }

    /// Columns::Actions: the id of each turn's action key, 0 .. actionCount() - 1.
    std::span<const std::uint32_t> actionIds() const { return m_actionId; }
    std::size_t actionCount() const { return m_actionKeys.size(); }
    /// The action key with id `id`.
    std::string_view actionKeyText(std::uint32_t id) const { return m_actionKeys[id]; }

    /// Columns::States and Columns::Actions: the id of each turn's (state key, action key) pair, 0 .. pairCount() - 1.
    std::span<const std::uint32_t> pairIds() const { return m_pairId; }
    std::size_t pairCount() const { return m_pairCount; }

private:
    void build();

    const Batch* m_batch;
    Columns m_columns;
    std::vector<std::size_t> m_offsets;
    std::vector<double> m_reward;
    std::vector<double> m_success;
    std::vector<double> m_stepReward;
    std::vector<std::uint8_t> m_valid;
    std::vector<std::uint8_t> m_role;
    std::vector<std::uint32_t> m_stateId;
    std::vector<std::string_view> m_stateText;
    std::vector<std::uint32_t> m_actionId;
    std::deque<std::string> m_actionKeys; ///< by id
    std::vector<std::uint32_t> m_pairId;
    std::size_t m_pairCount = 0;
};

} // namespace creditlab::credit
