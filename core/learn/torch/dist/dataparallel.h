#pragma once

// Data parallelism over a Communicator (issue 36), by the recipe of ../shared/reference/distributed.md §2.4: rank 0's
// parameters are broadcast at the start (and on resume); each rank computes gradients on its shard of the global batch;
// the gradients are summed in flat buckets and scaled to the global batch's normalisation; clipping happens after the
// reduction, so every rank sees the same norm, and every rank steps. Replicas stay bit-identical, which
// verifyReplicas() checks.

#include "core/learn/torch/dist/communicator.h"

#include <vector>

namespace creditlab::learn::dist {

/// Sets every rank's `tensors` (parameters, buffers, optimizer state) to rank 0's.
void broadcastFromRoot(Communicator& comm, const std::vector<torch::Tensor>& tensors);

/// Sums the gradients of `params` over the ranks and multiplies them by `scale` (1 / world when each rank's loss is
/// the mean over an equal shard). Parameters without a gradient on this rank take part with zeros, so that every rank
/// sends the same buckets. No-op for world 1 apart from the scale.
void allreduceGradients(Communicator& comm, const std::vector<torch::Tensor>& params, double scale);

/// Throws CommError naming this rank when its `params` differ from rank 0's (a checksum broadcast from rank 0: the
/// cheap check DDP's verify_params_across_processes makes).
void verifyReplicas(Communicator& comm, const std::vector<torch::Tensor>& params);

} // namespace creditlab::learn::dist
