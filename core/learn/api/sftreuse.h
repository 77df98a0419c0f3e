#pragma once

// Reusing an earlier run's SFT policy (sft.from_run): which runs of a database trained the SFT a config would
// train, so a second run of the same SFT settings can start from the first one's instead of training it again.

#include <cstdint>
#include <optional>
#include <string>

namespace creditlab {
class Store;
}

namespace creditlab::learn {

class TrainConfig;

/// What decides a run's SFT policy, as canonical text: the seed, the environment and its parameters, and every
/// policy.*, tokenizer.* and sft.* key but sft.from_run. Two configs with the same text train the same SFT. Pure.
std::string sftSignature(const TrainConfig& config);

/// An earlier run to take the SFT policy from.
struct SftSource {
    std::int64_t runId = 0;
    std::string name;
    double sftSeconds = 0.0; ///< its "time/sft_s"; 0 when not recorded
};

/// The newest training run of `store` (at `database`) with the same sftSignature as `config` whose SFT policy is
/// on disk (paths::runFiles(database, id)/reference.pt); nullopt when none, or when `config` already starts from
/// a run or trains no SFT (sft.epochs 0). Runs whose stored config no longer parses are skipped. Reads the store.
std::optional<SftSource> findSftSource(Store& store, const std::string& database, const TrainConfig& config);

} // namespace creditlab::learn
