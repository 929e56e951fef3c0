// launchprof_sampler.h — the launch-window sampling profiler (docs/sampling.md).
//
// When LAUNCHPROF_SAMPLE_HZ is set, a constructor starts sampling at process
// entry: each thread gets a timer on its own CPU-time clock (timer_create with
// SIGEV_THREAD_ID), whose SIGPROF handler captures the stack with libunwind
// into a preallocated buffer (no malloc, no locks). A helper thread — started
// only when sampling was asked for — arms timers for threads created later.
// Sampling stops at launch complete (lp_sampler_stop) or at exit.
//
// libunwind is dlopen'ed when sampling starts, so a program that does not
// sample never loads it. The same sources build the LD_PRELOAD library
// (liblaunchprof-preload.so, target CLaunchProfPreload), which writes a whole
// trace file itself at exit (lp_sampler_write_trace).
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

#if defined(LP_PRELOAD)
// The preload library's copies must bind to themselves, never to a program's
// own (exported) copy of the same functions.
#pragma GCC visibility push(hidden)
#endif

// Section tags and timer modes: launchprof_format.h.

/// Sample record flags.
enum {
    LP_SAMPLE_TRUNCATED = 1,      ///< The stack was deeper than the maximum depth.
    LP_SAMPLE_UNWIND_FAILED = 2,  ///< libunwind failed: only the interrupted PC.
    LP_SAMPLE_LOADER_BUSY = 4,    ///< A loader lock was taken: only the interrupted PC.
};

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

/// Starts sampling every thread at `hz` samples per CPU-second with stacks
/// of at most `max_depth` frames. Returns 0 when started, -1 with a reason in
/// `lp_sampler_error()` otherwise (also when already started once).
int lp_sampler_start(uint32_t hz, uint32_t max_depth);

/// Stops sampling, waits for handlers in flight and snapshots the loaded
/// modules. Idempotent; safe to call when sampling never started.
void lp_sampler_stop(void);

/// Why the last start failed (static text), or NULL.
const char *lp_sampler_error(void);

lp_sampler_stats_t lp_sampler_stats(void);

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

#if defined(LP_PRELOAD)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
