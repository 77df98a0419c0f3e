#pragma once

#include "core/model/trajectory.h"

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace creditlab {

/// A refused JSONL line. `what()` reads `FILE:LINE: field "FIELD": MESSAGE` (the field part is
/// left out when the line is not valid JSON at all, and the column is added then).
class JsonlError : public std::runtime_error {
public:
    JsonlError(std::string file, std::size_t line, std::string field, std::string message, std::size_t column = 0);

    const std::string& file() const { return m_file; }
    std::size_t line() const { return m_line; }
    const std::string& field() const { return m_field; }
    const std::string& message() const { return m_message; }

private:
    std::string m_file;
    std::size_t m_line;
    std::string m_field;
    std::string m_message;
};

/// A JSONL error without a location yet; JsonlReader adds file and line.
struct JsonlFieldError {
    std::string field;
    std::string message;
    std::size_t column = 0; ///< 1-based; 0 when the error is about a field's value, not its syntax
};

/// Whether `key` is one of the interchange format's members of a turn (`turn`) or of a trajectory.
bool isNativeKey(std::string_view key, bool turn);
/// The name a source's member named like one of ours is kept under, beside ours: "source.<key>". Importers keep
/// foreign members this way, and formatTrajectory() renames a stored extra member that would repeat one of its keys.
std::string keptName(std::string_view key);

/// Parses one line of the DESIGN.md interchange format into `out`. Throws JsonlFieldError.
/// Unknown fields are kept verbatim in `Trajectory::extra` / `Turn::extra`. A member that repeats one of ours is refused,
/// or with `renameDuplicates` kept as "source.<key>" (files exported before 2026-11-29 wrote a source field so named
/// after ours). Any thread.
void parseTrajectory(std::string_view line, Trajectory& out, bool renameDuplicates = false);

/// Writes one trajectory as one JSONL line (without the newline). Known fields first, in
/// the order of DESIGN.md, then unknown fields as they were read. Any thread.
void formatTrajectory(const Trajectory& trajectory, std::string& out);

} // namespace creditlab
