// Writes a sample sink of a real launch for the perf-sink fuzz target's seed
// corpus: the events lp-spawn opens (lp_perf_sampling_attr), one per CPU,
// on a child that waits for them, then execs COMMAND; after its exit, the
// header and the rings' records. Small stack copies keep a sink under
// libFuzzer's input limit.
//
//   perf_sink_seed OUT HZ STACK_BYTES COMMAND ARGS...
#define _GNU_SOURCE
#include "launchprof_spawn.h"

#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: perf_sink_seed OUT HZ STACK_BYTES COMMAND ARGS...\n");
        return 2;
    }
    uint32_t hz = (uint32_t)atoi(argv[2]), stack = (uint32_t)atoi(argv[3]);
    int go[2];
    if (pipe(go) != 0) return 1;
    pid_t child = fork();
    if (child == 0) {
        char byte;
        close(go[1]);
        if (read(go[0], &byte, 1) != 1) _exit(126);
        execv(argv[4], argv + 4);
        _exit(127);
    }
    close(go[0]);
    long cpus = sysconf(_SC_NPROCESSORS_CONF), page = sysconf(_SC_PAGESIZE);
    size_t data = (size_t)1 << 20;
    int fds[64];
    void *rings[64];
    int opened = 0;
    struct lp_perf_sink_header header;
    memset(&header, 0, sizeof header);
    for (long cpu = 0; cpu < cpus && cpu < 64; cpu++) {
        struct perf_event_attr attr;
        lp_perf_sampling_attr(&attr, hz, stack, 1);
        attr.enable_on_exec = 1;
        attr.mmap = attr.mmap2 = attr.comm = attr.task = attr.sample_id_all = 1;
        int fd = (int)syscall(SYS_perf_event_open, &attr, child, (int)cpu, -1, PERF_FLAG_FD_CLOEXEC);
        if (fd < 0) continue;
        void *ring = mmap(NULL, data + (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (ring == MAP_FAILED) {
            close(fd);
            continue;
        }
        fds[opened] = fd;
        rings[opened++] = ring;
        header.sample_type = attr.sample_type;
        header.regs_user_mask = attr.sample_regs_user;
    }
    if (write(go[1], "x", 1) != 1) return 1;
    int status;
    waitpid(child, &status, 0);
    FILE *out = fopen(argv[1], "wb");
    if (out == NULL || opened == 0) return 1;
    memcpy(header.magic, LP_PERF_SINK_MAGIC, sizeof header.magic);
    header.version = LP_PERF_SINK_VERSION;
    header.header_size = sizeof header;
    header.stack_user_bytes = stack;
    header.hz = hz;
    header.period_ns = 1000000000ull / hz;
    header.cpus = (uint32_t)opened;
    header.clock = CLOCK_MONOTONIC;
    header.flags = LP_PERF_SINK_USER_ONLY | LP_PERF_SINK_CLOSED;
    fwrite(&header, sizeof header, 1, out);
    for (int i = 0; i < opened; i++) {
        struct perf_event_mmap_page *control = rings[i];
        const uint8_t *bytes = (const uint8_t *)rings[i] + control->data_offset;
        uint64_t head = __atomic_load_n(&control->data_head, __ATOMIC_ACQUIRE);
        // The ring never wrapped for a launch this short (1 MiB).
        if (head <= control->data_size) fwrite(bytes, 1, head, out);
    }
    return fclose(out) == 0 && WIFEXITED(status) ? 0 : 1;
}
