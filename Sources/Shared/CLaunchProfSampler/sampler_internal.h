// sampler_internal.h — state shared by the sampler's C files (not public).
#ifndef LAUNCHPROF_SAMPLER_INTERNAL_H
#define LAUNCHPROF_SAMPLER_INTERNAL_H

#include "launchprof_sampler.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>


/// One thread the sampler knows: a slot of a lock-free open-addressing
/// table keyed by tid, shared by the helper's scans and the preload
/// library's pthread_create hook. Slots are claimed by CAS on `tid` and
/// never freed (a reused tid finds its old slot and is armed again).
typedef struct lp_sampled_thread {
    int32_t tid;         ///< atomic: 0 = free slot
    int32_t state;       ///< atomic: LP_THREAD_*
    int32_t seen;        ///< Found by the latest scan (helper only).
    int32_t event;       ///< Its perf event's descriptor + 1, or 0 (a POSIX timer: `timer`).
    timer_t timer;
    char name[16];
} lp_sampled_thread_t;

enum {
    LP_THREAD_IDLE = 0,     ///< No timer (not yet armed, or its thread exited).
    LP_THREAD_BUSY = 1,     ///< Someone is arming or disarming it.
    LP_THREAD_ARMED = 2,    ///< A timer is set.
};


typedef struct lp_sampler {
    uint32_t hz, max_depth, timer_mode, flags;
    sigset_t prof_only;              ///< SIGPROF alone: an ending thread and lp_sampler_stop block it
    int started, stopped;            ///< atomic
    int active;                      ///< atomic: handlers record while set
    int inflight;                    ///< atomic: handlers running now
    int forked_child;
    int thread_hook;                 ///< atomic: a pthread_create hook registered
    int use_events;                  ///< atomic: arm perf events (sampler_events.c), else POSIX timers
    int wall_clock;                  ///< Timers on CLOCK_MONOTONIC: every thread, running or not
    int events_user_only;            ///< atomic: events may count user time only
    uint64_t sampled_cpu_ns;         ///< atomic: CPU time the closed events counted
    uint64_t start_ns, stop_ns;
    uint8_t *buffer;
    uint64_t capacity;
    uint64_t used;                   ///< atomic: bytes reserved
    uint64_t samples, lost, failed, handler_ns;  ///< atomic
    int (*backtrace)(void **, int);
    /// Walks the stack of a signal's ucontext, its PC first (sampler_unwind.c), or NULL: unw_backtrace.
    int (*unwind_context)(void *context, void **frames, int capacity);
    lp_sampled_thread_t *threads;    ///< LP_SAMPLER_MAX_THREADS slots
    uint32_t thread_count;           ///< atomic: slots claimed
    uint32_t main_tid;
    pthread_t helper;
    int helper_running;
    int wake_fd;
    lp_module_t *modules;
    uint32_t module_count;
    int modules_final;               ///< The map was taken after sampling stopped.
    const char *error;
    pthread_mutex_t *loader_locks[2];  ///< glibc's dl_load_write_lock, dl_load_tls_lock
} lp_sampler_t;

/// Samples section flags.
enum {
    LP_SAMPLER_MAIN_THREAD_ONLY = 1,  ///< libunwind was not loaded at start-up.
    LP_SAMPLER_LOADER_UNGUARDED = 2,  ///< The loader's locks were not found.
    LP_SAMPLER_THREADS_HOOKED = 4,    ///< New threads armed as they start (a registered pthread_create hook).
    // 8: LP_SAMPLER_FLAG_KERNEL_UNSAMPLED (launchprof_sampler.h).
};

extern lp_sampler_t lp_sampler_state;

uint64_t lp_sampler_now(void);
uint32_t lp_sampler_gettid(void);

