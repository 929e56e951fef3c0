// The protocol between launchprof and its spawner, lp-spawn (docs/spawner.md).
//
// lp-spawn is a small static C program that launchprof starts once per
// benchmark (or `record`/`profile` run) with one end of a SOCK_SEQPACKET
// socketpair on its descriptor 3. It starts every measured process, so:
//   - a target's max RSS is its own: it is exec'd from a vfork child that
//     shares the spawner's tiny address space, and the kernel
//     carries that space's peak into the target's ru_maxrss;
//   - it is the subreaper (PR_SET_CHILD_SUBREAPER) of every run's tree:
//     descendants that double-fork or setsid are reparented to it, reaped,
//     counted and killed with the run, never orphaned;
//   - t0 is read immediately before the vfork, and the exit time as soon
//     as SIGCHLD wakes it, as a bare posix_spawn + wait4 loop would (the
//     child makes only the calls the run needs before its exec: see
//     spawn_child in LaunchProfSpawner/main.c);
//   - it maps no shared library, so it never keeps a page of a file a cold
//     run evicts in the page cache;
//   - when launchprof goes away for any reason (a crash, SIGKILL, the OOM
//     killer), the socket reaches end of file and it kills every process of
//     the run's tree before it exits.
//
// One run at a time per spawner: every process it reaps while a run is
// active belongs to that run.
#ifndef LAUNCHPROF_SPAWN_H
#define LAUNCHPROF_SPAWN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LP_SPAWN_MAGIC 0x4c505331u /* "LPS1" */
#define LP_SPAWN_CONTROL_FD 3
/// At most this many descriptors go with a spawn request (the payload memfd first).
#define LP_SPAWN_MAX_FDS 8
/// The request payload (argv, envp, paths) may be at most this large.
#define LP_SPAWN_MAX_PAYLOAD (64u * 1024u * 1024u)

enum lp_spawn_request_kind {
    /// Start a process. Descriptors: the payload memfd, then one per
    /// `fd_targets` entry. Answered by SPAWNED or FAILED.
    LP_SPAWN_REQUEST_SPAWN = 1,
    /// Send `signal` to the run (see lp_spawn_scope). Not answered.
    LP_SPAWN_REQUEST_SIGNAL = 2,
    /// End the run: SIGKILL to every process left in its tree, reap them
    /// all, answer FINISHED with the resources.
    LP_SPAWN_REQUEST_FINISH = 3,
    /// The run is ready (launchprof's probe fired): the spawner reads the
    /// counters of an LP_SPAWN_FLAG_COUNT spawn now. Not answered; FINISHED
    /// carries the reading.
    LP_SPAWN_REQUEST_MARK_READY = 4,
};

enum lp_spawn_scope {
    /// The launched process only (while it is not reaped).
    LP_SPAWN_SCOPE_PROCESS = 0,
    /// Its process group (as a terminal's Ctrl-C or Ctrl-Z would).
    LP_SPAWN_SCOPE_GROUP = 1,
    /// Every process of the run's tree, whatever its group or session.
    LP_SPAWN_SCOPE_TREE = 2,
};

/// The bytes of a CPU set in a request: a glibc cpu_set_t's (1024 CPUs).
#define LP_SPAWN_AFFINITY_BYTES 128

struct lp_spawn_request {
    uint32_t magic;
    uint32_t kind;
    /// SPAWN: bytes in the payload memfd. The payload is NUL-terminated
    /// strings: the program path, the working directory ("" = inherit),
    /// `argc` arguments, `envc` environment entries.
    uint64_t payload_size;
    uint32_t argc;
    uint32_t envc;
    /// SPAWN: the environment entry that is "LAUNCHPROF_SPAWN_NS=" followed
    /// by 20 characters of room, which the spawner fills with t0; -1: none.
    int32_t spawn_time_slot;
    /// SPAWN: descriptors after the payload, and the number each one gets
    /// in the child (0, 1, 2, the record socket, ...).
    uint32_t fd_count;
    int32_t fd_targets[LP_SPAWN_MAX_FDS];
    /// SIGNAL: the signal and an lp_spawn_scope.
    int32_t signal;
    uint32_t scope;
    /// SPAWN: LP_SPAWN_FLAG_* bits.
    uint32_t flags;
    /// SPAWN, socket activation: 1 + the index of the environment entry
    /// that is "LISTEN_PID=" followed by 20 characters of room, which the
    /// child fills with its own pid before exec, as systemd does; 0 (as a
    /// zeroed request has it): none. The spawner's vfork child writes it
    /// before its exec. Such a spawn cannot be quiet.
    uint32_t listen_pid_entry;
    /// SPAWN with LP_SPAWN_FLAG_SAMPLE: samples per CPU-second of each
    /// thread, and bytes of user stack copied with each sample.
    uint32_t sample_hz;
    uint32_t sample_stack_bytes;
    /// SPAWN with LP_SPAWN_FLAG_AFFINITY: the CPUs the process may run on,
    /// one bit each as a cpu_set_t holds them (CPU n is bit n % 8 of byte
    /// n / 8).
    uint8_t affinity[LP_SPAWN_AFFINITY_BYTES];
};

