// launchprof_sampler.h — the launch-window sampling profiler (docs/sampling.md).
//
// When LAUNCHPROF_SAMPLE_HZ is set, a constructor starts sampling at process
// entry: each thread gets a task-clock perf event that signals it every period
// of its CPU time (or, where perf events are not allowed, a timer on its own
// CPU-time clock: timer_create with SIGEV_THREAD_ID), whose SIGPROF handler captures the stack with libunwind
// into a preallocated buffer (no malloc, no locks). New threads are armed by a
// pthread_create hook that registered itself (lp_sampler_register_thread_hook)
// or, without one, by a helper thread. Sampling stops at launch complete
// (lp_sampler_stop) or at exit.
//
// One target, two starters: LaunchProf's constructor (CLaunchProfSupport,
// sampler_entry.c) and liblaunchprof-preload.so (Sources/Benchmark/CLaunchProfPreload,
// built by Plugins/PreloadLibrary from this target's own file list), which
// writes a whole trace file itself at exit (lp_sampler_write_trace). The
// sampler calls neither of them.
//
// Trace sections written here (docs/trace-format.md): 5 samples, 6 modules.
#ifndef LAUNCHPROF_SAMPLER_H
#define LAUNCHPROF_SAMPLER_H

#include <stddef.h>
#include "launchprof_format.h"
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Section tags and timer modes: launchprof_format.h.

/// Sample record flags.
enum {
    LP_SAMPLE_TRUNCATED = 1,      ///< The stack was deeper than the maximum depth.
    LP_SAMPLE_UNWIND_FAILED = 2,  ///< libunwind failed: only the interrupted PC.
    LP_SAMPLE_LOADER_BUSY = 4,    ///< A loader lock was taken: only the interrupted PC.
    LP_SAMPLE_OFF_CPU = 8,        ///< Wall clock: the thread used under half the period's CPU (it waited).
    /// Wall clock, with LP_SAMPLE_OFF_CPU: most of the time the thread did not
    /// run it was runnable, waiting for a CPU (schedstat's run-queue time).
    LP_SAMPLE_RUNNABLE = 16,
    /// Kernel sampling: the thread was in the kernel (a system call, a page
    /// fault); the frames are the user stack it entered the kernel from.
    LP_SAMPLE_IN_KERNEL = 32,
    /// Task-clock event: the thread's event counted more than one period
    /// since its previous signal (the kernel merged a signal that came while
    /// one was pending, or its timer skipped periods it was late for). The
    /// sample's weight is every period counted since: one for its stack, the
    /// rest taken by no stack.
    LP_SAMPLE_MERGED = 64,
};

/// Samples section flag of kernel sampling (CLaunchProfPerf) in user space
/// only (perf_event_paranoid 2): time in the kernel was not sampled. The
/// in-process sampler's flags are the enum above.
#define LP_SAMPLER_FLAG_KERNEL_UNSAMPLED 8u

#define LP_SAMPLER_DEFAULT_HZ 1000
#define LP_SAMPLER_DEFAULT_DEPTH 128
#define LP_SAMPLER_MAX_DEPTH 1024
#define LP_SAMPLER_MAX_THREADS 4096

/// Counters of the sampler, read atomically.
typedef struct lp_sampler_stats {
    uint64_t samples;       ///< Samples recorded.
    uint64_t lost;          ///< Samples not recorded: the buffer was full.
    uint64_t failed;        ///< Samples whose stack libunwind could not walk.
    uint64_t threads;       ///< Threads whose timer was armed.
    uint64_t handler_ns;    ///< Time spent unwinding, all samples.
    uint32_t hz;
    uint32_t timer_mode;    ///< LP_SAMPLER_TIMER_*.
    int running;
} lp_sampler_stats_t;

/// How to sample; zero fields take their defaults.
typedef struct lp_sampler_options {
    uint32_t hz;                ///< Samples per CPU-second of each thread (1-100000).
    uint32_t max_depth;         ///< Frames per stack (default 128, at most 1024).
    uint32_t buffer_megabytes;  ///< The sample buffer (default 32; mapped, touched as filled).
    /// POSIX CPU-time timers even where perf events are allowed
    /// (LAUNCHPROF_SAMPLE_TIMER=posix): checked at the scheduler tick only.
    uint32_t posix_timers;
    /// Sample every thread on the wall clock, running or waiting
    /// (LAUNCHPROF_SAMPLE_CLOCK=wall), marking each sample on or off CPU.
    uint32_t wall_clock;
    uint32_t reserved;
    /// libunwind's unw_backtrace when the caller links libunwind (so it was
    /// loaded at start-up and its thread-local data is static TLS); NULL to
    /// find it (already loaded, or dlopen'ed: then only the main thread).
    int (*backtrace)(void **frames, int capacity);
} lp_sampler_options_t;

/// Whether this process should be sampled, read from LAUNCHPROF_SAMPLE_HZ,
/// _DEPTH, _BUFFER_MB, _TIMER, _CLOCK and _PID through `env` (each starter reads its own
/// environment): 1 with `options` filled, 0 when not asked for, asked for by
/// another process (LAUNCHPROF_SAMPLE_PID), or asked for badly (said on
/// standard error).
int lp_sampler_requested(const char *(*env)(const char *name), lp_sampler_options_t *options);

/// Starts sampling every thread at `hz` samples per CPU-second with stacks
/// of at most `max_depth` frames. Returns 0 when started, -1 with a reason in
/// `lp_sampler_error()` otherwise (also when already started once).
int lp_sampler_start(uint32_t hz, uint32_t max_depth);
int lp_sampler_start_with(const lp_sampler_options_t *options);

