// Torch-free: the GUI calls this before LibTorch is loaded (the training module is opened on demand).
#include "core/learn/runtime.h"

#include <cstdlib>
#include <malloc.h>

namespace creditlab::learn {

void prepareProcess()
{
    setenv("OMP_WAIT_POLICY", "passive", /*overwrite=*/0);
    // Attention buffers (tens of MiB) would otherwise be mmap'ed and unmapped on every call, paying page
    // faults each time. glibc caps M_MMAP_THRESHOLD at 32 MiB (a larger value is silently refused), so
    // large blocks come from the heap only with mmap switched off; a high trim threshold keeps the freed
    // heap for the next call instead of returning it to the OS.
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_TOP_PAD, 64 << 20);
}

} // namespace creditlab::learn
