// tracer_cost.c — what one event costs against one clock read, measured in
// the same process, with 1, 2 and 4 threads recording at once, and with
// tracing disabled. Built by Scripts/compare/compare-tracer-cost.sh against two
// versions of CLaunchProfSupport (before and after a change) and run
// alternately, so both are measured under the same load.
//
// Output: one line per case, "<case> <threads> <wall ps/op> <cpu ps/op>":
// wall = the loop's wall time per operation per thread; cpu = the busiest
// thread's own CPU time per operation (CLOCK_THREAD_CPUTIME_ID), which is
// what to compare when more threads run than the machine has free cores.
#include "launchprof_support.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t now(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

static const char event_name[] = "event";

__attribute__((noinline)) static void read_clock(long count) {
    struct timespec ts;
    for (long i = 0; i < count; i++) {
        clock_gettime(CLOCK_MONOTONIC, &ts);
        __asm__ volatile("" : : "r"(ts.tv_nsec) : "memory");
    }
}

// What Signposter.emitEvent inlines to: lp_record with a StaticString address.
__attribute__((noinline)) static void emit_events(long count) {
    for (long i = 0; i < count; i++) {
        lp_record(LP_KIND_EVENT, (uint64_t)(uintptr_t)event_name, 0, 0, 0, 1);
        __asm__ volatile("" : : : "memory");
    }
}

typedef struct job {
    void (*work)(long);
    long count;
    int *waiting;  // start gate (atomic)
    uint64_t cpu_ns;
} job_t;

static void *run_job(void *raw) {
    job_t *job = raw;
    __atomic_sub_fetch(job->waiting, 1, __ATOMIC_ACQ_REL);
    while (__atomic_load_n(job->waiting, __ATOMIC_ACQUIRE) > 0) {}
    uint64_t start = now(CLOCK_THREAD_CPUTIME_ID);
    job->work(job->count);
    job->cpu_ns = now(CLOCK_THREAD_CPUTIME_ID) - start;
    return NULL;
}

/// Runs `work(count)` on `threads` threads released together; reports wall
/// and busiest-thread CPU picoseconds per operation.
static void measure(const char *name, void (*work)(long), int threads, long count) {
    job_t jobs[8];
    pthread_t ids[8];
    int waiting = threads;
    uint64_t start = now(CLOCK_MONOTONIC);
    for (int t = 1; t < threads; t++) {
        jobs[t] = (job_t){work, count, &waiting, 0};
        pthread_create(&ids[t], NULL, run_job, &jobs[t]);
    }
    jobs[0] = (job_t){work, count, &waiting, 0};
    run_job(&jobs[0]);
    for (int t = 1; t < threads; t++) pthread_join(ids[t], NULL);
    uint64_t wall = now(CLOCK_MONOTONIC) - start;
    uint64_t cpu = 0;
    for (int t = 0; t < threads; t++) cpu = jobs[t].cpu_ns > cpu ? jobs[t].cpu_ns : cpu;
    printf("%s %d %llu %llu\n", name, threads, (unsigned long long)(wall * 1000 / (uint64_t)count),
           (unsigned long long)(cpu * 1000 / (uint64_t)count));
    fflush(stdout);
}

int main(int argc, char **argv) {
    long count = argc > 1 ? atol(argv[1]) : 1L << 22;
    if (count <= 0) count = 1L << 22;
    long ring_events = argc > 2 ? atol(argv[2]) : 1L << 20;
    if (ring_events <= 0) ring_events = 1L << 20;
    // A ring that overwrites its oldest events (1 Mi events as Benchmarks/
    // uses, unless told): the steady-state hot path, with a block claim
    // every block (64 events at c92f6b1; 256 in a ring this large now).
    lp_global_ring_install(lp_ring_create(ring_events, LP_POLICY_OVERWRITE_OLDEST));
    // Touch the whole ring first: page faults are not what is measured.
    lp_set_tracing_enabled(1);
    emit_events(2 * ring_events);
    lp_set_tracing_enabled(0);
    // A third argument runs one thread count only (for perf record).
    int only = argc > 3 ? atoi(argv[3]) : 0;
    static const int thread_counts[] = {1, 2, 4};
    for (size_t i = 0; i < sizeof thread_counts / sizeof *thread_counts; i++) {
        int threads = thread_counts[i];
        if (only != 0 && threads != only) continue;
        measure("clock", read_clock, threads, count);
        lp_set_tracing_enabled(1);
        measure("event", emit_events, threads, count);
        lp_set_tracing_enabled(0);
    }
    measure("disabled", emit_events, 1, count * 4);
    return 0;
}
