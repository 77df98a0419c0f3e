// Linked into the test executables of ThreadSanitizer builds only (the tsan preset, docs/sanitizers.md).
//
// Debian's Qt is not instrumented: the locks and atomics with which Qt hands work from one thread to another happen
// where ThreadSanitizer does not see them, so every hand-off looked like a race. Our code reaches each hand-off
// through an exported Qt function; the definitions here, which our code's calls bind to before Qt's, tell
// ThreadSanitizer about the ordering Qt provides and then call Qt's own function:
// - QtConcurrent::run: the task calls QFutureInterfaceBase::reportStarted() on the starting thread after storing
//   its arguments, right before QThreadPool::start(), and isCanceled() first thing on the pool thread. refT() and
//   derefT() are the reference count of the futures' shared state (an atomic read-modify-write in Qt); the last
//   derefT() deletes the results, after every other thread's last use of them.
// - Queued calls and queued signals (a worker thread reporting to a GUI-thread object, the GUI starting work on a
//   worker's object): Qt copies the arguments and posts an event under its own locks. What a thread did before
//   QMetaObject::invokeMethodImpl() (invokeMethod with a functor) to an object, or before any QMetaObject::activate()
//   (a signal), happens before the receiving object's QObject::event() or QWidget::event() handles a later
//   QEvent::MetaCall. event() is reached through the vtables of our own QObject and QWidget subclasses, which bind
//   to these definitions; Qt's own classes keep theirs. For signals this is coarser than Qt's real ordering (one
//   token for every signal, not one per connection): a queued slot is ordered after every earlier emission. Calls
//   between Qt's own libraries (Widgets calling Core's QObject::event or activate) bind here too; they only add
//   orderings that Qt provides at those points anyway.
// - QThread::quit(): what the quitting thread did before happens before the thread's deferred deletions
//   (deleteLater() of its objects, run when its event loop ends: a worker deleted on QThread::finished).
// Nothing else is modelled: a race in a task's or a slot's own code with another thread, outside these hand-offs,
// is still reported.
#include <QEvent>
#include <QObject>

#include <dlfcn.h>
#include <sanitizer/tsan_interface.h>

namespace {

template <typename Fn> Fn qtCore(const char* mangled)
{
    void* library = dlopen("libQt6Core.so.6", RTLD_NOW | RTLD_NOLOAD);
    return library ? reinterpret_cast<Fn>(dlsym(library, mangled)) : nullptr;
}

using Method = void (*)(void*);
using BoolQuery = bool (*)(const void*);
using MutexQuery = void* (*)(const void*);
using InvokeMethodImpl = bool (*)(QObject*, void*, Qt::ConnectionType, void*);
using EventHandler = bool (*)(QObject*, QEvent*);
using Activate = void (*)(QObject*, const QMetaObject*, int, void**);

/// Released by every signal emission, acquired by every queued call's delivery.
char g_signals;

template <typename Fn> Fn qtWidgets(const char* mangled)
{
    void* library = dlopen("libQt6Widgets.so.6", RTLD_NOW | RTLD_NOLOAD);
    return library ? reinterpret_cast<Fn>(dlsym(library, mangled)) : nullptr;
}

using CurrentThread = QObject* (*)();

void acquireQueuedCall(QObject* receiver, const QEvent* event)
{
    if (event->type() == QEvent::MetaCall) {
        __tsan_acquire(receiver);
        __tsan_acquire(&g_signals);
    } else if (event->type() == QEvent::DeferredDelete) {
        static const auto currentThread = qtCore<CurrentThread>("_ZN7QThread13currentThreadEv");
        __tsan_acquire(currentThread());
    }
}

/// The futures' shared state: QFutureInterfaceBase::mutex() is one object per shared state, whichever copy asks.
void* sharedState(const void* future)
{
    static const auto mutex = qtCore<MutexQuery>("_ZNK20QFutureInterfaceBase5mutexEv");
    return mutex(future);
}

} // namespace

extern "C" {

void _ZN20QFutureInterfaceBase13reportStartedEv(void* self)
{
    static const auto real = qtCore<Method>("_ZN20QFutureInterfaceBase13reportStartedEv");
    __tsan_release(self);
    real(self);
}

bool _ZNK20QFutureInterfaceBase10isCanceledEv(const void* self)
{
    static const auto real = qtCore<BoolQuery>("_ZNK20QFutureInterfaceBase10isCanceledEv");
    __tsan_acquire(const_cast<void*>(self));
    return real(self);
}

bool _ZNK20QFutureInterfaceBase4refTEv(const void* self)
{
    static const auto real = qtCore<BoolQuery>("_ZNK20QFutureInterfaceBase4refTEv");
    void* state = sharedState(self);
    __tsan_acquire(state);
    const bool result = real(self);
    __tsan_release(state);
    return result;
}

bool _ZNK20QFutureInterfaceBase6derefTEv(const void* self)
{
    static const auto real = qtCore<BoolQuery>("_ZNK20QFutureInterfaceBase6derefTEv");
    void* state = sharedState(self);
    __tsan_release(state);
    const bool stillShared = real(self);
    if (!stillShared)
        __tsan_acquire(state);
    return stillShared;
}

// QMetaObject::invokeMethodImpl(QObject*, QtPrivate::QSlotObjectBase*, Qt::ConnectionType, void*)
bool _ZN11QMetaObject16invokeMethodImplEP7QObjectPN9QtPrivate15QSlotObjectBaseEN2Qt14ConnectionTypeEPv(
    QObject* object, void* slot, Qt::ConnectionType type, void* ret)
{
    static const auto real = qtCore<InvokeMethodImpl>(
        "_ZN11QMetaObject16invokeMethodImplEP7QObjectPN9QtPrivate15QSlotObjectBaseEN2Qt14ConnectionTypeEPv");
    __tsan_release(object);
    return real(object, slot, type, ret);
}

// QMetaObject::activate(QObject*, const QMetaObject*, int, void**): every signal our classes emit.
void _ZN11QMetaObject8activateEP7QObjectPKS_iPPv(QObject* sender, const QMetaObject* meta, int index, void** argv)
{
    static const auto real = qtCore<Activate>("_ZN11QMetaObject8activateEP7QObjectPKS_iPPv");
    __tsan_release(&g_signals);
    real(sender, meta, index, argv);
    __tsan_release(&g_signals); // the arguments of a queued connection are copied inside
}

// QThread::quit()
void _ZN7QThread4quitEv(QObject* thread)
{
    static const auto real = qtCore<Method>("_ZN7QThread4quitEv");
    __tsan_release(thread);
    real(thread);
}

// QObject::event(QEvent*)
bool _ZN7QObject5eventEP6QEvent(QObject* self, QEvent* event)
{
    static const auto real = qtCore<EventHandler>("_ZN7QObject5eventEP6QEvent");
    acquireQueuedCall(self, event);
    return real(self, event);
}

// QWidget::event(QEvent*), for tests that link Qt Widgets (QWidget subclasses that do not override event()).
bool _ZN7QWidget5eventEP6QEvent(QObject* self, QEvent* event)
{
    static const auto real = qtWidgets<EventHandler>("_ZN7QWidget5eventEP6QEvent");
    acquireQueuedCall(self, event);
    return real(self, event);
}

} // extern "C"