/// SPAWN: answer SPAWNED only when the process exits (just before EXITED),
/// not at once, so launchprof is not woken while the program starts: on a
/// machine with few CPUs the wake-up would compete with the launch it times.
/// For runs that need nothing from launchprof until the exit (the `exit`
/// probe). A failed spawn is still answered at once.
#define LP_SPAWN_FLAG_QUIET 1u

/// SPAWN: count the launched tree with perf_event_open (docs/counts.md):
/// the spawner opens each counter on itself, disabled, with inherit and
/// enable_on_exec, just before the spawn, so the child and every process it
/// starts carry it and it counts from the child's exec. Read at MARK_READY,
/// or at the launched process's exit when no MARK_READY came first.
#define LP_SPAWN_FLAG_COUNT 2u

/// SPAWN: sample the launched tree's stacks in the kernel, as `perf record
/// -- prog` does (docs/sampling.md): the spawner opens a task-clock
/// sampling event per CPU on itself, disabled, with inherit and
/// enable_on_exec, maps each event's ring buffer and copies what the kernel
/// writes there (samples with the user registers and a copy of the user
/// stack, and the mmap, comm, fork, exit and lost records) to the sample
/// sink, the descriptor whose `fd_targets` entry is LP_SPAWN_FD_SAMPLE_SINK,
/// as an lp_perf_sink_header and then the records as the kernel wrote them.
/// Nothing runs in the launched program: no preload library, no signal, no
/// unwinding. Sampling is disabled at MARK_READY (or at the launched
/// process's exit) and the rings are drained before FINISHED is answered.
/// `sample_hz` and `sample_stack_bytes` say how.
#define LP_SPAWN_FLAG_SAMPLE 4u

/// SPAWN with LP_SPAWN_FLAG_SAMPLE, for a launch that is stopped after
/// ready (any probe but exit): no mmap records. The kernel builds one for
/// every mmap and mprotect of every process while such an event exists (the
/// file's path, and its build id: ~0.2 ms of a 25 ms Swift launch); instead
/// the spawner reads /proc/PID/maps of every process of the tree at
/// MARK_READY, when they are alive and mapped as they ran, and writes each
/// executable mapping as a PERF_RECORD_MMAP2 timed at that process's exec.
/// A library unloaded before ready, or a process that ended before it, is
/// not in them.
#define LP_SPAWN_FLAG_SAMPLE_MAPS_AT_READY 8u

/// SPAWN: run the process only on the CPUs in `affinity` (`gate
/// --affinity`, as taskset and pyperf's --affinity do). The spawner moves
/// itself onto them before t0, so the child starts there and the move is
/// not timed; a spawn without the flag runs on the CPUs the spawner
/// started with (it moves back first). It does not depend on which CPUs
/// the spawner inherited: one spawner serves a whole command (git, the
/// builds, then the pinned runs). A set with no CPU the spawner may use
/// fails the spawn (EINVAL).
#define LP_SPAWN_FLAG_AFFINITY 16u

/// The `fd_targets` value of the sample sink: the spawner writes to it and
/// does not pass it to the child.
enum { LP_SPAWN_FD_SAMPLE_SINK = -2 };

/// The sample sink's header ("LPPERF1\0"), then the ring buffers' records
/// (struct perf_event_header and its body), CPU by CPU as they were
/// drained: each CPU's records are in time order, the stream is not.
#define LP_PERF_SINK_MAGIC "LPPERF1"
#define LP_PERF_SINK_VERSION 2u

