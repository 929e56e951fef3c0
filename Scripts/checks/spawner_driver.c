// Drives lp-spawn through every request and reply kind, for
// Scripts/checks/sanitize-spawner.sh, which builds both (and the spawn
// client, Sources/Benchmark/CLaunchProfSpawn) with AddressSanitizer and
// UndefinedBehaviorSanitizer. Each case checks the reply; any sanitizer
// report makes lp-spawn or this program exit non-zero.
//
//   spawner_driver LP_SPAWN_PATH SCRATCH_DIR
#define _GNU_SOURCE
#include "launchprof_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int control = -1;
static int failures = 0;
static const char *scratch;
static const char *spawner_path;

static void check(int condition, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    fprintf(stderr, condition ? "  ok    " : "  FAIL  ");
    vfprintf(stderr, format, arguments);
    fprintf(stderr, "\n");
    va_end(arguments);
    if (!condition) failures++;
}

/// A growing payload: path, directory, argv, envp, each NUL-terminated.
struct payload {
    char *bytes;
    size_t size, capacity;
    uint32_t argc, envc;
};

static void add(struct payload *payload, const char *text, size_t length) {
    if (payload->size + length + 1 > payload->capacity) {
        payload->capacity = (payload->size + length + 1) * 2;
        payload->bytes = realloc(payload->bytes, payload->capacity);
        if (!payload->bytes) abort();
    }
    memcpy(payload->bytes + payload->size, text, length);
    payload->bytes[payload->size + length] = 0;
    payload->size += length + 1;
}

static struct payload start_in(const char *path, const char *directory) {
    struct payload payload = {0};
    add(&payload, path, strlen(path));
    add(&payload, directory, strlen(directory));
    return payload;
}

static struct payload start(const char *path) { return start_in(path, ""); }

/// A copy of /bin/true whose PT_INTERP names a loader that does not exist
/// (one letter of "ld-linux" changed), or NULL where there is none.
static char *elf_without_loader(void) {
    FILE *file = fopen("/bin/true", "rb");
    if (!file) return NULL;
    static char bytes[1 << 20];
    size_t size = fread(bytes, 1, sizeof bytes, file);
    fclose(file);
    char *loader = memmem(bytes, size, "/ld-", 4);
    if (!loader) return NULL;
    loader[1] = 'X';
    char *path = NULL;
    if (asprintf(&path, "%s/no-loader", scratch) < 0) abort();
    FILE *copy = fopen(path, "wb");
    if (!copy) abort();
    fwrite(bytes, 1, size, copy);
    fclose(copy);
    chmod(path, 0755);
    return path;
}

static void argument(struct payload *payload, const char *text) {
    add(payload, text, strlen(text));
    payload->argc++;
}

static void variable(struct payload *payload, const char *text) {
    add(payload, text, strlen(text));
    payload->envc++;
}

/// A string of `length` copies of `fill` after `prefix` (caller frees).
static char *filled(const char *prefix, size_t length, char fill) {
    size_t start = strlen(prefix);
    char *text = malloc(start + length + 1);
    if (!text) abort();
    memcpy(text, prefix, start);
    memset(text + start, fill, length);
    text[start + length] = 0;
    return text;
}

static struct lp_spawn_request spawn_request(const struct payload *payload, uint32_t flags) {
    struct lp_spawn_request request = {.magic = LP_SPAWN_MAGIC, .kind = LP_SPAWN_REQUEST_SPAWN};
    request.payload_size = payload->size;
    request.argc = payload->argc;
    request.envc = payload->envc;
    request.spawn_time_slot = -1;
    request.flags = flags;
    return request;
}

static struct lp_spawn_reply receive(void) {
    struct lp_spawn_reply reply;
    memset(&reply, 0, sizeof reply);
    int result = lp_spawn_receive(control, &reply, 0);
    if (result != 1) {
        fprintf(stderr, "  FAIL  the spawner is gone (%d: %s)\n", result, strerror(errno));
        exit(1);
    }
    return reply;
}

static int send_spawn(struct payload *payload, uint32_t flags, struct lp_spawn_request *custom) {
    struct lp_spawn_request request = custom ? *custom : spawn_request(payload, flags);
    int result = lp_spawn_send(control, &request, payload->bytes, payload->size, NULL, 0);
    free(payload->bytes);
    return result;
}

