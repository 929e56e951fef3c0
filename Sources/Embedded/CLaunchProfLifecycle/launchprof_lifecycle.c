// launchprof_lifecycle.c — signal handlers and kernel interfaces of the
// process lifecycle. Only what must be async-signal-safe, or what Swift
// cannot express (raising a stop on itself, NUL-terminated PSI writes).
#define _GNU_SOURCE
#include "launchprof_lifecycle.h"
#include "launchprof_support.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/timerfd.h>
#include <termios.h>
#include <unistd.h>

#define LP_SIGNAL_SLOTS 65

static int pipe_read = -1;
static int pipe_write = -1;
static int installed;  // atomic: 0 no, 1 installing, 2 done
static int terminating;  // atomic
static uint64_t signal_ns[LP_SIGNAL_SLOTS];     // atomic per slot
static uint64_t signal_counts[LP_SIGNAL_SLOTS]; // atomic per slot
static struct sigaction handler_action;

static const int handled_signals[] = {SIGTSTP, SIGCONT, SIGTERM, SIGINT, SIGHUP};

// MARK: - The handler (async-signal-safe: atomics, write, sigaction, raise)

static void write_byte(uint8_t byte) {
    if (pipe_write < 0) return;
    ssize_t n;
    do {
        n = write(pipe_write, &byte, 1);
    } while (n < 0 && errno == EINTR);
    // EAGAIN: the pipe holds 64 KiB of unread signals; the lifecycle thread
    // will still wake for the ones already there. Nothing else to do here.
}

static void on_signal(int signo) {
    int saved = errno;
    if (signo > 0 && signo < LP_SIGNAL_SLOTS) {
        __atomic_store_n(&signal_ns[signo], lp_now_ns(), __ATOMIC_RELAXED);
        __atomic_fetch_add(&signal_counts[signo], 1, __ATOMIC_RELEASE);
    }
    if (signo == SIGINT || signo == SIGTERM) {
        int was = __atomic_exchange_n(&terminating, 1, __ATOMIC_ACQ_REL);
        if (was && signo == SIGINT) {
            // A second interrupt: the user wants out now.
            lp_lifecycle_exit_by_signal(SIGINT);
        }
    }
    write_byte((uint8_t)signo);
    errno = saved;
}

// MARK: - Install

int lp_lifecycle_install(void) {
    int expected = 0;
    if (!__atomic_compare_exchange_n(&installed, &expected, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        // Another thread installs or installed: wait for it to finish.
        while (__atomic_load_n(&installed, __ATOMIC_ACQUIRE) == 1) usleep(100);
        return pipe_read;
    }
    int ends[2];
    if (pipe2(ends, O_NONBLOCK | O_CLOEXEC) != 0) {
        int saved = errno;
        __atomic_store_n(&installed, 0, __ATOMIC_RELEASE);
        errno = saved;
        return -1;
    }
    pipe_read = ends[0];
    pipe_write = ends[1];
    memset(&handler_action, 0, sizeof handler_action);
    handler_action.sa_handler = on_signal;
    handler_action.sa_flags = SA_RESTART;
    sigemptyset(&handler_action.sa_mask);
    for (size_t i = 0; i < sizeof handled_signals / sizeof handled_signals[0]; i++) {
        sigaction(handled_signals[i], &handler_action, NULL);
    }
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGTTIN, &ignore, NULL);
    sigaction(SIGTTOU, &ignore, NULL);
    __atomic_store_n(&installed, 2, __ATOMIC_RELEASE);
    return pipe_read;
}

void lp_lifecycle_restore_defaults(void) {
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (size_t i = 0; i < sizeof handled_signals / sizeof handled_signals[0]; i++) {
        sigaction(handled_signals[i], &dfl, NULL);
    }
    sigaction(SIGTTIN, &dfl, NULL);
    sigaction(SIGTTOU, &dfl, NULL);
}

int lp_lifecycle_post(uint8_t command) {
    if (__atomic_load_n(&installed, __ATOMIC_ACQUIRE) != 2) return -1;
    write_byte(command);
    return 0;
}

uint64_t lp_lifecycle_signal_ns(int signo) {
    if (signo <= 0 || signo >= LP_SIGNAL_SLOTS) return 0;
    return __atomic_load_n(&signal_ns[signo], __ATOMIC_RELAXED);
}

uint64_t lp_lifecycle_signal_count(int signo) {
    if (signo <= 0 || signo >= LP_SIGNAL_SLOTS) return 0;
    return __atomic_load_n(&signal_counts[signo], __ATOMIC_ACQUIRE);
}

void lp_lifecycle_set_terminating(void) { __atomic_store_n(&terminating, 1, __ATOMIC_RELEASE); }

int lp_lifecycle_is_terminating(void) { return __atomic_load_n(&terminating, __ATOMIC_ACQUIRE); }

// MARK: - Stopping and exiting by default actions

