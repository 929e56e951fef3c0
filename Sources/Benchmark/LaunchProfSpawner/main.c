// lp-spawn: the process that starts, watches, reaps and cleans up every
// process launchprof measures. The protocol and the reasons are in
// launchprof_spawn.h and docs/spawner.md.
//
// Built as a static executable that uses only the C library, so its own
// memory peak (which the kernel hands to every process it execs) is well
// under a MiB, and it maps no file a cold run evicts.
#define _GNU_SOURCE
#include "launchprof_spawn.h"
#include "counters.h"
#include "sampling.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/// The signals a terminal or a job controller may send the spawner: it
/// blocks them (and follows only its control socket). Blocked, not ignored:
/// a child starts with an empty mask and the default dispositions the
/// spawner has, so the child needs no per-signal reset before its exec — work
/// that would be counted in the launch. SIGXFSZ too: a sample sink that
/// reaches the file-size limit (RLIMIT_FSIZE) must fail its write (EFBIG,
/// counted as lost), not kill the spawner and with it the run.
static const int blocked_signals[] = {SIGINT,  SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU, SIGHUP,
                                      SIGTERM, SIGPIPE, SIGUSR1, SIGUSR2, SIGXFSZ};

/// Descriptors received with a request are moved at or above this number,
/// so no dup2 onto a child's low descriptor can overwrite another source.
enum { HIGH_FD = 100 };

static int control = LP_SPAWN_CONTROL_FD;

/// What a quiet spawn leaves to clean up after the run: the spawner goes
/// straight back to sleep after the spawn, so it does not hold the CPU the
/// new program is starting on (measured: ~30 µs of a 0.5 ms /bin/true).
static struct {
    int fds[LP_SPAWN_MAX_FDS + 1];
    uint32_t count;
    void *memory[4];
} deferred;

static void release_deferred(void) {
    for (uint32_t i = 0; i < deferred.count; i++) close(deferred.fds[i]);
    for (size_t i = 0; i < 4; i++) free(deferred.memory[i]);
    memset(&deferred, 0, sizeof deferred);
}
static int child_signals = -1;

/// The CPUs the spawner started with (`known` when sched_getaffinity gave
/// them), and the ones it runs on now: a spawn with LP_SPAWN_FLAG_AFFINITY
/// moves it, one without moves it back.
static struct {
    int known;
    cpu_set_t started;
    cpu_set_t current;
} cpus;

/// Moves the spawner onto the CPUs `request` asks for (or back to the ones
/// it started with), before t0, so the child is born there. Returns 0 or
/// the errno of sched_setaffinity (EINVAL: none of them may be used).
static int place_spawner(const struct lp_spawn_request *request) {
    cpu_set_t wanted;
    if (request->flags & LP_SPAWN_FLAG_AFFINITY) {
        CPU_ZERO(&wanted);
        size_t size = sizeof wanted < sizeof request->affinity ? sizeof wanted : sizeof request->affinity;
        memcpy(&wanted, request->affinity, size);
        if (CPU_COUNT(&wanted) == 0) return EINVAL;
    } else if (cpus.known) {
        wanted = cpus.started;
    } else {
        return 0;
    }
    if (cpus.known && CPU_EQUAL(&wanted, &cpus.current)) return 0;
    if (sched_setaffinity(0, sizeof wanted, &wanted) != 0) return errno;
    // The kernel keeps only the CPUs this process may use: what it holds
    // now is what the next request is compared with.
    if (sched_getaffinity(0, sizeof cpus.current, &cpus.current) != 0) cpus.current = wanted;
    return 0;
}

/// The run under way: everything reaped while it is active belongs to it.
static struct {
    int active;
    pid_t pid;
    uint64_t t0;
    /// SPAWNED is owed, to be sent just before EXITED (LP_SPAWN_FLAG_QUIET).
    int owes_spawned;
    int reaped;
    /// EXITED was sent (before the reap: once only).
    int exit_sent;
    int status;
    struct lp_spawn_usage process;
    struct lp_spawn_usage tree;
    uint32_t processes;
    int64_t largest_rss_kib;
    pid_t largest_pid;
    char largest_name[16];
    char process_name[16];
    /// The CPU the launched process last ran on, plus one (0: not read).
    int32_t cpu_plus_one;
} run;

static uint64_t now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

