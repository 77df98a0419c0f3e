#pragma once

// How a data-parallel run (issue 36) splits an iteration among its ranks and joins it back. Each rank rolls out a
// contiguous share of the iteration's task groups (whole groups: every group-level estimator stays exact); the
// rollouts are then gathered, in rank order, onto every rank, so that judging, credit and selection see the whole
// batch as one process would, and rank 0 records it. The update trains each rank's own trajectories (UpdateShard).
// Learn-internal (torch).

#include "core/learn/torch/dist/dataparallel.h"
#include "core/learn/torch/engine/trainsteps.h"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace creditlab::learn {

/// How a count is shared among the ranks (dataparallel.h; the learned credit models share their work the same way).
using dist::shareOf;

/// A rollout batch as bytes and back (exact: doubles and floats bit for bit). Throws std::runtime_error on bytes that
/// do not decode.
std::string encodeRollouts(const RolloutBatch& batch);
RolloutBatch decodeRollouts(const std::string& bytes);

/// The batches of consecutive shards as one: trajectories in order, the sequences' and samples' indices shifted,
/// counters summed, and the times the slowest shard's (the ranks roll out at once).
RolloutBatch joinRollouts(std::vector<RolloutBatch> parts);

/// Every rank's `local` batch joined in rank order, on every rank. World 1: `local` itself.
RolloutBatch gatherRollouts(dist::Communicator& comm, RolloutBatch local);

} // namespace creditlab::learn
