#pragma once

#include "core/probe/layerwiseprobe.h"
#include "core/probe/pairprobe.h"

#include <string>
#include <string_view>

namespace creditlab::probe {

/// Version of the probe JSON format written by toJson(); readers accept this version only.
inline constexpr int kProbeFormatVersion = 1;

/// A fitted probe as JSON text: {"format":"creditlab-probe","version":1,"kind":"linear"|"pair"|"layerwise",...}
/// holding every scaler mean/scale, weight vector and intercept, exact to the last bit (shortest round-trip
/// decimals). Any thread. Throws std::logic_error for an unfitted probe.
std::string toJson(const LinearProbe& probe);
std::string toJson(const PairProbe& probe);
std::string toJson(const LayerwiseProbe& probe);

/// Parse toJson() output. Throw std::invalid_argument naming the problem on malformed JSON, another format,
/// version or kind, missing members or inconsistent sizes.
LinearProbe linearProbeFromJson(std::string_view json);
PairProbe pairProbeFromJson(std::string_view json);
LayerwiseProbe layerwiseProbeFromJson(std::string_view json);

/// The "kind" member of a probe file ("linear", "pair" or "layerwise"), to pick the reader.
std::string probeKindFromJson(std::string_view json);

/// Writes toJson(probe) to `path` atomically (a reader never sees half a file); throws std::runtime_error.
template <typename Probe> void saveProbe(const std::string& path, const Probe& probe);
/// Reads a whole probe file; throws std::runtime_error when it cannot be read.
std::string readProbeFile(const std::string& path);

} // namespace creditlab::probe
