#include "core/learn/doctor.h"

#include <ATen/Parallel.h>
#include <chrono>
#include <cstdlib>
#include <dlfcn.h>
#include <fstream>
#include <thread>

#if __has_include(<ATen/cuda/CUDAContext.h>) && defined(CREDITLAB_WITH_CUDA_HEADERS)
#include <ATen/cuda/CUDAContext.h>
#endif

namespace creditlab::learn {

namespace {

/// The BLAS library mapped into this process, e.g. ".../libopenblasp-r0.3.21.so".
std::string loadedBlas()
{
    std::ifstream maps("/proc/self/maps");
    std::string line;
    std::string found;
    while (std::getline(maps, line)) {
        const auto slash = line.find('/');
        if (slash == std::string::npos)
            continue;
        const std::string path = line.substr(slash);
        const auto base = path.substr(path.rfind('/') + 1);
        if (base.find("openblas") != std::string::npos || base.find("libmkl") != std::string::npos
            || base.rfind("libblas", 0) == 0 || base.find("blis") != std::string::npos)
            if (found.find(path) == std::string::npos)
                found += (found.empty() ? "" : ", ") + path;
    }
    return found.empty() ? "none found (statically linked or not loaded)" : found;
}

double measureMatmul()
{
    torch::NoGradGuard noGrad;
    const int64_t n = 512;
    auto a = torch::randn({ n, n });
    auto b = torch::randn({ n, n });
    auto c = torch::matmul(a, b); // warm-up: loads BLAS, starts its pool
    const int reps = 8;
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i)
        c = torch::matmul(a, b);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return 2.0 * n * n * n * reps / s / 1e9;
}

} // namespace

std::vector<std::string> availableDevices()
{
    std::vector<std::string> out { "cpu" };
    if (torch::cuda::is_available())
        for (int i = 0; i < static_cast<int>(torch::cuda::device_count()); ++i)
            out.push_back("cuda:" + std::to_string(i));
    return out;
}

DoctorReport collectDoctorReport()
{
    DoctorReport r;
    r.torchVersion = TORCH_VERSION;
    r.cudaBuild = torch::cuda::is_available() || at::hasCUDA();
    if (torch::cuda::is_available()) {
        const int count = static_cast<int>(torch::cuda::device_count());
        for (int i = 0; i < count; ++i) {
            GpuInfo g;
            g.index = i;
#if defined(CREDITLAB_WITH_CUDA_HEADERS)
            const auto* prop = at::cuda::getDeviceProperties(i);
            g.name = prop->name;
            g.memoryGiB = static_cast<double>(prop->totalGlobalMem) / (1024.0 * 1024.0 * 1024.0);
#else
            g.name = "CUDA device";
#endif
            r.gpus.push_back(g);
        }
    }
    r.defaultDevice = torch::cuda::is_available() ? "cuda" : "cpu";
    r.intraOpThreads = at::get_num_threads();
    r.interOpThreads = at::get_num_interop_threads();
    r.hardwareThreads = static_cast<int>(std::thread::hardware_concurrency());
    const char* policy = std::getenv("OMP_WAIT_POLICY");
    r.ompWaitPolicy = policy ? policy : "(unset)";
    r.matmulGflops = measureMatmul();
    r.blasLibrary = loadedBlas();
    using GetThreads = int (*)();
    if (auto* fn = reinterpret_cast<GetThreads>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads")))
        r.blasThreads = fn();
    r.parallelInfo = at::get_parallel_info();
    return r;
}

} // namespace creditlab::learn
