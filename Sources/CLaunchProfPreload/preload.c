// preload.c — liblaunchprof-preload.so: the launch sampler for programs that
// do not link LaunchProf, loaded with LD_PRELOAD.
//
// It is linked with the sampler's own translation units (one
// implementation, one trace format: Plugins/PreloadLibrary), records process entry, samples from its constructor until exit
// and writes a whole trace file to LAUNCHPROF_TRACE from an atexit handler.
// In a program that links LaunchProf (its ELF note is in the main program)
// it does nothing: LaunchProf samples and writes the trace itself. Linking
// libunwind here also loads it at start-up, so its thread-local data is
// static TLS, safe to touch from the handler on every thread.
// LP_PRELOAD is defined for every translation unit of the library (its
// build command): the sampler's functions are hidden there.
#define _GNU_SOURCE

#include "sampler_internal.h"
#include "sampler_env.h"

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t preload_entry_ns;
static int preload_hook_threads;  // sampling was asked for, here or by LaunchProf
static uint64_t preload_spawn_ns;
static const char *preload_trace_path;

/// Whether the main program carries LaunchProf's ELF note (sampler_entry.c).
static int note_search(struct dl_phdr_info *info, size_t size, void *found) {
    (void)size;
    uint32_t desc_size = 0;
    if (lp_find_note(info, 0x4c50, "LaunchProf", &desc_size) != NULL) *(int *)found = 1;
    return 1;  // the main program is listed first: look no further
}

// MARK: - Thread creation

typedef int (*pthread_create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

typedef struct {
    void *(*start)(void *);
    void *arg;
} preload_start_t;

/// LaunchProf's sampler, when the program links LaunchProf: this library
/// stands down but arms that sampler's threads from its hook.
typedef void *(*thread_began_fn)(void);
typedef void (*thread_ending_fn)(void *);
typedef int (*unwinding_fn)(void);
static thread_began_fn adopted_began;
static thread_ending_fn adopted_ending;
static unwinding_fn adopted_unwinding;

/// Called by LaunchProf's sampler as it starts (found with dlsym): returns 1
/// when this library's hooks (pthread_create, sigprocmask) will serve that
/// sampler, so it needs no helper thread; 0 when sampling was not asked for
/// here.
__attribute__((visibility("default"))) int launchprof_preload_adopt_sampler(thread_began_fn began, thread_ending_fn ending,
                                                                           unwinding_fn unwinding) {
    if (!preload_hook_threads || __atomic_load_n(&lp_sampler_state.started, __ATOMIC_ACQUIRE)) return 0;
    adopted_ending = ending;
    __atomic_store_n(&adopted_unwinding, unwinding, __ATOMIC_RELEASE);
    __atomic_store_n(&adopted_began, began, __ATOMIC_RELEASE);
    return 1;
}

typedef struct {
    thread_ending_fn ending;
    void *slot;
} preload_thread_t;

static void preload_thread_exit(void *thread) {
    preload_thread_t *armed = thread;
    armed->ending(armed->slot);
}

/// Every new thread starts here: its timer is armed at once — by this
/// library's sampler, or by LaunchProf's when the program links LaunchProf —
/// and deleted when the thread ends (returns, calls pthread_exit or is
/// cancelled).
///
/// libunwind is not warmed on each thread: with libunwind loaded at
/// start-up its thread-local data is static TLS, and its first unwind on a
/// thread only maps a trace cache (mmap, inside a lock that blocks signals)
/// and stores it under a pthread key created at sampler start (a low key: no
/// malloc). Warming cost every thread 256 KiB of page faults whether it was
/// ever sampled or not: 0.7 ms of lp-sample-app's three-worker launch.
static void *preload_thread_start(void *boxed) {
    preload_start_t start = *(preload_start_t *)boxed;
    free(boxed);
    preload_thread_t armed = {lp_sampler_thread_ending, NULL};
    thread_began_fn adopted = __atomic_load_n(&adopted_began, __ATOMIC_ACQUIRE);
    if (adopted != NULL) {
        armed.ending = adopted_ending;
        armed.slot = adopted();
    } else {
        armed.slot = lp_sampler_thread_began();
    }
    void *result;
    pthread_cleanup_push(preload_thread_exit, &armed);
    result = start.start(start.arg);
    pthread_cleanup_pop(1);
    return result;
}

/// Interposes the program's (and its libraries') pthread_create while
/// sampling was asked for; otherwise a plain call through.
int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *), void *arg) {
    static pthread_create_fn real;
    pthread_create_fn next = __atomic_load_n(&real, __ATOMIC_ACQUIRE);
    if (next == NULL) {
        next = (pthread_create_fn)dlsym(RTLD_NEXT, "pthread_create");
        if (next == NULL) return EAGAIN;
        __atomic_store_n(&real, next, __ATOMIC_RELEASE);
    }
    if (!preload_hook_threads || start == lp_sampler_helper_main) return next(thread, attr, start, arg);
    preload_start_t *boxed = malloc(sizeof *boxed);
    if (boxed == NULL) return next(thread, attr, start, arg);
    boxed->start = start;
    boxed->arg = arg;
    int result = next(thread, attr, preload_thread_start, boxed);
    if (result != 0) free(boxed);
    return result;
}

