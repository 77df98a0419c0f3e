// Splitting an iteration among the ranks of a data-parallel run and joining the rollouts back (ranks.h).
#include "core/learn/torch/engine/ranks.h"

#include "core/learn/torch/dist/dataparallel.h"

#include <cstring>
#include <stdexcept>
#include <type_traits>

namespace creditlab::learn {

namespace {

/// Little-endian host bytes: the ranks of one run share a CPU architecture.
class Writer {
public:
    template <class T> void put(T v)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        out.append(reinterpret_cast<const char*>(&v), sizeof v);
    }
    void put(const std::string& s)
    {
        put<std::uint64_t>(s.size());
        out += s;
    }
    template <class T> void put(const std::optional<T>& v)
    {
        put<std::uint8_t>(v ? 1 : 0);
        if (v)
            put(*v);
    }
    template <class T> void putVector(const std::vector<T>& v)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        put<std::uint64_t>(v.size());
        out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
    }
    std::string out;
};

class Reader {
public:
    explicit Reader(const std::string& bytes)
        : m_bytes(bytes)
    {
    }
    template <class T> T get()
    {
        static_assert(std::is_trivially_copyable_v<T>);
        T v;
        std::memcpy(&v, take(sizeof v), sizeof v);
        return v;
    }
    std::string getString()
    {
        const auto n = get<std::uint64_t>();
        return std::string(take(n), n);
    }
    std::optional<std::string> getOptString()
    {
        if (get<std::uint8_t>() == 0)
            return std::nullopt;
        return getString();
    }
    template <class T> std::optional<T> getOpt()
    {
        if (get<std::uint8_t>() == 0)
            return std::nullopt;
        return get<T>();
    }
    template <class T> std::vector<T> getVector()
    {
        const auto n = get<std::uint64_t>();
        if (n > m_bytes.size()) // a count no remaining bytes could hold
            throw std::runtime_error("a rank's rollouts did not decode (a count of " + std::to_string(n) + ")");
        std::vector<T> v(n);
        if (n > 0)
            std::memcpy(v.data(), take(n * sizeof(T)), n * sizeof(T));
        return v;
    }
    bool done() const { return m_at == m_bytes.size(); }

private:
    const char* take(std::size_t n)
    {
        if (n > m_bytes.size() - m_at)
            throw std::runtime_error("a rank's rollouts did not decode (they end early)");
        const char* p = m_bytes.data() + m_at;
        m_at += n;
        return p;
    }
    const std::string& m_bytes;
    std::size_t m_at = 0;
};

void putTrajectory(Writer& w, const Trajectory& t)
{
    w.put(t.id);
    w.put(t.group);
    w.put(t.task.key);
    w.put(t.task.env);
    w.put(t.task.goal);
    w.put(t.reward);
    w.put(t.success);
    w.put(t.iteration);
    w.put(t.extra);
    w.put<std::uint64_t>(t.turns.size());
    for (const Turn& turn : t.turns) {
        w.put(turn.observation);
        w.put(turn.action);
        w.put(turn.feedback);
        w.put(turn.reward);
        w.put(turn.valid);
        w.put(turn.state);
        w.put(turn.progress);
        w.put(turn.role);
        w.put(turn.roleSource);
        w.put(turn.score);
        w.put(turn.tokens);
        w.put(turn.extra);
        w.put<std::uint64_t>(turn.credits.size());
        for (const auto& [method, value] : turn.credits) {
            w.put(method);
            w.put(value);
        }
    }
}

Trajectory getTrajectory(Reader& r)
{
    Trajectory t;
    t.id = r.getString();
    t.group = r.getString();
    t.task.key = r.getOptString();
    t.task.env = r.getOptString();
    t.task.goal = r.getOptString();
    t.reward = r.get<double>();
    t.success = r.getOpt<bool>();
    t.iteration = r.getOpt<std::int64_t>();
    t.extra = r.getString();
    t.turns.resize(r.get<std::uint64_t>());
    for (Turn& turn : t.turns) {
        turn.observation = r.getString();
        turn.action = r.getString();
        turn.feedback = r.getOptString();
        turn.reward = r.getOpt<double>();
        turn.valid = r.getOpt<bool>();
        turn.state = r.getOptString();
        turn.progress = r.getOpt<double>();
        turn.role = r.getOpt<Role>();
        turn.roleSource = r.getOptString();
        turn.score = r.getOpt<double>();
        turn.tokens = r.getOpt<TokenSpan>();
        turn.extra = r.getString();
        turn.credits.resize(r.get<std::uint64_t>());
        for (auto& [method, value] : turn.credits) {
            method = r.getString();
            value = r.get<double>();
        }
    }
    return t;
}

/// ActionSpan with a fixed layout (size_t and padding aside).
struct WireSpan {
    std::int32_t begin, end, from, pad;
    std::uint64_t turn;
    double advantage;
};

} // namespace