/// What the events were opened with, so that a reader can parse the
/// records (the layout of a sample depends on `sample_type`, the number of
/// registers on `regs_user_mask`).
struct lp_perf_sink_header {
    char magic[8];               ///< LP_PERF_SINK_MAGIC with its NUL.
    uint32_t version;            ///< LP_PERF_SINK_VERSION
    uint32_t header_size;        ///< sizeof(struct lp_perf_sink_header)
    uint64_t sample_type;        ///< PERF_SAMPLE_* of every event
    uint64_t regs_user_mask;     ///< perf_event_attr.sample_regs_user
    uint32_t stack_user_bytes;   ///< perf_event_attr.sample_stack_user
    uint32_t hz;                 ///< samples per CPU-second of each thread
    uint64_t period_ns;          ///< task-clock nanoseconds per sample
    uint32_t cpus;               ///< events opened (one per CPU)
    uint32_t clock;              ///< clock id of the records' time: CLOCK_MONOTONIC
    /// errno of the first event that could not be opened or mapped, 0 when
    /// every CPU has one; the header is written either way.
    int32_t error;
    /// LP_PERF_SINK_* bits.
    uint32_t flags;
    /// How the sink ended, written over these bytes in place once sampling
    /// stopped, with LP_PERF_SINK_CLOSED in `flags`: the header's bytes are
    /// the file's first, on disk since the start, so neither a full disk nor
    /// a file-size limit refuses them. `sink_error` is the errno of the first
    /// write the sink refused (ENOSPC, EFBIG, EIO; 0: none was), after which
    /// the file ends at its last whole record; `unwritten_samples` and
    /// `unwritten_records` count what the rings held after it and was not
    /// written (the closing records among them).
    int32_t sink_error;
    uint32_t reserved;
    uint64_t unwritten_samples;
    uint64_t unwritten_records;
};

/// The kernel allowed user-space samples only (perf_event_paranoid 2
/// without CAP_PERFMON): time in the kernel (system calls, page faults)
/// was not sampled. Otherwise a sample taken in the kernel is kept with its
/// user registers and stack: where the thread entered the kernel.
#define LP_PERF_SINK_USER_ONLY 1u
/// The spawner stopped sampling and wrote how the sink ended (the header's
/// last fields). A sink without it was cut short: its spawner died, or even
/// the header could not be rewritten, and how much was lost is unknown.
#define LP_PERF_SINK_CLOSED 2u

/// The record the spawner appends once sampling stopped, with a type of its
/// own (the kernel's are below 64): the task-clock nanoseconds the events
/// counted over the whole tree while they sampled, what the samples stand
/// for, and when sampling stopped (CLOCK_MONOTONIC). Laid out as a perf
/// record: type, misc, size, then the values.
#define LP_PERF_RECORD_TASK_CLOCK 0x4c50u
struct lp_perf_task_clock_record {
    uint32_t type;   ///< LP_PERF_RECORD_TASK_CLOCK
    uint16_t misc;   ///< 0
    uint16_t size;   ///< sizeof(struct lp_perf_task_clock_record)
    uint64_t nanoseconds;
    uint64_t stopped_ns;
};

/// The record the spawner appends, with nothing after its header, when
/// LP_SPAWN_FLAG_SAMPLE_MAPS_AT_READY was asked for but sampling stopped
/// without MARK_READY (the launched process exited first: a program that
/// ends just after it is ready): no mapping was read, so the samples cannot
/// be walked or named, and launchprof samples such a program with the
/// kernel's mmap records instead.
#define LP_PERF_RECORD_MAPS_MISSED 0x4c51u

/// The counters of an LP_SPAWN_FLAG_COUNT spawn, as poop and perf stat
/// count a launch: hardware ones where the kernel has them, software ones
/// everywhere.
enum lp_spawn_counter {
    LP_COUNTER_INSTRUCTIONS = 0,
    LP_COUNTER_CYCLES = 1,
    LP_COUNTER_CACHE_REFERENCES = 2,
    LP_COUNTER_CACHE_MISSES = 3,
    LP_COUNTER_BRANCH_MISSES = 4,
    LP_COUNTER_TASK_CLOCK = 5,
    LP_COUNTER_PAGE_FAULTS = 6,
    LP_COUNTER_CONTEXT_SWITCHES = 7,
    LP_COUNTER_CPU_MIGRATIONS = 8,
    LP_COUNTER_COUNT = 9,
};

