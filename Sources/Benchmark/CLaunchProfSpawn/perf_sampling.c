// The kernel's sampling event of a launch (LP_SPAWN_FLAG_SAMPLE): what the
// spawner opens on each CPU, and the check launchprof makes that the kernel
// allows it (the same kind, opened by the same user: a refusal here is the
// refusal the spawner would meet).
#define _GNU_SOURCE
#include "launchprof_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

uint64_t lp_perf_user_registers(void) {
#if defined(__x86_64__)
    return 0xff01ffull;  // AX…IP, R8–R15 (perf_regs.h numbering)
#elif defined(__aarch64__)
    return (1ull << 33) - 1;  // x0–x30, sp, pc
#else
    return 0;
#endif
}

void lp_perf_sampling_attr(struct perf_event_attr *attr, uint32_t hz, uint32_t stack_bytes, int user_only) {
    memset(attr, 0, sizeof *attr);
    attr->size = sizeof *attr;
    attr->type = PERF_TYPE_SOFTWARE;
    attr->config = PERF_COUNT_SW_TASK_CLOCK;
    attr->sample_period = hz ? 1000000000ull / hz : 1000000000ull;
    attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
    attr->sample_regs_user = lp_perf_user_registers();
    attr->sample_stack_user = stack_bytes;
    attr->disabled = 1;
    attr->inherit = 1;
    // Time in the kernel is sampled where allowed (the sample then has the
    // kernel's PC; its user registers and stack say where the thread
    // entered): a launch's page faults and system calls are much of it.
    attr->exclude_kernel = user_only ? 1 : 0;
    attr->exclude_hv = 1;
    attr->exclude_callchain_kernel = 1;
    attr->use_clockid = 1;
    attr->clockid = CLOCK_MONOTONIC;
}

int lp_perf_sampling_errno(void) {
    if (lp_perf_user_registers() == 0) return ENOTSUP;
    struct perf_event_attr attr;
    lp_perf_sampling_attr(&attr, 1000, 8192, 1);
    int fd = (int)syscall(SYS_perf_event_open, &attr, 0, 0, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0) return errno;
    close(fd);
    return 0;
}

int lp_sample_sink_anonymous(const char *directory, int *in_memory) {
    *in_memory = 0;
    // O_EXCL: the file can never be given a name (linkat), so it is freed
    // with its last descriptor whatever happens to launchprof.
    int fd = open(directory, O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)) return fd;
    // A filesystem without O_TMPFILE (some network and FUSE ones): a memfd,
    // anonymous too, whose pages count against memory instead of the disk.
    *in_memory = 1;
    return memfd_create("launchprof-samples", MFD_CLOEXEC);
}
