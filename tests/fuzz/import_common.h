#pragma once

// The importers' fuzz targets (fuzz_import_*.cpp): read every trajectory of a fuzzed text in memory through
// openTrajectorySource. Errors must be a JsonlError naming the input and a line, or a std::runtime_error naming the
// input (an undetectable format, no trajectories, a bad mapping file, which names the mapping file).

#include "core/interchange/importformats.h"
#include "core/interchange/jsonl.h"
#include "tests/fuzz/fuzzutil.h"

namespace creditlab::fuzz {

inline constexpr std::string_view kInputName = "fuzz.jsonl";

/// Reads everything; `allowedPrefix` is a second name an error may start with (the mapping file's path).
inline void readAll(std::string_view input, const ImportOptions& options, std::string_view allowedPrefix = {})
{
    try {
        const TextInput in(std::string(kInputName), input);
        const auto source = openTrajectorySource(in, options);
        Trajectory t;
        std::size_t count = 0;
        while (source->next(t)) {
            ++count;
            if (t.id.empty())
                finding("a trajectory without an id");
        }
        (void)count;
    } catch (const JsonlError& e) {
        note(e.what());
        if (e.line() == 0 || !names(e.what(), std::string(kInputName) + ":" + std::to_string(e.line())))
            finding("a JsonlError does not name the input and line", e.what());
    } catch (const std::runtime_error& e) {
        note(e.what());
        if (!names(e.what(), kInputName) && (allowedPrefix.empty() || !names(e.what(), allowedPrefix)))
            finding("an error does not name the input", e.what());
        if (typeid(e) != typeid(std::runtime_error))
            unexpected("openTrajectorySource", e);
    } catch (const std::exception& e) {
        unexpected("openTrajectorySource", e);
    }
}

} // namespace creditlab::fuzz
