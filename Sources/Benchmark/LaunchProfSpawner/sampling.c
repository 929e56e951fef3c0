// Kernel-side sampling of a launch (sampling.h). The kernel interrupts the
// program on each period of a thread's CPU time, copies its user registers
// and the top of its user stack into the ring buffer, and goes on: nothing of
// ours runs in the program. launchprof unwinds the copies after the run
// (CLaunchProfPerf), as `perf record --call-graph dwarf` and `perf report` do.
//
// The rings: perf_mmap refuses an inherited per-task event (every thread of
// every process would write to one buffer), so, as perf record does, there
// is one event per CPU, each with a ring that the inherited copies on that
// CPU write to. The spawner polls them with its control socket and copies
// each half-full ring to the sink, so a long launch loses nothing unless the
// spawner falls behind (the kernel then writes a LOST record, counted).
#define _GNU_SOURCE
#include "sampling.h"

#include <errno.h>
#include <stdio.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum { MAX_CPUS = 256 };

/// The sink is never larger: about 15,000 samples of a 16 KiB stack, 15 s
/// of a busy thread at 1 kHz. A launch that runs on past it (a program that
/// never becomes ready before the timeout) keeps its first samples; the
/// samples drained after it are counted in a PERF_RECORD_LOST record
/// written when sampling stops, which a reader reports as lost.
#define SINK_LIMIT ((uint64_t)256 << 20)


/// Processes whose exec the rings recorded (a COMM record with
/// PERF_RECORD_MISC_COMM_EXEC), and when: their mappings read at ready are
/// timed there, so a reader applies them after the exec emptied the old ones.
enum { MAX_EXECS = 4096 };

static struct {
    int open;
    int stopped;
    int maps_at_ready;
    uint64_t over_limit;   ///< samples drained once the sink was at SINK_LIMIT
    uint32_t exec_count;
    struct {
        uint32_t pid;
        uint64_t time;
    } execs[MAX_EXECS];
    int sink;
    /// errno of the first write the sink refused (a full disk, the file-size
    /// limit): the sink ends at the last whole record, and what the rings
    /// held after it is counted, not written.
    int sink_error;
    uint64_t unwritten_samples, unwritten_records;
    uint64_t written;      ///< bytes of whole records in the sink
    struct lp_perf_sink_header header;  ///< as written; its ending is rewritten at stop
    uint32_t cpus;
    size_t data_bytes;     ///< each ring's data area (a power of two)
    int fds[MAX_CPUS];
    void *rings[MAX_CPUS];
    uint8_t *scratch;      ///< a record that wraps around a ring's end
} state = {.sink = -1};

static int write_all(const void *bytes, size_t count) {
    if (state.sink_error != 0) return -1;
    const uint8_t *at = bytes;
    while (count > 0) {
        ssize_t n = write(state.sink, at, count);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            // The sink ends at the last whole record: a reader never sees
            // half of one. (SIGXFSZ is blocked, so a file-size limit is
            // EFBIG here; a write of 0 bytes is taken as a full disk.)
            state.sink_error = n < 0 && errno != 0 ? errno : ENOSPC;
            if (ftruncate(state.sink, (off_t)state.written) != 0) {
            }
            return -1;
        }
        at += n;
        count -= (size_t)n;
    }
    return 0;
}

/// Writes one whole record and counts it: in the sink, or among what the
/// sink refused (the header's ending says how many).
static int write_record(const void *bytes, size_t count, int is_sample) {
    if (write_all(bytes, count) == 0) {
        state.written += count;
        return 0;
    }
    state.unwritten_records++;
    state.unwritten_samples += is_sample != 0;
    return -1;
}

static int open_event(uint32_t cpu, uint32_t hz, uint32_t stack_bytes, uint32_t wakeup, int user_only, int maps_at_ready) {
    struct perf_event_attr attr;
    lp_perf_sampling_attr(&attr, hz, stack_bytes, user_only);
    attr.enable_on_exec = 1;
    attr.mmap = 1;
    attr.mmap2 = 1;
    attr.comm = 1;
    attr.task = 1;
    attr.sample_id_all = 1;
    attr.watermark = 1;
    attr.wakeup_watermark = wakeup;
    attr.build_id = 1;
    if (maps_at_ready) {
        attr.mmap = 0;
        attr.mmap2 = 0;
        attr.build_id = 0;
    }
    int fd = (int)syscall(SYS_perf_event_open, &attr, 0, (int)cpu, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0 && errno == EINVAL) {
        // Kernels before 5.12 have no build ids in MMAP2 records: the
        // reader takes them from the files.
        attr.build_id = 0;
        fd = (int)syscall(SYS_perf_event_open, &attr, 0, (int)cpu, -1, PERF_FLAG_FD_CLOEXEC);
    }
    return fd;
}

