// thread_cpu_cost.c — what reading the thread's CPU time adds to an interval
// (a begin and an end, as Signposter.beginInterval/endInterval inline to),
// against a CLOCK_MONOTONIC read measured in the same process. Built and run
// by Scripts/compare/measure-thread-cpu-cost.sh.
//
// Output: one line per case, "<case> <ns per operation, busiest thread's CPU>":
//   clock         clock_gettime(CLOCK_MONOTONIC)
//   thread-clock  clock_gettime(CLOCK_THREAD_CPUTIME_ID)
//   interval      a begin and an end without the CPU reads (before issue 27)
//   interval-cpu  a begin and an end, each with a CPU read (LP_FLAG_THREAD_CPU),
//                 as before launch complete
//   interval-late the same after launch complete: no CPU read
#include "launchprof_support.h"

#include <stdio.h>
#include <stdlib.h>

static uint64_t now(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

static const char interval_name[] = "interval";

__attribute__((noinline)) static void read_clock(long count) {
    for (long i = 0; i < count; i++) {
        uint64_t value = now(CLOCK_MONOTONIC);
        __asm__ volatile("" : : "r"(value) : "memory");
    }
}

__attribute__((noinline)) static void read_thread_clock(long count) {
    for (long i = 0; i < count; i++) {
        uint64_t value = now(CLOCK_THREAD_CPUTIME_ID);
        __asm__ volatile("" : : "r"(value) : "memory");
    }
}

__attribute__((noinline)) static void intervals(long count) {
    for (long i = 0; i < count; i++) {
        uint64_t id = lp_make_signpost_id();
        lp_record(LP_KIND_BEGIN, (uint64_t)(uintptr_t)interval_name, id, 0, 0, 1);
        lp_record(LP_KIND_END, (uint64_t)(uintptr_t)interval_name, id, 0, 0, 1);
        __asm__ volatile("" : : : "memory");
    }
}

// Signposter as of issue 27 (ThreadCPUTime.stamp): when tracing is on, the
// CPU time with its flag until launch complete, nothing after.
static inline void record_with_cpu(uint8_t kind, uint64_t id) {
    if (!lp_tracing_enabled()) return;
    int before = lp_launch_time(1) == 0;
    lp_record(kind, (uint64_t)(uintptr_t)interval_name, id, before ? (int64_t)now(CLOCK_THREAD_CPUTIME_ID) : 0,
              before ? LP_FLAG_THREAD_CPU : 0, 1);
}

__attribute__((noinline)) static void intervals_with_cpu(long count) {
    for (long i = 0; i < count; i++) {
        uint64_t id = lp_make_signpost_id();
        record_with_cpu(LP_KIND_BEGIN, id);
        record_with_cpu(LP_KIND_END, id);
        __asm__ volatile("" : : : "memory");
    }
}

static void measure(const char *name, void (*work)(long), long count) {
    uint64_t start = now(CLOCK_THREAD_CPUTIME_ID);
    work(count);
    uint64_t cpu = now(CLOCK_THREAD_CPUTIME_ID) - start;
    printf("%s %.2f\n", name, (double)cpu / (double)count);
    fflush(stdout);
}

int main(int argc, char **argv) {
    long count = argc > 1 ? atol(argv[1]) : 1L << 20;
    if (count <= 0) count = 1L << 20;
    long ring_events = 1L << 20;
    lp_global_ring_install(lp_ring_create(ring_events, LP_POLICY_OVERWRITE_OLDEST));
    lp_set_tracing_enabled(1);
    intervals(ring_events);  // touch the whole ring: page faults are not what is measured
    measure("clock", read_clock, count);
    measure("thread-clock", read_thread_clock, count);
    measure("interval", intervals, count);
    measure("interval-cpu", intervals_with_cpu, count);
    lp_launch_mark(1, now(CLOCK_MONOTONIC));
    measure("interval-late", intervals_with_cpu, count);
    return 0;
}
