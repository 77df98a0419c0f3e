#pragma once

#include "core/model.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <unordered_map>

namespace creditlab {

/// Reads a file line by line in large blocks; lines may be of any length. Strips "\n" and "\r\n".
class LineReader {
public:
    /// Throws std::runtime_error naming the file when it cannot be opened.
    explicit LineReader(const std::string& path);
    ~LineReader();
    LineReader(const LineReader&) = delete;
    LineReader& operator=(const LineReader&) = delete;

    /// The next line, valid until the next call; false at the end of the file.
    bool next(std::string_view& line);
    std::uint64_t bytesRead() const { return m_consumed; }
    std::uint64_t size() const { return m_size; }
    /// 1-based number of the line last returned.
    std::size_t lineNumber() const { return m_lineNumber; }

private:
    bool fill();

    std::string m_path;
    std::FILE* m_file = nullptr;
    std::string m_buffer;
    std::size_t m_begin = 0;
    std::size_t m_end = 0;
    bool m_eof = false;
    std::uint64_t m_consumed = 0;
    std::uint64_t m_size = 0;
    std::size_t m_lineNumber = 0;
};

/// Reads the trajectories of one JSONL file in order. Blank lines are skipped; a duplicate id
/// is refused. Errors are thrown as JsonlError naming the file, line and field. Any thread.
class JsonlFileReader {
public:
    explicit JsonlFileReader(const std::string& path);

    /// Reads the next trajectory into `out`; false at the end of the file.
    bool next(Trajectory& out);
    std::size_t lineNumber() const { return m_lines.lineNumber(); }
    std::uint64_t bytesRead() const { return m_lines.bytesRead(); }
    std::uint64_t size() const { return m_lines.size(); }
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
    LineReader m_lines;
    std::unordered_map<std::string, std::size_t> m_idLines;
};

} // namespace creditlab
