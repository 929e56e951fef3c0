// sampler.c — start, stop and the SIGPROF handler of the launch sampler.
//
// The handler is async-signal-safe: it reads the clock, walks the
// interrupted stack with libunwind from the signal's context
// (sampler_unwind.c; unw_backtrace where libunwind's cursor functions are
// not found), warmed on the starting thread beforehand, reserves space in a
// preallocated buffer with one fetch_add, copies the PCs and commits with a
// release store. No malloc, no locks of ours, no Swift. A sample that does
// not fit is counted as lost; a stack libunwind cannot walk is recorded as
// the interrupted PC alone and counted as failed. Stopping only stops the
// timers: the module map and the threads' names are read when the trace is
// encoded, off the launch's way to ready.
#define _GNU_SOURCE
#include "sampler_internal.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <ucontext.h>
#include <unistd.h>

lp_sampler_t lp_sampler_state = {.wake_fd = -1};

/// Set while this thread's handler is inside libunwind (see lp_sampler_unwinding).
static __thread int unwinding __attribute__((tls_model("initial-exec")));

int lp_sampler_unwinding(void) { return unwinding; }

__thread int lp_sampler_own_code __attribute__((tls_model("initial-exec")));

/// Frames of the handler itself (handler, signal trampoline) that precede
/// the interrupted PC in unw_backtrace's answer.
#define LP_HANDLER_FRAMES 8

uint64_t lp_sampler_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

uint32_t lp_sampler_gettid(void) { return (uint32_t)syscall(SYS_gettid); }

static uintptr_t interrupted_pc(const void *context) {
    const ucontext_t *uc = context;
#if defined(__x86_64__)
    return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (uintptr_t)uc->uc_mcontext.pc;
#else
    (void)uc;
    return 0;
#endif
}

// MARK: - The handler

static void record_sample(void **frames, int depth, uint16_t flags, uint32_t tid,
                          uint32_t weight, uint64_t ts, uint64_t cost) {
    uint64_t size = sizeof(lp_sample_record_t) + (uint64_t)depth * sizeof(uint64_t);
    uint64_t offset = __atomic_fetch_add(&lp_sampler_state.used, size, __ATOMIC_RELAXED);
    if (offset + size > lp_sampler_state.capacity) {
        __atomic_fetch_add(&lp_sampler_state.lost, 1, __ATOMIC_RELAXED);
        return;
    }
    // In range: offset + size <= capacity, checked just above.
    lp_sample_record_t *record = (lp_sample_record_t *)(lp_sampler_state.buffer + offset);
    record->size = (uint32_t)size;
    record->ts = ts;
    record->tid = tid;
    record->depth = (uint16_t)depth;
    record->flags = flags;
    record->cost_ns = cost > UINT32_MAX ? UINT32_MAX : (uint32_t)cost;
    record->weight = weight;
    uint64_t *pcs = (uint64_t *)(record + 1);
    for (int i = 0; i < depth; i++) pcs[i] = (uint64_t)(uintptr_t)frames[i];
    __atomic_store_n(&record->committed, 1, __ATOMIC_RELEASE);
    __atomic_fetch_add(&lp_sampler_state.samples, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&lp_sampler_state.handler_ns, cost, __ATOMIC_RELAXED);
}

