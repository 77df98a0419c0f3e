#include "core/credit/creditbatch.h"

#include "core/credit/keyindex.h"
#include "core/text.h"

namespace creditlab::credit {

CreditBatch::CreditBatch(const Batch& batch, Columns columns)
    : m_batch(&batch)
    , m_columns(columns)
{
    const std::size_t trajectories = batch.trajectories.size();
    m_offsets.reserve(trajectories + 1);
    m_reward.reserve(trajectories);
    m_success.reserve(trajectories);
    std::size_t n = 0;
    m_offsets.push_back(0);
    for (const Trajectory& t : batch.trajectories) {
        n += t.turns.size();
        m_offsets.push_back(n);
        m_reward.push_back(t.reward);
        m_success.push_back(t.successOrDefault() ? 1.0 : 0.0);
    }
    if (hasColumns(columns, Columns::Turns))
        buildTurns();
    if (hasColumns(columns, Columns::States))
        buildStates();
    if (hasColumns(columns, Columns::Actions))
        buildActions();
    if (hasColumns(columns, Columns::States | Columns::Actions))
        buildPairs();
}

void CreditBatch::buildTurns()
{
    const std::size_t n = turnCount();
    m_stepReward.resize(n);
    m_valid.resize(n);
    m_role.resize(n);
    std::size_t k = 0;
    for (const Trajectory& t : m_batch->trajectories) {
        for (const Turn& u : t.turns) {
            m_stepReward[k] = u.rewardOrDefault();
            m_valid[k] = u.validOrDefault() ? 1 : 0;
            m_role[k] = u.role ? static_cast<std::uint8_t>(*u.role) : kNoRole;
            ++k;
        }
        if (!t.turns.empty())
            m_stepReward[k - 1] += t.reward; // rho_{i,T} = r_{i,T} + R_i
    }
}

void CreditBatch::buildStates()
{
    KeyIndex<std::string_view> index;
    index.reset(1024); // grows with the distinct states
    m_stateId.resize(turnCount());
    std::size_t k = 0;
    for (const Trajectory& t : m_batch->trajectories)
        for (const Turn& u : t.turns)
            m_stateId[k++] = index.intern(u.stateKey());
    m_stateText.reserve(index.size());
    for (std::uint32_t id = 0; id < index.size(); ++id)
        m_stateText.push_back(index.key(id));
}

void CreditBatch::buildActions()
{
    // Most actions repeat verbatim, so the raw text is interned first and only a new raw text is turned into its
    // key (text::actionKey) and interned among the keys.
    KeyIndex<std::string_view> raw;
    KeyIndex<std::string_view> keys;
    raw.reset(64);
    keys.reset(64);
    std::vector<std::uint32_t> keyOfRaw;
    m_actionId.resize(turnCount());
    std::size_t k = 0;
    for (const Trajectory& t : m_batch->trajectories) {
        for (const Turn& u : t.turns) {
            bool inserted = false;
            const std::uint32_t r = raw.intern(u.action, inserted);
            if (inserted) {
                // The index keeps a view, so the candidate goes where keys stay put (a deque never moves them).
                std::string& key = m_actionKeys.emplace_back();
                text::appendActionKey(key, u.action);
                bool newKey = false;
                keyOfRaw.push_back(keys.intern(key, newKey));
                if (!newKey)
                    m_actionKeys.pop_back();
            }
            m_actionId[k++] = keyOfRaw[r];
        }
    }
}

void CreditBatch::buildPairs()
{
    KeyIndex<std::uint64_t, MixHash> pairs;
    pairs.reset(1024);
    m_pairId.resize(turnCount());
    for (std::size_t k = 0; k < m_pairId.size(); ++k)
        m_pairId[k] = pairs.intern((static_cast<std::uint64_t>(m_stateId[k]) << 32) | m_actionId[k]);
    m_pairCount = pairs.size();
}

} // namespace creditlab::credit
