// sampler_threads.c — per-thread CPU-time timers, armed for threads created
// after sampling started by a registered pthread_create hook or by a helper
// thread.
//
// A thread's CPU clock can be named from another thread of the process
// (clock id ((~tid) << 3) | 6, the kernel's MAKE_THREAD_CPUCLOCK), and
// SIGEV_THREAD_ID sends the timer's signal to exactly that thread. With
// liblaunchprof-preload.so loaded, its pthread_create hook registers itself
// (lp_sampler_register_thread_hook) and arms each thread as it starts and
// disarms it as it ends (lp_sampler_thread_began/_ending):
// no helper thread, so a single-threaded program stays single-threaded —
// glibc's malloc takes its lock-free fast path only then, and a helper made
// an allocation-heavy launch 2% slower. Without the hook, a helper thread
// scans /proc/self/task every LP_SCAN_MS, arms new threads and deletes the
// timers of threads that exited.
#define _GNU_SOURCE
#include "sampler_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define LP_SCAN_MS 2

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

lp_sampled_thread_t *lp_sampler_thread(int32_t tid) {
    // Linear probing from a hash of the tid; claims are CAS, never undone.
    uint32_t start = ((uint32_t)tid * 2654435761u) % LP_SAMPLER_MAX_THREADS;
    for (uint32_t probe = 0; probe < LP_SAMPLER_MAX_THREADS; probe++) {
        lp_sampled_thread_t *slot = &lp_sampler_state.threads[(start + probe) % LP_SAMPLER_MAX_THREADS];
        int32_t found = __atomic_load_n(&slot->tid, __ATOMIC_ACQUIRE);
        if (found == tid) return slot;
        if (found != 0) continue;
        int32_t expected = 0;
        if (__atomic_compare_exchange_n(&slot->tid, &expected, tid, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            __atomic_fetch_add(&lp_sampler_state.thread_count, 1, __ATOMIC_RELAXED);
            return slot;
        }
        if (expected == tid) return slot;  // claimed by another thread just now
    }
    return NULL;
}

int lp_sampler_arm(lp_sampled_thread_t *thread) {
    int32_t expected = LP_THREAD_IDLE;
    if (!__atomic_compare_exchange_n(&thread->state, &expected, LP_THREAD_BUSY, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        return 0;  // armed already, or being armed by the other party
    }
    uint64_t period = UINT64_C(1000000000) / lp_sampler_state.hz;
    if (__atomic_load_n(&lp_sampler_state.use_events, __ATOMIC_ACQUIRE)) {
        int fd = lp_sampler_open_event(thread->tid, period);
        if (fd >= 0) {
            thread->event = fd + 1;
            __atomic_store_n(&thread->state, LP_THREAD_ARMED, __ATOMIC_RELEASE);
            return 0;
        }
        // Out of descriptors, say: this thread gets a POSIX timer.
    }
    struct sigevent event;
    memset(&event, 0, sizeof event);
    event.sigev_notify = SIGEV_THREAD_ID;
    event.sigev_signo = SIGPROF;
    event.sigev_notify_thread_id = thread->tid;
    event.sigev_value.sival_int = thread->tid;  // the handler's tid, without a syscall
    // The thread's CPU clock, or the wall clock (--clock wall: waiting counts).
    clockid_t clock = lp_sampler_state.wall_clock ? CLOCK_MONOTONIC : (clockid_t)((~(uint32_t)thread->tid << 3) | 6);
    timer_t timer;
    int code = 0;
    if (timer_create(clock, &event, &timer) != 0) {
        code = errno;
    } else {
        struct itimerspec spec;
        spec.it_interval.tv_sec = (time_t)(period / 1000000000);
        spec.it_interval.tv_nsec = (long)(period % 1000000000);
        spec.it_value = spec.it_interval;
        if (timer_settime(timer, 0, &spec, NULL) != 0) {
            code = errno;
            timer_delete(timer);
        }
    }
    if (code != 0) {
        __atomic_store_n(&thread->state, LP_THREAD_IDLE, __ATOMIC_RELEASE);
        return -code;
    }
    thread->timer = timer;
    thread->event = 0;
    __atomic_store_n(&thread->state, LP_THREAD_ARMED, __ATOMIC_RELEASE);
    return 0;
}

void lp_sampler_disarm(lp_sampled_thread_t *thread, const char *final_name) {
    int32_t expected = LP_THREAD_ARMED;
    if (!__atomic_compare_exchange_n(&thread->state, &expected, LP_THREAD_BUSY, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        return;
    }
    if (final_name != NULL) memcpy(thread->name, final_name, sizeof thread->name);
    if (thread->event > 0) {
        lp_sampler_close_event(thread->event - 1);
        thread->event = 0;
    } else {
        timer_delete(thread->timer);
    }
    __atomic_store_n(&thread->state, LP_THREAD_IDLE, __ATOMIC_RELEASE);
}

void lp_sampler_read_comm(uint32_t tid, char name[16]) {
    char path[64];
    memset(name, 0, 16);
    snprintf(path, sizeof path, "/proc/self/task/%u/comm", tid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    char buf[32];
    ssize_t got = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (got <= 0) return;
    if (buf[got - 1] == '\n') got--;
    if (got > 15) got = 15;
    memcpy(name, buf, (size_t)got);
}

/// One pass over /proc/self/task: arm new threads and, when `reap`,
/// disarm exited ones (`self`, the helper, is left out). Without `reap`
/// only the slots of running threads are touched: the table's pages stay
/// untouched zero pages.
static void scan(pid_t self, int reap) {
    int fd = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    if (reap) {
        for (uint32_t i = 0; i < LP_SAMPLER_MAX_THREADS; i++) lp_sampler_state.threads[i].seen = 0;
    }
    char buf[4096];
    for (;;) {
        long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
        if (n <= 0) break;
        for (long at = 0; at < n;) {
            struct dirent64 *entry = (struct dirent64 *)(buf + at);
            at += entry->d_reclen;
            int32_t tid = (int32_t)atoi(entry->d_name);
            if (tid <= 0 || tid == self) continue;
            lp_sampled_thread_t *thread = lp_sampler_thread(tid);
            if (thread == NULL) continue;  // table full: this thread is not sampled
            thread->seen = 1;
            if (__atomic_load_n(&thread->state, __ATOMIC_ACQUIRE) == LP_THREAD_IDLE) {
                if (thread->name[0] == '\0') lp_sampler_read_comm((uint32_t)tid, thread->name);
                lp_sampler_arm(thread);  // fails only if it just exited
            }
        }
    }
    close(fd);
    if (!reap) return;
    for (uint32_t i = 0; i < LP_SAMPLER_MAX_THREADS; i++) {
        lp_sampled_thread_t *thread = &lp_sampler_state.threads[i];
        if (thread->tid == 0 || thread->seen) continue;
        lp_sampler_disarm(thread, NULL);  // its thread exited
    }
}

void lp_sampler_scan_once(void) { scan(0, 0); }

void *lp_sampler_thread_began(void) {
    if (!__atomic_load_n(&lp_sampler_state.active, __ATOMIC_ACQUIRE)) return NULL;
    lp_sampled_thread_t *slot = lp_sampler_thread((int32_t)lp_sampler_gettid());
    if (slot == NULL) return NULL;  // table full: this thread is not sampled
    // The thread's own name, with one prctl (reading /proc costs 10-20 µs
    // per thread); it is read again as the thread ends or sampling stops.
    prctl(PR_GET_NAME, slot->name);
    lp_sampler_thread_cpu_reset();
    // Its event counts from the moment it is enabled, inside lp_sampler_arm:
    // a period that ends before the hook returns is the sampler's own code.
    lp_sampler_own_code = 1;
    lp_sampler_arm(slot);
    lp_sampler_own_code = 0;
    return slot;
}

int lp_sampler_register_thread_hook(lp_sampler_thread_hook_t *hook) {
    if (__atomic_load_n(&lp_sampler_state.started, __ATOMIC_ACQUIRE)) return -1;
    hook->began = lp_sampler_thread_began;
    hook->ending = lp_sampler_thread_ending;
    hook->unwinding = lp_sampler_unwinding;
    __atomic_store_n(&lp_sampler_state.thread_hook, 1, __ATOMIC_RELEASE);
    return 0;
}

void lp_sampler_thread_ending(void *slot) {
    // From here on the thread runs the sampler's code, not the program's:
    // reading and closing its perf event takes microseconds, and a period
    // that ended meanwhile was a stack of lp_sampler_disarm. The handler
    // records nothing from the first instruction on; SIGPROF is then blocked
    // for good (the thread is ending), and a signal left pending dies with it.
    lp_sampler_own_code = 1;
    if (slot == NULL) return;
    pthread_sigmask(SIG_BLOCK, &lp_sampler_state.prof_only, NULL);
    char name[16] = {0};
    prctl(PR_GET_NAME, name);  // threads often name themselves after they start
    lp_sampler_disarm(slot, name);
    lp_sampler_thread_wall_release();
}

/// The helper thread: started only when no hook registered, so it is never
/// itself started through one.
static void *helper_main(void *unused) {
    (void)unused;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);  // never sampled, never interrupted
    pid_t self = (pid_t)lp_sampler_gettid();
    pthread_setname_np(pthread_self(), "launchprof-smp");
    while (__atomic_load_n(&lp_sampler_state.active, __ATOMIC_ACQUIRE)) {
        scan(self, 1);
        struct pollfd wake = {.fd = lp_sampler_state.wake_fd, .events = POLLIN};
        poll(&wake, 1, LP_SCAN_MS);
    }
    return NULL;
}

int lp_sampler_start_helper(void) {
    lp_sampler_state.wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (lp_sampler_state.wake_fd < 0) return -1;
    if (pthread_create(&lp_sampler_state.helper, NULL, helper_main, NULL) != 0) {
        close(lp_sampler_state.wake_fd);
        lp_sampler_state.wake_fd = -1;
        return -1;
    }
    lp_sampler_state.helper_running = 1;
    return 0;
}

void lp_sampler_stop_helper(void) {
    if (!lp_sampler_state.helper_running) return;
    uint64_t one = 1;
    ssize_t ignored = write(lp_sampler_state.wake_fd, &one, sizeof one);
    (void)ignored;
    pthread_join(lp_sampler_state.helper, NULL);
    lp_sampler_state.helper_running = 0;
    close(lp_sampler_state.wake_fd);
    lp_sampler_state.wake_fd = -1;
}
