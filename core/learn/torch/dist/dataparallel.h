#pragma once

// Data parallelism over a Communicator (issue 36), by the recipe of ../shared/reference/distributed.md §2.4: rank 0's
// parameters are broadcast at the start (and on resume); each rank computes gradients on its shard of the global batch;
// the gradients are summed in flat buckets and scaled to the global batch's normalisation; clipping happens after the
// reduction, so every rank sees the same norm, and every rank steps. Replicas stay bit-identical, which
// verifyReplicas() checks.

#include "core/learn/torch/dist/communicator.h"

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace creditlab::learn::dist {

/// The items [begin, end) of `count` that rank `rank` of `world` takes: contiguous, sizes differing by at most one,
/// the larger shares first.
std::pair<std::size_t, std::size_t> shareOf(std::size_t count, int rank, int world);

/// Sets every rank's `tensors` (parameters, buffers, optimizer state) to rank 0's.
void broadcastFromRoot(Communicator& comm, const std::vector<torch::Tensor>& tensors);

/// Sums the gradients of `params` over the ranks and multiplies them by `scale` (1 / world when each rank's loss is
/// the mean over an equal shard). Parameters without a gradient on this rank take part with zeros, so that every rank
/// sends the same buckets. No-op for world 1 apart from the scale.
void allreduceGradients(Communicator& comm, const std::vector<torch::Tensor>& params, double scale);

/// Throws CommError naming this rank when its `params` differ from rank 0's (a checksum broadcast from rank 0: the
/// cheap check DDP's verify_params_across_processes makes).
void verifyReplicas(Communicator& comm, const std::vector<torch::Tensor>& params);

/// Every rank's `mine`, in rank order, on every rank (an allreduce of a [world, longest] byte matrix whose row r only
/// rank r fills: c10d calls that exist in 1.13 and 2.x alike). For the small per-iteration records of a run (rollouts,
/// evaluation episodes), not for weights.
std::vector<std::string> allgatherBytes(Communicator& comm, const std::string& mine);
/// Sets `bytes` on every rank to rank `root`'s.
void broadcastBytes(Communicator& comm, std::string& bytes, int root = 0);
/// Rank 0's `bytes` on every rank, or the error rank 0 met instead of making them (`error`, rank 0's alone; the
/// other ranks pass nullopt): returned on every rank, so that every rank can stop with it. The payload travels behind
/// a tag byte, so that no payload is ever taken for an error. World 1: returns `error`.
std::optional<std::string> broadcastResult(
    Communicator& comm, std::string& bytes, const std::optional<std::string>& error);
/// The sum over the ranks of each value, on every rank.
void allreduceSum(Communicator& comm, std::vector<double>& values);

} // namespace creditlab::learn::dist
