#include "core/learn/torch/turnrd/turnrdreplay.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace creditlab::learn {

TurnRdReplay::TurnRdReplay(double halfLifeRounds)
    : m_halfLife(halfLifeRounds)
{
    if (!(halfLifeRounds > 0.0))
        throw std::invalid_argument("TurnRD replay: the half-life must be positive");
}

void TurnRdReplay::append(std::vector<TurnRdTrajectory> records)
{
    for (const auto& r : records) {
        if (r.turns <= 0 || r.hidden.empty() || r.hidden.size() % static_cast<std::size_t>(r.turns) != 0)
            throw std::invalid_argument("TurnRD replay: a record's hidden states are not turns × width");
        if (!r.progress.empty() && r.progress.size() != static_cast<std::size_t>(r.turns))
            throw std::invalid_argument("TurnRD replay: a record has " + std::to_string(r.progress.size())
                + " progress values for " + std::to_string(r.turns) + " turns");
    }
    m_records.reserve(m_records.size() + records.size());
    for (auto& r : records) {
        m_latestRound = std::max(m_latestRound, r.round);
        m_records.push_back(std::move(r));
    }
}

void TurnRdReplay::clear()
{
    m_records.clear();
    m_latestRound = -1;
}

std::size_t TurnRdReplay::floatBytes() const
{
    std::size_t floats = 0;
    for (const auto& r : m_records)
        floats += r.hidden.size() + r.goal.size() + r.progress.size();
    return floats * sizeof(float);
}

double TurnRdReplay::recencyWeight(std::int64_t round, std::int64_t now, double halfLifeRounds)
{
    // HAS §2.9 [choice of the note]: exponential decay with the paper's half-life.
    const auto age = static_cast<double>(std::max<std::int64_t>(0, now - round));
    return std::pow(0.5, age / halfLifeRounds);
}

std::vector<double> TurnRdReplay::weights(std::int64_t now) const
{
    std::vector<double> out;
    out.reserve(m_records.size());
    for (const auto& r : m_records)
        out.push_back(recencyWeight(r.round, now, m_halfLife));
    return out;
}

namespace {

constexpr char kMagic[8] = { 'C', 'L', 'T', 'R', 'D', 'R', 'P', '1' };

template <typename T> void put(std::string& out, const T& value)
{
    out.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

void putFloats(std::string& out, const std::vector<float>& values)
{
    put(out, static_cast<std::uint64_t>(values.size()));
    out.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
}

/// Reads from `bytes` at `at`, which moves past what was read; false when too few bytes are left.
class Reader {
public:
    Reader(const std::string& bytes, std::size_t at)
        : m_bytes(bytes)
        , m_at(at)
    {
    }
    bool done() const { return m_at == m_bytes.size(); }
    template <typename T> bool get(T& value)
    {
        if (m_bytes.size() - m_at < sizeof(T))
            return false;
        std::memcpy(&value, m_bytes.data() + m_at, sizeof(T));
        m_at += sizeof(T);
        return true;
    }
    bool getFloats(std::vector<float>& values)
    {
        std::uint64_t size = 0;
        if (!get(size) || size > (m_bytes.size() - m_at) / sizeof(float))
            return false;
        values.resize(static_cast<std::size_t>(size));
        if (!values.empty()) // an empty vector's data() may be null, and memcpy's pointers must never be (UBSan)
            std::memcpy(values.data(), m_bytes.data() + m_at, values.size() * sizeof(float));
        m_at += values.size() * sizeof(float);
        return true;
    }

private:
    const std::string& m_bytes;
    std::size_t m_at;
};

std::vector<TurnRdTrajectory> decodeFrom(const std::string& bytes, std::size_t at, const std::string& source)
{
    Reader in(bytes, at);
    std::vector<TurnRdTrajectory> records;
    while (!in.done()) {
        TurnRdTrajectory r;
        if (!in.get(r.turns) || !in.get(r.round) || !in.get(r.reward) || !in.getFloats(r.hidden)
            || !in.getFloats(r.goal) || !in.getFloats(r.progress))
            throw std::runtime_error(source + ": truncated TurnRD replay record " + std::to_string(records.size()));
        records.push_back(std::move(r));
    }
    return records;
}

} // namespace

std::string TurnRdReplay::encode(const std::vector<TurnRdTrajectory>& records)
{
    std::string out;
    for (const auto& r : records) {
        put(out, static_cast<std::int64_t>(r.turns));
        put(out, static_cast<std::int64_t>(r.round));
        put(out, r.reward);
        putFloats(out, r.hidden);
        putFloats(out, r.goal);
        putFloats(out, r.progress);
    }
    return out;
}

std::vector<TurnRdTrajectory> TurnRdReplay::decode(const std::string& bytes, const std::string& source)
{
    return decodeFrom(bytes, 0, source);
}

void TurnRdReplay::appendToFile(const std::string& path, const std::vector<TurnRdTrajectory>& records)
{
    const bool fresh = !std::filesystem::exists(path) || std::filesystem::file_size(path) == 0;
    std::ofstream out(path, std::ios::binary | std::ios::app);
    if (!out)
        throw std::runtime_error(path + ": cannot open the TurnRD replay file for writing");
    if (fresh)
        out.write(kMagic, sizeof(kMagic));
    const std::string bytes = encode(records);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out)
        throw std::runtime_error(path + ": cannot write the TurnRD replay file");
}

std::vector<TurnRdTrajectory> TurnRdReplay::readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error(path + ": cannot open the TurnRD replay file");
    std::string bytes(static_cast<std::size_t>(std::filesystem::file_size(path)), '\0');
    if (!in.read(bytes.data(), static_cast<std::streamsize>(bytes.size())))
        throw std::runtime_error(path + ": cannot read the TurnRD replay file");
    if (bytes.size() < sizeof(kMagic) || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0)
        throw std::runtime_error(path + ": not a TurnRD replay file");
    return decodeFrom(bytes, sizeof(kMagic), path);
}

} // namespace creditlab::learn
