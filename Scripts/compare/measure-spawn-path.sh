#!/usr/bin/env bash
# What each part of lp-spawn's spawn path costs, against a bare posix_spawn
# + wait4 (hyperfine -N's path): a C program starts and reaps PROGRAM ROUNDS
# times per variant, the variants interleaved run by run, and prints each
# variant's median and its difference from the bare path. The variants are
# what lp-spawn adds: launchprof's variables in the environment, the record
# socket as descriptor 3, the child's own process group and signal mask,
# and the wake-up by SIGCHLD through signalfd + poll before wait4, or by
# the child's pidfd (pidfd_open, poll, waitid P_PIDFD) instead, and what
# lp-spawn reads of a zombie before it reaps it (/proc/PID/comm and stat:
# after the exit time stamp, so in no interval; its cost is shown alone),
# and lp-spawn's own vfork child in place of glibc's posix_spawn.
#   Scripts/compare/measure-spawn-path.sh [ROUNDS] [PROGRAM]     (default 2000 /bin/true)
set -euo pipefail
rounds=${1:-2000}
program=${2:-/bin/true}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/spawnpath.c" <<'C'
// What each part of lp-spawn's spawn path costs: /bin/true started and
// reaped ROUNDS times per variant, the variants interleaved run by run.
#define _GNU_SOURCE
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;
#ifndef P_PIDFD
#define P_PIDFD 3
#endif
enum { BARE, ENVIRONMENT, DESCRIPTOR, GROUP_MASK, SIGNALFD_WAKE, PIDFD_WAKE, ALL, ALL_PIDFD, ALL_VFORK, VARIANTS };
static const char *names[] = {
    "posix_spawn + wait4 (hyperfine -N's path)", "+ launchprof's 3 variables in the environment",
    "+ the record socket as descriptor 3", "+ own process group and signal mask (spawn attributes)",
    "+ woken by SIGCHLD through signalfd + poll, then wait4", "+ woken by its pidfd in poll, then waitid P_PIDFD",
    "all of them (lp-spawn's path before: posix_spawn)", "all, woken by the pidfd instead",
    "all, its own vfork child, not posix_spawn (lp-spawn now)"};

/// lp-spawn's child (Sources/Benchmark/LaunchProfSpawner/main.c, spawn_child):
/// vfork, then only what posix_spawn's attributes above ask for.
static pid_t spawn_vfork(const char *program, char **argv, char **envp, int record, const sigset_t *empty) {
    volatile int failure = 0;
    pid_t pid = vfork();
    if (pid == 0) {
        if (dup2(record, 3) < 0 || setpgid(0, 0) != 0) failure = 1;
        sigprocmask(SIG_SETMASK, empty, NULL);
        if (!failure) execve(program, argv, envp);
        failure = 1;
        _exit(127);
    }
    return failure ? -1 : pid;
}

/// What lp-spawn reads of a zombie before reaping it: /proc/PID/comm and
/// /proc/PID/stat (the CPU field) before, only stat (both in it) now.
static void read_proc(pid_t pid, int files_count) {
    char path[64], text[1024];
    const char *files[] = {"stat", "comm"};
    for (int i = 0; i < files_count; i++) {
        snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, files[i]);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        if (read(fd, text, sizeof text) < 0) text[0] = 0;
        close(fd);
    }
}

