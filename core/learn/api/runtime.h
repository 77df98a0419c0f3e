#pragma once

// No torch headers here: this header is seen by the CLI and may be seen by Qt code.

#include <cstdint>
#include <string>

namespace creditlab::learn {

/// Thread and allocator settings for the torch code. Call `prepareProcess()` first thing in main(),
/// before any thread starts.
struct RuntimeOptions {
    int threads = 0; ///< intra-op threads for LibTorch and OpenBLAS; 0 = number of cores
};

/// Where this process's OMP_WAIT_POLICY came from. libgomp reads it once, in its initialiser, which runs before
/// main() in every CreditLab executable (LibTorch, or Qt Core through libb2, needs it).
enum class WaitPolicySource : std::uint8_t {
    Unset, ///< not settled: the preinit hook did not run and prepareProcess() was not called yet
    Environment, ///< exported before the program started: the user's value, kept
    BeforeLoad, ///< unset at start: the program re-executed itself with passive before any library's initialiser
                ///< ran, so libgomp read it
    InMain, ///< unset at start, and the program did not re-execute itself (execve failed, or the executable said this
            ///< run uses no OpenMP): prepareProcess() set passive, too late for libgomp
    BeforeRuntime, ///< unset at start; prepareProcess() set passive before any OpenMP runtime was loaded (creditlab-cli
                   ///< loads it with its training module, on demand), so libgomp reads it
};

/// Sets OMP_WAIT_POLICY=passive unless the user set it (idle OpenMP threads otherwise spin and slow a 2-thread
/// PPO update by 1.5x) and raises glibc's mmap/trim thresholds so large attention buffers are not returned to the
/// OS on every call. Main thread, before other threads exist. Linking it also links a .preinit_array hook that
/// re-executes the program with the variable set, before any library's initialiser runs, when it is unset
/// (process.cpp): executables only, never a shared object. An executable may define
/// `extern "C" bool creditlab_runs_openmp(int argc, char** argv)` to skip that for runs without OpenMP.
void prepareProcess();

/// Returns the allocator's free memory to the system (malloc_trim) in every arena. prepareProcess() keeps freed heap
/// for reuse, and each thread's arena keeps its own high-water mark, so without this a process that trains runs one
/// after another or side by side (an experiment's shared SFT, then its trials) holds the peak of each. Called after
/// each evaluation and when a run ends; costs page faults on the next large allocation. Any thread.
void releaseFreeMemory();

/// The peak memory in GiB since the last call for `device` ("cpu", "cuda", "cuda:N"): the CUDA caching allocator's peak
/// allocation (its peak is reset, so each call covers one iteration) in a build with CUDA headers, else the process's
/// peak resident set since it started (getrusage). Any thread.
double peakMemoryGiB(const std::string& device);

/// How OMP_WAIT_POLICY was settled in this process; any thread. Executables only, like prepareProcess(): a module
/// is handed the value (creditlab-cli's training commands get it from the executable).
WaitPolicySource waitPolicySource();

/// What the OpenMP runtime itself uses, as libgomp reports it (omp_display_env); see doctor.h.
struct OpenMpWaitPolicy {
    bool known = false; ///< the runtime is libgomp and reported its settings
    std::string policy; ///< "passive" (no spinning), "active" (spins), "default" (spins spinCount rounds, then sleeps)
    long long spinCount = -1; ///< GOMP_SPINCOUNT in force
};

/// The doctor's line (waitpolicy.cpp, which a module may link): the variable's value and whether it is in force, e.g. "passive (in force: set before
/// LibTorch loaded)", "active (in force: exported before the program started)", "passive (NOT in force: set in
/// main(), after the libraries loaded; ...)". Any thread.
std::string describeWaitPolicy(WaitPolicySource source, const OpenMpWaitPolicy& runtime);

/// Applies the thread count to LibTorch (`at::set_num_threads`) and to OpenBLAS, whose own pool
/// ignores LibTorch's setting. Any thread.
void configureThreads(const RuntimeOptions& options);

/// "cpu" or "cuda[:N]". Throws std::invalid_argument for a device that is not available, naming it
/// and what is available. An empty `requested` picks CUDA when present, else CPU.
std::string resolveDevice(const std::string& requested);

} // namespace creditlab::learn
