#include "core/model/trajectory.h"

#include <unordered_map>

namespace creditlab {

std::string_view roleName(Role role)
{
    switch (role) {
    case Role::D:
        return "D";
    case Role::E:
        return "E";
    case Role::N:
        return "N";
    case Role::R:
        return "R";
    }
    return "?";
}

std::optional<Role> parseRole(std::string_view text)
{
    if (text.size() != 1)
        return std::nullopt;
    switch (text[0]) {
    case 'D':
        return Role::D;
    case 'E':
        return Role::E;
    case 'N':
        return Role::N;
    case 'R':
        return Role::R;
    default:
        return std::nullopt;
    }
}

Batch Batch::fromTrajectories(std::vector<Trajectory> trajectories)
{
    Batch batch;
    batch.trajectories = std::move(trajectories);
    std::unordered_map<std::string_view, std::size_t> index;
    for (std::size_t i = 0; i < batch.trajectories.size(); ++i) {
        const std::string& key = batch.trajectories[i].group;
        auto [it, inserted] = index.try_emplace(key, batch.groups.size());
        if (inserted)
            batch.groups.push_back(Group { key, {} });
        batch.groups[it->second].members.push_back(i);
    }
    return batch;
}

std::size_t Batch::turnCount() const
{
    std::size_t n = 0;
    for (const auto& t : trajectories)
        n += t.turns.size();
    return n;
}

} // namespace creditlab