static void send_reply(struct lp_spawn_reply *reply) {
    reply->magic = LP_SPAWN_MAGIC;
    ssize_t sent;
    do {
        sent = send(control, reply, sizeof *reply, MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    // A failed send means launchprof is gone: the next poll sees the end of
    // file and cleans up.
}

static void fail(int error, const char *what) {
    struct lp_spawn_reply reply = {.kind = LP_SPAWN_REPLY_FAILED, .error = error};
    snprintf(reply.message, sizeof reply.message, "%s", what);
    send_reply(&reply);
}

static void protocol_error(const char *what) {
    struct lp_spawn_reply reply = {.kind = LP_SPAWN_REPLY_PROTOCOL_ERROR};
    snprintf(reply.message, sizeof reply.message, "%s", what);
    send_reply(&reply);
}

static struct lp_spawn_usage usage_of(const struct rusage *usage) {
    struct lp_spawn_usage result = {
        .user_ns = (int64_t)usage->ru_utime.tv_sec * 1000000000 + (int64_t)usage->ru_utime.tv_usec * 1000,
        .system_ns = (int64_t)usage->ru_stime.tv_sec * 1000000000 + (int64_t)usage->ru_stime.tv_usec * 1000,
        .max_rss_kib = usage->ru_maxrss,
        .minor_faults = usage->ru_minflt,
        .major_faults = usage->ru_majflt,
        .voluntary_switches = usage->ru_nvcsw,
        .involuntary_switches = usage->ru_nivcsw,
    };
    return result;
}

static void add_usage(struct lp_spawn_usage *sum, const struct lp_spawn_usage *usage) {
    sum->user_ns += usage->user_ns;
    sum->system_ns += usage->system_ns;
    if (usage->max_rss_kib > sum->max_rss_kib) sum->max_rss_kib = usage->max_rss_kib;
    sum->minor_faults += usage->minor_faults;
    sum->major_faults += usage->major_faults;
    sum->voluntary_switches += usage->voluntary_switches;
    sum->involuntary_switches += usage->involuntary_switches;
}

/// /proc/PID/comm of a zombie not yet reaped (still readable then): for
/// every process but the launched one, cheaper than stat.
static void read_name(pid_t pid, char name[16]) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/comm", (int)pid);
    memset(name, 0, 16);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    ssize_t count;
    do {
        count = read(fd, name, 15);
    } while (count < 0 && errno == EINTR);
    close(fd);
    if (count <= 0) {
        name[0] = 0;
        return;
    }
    if (name[count - 1] == '\n') name[count - 1] = 0;
}

/// The command name (field 2, as /proc/PID/comm has it) and field 39
/// ("processor": the CPU the task last ran on; -1 when unknown) of
/// /proc/PID/stat, in one read: a zombie not yet reaped still has both.
/// The name runs from the first '(' to the last ')' (it may hold spaces and
/// ')'); the kernel truncates it to 15 bytes, as in /proc/PID/comm.
static int32_t read_stat(pid_t pid, char name[16]) {
    char path[64];
    char text[1024];
    memset(name, 0, 16);
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t count;
    do {
        count = read(fd, text, sizeof text - 1);
    } while (count < 0 && errno == EINTR);
    close(fd);
    if (count <= 0) return -1;
    text[count] = 0;
    char *open_paren = strchr(text, '(');
    char *field = strrchr(text, ')');
    if (!open_paren || !field || field < open_paren) return -1;
    size_t length = (size_t)(field - open_paren - 1);
    memcpy(name, open_paren + 1, length < 15 ? length : 15);
    // After ')' come fields 3, 4, …: field 39 is the 37th of them.
    for (int index = 3; index <= 39; index++) {
        while (*field && *field != ' ') field++;
        while (*field == ' ') field++;
        if (!*field) return -1;
        if (index == 39) {
            char *end = NULL;
            long cpu = strtol(field, &end, 10);
            return (end != field && cpu >= 0 && cpu < 65536) ? (int32_t)cpu : -1;
        }
    }
    return -1;
}

/// The wait status waitpid would return for what `info` (waitid, WEXITED)
/// says, in Linux's encoding: exit code << 8, or the signal (| 0x80 with a
/// core dump).
static int wait_status(const siginfo_t *info) {
    switch (info->si_code) {
    case CLD_EXITED: return (info->si_status & 0xff) << 8;
    case CLD_DUMPED: return (info->si_status & 0x7f) | 0x80;
    default: return info->si_status & 0x7f;
    }
}

/// Reaps every child that has exited, and reports stops and continues of
/// the launched process. `seen` is when SIGCHLD woke the spawner.
static void reap_children(uint64_t seen) {
    for (;;) {
        siginfo_t info;
        memset(&info, 0, sizeof info);
        if (waitid(P_ALL, 0, &info, WEXITED | WSTOPPED | WCONTINUED | WNOHANG | WNOWAIT) != 0) return;
        pid_t pid = info.si_pid;
        if (pid == 0) return;
        if (info.si_code == CLD_STOPPED || info.si_code == CLD_CONTINUED || info.si_code == CLD_TRAPPED) {
            // Consume the notification (only this one: WEXITED is not asked).
            siginfo_t consumed;
            waitid(P_PID, (id_t)pid, &consumed, WSTOPPED | WCONTINUED | WNOHANG);
            if (run.active && pid == run.pid && info.si_code != CLD_TRAPPED) {
                struct lp_spawn_reply reply = {
                    .kind = info.si_code == CLD_STOPPED ? LP_SPAWN_REPLY_STOPPED : LP_SPAWN_REPLY_CONTINUED,
                    .pid = pid, .nanoseconds = seen};
                send_reply(&reply);
            }
            continue;
        }
        int launched = run.active && pid == run.pid;
        if (launched && !run.exit_sent) {
            run.exit_sent = 1;
            // launchprof hears of the exit first: the name, the CPU field
            // and the reap below are not in any interval, and need not
            // delay what it does with the run.
            if (run.owes_spawned) {
                struct lp_spawn_reply spawned = {.kind = LP_SPAWN_REPLY_SPAWNED, .pid = pid, .nanoseconds = run.t0};
                send_reply(&spawned);
                run.owes_spawned = 0;
            }
            struct lp_spawn_reply reply = {.kind = LP_SPAWN_REPLY_EXITED, .pid = pid, .nanoseconds = seen, .status = wait_status(&info)};
            send_reply(&reply);
        }
        // The launched process's name and CPU field in one read of stat
        // (the gate's CPU field); any other's name alone.
        char name[16];
        if (launched) {
            int32_t cpu = read_stat(pid, name);
            if (run.cpu_plus_one == 0) run.cpu_plus_one = cpu + 1;
        } else {
            read_name(pid, name);
        }
        int status = 0;
        struct rusage usage;
        memset(&usage, 0, sizeof usage);
        pid_t reaped;
        do {
            reaped = wait4(pid, &status, WNOHANG, &usage);
        } while (reaped < 0 && errno == EINTR);
        if (reaped <= 0) return;
        if (!run.active) continue;
        struct lp_spawn_usage figures = usage_of(&usage);
        run.processes += 1;
        add_usage(&run.tree, &figures);
        if (figures.max_rss_kib > run.largest_rss_kib || run.largest_pid == 0) {
            run.largest_rss_kib = figures.max_rss_kib;
            run.largest_pid = pid;
            memcpy(run.largest_name, name, sizeof name);
        }
        if (launched) {
            run.reaped = 1;
            run.status = status;
            run.process = figures;
            memcpy(run.process_name, name, sizeof name);
            // The exit probe's counts (no-op once read at MARK_READY), and
            // the end of its sampling.
            lp_counters_read(2);
            lp_sampling_stop(NULL, 0);
        }
    }
}

/// Reads a whole small /proc file into a NUL-terminated buffer (caller frees).
static char *read_proc_file(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    size_t capacity = 4096, length = 0;
    char *text = malloc(capacity);
    while (text) {
        if (length + 1 == capacity) {
            char *bigger = capacity < (1u << 24) ? realloc(text, capacity * 2) : NULL;
            if (!bigger) break;
            text = bigger;
            capacity *= 2;
        }
        ssize_t count = read(fd, text + length, capacity - 1 - length);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) break;
        length += (size_t)count;
    }
    close(fd);
    if (text) text[length] = 0;
    return text;
}

