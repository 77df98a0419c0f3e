#include "core/learn/torch/lm/sequence.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace creditlab::learn {

namespace {
constexpr std::int32_t kMinimumBudget = 8;
}

std::int32_t TrainSequence::position(std::int32_t i) const
{
    for (const Branch& b : branches)
        if (i >= b.begin && i < b.end)
            return b.forkAt + (i - b.begin);
    return i;
}

bool TrainSequence::sees(std::int32_t q, std::int32_t k) const
{
    if (k > q)
        return false;
    const std::int32_t stream = streamLength();
    if (q < stream)
        return true; // k <= q on the stream
    for (const Branch& b : branches)
        if (q >= b.begin && q < b.end)
            return k < b.forkAt || k >= b.begin;
    return false;
}

std::int64_t TrainSequence::actionTokens() const
{
    std::int64_t n = 0;
    for (const ActionSpan& s : spans)
        n += s.end - s.begin;
    return n;
}

EpisodeStream::EpisodeStream(std::vector<std::int32_t> goal, std::int32_t context, std::int32_t actionBudget)
    : m_goal(std::move(goal))
    , m_context(context)
    , m_actionBudget(actionBudget)
{
    if (context - actionBudget < kMinimumBudget)
        throw std::invalid_argument("policy.context (" + std::to_string(context) + ") must exceed "
            + "policy.max_action_tokens (" + std::to_string(actionBudget) + ") by at least "
            + std::to_string(kMinimumBudget));
}

std::vector<std::int32_t> EpisodeStream::restartWith(const ObservationChunk& chunk) const
{
    const std::size_t budget = static_cast<std::size_t>(m_context - m_actionBudget);
    const std::size_t turns = m_actions.size(); // the turns before the current one
    std::vector<std::int32_t> goal = m_goal;
    std::vector<std::int32_t> now = chunk.ids;
    // The scene: turn 0's observation without its tail (<act>, or the chat template's generation prompt).
    std::vector<std::int32_t> scene;
    if (!m_chunks.empty())
        scene.assign(m_chunks.front().ids.begin(), m_chunks.front().ids.end() - m_chunks.front().tail);
    // Latest whole turns first while they fit; the scene ranks above any of them once turn 0 is not shown.
    std::size_t first = turns;
    std::size_t used = goal.size() + now.size();
    const auto turnLength = [&](std::size_t k) { return m_chunks[k].ids.size() + m_actions[k].size(); };
    const std::size_t sceneCost = turns > 0 ? scene.size() : 0;
    while (first > 0) {
        const std::size_t extra = turnLength(first - 1);
        const std::size_t withScene = first - 1 > 0 ? sceneCost : 0;
        if (used + extra + withScene > budget)
            break;
        used += extra;
        --first;
    }
    bool showScene = first > 0 && !scene.empty() && used + scene.size() <= budget;
    if (used > budget) {
        // Not even the goal and this turn's chunk fit: cut the observation's front (keep the lead and the tail).
        const std::size_t wrapper = static_cast<std::size_t>(chunk.lead + chunk.tail);
        const std::size_t excess = std::min(used - budget, now.size() - std::min(wrapper, now.size()));
        now.erase(now.begin() + chunk.lead, now.begin() + chunk.lead + static_cast<std::ptrdiff_t>(excess));
        used -= excess;
        if (used > budget)
            goal.resize(goal.size() - (used - budget));
    }
    std::vector<std::int32_t> out = goal;
    if (showScene)
        out.insert(out.end(), scene.begin(), scene.end());
    for (std::size_t k = first; k < turns; ++k) {
        out.insert(out.end(), m_chunks[k].ids.begin(), m_chunks[k].ids.end());
        out.insert(out.end(), m_actions[k].begin(), m_actions[k].end());
    }
    out.insert(out.end(), now.begin(), now.end());
    return out;
}

bool EpisodeStream::beginTurn(const ObservationChunk& chunk)
{
    const bool firstTurn = m_chunks.empty();
    m_chunks.push_back(chunk);
    m_chunks.back().ids.shrink_to_fit();
    if (firstTurn) {
        m_tokens = m_goal;
        m_tokens.insert(m_tokens.end(), chunk.ids.begin(), chunk.ids.end());
        if (static_cast<std::int32_t>(m_tokens.size()) + m_actionBudget <= m_context)
            return false;
        m_chunks.pop_back(); // restartWith reads the turns before this one
        m_tokens = restartWith(chunk);
        m_chunks.push_back(chunk);
        return false; // nothing fed yet: nothing to clear
    }
    if (static_cast<std::int32_t>(m_tokens.size() + chunk.ids.size()) + m_actionBudget <= m_context) {
        m_tokens.insert(m_tokens.end(), chunk.ids.begin(), chunk.ids.end());
        return false;
    }
    // Overflow: close this segment and restart from the goal, the scene and the latest turns.
    TrainSequence done;
    done.tokens = std::move(m_tokens);
    done.spans = std::move(m_spans);
    done.segment = m_segment;
    m_done.push_back(std::move(done));
    m_spans.clear();
    m_chunks.pop_back();
    m_tokens = restartWith(chunk);
    m_chunks.push_back(chunk);
    m_fed = 0;
    ++m_segment;
    return true;
}

std::vector<std::int32_t> EpisodeStream::unfed() const
{
    return { m_tokens.begin() + std::min<std::size_t>(m_fed, m_tokens.size()), m_tokens.end() };
}

void EpisodeStream::endTurn(const std::vector<std::int32_t>& action, bool trained)
{
    ActionSpan span;
    span.begin = static_cast<std::int32_t>(m_tokens.size());
    span.end = span.begin + static_cast<std::int32_t>(action.size());
    span.from = span.begin - 1;
    span.turn = m_actions.size();
    m_tokens.insert(m_tokens.end(), action.begin(), action.end());
    if (trained)
        m_spans.push_back(span);
    m_actions.push_back(action);
}

std::vector<TrainSequence> EpisodeStream::finish(std::size_t trajectory) const
{
    std::vector<TrainSequence> out = m_done;
    if (!m_actions.empty()) {
        TrainSequence last;
        last.tokens = m_tokens;
        last.spans = m_spans;
        last.segment = m_segment;
        out.push_back(std::move(last));
    }
    for (auto& s : out)
        s.trajectory = trajectory;
    return out;
}

std::vector<std::int32_t> EpisodeStream::nextContext(const ObservationChunk& chunk) const
{
    if (static_cast<std::int32_t>(m_tokens.size() + chunk.ids.size()) + m_actionBudget <= m_context) {
        auto out = m_tokens;
        out.insert(out.end(), chunk.ids.begin(), chunk.ids.end());
        return out;
    }
    return restartWith(chunk);
}

} // namespace creditlab::learn
