#include "core/learn/torch/dist/dataparallel.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace creditlab::learn::dist {

std::pair<std::size_t, std::size_t> shareOf(std::size_t count, int rank, int world)
{
    const auto w = static_cast<std::size_t>(std::max(1, world));
    const auto r = static_cast<std::size_t>(rank);
    const std::size_t base = count / w, extra = count % w;
    const std::size_t begin = r * base + std::min(r, extra);
    return { begin, begin + base + (r < extra ? 1 : 0) };
}

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

std::vector<std::string> allgatherBytes(Communicator& comm, const std::string& mine)
{
    const int world = comm.world();
    if (world == 1)
        return { mine };
    std::vector<torch::Tensor> lengths { torch::zeros({ world }, torch::kInt64) };
    lengths[0][comm.rank()] = static_cast<std::int64_t>(mine.size());
    comm.allreduce(lengths);
    const torch::Tensor sizes = lengths[0].contiguous();
    const std::int64_t* n = sizes.data_ptr<std::int64_t>();
    const std::int64_t longest = std::max<std::int64_t>(1, sizes.max().item<std::int64_t>());
    std::vector<torch::Tensor> rows { torch::zeros({ world, longest }, torch::kUInt8) };
    if (!mine.empty())
        std::memcpy(rows[0].data_ptr<std::uint8_t>() + comm.rank() * longest, mine.data(), mine.size());
    comm.allreduce(rows);
    const std::uint8_t* data = rows[0].data_ptr<std::uint8_t>();
    std::vector<std::string> out;
    out.reserve(static_cast<std::size_t>(world));
    for (int r = 0; r < world; ++r)
        out.emplace_back(reinterpret_cast<const char*>(data + r * longest), static_cast<std::size_t>(n[r]));
    return out;
}

void broadcastBytes(Communicator& comm, std::string& bytes, int root)
{
    if (comm.world() == 1)
        return;
    std::vector<torch::Tensor> length { torch::tensor({ static_cast<std::int64_t>(bytes.size()) }, torch::kInt64) };
    comm.broadcast(length, root);
    const auto n = length[0].item<std::int64_t>();
    std::vector<torch::Tensor> data { torch::zeros({ std::max<std::int64_t>(1, n) }, torch::kUInt8) };
    if (comm.rank() == root && n > 0)
        std::memcpy(data[0].data_ptr<std::uint8_t>(), bytes.data(), bytes.size());
    comm.broadcast(data, root);
    bytes.assign(reinterpret_cast<const char*>(data[0].data_ptr<std::uint8_t>()), static_cast<std::size_t>(n));
}

std::optional<std::string> broadcastResult(
    Communicator& comm, std::string& bytes, const std::optional<std::string>& error)
{
    if (comm.world() == 1)
        return error;
    std::string message = error ? "!" + *error : "=" + bytes;
    broadcastBytes(comm, message);
    if (!message.empty() && message.front() == '!')
        return message.substr(1);
    bytes = message.substr(std::min<std::size_t>(1, message.size()));
    return std::nullopt;
}

void allreduceSum(Communicator& comm, std::vector<double>& values)
{
    if (comm.world() == 1 || values.empty())
        return;
    std::vector<torch::Tensor> t {
        torch::from_blob(values.data(), { static_cast<std::int64_t>(values.size()) }, torch::kFloat64).clone()
    };
    comm.allreduce(t);
    std::memcpy(values.data(), t[0].data_ptr<double>(), values.size() * sizeof(double));
}

} // namespace creditlab::learn::dist