static void handler(int signo, siginfo_t *info, void *context) {
    (void)signo;
    int saved_errno = errno;
    if (!__atomic_load_n(&lp_sampler_state.active, __ATOMIC_ACQUIRE) || lp_sampler_own_code) goto out;
    __atomic_fetch_add(&lp_sampler_state.inflight, 1, __ATOMIC_ACQ_REL);
    // Checked again after counting ourselves in, so stop() never misses us.
    if (__atomic_load_n(&lp_sampler_state.active, __ATOMIC_ACQUIRE)) {
        int timer = info->si_code == SI_TIMER;
        uint32_t tid = timer ? (uint32_t)info->si_value.sival_int : lp_sampler_gettid();
        // POSIX CPU-clock timers are checked at the scheduler tick
        // (CONFIG_HZ): at a higher rate one signal stands for several
        // periods, and says so. A perf event signals every period, but a
        // signal merged with a pending one stands for several too: its
        // event's count says how many (sampler_events.c).
        uint32_t weight = timer && info->si_overrun > 0 ? 1 + (uint32_t)info->si_overrun : 1;
        uint16_t merged = 0;
        if (!timer && info->si_code >= POLL_IN && info->si_code <= POLL_HUP) {
            // Only the thread's own event is read: a descriptor of the
            // program's that signals SIGPROF is none of ours.
            lp_sampled_thread_t *thread = lp_sampler_thread((int32_t)tid);
            int event = thread != NULL ? __atomic_load_n(&thread->event, __ATOMIC_ACQUIRE) : 0;
            if (event > 0 && event - 1 == info->si_fd) {
                weight = lp_sampler_event_periods(info->si_fd, UINT64_C(1000000000) / lp_sampler_state.hz);
                merged = weight > 1 ? LP_SAMPLE_MERGED : 0;
            }
        }
        void *frames[LP_SAMPLER_MAX_DEPTH + LP_HANDLER_FRAMES];
        int capacity = (int)lp_sampler_state.max_depth + LP_HANDLER_FRAMES;
        uint16_t state = lp_sampler_wall_state(weight, tid) | merged;
        uint64_t t0 = lp_sampler_now();
        if (lp_sampler_loader_busy()) {
            // Unwinding could wait for a loader lock this thread is taking.
            __atomic_fetch_add(&lp_sampler_state.failed, 1, __ATOMIC_RELAXED);
            frames[0] = (void *)interrupted_pc(context);
            record_sample(frames, 1, LP_SAMPLE_LOADER_BUSY | state, tid, weight, t0, 0);
            goto done;
        }
        if (lp_sampler_state.unwind_context != NULL) {
            // From the signal's context: the interrupted PC comes first.
            int capacity_here = (int)lp_sampler_state.max_depth + 1;
            unwinding = 1;
            int count = lp_sampler_state.unwind_context(context, frames, capacity_here);
            unwinding = 0;
            uint64_t t1 = lp_sampler_now();
            if (count <= 0) {
                __atomic_fetch_add(&lp_sampler_state.failed, 1, __ATOMIC_RELAXED);
                frames[0] = (void *)interrupted_pc(context);
                record_sample(frames, 1, LP_SAMPLE_UNWIND_FAILED | state, tid, weight, t0, t1 - t0);
                goto done;
            }
            uint16_t flags = state;
            if (count == capacity_here) {
                flags |= LP_SAMPLE_TRUNCATED;
                count = (int)lp_sampler_state.max_depth;
            }
            record_sample(frames, count, flags, tid, weight, t0, t1 - t0);
            goto done;
        }
        unwinding = 1;
        int count = lp_sampler_state.backtrace(frames, capacity);
        unwinding = 0;
        uint64_t t1 = lp_sampler_now();
        void *pc = (void *)interrupted_pc(context);
        int first = -1;
        for (int i = 0; i < count && i < LP_HANDLER_FRAMES; i++) {
            if (frames[i] == pc) { first = i; break; }
        }
        if (first < 0) {
            __atomic_fetch_add(&lp_sampler_state.failed, 1, __ATOMIC_RELAXED);
            frames[0] = pc;
            record_sample(frames, 1, LP_SAMPLE_UNWIND_FAILED | state, tid, weight, t0, t1 - t0);
        } else {
            int depth = count - first;
            uint16_t flags = state;
            if (count == capacity || depth > (int)lp_sampler_state.max_depth) flags |= LP_SAMPLE_TRUNCATED;
            if (depth > (int)lp_sampler_state.max_depth) depth = (int)lp_sampler_state.max_depth;
            record_sample(frames + first, depth, flags, tid, weight, t0, t1 - t0);
        }
    }
done:
    __atomic_fetch_sub(&lp_sampler_state.inflight, 1, __ATOMIC_ACQ_REL);
out:
    errno = saved_errno;
}

// MARK: - Start and stop

static void forked_child(void) {
    // Timers and the helper thread are not inherited: this process is not
    // the one being profiled.
    __atomic_store_n(&lp_sampler_state.active, 0, __ATOMIC_RELEASE);
    lp_sampler_state.forked_child = 1;
    lp_sampler_state.helper_running = 0;
    lp_sampler_thread_wall_release();  // the parent's thread's file
    // Perf event descriptors are inherited (timers are not): they watch the
    // parent's threads, so the child lets go of them.
    for (uint32_t i = 0; lp_sampler_state.threads != NULL && i < LP_SAMPLER_MAX_THREADS; i++) {
        lp_sampled_thread_t *thread = &lp_sampler_state.threads[i];
        if (thread->event > 0) close(thread->event - 1);
        thread->event = 0;
    }
}

static int fail(const char *reason) {
    lp_sampler_state.error = reason;
    return -1;
}

int lp_sampler_start(uint32_t hz, uint32_t max_depth) {
    lp_sampler_options_t options = {.hz = hz, .max_depth = max_depth};
    return lp_sampler_start_with(&options);
}

