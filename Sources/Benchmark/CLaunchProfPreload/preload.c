// preload.c — liblaunchprof-preload.so: the launch sampler for programs that
// do not link LaunchProf, loaded with LD_PRELOAD.
//
// It is linked with the CLaunchProfSampler target's translation units (one
// implementation, one trace format: Plugins/PreloadLibrary builds it from
// that target's file list, with -fvisibility=hidden so that they bind to
// themselves, never to a program's copy; only the interposers below are
// exported: pthread_create, sigprocmask and the exec functions). It records
// process entry, samples from its constructor until exit and writes a whole
// trace file to LAUNCHPROF_TRACE from an atexit handler. In a program that
// links LaunchProf (its ELF note is in the main program) it stands down:
// LaunchProf samples and writes the trace itself, and this library's
// pthread_create hook registers with LaunchProf's sampler instead of its own.
// Linking libunwind here also loads it at start-up, so its thread-local data
// is static TLS, safe to touch from the handler on every thread.
#define _GNU_SOURCE

#include "launchprof_sampler.h"

#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t preload_entry_ns;
static uint64_t preload_spawn_ns;
static pid_t preload_pid;
/// The process whose SIGPROF handler samples (this library's sampler, or
/// LaunchProf's it registered with): only its execs need SIGPROF ignored.
static pid_t sampled_pid;
static const char *preload_trace_path;

/// The sampler this library's hooks serve — its own, or LaunchProf's in a
/// program that links LaunchProf — once registered; all NULL until then (the
/// hooks are plain calls through).
static lp_sampler_thread_hook_t hook;
static int hooked;  // atomic: `hook` is filled

typedef int (*register_fn)(lp_sampler_thread_hook_t *);

/// The registration function of LaunchProf's sampler, from the ELF note
/// LaunchProf puts in the main program (sampler_entry.c: version 2 holds the
/// offset from its own second word to the function), or NULL when the main
/// program does not link LaunchProf. `*linked` says whether it does at all.
typedef struct {
    register_fn found;
    int linked;
} note_search_t;

static int note_search(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    note_search_t *search = data;
    uint32_t desc_size = 0;
    const uint8_t *desc = lp_find_note(info, 0x4c50, "LaunchProf", &desc_size);
    if (desc == NULL) return 1;  // the main program is listed first: look no further
    search->linked = 1;
    uint32_t version;
    int32_t offset;
    if (desc_size < 8) return 1;
    memcpy(&version, desc, 4);
    memcpy(&offset, desc + 4, 4);
    if (version >= 2) search->found = (register_fn)(uintptr_t)(desc + 4 + offset);
    return 1;
}

// MARK: - Thread creation

typedef int (*pthread_create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

typedef struct {
    void *(*start)(void *);
    void *arg;
} preload_start_t;

typedef struct {
    void (*ending)(void *);
    void *slot;
} preload_thread_t;

static void preload_thread_exit(void *thread) {
    preload_thread_t *armed = thread;
    armed->ending(armed->slot);
}

/// Every new thread starts here: its timer is armed at once — by the sampler
/// the hook registered with — and deleted when the thread ends (returns, calls pthread_exit or is
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
    preload_thread_t armed = {hook.ending, hook.began()};
    void *result;
    pthread_cleanup_push(preload_thread_exit, &armed);
    result = start.start(start.arg);
    pthread_cleanup_pop(1);
    return result;
}

