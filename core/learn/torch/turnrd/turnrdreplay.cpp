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

template <typename T> void put(std::ofstream& out, const T& value)
{
    out.write(reinterpret_cast<const char*>(&value), sizeof(T));
}

template <typename T> bool get(std::ifstream& in, T& value)
{
    return static_cast<bool>(in.read(reinterpret_cast<char*>(&value), sizeof(T)));
}

void putFloats(std::ofstream& out, const std::vector<float>& values)
{
    put(out, static_cast<std::uint64_t>(values.size()));
    out.write(
        reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(float)));
}

bool getFloats(std::ifstream& in, std::vector<float>& values, std::uint64_t remaining)
{
    std::uint64_t size = 0;
    if (!get(in, size) || size > remaining / sizeof(float))
        return false;
    values.resize(static_cast<std::size_t>(size));
    return static_cast<bool>(
        in.read(reinterpret_cast<char*>(values.data()), static_cast<std::streamsize>(size * sizeof(float))));
}

} // namespace

void TurnRdReplay::appendToFile(const std::string& path, const std::vector<TurnRdTrajectory>& records)
{
    const bool fresh = !std::filesystem::exists(path) || std::filesystem::file_size(path) == 0;
    std::ofstream out(path, std::ios::binary | std::ios::app);
    if (!out)
        throw std::runtime_error(path + ": cannot open the TurnRD replay file for writing");
    if (fresh)
        out.write(kMagic, sizeof(kMagic));
    for (const auto& r : records) {
        put(out, static_cast<std::int64_t>(r.turns));
        put(out, static_cast<std::int64_t>(r.round));
        put(out, r.reward);
        putFloats(out, r.hidden);
        putFloats(out, r.goal);
        putFloats(out, r.progress);
    }
    out.flush();
    if (!out)
        throw std::runtime_error(path + ": cannot write the TurnRD replay file");
}

std::vector<TurnRdTrajectory> TurnRdReplay::readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error(path + ": cannot open the TurnRD replay file");
    const auto size = std::filesystem::file_size(path);
    char magic[sizeof(kMagic)] = {};
    if (!in.read(magic, sizeof(magic)) || std::memcmp(magic, kMagic, sizeof(kMagic)) != 0)
        throw std::runtime_error(path + ": not a TurnRD replay file");
    std::vector<TurnRdTrajectory> records;
    while (in.peek() != std::char_traits<char>::eof()) {
        TurnRdTrajectory r;
        const auto remaining = static_cast<std::uint64_t>(size) - static_cast<std::uint64_t>(in.tellg());
        if (!get(in, r.turns) || !get(in, r.round) || !get(in, r.reward) || !getFloats(in, r.hidden, remaining)
            || !getFloats(in, r.goal, remaining) || !getFloats(in, r.progress, remaining))
            throw std::runtime_error(path + ": truncated TurnRD replay record " + std::to_string(records.size()));
        records.push_back(std::move(r));
    }
    return records;
}

} // namespace creditlab::learn
