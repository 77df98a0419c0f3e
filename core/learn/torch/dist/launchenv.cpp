#include "core/learn/torch/dist/launchenv.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <stdexcept>

namespace creditlab::learn::dist {

namespace {

int parseInt(const char* name, const std::string& text, int min, int max)
{
    int v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size())
        throw std::runtime_error(std::string(name) + "=" + text + ": expected an integer");
    if (v < min || v > max)
        throw std::runtime_error(
            std::string(name) + "=" + text + ": expected " + std::to_string(min) + " to " + std::to_string(max));
    return v;
}

/// Slurm's tasks per node: "4", or "4(x2)" (4 tasks on each of 2 nodes), or "4(x2),3": the first node's count.
int slurmTasksPerNode(const std::string& text)
{
    const std::size_t end = text.find_first_not_of("0123456789");
    return parseInt("SLURM_NTASKS_PER_NODE", text.substr(0, end), 1, 1 << 20);
}

} // namespace

int LaunchEnv::threadsPerRank(int cores) const { return std::max(1, cores / std::max(1, localWorld)); }

LaunchEnv LaunchEnv::fromEnvironment(const std::function<std::optional<std::string>(const char*)>& getter)
{
    const auto get = [&](const char* name) -> std::optional<std::string> {
        if (getter)
            return getter(name);
        const char* v = std::getenv(name);
        return v ? std::optional<std::string>(v) : std::nullopt;
    };
    LaunchEnv env;
    constexpr int kMaxWorld = 1 << 20;
    if (const auto world = get("WORLD_SIZE")) {
        env.source = "torchrun";
        env.world = parseInt("WORLD_SIZE", *world, 1, kMaxWorld);
        const auto rank = get("RANK");
        if (!rank)
            throw std::runtime_error("WORLD_SIZE is set but RANK is not: launch with torchrun, or set both");
        env.rank = parseInt("RANK", *rank, 0, env.world - 1);
        env.localRank = get("LOCAL_RANK") ? parseInt("LOCAL_RANK", *get("LOCAL_RANK"), 0, env.world - 1) : env.rank;
        env.localWorld = get("LOCAL_WORLD_SIZE") ? parseInt("LOCAL_WORLD_SIZE", *get("LOCAL_WORLD_SIZE"), 1, env.world)
                                                 : env.world;
        if (env.localRank >= env.localWorld)
            throw std::runtime_error("LOCAL_RANK=" + std::to_string(env.localRank)
                + ": expected less than LOCAL_WORLD_SIZE=" + std::to_string(env.localWorld));
        const auto agent = get("TORCHELASTIC_USE_AGENT_STORE");
        env.agentStore = agent && (*agent == "True" || *agent == "true" || *agent == "1");
    } else if (const auto ntasks = get("SLURM_NTASKS")) {
        env.source = "slurm";
        env.world = parseInt("SLURM_NTASKS", *ntasks, 1, kMaxWorld);
        const auto procid = get("SLURM_PROCID");
        if (!procid)
            throw std::runtime_error("SLURM_NTASKS is set but SLURM_PROCID is not: run each rank with srun");
        env.rank = parseInt("SLURM_PROCID", *procid, 0, env.world - 1);
        env.localRank = get("SLURM_LOCALID") ? parseInt("SLURM_LOCALID", *get("SLURM_LOCALID"), 0, env.world - 1) : 0;
        env.localWorld = get("SLURM_NTASKS_PER_NODE") ? slurmTasksPerNode(*get("SLURM_NTASKS_PER_NODE")) : 1;
        env.localWorld = std::max(env.localWorld, env.localRank + 1);
        if (!get("MASTER_ADDR"))
            if (const auto launch = get("SLURM_LAUNCH_NODE_IPADDR"))
                env.masterAddr = *launch;
    } else {
        return env;
    }
    if (const auto addr = get("MASTER_ADDR")) {
        if (addr->empty())
            throw std::runtime_error("MASTER_ADDR is empty: set it to rank 0's host");
        env.masterAddr = *addr;
    }
    if (const auto port = get("MASTER_PORT"))
        env.masterPort = parseInt("MASTER_PORT", *port, 1, 65535);
    if (const auto file = get("CREDITLAB_STORE_FILE"))
        env.storeFile = *file;
    return env;
}

} // namespace creditlab::learn::dist