/// Interposes the program's (and its libraries') pthread_create while a
/// sampler is registered; otherwise a plain call through.
__attribute__((visibility("default"))) int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *), void *arg) {
    static pthread_create_fn real;
    pthread_create_fn next = __atomic_load_n(&real, __ATOMIC_ACQUIRE);
    if (next == NULL) {
        next = (pthread_create_fn)dlsym(RTLD_NEXT, "pthread_create");
        if (next == NULL) return EAGAIN;
        __atomic_store_n(&real, next, __ATOMIC_RELEASE);
    }
    if (!__atomic_load_n(&hooked, __ATOMIC_ACQUIRE)) return next(thread, attr, start, arg);
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
__attribute__((visibility("default"))) int sigprocmask(int how, const sigset_t *set, sigset_t *old) {
    if (__atomic_load_n(&hooked, __ATOMIC_ACQUIRE) && hook.unwinding()) {
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

// MARK: - Exec

/// A SIGPROF still pending when the process execs outlives the handler: the
/// new image starts with SIGPROF's default action, terminate, and dies of it
/// before its own code runs. An exec costs more CPU than a period at 4 kHz
/// (its kernel time counts), so `launchprof profile --hz 4000 -- env X=1 PROG`
/// was killed every time. The sampler's timers end with the old image anyway
/// (perf events are close-on-exec, POSIX timers are deleted by exec), so each
/// exec first sets SIGPROF to ignored, which drops a pending one and is kept
/// across the exec: the new image's sampler installs its handler as it
/// starts. If the exec fails, the handler is put back.
typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*fexecve_fn)(int, char *const[], char *const[]);
typedef int (*execvpe_fn)(const char *, char *const[], char *const[]);
static execve_fn real_execve;
static fexecve_fn real_fexecve;
static execvpe_fn real_execvpe;

/// Ignores SIGPROF for the exec in the sampled process, keeping the action
/// to put back in `*saved`: 1 when it did. Nothing is changed in a process
/// that does not sample (a forked child, a child that inherited LD_PRELOAD).
static int exec_begins(struct sigaction *saved) {
    if (getpid() != __atomic_load_n(&sampled_pid, __ATOMIC_ACQUIRE)) return 0;
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    return sigaction(SIGPROF, &ignore, saved) == 0;
}

static int exec_failed(const struct sigaction *saved, int changed) {
    int code = errno;
    if (changed) sigaction(SIGPROF, saved, NULL);
    errno = code;
    return -1;
}

/// Resolved in the constructor: a child of a threaded program must not call
/// dlsym between fork and exec.
static void resolve_exec(void) {
    __atomic_store_n(&real_execve, (execve_fn)dlsym(RTLD_NEXT, "execve"), __ATOMIC_RELEASE);
    __atomic_store_n(&real_fexecve, (fexecve_fn)dlsym(RTLD_NEXT, "fexecve"), __ATOMIC_RELEASE);
    __atomic_store_n(&real_execvpe, (execvpe_fn)dlsym(RTLD_NEXT, "execvpe"), __ATOMIC_RELEASE);
}

static int call_execve(const char *path, char *const argv[], char *const envp[]) {
    execve_fn next = __atomic_load_n(&real_execve, __ATOMIC_ACQUIRE);
    if (next == NULL) {
        errno = ENOSYS;
        return -1;
    }
    struct sigaction saved;
    int changed = exec_begins(&saved);
    next(path, argv, envp);
    return exec_failed(&saved, changed);
}

static int call_execvpe(const char *file, char *const argv[], char *const envp[]) {
    execvpe_fn next = __atomic_load_n(&real_execvpe, __ATOMIC_ACQUIRE);
    if (next == NULL) {
        errno = ENOSYS;
        return -1;
    }
    struct sigaction saved;
    int changed = exec_begins(&saved);
    next(file, argv, envp);
    return exec_failed(&saved, changed);
}

__attribute__((visibility("default"))) int execve(const char *path, char *const argv[], char *const envp[]) {
    return call_execve(path, argv, envp);
}

__attribute__((visibility("default"))) int execv(const char *path, char *const argv[]) {
    return call_execve(path, argv, environ);
}

__attribute__((visibility("default"))) int execvpe(const char *file, char *const argv[], char *const envp[]) {
    return call_execvpe(file, argv, envp);
}

__attribute__((visibility("default"))) int execvp(const char *file, char *const argv[]) {
    return call_execvpe(file, argv, environ);
}

__attribute__((visibility("default"))) int fexecve(int fd, char *const argv[], char *const envp[]) {
    fexecve_fn next = __atomic_load_n(&real_fexecve, __ATOMIC_ACQUIRE);
    if (next == NULL) {
        errno = ENOSYS;
        return -1;
    }
    struct sigaction saved;
    int changed = exec_begins(&saved);
    next(fd, argv, envp);
    return exec_failed(&saved, changed);
}

/// execl, execle and execlp: their arguments gathered on the stack (no
/// malloc: they are called between fork and exec), as glibc does.
#define LP_EXECL_MAX 8192
#define GATHER_ARGUMENTS(first, after_null)                                 \
    va_list count_list;                                                     \
    va_start(count_list, first);                                            \
    size_t count = 1;                                                       \
    while (count < LP_EXECL_MAX && va_arg(count_list, char *) != NULL) count++; \
    va_end(count_list);                                                     \
    if (count == LP_EXECL_MAX) {                                            \
        errno = E2BIG;                                                      \
        return -1;                                                          \
    }                                                                       \
    char *argv[count + 1];                                                  \
    va_list list;                                                           \
    va_start(list, first);                                                  \
    argv[0] = (char *)first;                                                \
    for (size_t i = 1; i <= count; i++) argv[i] = va_arg(list, char *);     \
    after_null;                                                             \
    va_end(list)

__attribute__((visibility("default"))) int execl(const char *path, const char *arg, ...) {
    GATHER_ARGUMENTS(arg, (void)0);
    return call_execve(path, argv, environ);
}

__attribute__((visibility("default"))) int execlp(const char *file, const char *arg, ...) {
    GATHER_ARGUMENTS(arg, (void)0);
    return call_execvpe(file, argv, environ);
}

__attribute__((visibility("default"))) int execle(const char *path, const char *arg, ...) {
    char *const *envp;
    GATHER_ARGUMENTS(arg, envp = va_arg(list, char *const *));
    return call_execve(path, argv, envp);
}

// MARK: - Process entry and exit

static void preload_at_exit(void) {
    if (getpid() != preload_pid || preload_trace_path == NULL) return;  // a forked child is not the launch
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

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

/// The environment as this library reads it: not in a setuid program.
static const char *environment(const char *name) { return secure_getenv(name); }

/// Registers `register_hook`'s sampler with this library's hooks.
static void hook_into(register_fn register_hook) {
    if (register_hook(&hook) == 0) __atomic_store_n(&hooked, 1, __ATOMIC_RELEASE);
}

__attribute__((constructor(101))) static void launchprof_preload_entry(void) {
    preload_entry_ns = now_ns();
    // Now, so that a program's own signal handler never runs dlsym.
    __atomic_store_n(&real_sigprocmask, (sigprocmask_fn)dlsym(RTLD_NEXT, "sigprocmask"), __ATOMIC_RELEASE);
    resolve_exec();
    lp_sampler_options_t options;
    if (!lp_sampler_requested(environment, &options)) return;
    // Left in the environment, so that an exec keeps sampling the launch;
    // the pid keeps the launch's children out.
    char pid[24];
    snprintf(pid, sizeof pid, "%d", (int)getpid());
    setenv("LAUNCHPROF_SAMPLE_PID", pid, 1);
    note_search_t search = {NULL, 0};
    dl_iterate_phdr(note_search, &search);
    if (search.linked) {
        // LaunchProf is in the program: it samples and writes the trace;
        // this library only arms its threads (an older LaunchProf, whose
        // note has no registration, starts a helper thread instead).
        if (search.found != NULL) hook_into(search.found);
        __atomic_store_n(&sampled_pid, getpid(), __ATOMIC_RELEASE);  // LaunchProf samples
        return;
    }
    hook_into(lp_sampler_register_thread_hook);
    const char *spawn = secure_getenv("LAUNCHPROF_SPAWN_NS");
    if (spawn != NULL) preload_spawn_ns = strtoull(spawn, NULL, 10);
    const char *path = secure_getenv("LAUNCHPROF_TRACE");
    if (path != NULL && *path != '\0') preload_trace_path = path;
    options.backtrace = unw_backtrace;  // linked: loaded at start-up, static TLS
    if (lp_sampler_start_with(&options) != 0) {
        char message[256];
        int n = snprintf(message, sizeof message, "launchprof: not sampling: %s\n", lp_sampler_error());
        ssize_t ignored = write(2, message, (size_t)n);
        (void)ignored;
        return;
    }
    preload_pid = getpid();
    __atomic_store_n(&sampled_pid, preload_pid, __ATOMIC_RELEASE);
    atexit(preload_at_exit);
}
