// Output helpers shared by the commands.
#include "commands.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <unistd.h>

namespace creditlab::cli {

/// Writes `text` to `path` through a temporary file renamed at the end ("-": stdout).
void writeTextAtomically(const std::string& path, const std::string& text)
{
    if (path == "-") {
        if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0)
            throw std::runtime_error(std::string("standard output: write failed: ") + std::strerror(errno));
        return;
    }
    const auto target = std::filesystem::path(path);
    const std::string tmp
        = (target.parent_path() / ("." + target.filename().string() + ".part-" + std::to_string(::getpid()))).string();
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f)
        throw std::runtime_error(path + ": cannot write: " + std::strerror(errno));
    const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    const int err = errno;
    if (std::fclose(f) != 0 || !ok) {
        std::remove(tmp.c_str());
        throw std::runtime_error(path + ": write failed: " + std::strerror(ok ? errno : err));
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::remove(tmp.c_str());
        throw std::runtime_error(path + ": cannot write: " + ec.message());
    }
}

} // namespace creditlab::cli
