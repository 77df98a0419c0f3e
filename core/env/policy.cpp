#include "core/env/policy.h"

#include <array>
#include <stdexcept>

namespace creditlab::env {

namespace {

/// splitmix64 step (portable: std distributions differ between standard libraries).
std::uint64_t nextRandom(std::uint64_t& state)
{
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

std::size_t below(std::uint64_t& state, std::size_t n) { return static_cast<std::size_t>(nextRandom(state) % n); }

double unit(std::uint64_t& state) { return static_cast<double>(nextRandom(state) >> 11) * 0x1.0p-53; }

} // namespace

std::string_view ExpertPolicy::act(const Environment& env)
{
    if (!env.expertAction(m_action))
        throw std::logic_error("expert: no expert action (the episode is done or the environment has no expert)");
    return m_action;
}

std::string_view SearchExpertPolicy::act(const Environment& env)
{
    if (!env.searchExpertAction(m_action))
        throw std::logic_error("search-expert: no action (the episode is done or the environment has no expert)");
    return m_action;
}

std::string_view RandomPolicy::act(const Environment& env)
{
    const std::vector<std::string>& commands = env.admissibleCommands();
    if (commands.empty())
        return "look";
    return commands[below(m_state, commands.size())];
}

NoisyExpertPolicy::NoisyExpertPolicy(double epsilon, double mistakeShare)
    : m_epsilon(epsilon)
    , m_mistakeShare(mistakeShare)
{
    if (!(epsilon >= 0.0 && epsilon <= 1.0))
        throw std::invalid_argument("noisy-expert: epsilon must be in [0, 1]");
    if (!(mistakeShare >= 0.0 && mistakeShare <= 1.0))
        throw std::invalid_argument("noisy-expert: the share of persistent mistakes must be in [0, 1]");
}

void NoisyExpertPolicy::reset(std::uint64_t seed)
{
    m_state = seed;
    m_mistakeState = seed ^ 0x6A09E667F3BCC909ull;
    m_mistake = 0;
}

std::string_view NoisyExpertPolicy::act(const Environment& env)
{
    // Draw all three numbers every step so the stream does not depend on the branch taken. Mistakes draw from
    // their own stream, so an environment without them sees the same actions as before they existed.
    const double u = unit(m_state);
    const std::uint64_t r1 = nextRandom(m_state);
    const std::uint64_t r2 = nextRandom(m_state);
    const std::vector<std::string>& commands = env.admissibleCommands();
    if (u < m_epsilon && m_mistake == 0 && unit(m_mistakeState) < m_mistakeShare) {
        const std::uint64_t mistake = nextRandom(m_mistakeState) | 1ull << 63; // never 0, which means none
        if (env.mistakenExpertAction(mistake, m_action)) {
            m_mistake = mistake;
            return m_action;
        }
    }
    if (u >= m_epsilon && m_mistake != 0) {
        if (env.mistakenExpertAction(m_mistake, m_action))
            return m_action;
        // The wrong task is done and the policy believes it has finished: it wanders, never back to the real plan.
        if (!commands.empty())
            return commands[r1 % commands.size()];
    } else if (u >= m_epsilon && env.expertAction(m_action)) {
        return m_action;
    }
    if (commands.empty())
        return "look";
    const std::string& base = commands[r1 % commands.size()];
    if ((r2 & 1u) == 0)
        return base;
    static constexpr std::array<std::string_view, 8> verbs
        = { "go to ", "open ", "close ", "take ", "put ", "heat ", "use ", "examine " };
    static constexpr std::array<std::string_view, 4> nonsense = { "jump", "go to", "take", "put it in the thing" };
    const std::size_t space = base.rfind(' ');
    switch ((r2 >> 1) % 3) {
    case 0: { // a wrong verb on the same name: "open countertop 1", "use apple 1"
        const std::size_t firstSpace = base.find(' ');
        const std::size_t nameAt = base.rfind(' ', space == std::string::npos ? 0 : space - 1);
        m_action.assign(verbs[(r2 >> 3) % verbs.size()]);
        m_action.append(
            nameAt == std::string::npos || firstSpace == std::string::npos ? base : base.substr(nameAt + 1));
        return m_action;
    }
    case 1: // a wrong number: "go to cabinet 19"
        m_action.assign(base).append("9");
        return m_action;
    default:
        return nonsense[(r2 >> 3) % nonsense.size()];
    }
}

const std::vector<std::string>& policyNames()
{
    static const std::vector<std::string> names = { "expert", "noisy-expert", "random" };
    return names;
}

std::unique_ptr<Policy> makePolicy(std::string_view name, double epsilon)
{
    if (name == "expert")
        return std::make_unique<ExpertPolicy>();
    if (name == "noisy-expert")
        return std::make_unique<NoisyExpertPolicy>(epsilon);
    if (name == "search-expert")
        return std::make_unique<SearchExpertPolicy>();
    if (name == "random")
        return std::make_unique<RandomPolicy>();
    throw std::invalid_argument(
        "unknown policy '" + std::string(name) + "' (known: expert, search-expert, noisy-expert, random)");
}

} // namespace creditlab::env
