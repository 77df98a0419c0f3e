#include "core/judge/noisyjudge.h"

#include "core/interchange/jsonscanner.h"

namespace creditlab::judge {

using credit::ParamSpec;
using credit::ParamType;

const std::vector<ParamSpec>& NoisyJudge::params()
{
    static const std::vector<ParamSpec> specs {
        { "accuracy", ParamType::Double, "0.8", 0.0, 1.0, {},
            "P(judged = true role); errors spread uniformly over the other three roles" },
        { "matrix", ParamType::Text, "", {}, {}, {},
            "full confusion rows, e.g. R:R=0.5,R:D=0.5 (rows not named use accuracy) or 16 numbers" },
        { "success_matrix", ParamType::Text, "", {}, {}, {},
            "rows used inside successful rollouts, e.g. R:D=0.5,R:N=0.5 (rows not named use matrix)" },
        { "seed", ParamType::Int, "0", 0.0, 9007199254740991.0, {}, "seed of the judge's mt19937_64" },
    };
    return specs;
}

NoisyJudge NoisyJudge::resolve(const std::vector<std::pair<std::string, std::string>>& assignments)
{
    const credit::Params p = credit::Params::resolve(std::string(kName), params(), assignments);
    ConfusionMatrix matrix = ConfusionMatrix::fromAccuracy(p.getDouble("accuracy"));
    if (!p.getText("matrix").empty())
        matrix = ConfusionMatrix::parse(p.getText("matrix"), matrix);
    std::optional<ConfusionMatrix> success;
    if (!p.getText("success_matrix").empty())
        success = ConfusionMatrix::parse(p.getText("success_matrix"), matrix);
    NoisyJudge judge(matrix, success, static_cast<std::uint64_t>(p.getInt("seed")));
    // The tag keeps the user's accuracy (it documents the setting) and the resolved matrices.
    std::string tag = std::string(kName) + ":accuracy=";
    appendJsonNumber(tag, p.getDouble("accuracy"));
    if (!p.getText("matrix").empty())
        tag += ",matrix=" + matrix.toString();
    tag += ",seed=" + std::to_string(judge.seed());
    if (success)
        tag += ",success_matrix=" + success->toString();
    judge.m_tag = std::move(tag);
    return judge;
}

NoisyJudge::NoisyJudge(ConfusionMatrix matrix, std::optional<ConfusionMatrix> successMatrix, std::uint64_t seed)
    : m_matrix(std::move(matrix))
    , m_successMatrix(std::move(successMatrix))
    , m_seed(seed)
    , m_rng(seed)
{
    m_tag = std::string(kName) + ":matrix=" + m_matrix.toString() + ",seed=" + std::to_string(seed);
    if (m_successMatrix)
        m_tag += ",success_matrix=" + m_successMatrix->toString();
}

double NoisyJudge::uniform()
{
    // The top 53 bits as a double in [0, 1): the same on every standard library, unlike
    // std::uniform_real_distribution.
    return static_cast<double>(m_rng() >> 11) * 0x1.0p-53;
}

Role NoisyJudge::judge(Role truth, bool success) { return matrixFor(success).sample(truth, uniform()); }

std::vector<std::optional<Role>> NoisyJudge::judgeTrajectory(std::span<const std::optional<Role>> truth, bool success)
{
    std::vector<std::optional<Role>> out;
    out.reserve(truth.size());
    for (const std::optional<Role>& t : truth) {
        const double u = uniform();
        out.push_back(t ? std::optional<Role>(matrixFor(success).sample(*t, u)) : std::nullopt);
    }
    return out;
}

} // namespace creditlab::judge
