#pragma once

// Shared by the fuzz targets: the input as text, inputs in several parts, scratch files in /dev/shm, and what a
// finding is. A target catches the errors its code documents (a JsonlError, a ConfigError, ...); anything else that
// escapes (another exception type, a message that does not name the input) is reported by finding(), which aborts,
// so that libFuzzer keeps the input as a crash.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <string>
#include <string_view>
#include <typeinfo>
#include <unistd.h>
#include <vector>

namespace creditlab::fuzz {

inline std::string_view text(const std::uint8_t* data, std::size_t size)
{
    return { reinterpret_cast<const char*>(data), size };
}

/// A fuzzing finding that is not a sanitizer's: prints it and aborts.
[[noreturn]] inline void finding(std::string_view what, std::string_view detail = {})
{
    std::fprintf(stderr, "\n==FINDING== %.*s\n%.*s\n", static_cast<int>(what.size()), what.data(),
        static_cast<int>(detail.size()), detail.data());
    std::abort();
}

/// An exception the target does not expect: its type and message.
[[noreturn]] inline void unexpected(std::string_view where, const std::exception& e)
{
    finding(std::string("unexpected exception in ") + std::string(where) + " (" + typeid(e).name() + ")", e.what());
}

/// With CREDITLAB_FUZZ_VERBOSE set, prints an error a target caught (what a user would see): for checking seeds.
inline void note(std::string_view message)
{
    static const bool verbose = std::getenv("CREDITLAB_FUZZ_VERBOSE") != nullptr;
    if (verbose)
        std::fprintf(stderr, "refused: %.*s\n", static_cast<int>(message.size()), message.data());
}

/// The parts of an input separated by lines "%%" (a mapping file and its records, a tokenizer and its text).
/// At most `count` parts: the last one keeps the rest.
inline std::vector<std::string_view> parts(std::string_view input, std::size_t count)
{
    static constexpr std::string_view kSeparator = "\n%%\n";
    std::vector<std::string_view> out;
    while (out.size() + 1 < count) {
        const auto at = input.find(kSeparator);
        if (at == std::string_view::npos)
            break;
        out.push_back(input.substr(0, at));
        input.remove_prefix(at + kSeparator.size());
    }
    out.push_back(input);
    while (out.size() < count)
        out.emplace_back();
    return out;
}

/// A file in /dev/shm for the code that reads only files, unique to this process; removed on destruction.
class ScratchFile {
public:
    explicit ScratchFile(const std::string& name)
        : m_path("/dev/shm/creditlab-fuzz-" + std::to_string(::getpid()) + "-" + name)
    {
    }
    ~ScratchFile() { std::remove(m_path.c_str()); }
    ScratchFile(const ScratchFile&) = delete;
    ScratchFile& operator=(const ScratchFile&) = delete;

    const std::string& write(std::string_view content)
    {
        std::ofstream out(m_path, std::ios::binary | std::ios::trunc);
        out.write(content.data(), static_cast<std::streamsize>(content.size()));
        out.close();
        if (!out)
            finding("cannot write the scratch file", m_path);
        return m_path;
    }
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
};

/// Whether `message` starts with `prefix` (errors must name the input they are about).
inline bool names(std::string_view message, std::string_view prefix) { return message.starts_with(prefix); }

} // namespace creditlab::fuzz
