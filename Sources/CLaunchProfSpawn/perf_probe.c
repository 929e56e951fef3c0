// Whether the kernel lets this user sample: the spawner's sampling events
// (LP_SPAWN_FLAG_SAMPLE) are the same kind, opened by the same user, so a
// refusal here is the refusal the spawner would meet.
#define _GNU_SOURCE
#include "launchprof_spawn.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int lp_perf_sampling_errno(void) {
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_SOFTWARE;
    attr.config = PERF_COUNT_SW_TASK_CLOCK;
    attr.sample_period = 1000000;
    attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
#if defined(__x86_64__)
    attr.sample_regs_user = 0xff01ffull;
#elif defined(__aarch64__)
    attr.sample_regs_user = (1ull << 33) - 1;
#else
    return ENOTSUP;
#endif
    attr.sample_stack_user = 8192;
    attr.disabled = 1;
    attr.inherit = 1;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    attr.use_clockid = 1;
    attr.clockid = 1;  // CLOCK_MONOTONIC
    int fd = (int)syscall(SYS_perf_event_open, &attr, 0, 0, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0) return errno;
    close(fd);
    return 0;
}