static unsigned long long now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec;
}
static int compare(const void *a, const void *b) {
    unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 1000;
    const char *program = argc > 2 ? argv[2] : "/bin/true";
    size_t count = 0;
    while (environ[count]) count++;
    char **extended = calloc(count + 4, sizeof(char *));
    memcpy(extended, environ, count * sizeof(char *));
    extended[count] = "LAUNCHPROF_RECORD_FD=3";
    extended[count + 1] = "LAUNCHPROF_READY_FD=3";
    extended[count + 2] = "LAUNCHPROF_SPAWN_NS=00000000000000000000";
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, NULL);
    int wake = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
    int pair[2];
    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair);
    unsigned long long *times = calloc((size_t)rounds * VARIANTS, sizeof *times);
    unsigned long long *proc_times = calloc((size_t)rounds, sizeof *proc_times);
    unsigned long long *stat_times = calloc((size_t)rounds, sizeof *stat_times);
    char *child_argv[] = {(char *)program, NULL};
    for (int round = 0; round < rounds; round++) {
        for (int v = 0; v < VARIANTS; v++) {
            posix_spawn_file_actions_t actions;
            posix_spawnattr_t attributes;
            posix_spawn_file_actions_init(&actions);
            posix_spawnattr_init(&attributes);
            int all = v == ALL || v == ALL_PIDFD || v == ALL_VFORK;
            int fd = v == DESCRIPTOR || all;
            int attrs = v == GROUP_MASK || all;
            if (fd) posix_spawn_file_actions_adddup2(&actions, pair[1], 3);
            sigset_t empty;
            sigemptyset(&empty);
            // The parent blocks SIGCHLD (for signalfd); hyperfine's child starts with it unblocked too.
            posix_spawnattr_setsigmask(&attributes, &empty);
            short flags = POSIX_SPAWN_SETSIGMASK;
            if (attrs) {
                posix_spawnattr_setpgroup(&attributes, 0);
                flags |= POSIX_SPAWN_SETPGROUP;
            }
            posix_spawnattr_setflags(&attributes, flags);
            char **envp = v == ENVIRONMENT || all ? extended : environ;
            pid_t pid;
            // SIGCHLD of the other variants' children is still queued: drained before the start.
            struct signalfd_siginfo stale[4];
            while (read(wake, stale, sizeof stale) > 0) {
            }
            unsigned long long start = now();
            if (v == ALL_VFORK) {
                if ((pid = spawn_vfork(program, child_argv, envp, pair[1], &empty)) < 0) return 1;
            } else if (posix_spawn(&pid, program, &actions, &attributes, child_argv, envp) != 0) {
                return 1;
            }
            unsigned long long end = 0;
            if (v == SIGNALFD_WAKE || v == ALL || v == ALL_VFORK) {
                struct pollfd p = {.fd = wake, .events = POLLIN};
                poll(&p, 1, -1);
                end = now();  // lp-spawn's exit time: as poll returns
                struct signalfd_siginfo drained[4];
                while (read(wake, drained, sizeof drained) > 0) {
                }
            }
            if (v == PIDFD_WAKE || v == ALL_PIDFD) {
                int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
                struct pollfd p = {.fd = pidfd, .events = POLLIN};
                poll(&p, 1, -1);
                end = now();
                siginfo_t info;
                waitid((idtype_t)P_PIDFD, (id_t)pidfd, &info, WEXITED | WNOWAIT);
                close(pidfd);
            }
            if (all) {
                // Both ways in turn, by variant: comm and stat, then stat alone.
                int files_count = v == ALL_VFORK ? 1 : 2;
                unsigned long long before = now();
                read_proc(pid, files_count);
                (files_count == 2 ? proc_times : stat_times)[round] = now() - before;
            }
            int status;
            wait4(pid, &status, 0, NULL);
            times[(size_t)v * rounds + round] = (end ? end : now()) - start;
            posix_spawn_file_actions_destroy(&actions);
            posix_spawnattr_destroy(&attributes);
        }
    }
    unsigned long long base = 0;
    for (int v = 0; v < VARIANTS; v++) {
        qsort(times + (size_t)v * rounds, (size_t)rounds, sizeof *times, compare);
        unsigned long long median = times[(size_t)v * rounds + rounds / 2];
        if (v == BARE) base = median;
        printf("%-58s median %7.1f µs  (%+6.1f µs)\n", names[v], median / 1e3, ((double)median - (double)base) / 1e3);
    }
    qsort(proc_times, (size_t)rounds, sizeof *proc_times, compare);
    qsort(stat_times, (size_t)rounds, sizeof *stat_times, compare);
    printf("%-58s median %7.1f µs  (after the exit time, before the reap)\n", "reading /proc/PID/comm and stat of the zombie (before)",
           proc_times[rounds / 2] / 1e3);
    printf("%-58s median %7.1f µs  (after the exit time, before the reap)\n", "reading /proc/PID/stat alone (lp-spawn now, launched one)",
           stat_times[rounds / 2] / 1e3);
    return 0;
}
C
cc -O2 -o "$work/spawnpath" "$work/spawnpath.c"
"$work/spawnpath" "$rounds" "$program"
