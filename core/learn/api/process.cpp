// Torch-free: the GUI links it without LibTorch (the training module is opened on demand).
//
// This object must only ever be linked into executables: its .preinit_array entry is refused in a shared object
// ("section .preinit_array not allowed in DSO"), so nothing that the training module links may call into this file.
#include "core/learn/api/runtime.h"

#include <cstdlib>
#include <dlfcn.h>
#include <cstring>
#include <malloc.h>
#include <unistd.h>

namespace creditlab::learn {

namespace {

constexpr char kPolicy[] = "OMP_WAIT_POLICY";
/// Marks the environment of the re-executed program, so that it can tell its passive from the user's.
constexpr char kMarker[] = "CREDITLAB_OMP_WAIT_POLICY_SET";

// Plain constant-initialised data: the preinit hook writes it before any dynamic initialiser runs, and no
// initialiser runs over it afterwards.
constinit bool g_recorded = false;
constinit WaitPolicySource g_source = WaitPolicySource::Unset;

/// `envp` has the variable `name`; getenv cannot say yet (see beforeLibraries).
bool hasVariable(char** envp, const char* name)
{
    const std::size_t n = std::strlen(name);
    for (char** e = envp; e && *e; ++e)
        if (std::strncmp(*e, name, n) == 0 && (*e)[n] == '=')
            return true;
    return false;
}

} // namespace

/// Optional, defined by an executable whose runs do not all use OpenMP (creditlab-cli): false when this one will
/// not, so that the hook below does not re-execute it. Called before any library's initialiser: argv only.
extern "C" [[gnu::weak]] bool creditlab_runs_openmp(int argc, char** argv);

namespace {

// libgomp reads OMP_WAIT_POLICY once, in its own initialiser, and every CreditLab executable has it loaded before
// main(): creditlab-cli and the benchmarks through LibTorch, the GUI through Qt Core (libb2 needs libgomp). So a
// value set in main() never applies, and even here it would not: this hook runs before libc's own initialiser,
// which then resets `environ` to the array the kernel passed, dropping any variable added meanwhile. Instead,
// when the variable is unset, the program runs itself again (/proc/self/exe, the same arguments, the environment
// plus OMP_WAIT_POLICY=passive); execve keeps the process id, the open files (stdin, stdout, stderr) and the
// parent, so the exit status reaches the caller unchanged. The variable being set guards against a loop, and a
// value the user exported is kept. Here, before any library's initialiser has run (glibc's _dl_init calls the
// executable's .preinit_array first), the second start repeats only the dynamic linking, not the static
// initialisers that re-executing from main() would repeat too; with Debian's LibTorch (about 290 libraries) that is
// still about 0.45 s of CPU, half a CLI start, so creditlab-cli skips it for its commands that never run LibTorch
// (creditlab_runs_openmp). When execve fails the program goes on as it is and prepareProcess() sets the variable
// too late (InMain).
void beforeLibraries(int argc, char** argv, char** envp)
{
    if (hasVariable(envp, kPolicy)) {
        g_recorded = true;
        g_source = hasVariable(envp, kMarker) ? WaitPolicySource::BeforeLoad : WaitPolicySource::Environment;
        return;
    }
    if (creditlab_runs_openmp && !creditlab_runs_openmp(argc, argv))
        return; // not worth a second start; prepareProcess() sets the variable for the programs this one starts
    std::size_t count = 0;
    while (envp && envp[count])
        ++count;
    // malloc works already (setenv would too, but libc's initialiser would discard its result).
    auto** env = static_cast<char**>(std::malloc((count + 3) * sizeof(char*)));
    if (!env)
        return;
    for (std::size_t i = 0; i < count; ++i)
        env[i] = envp[i];
    // Passive: idle OpenMP threads sleep at once instead of spinning for about 3 ms (libgomp's default), which on
    // few cores takes the CPU from the thread that has work.
    static char policy[] = "OMP_WAIT_POLICY=passive";
    static char marker[] = "CREDITLAB_OMP_WAIT_POLICY_SET=1";
    env[count] = policy;
    env[count + 1] = marker;
    env[count + 2] = nullptr;
    execve("/proc/self/exe", argv, env);
    std::free(env); // execve failed (no /proc, say): go on without
}

using PreinitFunction = void (*)(int, char**, char**);
[[gnu::section(".preinit_array"), gnu::used]] constinit PreinitFunction g_beforeLibraries = beforeLibraries;

} // namespace

void prepareProcess()
{
    if (!g_recorded) {
        // The hook could not re-execute the program (or did not run): too late for an OpenMP runtime loaded
        // already, in time for one loaded later.
        g_recorded = true;
        // An OpenMP runtime not loaded yet (creditlab-cli loads LibTorch, and libgomp with it, only for its training
        // commands) reads the variable when it loads.
        void* gomp = dlopen("libgomp.so.1", RTLD_LAZY | RTLD_NOLOAD);
        if (gomp)
            dlclose(gomp);
        g_source = std::getenv(kPolicy) ? WaitPolicySource::Environment
            : gomp                      ? WaitPolicySource::InMain
                                        : WaitPolicySource::BeforeRuntime;
        setenv(kPolicy, "passive", /*overwrite=*/0);
    }
    unsetenv(kMarker); // the programs this one starts see the variable as exported
    // Attention buffers (tens of MiB) would otherwise be mmap'ed and unmapped on every call, paying page
    // faults each time. glibc caps M_MMAP_THRESHOLD at 32 MiB (a larger value is silently refused), so
    // large blocks come from the heap only with mmap switched off; a high trim threshold keeps the freed
    // heap for the next call instead of returning it to the OS.
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_TOP_PAD, 64 << 20);
}

WaitPolicySource waitPolicySource() { return g_source; }

} // namespace creditlab::learn
