// sampler_events.c — a thread's CPU time as a perf event that signals it.
//
// POSIX CPU-time timers (timer_create on a thread's CPU clock) are checked
// only at the scheduler tick: at CONFIG_HZ=250 a thread gets at most one
// signal per 4 ms of CPU whatever the rate asked for, each standing for the
// periods in between (its overrun). A 20 ms launch then gave ~5 stacks.
// The kernel's task-clock software event counts the same CPU time but
// samples it with an hrtimer, so its overflow comes every period, to the
// nanosecond: perf's own default event where there is no PMU. Its overflow
// signals the thread itself (F_SETOWN_EX with F_OWNER_TID, F_SETSIG SIGPROF,
// O_ASYNC), and the same handler takes the stack: one signal, one stack.
//
// One signal, one stack, but not always one period: SIGPROF does not queue,
// so an overflow while the previous signal is still pending (its handler
// running, the signal blocked, the vCPU held up) is merged with it, and an
// hrtimer that fires late forwards past the periods it missed. Neither is
// lost from the event's count, so the handler reads it (one read) and the
// sample stands for every period counted since the thread's previous one:
// its stack for the last, the others taken by no stack (LP_SAMPLE_MERGED,
// "[periods without a stack]" in a profile), as perf's own samples carry
// the period they stand for.
//
// Not every system allows it (kernel.perf_event_paranoid 3 and up, seccomp
// profiles that deny perf_event_open): the sampler then falls back to the
// POSIX timers, and the trace says which ran (timer mode).
#define _GNU_SOURCE
#include "sampler_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int lp_sampler_open_event(int32_t tid, uint64_t period_ns) {
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_SOFTWARE;
    attr.config = PERF_COUNT_SW_TASK_CLOCK;
    attr.sample_period = period_ns;
    attr.disabled = 1;  // enabled once its signal is set up, so that no overflow goes unsignalled
    attr.exclude_hv = 1;
    // CPU time in the kernel counts too (as with the CPU clock); where only
    // user time may be watched (perf_event_paranoid 2 without privileges)
    // the event excludes the kernel, found once.
    attr.exclude_kernel = (uint64_t)__atomic_load_n(&lp_sampler_state.events_user_only, __ATOMIC_ACQUIRE);
    int fd = (int)syscall(SYS_perf_event_open, &attr, (pid_t)tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0 && (errno == EACCES || errno == EPERM) && !attr.exclude_kernel) {
        attr.exclude_kernel = 1;
        fd = (int)syscall(SYS_perf_event_open, &attr, (pid_t)tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
        if (fd >= 0) __atomic_store_n(&lp_sampler_state.events_user_only, 1, __ATOMIC_RELEASE);
    }
    if (fd < 0) return -errno;
    struct f_owner_ex owner = {F_OWNER_TID, (pid_t)tid};
    if (fcntl(fd, F_SETOWN_EX, &owner) != 0 || fcntl(fd, F_SETSIG, SIGPROF) != 0 ||
        fcntl(fd, F_SETFL, O_ASYNC | O_NONBLOCK) != 0 || ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) != 0) {
        int code = errno;
        close(fd);
        return -code;
    }
    return fd;
}

/// The calling thread's event (descriptor + 1) at its previous signal, and
/// its count then (ns).
static __thread int periods_fd __attribute__((tls_model("initial-exec")));
static __thread uint64_t periods_count __attribute__((tls_model("initial-exec")));

uint32_t lp_sampler_event_periods(int fd, uint64_t period_ns) {
    uint64_t counted = 0;
    if (period_ns == 0 || read(fd, &counted, sizeof counted) != (ssize_t)sizeof counted) return 1;
    // Another event than last time (the thread's was closed and opened
    // again, or the descriptor reused) counts from zero.
    uint64_t before = periods_fd == fd + 1 && counted >= periods_count ? periods_count : 0;
    periods_fd = fd + 1;
    periods_count = counted;
    // The count since the previous signal, to the nearest period: each is
    // read a few microseconds after its overflow (the signal's delivery, the
    // handler so far), and the hrtimer that raises it runs on the wall
    // clock, so time the thread lost to interrupts or a held-up vCPU makes
    // a period's count a little short. Rounding each difference, not the
    // total, keeps that from adding up.
    uint64_t periods = (counted - before + period_ns / 2) / period_ns;
    if (periods == 0) periods = 1;
    if (periods > UINT32_MAX) periods = UINT32_MAX;
    return (uint32_t)periods;
}

void lp_sampler_close_event(int fd) {
    uint64_t counted = 0;
    // The thread's CPU time while it was sampled (ns): the reference the
    // samples are measured against.
    if (read(fd, &counted, sizeof counted) == (ssize_t)sizeof counted) {
        __atomic_fetch_add(&lp_sampler_state.sampled_cpu_ns, counted, __ATOMIC_RELAXED);
    }
    close(fd);
}
