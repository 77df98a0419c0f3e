#pragma once

// No torch headers here.

#include "core/learn/api/runtime.h"

#include <string>
#include <vector>

namespace creditlab::learn {

struct GpuInfo {
    int index = 0;
    std::string name;
    double memoryGiB = 0.0;
};

/// What `creditlab-cli doctor` prints: the compute environment as plain data.
struct DoctorReport {
    std::string torchVersion;
    bool cudaBuild = false; ///< LibTorch was built with CUDA
    std::vector<GpuInfo> gpus;
    std::string defaultDevice;
    int intraOpThreads = 0;
    int interOpThreads = 0;
    int hardwareThreads = 0;
    std::string ompWaitPolicy; ///< the variable's value now, "(unset)" when unset
    OpenMpWaitPolicy openmpWait; ///< what libgomp itself uses (read from omp_display_env)
    std::string blasLibrary; ///< the BLAS shared object actually loaded (from /proc/self/maps)
    int blasThreads = 0; ///< OpenBLAS's pool size, 0 when not OpenBLAS
    bool mklBuiltIn = false; ///< LibTorch carries MKL inside itself (the pip wheels): no BLAS shows in the maps
    /// Matmuls go to a reference BLAS: no optimised BLAS is mapped and LibTorch has none built in. Debian's LibTorch
    /// without libopenblas0-pthread; not the pip wheels, whose MKL is linked statically.
    bool referenceBlas = false;
    double matmulGflops = 0.0; ///< measured on a 512x512 float32 matmul on the CPU
    std::string parallelInfo; ///< at::get_parallel_info()
};

/// The devices a run can use: "cpu", then "cuda:0", "cuda:1", ... when LibTorch sees GPUs. Cheap (no probe). Any
/// thread.
std::vector<std::string> availableDevices();

/// What the loaded OpenMP runtime uses, asked from libgomp's omp_display_env (OpenMP 5.1), whose text goes to
/// stderr: stderr is pointed at a temporary file meanwhile, so call it while no other thread writes there.
/// `known` is false when the runtime is not libgomp or does not have omp_display_env.
OpenMpWaitPolicy readOpenMpWaitPolicy();

/// Whether matmuls fall to a reference BLAS: `mappedBlas` (the BLAS libraries mapped into the process, as
/// DoctorReport::blasLibrary lists them) holds no OpenBLAS, MKL or BLIS, and LibTorch has no MKL built in.
bool usesReferenceBlas(const std::string& mappedBlas, bool mklBuiltIn);

/// Collects the report; takes about a tenth of a second for the matmul probe. Calls readOpenMpWaitPolicy().
DoctorReport collectDoctorReport();

} // namespace creditlab::learn
