// The native JSONL reader (core/interchange/jsonl.h parseTrajectory, core/interchange/jsonlfile.h JsonlFileReader) on
// fuzzed text in memory. Besides crashes: every error is a JsonlError naming the input and a line, and a trajectory
// that was read writes back (formatTrajectory) to a line that reads as the same trajectory and writes the same text
// again.

#include "core/interchange/jsonl.h"
#include "core/interchange/jsonlfile.h"
#include "tests/fuzz/fuzzutil.h"

using namespace creditlab;

namespace {

void roundTrip(const Trajectory& t)
{
    std::string line;
    formatTrajectory(t, line);
    Trajectory back;
    try {
        parseTrajectory(line, back);
    } catch (const JsonlFieldError& e) {
        fuzz::finding("a written trajectory does not read back", "field \"" + e.field + "\": " + e.message + "\n" + line);
    }
    if (!(back == t))
        fuzz::finding("a written trajectory reads back different", line);
    std::string again;
    formatTrajectory(back, again);
    if (again != line)
        fuzz::finding("writing is not stable", line + "\n" + again);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view input = fuzz::text(data, size);
    // One line, as the parser sees it (the reader never passes a newline; parseTrajectory must not care).
    try {
        Trajectory t;
        parseTrajectory(input, t);
        roundTrip(t);
    } catch (const JsonlFieldError&) {
    }
    // The whole input as a file.
    try {
        JsonlFileReader reader(TextInput("fuzz.jsonl", input));
        Trajectory t;
        while (reader.next(t))
            roundTrip(t);
    } catch (const JsonlError& e) {
        fuzz::note(e.what());
        if (!fuzz::names(e.what(), "fuzz.jsonl:" + std::to_string(e.line())) || e.line() == 0)
            fuzz::finding("a JsonlError does not name the file and line", e.what());
    } catch (const std::exception& e) {
        fuzz::unexpected("JsonlFileReader", e);
    }
    return 0;
}