/// Appends the children of `pid` (every thread's) to `list`.
static size_t add_children(pid_t pid, pid_t **list, size_t count, size_t *capacity) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *tasks = opendir(path);
    if (!tasks) return count;
    struct dirent *task;
    while ((task = readdir(tasks))) {
        if (task->d_name[0] == '.') continue;
        char file[128];
        snprintf(file, sizeof file, "/proc/%d/task/%s/children", (int)pid, task->d_name);
        char *text = read_proc_file(file);
        if (!text) continue;
        char *cursor = text, *end;
        for (;;) {
            long value = strtol(cursor, &end, 10);
            if (end == cursor) break;
            cursor = end;
            if (count == *capacity) {
                size_t grown = *capacity ? *capacity * 2 : 64;
                pid_t *bigger = realloc(*list, grown * sizeof(pid_t));
                if (!bigger) break;
                *list = bigger;
                *capacity = grown;
            }
            (*list)[count++] = (pid_t)value;
        }
        free(text);
    }
    closedir(tasks);
    return count;
}

/// Every live descendant of the spawner, breadth first. The spawner is a
/// subreaper, so this is the whole tree of the run, setsid and double-fork
/// survivors included. Caller frees.
static size_t descendants(pid_t **list) {
    size_t capacity = 0;
    *list = NULL;
    size_t count = add_children(getpid(), list, 0, &capacity);
    // Bounded: pids reused while the tree is walked could make it revisit.
    for (size_t i = 0; i < count && count < 65536; i++) count = add_children((*list)[i], list, count, &capacity);
    return count;
}