static void set_default_and_unblock(int signo) {
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(signo, &dfl, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signo);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

void lp_lifecycle_stop_self(void) {
    set_default_and_unblock(SIGTSTP);
    // raise() signals this thread: the stop takes effect before it returns,
    // and the thread resumes here when SIGCONT arrives.
    raise(SIGTSTP);
    sigaction(SIGTSTP, &handler_action, NULL);
}

/// Reads "pid (comm) state ppid pgrp session" from /proc/PID/stat.
static int read_stat(const char *pid, long *ppid, long *pgrp, long *session) {
    char path[64], text[512];
    snprintf(path, sizeof path, "/proc/%s/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t count = read(fd, text, sizeof text - 1);
    close(fd);
    if (count <= 0) return 0;
    text[count] = 0;
    // The command name may hold spaces and parentheses: the last ')' ends it.
    char *close_paren = strrchr(text, ')');
    if (close_paren == NULL) return 0;
    char state;
    return sscanf(close_paren + 1, " %c %ld %ld %ld", &state, ppid, pgrp, session) == 4;
}

int lp_lifecycle_group_orphaned(void) {
    // POSIX: a group is orphaned when no member has a parent in the same
    // session but another group — nobody left to continue it, so the kernel
    // discards SIGTSTP, SIGTTIN and SIGTTOU sent to it.
    long own_group = (long)getpgrp(), own_session = (long)getsid(0);
    DIR *processes = opendir("/proc");
    if (processes == NULL) return -1;
    int orphaned = 1;
    struct dirent *entry;
    while (orphaned && (entry = readdir(processes)) != NULL) {
        if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
        long ppid, group, session;
        if (!read_stat(entry->d_name, &ppid, &group, &session) || group != own_group) continue;
        char parent[24];
        snprintf(parent, sizeof parent, "%ld", ppid);
        long parent_ppid, parent_group, parent_session;
        if (ppid > 0 && read_stat(parent, &parent_ppid, &parent_group, &parent_session) &&
            parent_group != own_group && parent_session == own_session)
            orphaned = 0;
    }
    closedir(processes);
    return orphaned;
}

void lp_lifecycle_exit_by_signal(int signo) {
    set_default_and_unblock(signo);
    raise(signo);
    _exit(128 + signo);
}

// MARK: - Kernel notifications

int lp_psi_trigger_open(const char *path, const char *trigger) {
    int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -1;
    // The kernel overwrites the last byte written with a NUL: include ours.
    size_t len = strlen(trigger) + 1;
    ssize_t n;
    do {
        n = write(fd, trigger, len);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

static int arm_clock_change(int fd) {
    struct itimerspec spec;
    memset(&spec, 0, sizeof spec);
    // Far in the future: the timer never expires, it is only cancelled.
    spec.it_value.tv_sec = (time_t)INT64_MAX;
    return timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &spec, NULL);
}

int lp_clock_change_open(void) {
    int fd = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC);
    if (fd < 0) return -1;
    if (arm_clock_change(fd) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int lp_clock_change_check(int fd) {
    uint64_t expirations;
    ssize_t n;
    do {
        n = read(fd, &expirations, sizeof expirations);
    } while (n < 0 && errno == EINTR);
    if (n >= 0) return 0;  // expired: cannot happen before the far future
    if (errno == EAGAIN) return 0;
    if (errno != ECANCELED) return -1;
    return arm_clock_change(fd) == 0 ? 1 : -1;
}

int64_t lp_realtime_offset_ns(void) {
    struct timespec real;
    clock_gettime(CLOCK_REALTIME, &real);
    uint64_t mono = lp_now_ns();
    int64_t real_ns = (int64_t)real.tv_sec * INT64_C(1000000000) + real.tv_nsec;
    return real_ns - (int64_t)mono;
}

int lp_terminal_state(void) {
    int fd = open("/dev/tty", O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return 0;  // ENXIO: no controlling terminal
    pid_t foreground = tcgetpgrp(fd);
    close(fd);
    if (foreground < 0) return 0;
    return foreground == getpgrp() ? 1 : 2;
}

uint64_t lp_thread_run_delay_ns(void) {
    int fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char buf[96];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return 0;
    buf[n] = '\0';
    // "<cpu ns> <run delay ns> <timeslices>"
    const char *p = buf;
    while (*p && *p != ' ') p++;
    if (*p != ' ') return 0;
    p++;
    uint64_t value = 0;
    for (; *p >= '0' && *p <= '9'; p++) value = value * 10 + (uint64_t)(*p - '0');
    return value;
}

// MARK: - Open file description locks

static int ofd_lock(int fd, int command, short type, int64_t offset) {
    struct flock lock;
    memset(&lock, 0, sizeof lock);
    lock.l_type = type;
    lock.l_whence = SEEK_SET;
    lock.l_start = (off_t)offset;
    lock.l_len = 1;
    lock.l_pid = 0;  // F_OFD_* require 0
    int result;
    do {
        result = fcntl(fd, command, &lock);
    } while (result < 0 && errno == EINTR);
    if (result < 0) return -1;
    if (command == F_OFD_GETLK) return lock.l_type == F_UNLCK ? 0 : 1;
    return 0;
}

int lp_ofd_lock_byte(int fd, int64_t offset) { return ofd_lock(fd, F_OFD_SETLK, F_WRLCK, offset); }

int lp_ofd_unlock_byte(int fd, int64_t offset) { return ofd_lock(fd, F_OFD_SETLK, F_UNLCK, offset); }

int lp_ofd_byte_locked(int fd, int64_t offset) { return ofd_lock(fd, F_OFD_GETLK, F_WRLCK, offset); }
