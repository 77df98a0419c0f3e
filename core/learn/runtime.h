#pragma once

// No torch headers here: this header is seen by the CLI and may be seen by Qt code.

#include <string>

namespace creditlab::learn {

/// Thread and allocator settings for the torch code. Call `prepareProcess()` first thing in main(),
/// before any thread starts: OpenMP reads OMP_WAIT_POLICY once, at its first use.
struct RuntimeOptions {
    int threads = 0; ///< intra-op threads for LibTorch and OpenBLAS; 0 = number of cores
};

/// Sets OMP_WAIT_POLICY=passive (unless the user set it: idle OpenMP threads otherwise spin and
/// slow a 2-thread PPO update by 1.5x) and raises glibc's mmap/trim thresholds so large attention
/// buffers are not returned to the OS on every call. Main thread, before other threads exist.
void prepareProcess();

/// Applies the thread count to LibTorch (`at::set_num_threads`) and to OpenBLAS, whose own pool
/// ignores LibTorch's setting. Any thread.
void configureThreads(const RuntimeOptions& options);

/// "cpu" or "cuda[:N]". Throws std::invalid_argument for a device that is not available, naming it
/// and what is available. An empty `requested` picks CUDA when present, else CPU.
std::string resolveDevice(const std::string& requested);

} // namespace creditlab::learn
