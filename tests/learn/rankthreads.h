#pragma once

// The ranks of a data-parallel run as threads of one test process (tst_learn_dist, tst_learn_distcredit): they
// rendezvous through a FileStore and talk Gloo over loopback.

#include "core/learn/torch/dist/communicator.h"

#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace creditlab::testing {

/// Runs `body(rank)` on `world` threads; rethrows the first exception (after joining all).
inline void onRanks(int world, const std::function<void(int)>& body)
{
    std::vector<std::thread> threads;
    std::exception_ptr error;
    std::mutex m;
    for (int r = 0; r < world; ++r)
        threads.emplace_back([&, r] {
            try {
                body(r);
            } catch (...) {
                std::lock_guard lock(m);
                if (!error)
                    error = std::current_exception();
            }
        });
    for (auto& t : threads)
        t.join();
    if (error)
        std::rethrow_exception(error);
}

/// Rank `rank` of `world`, meeting at the store file `file`.
inline learn::dist::LaunchEnv fileEnv(const std::string& file, int rank, int world)
{
    learn::dist::LaunchEnv env;
    env.rank = rank;
    env.world = world;
    env.localRank = rank;
    env.localWorld = world;
    env.storeFile = file;
    env.source = "test";
    return env;
}

/// fileEnv's rank, connected (30 s timeout).
inline std::unique_ptr<learn::dist::Communicator> joinRanks(const std::string& file, int rank, int world)
{
    learn::dist::CommOptions options;
    options.timeout = std::chrono::milliseconds(30000);
    return learn::dist::Communicator::connect(fileEnv(file, rank, world), options);
}

/// Ranks are threads sharing torch's default generator: seeding and drawing initial weights happen under this lock, or
/// one rank's draws interleave with another's seed.
inline std::mutex& generatorLock()
{
    static std::mutex lock;
    return lock;
}

} // namespace creditlab::testing
