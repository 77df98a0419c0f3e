#pragma once

// Checkpoint files of a training run. Learn-internal (torch).

#include "core/learn/torch/pch.h"
#include "core/learn/torch/lm/transformer.h"

#include <cstdint>
#include <string>

namespace creditlab::learn {

/// The scalar state a resumed run needs besides the tensors.
struct TrainState {
    std::int64_t iteration = 0;
    std::uint64_t rng = 0;
    double klCoef = 0.0;
};

/// Writes `dir` (policy.pt, optimizer.pt, optional critic.pt and critic_optimizer.pt, state.txt) through a
/// temporary sibling directory renamed into place, so a crash never leaves half a checkpoint.
void saveCheckpoint(const std::string& dir, Transformer& policy, torch::optim::Optimizer& optimizer,
    Transformer* critic, torch::optim::Optimizer* criticOptimizer, const TrainState& state);
/// Loads what saveCheckpoint() wrote; throws std::runtime_error naming the file on a missing or bad one.
TrainState loadCheckpoint(const std::string& dir, Transformer& policy, torch::optim::Optimizer& optimizer,
    Transformer* critic, torch::optim::Optimizer* criticOptimizer);

/// Writes `archive` with a text `header` under `headerKey` to `path` through a temporary file renamed into place;
/// throws std::runtime_error naming `path` and `what` ("TurnRD", "value baseline") when it cannot.
void saveArchiveWithHeader(torch::serialize::OutputArchive& archive, const std::string& path, const char* headerKey,
    const std::string& header, const char* what);
/// Opens what saveArchiveWithHeader() wrote (on the CPU) into `archive` and returns its header; throws
/// std::runtime_error naming `path` and `what` for a missing file or one without the header.
std::string loadArchiveWithHeader(
    torch::serialize::InputArchive& archive, const std::string& path, const char* headerKey, const char* what);

/// Saves or loads only a module's parameters (the reference policy).
void saveModule(const std::string& path, Transformer& module);
void loadModule(const std::string& path, Transformer& module);

} // namespace creditlab::learn
