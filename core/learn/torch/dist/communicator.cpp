#include "core/learn/torch/dist/communicator.h"

#ifdef CREDITLAB_WITH_C10D
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#ifdef USE_C10D_NCCL
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif
#endif

#include <torch/version.h>

#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <regex>
#include <string>

namespace creditlab::learn::dist {

void forEachBucket(
    std::vector<torch::Tensor>& tensors, std::size_t bucketBytes, const std::function<void(torch::Tensor& flat)>& send)
{
    std::size_t i = 0;
    while (i < tensors.size()) {
        // The bucket: tensors [i, j) of one dtype and device, at most bucketBytes (at least one tensor).
        std::size_t j = i + 1;
        std::size_t bytes = tensors[i].numel() * tensors[i].element_size();
        while (j < tensors.size() && tensors[j].scalar_type() == tensors[i].scalar_type()
            && tensors[j].device() == tensors[i].device()
            && bytes + tensors[j].numel() * tensors[j].element_size() <= bucketBytes) {
            bytes += tensors[j].numel() * tensors[j].element_size();
            ++j;
        }
        if (j == i + 1 && tensors[i].is_contiguous()) {
            send(tensors[i]);
        } else {
            std::vector<torch::Tensor> flat;
            flat.reserve(j - i);
            for (std::size_t k = i; k < j; ++k)
                flat.push_back(tensors[k].reshape({ -1 }));
            torch::Tensor bucket = torch::cat(flat);
            send(bucket);
            std::int64_t offset = 0;
            for (std::size_t k = i; k < j; ++k) {
                const std::int64_t n = tensors[k].numel();
                tensors[k].copy_(bucket.narrow(0, offset, n).view_as(tensors[k]));
                offset += n;
            }
        }
        i = j;
    }
}

namespace {

#ifdef CREDITLAB_WITH_C10D
// LibTorch 2.x splits the process group into per-device backends; the collectives are the same calls on either.
#if TORCH_VERSION_MAJOR >= 2
using Group = c10d::Backend;
#else
using Group = c10d::ProcessGroup;
#endif
#endif

/// World 1: nothing to exchange.
class LocalCommunicator : public Communicator {
public:
    LocalCommunicator()
        : Communicator(0, 1)
    {
    }
    void broadcast(std::vector<torch::Tensor>&, int) override { }
    void allreduce(std::vector<torch::Tensor>&) override { }
    void barrier() override { }
    void monitoredBarrier(std::chrono::milliseconds) override { }
};

#ifdef CREDITLAB_WITH_C10D
class C10dCommunicator : public Communicator {
public:
    C10dCommunicator(const LaunchEnv& env, const CommOptions& options)
        : Communicator(env.rank, env.world)
        , m_options(options)
    {
        c10::intrusive_ptr<c10d::Store> store;
        const std::string where = env.storeFile.empty() ? env.masterAddr + ":" + std::to_string(env.masterPort)
                                                        : "the store file " + env.storeFile;
        try {
            if (!env.storeFile.empty()) {
                store = c10::make_intrusive<c10d::FileStore>(env.storeFile, env.world);
            } else {
                c10d::TCPStoreOptions so;
                so.port = static_cast<std::uint16_t>(env.masterPort);
                so.isServer = env.rank == 0 && !env.agentStore;
                so.numWorkers = env.world;
                so.waitWorkers = !env.agentStore;
                so.timeout = options.timeout;
                store = c10::make_intrusive<c10d::TCPStore>(env.masterAddr, so);
            }
            store->setTimeout(options.timeout);
            auto prefixed = c10::make_intrusive<c10d::PrefixStore>("creditlab", store);
            m_store = prefixed;
            if (options.cuda) {
#ifdef USE_C10D_NCCL
                auto nccl = c10d::ProcessGroupNCCL::Options::create();
                nccl->timeout = options.timeout;
                m_nccl = c10::make_intrusive<c10d::ProcessGroupNCCL>(prefixed, env.rank, env.world, nccl);
#else
                throw CommError("rank " + std::to_string(env.rank)
                    + ": CUDA tensors need NCCL, which this LibTorch was built without (Debian's is CPU-only)");
#endif
            }
            // Gloo in any case: the CPU side (and the monitored barrier, which NCCL lacks).
            auto gloo = c10d::ProcessGroupGloo::Options::create(options.timeout);
            // GLOO_SOCKET_IFNAME (PyTorch's convention) names the interface on a machine with several; else this
            // host's name when the ranks span machines, loopback when they share one.
            const char* interface = std::getenv("GLOO_SOCKET_IFNAME");
            if (interface != nullptr && *interface != '\0')
                gloo->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(interface));
            else
                gloo->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname(
                    env.storeFile.empty() && env.masterAddr != "localhost" && env.world > env.localWorld
                        ? hostName()
                        : "127.0.0.1"));
            gloo->threads = options.glooThreads;
            m_gloo = c10::make_intrusive<c10d::ProcessGroupGloo>(
                c10::make_intrusive<c10d::PrefixStore>("gloo", prefixed), env.rank, env.world, gloo);
        } catch (const CommError&) {
            throw;
        } catch (const std::exception& e) {
            throw CommError("rank " + std::to_string(env.rank) + " of " + std::to_string(env.world) + " (" + env.source
                + "): the ranks did not all meet at " + where + " within " + std::to_string(options.timeout.count())
                + " ms; is every rank started, with the same MASTER_ADDR, "
                  "MASTER_PORT and WORLD_SIZE? ("
                + firstLine(e.what()) + ")");
        }
    }

    void broadcast(std::vector<torch::Tensor>& tensors, int root) override
    {
        forEachBucket(tensors, m_options.bucketBytes, [&](torch::Tensor& flat) {
            std::vector<torch::Tensor> one { flat };
            c10d::BroadcastOptions o;
            o.rootRank = root;
            o.timeout = m_options.timeout;
            wait(groupFor(flat)->broadcast(one, o), "broadcast");
        });
    }

