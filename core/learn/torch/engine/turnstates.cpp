// The acting policy's per-turn hidden states for the learned credit models (learnedcredit.h: extractTurnStates), in
// one process or shared out over the ranks of a data-parallel run.
#include "core/learn/torch/dist/dataparallel.h"
#include "core/learn/torch/engine/learnedcredit.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace creditlab::learn {

namespace {

/// The rows `rows` of `t` (a (n, width) float CPU tensor) appended to `out` as their float bytes.
void packRows(const torch::Tensor& t, const std::vector<std::int64_t>& rows, std::string& out)
{
    const auto bytes = static_cast<std::size_t>(t.size(1)) * sizeof(float);
    const auto* base = reinterpret_cast<const char*>(t.data_ptr<float>());
    for (const std::int64_t r : rows)
        out.append(base + static_cast<std::size_t>(r) * bytes, bytes);
}

/// The inverse of packRows: rows `rows` of `t` from `in` at `at`, which moves past them.
void unpackRows(const std::string& in, std::size_t& at, const std::vector<std::int64_t>& rows, torch::Tensor& t)
{
    const auto bytes = static_cast<std::size_t>(t.size(1)) * sizeof(float);
    if (in.size() < at + rows.size() * bytes)
        throw std::runtime_error("turn states: a rank sent fewer rows than its share");
    auto* base = reinterpret_cast<char*>(t.data_ptr<float>());
    for (const std::int64_t r : rows) {
        std::memcpy(base + static_cast<std::size_t>(r) * bytes, in.data() + at, bytes);
        at += bytes;
    }
}

std::vector<std::int64_t> range(std::size_t begin, std::size_t end)
{
    std::vector<std::int64_t> out;
    for (std::size_t i = begin; i < end; ++i)
        out.push_back(static_cast<std::int64_t>(i));
    return out;
}

} // namespace

std::vector<std::pair<std::size_t, std::size_t>> turnStatePasses(
    const std::vector<std::int64_t>& lengths, PassLimit limit)
{
    std::vector<std::pair<std::size_t, std::size_t>> passes;
    std::size_t begin = 0;
    std::int64_t longest = 0;
    for (std::size_t i = 0; i < lengths.size(); ++i) {
        const std::int64_t wider = std::max(longest, lengths[i]);
        const auto rows = static_cast<std::int64_t>(i - begin);
        if (rows > 0 && (rows >= limit.rows || wider * (rows + 1) > limit.tokens)) {
            passes.emplace_back(begin, i);
            begin = i;
            longest = 0;
        }
        longest = std::max(longest, lengths[i]);
    }
    if (begin < lengths.size())
        passes.emplace_back(begin, lengths.size());
    return passes;
}

namespace {

/// The tokens of trajectory `i`'s final context: its last feedback, or the bare goal when it has none.
std::vector<std::int32_t> finalContext(const RolloutBatch& rollouts, const TokenFormat& format, std::size_t i)
{
    const auto& tokens = rollouts.finalContexts[i];
    return tokens.empty() ? format.goal({}) : tokens;
}

/// What one rank computes of an extraction: whole passes of the one-process plan and whole trajectories.
struct StateShare {
    std::vector<std::pair<std::size_t, std::size_t>> sequencePasses; ///< its passes over the sequences (turns)
    std::size_t goalBegin = 0, goalEnd = 0; ///< the trajectories whose goal it pools
    std::vector<std::pair<std::size_t, std::size_t>> finalPasses; ///< its passes over the trajectories' final states
    std::vector<std::int64_t> samples; ///< the samples of its sequences, in order
    std::vector<std::int64_t> finals; ///< the trajectories of its final passes, in order
};

/// Rank `rank`'s share. A padded forward is not batch-invariant (the padded length and the matrix shapes change
/// the rounding), so the ranks share out the very passes one process runs, never their own trajectories alone:
/// each row comes out of the same pass, bit for bit, whichever rank ran it.
StateShare shareOfStates(
    const RolloutBatch& rollouts, const TokenFormat& format, PassLimit limit, bool finals, int rank, int world)
{
    const auto mine = [&](const std::vector<std::pair<std::size_t, std::size_t>>& passes) {
        const auto [first, end] = dist::shareOf(passes.size(), rank, world);
        return std::vector<std::pair<std::size_t, std::size_t>>(
            passes.begin() + static_cast<std::ptrdiff_t>(first), passes.begin() + static_cast<std::ptrdiff_t>(end));
    };
    std::vector<std::int64_t> lengths;
    for (const auto& sequence : rollouts.sequences)
        lengths.push_back(sequence.size());
    StateShare s;
    s.sequencePasses = mine(turnStatePasses(lengths, limit));
    std::tie(s.goalBegin, s.goalEnd) = dist::shareOf(rollouts.trajectories.size(), rank, world);
    if (finals) {
        lengths.clear();
        for (std::size_t i = 0; i < rollouts.trajectories.size(); ++i)
            lengths.push_back(static_cast<std::int64_t>(finalContext(rollouts, format, i).size()));
        s.finalPasses = mine(turnStatePasses(lengths, limit));
        for (const auto& [begin, end] : s.finalPasses)
            for (std::size_t i = begin; i < end; ++i)
                s.finals.push_back(static_cast<std::int64_t>(i));
    }
    // The passes are consecutive runs of sequences, and a rank's share of them is consecutive: one range of sequences.
    const std::size_t firstSequence = s.sequencePasses.empty() ? 0 : s.sequencePasses.front().first;
    const std::size_t endSequence = s.sequencePasses.empty() ? 0 : s.sequencePasses.back().second;
    for (std::size_t k = 0; k < rollouts.samples.size(); ++k)
        if (const std::size_t q = rollouts.samples[k].sequence; q >= firstSequence && q < endSequence)
            s.samples.push_back(static_cast<std::int64_t>(k));
    return s;
}

} // namespace