int lp_sampler_start_with(const lp_sampler_options_t *options) {
    uint32_t hz = options->hz, max_depth = options->max_depth;
    int expected = 0;
    if (!__atomic_compare_exchange_n(&lp_sampler_state.started, &expected, 1, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        return fail("the sampler was already started in this process");
    }
    if (hz == 0 || hz > 100000) return fail("the rate must be 1 to 100000 samples per second");
    if (max_depth == 0) max_depth = LP_SAMPLER_DEFAULT_DEPTH;
    if (max_depth > LP_SAMPLER_MAX_DEPTH) max_depth = LP_SAMPLER_MAX_DEPTH;
    lp_sampler_state.hz = hz;
    lp_sampler_state.max_depth = max_depth;
    int preloaded = options->backtrace != NULL;
    lp_sampler_find_unwinder(options->backtrace, &preloaded);
    if (lp_sampler_state.backtrace == NULL) return fail("libunwind (libunwind.so.8) cannot be loaded");
    // libunwind's thread-local data of a dlopen'ed copy is allocated lazily,
    // with malloc, on a thread's first use: unsafe in a signal handler. Only
    // the thread warmed below is then safe to sample.
    if (!preloaded) lp_sampler_state.flags |= LP_SAMPLER_MAIN_THREAD_ONLY;

    uint64_t megabytes = options->buffer_megabytes > 0 ? options->buffer_megabytes : 32;
    lp_sampler_state.capacity = megabytes << 20;
    // Zero pages until touched: the size costs nothing until samples fill it.
    void *buffer = mmap(NULL, lp_sampler_state.capacity, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (buffer == MAP_FAILED) return fail("cannot map the sample buffer");
    lp_sampler_state.buffer = buffer;
    lp_sampler_state.threads = calloc(LP_SAMPLER_MAX_THREADS, sizeof *lp_sampler_state.threads);
    if (lp_sampler_state.threads == NULL) return fail("cannot allocate the thread table");

    // Warm libunwind here, outside signal context: its global set-up, its
    // caches, the lazy binding of what it calls and, for unw_backtrace, its
    // pthread key (created now, with a low index: no malloc on first use in
    // the handler).
    if (lp_sampler_state.unwind_context != NULL) {
        lp_sampler_warm_unwinder();
    } else {
        void *warm[LP_HANDLER_FRAMES];
        lp_sampler_state.backtrace(warm, LP_HANDLER_FRAMES);
    }
    lp_sampler_find_loader_locks();
    if (lp_sampler_state.loader_locks[0] == NULL) lp_sampler_state.flags |= LP_SAMPLER_LOADER_UNGUARDED;

    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = handler;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigfillset(&action.sa_mask);  // nothing interrupts the handler
    if (sigaction(SIGPROF, &action, NULL) != 0) return fail("cannot install the SIGPROF handler");
    // An ending thread and lp_sampler_stop block SIGPROF: the mask is ready
    // and pthread_sigmask bound now, not by a lazy binding on their way.
    sigemptyset(&lp_sampler_state.prof_only);
    sigaddset(&lp_sampler_state.prof_only, SIGPROF);
    sigset_t bound;
    pthread_sigmask(SIG_BLOCK, NULL, &bound);
    pthread_atfork(NULL, NULL, forked_child);

    lp_sampler_state.start_ns = lp_sampler_now();
    // Perf events count CPU time only: the wall clock is a POSIX timer.
    lp_sampler_state.wall_clock = options->wall_clock != 0;
    __atomic_store_n(&lp_sampler_state.use_events, !options->posix_timers && !options->wall_clock, __ATOMIC_RELEASE);
    lp_sampler_thread_cpu_reset();
    __atomic_store_n(&lp_sampler_state.active, 1, __ATOMIC_RELEASE);
    lp_sampler_state.main_tid = lp_sampler_gettid();
    lp_sampled_thread_t *main_thread = lp_sampler_thread((int32_t)lp_sampler_state.main_tid);
    prctl(PR_GET_NAME, main_thread->name);  // read again when sampling stops
    if (lp_sampler_arm(main_thread) == 0) {
        // No perf event for the main thread (not allowed here): POSIX
        // timers for every thread, without trying again on each.
        if (main_thread->event == 0) __atomic_store_n(&lp_sampler_state.use_events, 0, __ATOMIC_RELEASE);
        lp_sampler_state.timer_mode = lp_sampler_state.wall_clock ? LP_SAMPLER_TIMER_THREAD_WALL
                                      : main_thread->event > 0    ? LP_SAMPLER_TIMER_THREAD_EVENT
                                                                  : LP_SAMPLER_TIMER_THREAD_CPU;
        if (lp_sampler_state.flags & LP_SAMPLER_MAIN_THREAD_ONLY) return 0;
        if (__atomic_load_n(&lp_sampler_state.thread_hook, __ATOMIC_ACQUIRE)) {
            lp_sampler_state.flags |= LP_SAMPLER_THREADS_HOOKED;
            lp_sampler_scan_once();  // threads started before sampling did
        } else {
            lp_sampler_start_helper();
        }
        return 0;
    }
    // No per-thread CPU timers here (an old kernel, a sandbox): one
    // process-wide profiling timer; the kernel picks the running thread.
    lp_sampler_state.timer_mode = LP_SAMPLER_TIMER_ITIMER_PROF;
    struct itimerval interval;
    interval.it_interval.tv_sec = 0;
    interval.it_interval.tv_usec = hz >= 1000000 ? 1 : (suseconds_t)(1000000 / hz);
    interval.it_value = interval.it_interval;
    if (setitimer(ITIMER_PROF, &interval, NULL) != 0) {
        __atomic_store_n(&lp_sampler_state.active, 0, __ATOMIC_RELEASE);
        return fail("neither timer_create nor setitimer(ITIMER_PROF) is available");
    }
    return 0;
}

static pthread_mutex_t sampler_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

void lp_sampler_lock(void) { pthread_mutex_lock(&sampler_lock); }
void lp_sampler_unlock(void) { pthread_mutex_unlock(&sampler_lock); }

/// Stops every thread's timer; lp_sampler_lock is held.
static void stop_locked(void) {
    int expected = 0;
    if (!__atomic_compare_exchange_n(&lp_sampler_state.stopped, &expected, 1, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        return;
    }
    if (lp_sampler_state.buffer == NULL) return;  // start failed half-way
    __atomic_store_n(&lp_sampler_state.active, 0, __ATOMIC_RELEASE);
    lp_sampler_state.stop_ns = lp_sampler_now();
    if (lp_sampler_state.timer_mode == LP_SAMPLER_TIMER_ITIMER_PROF) {
        struct itimerval off;
        memset(&off, 0, sizeof off);
        setitimer(ITIMER_PROF, &off, NULL);
    }
    if (!lp_sampler_state.forked_child) {
        lp_sampler_stop_helper();
        for (uint32_t i = 0; i < LP_SAMPLER_MAX_THREADS; i++) {
            lp_sampled_thread_t *thread = &lp_sampler_state.threads[i];
            if (__atomic_load_n(&thread->tid, __ATOMIC_ACQUIRE) == 0) continue;
            lp_sampler_disarm(thread, NULL);
        }
    }
    // Handlers that began before `active` dropped finish in microseconds.
    for (int spins = 0; spins < 100000 && __atomic_load_n(&lp_sampler_state.inflight, __ATOMIC_ACQUIRE); spins++) {
        sched_yield();
    }
    lp_sampler_thread_wall_release();  // this thread's; the others' go as they end
}

void lp_sampler_stop(void) {
    if (!__atomic_load_n(&lp_sampler_state.started, __ATOMIC_ACQUIRE)) return;
    // The stopping thread runs the sampler's code until `active` drops (the
    // lock's first call is a lazy binding: microseconds): no sample of it.
    // A signal held back meanwhile finds sampling stopped when it is let
    // through.
    int nested = lp_sampler_own_code;
    lp_sampler_own_code = 1;
    sigset_t before;
    pthread_sigmask(SIG_BLOCK, &lp_sampler_state.prof_only, &before);
    // A second caller (Tracer.flush on one thread, launch complete on
    // another) waits here until the first has stopped every thread and taken
    // the module map, then finds it done.
    lp_sampler_lock();
    stop_locked();
    lp_sampler_unlock();
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    lp_sampler_own_code = nested;
}

const char *lp_sampler_error(void) { return lp_sampler_state.error; }

lp_sampler_stats_t lp_sampler_stats(void) {
    lp_sampler_stats_t stats;
    memset(&stats, 0, sizeof stats);
    stats.samples = __atomic_load_n(&lp_sampler_state.samples, __ATOMIC_ACQUIRE);
    stats.lost = __atomic_load_n(&lp_sampler_state.lost, __ATOMIC_ACQUIRE);
    stats.failed = __atomic_load_n(&lp_sampler_state.failed, __ATOMIC_ACQUIRE);
    stats.handler_ns = __atomic_load_n(&lp_sampler_state.handler_ns, __ATOMIC_ACQUIRE);
    stats.threads = __atomic_load_n(&lp_sampler_state.thread_count, __ATOMIC_ACQUIRE);
    stats.hz = lp_sampler_state.hz;
    stats.timer_mode = lp_sampler_state.timer_mode;
    stats.running = __atomic_load_n(&lp_sampler_state.active, __ATOMIC_ACQUIRE);
    return stats;
}
