#include "core/model/vocabulary.h"

#include <utility>

namespace creditlab {

namespace {

template <typename Enum, std::size_t N>
std::string_view nameOf(const std::array<std::pair<Enum, std::string_view>, N>& table, Enum value)
{
    for (const auto& [v, name] : table)
        if (v == value)
            return name;
    return "?";
}

template <typename Enum, std::size_t N>
std::optional<Enum> valueOf(const std::array<std::pair<Enum, std::string_view>, N>& table, std::string_view name)
{
    for (const auto& [v, n] : table)
        if (n == name)
            return v;
    return std::nullopt;
}

constexpr std::array<std::pair<Phase, std::string_view>, 6> kPhases { {
    { Phase::Setup, "setup" },
    { Phase::Sft, "sft" },
    { Phase::Rl, "rl" },
    { Phase::Eval, "eval" },
    { Phase::Waiting, "waiting" },
    { Phase::Done, "done" },
} };

constexpr std::array<std::pair<RunStatus, std::string_view>, 5> kRunStatuses { {
    { RunStatus::Running, "running" },
    { RunStatus::Paused, "paused" },
    { RunStatus::Finished, "finished" },
    { RunStatus::Failed, "failed" },
    { RunStatus::Cancelled, "cancelled" },
} };

constexpr std::array<std::pair<TrialStatus, std::string_view>, 5> kTrialStatuses { {
    { TrialStatus::Pending, "pending" },
    { TrialStatus::Running, "running" },
    { TrialStatus::Finished, "finished" },
    { TrialStatus::Failed, "failed" },
    { TrialStatus::Cancelled, "cancelled" },
} };

constexpr std::array<std::pair<RunKind, std::string_view>, 3> kRunKinds { {
    { RunKind::Import, "import" },
    { RunKind::Train, "train" },
    { RunKind::Trial, "trial" },
} };

} // namespace

std::string_view phaseName(Phase phase) { return nameOf(kPhases, phase); }
std::optional<Phase> phaseFromName(std::string_view name) { return valueOf(kPhases, name); }
std::string_view runStatusName(RunStatus status) { return nameOf(kRunStatuses, status); }
std::optional<RunStatus> runStatusFromName(std::string_view name) { return valueOf(kRunStatuses, name); }
std::string_view trialStatusName(TrialStatus status) { return nameOf(kTrialStatuses, status); }
std::optional<TrialStatus> trialStatusFromName(std::string_view name) { return valueOf(kTrialStatuses, name); }
std::string_view runKindName(RunKind kind) { return nameOf(kRunKinds, kind); }
std::optional<RunKind> runKindFromName(std::string_view name) { return valueOf(kRunKinds, name); }

namespace metricnames {

std::optional<std::string_view> familyOf(std::string_view name)
{
    for (const auto family : kFamilies)
        if (name.size() > family.size() && name.substr(0, family.size()) == family)
            return family;
    return std::nullopt;
}

std::string role(char role) { return std::string("role/") + role; }

int rank(std::string_view name)
{
    static constexpr std::array<std::string_view, 8> first { kEvalSuccess, kRolloutSuccess, kRolloutReturn,
        kRolloutInvalidRate, "rollout/turns", kTrainKl, kTrainEntropy, "train/policy_loss" };
    for (std::size_t i = 0; i < first.size(); ++i)
        if (name == first[i])
            return static_cast<int>(i);
    for (std::size_t i = 0; i < kFamilies.size(); ++i)
        if (familyOf(name) == kFamilies[i])
            return 100 + static_cast<int>(i);
    return 1000;
}

} // namespace metricnames

} // namespace creditlab
