#include "core/learn/backend.h"

#include <dlfcn.h>

#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <system_error>

namespace creditlab::learn {

namespace {

namespace fs = std::filesystem;

const TrainingBackend* load()
{
    std::vector<std::string> candidates;
    if (const char* path = std::getenv("CREDITLAB_TRAINING_MODULE"); path && *path)
        candidates.emplace_back(path);
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path dir = exe.parent_path();
        candidates.push_back((dir / trainingModuleName()).string());
        candidates.push_back((dir / ".." / "lib" / "creditlab" / trainingModuleName()).lexically_normal().string());
        candidates.push_back((dir / ".." / "lib" / trainingModuleName()).lexically_normal().string());
    }
    std::string tried;
    for (const auto& path : candidates) {
        if (!fs::exists(path, ec)) {
            tried += "\n  " + path + ": not there";
            continue;
        }
        // RTLD_LOCAL: LibTorch's symbols stay inside; core, SQLite, spdlog and yaml-cpp are shared libraries
        // that the executable has loaded already, so the module uses the same instances (one store registry).
        void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char* error = dlerror();
            tried += "\n  " + path + ": " + (error ? error : "cannot be loaded");
            continue;
        }
        using Entry = const TrainingBackend* (*)();
        auto entry = reinterpret_cast<Entry>(dlsym(handle, "creditlab_training_backend"));
        if (!entry) {
            tried += "\n  " + path + ": has no creditlab_training_backend";
            continue;
        }
        return entry(); // the handle stays open for the life of the process
    }
    throw std::runtime_error(std::string("cannot load the training module ") + trainingModuleName()
        + " (LibTorch): looked at" + tried);
}

} // namespace

const char* trainingModuleName() { return "libcreditlab_training.so"; }

const TrainingBackend& trainingBackend()
{
    // A failed load is not cached: the error is reported again, and a module installed meanwhile is found.
    static std::mutex mutex;
    static const TrainingBackend* backend = nullptr;
    std::lock_guard lock(mutex);
    if (!backend)
        backend = load();
    return *backend;
}

} // namespace creditlab::learn