static struct lp_spawn_reply finish(void) {
    struct lp_spawn_request request = {.magic = LP_SPAWN_MAGIC, .kind = LP_SPAWN_REQUEST_FINISH};
    lp_spawn_send(control, &request, NULL, 0, NULL, 0);
    for (;;) {
        struct lp_spawn_reply reply = receive();
        if (reply.kind == LP_SPAWN_REPLY_FINISHED) return reply;
    }
}

static void signal_run(int number, uint32_t scope) {
    struct lp_spawn_request request = {.magic = LP_SPAWN_MAGIC, .kind = LP_SPAWN_REQUEST_SIGNAL, .signal = number, .scope = scope};
    lp_spawn_send(control, &request, NULL, 0, NULL, 0);
}

/// Spawns `payload` and expects FAILED with `error` and a message holding `needle`.
static void expect_failure(const char *name, struct payload payload, uint32_t flags, int error, const char *needle) {
    send_spawn(&payload, flags, NULL);
    struct lp_spawn_reply reply = receive();
    check(reply.kind == LP_SPAWN_REPLY_FAILED && reply.error == error && strstr(reply.message, needle),
          "%s: FAILED %d (%s), message: %s", name, reply.error, strerror(reply.error), reply.message);
}

/// Spawns `payload` and expects it to run and exit with `status`.
static void expect_exit(const char *name, struct payload payload, uint32_t flags, int status) {
    send_spawn(&payload, flags, NULL);
    struct lp_spawn_reply reply = receive();
    check(reply.kind == LP_SPAWN_REPLY_SPAWNED && reply.pid > 0, "%s: SPAWNED pid %d", name, reply.pid);
    reply = receive();
    check(reply.kind == LP_SPAWN_REPLY_EXITED && WIFEXITED(reply.status) && WEXITSTATUS(reply.status) == status,
          "%s: EXITED with %d", name, WIFEXITED(reply.status) ? WEXITSTATUS(reply.status) : -1);
    reply = finish();
    check(reply.processes >= 1 && reply.unreaped == 0, "%s: FINISHED, %u process(es) reaped", name, reply.processes);
}

/// Spawns `sh -c "grep -q 'Cpus_allowed_list:<TAB>LIST$'"` with the
/// affinity of `set` (NULL: no LP_SPAWN_FLAG_AFFINITY) and expects it to
/// exit 0, the kernel's list being `list`.
static void expect_cpus(const char *name, const cpu_set_t *set, const char *list) {
    char command[128];
    snprintf(command, sizeof command, "grep -q '^Cpus_allowed_list:	%s$' /proc/self/status", list);
    struct payload payload = start("/bin/sh");
    argument(&payload, "sh");
    argument(&payload, "-c");
    argument(&payload, command);
    struct lp_spawn_request request = spawn_request(&payload, set ? LP_SPAWN_FLAG_AFFINITY : 0);
    if (set) memcpy(request.affinity, set, sizeof request.affinity < sizeof *set ? sizeof request.affinity : sizeof *set);
    send_spawn(&payload, 0, &request);
    struct lp_spawn_reply reply = receive();
    check(reply.kind == LP_SPAWN_REPLY_SPAWNED && reply.pid > 0, "%s: SPAWNED pid %d %s", name, reply.pid, reply.message);
    reply = receive();
    check(reply.kind == LP_SPAWN_REPLY_EXITED && WIFEXITED(reply.status) && WEXITSTATUS(reply.status) == 0,
          "%s: EXITED with %d (0: its CPUs are %s)", name, WIFEXITED(reply.status) ? WEXITSTATUS(reply.status) : -1, list);
    finish();
}

