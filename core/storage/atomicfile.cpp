#include "core/storage/atomicfile.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <unistd.h>

namespace creditlab {

AtomicFile::AtomicFile(std::string path)
    : m_path(std::move(path))
{
    if (m_path == "-") {
        m_file = stdout;
        return;
    }
    const auto target = std::filesystem::path(m_path);
    m_tmpPath
        = (target.parent_path() / ("." + target.filename().string() + ".part-" + std::to_string(::getpid()))).string();
    m_file = std::fopen(m_tmpPath.c_str(), "wb");
    if (!m_file)
        fail("cannot write");
}

AtomicFile::~AtomicFile()
{
    if (m_committed || m_tmpPath.empty())
        return;
    if (m_file)
        std::fclose(m_file);
    std::remove(m_tmpPath.c_str());
}

void AtomicFile::fail(const char* what) const
{
    const std::string name = m_tmpPath.empty() ? std::string("standard output") : m_path;
    throw std::runtime_error(name + ": " + what + ": " + std::strerror(errno));
}

void AtomicFile::write(std::string_view text)
{
    if (std::fwrite(text.data(), 1, text.size(), m_file) != text.size())
        fail("write failed");
}

void AtomicFile::commit()
{
    if (std::fflush(m_file) != 0)
        fail("write failed");
    if (m_tmpPath.empty()) {
        m_committed = true;
        return;
    }
    const int rc = std::fclose(m_file);
    m_file = nullptr;
    if (rc != 0)
        fail("write failed");
    std::error_code ec;
    std::filesystem::rename(m_tmpPath, m_path, ec);
    if (ec)
        throw std::runtime_error(m_path + ": cannot write: " + ec.message());
    m_committed = true;
}

void writeFileAtomically(const std::string& path, std::string_view text)
{
    AtomicFile file(path);
    file.write(text);
    file.commit();
}

} // namespace creditlab
