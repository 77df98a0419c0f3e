// Linked into the test executables of ThreadSanitizer builds only (the tsan preset, docs/sanitizers.md).
//
// Qt 6.4's QProcess starts a program with clone(CLONE_VM | CLONE_VFORK): the child shares the parent's memory until
// it calls execve. GCC 12's ThreadSanitizer intercepts clone() as a fork and runs its fork-child bookkeeping in that
// child, on the parent's own state: from then on the parent counts as "after a multi-threaded fork" (its next
// thread dies: "starting new threads after multi-threaded fork is not supported"), its other threads count as
// gone, and the thread that started the program is ignored. A child that shares the parent's memory only execs, so
// this definition, which the dynamic linker takes before the sanitizer's, passes such clones straight to the C
// library; every other clone still goes through the sanitizer.
#include <dlfcn.h>
#include <sched.h>
#include <sys/types.h>

#include <cstdarg>

namespace {

using CloneFn = int (*)(int (*)(void*), void*, int, void*, ...);

CloneFn cLibraryClone()
{
    static const CloneFn fn = [] {
        void* libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
        return libc ? reinterpret_cast<CloneFn>(dlsym(libc, "clone")) : nullptr;
    }();
    return fn;
}

CloneFn sanitizerClone()
{
    static const CloneFn fn = reinterpret_cast<CloneFn>(dlsym(RTLD_NEXT, "clone"));
    return fn;
}

} // namespace

extern "C" int clone(int (*fn)(void*), void* stack, int flags, void* arg, ...)
{
    // The optional arguments, read as the C library's own clone() reads them: it uses each only under its flag.
    va_list rest;
    va_start(rest, arg);
    pid_t* parentTid = va_arg(rest, pid_t*);
    void* tls = va_arg(rest, void*);
    pid_t* childTid = va_arg(rest, pid_t*);
    va_end(rest);
    const CloneFn real = (flags & CLONE_VM) && cLibraryClone() ? cLibraryClone() : sanitizerClone();
    return real(fn, stack, flags, arg, parentTid, tls, childTid);
}