/// What the counters of one run read.
struct lp_spawn_counters {
    /// 0: not counted; 1: read at MARK_READY; 2: read when the launched
    /// process was reaped (the exit probe, or a run that ended before ready).
    uint32_t read_at;
    /// 1 when the kernel allowed only user-space counting
    /// (perf_event_paranoid >= 2 without CAP_PERFMON): kernel work is left out.
    uint32_t user_only;
    /// errno of perf_event_open per counter (ENOENT: the machine has no
    /// such event, e.g. no hardware counters in a VM); 0 when it counted.
    int32_t error[LP_COUNTER_COUNT];
    /// The reading, scaled by enabled/running when the kernel multiplexed it.
    uint64_t value[LP_COUNTER_COUNT];
    /// Nanoseconds the counter was enabled and actually counting.
    uint64_t enabled_ns[LP_COUNTER_COUNT];
    uint64_t running_ns[LP_COUNTER_COUNT];
};

enum lp_spawn_reply_kind {
    /// SPAWN succeeded: `pid`, `nanoseconds` = t0.
    LP_SPAWN_REPLY_SPAWNED = 1,
    /// SPAWN failed: `error` (errno) and `message`.
    LP_SPAWN_REPLY_FAILED = 2,
    /// The launched process exited (sent unasked): `nanoseconds` = when the
    /// spawner saw it, `status` = its wait status.
    LP_SPAWN_REPLY_EXITED = 3,
    /// The launched process stopped (SIGTSTP, SIGSTOP; sent unasked).
    LP_SPAWN_REPLY_STOPPED = 4,
    /// The launched process continued (SIGCONT; sent unasked).
    LP_SPAWN_REPLY_CONTINUED = 5,
    /// FINISH done: the resources of the run.
    LP_SPAWN_REPLY_FINISHED = 6,
    /// A request the spawner could not read: `message` says why.
    LP_SPAWN_REPLY_PROTOCOL_ERROR = 7,
};

/// getrusage's fields, in nanoseconds, KiB and counts.
struct lp_spawn_usage {
    int64_t user_ns;
    int64_t system_ns;
    int64_t max_rss_kib;
    int64_t minor_faults;
    int64_t major_faults;
    int64_t voluntary_switches;
    int64_t involuntary_switches;
};

struct lp_spawn_reply {
    uint32_t magic;
    uint32_t kind;
    int32_t pid;
    int32_t error;
    uint64_t nanoseconds;
    int32_t status;
    /// FINISHED: processes of the tree the spawner reaped (the launched
    /// process and every descendant orphaned to it or killed at the end),
    /// and processes it could not reap in time (unkillable, e.g. stuck in D
    /// state).
    uint32_t processes;
    uint32_t unreaped;
    int32_t largest_pid;
    /// FINISHED: the launched process's own wait4 figures (which include
    /// the children it waited for itself) and the sum over the tree.
    struct lp_spawn_usage process;
    struct lp_spawn_usage tree;
    /// FINISHED: the largest max RSS of one reaped process, and its name.
    int64_t largest_rss_kib;
    char largest_name[16];
    char process_name[16];
    char message[160];
    /// FINISHED of an LP_SPAWN_FLAG_COUNT spawn: the counters.
    struct lp_spawn_counters counters;
    /// FINISHED: the CPU the launched process last ran on (/proc/PID/stat
    /// field 39, read when it was marked ready or else as a zombie just
    /// before it was reaped); -1 when unknown.
    int32_t cpu;
};

/// Starts the spawner `path` with a socketpair; returns its pid and stores
/// launchprof's end (close-on-exec) in `*control`, or returns -1 with errno.
// The calling thread's CPU set (sched_getaffinity(0, …)), and setting it
// (sched_setaffinity(0, …)); `mask` is a cpu_set_t of `size` bytes. What the
// thread starts afterwards (lp-spawn, and so every run) inherits it.
int lp_sched_getaffinity(size_t size, void *mask);
int lp_sched_setaffinity(size_t size, const void *mask);

pid_t lp_spawn_start(const char *path, int *control);

/// Sends `request`; for SPAWN, `payload` goes in a sealed memfd sent before
/// `fds`. Returns 0, or -1 with errno.
int lp_spawn_send(int control, const struct lp_spawn_request *request, const void *payload, size_t payload_size,
                  const int *fds, uint32_t fd_count);

/// Receives one reply (blocking unless `dont_wait`). Returns 1 when one was
/// read, 0 at end of file (the spawner is gone), -1 with errno (EAGAIN when
/// `dont_wait` and nothing is waiting).
int lp_spawn_receive(int control, struct lp_spawn_reply *reply, int dont_wait);