static void signal_tree(int signal) {
    pid_t *list;
    size_t count = descendants(&list);
    for (size_t i = 0; i < count; i++) kill(list[i], signal);
    free(list);
}

static int has_children(void) {
    siginfo_t info;
    memset(&info, 0, sizeof info);
    return waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) == 0;
}

/// Kills every process left in the run's tree and reaps them all, for at
/// most five seconds (a process in uninterruptible sleep cannot die sooner).
static uint32_t kill_and_reap_tree(void) {
    uint64_t deadline = now_ns() + 5000000000u;
    for (;;) {
        reap_children(now_ns());
        // With no child left, no descendant is alive: every orphan of the
        // tree would have been reparented to this subreaper.
        if (!has_children()) return 0;
        signal_tree(SIGKILL);
        if (run.active && !run.reaped) kill(run.pid, SIGKILL);
        struct pollfd wait = {.fd = child_signals, .events = POLLIN};
        poll(&wait, 1, 2);
        struct signalfd_siginfo drained[16];
        while (read(child_signals, drained, sizeof drained) > 0) {
        }
        if (now_ns() > deadline) {
            pid_t *list;
            size_t count = descendants(&list);
            free(list);
            return count ? (uint32_t)count : 1;
        }
    }
}

static void finish_run(void) {
    struct lp_spawn_reply reply = {.kind = LP_SPAWN_REPLY_FINISHED};
    reply.unreaped = kill_and_reap_tree();
    reply.pid = run.pid;
    reply.status = run.status;
    reply.error = run.reaped ? 0 : ECHILD;
    reply.processes = run.processes;
    reply.process = run.process;
    reply.tree = run.tree;
    reply.largest_rss_kib = run.largest_rss_kib;
    reply.largest_pid = run.largest_pid;
    memcpy(reply.largest_name, run.largest_name, sizeof reply.largest_name);
    memcpy(reply.process_name, run.process_name, sizeof reply.process_name);
    reply.cpu = run.cpu_plus_one - 1;
    lp_counters_finish(&reply.counters);
    lp_sampling_finish();
    memset(&run, 0, sizeof run);
    release_deferred();
    send_reply(&reply);
}

static void signal_run(int signal, uint32_t scope) {
    if (!run.active || signal <= 0 || signal >= NSIG) return;
    switch (scope) {
    case LP_SPAWN_SCOPE_PROCESS:
        if (!run.reaped) kill(run.pid, signal);
        break;
    case LP_SPAWN_SCOPE_GROUP:
        // The group keeps its id while any member lives, even once the
        // leader is reaped, so this never reaches an unrelated group.
        kill(-run.pid, signal);
        break;
    case LP_SPAWN_SCOPE_TREE:
        signal_tree(signal);
        if (!run.reaped) kill(run.pid, signal);
        break;
    }
}

/// What the child does between the clone and the exec.
struct child_plan {
    const char *path;
    char **argv;
    char **envp;
    /// Descriptors (all at or above HIGH_FD, close-on-exec) and the number
    /// each gets in the child; targets outside 0 ..< HIGH_FD are skipped.
    const int *sources;
    const int32_t *targets;
    uint32_t count;
    /// "" to stay in the spawner's directory.
    const char *directory;
    /// The LISTEN_PID slot's 20 characters (socket activation), or NULL.
    char *pid_digits;
};

/// Writes `value` in decimal and a NUL into `slot` (room for 21 bytes),
/// without the C library's formatting: this runs in a vfork child.
static void write_digits(char *slot, long value) {
    char reversed[21];
    int length = 0;
    do {
        reversed[length++] = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0 && length < 20);
    for (int i = 0; i < length; i++) slot[i] = reversed[length - 1 - i];
    slot[length] = 0;
}