/// What a pthread_create hook calls: `began` on each new thread before its
/// code runs (arms its timer; returns the slot to pass to `ending`),
/// `ending` as it ends, and `unwinding` to learn whether the calling thread
/// is inside the handler's unwind (where every signal is blocked and stays
/// so, which lets a sigprocmask hook skip libunwind's system calls).
typedef struct lp_sampler_thread_hook {
    void *(*began)(void);
    void (*ending)(void *slot);
    int (*unwinding)(void);
} lp_sampler_thread_hook_t;

/// Registers a pthread_create hook (the preload library's) before sampling
/// starts: the sampler then arms new threads through it and starts no helper
/// thread. 0 with `hook` filled, or -1 when sampling has already started.
/// Hidden, so that the ELF note of a LaunchProf program can point at it
/// (sampler_entry.c) with a link-time offset.
__attribute__((visibility("hidden"))) int lp_sampler_register_thread_hook(lp_sampler_thread_hook_t *hook);

/// Stops sampling: deletes every thread's timer and waits for handlers in
/// flight (the module map and the threads' names are read later, by
/// lp_sampler_encode_sections). Idempotent; safe to call when sampling never
/// started.
void lp_sampler_stop(void);

/// Why the last start failed (static text), or NULL.
const char *lp_sampler_error(void);

lp_sampler_stats_t lp_sampler_stats(void);

struct dl_phdr_info;
/// The descriptor of the ELF note `type`/`name` in the object's mapped
/// PT_NOTE segments (its size in `desc_size`), or NULL: how the preload
/// library finds LaunchProf's note in the main program.
const uint8_t *lp_find_note(const struct dl_phdr_info *info, uint32_t type, const char *name,
                            uint32_t *desc_size);

/// A sample in a record buffer: this header, then `depth` PCs (leaf first).
/// The in-process sampler's handlers append them to its buffer; other
/// producers (launchprof's offline unwinder of kernel samples) build a buffer
/// of them for lp_sampler_encode.
typedef struct lp_sample_record {
    uint32_t size;       ///< Bytes, header included; set before the commit.
    uint32_t committed;  ///< Stored last, with release order: 1.
    uint64_t ts;         ///< CLOCK_MONOTONIC ns when the handler ran.
    uint32_t tid;
    uint16_t depth;
    uint16_t flags;      ///< LP_SAMPLE_*.
    uint32_t cost_ns;    ///< Time spent unwinding.
    uint32_t weight;     ///< Timer periods it stands for: 1 + the timer's overrun.
} lp_sample_record_t;

/// One loaded object of the modules section.
typedef struct lp_module {
    uint64_t bias;       ///< Load bias: runtime address = bias + ELF vaddr.
    uint64_t start, end; ///< Runtime range of its PT_LOAD segments.
    char *path;
    uint8_t build_id[64];
    uint16_t build_id_length;
} lp_module_t;

/// A thread of the samples section's thread table.
typedef struct lp_sampler_thread_name {
    uint32_t tid;
    char name[16];       ///< NUL-padded.
} lp_sampler_thread_name_t;

/// Everything the samples and modules sections hold (docs/trace-format.md).
typedef struct lp_sampler_sections {
    uint32_t hz, max_depth, timer_mode, flags;  ///< flags: the section's LP_SAMPLER_* bits
    uint64_t start_ns, stop_ns;
    /// `record_count` committed lp_sample_record_t, back to back, in the
    /// `records_end` bytes from `records`.
    const uint8_t *records;
    uint64_t records_end;
    uint64_t record_count;
    uint64_t lost, failed;
    const lp_sampler_thread_name_t *threads;
    uint32_t thread_count;
    /// CPU time the sampling events counted, µs (written saturated to 32 bits); 0: unknown.
    uint64_t cpu_us;
    const lp_module_t *modules;
    uint32_t module_count;
} lp_sampler_sections_t;

/// Encodes the samples and modules sections (with their 16-byte section
/// headers) of `sections`: a malloc'ed buffer (the caller frees it) and its
/// size in `*size`; NULL (size 0) when memory ran out or the records do not
/// fill `records_end` exactly as `record_count` records.
uint8_t *lp_sampler_encode(const lp_sampler_sections_t *sections, size_t *size);

/// Encodes the samples and modules sections (with their 16-byte section
/// headers) from one consistent snapshot of the samples committed so far and
/// of the sampled threads, while no other thread encodes or replaces the
/// module map. Returns a malloc'ed buffer (the caller frees it) and its size
/// in `*size`; NULL (size 0) when sampling never started or memory ran out.
/// Safe while handlers still append samples.
uint8_t *lp_sampler_encode_sections(size_t *size);

/// Writes a whole trace file (header, empty event tables, samples, modules,
/// checksum) to `path` via a temporary file and rename(2). For programs that
/// do not link LaunchProf (the preload library). Returns 0 or -1 with errno.
int lp_sampler_write_trace(const char *path, uint64_t spawn_ns, uint64_t entry_ns);

/// A whole minimal trace (header with `pid`, the four empty event tables,
/// `sections` as lp_sampler_encode returned them, the checksum) in a
/// malloc'ed buffer of `*size` bytes; NULL with errno when memory ran out.
/// `sections` may be NULL (no samples or modules sections).
uint8_t *lp_sampler_trace_bytes(uint32_t pid, uint64_t spawn_ns, uint64_t entry_ns, const uint8_t *sections,
                                size_t sections_size, size_t *size);

/// lp_sampler_trace_bytes written to `path` as lp_sampler_write_trace writes
/// (a temporary file beside it, then rename(2)). 0, or -1 with errno.
int lp_sampler_write_trace_sections(const char *path, uint32_t pid, uint64_t spawn_ns, uint64_t entry_ns,
                                    const uint8_t *sections, size_t sections_size);

#ifdef __cplusplus
}
#endif

#endif