void lp_sampling_open(int sink, uint32_t hz, uint32_t stack_bytes, int maps_at_ready) {
    lp_sampling_finish();
    memset(&state, 0, sizeof state);
    state.sink = sink;
    state.open = 1;
    state.maps_at_ready = maps_at_ready;
    struct lp_perf_sink_header header;
    memset(&header, 0, sizeof header);
    memcpy(header.magic, LP_PERF_SINK_MAGIC, sizeof header.magic);
    header.version = LP_PERF_SINK_VERSION;
    header.header_size = sizeof header;
    // What a reader needs to parse the samples: the events' own values.
    struct perf_event_attr model;
    lp_perf_sampling_attr(&model, hz, stack_bytes, 0);
    header.sample_type = model.sample_type;
    header.regs_user_mask = model.sample_regs_user;
    // The kernel keeps a sample under 64 KiB (its size is 16 bits) and
    // wants the stack size a multiple of 8.
    if (stack_bytes > 60000) stack_bytes = 60000;
    stack_bytes &= ~7u;
    header.stack_user_bytes = stack_bytes;
    header.hz = hz;
    header.period_ns = hz ? 1000000000ull / hz : 0;
    header.clock = CLOCK_MONOTONIC;

    long page = sysconf(_SC_PAGESIZE);
    long online = sysconf(_SC_NPROCESSORS_CONF);
    if (hz == 0 || header.regs_user_mask == 0) header.error = EINVAL;
    if (online < 1) online = 1;
    if (online > MAX_CPUS) online = MAX_CPUS;
    // 1 MiB of ring per CPU (about 60 samples of a 16 KiB stack: the
    // spawner copies half of it every 30 ms at 1 kHz), 4 MiB above 1 kHz;
    // halved down to 64 KiB where the locked-memory limit refuses it
    // (perf_event_mlock_kb: 516 KiB in all for an unprivileged user).
    size_t data = (size_t)1 << (hz > 1000 ? 22 : 20);
    state.scratch = malloc(65536);
    if (state.scratch == NULL && header.error == 0) header.error = ENOMEM;
    for (long cpu = 0; cpu < online && header.error == 0; cpu++) {
        for (;;) {
            int user_only = (header.flags & LP_PERF_SINK_USER_ONLY) != 0;
            int fd = open_event((uint32_t)cpu, hz, stack_bytes, (uint32_t)(data / 2), user_only, maps_at_ready);
            if (fd < 0 && (errno == EACCES || errno == EPERM) && !user_only && state.cpus == 0) {
                // perf_event_paranoid 2 without CAP_PERFMON: user space
                // only, on every CPU alike.
                header.flags |= LP_PERF_SINK_USER_ONLY;
                continue;
            }
            if (fd < 0) {
                // A CPU that is offline has no event; the others still sample.
                if (errno == ENODEV || errno == ENXIO) break;
                header.error = errno;
                break;
            }
            void *ring = mmap(NULL, data + (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            if (ring != MAP_FAILED) {
                state.fds[state.cpus] = fd;
                state.rings[state.cpus] = ring;
                state.cpus++;
                break;
            }
            int failure = errno;
            close(fd);
            if (failure == EPERM && data > (size_t)65536 && state.cpus == 0) {
                data /= 2;
                continue;
            }
            header.error = failure;
            break;
        }
    }
    state.data_bytes = data;
    header.cpus = state.cpus;
    state.header = header;
    if (write_all(&header, sizeof header) == 0) state.written = sizeof header;
}

int lp_sampling_poll_fds(struct pollfd *fds, int capacity) {
    if (!state.open || state.stopped) return 0;
    int count = 0;
    for (uint32_t i = 0; i < state.cpus && count < capacity; i++) {
        fds[count].fd = state.fds[i];
        fds[count].events = POLLIN;
        fds[count].revents = 0;
        count++;
    }
    return count;
}

/// A COMM record of an exec: its pid, and its time, the last 8 bytes (the
/// sample id: pid, tid, time).
static void note_exec(const uint8_t *bytes, struct perf_event_header record) {
    if (!state.maps_at_ready || record.type != PERF_RECORD_COMM || !(record.misc & PERF_RECORD_MISC_COMM_EXEC)) return;
    if (record.size < sizeof record + 8 + 16) return;
    uint32_t pid;
    uint64_t time;
    memcpy(&pid, bytes + sizeof record, 4);
    memcpy(&time, bytes + record.size - 8, 8);
    for (uint32_t i = 0; i < state.exec_count; i++) {
        if (state.execs[i].pid == pid) {
            if (time > state.execs[i].time) state.execs[i].time = time;
            return;
        }
    }
    if (state.exec_count < MAX_EXECS) {
        state.execs[state.exec_count].pid = pid;
        state.execs[state.exec_count].time = time;
        state.exec_count++;
    }
}

static void drain_ring(uint32_t index) {
    struct perf_event_mmap_page *control = state.rings[index];
    const uint8_t *data = (const uint8_t *)state.rings[index] + control->data_offset;
    uint64_t size = control->data_size ? control->data_size : state.data_bytes;
    uint64_t head = __atomic_load_n(&control->data_head, __ATOMIC_ACQUIRE);
    uint64_t tail = control->data_tail;
    while (tail + sizeof(struct perf_event_header) <= head) {
        struct perf_event_header record;
        for (size_t i = 0; i < sizeof record; i++) ((uint8_t *)&record)[i] = data[(tail + i) & (size - 1)];
        if (record.size < sizeof record || tail + record.size > head) break;
        uint64_t start = tail & (size - 1);
        const uint8_t *bytes = data + start;
        if (start + record.size > size) {
            // The record wraps around the ring's end: join its two parts.
            size_t first = (size_t)(size - start);
            memcpy(state.scratch, bytes, first);
            memcpy(state.scratch + first, data, record.size - first);
            bytes = state.scratch;
        }
        if (state.written + record.size + 4096 > SINK_LIMIT) {
            // Room is kept for the records written at stop (a LOST, the total).
            state.over_limit += record.type == PERF_RECORD_SAMPLE;
        } else {
            write_record(bytes, record.size, record.type == PERF_RECORD_SAMPLE);
        }
        note_exec(bytes, record);
        tail += record.size;
    }
    // Consumed, written or not: a ring the kernel cannot write to loses
    // the launch's later samples, while a failed sink has lost them already.
    __atomic_store_n(&control->data_tail, tail, __ATOMIC_RELEASE);
}

void lp_sampling_drain(void) {
    if (!state.open) return;
    for (uint32_t i = 0; i < state.cpus; i++) drain_ring(i);
}

/// The executable mappings of `pid` (/proc/PID/maps) as PERF_RECORD_MMAP2
/// records timed at its exec, with the sample id the events' sample_type
/// gives every record (pid, tid, time). A process without a recorded exec
/// (a fork that did not exec) has its parent's mappings, which the reader
/// copies at the fork: nothing is written for it. Returns the mappings
/// written.
static unsigned write_maps(pid_t pid) {
    uint64_t exec_time = 0;
    for (uint32_t i = 0; i < state.exec_count; i++)
        if (state.execs[i].pid == (uint32_t)pid) exec_time = state.execs[i].time;
    if (exec_time == 0) return 0;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
    FILE *maps = fopen(path, "re");
    if (maps == NULL) return 0;
    unsigned written = 0;
    char line[4096 + 256];
    uint8_t record[sizeof line + 128];
    while (fgets(line, sizeof line, maps) != NULL) {
        unsigned long long start, end, offset, inode;
        unsigned major, minor;
        char permissions[8];
        int consumed = 0;
        if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, permissions, &offset, &major, &minor, &inode,
                   &consumed) < 7)
            continue;
        if (strlen(permissions) < 3 || permissions[2] != 'x' || end <= start) continue;
        char *name = line + consumed;
        size_t length = strcspn(name, "\n");
        name[length] = 0;
        if (length == 0) continue;  // anonymous executable memory: no file to unwind with
        // The record: header, pid, tid, addr, len, pgoff, maj, min, ino,
        // ino_generation, prot, flags, the name padded to 8 bytes, then the
        // sample id.
        size_t name_size = (length + 1 + 7) & ~(size_t)7;
        size_t size = sizeof(struct perf_event_header) + 8 + 24 + 8 + 16 + 8 + name_size + 16;
        if (size > UINT16_MAX || size > sizeof record) continue;
        if (state.written + size + 64 > SINK_LIMIT) break;  // the LOST and total records still fit
        memset(record, 0, size);
        struct perf_event_header header = {.type = PERF_RECORD_MMAP2, .misc = PERF_RECORD_MISC_USER, .size = (uint16_t)size};
        uint8_t *at = record;
        memcpy(at, &header, sizeof header), at += sizeof header;
        uint32_t ids[2] = {(uint32_t)pid, (uint32_t)pid};
        memcpy(at, ids, 8), at += 8;
        uint64_t range[3] = {start, end - start, offset};
        memcpy(at, range, 24), at += 24;
        uint32_t device[2] = {major, minor};
        memcpy(at, device, 8), at += 8;
        uint64_t node[2] = {inode, 0};
        memcpy(at, node, 16), at += 16;
        uint32_t protection[2] = {(uint32_t)(PROT_EXEC | (permissions[0] == 'r' ? PROT_READ : 0)),
                                  (uint32_t)(permissions[3] == 's' ? MAP_SHARED : MAP_PRIVATE)};
        memcpy(at, protection, 8), at += 8;
        memcpy(at, name, length), at += name_size;
        memcpy(at, ids, 8), at += 8;
        memcpy(at, &exec_time, 8);
        if (write_record(record, size, 0) == 0) written++;
    }
    fclose(maps);
    return written;
}