std::string encodeRollouts(const RolloutBatch& b)
{
    Writer w;
    w.put<std::uint64_t>(b.trajectories.size());
    for (std::size_t i = 0; i < b.trajectories.size(); ++i) {
        putTrajectory(w, b.trajectories[i]);
        w.put<std::uint64_t>(b.oracleRoles[i].size());
        for (const auto& role : b.oracleRoles[i])
            w.put(role);
        w.putVector(b.finalContexts[i]);
    }
    w.put<std::uint64_t>(b.sequences.size());
    for (const TrainSequence& s : b.sequences) {
        w.putVector(s.tokens);
        w.putVector(s.branches);
        std::vector<WireSpan> spans;
        for (const ActionSpan& a : s.spans)
            spans.push_back({ a.begin, a.end, a.from, 0, a.turn, a.advantage });
        w.putVector(spans);
        w.put<std::uint64_t>(s.trajectory);
        w.put(s.segment);
        w.putVector(s.behaviour);
    }
    w.put<std::uint64_t>(b.samples.size());
    for (const TurnSample& s : b.samples) {
        w.put<std::uint64_t>(s.trajectory);
        w.put<std::uint64_t>(s.turn);
        w.put<std::uint64_t>(s.sequence);
        w.put<std::uint64_t>(s.span);
        w.put(s.logProb);
    }
    for (const std::int64_t v : { b.overflows, b.generatedTokens, b.envSteps, b.failed, b.unavailable })
        w.put(v);
    w.put(b.generationSeconds);
    w.put(b.envSeconds);
    w.put(b.lastError);
    return std::move(w.out);
}

RolloutBatch decodeRollouts(const std::string& bytes)
{
    Reader r(bytes);
    RolloutBatch b;
    const auto n = r.get<std::uint64_t>();
    if (n > bytes.size())
        throw std::runtime_error("a rank's rollouts did not decode (a count of " + std::to_string(n) + ")");
    b.trajectories.reserve(n);
    b.oracleRoles.resize(n);
    b.finalContexts.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        b.trajectories.push_back(getTrajectory(r));
        b.oracleRoles[i].resize(r.get<std::uint64_t>());
        for (auto& role : b.oracleRoles[i])
            role = r.getOpt<Role>();
        b.finalContexts[i] = r.getVector<std::int32_t>();
    }
    b.sequences.resize(r.get<std::uint64_t>());
    for (TrainSequence& s : b.sequences) {
        s.tokens = r.getVector<std::int32_t>();
        s.branches = r.getVector<Branch>();
        for (const WireSpan& a : r.getVector<WireSpan>())
            s.spans.push_back({ a.begin, a.end, a.from, static_cast<std::size_t>(a.turn), a.advantage });
        s.trajectory = r.get<std::uint64_t>();
        s.segment = r.get<std::int32_t>();
        s.behaviour = r.getVector<float>();
    }
    b.samples.resize(r.get<std::uint64_t>());
    for (TurnSample& s : b.samples) {
        s.trajectory = r.get<std::uint64_t>();
        s.turn = r.get<std::uint64_t>();
        s.sequence = r.get<std::uint64_t>();
        s.span = r.get<std::uint64_t>();
        s.logProb = r.get<double>();
    }
    for (std::int64_t* v : { &b.overflows, &b.generatedTokens, &b.envSteps, &b.failed, &b.unavailable })
        *v = r.get<std::int64_t>();
    b.generationSeconds = r.get<double>();
    b.envSeconds = r.get<double>();
    b.lastError = r.getString();
    if (!r.done())
        throw std::runtime_error("a rank's rollouts did not decode (bytes left over)");
    return b;
}

RolloutBatch joinRollouts(std::vector<RolloutBatch> parts)
{
    if (parts.size() == 1)
        return std::move(parts.front());
    RolloutBatch out;
    for (RolloutBatch& p : parts) {
        const std::size_t trajectoryBase = out.trajectories.size(), sequenceBase = out.sequences.size();
        for (auto& t : p.trajectories)
            out.trajectories.push_back(std::move(t));
        for (auto& roles : p.oracleRoles)
            out.oracleRoles.push_back(std::move(roles));
        for (auto& c : p.finalContexts)
            out.finalContexts.push_back(std::move(c));
        for (auto& s : p.sequences) {
            s.trajectory += trajectoryBase;
            out.sequences.push_back(std::move(s));
        }
        for (TurnSample s : p.samples) {
            s.trajectory += trajectoryBase;
            s.sequence += sequenceBase;
            out.samples.push_back(s);
        }
        out.overflows += p.overflows;
        out.generatedTokens += p.generatedTokens;
        out.envSteps += p.envSteps;
        out.failed += p.failed;
        out.unavailable += p.unavailable;
        out.generationSeconds = std::max(out.generationSeconds, p.generationSeconds);
        out.envSeconds = std::max(out.envSeconds, p.envSeconds);
        if (!p.lastError.empty())
            out.lastError = p.lastError;
    }
    return out;
}

RolloutBatch gatherRollouts(dist::Communicator& comm, RolloutBatch local)
{
    if (comm.world() == 1)
        return local;
    const auto all = dist::allgatherBytes(comm, encodeRollouts(local));
    std::vector<RolloutBatch> parts;
    parts.reserve(all.size());
    for (std::size_t r = 0; r < all.size(); ++r)
        parts.push_back(static_cast<int>(r) == comm.rank() ? std::move(local) : decodeRollouts(all[r]));
    return joinRollouts(std::move(parts));
}

} // namespace creditlab::learn