/// A datagram-boundary record socket pair for LAUNCHPROF_RECORD_FD: `ends[0]`
/// is the harness's (non-blocking, SO_PASSCRED: every record arrives with
/// its sender's pid as the kernel saw it), `ends[1]` the child's. Both
/// close-on-exec. Returns 0, or -1 with errno.
int lp_record_socket(int ends[2]);

/// Reads one record from the harness end: its bytes (at most `capacity`,
/// truncated records are flagged with *truncated) and the sender's pid (0
/// when the kernel attached none). Returns the length, 0 at end of file, -1
/// with errno (EAGAIN when nothing is waiting).
ssize_t lp_record_receive(int fd, void *buffer, size_t capacity, pid_t *sender, int *truncated);

/// Like lp_record_receive for a datagram socket (sd_notify), closing any
/// descriptors that came with the message.
ssize_t lp_notify_receive(int fd, void *buffer, size_t capacity, pid_t *sender);

/// A datagram socket bound at `path` (which must not exist) for the audit
/// library's hand-over of its channel (LAUNCHPROF_AUDIT_SOCKET):
/// non-blocking, close-on-exec. Returns the descriptor, or -1 with errno.
int lp_audit_listen(const char *path);

/// Reads one hand-over from `fd`: its text (at most `capacity` bytes) and
/// the one descriptor it carried in *channel (-1 when none; any others are
/// closed). Returns the length, -1 with errno (EAGAIN when none is waiting).
ssize_t lp_audit_receive_channel(int fd, void *buffer, size_t capacity, int *channel);

/// Reads one datagram from an audit channel with the time the kernel
/// stamped on it when it was written (SO_TIMESTAMPNS: CLOCK_REALTIME, ns;
/// 0 when none came). Longer datagrams are flagged with *truncated. Returns
/// the length, -1 with errno (EAGAIN when none is waiting).
ssize_t lp_audit_receive_stamped(int fd, void *buffer, size_t capacity, uint64_t *stamp, int *truncated);

struct perf_event_attr;

/// The user registers a sample copies: every general-purpose one a DWARF
/// unwinder may need (perf_regs.h numbering); 0 on an architecture the
/// unwinder does not know.
uint64_t lp_perf_user_registers(void);

/// The spawner's sampling event (LP_SPAWN_FLAG_SAMPLE), disabled and
/// inherited: a task-clock sample every 1/`hz` s of a thread's CPU with its
/// user registers and `stack_bytes` of its user stack, timed on
/// CLOCK_MONOTONIC; the kernel's time too unless `user_only`.
void lp_perf_sampling_attr(struct perf_event_attr *attr, uint32_t hz, uint32_t stack_bytes, int user_only);

/// 0 when the kernel lets this user open the spawner's sampling events
/// (LP_SPAWN_FLAG_SAMPLE), else the errno it refused one with (EACCES under
/// perf_event_paranoid 3, EPERM or ENOSYS under a seccomp filter, ENOTSUP
/// on an architecture the unwinder does not know).
int lp_perf_sampling_errno(void);

/// A sample sink with no name (LP_SPAWN_FLAG_SAMPLE), read and write,
/// close-on-exec: an O_TMPFILE file in `directory` (on the disk the trace
/// goes to), or, where the filesystem has no O_TMPFILE, a memfd (then
/// `*in_memory` is 1). Nothing is left of it once its last descriptor is
/// closed, however launchprof ends. Returns the descriptor, or -1 with errno.
int lp_sample_sink_anonymous(const char *directory, int *in_memory);
/// pipe2(2), which Swift's Glibc module leaves out (it needs _GNU_SOURCE):
/// both ends get `flags` (O_CLOEXEC, O_NONBLOCK) atomically, so a spawn on
/// another thread never inherits a pipe between pipe() and fcntl().
int lp_pipe(int ends[2], int flags);

/// Registers `write_end` (a non-blocking pipe) to receive one byte, the
/// signal's number, whenever a signal caught with lp_interrupt_catch
/// arrives; up to 8 at once. 0, or -1 with errno EMFILE.
int lp_interrupt_register(int write_end);

/// Stops writing to `write_end` (before it is closed).
void lp_interrupt_unregister(int write_end);

/// Catches signal `number` with a handler that writes to every registered
/// pipe: in place when this returns, unlike a Dispatch signal source (which
/// is registered later, on Dispatch's manager thread). sigaction's result.
int lp_interrupt_catch(int number);

#ifdef __cplusplus
}
#endif

#endif
