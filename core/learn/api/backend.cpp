#include "core/learn/api/backend.h"

#include "core/learn/api/module.h"

#include <mutex>
#include <string>

namespace creditlab::learn {

namespace {

const TrainingBackend* load()
{
    using Entry = const TrainingBackend* (*)();
    // Core, SQLite, spdlog and yaml-cpp are shared libraries that the executable has loaded already, so the module
    // uses the same instances (one store registry); LibTorch's symbols stay inside it.
    auto entry = reinterpret_cast<Entry>(openModuleSymbol(trainingModuleName(), "CREDITLAB_TRAINING_MODULE",
        "creditlab_training_backend", std::string("the training module ") + trainingModuleName() + " (LibTorch)"));
    return entry();
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
