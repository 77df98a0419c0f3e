#include "core/learn/api/module.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace creditlab::learn {

namespace fs = std::filesystem;

void* openModuleSymbol(
    const std::string& fileName, const char* environmentVariable, const char* symbol, const std::string& what)
{
    std::vector<std::string> candidates;
    if (const char* path = environmentVariable ? std::getenv(environmentVariable) : nullptr; path && *path)
        candidates.emplace_back(path);
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path dir = exe.parent_path();
        candidates.push_back((dir / fileName).string());
        candidates.push_back((dir / ".." / "lib" / "creditlab" / fileName).lexically_normal().string());
        candidates.push_back((dir / ".." / "lib" / fileName).lexically_normal().string());
    }
    std::string tried;
    for (const auto& path : candidates) {
        if (!fs::exists(path, ec)) {
            tried += "\n  " + path + ": not there";
            continue;
        }
        void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char* error = dlerror();
            tried += "\n  " + path + ": " + (error ? error : "cannot be loaded");
            continue;
        }
        if (void* entry = dlsym(handle, symbol))
            return entry; // the handle stays open for the life of the process
        tried += "\n  " + path + ": has no " + symbol;
    }
    throw std::runtime_error("cannot load " + what + ": looked at" + tried);
}

} // namespace creditlab::learn
