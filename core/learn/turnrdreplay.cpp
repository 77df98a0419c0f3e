#include "core/learn/turnrdreplay.h"

#include <algorithm>
#include <cmath>
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

} // namespace creditlab::learn
