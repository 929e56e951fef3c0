// sampler_wall.c — the wall clock's on-CPU / off-CPU / waiting-for-CPU
// state of each sample (--clock wall, docs/sampling.md).
//
// Read in the handler, from the calling thread's own accounting: its CPU
// time (CLOCK_THREAD_CPUTIME_ID) and its run-queue time (the second field of
// /proc/thread-self/schedstat), each against its value at the thread's
// previous sample. clock_gettime, open and pread are async-signal-safe.
#define _GNU_SOURCE
#include "sampler_internal.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/// The thread's CPU time at its previous wall-clock sample, and when that
/// sample was taken (CLOCK_MONOTONIC), in ns.
static __thread uint64_t wall_cpu_ns __attribute__((tls_model("initial-exec")));
static __thread uint64_t wall_at_ns __attribute__((tls_model("initial-exec")));
/// The thread's voluntary context switches at its previous sample.
static __thread long wall_voluntary __attribute__((tls_model("initial-exec")));

/// The calling thread's voluntary context switches (it blocked), or -1.
static long voluntary_switches(void) {
    struct rusage usage;
    return getrusage(RUSAGE_THREAD, &usage) == 0 ? usage.ru_nvcsw : -1;
}
/// Wall clock: the thread's /proc/thread-self/schedstat (descriptor + 1; -1
/// when it cannot be opened), and the time it had spent runnable on a run
/// queue, waiting for a CPU, at its previous sample (when `wall_queue_known`).
static __thread int schedstat_fd __attribute__((tls_model("initial-exec")));
static __thread uint64_t wall_queue_ns __attribute__((tls_model("initial-exec")));
static __thread int wall_queue_known __attribute__((tls_model("initial-exec")));

static uint64_t thread_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

/// The calling thread's run-queue wait so far (ns), the second field of
/// /proc/thread-self/schedstat ("run wait slices"): 1 when read. open and
/// pread are async-signal-safe; the file is opened once per thread.
static int read_queue_ns(uint64_t *queued) {
    if (schedstat_fd == 0) {
        int fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
        schedstat_fd = fd >= 0 ? fd + 1 : -1;
    }
    if (schedstat_fd < 0) return 0;
    char text[96];
    ssize_t got = pread(schedstat_fd - 1, text, sizeof text - 1, 0);
    if (got <= 0) return 0;
    text[got] = '\0';
    const char *at = text;
    while (*at >= '0' && *at <= '9') at++;  // the run time
    if (*at != ' ') return 0;
    at++;
    uint64_t value = 0;
    int digits = 0;
    for (; *at >= '0' && *at <= '9' && digits < 20; at++, digits++) value = value * 10 + (uint64_t)(*at - '0');
    if (digits == 0) return 0;
    *queued = value;
    return 1;
}

void lp_sampler_thread_cpu_reset(void) {
    wall_cpu_ns = thread_cpu_ns();
    wall_at_ns = lp_sampler_now();
    wall_voluntary = voluntary_switches();
    if (lp_sampler_state.wall_clock) wall_queue_known = read_queue_ns(&wall_queue_ns);
}

void lp_sampler_thread_wall_release(void) {
    if (schedstat_fd > 0) close(schedstat_fd - 1);
    schedstat_fd = 0;
    wall_queue_known = 0;
}

/// How long ago the expiry that raised this signal was (ns), 0 when
/// unknown: the time the signal took to reach the handler — the timer's last
/// expiry, and one period more for each it missed meanwhile (the overrun,
/// `weight` - 1). A thread blocked in the program is made runnable by the
/// signal itself, so that part of its run-queue time is the profiler's, not
/// a busy machine's.
static uint64_t signal_latency_ns(uint32_t tid, uint64_t period, uint32_t weight) {
    lp_sampled_thread_t *thread = lp_sampler_thread((int32_t)tid);
    if (thread == NULL || __atomic_load_n(&thread->state, __ATOMIC_ACQUIRE) != LP_THREAD_ARMED || thread->event != 0) {
        return 0;
    }
    struct itimerspec left;
    if (timer_gettime(thread->timer, &left) != 0) return 0;
    uint64_t next = (uint64_t)left.it_value.tv_sec * UINT64_C(1000000000) + (uint64_t)left.it_value.tv_nsec;
    return next < period ? period - next + (uint64_t)(weight - 1) * period : 0;
}

/// Wall clock: whether the thread ran for less than half of the time since
/// its previous sample, from the CPU time the kernel accounts to it (read in
/// the handler: clock_gettime is async-signal-safe). Off CPU, the signal
/// found it waiting — in a system call, on a lock, for the disk — and its
/// stack says where; or, when most of the time it did not run it was
/// runnable on a run queue (schedstat) before this sample's signal came,
/// waiting for a CPU: a busy machine, not the program (LP_SAMPLE_RUNNABLE
/// as well).
uint16_t lp_sampler_wall_state(uint32_t weight, uint32_t tid) {
    if (!lp_sampler_state.wall_clock) return 0;
    uint64_t now = thread_cpu_ns(), ran = now - wall_cpu_ns, at = lp_sampler_now();
    wall_cpu_ns = now;
    uint64_t queue_now = 0, queued = 0;
    int known = read_queue_ns(&queue_now);
    if (known && wall_queue_known && queue_now >= wall_queue_ns) queued = queue_now - wall_queue_ns;
    if (known) wall_queue_ns = queue_now;
    wall_queue_known = known;
    // The time since the thread's previous sample, not the periods the
    // sample stands for: a signal that waited for the thread is followed by
    // the timer's next expiry, on its schedule, well within a period.
    uint64_t period = UINT64_C(1000000000) / lp_sampler_state.hz;
    uint64_t total = wall_at_ns != 0 && at > wall_at_ns ? at - wall_at_ns : period * weight;
    wall_at_ns = at;
    // A thread that blocked since its previous sample (a voluntary switch)
    // was made runnable by this sample's signal: its run-queue time since
    // then is the profiler's. One that was only preempted was runnable all
    // along, and all of it was a busy machine's.
    long voluntary = voluntary_switches();
    int blocked = voluntary < 0 || voluntary != wall_voluntary;
    wall_voluntary = voluntary;
    if (ran * 2 >= total) return 0;
    if (queued == 0) return LP_SAMPLE_OFF_CPU;
    if (blocked) {
        uint64_t latency = signal_latency_ns(tid, period, weight);
        queued = queued > latency ? queued - latency : 0;
    }
    uint64_t stopped = total - ran;
    return queued * 2 >= stopped ? (uint16_t)(LP_SAMPLE_OFF_CPU | LP_SAMPLE_RUNNABLE) : (uint16_t)LP_SAMPLE_OFF_CPU;
}
