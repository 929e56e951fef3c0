// The floor of a launch measurement, and lp-spawn without launchprof, for
// Scripts/compare/compare-floor.sh (docs/spawner.md, "How close to the
// floor").
//
//   spawn-floor floor OUT RUNS WARMUP PROGRAM [ARGUMENT...]
//       posix_spawn + waitpid and nothing else, timed with CLOCK_MONOTONIC
//       around both: the least any tool can measure. The child inherits
//       this program's environment and standard descriptors (the script
//       points them at /dev/null), as hyperfine -N's child does.
//   spawn-floor spawner LP_SPAWN OUT RUNS WARMUP PROGRAM [ARGUMENT...]
//       the same program started by lp-spawn exactly as `launchprof run`
//       with the exit probe asks it to (a quiet spawn; /dev/null as stdin,
//       stdout and stderr; the record socket as descriptor 3; launchprof's
//       variables in the environment), each run then finished (the tree
//       reaped, its resources summed): the spawner's share of launchprof's
//       figure, without launchprof.
//
// Each writes one line per measured run to OUT: nanoseconds from the spawn
// to the exit as seen by whoever waits (for lp-spawn: its EXITED time minus
// its t0, which is what launchprof reports as wallToExit).
#define _GNU_SOURCE
#include "launchprof_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static unsigned long long now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec;
}

static void die(const char *what) {
    fprintf(stderr, "spawn-floor: %s: %s\n", what, strerror(errno));
    exit(1);
}

static long count_argument(const char *text, const char *name) {
    char *end = NULL;
    long value = strtol(text, &end, 10);
    if (end == text || *end != 0 || value < 0 || value > 1000000) {
        fprintf(stderr, "spawn-floor: %s must be a count from 0 to 1000000, not '%s'\n", name, text);
        exit(2);
    }
    return value;
}

static FILE *open_out(const char *path) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!out) die(path);
    return out;
}

static int floor_runs(const char *out_path, long runs, long warmup, char **argv) {
    FILE *out = open_out(out_path);
    for (long i = 0; i < warmup + runs; i++) {
        pid_t pid;
        int status;
        unsigned long long start = now();
        int result = posix_spawn(&pid, argv[0], NULL, NULL, argv, environ);
        if (result != 0) {
            errno = result;
            die(argv[0]);
        }
        if (waitpid(pid, &status, 0) != pid) die("waitpid");
        unsigned long long end = now();
        if (i >= warmup) fprintf(out, "%llu\n", end - start);
    }
    return fclose(out) == 0 ? 0 : 1;
}

/// The payload launchprof sends: path, directory, argv, then its
/// environment with the record descriptor's two names and the t0 slot.
struct payload {
    char *bytes;
    size_t size, capacity;
    uint32_t argc, envc;
};

static void add(struct payload *payload, const char *text) {
    size_t length = strlen(text);
    if (payload->size + length + 1 > payload->capacity) {
        payload->capacity = (payload->size + length + 1) * 2;
        payload->bytes = realloc(payload->bytes, payload->capacity);
        if (!payload->bytes) die("payload");
    }
    memcpy(payload->bytes + payload->size, text, length + 1);
    payload->size += length + 1;
}

static struct lp_spawn_reply receive(int control) {
    struct lp_spawn_reply reply;
    memset(&reply, 0, sizeof reply);
    int result = lp_spawn_receive(control, &reply, 0);
    if (result != 1) {
        errno = result == 0 ? EPIPE : errno;
        die("the spawner's reply");
    }
    return reply;
}

static int spawner_runs(const char *spawner, const char *out_path, long runs, long warmup, char **argv, int argc) {
    FILE *out = open_out(out_path);
    int control = -1;
    if (lp_spawn_start(spawner, &control) < 0) die(spawner);
    struct payload payload = {0};
    add(&payload, argv[0]);
    add(&payload, "");
    for (int i = 0; i < argc; i++) add(&payload, argv[i]);
    payload.argc = (uint32_t)argc;
    for (char **entry = environ; *entry; entry++) {
        if (strncmp(*entry, "LAUNCHPROF_", 11) == 0) continue;
        add(&payload, *entry);
        payload.envc++;
    }
    add(&payload, "LAUNCHPROF_RECORD_FD=3");
    add(&payload, "LAUNCHPROF_READY_FD=3");
    add(&payload, "LAUNCHPROF_SPAWN_NS=00000000000000000000");
    payload.envc += 3;
    struct lp_spawn_request request = {.magic = LP_SPAWN_MAGIC, .kind = LP_SPAWN_REQUEST_SPAWN};
    request.payload_size = payload.size;
    request.argc = payload.argc;
    request.envc = payload.envc;
    request.spawn_time_slot = (int32_t)payload.envc - 1;
    request.flags = LP_SPAWN_FLAG_QUIET;
    request.fd_count = 4;
    int32_t targets[4] = {0, 1, 2, 3};
    memcpy(request.fd_targets, targets, sizeof targets);
    struct lp_spawn_request finish = {.magic = LP_SPAWN_MAGIC, .kind = LP_SPAWN_REQUEST_FINISH};
    for (long i = 0; i < warmup + runs; i++) {
        // What launchprof opens for each run: /dev/null in and out, and a
        // record socket.
        int input = open("/dev/null", O_RDONLY | O_CLOEXEC);
        int output = open("/dev/null", O_WRONLY | O_CLOEXEC);
        int record[2];
        if (input < 0 || output < 0 || lp_record_socket(record) != 0) die("the run's descriptors");
        int fds[4] = {input, output, output, record[1]};
        if (lp_spawn_send(control, &request, payload.bytes, payload.size, fds, 4) != 0) die("spawn request");
        close(input);
        close(output);
        close(record[1]);
        unsigned long long t0 = 0, exited = 0;
        for (;;) {
            struct lp_spawn_reply reply = receive(control);
            if (reply.kind == LP_SPAWN_REPLY_FAILED || reply.kind == LP_SPAWN_REPLY_PROTOCOL_ERROR) {
                fprintf(stderr, "spawn-floor: the spawner refused: %s\n", reply.message);
                return 1;
            }
            if (reply.kind == LP_SPAWN_REPLY_SPAWNED) t0 = reply.nanoseconds;
            if (reply.kind == LP_SPAWN_REPLY_EXITED) {
                exited = reply.nanoseconds;
                break;
            }
        }
        if (lp_spawn_send(control, &finish, NULL, 0, NULL, 0) != 0) die("finish request");
        while (receive(control).kind != LP_SPAWN_REPLY_FINISHED) {
        }
        close(record[0]);
        if (i >= warmup) fprintf(out, "%llu\n", exited - t0);
    }
    free(payload.bytes);
    close(control);
    // At end of file the spawner cleans up and exits.
    int status;
    while (wait(&status) > 0) {
    }
    return fclose(out) == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc >= 6 && strcmp(argv[1], "floor") == 0)
        return floor_runs(argv[2], count_argument(argv[3], "RUNS"), count_argument(argv[4], "WARMUP"), argv + 5);
    if (argc >= 7 && strcmp(argv[1], "spawner") == 0)
        return spawner_runs(argv[2], argv[3], count_argument(argv[4], "RUNS"), count_argument(argv[5], "WARMUP"), argv + 6,
                            argc - 6);
    fprintf(stderr, "usage: spawn-floor floor OUT RUNS WARMUP PROGRAM [ARGUMENT...]\n"
                    "       spawn-floor spawner LP_SPAWN OUT RUNS WARMUP PROGRAM [ARGUMENT...]\n");
    return 2;
}