/// LP_SPAWN_FLAG_AFFINITY: a pinned spawn runs on its CPU, the next one
/// without the flag on every CPU again, and a set with no CPU the spawner
/// may use fails (EINVAL) and leaves it working.
static void pinned_spawns(void) {
    cpu_set_t all;
    if (sched_getaffinity(0, sizeof all, &all) != 0) {
        check(0, "sched_getaffinity: %s", strerror(errno));
        return;
    }
    int first = -1, last = -1;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, &all)) {
            if (first < 0) first = cpu;
            last = cpu;
        }
    char one[16], every[32];
    snprintf(one, sizeof one, "%d", first);
    // The kernel's list of the whole set, for the usual contiguous one.
    if (first == last) snprintf(every, sizeof every, "%d", first);
    else snprintf(every, sizeof every, "%d-%d", first, last);
    cpu_set_t pinned;
    CPU_ZERO(&pinned);
    CPU_SET(first, &pinned);
    expect_cpus("pinned to the first CPU", &pinned, one);
    if (CPU_COUNT(&all) == last - first + 1) expect_cpus("unpinned after a pinned spawn", NULL, every);
    cpu_set_t empty;
    CPU_ZERO(&empty);
    struct payload payload = start("/bin/true");
    argument(&payload, "true");
    struct lp_spawn_request request = spawn_request(&payload, LP_SPAWN_FLAG_AFFINITY);
    memcpy(request.affinity, &empty, sizeof request.affinity);
    send_spawn(&payload, 0, &request);
    struct lp_spawn_reply reply = receive();
    check(reply.kind == LP_SPAWN_REPLY_FAILED && reply.error == EINVAL && strstr(reply.message, "sched_setaffinity"),
          "an empty CPU set: FAILED %d, message: %s", reply.error, reply.message);
    expect_cpus("pinned again after a refused set", &pinned, one);
}

static void expect_protocol_error(const char *name, struct payload payload, struct lp_spawn_request request) {
    send_spawn(&payload, 0, &request);
    struct lp_spawn_reply reply = receive();
    check(reply.kind == LP_SPAWN_REPLY_PROTOCOL_ERROR, "%s: PROTOCOL_ERROR: %s", name, reply.message);
}

static char *script(const char *name, const char *text) {
    char *path = NULL;
    if (asprintf(&path, "%s/%s", scratch, name) < 0) abort();
    FILE *file = fopen(path, "w");
    if (!file) abort();
    fputs(text, file);
    fclose(file);
    chmod(path, 0755);
    return path;
}

/// About 256 KiB of environment: the size that crashed the spawner's
/// failure path once the payload was freed before the message was made.
static void large_environment(struct payload *payload) {
    for (int i = 0; i < 128; i++) {
        char prefix[32];
        snprintf(prefix, sizeof prefix, "LARGE_%03d=", i);
        char *entry = filled(prefix, 2048, 'e');
        variable(payload, entry);
        free(entry);
    }
}

static void failed_spawns(void) {
    char *no_shebang = script("no-shebang", "echo this has no interpreter line\n");
    char *missing = script("missing-interpreter", "#!/nonexistent/interpreter\n");
    struct payload payload = start(no_shebang);
    argument(&payload, no_shebang);
    large_environment(&payload);
    expect_failure("script without #! and 256 KiB of environment", payload, 0, ENOEXEC, "no-shebang");
    payload = start(missing);
    argument(&payload, missing);
    large_environment(&payload);
    expect_failure("missing interpreter and 256 KiB of environment", payload, 0, ENOENT, "missing-interpreter");
    payload = start("/nonexistent/program");
    argument(&payload, "program");
    expect_failure("missing program", payload, 0, ENOENT, "/nonexistent/program");
    payload = start("/nonexistent/program");
    argument(&payload, "program");
    expect_failure("missing program, quiet", payload, LP_SPAWN_FLAG_QUIET, ENOENT, "/nonexistent/program");
    payload = start_in("/bin/true", "/nonexistent/directory");
    argument(&payload, "true");
    expect_failure("a working directory that does not exist", payload, 0, ENOENT, "the directory cannot be entered");
    char *no_loader = elf_without_loader();
    if (no_loader) {
        payload = start(no_loader);
        argument(&payload, no_loader);
        expect_failure("an ELF whose dynamic loader does not exist", payload, 0, ENOENT, "its ELF interpreter");
        free(no_loader);
    }
    // The forking path (socket activation) reports an exec failure the same way.
    payload = start(no_shebang);
    argument(&payload, no_shebang);
    large_environment(&payload);
    variable(&payload, "LISTEN_PID=00000000000000000000");
    struct lp_spawn_request request = spawn_request(&payload, 0);
    request.listen_pid_entry = payload.envc;
    send_spawn(&payload, 0, &request);
    struct lp_spawn_reply reply = receive();
    check(reply.kind == LP_SPAWN_REPLY_FAILED && reply.error == ENOEXEC && strstr(reply.message, "no-shebang"),
          "forked spawn of a script without #!: FAILED %d, message: %s", reply.error, reply.message);
    free(no_shebang);
    free(missing);
}

