#include "core/storage/paths.h"

#include <cstdlib>
#include <filesystem>

namespace creditlab {

namespace {
std::string env(const char* name)
{
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}
} // namespace

std::string dataDirectory()
{
    namespace fs = std::filesystem;
#if defined(_WIN32)
    const std::string base = env("APPDATA");
    return (fs::path(base.empty() ? "." : base) / "creditlab").string();
#elif defined(__APPLE__)
    return (fs::path(env("HOME")) / "Library" / "Application Support" / "creditlab").string();
#else
    // XDG Base Directory: a relative XDG_DATA_HOME is invalid and must be ignored.
    const std::string xdg = env("XDG_DATA_HOME");
    if (!xdg.empty() && fs::path(xdg).is_absolute())
        return (fs::path(xdg) / "creditlab").string();
    const std::string home = env("HOME");
    const fs::path base = home.empty() ? fs::current_path() : fs::path(home);
    return (base / ".local" / "share" / "creditlab").string();
#endif
}

std::string defaultDatabasePath() { return (std::filesystem::path(dataDirectory()) / "runs.db").string(); }

namespace paths {

std::string runFiles(const std::string& database, std::int64_t runId)
{
    return database + ".files/run-" + std::to_string(runId);
}

} // namespace paths

} // namespace creditlab
