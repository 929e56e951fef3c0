// Counting a launch the way `perf stat -- prog` and poop do: counters opened
// before the program exists, disabled, with enable_on_exec (they start at
// the exec, not in the spawner's vfork child) and inherit (every thread and
// process the program starts counts too; an exited child's counts are added
// to its parent's counter, and a read sums the live children).
//
// perf stat forks, opens the counters on the waiting child and lets it exec.
// The spawner's vfork child does nothing but move descriptors and exec, so
// the spawner opens them on itself instead: the spawner never execs, so its own
// copies stay disabled and count nothing, while the child's inherited
// copies are enabled by the child's exec.
#define _GNU_SOURCE
#include "counters.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const struct {
    uint32_t type;
    uint64_t config;
} events[LP_COUNTER_COUNT] = {
    [LP_COUNTER_INSTRUCTIONS] = {PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    [LP_COUNTER_CYCLES] = {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    [LP_COUNTER_CACHE_REFERENCES] = {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
    [LP_COUNTER_CACHE_MISSES] = {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
    [LP_COUNTER_BRANCH_MISSES] = {PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
    [LP_COUNTER_TASK_CLOCK] = {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
    [LP_COUNTER_PAGE_FAULTS] = {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    [LP_COUNTER_CONTEXT_SWITCHES] = {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    [LP_COUNTER_CPU_MIGRATIONS] = {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
};

static struct {
    int open;
    int fds[LP_COUNTER_COUNT];
    struct lp_spawn_counters reading;
} state;

static int open_counter(uint32_t type, uint64_t config, int user_only) {
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = type;
    attr.config = config;
    attr.disabled = 1;
    attr.inherit = 1;
    attr.enable_on_exec = 1;
    attr.exclude_hv = 1;
    attr.exclude_kernel = user_only ? 1 : 0;
    attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

void lp_counters_open(void) {
    lp_counters_finish(NULL);
    memset(&state, 0, sizeof state);
    state.open = 1;
    for (int i = 0; i < LP_COUNTER_COUNT; i++) {
        int fd = open_counter(events[i].type, events[i].config, state.reading.user_only);
        if (fd < 0 && (errno == EACCES || errno == EPERM) && !state.reading.user_only) {
            // perf_event_paranoid >= 2 without CAP_PERFMON: user space only,
            // for every counter (mixing would make the sums meaningless).
            for (int j = 0; j < i; j++)
                if (state.fds[j] >= 0) close(state.fds[j]);
            state.reading.user_only = 1;
            i = -1;
            continue;
        }
        state.fds[i] = fd;
        state.reading.error[i] = fd < 0 ? errno : 0;
    }
}

void lp_counters_read(uint32_t when) {
    if (!state.open || state.reading.read_at != 0) return;
    state.reading.read_at = when;
    for (int i = 0; i < LP_COUNTER_COUNT; i++) {
        if (state.fds[i] < 0) continue;
        uint64_t values[3] = {0, 0, 0};
        ssize_t count;
        do count = read(state.fds[i], values, sizeof values);
        while (count < 0 && errno == EINTR);
        if (count != (ssize_t)sizeof values) {
            state.reading.error[i] = count < 0 ? errno : EIO;
            continue;
        }
        uint64_t value = values[0];
        // Multiplexed (more hardware events than counters): scale as perf stat does.
        if (values[2] > 0 && values[2] < values[1])
            value = (uint64_t)((long double)value * (long double)values[1] / (long double)values[2]);
        state.reading.value[i] = value;
        state.reading.enabled_ns[i] = values[1];
        state.reading.running_ns[i] = values[2];
    }
}

void lp_counters_finish(struct lp_spawn_counters *out) {
    if (out) {
        if (state.open) *out = state.reading;
        else memset(out, 0, sizeof *out);
    }
    if (!state.open) return;
    for (int i = 0; i < LP_COUNTER_COUNT; i++)
        if (state.fds[i] >= 0) close(state.fds[i]);
    memset(&state, 0, sizeof state);
}