/// Starts `plan->path` as posix_spawn would, with only the work this
/// spawner's children need between the clone and the exec: vfork (the
/// child borrows the spawner's small address space and the spawner sleeps
/// until the exec), then in the child the LISTEN_PID slot (systemd's
/// activation wants the child's own pid, which nothing knows sooner), the
/// descriptors, the directory, a process group of its own and an empty
/// signal mask, and execve. glibc's posix_spawn also maps a stack for the
/// child and, in it, asks the kernel for all 64 signal dispositions
/// (~120 rt_sigaction calls a spawn) to reset handlers: the spawner has no
/// handler (main), so that work is left out. An exec failure comes back as
/// errno in `failure`, which the child shares until it exits. Returns 0 or
/// an errno.
static int spawn_child(const struct child_plan *plan, pid_t *pid_out) {
    volatile int failure = 0;
    sigset_t empty;
    sigemptyset(&empty);
    pid_t pid = vfork();
    if (pid < 0) return errno;
    if (pid == 0) {
        // Only system calls and plain stores from here to the exec: the
        // spawner's memory is shared and it is suspended.
        if (plan->pid_digits) write_digits(plan->pid_digits, (long)getpid());
        int error = 0;
        for (uint32_t i = 0; i < plan->count && error == 0; i++) {
            if (plan->targets[i] < 0 || plan->targets[i] >= HIGH_FD) continue;
            // The source is close-on-exec; its copy at the target is not.
            if (dup2(plan->sources[i], plan->targets[i]) < 0) error = errno;
        }
        if (error == 0 && plan->directory[0] != 0 && chdir(plan->directory) != 0) error = errno;
        if (error == 0 && setpgid(0, 0) != 0) error = errno;
        if (error == 0) {
            sigprocmask(SIG_SETMASK, &empty, NULL);
            execve(plan->path, plan->argv, plan->envp);
            error = errno;
        }
        failure = error;
        _exit(127);
    }
    if (failure != 0) {
        // The child has exited (the spawner resumes only then): reap it here,
        // it was never the run's.
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        return failure;
    }
    *pid_out = pid;
    return 0;
}

/// The kernel's limit on one argument or environment string, its NUL
/// included (MAX_ARG_STRLEN: 32 pages of 4 KiB, in linux/binfmts.h).
enum { MAX_ARG_STRLEN_BYTES = 32 * 4096 };

/// Whether `argv` and `envp` are more than execve accepts: a string over
/// MAX_ARG_STRLEN, or strings and their pointers together over
/// sysconf(_SC_ARG_MAX) (a quarter of the stack limit, as the kernel counts
/// in bprm_stack_limits). Says which, with the sizes, in `message`: the
/// kernel's E2BIG names neither.
static int exceeds_exec_limits(const char *path, char **argv, uint32_t argc, char **envp, uint32_t envc, char *message,
                               size_t capacity) {
    long limit = sysconf(_SC_ARG_MAX);
    // The kernel copies the file name into the same area, and counts a
    // pointer for each string (and one for an empty argv).
    uint64_t total = ((uint64_t)argc + envc) * sizeof(char *) + strlen(path) + 1;
    for (uint32_t i = 0; i < argc + envc; i++) {
        int is_argument = i < argc;
        const char *text = is_argument ? argv[i] : envp[i - argc];
        size_t size = strlen(text) + 1;
        if (size > MAX_ARG_STRLEN_BYTES) {
            snprintf(message, capacity, "%s %u is %zu bytes, more than the kernel's %d per string (MAX_ARG_STRLEN)",
                     is_argument ? "argument" : "environment entry", is_argument ? i : i - argc, size - 1,
                     MAX_ARG_STRLEN_BYTES - 1);
            return 1;
        }
        total += size;
    }
    if (limit > 0 && total > (uint64_t)limit) {
        snprintf(message, capacity, "arguments and environment take %llu bytes (%u arguments, %u variables), more than "
                 "the system's %ld (ARG_MAX)", (unsigned long long)total, argc, envc, limit);
        return 1;
    }
    return 0;
}

/// Why a spawn of `path` failed, in `message`: the errno's text, and what
/// it means where it misleads. ENOENT for a file that exists means its
/// interpreter is missing: the one its `#!` line names, or the ELF's
/// dynamic loader. A spawn in `directory` says so (its chdir fails the
/// same way).
static void describe_failure(int error, const char *how, const char *path, const char *directory, char *message,
                             size_t capacity) {
    int length = snprintf(message, capacity, "%s %s", how, path);
    if (length < 0 || (size_t)length >= capacity) length = (int)capacity - 1;
    char *rest = message + length;
    size_t room = capacity - (size_t)length;
    if (directory[0] != 0 && access(directory, X_OK) != 0) {
        snprintf(rest, room, " in %s: the directory cannot be entered: %s", directory, strerror(errno));
        return;
    }
    if (error == ENOENT && access(path, F_OK) == 0) {
        char head[256] = {0};
        int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        ssize_t count = fd >= 0 ? read(fd, head, sizeof head - 1) : -1;
        if (fd >= 0) close(fd);
        if (count > 2 && head[0] == '#' && head[1] == '!') {
            char *start = head + 2;
            while (*start == ' ' || *start == '\t') start++;
            size_t span = strcspn(start, " \t\r\n");
            start[span] = 0;
            snprintf(rest, room, ": its interpreter %s (its #! line) does not exist", start);
        } else {
            snprintf(rest, room, ": its ELF interpreter (the dynamic loader it names) does not exist");
        }
        return;
    }
    snprintf(rest, room, ": %s", strerror(error));
}