TurnStates extractTurnStates(Transformer& policy, const TokenFormat& format, const RolloutBatch& rollouts,
    PassLimit limit, const torch::Device& device, bool finals, dist::Communicator* comm)
{
    if (limit.rows < 1 || limit.tokens < 1)
        throw std::invalid_argument("turn states: a pass must hold at least one sequence and one token");
    const int world = comm ? comm->world() : 1;
    const StateShare mine = shareOfStates(rollouts, format, limit, finals, comm ? comm->rank() : 0, world);
    torch::NoGradGuard noGrad;
    policy->eval();
    TurnStates states;
    const auto n = static_cast<std::int64_t>(rollouts.samples.size());
    const auto width = policy->options().width;
    states.actionLast = torch::empty({ n, width }, torch::kFloat);
    states.promptLast = torch::empty({ n, width }, torch::kFloat);
    // One pass over each sequence gives every turn in it: the state before the action at the token that predicts its
    // first token, h_t at its last token.
    std::vector<std::vector<std::int64_t>> samplesOf(rollouts.sequences.size());
    for (std::size_t s = 0; s < rollouts.samples.size(); ++s)
        samplesOf[rollouts.samples[s].sequence].push_back(static_cast<std::int64_t>(s));
    for (const auto& [first, last] : mine.sequencePasses) {
        const auto start = static_cast<std::int64_t>(first);
        const auto end = static_cast<std::int64_t>(last);
        std::vector<const TrainSequence*> rows;
        std::vector<std::int64_t> rowOf, promptAt, lastAt, sampleAt;
        for (std::int64_t q = start; q < end; ++q) {
            rows.push_back(&rollouts.sequences[static_cast<std::size_t>(q)]);
            for (std::int64_t s : samplesOf[static_cast<std::size_t>(q)]) {
                const TurnSample& sample = rollouts.samples[static_cast<std::size_t>(s)];
                const ActionSpan& span = rows.back()->spans[sample.span];
                rowOf.push_back(q - start);
                promptAt.push_back(span.from);
                lastAt.push_back(span.end - 1);
                sampleAt.push_back(s);
            }
        }
        if (sampleAt.empty())
            continue;
        const SequenceBatch batch = makeSequenceBatch(rows, device);
        const auto hidden = forwardBatch(policy, batch).hidden; // (B, T, width), final LN
        const auto count = static_cast<std::int64_t>(sampleAt.size());
        auto rowIndex = torch::from_blob(rowOf.data(), { count }, torch::kLong).to(device);
        auto gather = [&](std::vector<std::int64_t>& at) {
            auto index = torch::from_blob(at.data(), { count }, torch::kLong).to(device);
            return hidden.index({ rowIndex, index }).to(torch::kCPU).to(torch::kFloat);
        };
        auto target = torch::from_blob(sampleAt.data(), { count }, torch::kLong);
        states.actionLast.index_copy_(0, target, gather(lastAt));
        states.promptLast.index_copy_(0, target, gather(promptAt));
    }
    // The goal embedding (has_turnrd.md §2.5 [choice]): the final hidden states mean-pooled over the goal's tokens
    // after the first (<goal>; a chat model's goal chunk starts with its template's header). Streams begin with the
    // goal and attention is causal, so a pass over the goal alone gives the same states as inside any stream.
    const auto trajectories = static_cast<std::int64_t>(rollouts.trajectories.size());
    states.goal = torch::empty({ trajectories, width }, torch::kFloat);
    for (auto i = static_cast<std::int64_t>(mine.goalBegin); i < static_cast<std::int64_t>(mine.goalEnd); ++i) {
        std::vector<std::int32_t> ids
            = format.goal(rollouts.trajectories[static_cast<std::size_t>(i)].task.goal.value_or(std::string()));
        const auto context = policy->options().context;
        if (static_cast<std::int64_t>(ids.size()) > context)
            ids.resize(static_cast<std::size_t>(context));
        std::vector<std::int64_t> wide(ids.begin(), ids.end());
        const auto len = static_cast<std::int64_t>(wide.size());
        auto tokens = torch::from_blob(wide.data(), { 1, len }, torch::kLong).to(device);
        auto valid = torch::ones({ 1, len }, torch::TensorOptions(torch::kBool).device(device));
        auto hidden = policy->forward(tokens, valid).hidden[0]; // (len, width)
        auto pooled = len > 1 ? hidden.narrow(0, 1, len - 1).mean(0) : hidden[0];
        states.goal[i].copy_(pooled.to(torch::kCPU).to(torch::kFloat));
    }
    if (finals) {
        // The state after the last turn: the context the policy would read next (the last feedback as the
        // observation), at its last token, as each turn's state is read at the token before its action.
        states.final = torch::empty({ trajectories, width }, torch::kFloat);
        for (const auto& [first, last] : mine.finalPasses) {
            const auto start = static_cast<std::int64_t>(first);
            const auto end = static_cast<std::int64_t>(last);
            std::vector<TrainSequence> contexts;
            for (std::int64_t i = start; i < end; ++i) {
                TrainSequence c;
                c.tokens = finalContext(rollouts, format, static_cast<std::size_t>(i));
                contexts.push_back(std::move(c));
            }
            std::vector<const TrainSequence*> rows;
            std::vector<std::int64_t> lastAt;
            for (const auto& c : contexts) {
                rows.push_back(&c);
                lastAt.push_back(c.size() - 1);
            }
            const SequenceBatch batch = makeSequenceBatch(rows, device);
            const auto hidden = forwardBatch(policy, batch).hidden;
            const auto count = end - start;
            auto index = torch::from_blob(lastAt.data(), { count }, torch::kLong).to(device);
            states.final.narrow(0, start, count)
                .copy_(hidden.index({ torch::arange(count, torch::TensorOptions(torch::kLong).device(device)), index })
                           .to(torch::kCPU)
                           .to(torch::kFloat));
        }
    }
    if (world == 1)
        return states;
    // Every rank's rows as their float bytes (exact), so that every rank holds the whole batch's states.
    std::string bytes;
    packRows(states.actionLast, mine.samples, bytes);
    packRows(states.promptLast, mine.samples, bytes);
    packRows(states.goal, range(mine.goalBegin, mine.goalEnd), bytes);
    if (finals)
        packRows(states.final, mine.finals, bytes);
    const auto all = dist::allgatherBytes(*comm, bytes);
    for (int r = 0; r < world; ++r) {
        if (r == comm->rank())
            continue;
        const StateShare theirs = shareOfStates(rollouts, format, limit, finals, r, world);
        const std::string& in = all[static_cast<std::size_t>(r)];
        std::size_t at = 0;
        unpackRows(in, at, theirs.samples, states.actionLast);
        unpackRows(in, at, theirs.samples, states.promptLast);
        unpackRows(in, at, range(theirs.goalBegin, theirs.goalEnd), states.goal);
        if (finals)
            unpackRows(in, at, theirs.finals, states.final);
        if (at != in.size())
            throw std::runtime_error("turn states: rank " + std::to_string(r) + " sent more rows than its share");
    }
    return states;
}

} // namespace creditlab::learn
