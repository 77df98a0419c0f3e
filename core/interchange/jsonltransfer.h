#pragma once

#include "core/interchange/importformats.h"
#include "core/model/progress.h"

#include <cstdint>
#include <optional>
#include <string>

namespace creditlab {

class Store;

struct ImportResult {
    std::int64_t runId = 0;
    std::uint64_t trajectories = 0;
    std::uint64_t turns = 0;
    double seconds = 0.0;
    std::string format; ///< the source's format, as its users know it (TrajectorySource::formatName)
};

/// Imports one JSONL file as a new run (kind "import", named `runName` or the file's name) in one
/// transaction: either every line lands or nothing does. Parsing runs on a helper thread while
/// this thread writes. A file without any trajectory is refused (std::runtime_error naming it).
/// A UTF-8 byte-order mark at the start is skipped. Throws JsonlError (file, line, field), StoreError, or Cancelled
/// when `progress` returns false. Called on the Store's thread.
ImportResult importJsonl(
    Store& store, const std::string& path, const ProgressCallback& progress = {}, const std::string& runName = {});

/// As importJsonl, for a file in any format ImportFormat names (detected from its first record by
/// default; docs/import-formats.md). Called on the Store's thread.
ImportResult importFile(Store& store, const std::string& path, const ImportOptions& options,
    const ProgressCallback& progress = {}, const std::string& runName = {});

/// The import itself, from any trajectory source: a new run named `runName` (or after `path`), filled in
/// one transaction while `source` is read on a helper thread. `path` names the run's source. Throws what
/// the source throws, StoreError, or Cancelled. Called on the Store's thread.
ImportResult importTrajectories(Store& store, TrajectorySource& source, const std::string& path,
    const ProgressCallback& progress = {}, const std::string& runName = {});

struct ExportResult {
    std::uint64_t trajectories = 0;
    std::uint64_t turns = 0;
};

/// Writes the trajectories of a run (optionally one iteration) as JSONL. A file is written to a
/// temporary name beside it and renamed at the end, so a failed or cancelled export leaves no
/// half-written file; "-" writes to standard output. Throws StoreError, std::runtime_error naming
/// the file, or Cancelled. Called on the Store's thread.
ExportResult exportJsonl(Store& store, std::int64_t runId, std::optional<std::int64_t> iteration,
    const std::string& outputPath, const ProgressCallback& progress = {});

} // namespace creditlab