/// Reads the payload memfd and starts the process.
static void spawn_run(const struct lp_spawn_request *request, int *fds, uint32_t fd_count) {
    if (run.active) {
        fail(EBUSY, "a run is already under way on this spawner");
        return;
    }
    if (fd_count != request->fd_count + 1 || request->fd_count > LP_SPAWN_MAX_FDS) {
        protocol_error("spawn request: descriptor count does not match");
        return;
    }
    if (request->payload_size == 0 || request->payload_size > LP_SPAWN_MAX_PAYLOAD) {
        protocol_error("spawn request: payload size out of range");
        return;
    }
    size_t size = (size_t)request->payload_size;
    char *payload = malloc(size);
    if (!payload) {
        fail(ENOMEM, "spawn request: no memory for the payload");
        return;
    }
    size_t done = 0;
    int read_error = 0;
    while (done < size) {
        ssize_t count = pread(fds[0], payload + done, size - done, (off_t)done);
        if (count < 0 && errno == EINTR) continue;
        if (count < 0) read_error = errno;
        if (count <= 0) break;
        done += (size_t)count;
    }
    if (read_error != 0) {
        free(payload);
        char what[sizeof ((struct lp_spawn_reply *)0)->message];
        snprintf(what, sizeof what, "spawn request: cannot read the payload: %s", strerror(read_error));
        fail(read_error, what);
        return;
    }
    if (done != size || payload[size - 1] != 0) {
        free(payload);
        protocol_error("spawn request: payload truncated or not NUL-terminated");
        return;
    }
    size_t strings = 2 + (size_t)request->argc + (size_t)request->envc;
    if (request->argc == 0 || request->argc > size || request->envc > size) {
        free(payload);
        protocol_error("spawn request: argument counts out of range");
        return;
    }
    char **pointers = calloc(strings + 2, sizeof(char *));
    if (!pointers) {
        free(payload);
        fail(ENOMEM, "spawn request: no memory");
        return;
    }
    size_t found = 0;
    for (size_t offset = 0; offset < size && found < strings; found++) {
        pointers[found] = payload + offset;
        offset += strlen(payload + offset) + 1;
    }
    if (found != strings) {
        free(pointers);
        free(payload);
        protocol_error("spawn request: fewer strings than counted");
        return;
    }
    const char *path = pointers[0];
    const char *directory = pointers[1];
    // argv: pointers[2 ..< 2+argc], NULL; envp after it, NULL.
    char **argv = calloc(request->argc + 1, sizeof(char *));
    char **envp = calloc(request->envc + 1, sizeof(char *));
    if (!argv || !envp) {
        free(argv);
        free(envp);
        free(pointers);
        free(payload);
        fail(ENOMEM, "spawn request: no memory");
        return;
    }
    for (uint32_t i = 0; i < request->argc; i++) argv[i] = pointers[2 + i];
    for (uint32_t i = 0; i < request->envc; i++) envp[i] = pointers[2 + request->argc + i];
    char *spawn_digits = NULL;
    static const char prefix[] = "LAUNCHPROF_SPAWN_NS=";
    if (request->spawn_time_slot >= 0 && (uint32_t)request->spawn_time_slot < request->envc) {
        char *entry = envp[request->spawn_time_slot];
        if (strncmp(entry, prefix, sizeof prefix - 1) == 0 && strlen(entry) >= sizeof prefix - 1 + 20)
            spawn_digits = entry + sizeof prefix - 1;
    }
    char *listen_pid_digits = NULL;
    static const char listen_prefix[] = "LISTEN_PID=";
    if (request->listen_pid_entry > 0 && request->listen_pid_entry <= request->envc) {
        char *entry = envp[request->listen_pid_entry - 1];
        if (strncmp(entry, listen_prefix, sizeof listen_prefix - 1) == 0 && strlen(entry) >= sizeof listen_prefix - 1 + 20)
            listen_pid_digits = entry + sizeof listen_prefix - 1;
    }
    if (request->listen_pid_entry > 0 && (!listen_pid_digits || (request->flags & LP_SPAWN_FLAG_QUIET))) {
        free(argv);
        free(envp);
        free(pointers);
        free(payload);
        protocol_error("spawn request: the LISTEN_PID slot is not 'LISTEN_PID=' and 20 characters, or the spawn is quiet");
        return;
    }

    char too_big[sizeof ((struct lp_spawn_reply *)0)->message];
    if (exceeds_exec_limits(path, argv, request->argc, envp, request->envc, too_big, sizeof too_big)) {
        free(argv);
        free(envp);
        free(pointers);
        free(payload);
        fail(E2BIG, too_big);
        return;
    }

    int placed = place_spawner(request);
    if (placed != 0) {
        free(argv);
        free(envp);
        free(pointers);
        free(payload);
        char what[sizeof ((struct lp_spawn_reply *)0)->message];
        snprintf(what, sizeof what, "cannot run on the CPUs asked for (sched_setaffinity): %s", strerror(placed));
        fail(placed, what);
        return;
    }
    struct child_plan plan = {.path = path, .argv = argv, .envp = envp, .sources = fds + 1,
                              .targets = request->fd_targets, .count = request->fd_count, .directory = directory,
                              .pid_digits = listen_pid_digits};
    if (request->flags & LP_SPAWN_FLAG_COUNT) lp_counters_open();
    if (request->flags & LP_SPAWN_FLAG_SAMPLE) {
        int sink = -1;
        for (uint32_t i = 0; i < request->fd_count && i + 1 < fd_count; i++)
            if (request->fd_targets[i] == LP_SPAWN_FD_SAMPLE_SINK) sink = fcntl(fds[1 + i], F_DUPFD_CLOEXEC, HIGH_FD);
        if (sink >= 0)
            lp_sampling_open(sink, request->sample_hz, request->sample_stack_bytes,
                             (request->flags & LP_SPAWN_FLAG_SAMPLE_MAPS_AT_READY) != 0);
    }
    // t0: the last thing before the spawn. Only writing 20 digits into the
    // preallocated slot separates the two.
    uint64_t t0 = now_ns();
    if (spawn_digits) {
        char digits[21];
        int length = snprintf(digits, sizeof digits, "%llu", (unsigned long long)t0);
        memcpy(spawn_digits, digits, (size_t)length + 1);
    }
    pid_t pid = -1;
    int result = spawn_child(&plan, &pid);

    if (result == 0 && (request->flags & LP_SPAWN_FLAG_QUIET)) {
        // Nothing is sent and nothing freed until the run ends.
        for (uint32_t i = 0; i < fd_count; i++) {
            deferred.fds[deferred.count++] = fds[i];
            fds[i] = -1;
        }
        void *memory[4] = {argv, envp, pointers, payload};
        memcpy(deferred.memory, memory, sizeof memory);
        memset(&run, 0, sizeof run);
        run.active = 1;
        run.pid = pid;
        run.t0 = t0;
        run.owes_spawned = 1;
        return;
    }
    // The message is formatted before anything is freed: `path` points into
    // the payload (formatting it afterwards read freed memory, and with a
    // large payload crashed the spawner).
    char what[sizeof ((struct lp_spawn_reply *)0)->message];
    if (result != 0) describe_failure(result, "spawn", path, directory, what, sizeof what);
    free(argv);
    free(envp);
    free(pointers);
    free(payload);
    if (result != 0) {
        lp_counters_finish(NULL);
        lp_sampling_finish();
        fail(result, what);
        return;
    }
    memset(&run, 0, sizeof run);
    run.active = 1;
    run.pid = pid;
    run.t0 = t0;
    struct lp_spawn_reply reply = {.kind = LP_SPAWN_REPLY_SPAWNED, .pid = pid, .nanoseconds = t0};
    send_reply(&reply);
}

