#pragma once

// Where this process sits in a distributed run, from the launcher's environment (issue 36): torchrun's variables
// (RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT, TORCHELASTIC_USE_AGENT_STORE), else
// Slurm's (SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID, SLURM_NTASKS_PER_NODE), else a single process. Torch-free.

#include <functional>
#include <optional>
#include <string>

namespace creditlab::learn::dist {

struct LaunchEnv {
    int rank = 0;
    int world = 1;
    int localRank = 0;
    int localWorld = 1;
    std::string masterAddr = "127.0.0.1";
    int masterPort = 29500;
    /// torchrun's elastic agent already serves the store at MASTER_ADDR:MASTER_PORT (TORCHELASTIC_USE_AGENT_STORE):
    /// rank 0 connects to it rather than serving one.
    bool agentStore = false;
    /// A FileStore path instead of a TCP store (a shared file system, or tests): CREDITLAB_STORE_FILE.
    std::string storeFile;
    /// "torchrun", "slurm" or "single": where the values came from, for messages.
    std::string source = "single";

    bool distributed() const { return world > 1; }
    /// Threads this rank should use: the machine's cores divided among the ranks on this node (at least 1).
    int threadsPerRank(int cores) const;

    /// Reads the environment through `get` (getenv by default). Throws std::runtime_error naming the variable when a
    /// value is not a number or is out of range (RANK=4 with WORLD_SIZE=4).
    static LaunchEnv fromEnvironment(const std::function<std::optional<std::string>(const char*)>& get = {});
};

} // namespace creditlab::learn::dist