/// Rewrites the header's ending in place (LP_PERF_SINK_CLOSED): whether the
/// sink was cut, and what it lost. Nothing is appended, so it fits even when
/// the disk is full; a sink whose header never reached the file has none.
static void close_sink(void) {
    if (state.written < sizeof state.header) return;
    state.header.flags |= LP_PERF_SINK_CLOSED;
    state.header.sink_error = state.sink_error;
    state.header.unwritten_samples = state.unwritten_samples;
    state.header.unwritten_records = state.unwritten_records;
    for (;;) {
        ssize_t n = pwrite(state.sink, &state.header, sizeof state.header, 0);
        if (n < 0 && errno == EINTR) continue;
        break;  // a failure leaves the flag unset: the reader says the sink was cut
    }
}

void lp_sampling_stop(const pid_t *tree, size_t count) {
    if (!state.open || state.stopped) return;
    state.stopped = 1;
    // On the CPU's event, DISABLE reaches every inherited copy of it: every
    // thread of every process the launch started.
    for (uint32_t i = 0; i < state.cpus; i++) ioctl(state.fds[i], PERF_EVENT_IOC_DISABLE, 0);
    lp_sampling_drain();
    if (state.maps_at_ready) {
        unsigned mappings = 0;
        for (size_t i = 0; i < count; i++) mappings += write_maps(tree[i]);
        if (mappings == 0) {
            // Stopped by the exit (or the end of the run) before MARK_READY,
            // or MARK_READY came once the launched process had ended: the
            // mappings went with it.
            struct perf_event_header missed = {.type = LP_PERF_RECORD_MAPS_MISSED, .misc = 0, .size = sizeof missed};
            write_record(&missed, sizeof missed, 0);
        }
    }
    if (state.over_limit > 0) {
        // As the kernel says a full ring lost samples: id, count, sample id.
        struct {
            struct perf_event_header header;
            uint64_t id, lost;
            uint32_t pid, tid;
            uint64_t time;
        } lost = {{PERF_RECORD_LOST, PERF_RECORD_MISC_USER, sizeof lost}, 0, state.over_limit, 0, 0, 0};
        struct timespec at;
        if (clock_gettime(CLOCK_MONOTONIC, &at) == 0) lost.time = (uint64_t)at.tv_sec * 1000000000u + (uint64_t)at.tv_nsec;
        // Refused too: the samples it counts join the unwritten ones.
        if (write_record(&lost, sizeof lost, 0) != 0) state.unwritten_samples += state.over_limit;
    }
    // What the samples stand for: a read of a CPU's event sums its
    // inherited copies, live and exited.
    struct lp_perf_task_clock_record total = {
        .type = LP_PERF_RECORD_TASK_CLOCK, .misc = 0, .size = sizeof total, .nanoseconds = 0, .stopped_ns = 0};
    struct timespec now;
    if (clock_gettime(CLOCK_MONOTONIC, &now) == 0)
        total.stopped_ns = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
    for (uint32_t i = 0; i < state.cpus; i++) {
        uint64_t value = 0;
        if (read(state.fds[i], &value, sizeof value) == (ssize_t)sizeof value) total.nanoseconds += value;
    }
    if (state.cpus > 0) write_record(&total, sizeof total, 0);
    close_sink();
}

void lp_sampling_finish(void) {
    if (!state.open) return;
    lp_sampling_stop(NULL, 0);
    for (uint32_t i = 0; i < state.cpus; i++) {
        munmap(state.rings[i], state.data_bytes + (size_t)sysconf(_SC_PAGESIZE));
        close(state.fds[i]);
    }
    if (state.sink >= 0) close(state.sink);
    free(state.scratch);
    memset(&state, 0, sizeof state);
    state.sink = -1;
}