static void argument_limits(void) {
    // One string of exactly MAX_ARG_STRLEN with its NUL runs; one byte more does not.
    char *longest = filled("", 32 * 4096 - 1, 'a');
    struct payload payload = start("/bin/true");
    argument(&payload, "true");
    argument(&payload, longest);
    expect_exit("an argument of 131071 bytes (MAX_ARG_STRLEN with its NUL)", payload, 0, 0);
    free(longest);
    char *over = filled("", 32 * 4096, 'a');
    payload = start("/bin/true");
    argument(&payload, "true");
    argument(&payload, over);
    expect_failure("an argument of 131072 bytes", payload, 0, E2BIG, "MAX_ARG_STRLEN");
    payload = start("/bin/true");
    argument(&payload, "true");
    char *entry = filled("BIG=", 32 * 4096, 'v');
    variable(&payload, entry);
    free(entry);
    expect_failure("an environment entry over 128 KiB", payload, 0, E2BIG, "environment entry 0");
    free(over);

    // Up to the system's limit in 64 KiB arguments: 16 KiB under it runs,
    // over it is E2BIG with the sizes.
    long limit = sysconf(_SC_ARG_MAX);
    size_t piece = 64 * 1024;
    char *chunk = filled("", piece - 1, 'b');
    size_t fixed = sizeof "/bin/true" + sizeof "true" + 2 * sizeof(char *);
    size_t under = ((size_t)limit - fixed - 16 * 1024) / (piece + sizeof(char *));
    payload = start("/bin/true");
    argument(&payload, "true");
    for (size_t i = 0; i < under; i++) argument(&payload, chunk);
    expect_exit("arguments 16 KiB under ARG_MAX", payload, 0, 0);
    payload = start("/bin/true");
    argument(&payload, "true");
    for (size_t i = 0; i < under + 2; i++) argument(&payload, chunk);
    expect_failure("arguments over ARG_MAX", payload, 0, E2BIG, "ARG_MAX");
    payload = start("/bin/true");
    argument(&payload, "true");
    for (size_t i = 0; i < under + 2; i++) argument(&payload, chunk);
    expect_failure("arguments over ARG_MAX, quiet", payload, LP_SPAWN_FLAG_QUIET, E2BIG, "ARG_MAX");
    free(chunk);
}