    void allreduce(std::vector<torch::Tensor>& tensors) override
    {
        forEachBucket(tensors, m_options.bucketBytes, [&](torch::Tensor& flat) {
            std::vector<torch::Tensor> one { flat };
            c10d::AllreduceOptions o;
            o.reduceOp = c10d::ReduceOp::SUM;
            o.timeout = m_options.timeout;
            wait(groupFor(flat)->allreduce(one, o), "allreduce");
        });
    }

    void barrier() override
    {
        c10d::BarrierOptions o;
        o.timeout = m_options.timeout;
        wait(m_gloo->barrier(o), "barrier");
    }

    void monitoredBarrier(std::chrono::milliseconds timeout) override
    {
        c10d::BarrierOptions o;
        o.timeout = timeout;
        try {
            m_gloo->monitoredBarrier(o, /*waitAllRanks=*/true);
        } catch (const std::exception& e) {
            // Gloo says "[Rank 0]: Ranks 2, 3 failed to pass monitoredBarrier in 1500 ms" on rank 0.
            const std::string what = firstLine(e.what());
            std::smatch m;
            static const std::regex missing("Ranks? ([0-9][0-9, ]*) failed to pass");
            if (std::regex_search(what, m, missing))
                throw CommError("rank " + std::to_string(rank()) + ": rank(s) " + m[1].str()
                    + " did not reach the barrier within " + std::to_string(timeout.count()) + " ms (" + what + ")");
            throw CommError("rank " + std::to_string(rank()) + ": monitored barrier failed: " + what);
        }
    }

private:
    static std::string firstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

    static std::string hostName()
    {
        char name[256] = {};
        return ::gethostname(name, sizeof name - 1) == 0 ? std::string(name) : std::string("127.0.0.1");
    }

    Group* groupFor(const torch::Tensor& t)
    {
#ifdef USE_C10D_NCCL
        if (t.is_cuda()) {
            if (!m_nccl)
                throw CommError("rank " + std::to_string(rank())
                    + ": a CUDA tensor, but the communicator was made "
                      "for CPU tensors (CommOptions::cuda)");
            return m_nccl.get();
        }
#else
        if (t.is_cuda())
            throw CommError("rank " + std::to_string(rank()) + ": a CUDA tensor, but this LibTorch has no NCCL");
#endif
        return m_gloo.get();
    }

    void wait(const c10::intrusive_ptr<c10d::Work>& work, const char* what)
    {
        try {
            work->wait(m_options.timeout);
        } catch (const std::exception& e) {
            throw CommError("rank " + std::to_string(rank()) + ": " + what + " failed: " + missingRanks() + " ("
                + firstLine(e.what()) + ")");
        }
    }

    /// After a failed collective: which ranks are gone. Every rank that is still alive says so in the store under the
    /// same key (its n-th failure); those not heard from within a few seconds are named. A store that no longer
    /// answers means rank 0, which served it, is gone.
    std::string missingRanks()
    {
        const auto patience = std::min<std::chrono::milliseconds>(m_options.timeout, std::chrono::seconds(10));
        std::vector<int> gone;
        try {
            auto alive = c10::make_intrusive<c10d::PrefixStore>("alive/" + std::to_string(++m_failures), m_store);
            alive->set(std::to_string(rank()), std::vector<std::uint8_t> { 1 });
            const auto deadline = std::chrono::steady_clock::now() + patience;
            for (int r = 0; r < world(); ++r) {
                if (r == rank())
                    continue;
                const auto left = std::max<std::chrono::milliseconds>(std::chrono::milliseconds(1),
                    std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()));
                try {
                    alive->wait({ std::to_string(r) }, left);
                } catch (const std::exception&) {
                    gone.push_back(r);
                }
            }
        } catch (const std::exception&) {
            return "rank 0 is gone (the store it served does not answer)";
        }
        if (gone.empty())
            return "every rank is still alive (a network error?)";
        std::string list;
        for (int r : gone)
            list += (list.empty() ? "" : ", ") + std::to_string(r);
        return (gone.size() == 1 ? "rank " + list + " is" : "ranks " + list + " are") + " gone or hung (no word within "
            + std::to_string(patience.count() / 1000) + " s)";
    }

    CommOptions m_options;
    c10::intrusive_ptr<c10d::Store> m_store;
    int m_failures = 0;
    c10::intrusive_ptr<c10d::ProcessGroupGloo> m_gloo;
#ifdef USE_C10D_NCCL
    c10::intrusive_ptr<c10d::ProcessGroupNCCL> m_nccl;
#endif
};

#endif

} // namespace

bool Communicator::available()
{
#ifdef CREDITLAB_WITH_C10D
    return true;
#else
    return false;
#endif
}

std::unique_ptr<Communicator> Communicator::connect(const LaunchEnv& env, const CommOptions& options)
{
    if (!env.distributed() && !options.groupForOneRank)
        return std::make_unique<LocalCommunicator>();
#ifdef CREDITLAB_WITH_C10D
    // A peer that dies closes its sockets; Gloo's next write to one would raise SIGPIPE and kill this rank before it
    // could say which rank is gone. Ignored, the write fails and the collective throws.
    ::signal(SIGPIPE, SIG_IGN);
    return std::make_unique<C10dCommunicator>(env, options);
#else
    (void)options;
    throw CommError("rank " + std::to_string(env.rank) + " of " + std::to_string(env.world)
        + ": this build has no distributed engine (it was built without Gloo's headers: install libgloo-dev and "
          "build again)");
#endif
}

} // namespace creditlab::learn::dist
