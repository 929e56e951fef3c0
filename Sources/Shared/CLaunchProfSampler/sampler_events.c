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

void lp_sampler_close_event(int fd) {
    uint64_t counted = 0;
    // The thread's CPU time while it was sampled (ns): the reference the
    // samples are measured against.
    if (read(fd, &counted, sizeof counted) == (ssize_t)sizeof counted) {
        __atomic_fetch_add(&lp_sampler_state.sampled_cpu_ns, counted, __ATOMIC_RELAXED);
    }
    close(fd);
}