static void every_reply(void) {
    struct payload payload = start("/bin/sh");
    argument(&payload, "sh");
    argument(&payload, "-c");
    argument(&payload, "exit 7");
    expect_exit("sh -c 'exit 7'", payload, 0, 7);

    // Quiet: SPAWNED arrives with the exit.
    payload = start("/bin/true");
    argument(&payload, "true");
    send_spawn(&payload, LP_SPAWN_FLAG_QUIET, NULL);
    struct lp_spawn_reply reply = receive();
    check(reply.kind == LP_SPAWN_REPLY_SPAWNED, "quiet spawn: SPAWNED at the exit");
    reply = receive();
    check(reply.kind == LP_SPAWN_REPLY_EXITED, "quiet spawn: EXITED");
    finish();

    // The t0 slot and the LISTEN_PID slot are filled.
    payload = start("/bin/sh");
    argument(&payload, "sh");
    argument(&payload, "-c");
    argument(&payload, "test \"$LISTEN_PID\" = \"$$\" && test \"$LAUNCHPROF_SPAWN_NS\" -gt 0");
    variable(&payload, "LAUNCHPROF_SPAWN_NS=00000000000000000000");
    variable(&payload, "LISTEN_PID=00000000000000000000");
    struct lp_spawn_request request = spawn_request(&payload, 0);
    request.spawn_time_slot = 0;
    request.listen_pid_entry = 2;
    send_spawn(&payload, 0, &request);
    reply = receive();
    check(reply.kind == LP_SPAWN_REPLY_SPAWNED, "LISTEN_PID spawn: SPAWNED");
    reply = receive();
    check(reply.kind == LP_SPAWN_REPLY_EXITED && WIFEXITED(reply.status) && WEXITSTATUS(reply.status) == 0,
          "LISTEN_PID spawn: the child saw its own pid and t0");
    finish();

    // STOPPED, CONTINUED, a busy spawner, then EXITED by a signal to the tree.
    payload = start("/bin/sleep");
    argument(&payload, "sleep");
    argument(&payload, "30");
    send_spawn(&payload, 0, NULL);
    reply = receive();
    check(reply.kind == LP_SPAWN_REPLY_SPAWNED, "sleep 30: SPAWNED");
    payload = start("/bin/true");
    argument(&payload, "true");
    expect_failure("a second spawn during a run", payload, 0, EBUSY, "already under way");
    signal_run(SIGSTOP, LP_SPAWN_SCOPE_PROCESS);
    reply = receive();
    check(reply.kind == LP_SPAWN_REPLY_STOPPED, "SIGSTOP: STOPPED");
    signal_run(SIGCONT, LP_SPAWN_SCOPE_GROUP);
    reply = receive();
    check(reply.kind == LP_SPAWN_REPLY_CONTINUED, "SIGCONT: CONTINUED");
    signal_run(SIGTERM, LP_SPAWN_SCOPE_TREE);
    reply = receive();
    check(reply.kind == LP_SPAWN_REPLY_EXITED && WIFSIGNALED(reply.status), "SIGTERM to the tree: EXITED by a signal");
    signal_run(0, LP_SPAWN_SCOPE_TREE);
    signal_run(100000, 7);
    reply = finish();
    check(reply.kind == LP_SPAWN_REPLY_FINISHED && reply.error == 0, "FINISHED");

    // A run that leaves a daemon behind: FINISH kills and counts it.
    payload = start("/bin/sh");
    argument(&payload, "sh");
    argument(&payload, "-c");
    argument(&payload, "sleep 30 & exit 0");
    send_spawn(&payload, 0, NULL);
    receive();
    reply = receive();
    check(reply.kind == LP_SPAWN_REPLY_EXITED, "sh leaving a sleep behind: EXITED");
    reply = finish();
    check(reply.processes == 2 && reply.unreaped == 0, "FINISHED with the survivor killed: %u processes", reply.processes);
    reply = finish();
    check(reply.error == ECHILD, "FINISH without a run: FINISHED, nothing reaped");

    // EXITED goes out before the reap, its status made from waitid's
    // report: it must be the status wait4 returns (FINISHED's).
    const char *endings[] = {"exit 3", "kill -KILL $$", "kill -TERM $$", "exit 0"};
    for (size_t i = 0; i < sizeof endings / sizeof endings[0]; i++) {
        payload = start("/bin/sh");
        argument(&payload, "sh");
        argument(&payload, "-c");
        argument(&payload, endings[i]);
        send_spawn(&payload, LP_SPAWN_FLAG_QUIET, NULL);
        receive();
        reply = receive();
        int exited = reply.status;
        check(reply.kind == LP_SPAWN_REPLY_EXITED, "sh -c '%s': EXITED", endings[i]);
        reply = finish();
        check(reply.status == exited && reply.processes == 1, "sh -c '%s': EXITED's status %#x is wait4's %#x", endings[i],
              exited, reply.status);
    }

    // The launched process's name comes out of /proc/PID/stat, where it
    // sits in parentheses and may hold ") " itself.
    char *named = NULL;
    if (asprintf(&named, "%s/a) b", scratch) < 0) abort();
    FILE *source = fopen("/bin/true", "rb");
    FILE *copy = fopen(named, "wb");
    if (!source || !copy) abort();
    char bytes[65536];
    size_t count;
    while ((count = fread(bytes, 1, sizeof bytes, source)) > 0) fwrite(bytes, 1, count, copy);
    fclose(source);
    fclose(copy);
    chmod(named, 0755);
    payload = start(named);
    argument(&payload, "a) b");
    send_spawn(&payload, LP_SPAWN_FLAG_QUIET, NULL);
    receive();
    receive();
    reply = finish();
    check(strcmp(reply.process_name, "a) b") == 0 && reply.cpu >= 0, "a program named 'a) b': named '%s', last on CPU %d",
          reply.process_name, reply.cpu);
    free(named);
}

