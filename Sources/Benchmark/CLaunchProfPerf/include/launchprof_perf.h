// launchprof_perf.h — the kernel's samples of a launch, unwound after the run
// (docs/sampling.md).
//
// lp-spawn samples the launched tree with a task-clock perf event per CPU
// (LP_SPAWN_FLAG_SAMPLE) and copies the ring buffers' records, each sample
// with the user registers and a copy of the top of the user stack, to a
// sample sink file (struct lp_perf_sink_header, launchprof_spawn.h). This
// target reads that file, walks every sample's stack offline with libunwind's
// remote API (the stack copy for the stack, the mapped ELF files for code and
// unwind tables), and encodes the trace's samples and modules sections with
// the in-process sampler's encoder (lp_sampler_encode), so that every reader
// of traces reads them unchanged (timer mode LP_SAMPLER_TIMER_KERNEL).
//
// libunwind is opened with dlopen (libunwind-x86_64.so.8, or
// libunwind-aarch64.so.8 on aarch64): nothing links it.
#ifndef LAUNCHPROF_PERF_H
#define LAUNCHPROF_PERF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What to keep of the sink.
typedef struct lp_perf_options {
    /// CLOCK_MONOTONIC window of the samples kept (spawn .. ready), both
    /// ends included; 0 and UINT64_MAX keep all.
    uint64_t from_ns, to_ns;
    /// Frames per stack (1 to LP_SAMPLER_MAX_DEPTH; 0: LP_SAMPLER_DEFAULT_DEPTH).
    uint32_t max_depth;
    /// The launched process (the trace header's pid): its samples and those
    /// of its descendants are kept; 0 keeps every process of the sink.
    uint32_t pid;
    /// CPU time the sampling events counted, when the caller read it (the
    /// samples section's "sampled CPU time"); 0: unknown.
    uint64_t cpu_ns;
} lp_perf_options_t;

/// What the sink held and what became of it.
typedef struct lp_perf_summary {
    uint64_t samples;          ///< Sample records in the sink.
    uint64_t kept;             ///< Samples in the window, of the launched tree: the section's samples.
    uint64_t lost_records;     ///< PERF_RECORD_LOST records (the ring was full).
    uint64_t lost_samples;     ///< Records they say were lost (and PERF_RECORD_LOST_SAMPLES' counts).
    uint64_t unwind_failures;  ///< Kept samples whose walk ended on an error (frames so far kept).
    uint64_t truncated;        ///< Kept samples cut at max_depth.
    uint64_t throttled;        ///< PERF_RECORD_THROTTLE records.
    uint64_t unwind_ns;        ///< Time spent walking the kept samples' stacks.
    uint32_t cpus;             ///< The sink header's: events opened, one per CPU.
    int32_t open_error;        ///< The sink header's: errno of the first CPU whose event failed, 0 when none did.
    /// 1 when the spawner was to read the mappings at ready but the launch
    /// ended first (LP_PERF_RECORD_MAPS_MISSED): its samples cannot be named.
    uint32_t maps_missed;
    /// The sink's ending (LP_PERF_SINK_CLOSED): errno of the first write the
    /// sink refused (ENOSPC: the disk was full; EFBIG: the file-size limit),
    /// 0 when none was; the samples drained after it and not written (also
    /// in the samples section's lost count).
    int32_t sink_error;
    uint64_t unwritten_samples;
    /// 1 when the sink has no ending: it was cut short (its spawner died,
    /// or even its header could not be rewritten); what it lost is unknown.
    uint32_t unclosed;
} lp_perf_summary_t;

/// Reads the sink at `path`, unwinds its samples, and returns the samples
/// and modules sections (with their section headers, exactly as
/// lp_sampler_encode lays them out) in a malloc'ed buffer of `*size` bytes
/// (the caller frees it); `summary` (may be NULL) says what was kept. On
/// failure returns NULL, *size 0, and a sentence naming the file and what
/// is wrong in `error` (NUL-terminated, at most `error_capacity` bytes).
/// Every byte of the file is checked: a malformed one gives an error, never
/// a crash. Calls on several threads at once share nothing.
uint8_t *lp_perf_encode_sections(const char *path, const lp_perf_options_t *options, size_t *size,
                                 lp_perf_summary_t *summary, char *error, size_t error_capacity);

/// lp_perf_encode_sections for a sink open at `fd` (read from its start
/// with pread, not closed), named `name` in errors: the anonymous file
/// launchprof gives the spawner (lp_sample_sink_anonymous).
uint8_t *lp_perf_encode_sections_fd(int fd, const char *name, const lp_perf_options_t *options, size_t *size,
                                    lp_perf_summary_t *summary, char *error, size_t error_capacity);

/// A whole trace of `sections` alone (lp_perf_encode_sections' output), for
/// a program that wrote no trace of its own: process `pid`, spawned at
/// `spawn_ns`. A malloc'ed buffer of `*size` bytes, or NULL (no memory).
uint8_t *lp_perf_trace_bytes(uint32_t pid, uint64_t spawn_ns, const uint8_t *sections, size_t sections_size,
                             size_t *size);

#ifdef __cplusplus
}
#endif

#endif
