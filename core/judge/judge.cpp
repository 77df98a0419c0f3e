#include "core/judge/judge.h"

#include "core/judge/httpjudge.h"
#include "core/judge/humanjudge.h"
#include "core/judge/noisyjudge.h"

#include <stdexcept>

namespace creditlab::judge {

namespace {

std::vector<Verdict> verdictsOf(const std::vector<std::optional<Role>>& roles)
{
    std::vector<Verdict> out(roles.size());
    for (std::size_t k = 0; k < roles.size(); ++k) {
        out[k].role = roles[k];
        if (roles[k])
            out[k].score = roleScore(*roles[k]);
    }
    return out;
}

void requireOracle(const Trajectory& t, std::span<const std::optional<Role>> oracle, std::string_view judge)
{
    if (oracle.size() != t.turns.size())
        throw std::invalid_argument("judge " + std::string(judge) + " needs the environment's oracle roles for "
            + "trajectory \"" + t.id + "\"");
}

/// The environment's ground truth, unchanged.
class OracleJudge final : public Judge {
public:
    std::string tag() const override { return "oracle"; }
    std::vector<Verdict> judge(const Trajectory& t, std::span<const std::optional<Role>> oracle) override
    {
        requireOracle(t, oracle, "oracle");
        return verdictsOf(std::vector<std::optional<Role>>(oracle.begin(), oracle.end()));
    }
};

/// The oracle through a seeded confusion matrix (NoisyJudge).
class NoisyOracleJudge final : public Judge {
public:
    explicit NoisyOracleJudge(NoisyJudge noisy)
        : m_noisy(std::move(noisy))
    {
    }
    std::string tag() const override { return m_noisy.tag(); }
    std::vector<Verdict> judge(const Trajectory& t, std::span<const std::optional<Role>> oracle) override
    {
        requireOracle(t, oracle, "noisy");
        return verdictsOf(m_noisy.judgeTrajectory(oracle, t.successOrDefault()));
    }
    void restart(std::uint64_t stream) override { m_noisy.reset(stream); }

private:
    NoisyJudge m_noisy;
};

} // namespace

std::vector<std::vector<Verdict>> Judge::judgeBatch(
    std::span<const Trajectory> trajectories, std::span<const std::vector<std::optional<Role>>> oracle)
{
    std::vector<std::vector<Verdict>> out;
    out.reserve(trajectories.size());
    for (std::size_t i = 0; i < trajectories.size(); ++i)
        out.push_back(judge(trajectories[i],
            i < oracle.size() ? std::span<const std::optional<Role>>(oracle[i]) : std::span<const std::optional<Role>>()));
    return out;
}

double roleScore(Role role)
{
    switch (role) {
    case Role::D:
        return 1.0;
    case Role::E:
        return 0.75;
    case Role::N:
        return 0.45;
    case Role::R:
        return 0.25;
    }
    return 0.5;
}

const std::vector<std::string>& judgeNames()
{
    static const std::vector<std::string> names { "oracle", "noisy", "human", "http" };
    return names;
}

const std::vector<credit::ParamSpec>& judgeParams(std::string_view name)
{
    static const std::vector<credit::ParamSpec> none;
    if (name == "noisy")
        return NoisyJudge::params();
    if (name == "oracle")
        return none;
    if (name == HumanJudge::kName)
        return HumanJudge::params();
    if (name == HttpJudge::kName)
        return HttpJudge::params();
    throw std::invalid_argument("unknown judge '" + std::string(name) + "' (judges: oracle, noisy, human, http)");
}

std::unique_ptr<Judge> makeJudge(
    std::string_view name, const std::vector<std::pair<std::string, std::string>>& assignments, Store* labels)
{
    if (name == "oracle") {
        if (!assignments.empty())
            throw std::invalid_argument(
                "the oracle judge takes no parameters (got '" + assignments.front().first + "')");
        return std::make_unique<OracleJudge>();
    }
    if (name == "noisy")
        return std::make_unique<NoisyOracleJudge>(NoisyJudge::resolve(assignments));
    if (name == HumanJudge::kName)
        return HumanJudge::create(assignments, labels);
    if (name == HttpJudge::kName)
        return HttpJudge::create(assignments, labels);
    throw std::invalid_argument("unknown judge '" + std::string(name) + "' (judges: oracle, noisy, human, http)");
}

} // namespace creditlab::judge
