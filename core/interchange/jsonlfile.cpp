#include "core/interchange/jsonlfile.h"

#include "core/interchange/jsonl.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <sys/stat.h>

namespace creditlab {

namespace {
constexpr std::size_t kBlock = 1 << 20;
}

LineReader::LineReader(const TextInput& input)
    : m_path(input.name)
{
    if (input.feed) {
        m_feed = input.feed();
        m_eof = true;
        return;
    }
    if (input.memory) {
        m_buffer.assign(input.memory->data(), input.memory->size());
        m_end = m_buffer.size();
        m_size = m_buffer.size();
        m_eof = true;
        return;
    }
    const std::string& path = input.name;
    m_file = std::fopen(path.c_str(), "rb");
    if (!m_file)
        throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
    struct stat st { };
    if (::fstat(::fileno(m_file), &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            std::fclose(m_file);
            m_file = nullptr;
            throw std::runtime_error(path + ": is a directory");
        }
        m_size = static_cast<std::uint64_t>(st.st_size);
    }
    m_buffer.resize(kBlock);
}

LineReader::~LineReader()
{
    if (m_file)
        std::fclose(m_file);
}

bool LineReader::fill()
{
    if (m_eof)
        return false;
    // Move the unread tail to the front, growing the buffer when one line fills it.
    const std::size_t tail = m_end - m_begin;
    if (m_begin > 0) {
        std::memmove(m_buffer.data(), m_buffer.data() + m_begin, tail);
        m_begin = 0;
        m_end = tail;
    }
    if (m_end == m_buffer.size())
        m_buffer.resize(m_buffer.size() * 2);
    const std::size_t got = std::fread(m_buffer.data() + m_end, 1, m_buffer.size() - m_end, m_file);
    if (got == 0) {
        if (std::ferror(m_file))
            throw std::runtime_error(m_path + ": read error: " + std::strerror(errno));
        m_eof = true;
        return false;
    }
    m_end += got;
    return true;
}

bool LineReader::next(std::string_view& line)
{
    if (m_feed)
        return m_feed->next(line, m_lineNumber);
    std::size_t scanFrom = m_begin;
    for (;;) {
        const void* nl = std::memchr(m_buffer.data() + scanFrom, '\n', m_end - scanFrom);
        if (nl) {
            const std::size_t pos = static_cast<const char*>(nl) - m_buffer.data();
            std::size_t len = pos - m_begin;
            line = std::string_view(m_buffer.data() + m_begin, len);
            if (!line.empty() && line.back() == '\r')
                line.remove_suffix(1);
            m_consumed += len + 1;
            m_begin = pos + 1;
            ++m_lineNumber;
            return true;
        }
        const std::size_t scanned = m_end - m_begin;
        if (!fill()) {
            if (m_end == m_begin)
                return false;
            // Last line without a newline.
            line = std::string_view(m_buffer.data() + m_begin, m_end - m_begin);
            if (!line.empty() && line.back() == '\r')
                line.remove_suffix(1);
            m_consumed += m_end - m_begin;
            m_begin = m_end;
            ++m_lineNumber;
            return true;
        }
        scanFrom = m_begin + scanned;
    }
}

JsonlFileReader::JsonlFileReader(const TextInput& input)
    : m_path(input.name)
    , m_lines(input)
{
}

bool JsonlFileReader::next(Trajectory& out)
{
    std::string_view line;
    for (;;) {
        if (!m_lines.next(line))
            return false;
        // Some editors start UTF-8 files with a byte-order mark; it is not part of the JSON.
        if (m_lines.lineNumber() == 1 && line.substr(0, 3) == "\xEF\xBB\xBF")
            line.remove_prefix(3);
        if (line.find_first_not_of(" \t") != std::string_view::npos)
            break;
    }
    const std::size_t lineNo = m_lines.lineNumber();
    try {
        parseTrajectory(line, out, m_renameDuplicates);
    } catch (const JsonlFieldError& e) {
        throw JsonlError(m_path, lineNo, e.field, e.message, e.column);
    }
    auto [it, inserted] = m_idLines.try_emplace(out.id, lineNo);
    if (!inserted)
        throw JsonlError(
            m_path, lineNo, "id", "duplicate id \"" + out.id + "\" (first on line " + std::to_string(it->second) + ")");
    return true;
}

} // namespace creditlab