// MARK: - Signal masks inside the handler

typedef int (*sigprocmask_fn)(int, const sigset_t *, sigset_t *);
static sigprocmask_fn real_sigprocmask;

/// libunwind blocks every signal around each loader walk and lock it takes
/// (`sigprocmask` twice per frame it has not seen): two system calls that
/// were most of a sample's cost on a real launch (about 20 of 23 µs median:
/// 19 calls per sample on lp-sample-app). In the SIGPROF handler every
/// signal is already blocked (its sa_mask is full) and stays so, so setting
/// the mask to all and back changes nothing: the calls are answered here,
/// the old mask being the full set. Anywhere else this is the real one.
int sigprocmask(int how, const sigset_t *set, sigset_t *old) {
    unwinding_fn adopted = __atomic_load_n(&adopted_unwinding, __ATOMIC_ACQUIRE);
    if (lp_sampler_unwinding() || (adopted != NULL && adopted())) {
        if (old != NULL) sigfillset(old);
        return 0;
    }
    sigprocmask_fn next = __atomic_load_n(&real_sigprocmask, __ATOMIC_ACQUIRE);
    if (next == NULL) {
        next = (sigprocmask_fn)dlsym(RTLD_NEXT, "sigprocmask");
        if (next == NULL) {
            errno = ENOSYS;
            return -1;
        }
        __atomic_store_n(&real_sigprocmask, next, __ATOMIC_RELEASE);
    }
    return next(how, set, old);
}

// MARK: - Process entry and exit

static void preload_at_exit(void) {
    if (lp_sampler_state.forked_child || preload_trace_path == NULL) return;
    lp_sampler_stop();
    if (lp_sampler_write_trace(preload_trace_path, preload_spawn_ns, preload_entry_ns) != 0) {
        char message[4400];
        int n = snprintf(message, sizeof message, "launchprof: cannot write the trace '%s': %s\n",
                         preload_trace_path, strerror(errno));
        if (n > 0) {
            ssize_t ignored = write(2, message, (size_t)n < sizeof message ? (size_t)n : sizeof message - 1);
            (void)ignored;
        }
    }
}

__attribute__((constructor(101))) static void launchprof_preload_entry(void) {
    preload_entry_ns = lp_sampler_now();
    // Now, so that a program's own signal handler never runs dlsym.
    __atomic_store_n(&real_sigprocmask, (sigprocmask_fn)dlsym(RTLD_NEXT, "sigprocmask"), __ATOMIC_RELEASE);
    uint32_t hz, depth;
    if (!lp_sampler_requested(&hz, &depth)) return;
    preload_hook_threads = 1;
    int linked = 0;
    dl_iterate_phdr(note_search, &linked);
    if (linked) return;  // LaunchProf is in the program: it samples (threads are still warmed here)
    const char *spawn = secure_getenv("LAUNCHPROF_SPAWN_NS");
    if (spawn != NULL) preload_spawn_ns = strtoull(spawn, NULL, 10);
    const char *path = secure_getenv("LAUNCHPROF_TRACE");
    if (path != NULL && *path != '\0') preload_trace_path = path;
    if (lp_sampler_start(hz, depth) != 0) {
        char message[256];
        int n = snprintf(message, sizeof message, "launchprof: not sampling: %s\n", lp_sampler_error());
        ssize_t ignored = write(2, message, (size_t)n);
        (void)ignored;
        return;
    }
    atexit(preload_at_exit);
}
