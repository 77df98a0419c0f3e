#include "core/credit/creditbatch.h"

#include "core/credit/common.h"
#include "core/credit/keyindex.h"
#include "core/model/text.h"

namespace creditlab::credit {

CreditBatch::CreditBatch(const Batch& batch, Columns columns)
    : m_batch(&batch)
    , m_columns(columns)
{
    const std::size_t trajectories = batch.trajectories.size();
    const bool outcomes = hasColumns(columns, Columns::Outcomes);
    m_offsets.reserve(trajectories + 1);
    if (outcomes) {
        m_reward.reserve(trajectories);
        m_success.reserve(trajectories);
    }
    std::size_t n = 0;
    m_offsets.push_back(0);
    for (const Trajectory& t : batch.trajectories) {
        n += t.turns.size();
        m_offsets.push_back(n);
        if (outcomes) {
            m_reward.push_back(t.reward);
            m_success.push_back(t.successOrDefault() ? 1.0 : 0.0);
        }
    }
    build();
}

void CreditBatch::build()
{
    // One pass over the Turn structs (a few hundred bytes each, so each pass is a walk through memory), filling
    // every requested column at once.
    const bool rewards = hasColumns(m_columns, Columns::StepRewards);
    const bool validity = hasColumns(m_columns, Columns::Validity);
    const bool roles = hasColumns(m_columns, Columns::Roles);
    const bool states = hasColumns(m_columns, Columns::States);
    const bool actions = hasColumns(m_columns, Columns::Actions);
    const bool pairs = states && actions;
    if (!rewards && !validity && !roles && !states && !actions)
        return;
    const std::size_t n = turnCount();
    if (rewards)
        m_stepReward = largeColumn<double>(n);
    if (validity)
        m_valid = largeColumn<std::uint8_t>(n);
    if (roles)
        m_role = largeColumn<std::uint8_t>(n);
    KeyIndex<std::string_view, StringHash> stateIndex;
    if (states) {
        stateIndex.reset(1024); // grows with the distinct states
        m_stateId = largeColumn<std::uint32_t>(n);
    }
    // Most actions repeat verbatim, so the raw text is interned first and only a new raw text is turned into its
    // key (text::actionKey) and interned among the keys.
    KeyIndex<std::string_view, StringHash> rawActions;
    KeyIndex<std::string_view, StringHash> keyIndex;
    std::vector<std::uint32_t> keyOfRaw;
    if (actions) {
        rawActions.reset(64);
        keyIndex.reset(64);
        m_actionId = largeColumn<std::uint32_t>(n);
    }
    KeyIndex<std::uint64_t, MixHash> pairIndex;
    if (pairs) {
        pairIndex.reset(1024);
        m_pairId = largeColumn<std::uint32_t>(n);
    }

    std::size_t k = 0;
    for (const Trajectory& t : m_batch->trajectories) {
        for (const Turn& u : t.turns) {
            if (rewards)
                m_stepReward[k] = u.rewardOrDefault();
            if (validity)
                m_valid[k] = u.validOrDefault() ? 1 : 0;
            if (roles)
                m_role[k] = u.role ? static_cast<std::uint8_t>(*u.role) : kNoRole;
            if (states)
                m_stateId[k] = stateIndex.intern(u.stateKey());
            if (actions) {
                bool inserted = false;
                const std::uint32_t raw = rawActions.intern(u.action, inserted);
                if (inserted) {
                    // The index keeps a view, so the candidate goes where keys stay put (a deque never moves them).
                    std::string& key = m_actionKeys.emplace_back();
                    text::appendActionKey(key, u.action);
                    bool newKey = false;
                    keyOfRaw.push_back(keyIndex.intern(key, newKey));
                    if (!newKey)
                        m_actionKeys.pop_back();
                }
                m_actionId[k] = keyOfRaw[raw];
            }
            if (pairs)
                m_pairId[k] = pairIndex.intern((static_cast<std::uint64_t>(m_stateId[k]) << 32) | m_actionId[k]);
            ++k;
        }
        if (rewards && !t.turns.empty())
            m_stepReward[k - 1] += t.reward; // rho_{i,T} = r_{i,T} + R_i
    }
    if (states) {
        m_stateText.reserve(stateIndex.size());
        for (std::uint32_t id = 0; id < stateIndex.size(); ++id)
            m_stateText.push_back(stateIndex.key(id));
    }
    m_pairCount = pairIndex.size();
}

} // namespace creditlab::credit