static void protocol_errors(void) {
    struct payload payload = start("/bin/true");
    argument(&payload, "true");
    struct lp_spawn_request request = spawn_request(&payload, 0);
    request.magic = 0x12345678;
    expect_protocol_error("wrong magic", payload, request);

    payload = start("/bin/true");
    argument(&payload, "true");
    request = spawn_request(&payload, 0);
    request.kind = 99;
    expect_protocol_error("unknown kind", payload, request);

    payload = start("/bin/true");
    argument(&payload, "true");
    request = spawn_request(&payload, 0);
    request.payload_size = (uint64_t)LP_SPAWN_MAX_PAYLOAD + 1;
    expect_protocol_error("payload over the maximum", payload, request);

    payload = start("/bin/true");
    argument(&payload, "true");
    request = spawn_request(&payload, 0);
    request.payload_size = payload.size + 100;
    expect_protocol_error("payload shorter than said", payload, request);

    payload = start("/bin/true");
    argument(&payload, "true");
    payload.bytes[payload.size - 1] = 'x';
    request = spawn_request(&payload, 0);
    expect_protocol_error("payload not NUL-terminated", payload, request);

    payload = start("/bin/true");
    argument(&payload, "true");
    request = spawn_request(&payload, 0);
    request.argc = 0;
    expect_protocol_error("no argv[0]", payload, request);

    payload = start("/bin/true");
    argument(&payload, "true");
    request = spawn_request(&payload, 0);
    request.envc = 3;
    expect_protocol_error("fewer strings than counted", payload, request);

    payload = start("/bin/true");
    argument(&payload, "true");
    request = spawn_request(&payload, 0);
    request.fd_count = 5;
    expect_protocol_error("descriptor count that does not match", payload, request);

    payload = start("/bin/true");
    argument(&payload, "true");
    variable(&payload, "LISTEN_PID=1");
    request = spawn_request(&payload, 0);
    request.listen_pid_entry = 1;
    expect_protocol_error("LISTEN_PID slot without room", payload, request);

    payload = start("/bin/true");
    argument(&payload, "true");
    variable(&payload, "LAUNCHPROF_SPAWN_NS=1");
    request = spawn_request(&payload, 0);
    request.spawn_time_slot = 0;
    expect_exit("a t0 slot without room (ignored)", payload, 0, 0);

    // A request of the wrong size.
    char garbage[7] = {0};
    send(control, garbage, sizeof garbage, MSG_NOSIGNAL);
    struct lp_spawn_reply reply = receive();
    check(reply.kind == LP_SPAWN_REPLY_PROTOCOL_ERROR, "a 7-byte request: PROTOCOL_ERROR: %s", reply.message);
}

static void record_sockets(void) {
    int ends[2];
    check(lp_record_socket(ends) == 0, "record socket pair");
    const char record[] = "LP1 ready 1";
    send(ends[1], record, sizeof record - 1, MSG_NOSIGNAL);
    char small[4];
    pid_t sender = 0;
    int truncated = 0;
    ssize_t count = lp_record_receive(ends[0], small, sizeof small, &sender, &truncated);
    check(count >= 4 && truncated && sender == getpid(), "a record larger than the buffer: truncated, sender %d", sender);
    count = lp_record_receive(ends[0], small, sizeof small, &sender, &truncated);
    check(count < 0 && errno == EAGAIN, "no record waiting: EAGAIN");
    // A notify datagram with descriptors attached: they are closed.
    int pair[2];
    socketpair(AF_UNIX, SOCK_DGRAM, 0, pair);
    int on = 1;
    setsockopt(pair[0], SOL_SOCKET, SO_PASSCRED, &on, sizeof on);
    int attached[2] = {STDIN_FILENO, STDOUT_FILENO};
    union {
        char bytes[CMSG_SPACE(sizeof attached)];
        struct cmsghdr align;
    } space;
    struct iovec vector = {.iov_base = (void *)"READY=1", .iov_len = 7};
    struct msghdr header = {.msg_iov = &vector, .msg_iovlen = 1, .msg_control = space.bytes, .msg_controllen = sizeof space.bytes};
    struct cmsghdr *message = CMSG_FIRSTHDR(&header);
    message->cmsg_level = SOL_SOCKET;
    message->cmsg_type = SCM_RIGHTS;
    message->cmsg_len = CMSG_LEN(sizeof attached);
    memcpy(CMSG_DATA(message), attached, sizeof attached);
    sendmsg(pair[1], &header, 0);
    char text[64];
    count = lp_notify_receive(pair[0], text, sizeof text, &sender);
    check(count == 7 && sender == getpid(), "a notify datagram with descriptors: read, sender %d", sender);
    close(pair[0]);
    close(pair[1]);
    close(ends[0]);
    close(ends[1]);
}

