#pragma once

// The communicator of a data-parallel run (issue 36): four collective calls over LibTorch's own distributed engine,
// c10d — ProcessGroupGloo for CPU tensors, ProcessGroupNCCL for CUDA ones where LibTorch has it — rendezvousing through
// a TCPStore (torchrun's convention) or a FileStore. One implementation serves LibTorch 1.13 (ProcessGroup) and 2.x
// (Backend): the calls it makes exist on both. c10d::Reducer is not used (Debian lacks a header it needs); gradients
// are reduced in flat buckets by the caller's schedule.

#include "core/learn/torch/dist/launchenv.h"
#include "core/learn/torch/pch.h"

#include <chrono>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <vector>

namespace creditlab::learn::dist {

/// A failed collective or rendezvous; the message names the rank(s) concerned.
class CommError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct CommOptions {
    /// How long a rendezvous or a collective may wait for the other ranks before failing.
    std::chrono::milliseconds timeout { 60000 };
    /// Tensors are sent in flat buckets of up to this many bytes (of one dtype and device).
    std::size_t bucketBytes = std::size_t(25) << 20;
    /// CUDA tensors (NCCL); CPU (Gloo) otherwise.
    bool cuda = false;
    /// Gloo's worker threads per rank.
    int glooThreads = 2;
    /// World 1 builds the process group too, instead of the communicator whose calls do nothing: only to measure
    /// what a collective itself costs with one rank (bench_allreduce's NCCL check).
    bool groupForOneRank = false;
};

class Communicator {
public:
    virtual ~Communicator() = default;
    int rank() const { return m_rank; }
    int world() const { return m_world; }

    /// Sets every tensor to its value on `root`, in place.
    virtual void broadcast(std::vector<torch::Tensor>& tensors, int root = 0) = 0;
    /// Sets every tensor to its sum over the ranks, in place.
    virtual void allreduce(std::vector<torch::Tensor>& tensors) = 0;
    /// Returns when every rank has called it (or throws CommError after the timeout).
    virtual void barrier() = 0;
    /// As barrier(), but rank 0 waits for each rank's acknowledgement up to `timeout` and throws CommError naming the
    /// ranks that did not come (the other ranks throw when rank 0 gives up).
    virtual void monitoredBarrier(std::chrono::milliseconds timeout) = 0;

    /// Joins the run `env` describes: world 1 gives a communicator whose calls do nothing (unless
    /// CommOptions::groupForOneRank). Throws CommError naming
    /// this rank, the store's address and what did not happen when the ranks do not all arrive within the timeout.
    static std::unique_ptr<Communicator> connect(const LaunchEnv& env, const CommOptions& options = {});
    /// False when this build has no distributed engine (built without Gloo's headers): connect() then refuses more
    /// than one rank.
    static bool available();

protected:
    Communicator(int rank, int world)
        : m_rank(rank)
        , m_world(world)
    {
    }

private:
    int m_rank;
    int m_world;
};

/// Calls `send` on flat buckets of `tensors` (consecutive tensors of one dtype and device, up to `bucketBytes`), then
/// copies each bucket's result back into its tensors. A lone contiguous tensor is sent as it is.
void forEachBucket(
    std::vector<torch::Tensor>& tensors, std::size_t bucketBytes, const std::function<void(torch::Tensor& flat)>& send);

} // namespace creditlab::learn::dist
