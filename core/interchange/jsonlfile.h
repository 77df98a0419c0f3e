#pragma once

#include "core/model/trajectory.h"

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace creditlab {

/// A producer of record lines with their line numbers, read by LineReader instead of a file: a JSON document's records
/// made into lines one at a time (importer::documentAsLines), so that the import's parser thread makes them while its
/// writer writes.
class LineFeed {
public:
    virtual ~LineFeed() = default;
    /// The next line (valid until the next call) and its 1-based line number; false at the end.
    virtual bool next(std::string_view& line, std::size_t& lineNumber) = 0;
    virtual std::uint64_t bytesRead() const = 0;
    virtual std::uint64_t size() const = 0;
};

/// What a line reader reads: a file, or text already in memory (a request body) under a name that errors use
/// in place of the file's. Converts from a path, so that code reading files names just the path.
struct TextInput {
    TextInput(std::string path)
        : name(std::move(path))
    {
    }
    TextInput(const char* path)
        : name(path)
    {
    }
    TextInput(std::string name, std::string_view text, std::string generatedIdPrefix = "line-")
        : name(std::move(name))
        , memory(text)
        , idPrefix(std::move(generatedIdPrefix))
    {
    }

    std::string name; ///< the file's path, or what errors call the text ("trajectories")
    std::optional<std::string_view> memory; ///< when set, read this instead of a file; it must outlive the reader
    /// Records without an id of their own get this prefix and their line number ("line-7").
    std::string idPrefix = "line-";
    /// JSON lines made from a JSON document's records (importer::documentAsLines): not looked at as a document again.
    bool documentLines = false;
    /// When set, each reader reads its own feed from this (and neither the file nor `memory`).
    std::function<std::unique_ptr<LineFeed>()> feed;
};

/// Reads a file line by line in large blocks; lines may be of any length. Strips "\n" and "\r\n".
class LineReader {
public:
    /// Throws std::runtime_error naming the file when it cannot be opened.
    explicit LineReader(const TextInput& input);
    ~LineReader();
    LineReader(const LineReader&) = delete;
    LineReader& operator=(const LineReader&) = delete;

    /// The next line, valid until the next call; false at the end of the file.
    bool next(std::string_view& line);
    std::uint64_t bytesRead() const { return m_feed ? m_feed->bytesRead() : m_consumed; }
    std::uint64_t size() const { return m_feed ? m_feed->size() : m_size; }
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
    std::unique_ptr<LineFeed> m_feed;
};

/// Reads the trajectories of one JSONL file in order. Blank lines are skipped; a duplicate id
/// is refused. Errors are thrown as JsonlError naming the file, line and field. Any thread.
class JsonlFileReader {
public:
    explicit JsonlFileReader(const TextInput& input);

    /// Reads the next trajectory into `out`; false at the end of the file.
    bool next(Trajectory& out);
    std::size_t lineNumber() const { return m_lines.lineNumber(); }
    /// Keeps a second member named like one of ours as "source.<key>" instead of refusing it (parseTrajectory).
    void setRenameDuplicates(bool on) { m_renameDuplicates = on; }
    std::uint64_t bytesRead() const { return m_lines.bytesRead(); }
    std::uint64_t size() const { return m_lines.size(); }
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
    LineReader m_lines;
    std::unordered_map<std::string, std::size_t> m_idLines;
    bool m_renameDuplicates = false;
};

} // namespace creditlab
