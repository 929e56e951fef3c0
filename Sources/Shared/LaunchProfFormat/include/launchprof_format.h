// launchprof_format.h — the wire formats, in one place.
//
// Every fact that a writer and a reader must agree on lives here, and only
// here: the trace file layout (written by LaunchProf's Swift encoder and by
// the C sampler's preload library, read by the harness), the harness record
// protocol (LP1 lines on LAUNCHPROF_RECORD_FD), and the results document's
// schema version. docs/trace-format.md describes them in prose.
//
// Dependency-free: C and Swift (through the LaunchProfFormat module) both
// include it, so a format change is one edit that every side compiles.
#ifndef LAUNCHPROF_FORMAT_H
#define LAUNCHPROF_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// MARK: - Trace file, version 1 (little-endian throughout)

/// The first 8 bytes of a trace file: "LPTRACE" and a NUL.
#define LP_TRACE_MAGIC "LPTRACE"
#define LP_TRACE_MAGIC_SIZE 8u
#define LP_TRACE_VERSION 1u
/// A version-1 header's size; the header-size field lets a later minor
/// revision grow it, and a reader skips to the size the file states.
#define LP_TRACE_HEADER_SIZE 96u
/// Section header: tag u32, reserved u32, payload length u64.
#define LP_TRACE_SECTION_HEADER_SIZE 16u
/// One event record in the events section.
#define LP_TRACE_EVENT_SIZE 40u

/// Section tags. A reader skips tags it does not know.
#define LP_TRACE_SECTION_STRINGS 1u
#define LP_TRACE_SECTION_CATEGORIES 2u
#define LP_TRACE_SECTION_THREADS 3u
#define LP_TRACE_SECTION_EVENTS 4u
#define LP_TRACE_SECTION_SAMPLES 5u
#define LP_TRACE_SECTION_MODULES 6u
/// The last section: the FNV-1a 64 of every byte before it.
#define LP_TRACE_SECTION_CHECKSUM 0xFFFFFFFFu

/// Event kinds (the kind byte of an event record).
enum {
    LP_KIND_BEGIN = 1,
    LP_KIND_END = 2,
    LP_KIND_EVENT = 3,
    LP_KIND_MILESTONE = 4,
    LP_KIND_LAUNCH_COMPLETE = 5,
};

/// Event flags: bit 0, the argument field is the event's value; bit 1, the
/// argument field is the recording thread's CPU time (CLOCK_THREAD_CPUTIME_ID,
/// nanoseconds), written on interval begins and ends that carry no value.
/// Never both: a reader that knows only bit 0 sees no argument.
enum {
    LP_FLAG_HAS_ARG = 1,
    LP_FLAG_THREAD_CPU = 2,
};

/// Ring policies (the header's policy field).
enum {
    LP_POLICY_DROP_NEWEST = 0,
    LP_POLICY_OVERWRITE_OLDEST = 1,
};

/// How samples were triggered (samples section, field "timer mode").
enum {
    LP_SAMPLER_TIMER_NONE = 0,
    LP_SAMPLER_TIMER_THREAD_CPU = 1,   ///< timer_create on each thread's CPU clock.
    LP_SAMPLER_TIMER_ITIMER_PROF = 2,  ///< setitimer(ITIMER_PROF), process-wide.
    LP_SAMPLER_TIMER_THREAD_EVENT = 3, ///< A task-clock perf event on each thread (every period, not each tick).
    LP_SAMPLER_TIMER_THREAD_WALL = 4,  ///< A wall-clock timer on each thread: running or waiting (--clock wall).
    /// A task-clock perf event per CPU opened by the harness (lp-spawn) on the
    /// launched tree; stacks copied by the kernel and unwound by launchprof
    /// after the run (CLaunchProfPerf).
    LP_SAMPLER_TIMER_KERNEL = 5,
};

/// FNV-1a 64 of `count` bytes: the trace's checksum.
uint64_t lp_trace_checksum(const void *bytes, size_t count);

// MARK: - Harness record protocol, version 1

/// The environment variable that names the descriptor records go to.
#define LP_RECORD_FD_VARIABLE "LAUNCHPROF_RECORD_FD"
/// Every record starts with the protocol version, then a space.
#define LP_RECORD_VERSION "LP1"
/// `LP1 entry <ns> <pid>`: process entry, before main.
#define LP_RECORD_ENTRY "entry"
/// `LP1 main <ns>`
#define LP_RECORD_MAIN "main"
/// `LP1 milestone <ns> <name>` (the name may contain spaces).
#define LP_RECORD_MILESTONE "milestone"
/// `LP1 ready <ns>`: launch complete.
#define LP_RECORD_READY "ready"
/// `LP1 resumed <ns>`: the lifecycle's resume handlers finished after SIGCONT.
#define LP_RECORD_RESUMED "resumed"
/// `LP1 maincpu <ns> <cpu-ns>`: just after ready, the main thread's CPU time.
#define LP_RECORD_MAIN_CPU "maincpu"

// MARK: - Loader audit protocol, version 1 (liblaunchprof-audit.so, docs/sampling.md)

/// The environment variable naming the AF_UNIX datagram socket (a path) to
/// which the audit library sends the receiving end of its channel.
#define LP_AUDIT_SOCKET_VARIABLE "LAUNCHPROF_AUDIT_SOCKET"
/// The first line of every datagram the audit library itself writes (the
/// loader's own `LD_DEBUG=files` lines, which share the channel, never start so).
#define LP_AUDIT_MAGIC "LPA1"
/// Records, one a line after the magic: `V <mono> <real>` (audit library
/// loaded), `S <mono> <name>` (the loader starts looking for a DT_NEEDED
/// name), `O <mono> <path>` (an object of the initial namespace is mapped),
/// `C <mono> <real>` (every object relocated), `P <mono> <real>` (before the
/// program's entry), `F <fd>` (the loader's debug output was found),
/// `X <what>` (something the library could not do).
#define LP_AUDIT_RECORD_VERSION 'V'
#define LP_AUDIT_RECORD_SEARCH 'S'
#define LP_AUDIT_RECORD_OPEN 'O'
#define LP_AUDIT_RECORD_CONSISTENT 'C'
#define LP_AUDIT_RECORD_PREINIT 'P'
#define LP_AUDIT_RECORD_DEBUG 'F'
#define LP_AUDIT_RECORD_PROBLEM 'X'

// MARK: - Results document

/// The `version` field of a results JSON file (and a saved baseline).
#define LP_RESULTS_SCHEMA_VERSION 1

#ifdef __cplusplus
}
#endif

#endif
