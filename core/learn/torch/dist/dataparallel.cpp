#include "core/learn/torch/dist/dataparallel.h"

#include <string>

namespace creditlab::learn::dist {

void broadcastFromRoot(Communicator& comm, const std::vector<torch::Tensor>& tensors)
{
    if (comm.world() == 1)
        return;
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> data;
    data.reserve(tensors.size());
    for (const torch::Tensor& t : tensors)
        data.push_back(t.detach()); // shares storage: the broadcast writes the parameters themselves
    comm.broadcast(data, 0);
}

void allreduceGradients(Communicator& comm, const std::vector<torch::Tensor>& params, double scale)
{
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> grads;
    grads.reserve(params.size());
    for (const torch::Tensor& p : params) {
        if (!p.requires_grad())
            continue;
        torch::Tensor g = p.mutable_grad();
        if (!g.defined()) { // unused on this rank: zeros, so that every rank sends the same buckets
            p.mutable_grad() = torch::zeros_like(p);
            g = p.mutable_grad();
        }
        grads.push_back(g);
    }
    comm.allreduce(grads);
    if (scale != 1.0)
        for (torch::Tensor& g : grads)
            g.mul_(scale);
}

void verifyReplicas(Communicator& comm, const std::vector<torch::Tensor>& params)
{
    if (comm.world() == 1)
        return;
    torch::NoGradGuard noGrad;
    // Two checksums in float64: the plain sum and a position-weighted sum (catches swapped values).
    double plain = 0.0, weighted = 0.0;
    double k = 1.0;
    for (const torch::Tensor& p : params) {
        const torch::Tensor flat = p.detach().reshape({ -1 }).to(torch::kFloat64);
        plain += flat.sum().item<double>();
        weighted += (flat * torch::arange(1, flat.numel() + 1, flat.options()).mul_(1e-3 * k)).sum().item<double>();
        k += 1.0;
    }
    const torch::Tensor mine = torch::tensor({ plain, weighted }, torch::kFloat64);
    std::vector<torch::Tensor> root { mine.clone() };
    comm.broadcast(root, 0);
    if (!torch::equal(root[0], mine))
        throw CommError("rank " + std::to_string(comm.rank()) + ": its parameters differ from rank 0's (checksums "
            + std::to_string(plain) + " against " + std::to_string(root[0][0].item<double>())
            + "): the replicas diverged");
}

} // namespace creditlab::learn::dist
