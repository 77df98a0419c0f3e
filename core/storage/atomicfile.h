#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace creditlab {

/// An output file that appears only when complete: writes go to a temporary file beside the target,
/// renamed over it by commit(); destroyed uncommitted, the temporary file is removed. The path "-"
/// writes to standard output instead. Errors throw std::runtime_error naming the file. One thread.
class AtomicFile {
public:
    explicit AtomicFile(std::string path);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    void write(std::string_view text);
    /// Flushes and, for a file, renames it into place.
    void commit();

private:
    [[noreturn]] void fail(const char* what) const;

    std::string m_path;
    std::string m_tmpPath;
    std::FILE* m_file = nullptr;
    bool m_committed = false;
};

/// Writes `text` through an AtomicFile.
void writeFileAtomically(const std::string& path, std::string_view text);

} // namespace creditlab
