#include "core/learn/torch/engine/doctor.h"

#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <fstream>
#include <string_view>
#include <thread>
#include <unistd.h>

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

/// What `display` (libgomp's omp_display_env) writes to stderr; empty when stderr cannot be redirected.
std::string captureStderr(void (*display)(int))
{
    std::fflush(stderr);
    std::FILE* capture = std::tmpfile();
    if (!capture)
        return {};
    const int saved = dup(STDERR_FILENO);
    if (saved < 0 || dup2(fileno(capture), STDERR_FILENO) < 0) {
        if (saved >= 0)
            close(saved);
        std::fclose(capture);
        return {};
    }
    display(1); // verbose: includes GOMP_SPINCOUNT
    std::fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    std::string text;
    std::rewind(capture);
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, capture)) > 0;)
        text.append(buffer, n);
    std::fclose(capture);
    return text;
}

/// The quoted value of "  KEY = 'value'" in omp_display_env's text; empty when absent.
std::string displayed(const std::string& text, std::string_view key)
{
    const std::string marker = "  " + std::string(key) + " = '";
    const auto at = text.find(marker);
    if (at == std::string::npos)
        return {};
    const auto begin = at + marker.size();
    const auto end = text.find('\'', begin);
    return end == std::string::npos ? std::string() : text.substr(begin, end - begin);
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

OpenMpWaitPolicy readOpenMpWaitPolicy()
{
    OpenMpWaitPolicy p;
    using Display = void (*)(int);
    auto* display = reinterpret_cast<Display>(dlsym(RTLD_DEFAULT, "omp_display_env"));
    if (!display)
        return p;
    const std::string text = captureStderr(display);
    const std::string policy = displayed(text, "OMP_WAIT_POLICY");
    const std::string spin = displayed(text, "GOMP_SPINCOUNT"); // libgomp's name: other runtimes lack it
    if (policy.empty() || spin.empty())
        return p;
    p.known = true;
    p.spinCount = std::strtoll(spin.c_str(), nullptr, 10);
    // libgomp shows an unset policy as PASSIVE too, but spins for it (300000 rounds, about 3 ms); passive spins 0.
    p.policy = policy == "ACTIVE" ? "active" : p.spinCount == 0 ? "passive" : "default";
    return p;
}

std::vector<std::string> availableDevices()
{
    std::vector<std::string> out { "cpu" };
    if (torch::cuda::is_available())
        for (int i = 0; i < static_cast<int>(torch::cuda::device_count()); ++i)
            out.push_back("cuda:" + std::to_string(i));
    return out;
}

bool usesReferenceBlas(const std::string& mappedBlas, bool mklBuiltIn)
{
    if (mklBuiltIn)
        return false;
    for (const char* optimised : { "openblas", "libmkl", "blis" })
        if (mappedBlas.find(optimised) != std::string::npos)
            return false;
    return true;
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
    r.openmpWait = readOpenMpWaitPolicy();
    r.matmulGflops = measureMatmul();
    r.blasLibrary = loadedBlas();
    r.mklBuiltIn = at::hasMKL();
    r.referenceBlas = usesReferenceBlas(r.blasLibrary, r.mklBuiltIn);
    if (r.mklBuiltIn && r.blasLibrary.rfind("none found", 0) == 0)
        r.blasLibrary = "MKL, built into LibTorch";
    using GetThreads = int (*)();
    if (auto* fn = reinterpret_cast<GetThreads>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads")))
        r.blasThreads = fn();
    r.parallelInfo = at::get_parallel_info();
    return r;
}

} // namespace creditlab::learn