/// One request from launchprof; false at end of file.
static int handle_request(void) {
    struct lp_spawn_request request;
    union {
        char bytes[CMSG_SPACE(sizeof(int) * (LP_SPAWN_MAX_FDS + 1))];
        struct cmsghdr align;
    } space;
    struct iovec vector = {.iov_base = &request, .iov_len = sizeof request};
    struct msghdr header = {.msg_iov = &vector, .msg_iovlen = 1, .msg_control = space.bytes, .msg_controllen = sizeof space.bytes};
    ssize_t count = recvmsg(control, &header, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
    if (count < 0) return errno == EINTR || errno == EAGAIN;
    if (count == 0) return 0;
    int fds[LP_SPAWN_MAX_FDS + 1];
    uint32_t fd_count = 0;
    int moved_error = 0;
    for (struct cmsghdr *message = CMSG_FIRSTHDR(&header); message; message = CMSG_NXTHDR(&header, message)) {
        if (message->cmsg_level != SOL_SOCKET || message->cmsg_type != SCM_RIGHTS) continue;
        size_t n = (message->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < n; i++) {
            int received;
            memcpy(&received, CMSG_DATA(message) + i * sizeof(int), sizeof received);
            if (fd_count < LP_SPAWN_MAX_FDS + 1) {
                int high = fcntl(received, F_DUPFD_CLOEXEC, HIGH_FD);
                if (high < 0 && moved_error == 0) moved_error = errno;
                close(received);
                fds[fd_count++] = high;
            } else {
                close(received);
            }
        }
    }
    if ((size_t)count != sizeof request || request.magic != LP_SPAWN_MAGIC || (header.msg_flags & MSG_CTRUNC)) {
        protocol_error("request of the wrong size or version");
    } else {
        switch (request.kind) {
        case LP_SPAWN_REQUEST_SPAWN:
            if (moved_error != 0) {
                // The spawner is out of descriptors (EMFILE): say so, not
                // that the payload looked truncated.
                char what[sizeof ((struct lp_spawn_reply *)0)->message];
                snprintf(what, sizeof what, "spawn request: cannot keep its descriptors: %s", strerror(moved_error));
                fail(moved_error, what);
            } else {
                spawn_run(&request, fds, fd_count);
            }
            break;
        case LP_SPAWN_REQUEST_SIGNAL: signal_run(request.signal, request.scope); break;
        case LP_SPAWN_REQUEST_FINISH: finish_run(); break;
        case LP_SPAWN_REQUEST_MARK_READY:
            if (run.active) {
                // Where a program that stays up ran when it was ready (its
                // exit, after the harness's signal, may be elsewhere).
                if (!run.reaped) {
                    char name[16];
                    int32_t cpu = read_stat(run.pid, name);
                    if (cpu >= 0) run.cpu_plus_one = cpu + 1;
                }
                lp_counters_read(1);
                // The tree's mappings are read while it is alive and mapped
                // as it ran (LP_SPAWN_FLAG_SAMPLE_MAPS_AT_READY).
                pid_t *tree;
                size_t count = descendants(&tree);
                lp_sampling_stop(tree, count);
                free(tree);
            }
            break;
        default: protocol_error("unknown request kind"); break;
        }
    }
    for (uint32_t i = 0; i < fd_count; i++)
        if (fds[i] >= 0) close(fds[i]);
    return 1;
}

int main(void) {
    if (fcntl(control, F_SETFD, FD_CLOEXEC) != 0) {
        fprintf(stderr, "lp-spawn: descriptor 3 is not open: lp-spawn is started by launchprof, not by hand\n");
        return 2;
    }
    // Ignored dispositions survive exec: one inherited from launchprof's
    // parent (nohup's SIGHUP, a CI runner's SIGCHLD or SIGPIPE) would reach
    // every measured program, and an ignored SIGCHLD would make the kernel
    // reap children itself, losing their status and resources. All default.
    for (int number = 1; number < NSIG; number++) {
        if (number == SIGKILL || number == SIGSTOP) continue;
        struct sigaction current;
        if (sigaction(number, NULL, &current) == 0 && current.sa_handler == SIG_IGN) signal(number, SIG_DFL);
    }
    sigset_t blocked;
    sigemptyset(&blocked);
    for (size_t i = 0; i < sizeof blocked_signals / sizeof blocked_signals[0]; i++) sigaddset(&blocked, blocked_signals[i]);
    sigaddset(&blocked, SIGCHLD);
    sigprocmask(SIG_BLOCK, &blocked, NULL);
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    child_signals = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
    if (child_signals < 0 || prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
        fprintf(stderr, "lp-spawn: cannot watch children: %s\n", strerror(errno));
        return 2;
    }
    if (sched_getaffinity(0, sizeof cpus.started, &cpus.started) == 0) {
        cpus.current = cpus.started;
        cpus.known = 1;
    }
    for (;;) {
        // The sampling rings (while a sampled launch runs) after the two.
        struct pollfd fds[2 + 64] = {{.fd = child_signals, .events = POLLIN}, {.fd = control, .events = POLLIN}};
        int rings = lp_sampling_poll_fds(fds + 2, 64);
        int ready = poll(fds, 2 + (nfds_t)rings, -1);
        uint64_t woke = now_ns();
        if (ready < 0) {
            if (errno == EINTR) continue;
            break;
        }
        for (int i = 0; i < rings; i++) {
            if (fds[2 + i].revents) {
                lp_sampling_drain();
                break;
            }
        }
        if (fds[0].revents) {
            struct signalfd_siginfo drained[16];
            while (read(child_signals, drained, sizeof drained) > 0) {
            }
            reap_children(woke);
        }
        if (fds[1].revents & POLLIN) {
            if (!handle_request()) break;
        } else if (fds[1].revents & (POLLHUP | POLLERR | POLLNVAL)) {
            break;
        }
    }
    // launchprof is gone (it exited, crashed or was killed): nothing of the
    // run may outlive it.
    kill_and_reap_tree();
    lp_sampling_finish();
    release_deferred();
    return 0;
}
