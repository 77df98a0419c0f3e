#pragma once

// The YAML loaders' fuzz targets (fuzz_trainconfig.cpp, fuzz_sweep.cpp, fuzz_experiment.cpp): a fuzzed file parsed in
// memory. Every error must be a ConfigError whose message names the file ("fuzz.yaml"); a yaml-cpp exception, another
// exception type or an unnamed message is a finding.

#include "core/learn/api/trainconfig.h"
#include "tests/fuzz/fuzzutil.h"

#include <yaml-cpp/exceptions.h>

namespace creditlab::fuzz {

inline constexpr std::string_view kConfigName = "fuzz.yaml";

/// Shipped configs, where a sweep's relative `base:` is looked for.
inline const std::string kConfigDir = std::string(CREDITLAB_SOURCE_DIR) + "/resources/configs";

/// Inputs that name device or process files are skipped: a `base:` path must be a regular file, but reading one
/// of those would only measure the machine.
inline bool namesSystemFiles(std::string_view input)
{
    for (std::string_view s : { "/dev/", "/proc/", "/sys/" })
        if (input.find(s) != std::string_view::npos)
            return true;
    return false;
}

template <typename Fn> void expectConfigErrors(std::string_view where, Fn&& fn)
{
    try {
        fn();
    } catch (const learn::ConfigError& e) {
        note(e.what());
        if (!names(e.what(), kConfigName))
            finding("a ConfigError does not name the file", e.what());
    } catch (const YAML::Exception& e) {
        unexpected(where, e);
    } catch (const std::exception& e) {
        unexpected(where, e);
    }
}

} // namespace creditlab::fuzz