/// The slot of `tid`, claimed if new; NULL when the table is full.
lp_sampled_thread_t *lp_sampler_thread(int32_t tid);
/// Arms a CPU-time timer for the slot's thread unless one is set (or being
/// set); 0 when armed by this call or before, -errno on failure.
int lp_sampler_arm(lp_sampled_thread_t *thread);
/// Deletes the slot's timer, if set, keeping `final_name` (16 bytes, or
/// NULL) as the thread's name.
void lp_sampler_disarm(lp_sampled_thread_t *thread, const char *final_name);
/// A task-clock perf event on `tid` that sends it SIGPROF every `period_ns`
/// of its CPU time: its descriptor, or -errno (sampler_events.c).
int lp_sampler_open_event(int32_t tid, uint64_t period_ns);
/// Adds the CPU time the event counted to `sampled_cpu_ns` and closes it.
void lp_sampler_close_event(int fd);
/// In the handler of a signal from the calling thread's event `fd`: the
/// periods its count has passed since the thread's previous such signal (at
/// least 1). Async-signal-safe (one read).
uint32_t lp_sampler_event_periods(int fd, uint64_t period_ns);
/// Starts the helper thread that arms threads created later.
int lp_sampler_start_helper(void);
/// Stops the helper thread (it deletes every timer) and waits for it.
void lp_sampler_stop_helper(void);
/// One pass over /proc/self/task on the calling thread: arms every thread
/// that runs now (threads that existed before a pthread_create hook).
void lp_sampler_scan_once(void);
/// The registered pthread_create hook's calls (lp_sampler_thread_hook_t),
/// on a new thread before its code runs: arms the thread's timer if sampling
/// is on; the slot (or NULL) goes to lp_sampler_thread_ending when the thread
/// ends.
void *lp_sampler_thread_began(void);
void lp_sampler_thread_ending(void *slot);
/// Wall clock: the sample flags (LP_SAMPLE_OFF_CPU, with
/// LP_SAMPLE_RUNNABLE) of a sample of `weight` periods taken now on the
/// calling thread `tid`, in the handler; 0 for the CPU clock (sampler_wall.c).
uint16_t lp_sampler_wall_state(uint32_t weight, uint32_t tid);
/// Starts the calling thread's wall-clock on/off-CPU accounting from its
/// CPU time and run-queue wait now (sampler_wall.c).
void lp_sampler_thread_cpu_reset(void);
/// Closes the calling thread's schedstat file, if the wall clock opened one.
void lp_sampler_thread_wall_release(void);
/// Whether the calling thread is in the SIGPROF handler, inside libunwind.
int lp_sampler_unwinding(void);
/// Set while the calling thread runs the sampler's own code that a sample
/// must not show: the thread hooks' arming and disarming (never cleared at
/// the end: the thread ends) and lp_sampler_stop. The handler records
/// nothing while it is set.
extern __thread int lp_sampler_own_code __attribute__((tls_model("initial-exec")));
/// Reads /proc/self/task/<tid>/comm into `name`.
void lp_sampler_read_comm(uint32_t tid, char name[16]);

/// Finds glibc's loader locks (sampler_loader.c); leaves them NULL if unsure.
void lp_sampler_find_loader_locks(void);
/// Whether a loader lock is taken: unwinding now could deadlock.
int lp_sampler_loader_busy(void);


/// Snapshots the loaded modules into lp_sampler_state.modules.
void lp_sampler_snapshot_modules(void);
/// The lock of everything but the handler: stop, the module map, encoding.
/// Recursive (encoding may take the module map). Never taken in a handler.
void lp_sampler_lock(void);
void lp_sampler_unlock(void);

/// Sets lp_sampler_state.backtrace (`backtrace` when the starter passed it,
/// else libunwind's, loaded already — `*preloaded` = 1 — or dlopen'ed) and,
/// where libunwind's cursor functions are found, unwind_context
/// (sampler_unwind.c).
void lp_sampler_find_unwinder(int (*backtrace)(void **, int), int *preloaded);
/// Runs libunwind once on the calling thread, outside signal context, the
/// way unwind_context will (its set-up, lazy binding, caches).
void lp_sampler_warm_unwinder(void);

#endif
