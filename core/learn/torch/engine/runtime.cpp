#include "core/learn/api/runtime.h"

#include <cstdlib>
#include <dlfcn.h>
#include <malloc.h>
#include <stdexcept>
#include <thread>

namespace creditlab::learn {

void configureThreads(const RuntimeOptions& options)
{
    int n = options.threads;
    if (n <= 0)
        n = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    torch::set_num_threads(n);
    // OpenBLAS keeps its own pool; reach it through the loaded library when it is OpenBLAS.
    using SetThreads = void (*)(int);
    if (auto* fn = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads")))
        fn(n);
}

std::string resolveDevice(const std::string& requested)
{
    const bool cuda = torch::cuda::is_available();
    if (requested.empty())
        return cuda ? "cuda" : "cpu";
    if (requested == "cpu")
        return requested;
    if (requested.rfind("cuda", 0) == 0) {
        if (!cuda)
            throw std::invalid_argument("device '" + requested
                + "' is not available: this LibTorch has no CUDA or no GPU is visible (available: cpu)");
        int index = 0;
        if (requested.size() > 4) {
            if (requested[4] != ':')
                throw std::invalid_argument("unknown device '" + requested + "' (use cpu, cuda or cuda:N)");
            try {
                index = std::stoi(requested.substr(5));
            } catch (const std::exception&) {
                throw std::invalid_argument("unknown device '" + requested + "' (use cpu, cuda or cuda:N)");
            }
        }
        const int count = static_cast<int>(torch::cuda::device_count());
        if (index < 0 || index >= count)
            throw std::invalid_argument(
                "device '" + requested + "' is not available (" + std::to_string(count) + " GPU(s) visible)");
        return requested;
    }
    throw std::invalid_argument("unknown device '" + requested + "' (use cpu, cuda or cuda:N)");
}

void releaseFreeMemory() { malloc_trim(0); }

} // namespace creditlab::learn
