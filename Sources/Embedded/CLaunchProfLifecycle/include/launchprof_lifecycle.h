// launchprof_lifecycle.h — the async-signal-safe half of LaunchProf's
// process lifecycle (Swift's `Lifecycle` is the other half).
//
// Signal handlers do one thing: note the arrival time and write one byte
// (the signal number) to a self-pipe. The lifecycle thread reads the pipe and
// runs everything else on a normal thread. signalfd is not used: it needs the
// signals blocked in every thread, and a library cannot make threads it did
// not create block them.
//
// Nothing here runs at load time: `lp_lifecycle_install` is called by
// `Lifecycle.start()`. A separate target from CLaunchProfSupport so that a
// program that does not use the lifecycle does not link (and the loader
// does not bind) any of this.
#ifndef LAUNCHPROF_LIFECYCLE_H
#define LAUNCHPROF_LIFECYCLE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Bytes on the self-pipe above this value are commands posted by the
/// program (`lp_lifecycle_post`), not signal numbers.
enum {
    LP_LIFECYCLE_COMMAND_BASE = 0x80,
    LP_LIFECYCLE_COMMAND_LAUNCH_COMPLETE = 0x81,
    LP_LIFECYCLE_COMMAND_WAKE = 0x82,
};

/// Installs handlers for SIGTSTP, SIGCONT, SIGTERM, SIGINT and SIGHUP, and
/// ignores SIGTTIN and SIGTTOU (a handler would make the kernel restart the
/// terminal read or write and signal again, forever). Returns the pipe's
/// read end (O_NONBLOCK | O_CLOEXEC), or -1 with errno set. Installs once;
/// later calls return the same descriptor.
int lp_lifecycle_install(void);

/// Puts the default actions back (when the lifecycle thread could not be
/// started, so that SIGTERM still ends the process).
void lp_lifecycle_restore_defaults(void);

/// Writes a command byte (LP_LIFECYCLE_COMMAND_*) to the pipe, from any
/// thread or signal handler. Returns 0, or -1 before install.
int lp_lifecycle_post(uint8_t command);

/// CLOCK_MONOTONIC ns of the latest arrival of `signo` (0: never seen).
uint64_t lp_lifecycle_signal_ns(int signo);

/// How many times `signo` arrived since install.
uint64_t lp_lifecycle_signal_count(int signo);

/// Marks the process as terminating: from now on SIGINT ends it at once
/// (default action), without waiting for will-terminate handlers.
void lp_lifecycle_set_terminating(void);

/// Whether termination has begun (a first SIGTERM, SIGINT or hangup).
int lp_lifecycle_is_terminating(void);

/// Stops the process as SIGTSTP's default action would (the handler is set
/// to SIG_DFL, the signal raised, the handler put back), and returns once
/// the process was continued — or at once when the kernel discarded the stop
/// (an orphaned process group).
void lp_lifecycle_stop_self(void);
/// 1 when this process's group is orphaned (the kernel would discard a
/// SIGTSTP: no member has a parent in the same session but another group,
/// as for a service started with setsid), 0 when not, -1 when /proc cannot
/// tell.
int lp_lifecycle_group_orphaned(void);

/// Ends the process by `signo`'s default action (handler reset, signal
/// unblocked and raised), so the parent sees "killed by signal"; falls back
/// to _exit(128 + signo).
void lp_lifecycle_exit_by_signal(int signo) __attribute__((noreturn));

/// Opens a PSI trigger: `path` (e.g. /proc/pressure/memory) opened
/// read-write, `trigger` (e.g. "some 150000 2000000") written with its NUL,
/// as the kernel expects. Returns the descriptor to poll for POLLPRI, or -1
/// with errno set (EINVAL: a window the kernel refuses, ENOENT: no PSI).
int lp_psi_trigger_open(const char *path, const char *trigger);

/// A CLOCK_REALTIME timerfd armed far in the future with
/// TFD_TIMER_CANCEL_ON_SET: it becomes readable when the wall clock is set.
/// Returns the descriptor, or -1 with errno set.
int lp_clock_change_open(void);

/// Reads the clock-change timerfd: 1 when the wall clock was set (the timer
/// is re-armed), 0 when nothing happened, -1 with errno on failure.
int lp_clock_change_check(int fd);

/// CLOCK_REALTIME minus CLOCK_MONOTONIC, in ns (how a clock jump is sized).
int64_t lp_realtime_offset_ns(void);

/// The controlling terminal as this process sees it now: 0 none, 1 this
/// process group is its foreground group, 2 another group is (background).
int lp_terminal_state(void);

/// The calling thread's time spent waiting on a run queue, in ns, from
/// /proc/thread-self/schedstat; 0 when unavailable.
uint64_t lp_thread_run_delay_ns(void);

// MARK: - Locks between processes (open file description locks)

/// Takes a write lock on byte `offset` of `fd` (opened for writing) with an
/// open file description lock (F_OFD_SETLK): owned by the open file
/// description, not the process, so two descriptions in one process
/// exclude each other too, closing another descriptor of the file does not
/// drop it, and the kernel releases it when the last descriptor of the
/// description is closed — when the holder exits or is killed. Never
/// waits. Returns 0, or -1 with errno (EAGAIN or EACCES: held elsewhere).
int lp_ofd_lock_byte(int fd, int64_t offset);

/// Releases the lock `lp_ofd_lock_byte` took on byte `offset`. Returns 0 or -1.
int lp_ofd_unlock_byte(int fd, int64_t offset);

/// 1 when another open file description holds a lock on byte `offset` of
/// `fd`, 0 when none does, -1 with errno (F_OFD_GETLK).
int lp_ofd_byte_locked(int fd, int64_t offset);

#ifdef __cplusplus
}
#endif

#endif
