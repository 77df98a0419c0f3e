#pragma once

// Training sequences: what the update and SFT train on, in both memory modes. Torch-free.
//
// Episode mode (policy.memory: episode): an episode is one token stream
//
//     <goal> goal <obs> o_0 <act> a_0 </act> <obs> o_1 <act> a_1 </act> ...
//
// whose action tokens are exactly the tokens that were sampled (never decoded and re-encoded). When the stream
// would pass the context, it restarts from the goal, the scene and the latest turns that fit (the overflow), and the
// episode trains as one sequence per segment. Window mode (policy.memory: window): every turn is its own sequence,
// its prompt (the last policy.history turns) followed by its action.
//
// A sequence may also carry branches: tokens placed after the stream that continue it from an earlier point and see
// only the stream up to there (a tree attention mask). SFT uses them to train the expert's action in a state where
// the stream itself goes on with another action (noisy-expert and DAgger episodes).

#include "core/learn/torch/lm/tokenformat.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace creditlab::learn {

/// The tokens of one action inside a sequence: tokens[begin, end) (the stop token included when it was written).
/// tokens[begin] is predicted by the output at `from` (begin - 1 on the stream; the fork point's last token for a
/// branch), every later token by the output just before it.
struct ActionSpan {
    std::int32_t begin = 0;
    std::int32_t end = 0;
    std::int32_t from = 0;
    std::size_t turn = 0; ///< the turn of the trajectory this action was taken (or labelled) at
    double advantage = 0.0; ///< set by the iteration before the update
};

/// tokens[begin, end) continue the stream's tokens [0, forkAt) and see nothing else of the sequence.
struct Branch {
    std::int32_t begin = 0;
    std::int32_t end = 0;
    std::int32_t forkAt = 0;
};

struct TrainSequence {
    std::vector<std::int32_t> tokens; ///< the stream, then the branches
    std::vector<Branch> branches; ///< in token order, after the stream
    std::vector<ActionSpan> spans; ///< the trained actions, by turn
    std::size_t trajectory = 0; ///< index into the batch's trajectories (or the demonstrations' episodes)
    std::int32_t segment = 0; ///< 0 for an episode's first segment; counts the overflows before it
    /// A rollout's: each action token's log-probability when it was sampled, in span order (as actionTokens()
    /// counts them); empty for demonstrations.
    std::vector<float> behaviour;

    std::int32_t size() const { return static_cast<std::int32_t>(tokens.size()); }
    /// Where the stream ends: the first branch's begin, or the size.
    std::int32_t streamLength() const { return branches.empty() ? size() : branches.front().begin; }
    /// The position id of token i: its index on the stream, forkAt + offset on a branch.
    std::int32_t position(std::int32_t i) const;
    /// Whether token q attends to token k (causal on the stream; a branch sees the stream before its fork and itself).
    bool sees(std::int32_t q, std::int32_t k) const;
    /// Action tokens over all spans.
    std::int64_t actionTokens() const;
};

/// One episode's token stream while it is generated (episode mode), split into segments at overflows.
/// Usage per turn: beginTurn(chunk) appends the observation's chunk ("<obs> o <act>" for a built-in policy; after the
/// goal on the first turn, and after a restart when the stream would pass `context`), unfed() gives the tokens the KV
/// cache has not seen, markFed() records that they were fed, endTurn(action) appends the sampled tokens. Any thread;
/// one object per episode.
class EpisodeStream {
public:
    /// `goal`: "<goal> goal" ids; `context`: the policy's context; `actionBudget`: most tokens of one action.
    /// Throws std::invalid_argument when context - actionBudget < 8.
    EpisodeStream(std::vector<std::int32_t> goal, std::int32_t context, std::int32_t actionBudget);

    /// Appends the observation chunk of the next turn (TokenFormat::observation). Returns true when the stream
    /// restarted (a new segment: the KV cache of this episode must be cleared first).
    bool beginTurn(const ObservationChunk& chunk);
    /// Whether the next chunk follows an action (every turn's but the first): TokenFormat::observation's `afterAction`.
    bool afterAction() const { return !m_chunks.empty(); }
    /// The current segment's tokens the cache has not seen yet.
    std::vector<std::int32_t> unfed() const;
    void markFed(std::int32_t count) { m_fed += count; }
    /// Appends the action tokens taken at the current turn (the last of them is not fed until the next turn); an
    /// untrained action is context only (a demonstration whose label differs from the action taken).
    void endTurn(const std::vector<std::int32_t>& action, bool trained = true);

    /// The current segment so far.
    const std::vector<std::int32_t>& current() const { return m_tokens; }
    /// Where the current turn's action begins in the current segment (valid between beginTurn and endTurn).
    std::int32_t actionBegin() const { return static_cast<std::int32_t>(m_tokens.size()); }
    std::int32_t segmentIndex() const { return m_segment; }
    /// The turns before the current segment's first trained turn that its prefix repeats as context.
    std::size_t turns() const { return m_actions.size(); }
    /// The finished segments plus the current one, each a sequence with a span per action generated in it.
    std::vector<TrainSequence> finish(std::size_t trajectory) const;
    /// The tokens the policy would read next after the last turn, given the next observation (restarts like
    /// beginTurn when they would not fit); for a state value after the last turn.
    std::vector<std::int32_t> nextContext(const ObservationChunk& chunk) const;

private:
    /// A new segment: goal, scene (turn 0's chunk without its tail, "<obs> o_0", when turn 0 is not shown), the latest
    /// whole turns that fit, then `chunk`; the chunk's observation is cut from its front, and last the goal from its
    /// end, when even that does not fit.
    std::vector<std::int32_t> restartWith(const ObservationChunk& chunk) const;

    std::vector<std::int32_t> m_goal;
    std::int32_t m_context;
    std::int32_t m_actionBudget;
    std::vector<ObservationChunk> m_chunks; ///< per turn: <obs> o_k <act>
    std::vector<std::vector<std::int32_t>> m_actions; ///< per turn: the sampled tokens
    std::vector<std::int32_t> m_tokens; ///< the current segment
    std::vector<ActionSpan> m_spans; ///< the current segment's actions
    std::vector<TrainSequence> m_done; ///< finished segments
    std::int32_t m_fed = 0;
    std::int32_t m_segment = 0;
};

} // namespace creditlab::learn