/// A sampled spawn (LP_SPAWN_FLAG_SAMPLE) of a shell that burns CPU and
/// starts a child: the rings are drained to the sink, MARK_READY reads the
/// tree's mappings (LP_SPAWN_FLAG_SAMPLE_MAPS_AT_READY), and the sink is a
/// header and whole records; where perf events are refused the header says
/// why and the spawn goes on.
/// What a sink holds: its records of each kind, and whether they run whole
/// to its end.
struct sink_records {
    unsigned records, mappings, samples, totals, missed;
    int whole;
};

static struct sink_records scan_sink(int sink) {
    struct sink_records found = {0, 0, 0, 0, 0, 0};
    off_t end = lseek(sink, 0, SEEK_END), offset = (off_t)sizeof(struct lp_perf_sink_header);
    while (offset + 8 <= end) {
        struct {
            uint32_t type;
            uint16_t misc, size;
        } record;
        if (pread(sink, &record, sizeof record, offset) != (ssize_t)sizeof record || record.size < 8) break;
        found.records++;
        found.mappings += record.type == 10;
        found.samples += record.type == 9;
        found.totals += record.type == LP_PERF_RECORD_TASK_CLOCK;
        found.missed += record.type == LP_PERF_RECORD_MAPS_MISSED;
        offset += record.size;
    }
    found.whole = offset == end;
    return found;
}

/// Spawns `script` with the sample sink `sink` and the sampling flags.
static void spawn_sampled(int sink, const char *script) {
    struct payload payload = start("/bin/sh");
    argument(&payload, "sh");
    argument(&payload, "-c");
    argument(&payload, script);
    struct lp_spawn_request request =
        spawn_request(&payload, LP_SPAWN_FLAG_SAMPLE | LP_SPAWN_FLAG_SAMPLE_MAPS_AT_READY);
    request.sample_hz = 4000;
    request.sample_stack_bytes = 16384;
    request.fd_count = 1;
    request.fd_targets[0] = LP_SPAWN_FD_SAMPLE_SINK;
    lp_spawn_send(control, &request, payload.bytes, payload.size, &sink, 1);
    free(payload.bytes);
}

static void sampled_spawn(void) {
    char path[4096];
    snprintf(path, sizeof path, "%s/samples", scratch);
    int sink = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    spawn_sampled(sink, "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; /bin/true; sleep 5");
    struct lp_spawn_reply reply = receive();
    check(reply.kind == LP_SPAWN_REPLY_SPAWNED, "sampled spawn: SPAWNED pid %d", reply.pid);
    usleep(300000);
    struct lp_spawn_request ready = {.magic = LP_SPAWN_MAGIC, .kind = LP_SPAWN_REQUEST_MARK_READY};
    lp_spawn_send(control, &ready, NULL, 0, NULL, 0);
    reply = finish();
    check(reply.kind == LP_SPAWN_REPLY_FINISHED && reply.unreaped == 0, "sampled spawn: FINISHED, %u process(es) reaped",
          reply.processes);
    struct lp_perf_sink_header header;
    ssize_t count = pread(sink, &header, sizeof header, 0);
    check(count == (ssize_t)sizeof header && memcmp(header.magic, LP_PERF_SINK_MAGIC, 8) == 0 && header.hz == 4000,
          "sampled spawn: the sink's header (%zd bytes, %u CPU(s), error %d)", count, header.cpus, header.error);
    // Whole records after it, the last the task-clock total.
    struct sink_records found = scan_sink(sink);
    check(found.whole, "sampled spawn: %u whole records in the sink, to its end", found.records);
    if (header.error == 0 && header.cpus > 0)
        check(found.samples > 0 && found.mappings > 0 && found.totals == 1 && found.missed == 0,
              "sampled spawn: %u samples, %u mappings read at ready, %u total", found.samples, found.mappings, found.totals);
    check((header.flags & LP_PERF_SINK_CLOSED) && header.sink_error == 0 && header.unwritten_records == 0,
          "sampled spawn: the sink's ending (flags 0x%x, error %d, %llu unwritten)", header.flags, header.sink_error,
          (unsigned long long)header.unwritten_records);
    close(sink);

    // A launch that ends before MARK_READY: no mapping can be read, and the
    // sink says so.
    sink = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    spawn_sampled(sink, "exit 0");
    reply = receive();
    check(reply.kind == LP_SPAWN_REPLY_SPAWNED, "sampled spawn ending before ready: SPAWNED pid %d", reply.pid);
    reply = receive();
    check(reply.kind == LP_SPAWN_REPLY_EXITED, "sampled spawn ending before ready: EXITED");
    finish();
    found = scan_sink(sink);
    if (header.error == 0 && header.cpus > 0)
        check(found.whole && found.mappings == 0 && found.missed == 1, "sampled spawn ending before ready: mappings missed, said once");
    close(sink);
}

