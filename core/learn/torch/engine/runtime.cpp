#include "core/learn/api/runtime.h"

#include <cstdlib>
#include <dlfcn.h>
#include <malloc.h>
#include <stdexcept>
#include <sys/resource.h>
#include <thread>

#if defined(CREDITLAB_WITH_CUDA_HEADERS) && __has_include(<c10/cuda/CUDACachingAllocator.h>)
#include <c10/cuda/CUDACachingAllocator.h>
#define CREDITLAB_CUDA_MEMORY_STATS 1
#endif

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

double peakMemoryGiB(const std::string& device)
{
    constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
#if defined(CREDITLAB_CUDA_MEMORY_STATS)
    const torch::Device d(device);
    if (d.is_cuda()) {
        const auto index = d.has_index() ? d.index() : static_cast<c10::DeviceIndex>(0);
        const auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(index);
        const double peak = static_cast<double>(stats.allocated_bytes[0].peak); // [0]: every pool together
        c10::cuda::CUDACachingAllocator::resetPeakStats(index);
        return peak / kGiB;
    }
#else
    static_cast<void>(device);
#endif
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) * 1024.0 / kGiB; // ru_maxrss is in KiB on Linux
}

} // namespace creditlab::learn