/// A sampled spawn by a spawner under a 64 KiB file-size limit (as
/// `prlimit --fsize` or a full disk would cut it): the spawner survives
/// (SIGXFSZ is blocked, the write fails with EFBIG), the sink ends at its
/// last whole record, and its header's ending counts what was not written.
static void sampled_spawn_over_a_file_size_limit(void) {
    struct rlimit saved, limited;
    getrlimit(RLIMIT_FSIZE, &saved);
    limited = saved;
    limited.rlim_cur = 65536;
    setrlimit(RLIMIT_FSIZE, &limited);
    int outer = control;
    pid_t spawner = lp_spawn_start(spawner_path, &control);
    setrlimit(RLIMIT_FSIZE, &saved);
    check(spawner > 0, "file-size limit: a second spawner started");
    if (spawner <= 0) {
        control = outer;
        return;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/limited-samples", scratch);
    int sink = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    spawn_sampled(sink, "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done");
    struct lp_spawn_reply reply = receive();
    check(reply.kind == LP_SPAWN_REPLY_SPAWNED, "file-size limit: SPAWNED pid %d", reply.pid);
    reply = receive();
    check(reply.kind == LP_SPAWN_REPLY_EXITED, "file-size limit: EXITED (the spawner survived the limit)");
    reply = finish();
    check(reply.kind == LP_SPAWN_REPLY_FINISHED, "file-size limit: FINISHED");
    struct lp_perf_sink_header header;
    ssize_t count = pread(sink, &header, sizeof header, 0);
    struct sink_records found = scan_sink(sink);
    if (count == (ssize_t)sizeof header && header.error == 0 && header.cpus > 0)
        check(found.whole && lseek(sink, 0, SEEK_END) <= 65536 && (header.flags & LP_PERF_SINK_CLOSED) &&
                  header.sink_error == EFBIG && header.unwritten_samples > 0 && found.totals == 0,
              "file-size limit: %u whole records, then error %d and %llu samples unwritten", found.records,
              header.sink_error, (unsigned long long)header.unwritten_samples);
    close(sink);
    close(control);
    int status = 0;
    waitpid(spawner, &status, 0);
    check(WIFEXITED(status) && WEXITSTATUS(status) == 0, "file-size limit: the second spawner exited with %d",
          WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    control = outer;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: spawner_driver LP_SPAWN_PATH SCRATCH_DIR\n");
        return 2;
    }
    scratch = argv[2];
    spawner_path = argv[1];
    pid_t spawner = lp_spawn_start(argv[1], &control);
    if (spawner < 0) {
        fprintf(stderr, "cannot start %s: %s\n", argv[1], strerror(errno));
        return 2;
    }
    fprintf(stderr, "failed spawns\n");
    failed_spawns();
    fprintf(stderr, "arguments up to the system's limit (ARG_MAX %ld)\n", sysconf(_SC_ARG_MAX));
    argument_limits();
    fprintf(stderr, "every reply kind\n");
    every_reply();
    fprintf(stderr, "pinned spawns\n");
    pinned_spawns();
    fprintf(stderr, "protocol errors\n");
    protocol_errors();
    fprintf(stderr, "record and notify sockets\n");
    record_sockets();
    fprintf(stderr, "a sampled spawn\n");
    sampled_spawn();
    fprintf(stderr, "a sampled spawn over a file-size limit\n");
    sampled_spawn_over_a_file_size_limit();
    // End of file: the spawner cleans up and exits 0 (a sanitizer report
    // would make it exit otherwise).
    close(control);
    int status = 0;
    waitpid(spawner, &status, 0);
    check(WIFEXITED(status) && WEXITSTATUS(status) == 0, "lp-spawn exited with %d at end of file",
          WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    fprintf(stderr, "%s: %d failure(s)\n", failures ? "FAILED" : "passed", failures);
    return failures ? 1 : 0;
}
