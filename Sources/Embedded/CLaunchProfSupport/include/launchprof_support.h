// launchprof_support.h — the C layer of the embedded tracer.
//
// What lives here is what Swift cannot do itself, or not cheaply enough:
// the process-entry constructor, a per-thread event cursor (thread-local
// storage), release/acquire stores on raw ring memory, and writes that are
// safe from any context (signal handlers, atexit).
//
// The event hot path (`lp_ring_record`) is `static inline`: one clock read,
// one thread-local load, five relaxed stores (plain moves) and one release
// store. Everything
// rare (claiming a block of slots, creating the ring, counting drops) is a
// real function in launchprof_support.c.
#ifndef LAUNCHPROF_SUPPORT_H
#define LAUNCHPROF_SUPPORT_H

#include "launchprof_format.h"
#include <stdint.h>
#include <stddef.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

// Event kinds and flags, ring policies: launchprof_format.h (trace format v1).

/// Names are either a StaticString's address (resolved when the trace is
/// written) or, with this bit set, an index into the interned-name table.
static const uint64_t LP_NAME_INTERNED = UINT64_C(1) << 63;


/// Slots are handed to threads in blocks so that threads never share a cache
/// line or contend on one counter per event: blocks of 64 events in a ring
/// smaller than LP_LARGE_RING_EVENTS, of 256 from there on. Taking a block
/// costs a few cache misses in a row (the locked add on the shared claim
/// counter waits for the previous block's last stores, then the block's
/// header, last written a lap ago, is taken by compare-and-swap): with 4
/// threads on 2 cores, once per 64 events that was 5-10% of an event, once
/// per 256 it is under 2% (docs/tracer.md). A large ring keeps at least 256
/// blocks, so a block an idle thread holds is at most 1/256 of it.
#define LP_BLOCK_EVENTS 64
#define LP_BLOCK_EVENTS_LARGE 256
#define LP_LARGE_RING_EVENTS (LP_BLOCK_EVENTS_LARGE * 256)
/// The process-wide ring's capacity without LAUNCHPROF_BUFFER_EVENTS: 256 Ki
/// events (12 MiB of address space, pages touched only as blocks are
/// claimed), so that it has 1,024 blocks of 256 events, as many threads'
/// blocks as 64 Ki events had in blocks of 64.
#define LP_DEFAULT_RING_EVENTS (LP_BLOCK_EVENTS_LARGE * 1024)

// MARK: - Ring storage
//
// Ownership (docs/tracer.md): a thread writes only into the one block it owns.
// It takes a block in the slow path (a compare-and-swap on the block's state)
// and gives it back, with the number of events it committed there, when the
// block is full, when it moves to another ring, or when it exits. Only a
// released block is overwritten (overwrite-oldest); a block whose owner is
// lapped, preempted or idle is skipped, never taken from it. Each claim has a
// number; the block's epoch is its owner's, and each slot's commit marker
// says which claim committed it. A reader copies an event between two loads
// of its marker and of its block's epoch (a seqlock) and keeps it only when
// neither changed and the marker belongs to the epoch.
//
// Every field an other thread may read at the same time is accessed with
// __atomic builtins (relaxed ones are plain moves on x86-64 and arm64): the
// protocol is data-race-free in the C11 sense, so ThreadSanitizer checks it.

/// One recorded event, as a snapshot returns it.
typedef struct lp_event {
    uint64_t seq;       ///< Its commit marker: claim number x the ring's block_events + slot + 1.
    uint64_t ts;        ///< CLOCK_MONOTONIC nanoseconds.
    uint64_t name;      ///< StaticString address, or LP_NAME_INTERNED | index.
    uint64_t id;        ///< Signpost id; 0 for none.
    int64_t arg;        ///< Optional numeric argument (valid with LP_FLAG_HAS_ARG).
    uint32_t tid;       ///< Linux thread id.
    uint8_t kind;       ///< LP_KIND_*.
    uint8_t flags;      ///< LP_FLAG_*.
    uint16_t category;  ///< Index of the Signposter's (subsystem, category).
} lp_event_t;

/// One slot of the ring: an event as stored, 48 bytes, written only by the
/// thread owning its block. The thread id, kind, flags and category share one
/// word (`lp_slot_meta`), so the hot path stores six words.
typedef struct lp_slot {
    uint64_t seq;   ///< Commit marker, stored last with release order: 0 = empty.
    uint64_t ts;
    uint64_t name;
    uint64_t id;
    int64_t arg;
    uint64_t meta;  ///< tid | kind << 32 | flags << 40 | category << 48.
} lp_slot_t;

static inline uint64_t lp_slot_meta(uint32_t tid, uint8_t kind, uint8_t flags, uint16_t category) {
    return (uint64_t)tid | (uint64_t)kind << 32 | (uint64_t)flags << 40 | (uint64_t)category << 48;
}

/// Block states.
enum {
    LP_BLOCK_FREE = 0,      ///< never claimed
    LP_BLOCK_OWNED = 1,     ///< one thread writes into it; no other thread may
    LP_BLOCK_RELEASED = 2,  ///< its owner is done with it: readable, and recyclable
};

/// The header of one block of slots (the ring's block_events), a cache line of its own:
/// threads that claim neighbouring blocks at the same moment do not bounce
/// one line between them.
typedef struct lp_block {
    uint32_t state;  ///< LP_BLOCK_* (atomic).
    uint32_t count;  ///< Events committed in it, stored by its owner before releasing it.
    uint64_t epoch;  ///< The claim number of its current owner (atomic); its slots' markers carry it.
    /// Committed events of earlier owners lost when this block was recycled,
    /// added up by each claimer that recycles it (atomic; only the owner
    /// writes it, on a line it already holds). The ring's overwritten count
    /// is their sum: no read-modify-write on a line all writers share.
    uint64_t overwritten;
    uint64_t padding[5];
} lp_block_t;

/// A fixed-capacity event ring. The first cache line is read on every event
/// and never written after creation; the counters, written in the slow path,
/// have a line of their own.
typedef struct lp_ring {
    lp_slot_t *slots;
    lp_block_t *blocks;
    uint64_t capacity;     ///< A multiple of block_events.
    uint64_t block_count;  ///< capacity / block_events.
    uint64_t generation;   ///< Unique per ring; keys thread-local cursors.
    uint32_t policy;       ///< LP_POLICY_*.
    uint32_t block_events; ///< Slots per block: LP_BLOCK_EVENTS, or LP_BLOCK_EVENTS_LARGE in a large ring.
    struct lp_ring *live_next;  ///< The list of live rings (under its lock).
    uint64_t padding0;
    uint64_t claimed;      ///< Block claims so far, skipped ones included (atomic).
    uint64_t dropped;      ///< Events not recorded: the ring was full, or every block owned (atomic).
    uint64_t padding1[6];  ///< (Overwritten events are counted per block: lp_block_t.overwritten.)
} lp_ring_t;

/// A thread's current block in one ring.
typedef struct lp_cursor {
    lp_slot_t *next;
    lp_slot_t *end;        ///< One past the owned block; next == end: no slot left.
    lp_slot_t *start;      ///< The owned block's first slot.
    uint64_t seq;          ///< Commit marker for `next`.
    uint64_t generation;   ///< Ring the block belongs to.
    lp_block_t *block;     ///< The owned block, NULL when none.
    uint64_t ids;          ///< Per-thread signpost-id counter.
    uint32_t tid;          ///< Cached gettid(), 0 until first use.
    uint32_t full;         ///< Drop-newest ring is full: skip claiming.
} lp_cursor_t;

extern __thread lp_cursor_t lp_tls_cursor;
extern lp_ring_t *lp_global_ring;
extern int lp_enabled;

// MARK: - Clock and identity

static inline uint64_t lp_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

/// The calling thread's Linux thread id (cached per thread).
uint32_t lp_thread_id(void);

/// CLOCK_MONOTONIC ns taken by the constructor at process entry (pre-main).
uint64_t lp_process_entry_ns(void);

/// The LAUNCHPROF_* variables as they were at process entry (captured and
/// removed from the environment by the process-entry constructor; ignored in
/// secure-execution mode). NULL when unset.
const char *lp_env(const char *name);
/// Captures them now, if the constructor has not (idempotent).
void lp_env_capture(void);
/// secure_getenv(3), which Swift's Glibc module does not export: NULL in a
/// setuid/setcap program (secure execution).
const char *lp_secure_getenv(const char *name);
/// How many variables are captured, and the name and value (NULL: unset) of one.
int lp_env_count(void);
const char *lp_env_entry(int index, const char **value);

/// CLOCK_MONOTONIC ns the harness took before spawning us, from
/// LAUNCHPROF_SPAWN_NS; 0 when not launched by the harness or malformed.
uint64_t lp_spawn_ns(void);

/// Process CPU time (user + system, all threads) in nanoseconds.
uint64_t lp_process_cpu_ns(void);
/// The other threads of the process (not the caller), summed from
/// /proc/self/task/*/schedstat: their time on a CPU and their time runnable
/// but waiting for one on a run queue, in nanoseconds. Returns 0, or -1 when
/// the kernel does not say (no /proc).
int lp_process_demand_ns(uint64_t *on_cpu, uint64_t *waiting);
/// CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID: a system call,
/// no vDSO path), or 0 if the clock cannot be read.
uint64_t lp_thread_cpu_ns(void);
/// CPU time of the main thread (the one the process-entry constructor ran
/// on) in nanoseconds, 0 when it cannot be read.
uint64_t lp_main_thread_cpu_ns(void);
/// Sends `LP1 maincpu <ns> <main-thread-cpu-ns>` to the harness (after ready).
void lp_harness_main_cpu(uint64_t ns);

// MARK: - Enabling

static inline int lp_tracing_enabled(void) {
    return __atomic_load_n(&lp_enabled, __ATOMIC_RELAXED);
}

void lp_set_tracing_enabled(int enabled);

// MARK: - Rings

/// Creates a ring; capacity is rounded up to whole blocks (of LP_BLOCK_EVENTS,
/// or of LP_BLOCK_EVENTS_LARGE from LP_LARGE_RING_EVENTS on).
/// Returns NULL when memory cannot be had.
lp_ring_t *lp_ring_create(uint64_t capacity, uint32_t policy);

/// Frees a ring. No thread may record into it any more (threads that still
/// own a block in it are told apart by its generation and never touch it).
void lp_ring_destroy(lp_ring_t *ring);

/// The process-wide ring, created on first use with LAUNCHPROF_BUFFER_EVENTS
/// (default LP_DEFAULT_RING_EVENTS, 262144) and LAUNCHPROF_BUFFER_POLICY (drop-newest | overwrite-oldest).
lp_ring_t *lp_global_ring_ensure(void);

/// Installs `ring` as the process-wide ring if none exists yet.
/// Returns the ring in force afterwards (the given one or the existing one).
lp_ring_t *lp_global_ring_install(lp_ring_t *ring);

/// Slow path: releases the calling thread's block (full, or in another ring)
/// and gives it a new one in `ring`, or counts the event as dropped. Returns
/// the slot to write, or NULL when dropped.
lp_slot_t *lp_ring_claim_slow(lp_ring_t *ring, lp_cursor_t *cursor);

/// Records one event stamped `now`. Lock-free, never blocks, never allocates.
/// The fast path stores into the calling thread's own block only: relaxed
/// stores (plain moves) for the fields, then the commit marker with release
/// order, so a reader that sees the marker sees the whole event.
static inline void lp_ring_record_at(lp_ring_t *ring, uint64_t now, uint8_t kind,
                                     uint64_t name, uint64_t id, int64_t arg,
                                     uint8_t flags, uint16_t category) {
    lp_cursor_t *cursor = &lp_tls_cursor;
    lp_slot_t *slot;
    if (__builtin_expect(ring != NULL && cursor->generation == ring->generation &&
                             cursor->next != cursor->end, 1)) {
        slot = cursor->next;
        cursor->next = slot + 1;
    } else {
        slot = lp_ring_claim_slow(ring, cursor);
        if (slot == NULL) return;
    }
    __atomic_store_n(&slot->ts, now, __ATOMIC_RELAXED);
    __atomic_store_n(&slot->name, name, __ATOMIC_RELAXED);
    __atomic_store_n(&slot->id, id, __ATOMIC_RELAXED);
    __atomic_store_n(&slot->arg, arg, __ATOMIC_RELAXED);
    __atomic_store_n(&slot->meta, lp_slot_meta(cursor->tid, kind, flags, category), __ATOMIC_RELAXED);
    __atomic_store_n(&slot->seq, cursor->seq++, __ATOMIC_RELEASE);
}

/// Records one event stamped now. Lock-free, never blocks, never allocates.
static inline void lp_ring_record(lp_ring_t *ring, uint8_t kind, uint64_t name,
                                  uint64_t id, int64_t arg, uint8_t flags,
                                  uint16_t category) {
    lp_ring_record_at(ring, lp_now_ns(), kind, name, id, arg, flags, category);
}

/// Records into the process-wide ring, stamped `now`, when tracing is enabled
/// (for milestones whose time is also kept elsewhere: one clock read for both).
static inline void lp_record_at(uint64_t now, uint8_t kind, uint64_t name,
                                uint64_t id, int64_t arg, uint8_t flags,
                                uint16_t category) {
    if (!lp_tracing_enabled()) return;
    lp_ring_record_at(__atomic_load_n(&lp_global_ring, __ATOMIC_ACQUIRE), now, kind,
                      name, id, arg, flags, category);
}

/// Records into the process-wide ring when tracing is enabled.
static inline void lp_record(uint8_t kind, uint64_t name, uint64_t id,
                             int64_t arg, uint8_t flags, uint16_t category) {
    if (!lp_tracing_enabled()) return;
    lp_ring_record(__atomic_load_n(&lp_global_ring, __ATOMIC_ACQUIRE), kind, name,
                   id, arg, flags, category);
}

/// A new signpost id, unique in the process: the thread id in the high 32
/// bits and a per-thread counter in the low 32 (ids are never 0).
static inline uint64_t lp_make_signpost_id(void) {
    lp_cursor_t *cursor = &lp_tls_cursor;
    if (__builtin_expect(cursor->tid == 0, 0)) cursor->tid = lp_thread_id();
    return ((uint64_t)cursor->tid << 32) | (++cursor->ids & UINT64_C(0xffffffff));
}

/// Counters of a ring, read atomically.
typedef struct lp_ring_stats {
    uint64_t capacity;
    uint64_t claimed;  ///< Block claims, skipped ones included.
    uint64_t dropped;
    uint64_t overwritten;
    uint32_t policy;
} lp_ring_stats_t;

lp_ring_stats_t lp_ring_stats(const lp_ring_t *ring);

/// Copies the committed events of `ring` into `out` (at most `max`), in slot
/// order. Safe while other threads record: a slot whose commit marker is not
/// yet visible, or changes while it is copied, is skipped, never read
/// half-written. Once no thread records, it holds exactly the events recorded
/// minus those counted as dropped or overwritten.
size_t lp_ring_snapshot(const lp_ring_t *ring, lp_event_t *out, size_t max);

// MARK: - Launch milestones

/// Stores `ns` as the time of main (slot 0) or launch complete (slot 1) if
/// none was stored yet; returns 1 for the first call, 0 after.
int lp_launch_mark(int slot, uint64_t ns);

/// The time stored for main (slot 0) or launch complete (slot 1), 0 if none.
uint64_t lp_launch_time(int slot);

#define LP_MAX_MILESTONES 1024

/// Keeps a milestone (encoded name as in events) for the in-process list.
/// Past LP_MAX_MILESTONES, milestones still reach the ring and the harness
/// but not this list.
void lp_milestone_add(uint64_t ns, uint64_t name);

/// Copies up to `max` kept milestones (oldest first); returns the count.
size_t lp_milestones(uint64_t *ns, uint64_t *names, size_t max);

// MARK: - Thread names

typedef struct lp_thread_name {
    uint32_t tid;
    char name[16];
} lp_thread_name_t;

/// Thread names seen so far (captured when a thread first records, and
/// refreshed from /proc for live threads when this is called). Returns the
/// number of entries written to `out`.
size_t lp_thread_names(lp_thread_name_t *out, size_t max);

/// Names the calling thread (at most 15 bytes are kept, as by the kernel).
void lp_set_thread_name(const char *name);

// MARK: - Harness protocol (async-signal-safe)

/// Writes `len` bytes to LAUNCHPROF_RECORD_FD with one write(2) (retrying
/// EINTR). Returns 0 when written, -1 when there is no record socket or the
/// write failed.
int lp_harness_write(const char *buf, size_t len);

/// Writes one protocol record, "LP1 <kind> <ns>[ <name>]\n", with one
/// write(2). Control characters in `name` become spaces and it is cut at 1024
/// bytes, so the record stays below PIPE_BUF. `name` may be NULL.
void lp_harness_record(const char *kind, uint64_t ns, const char *name, size_t name_len);

/// Whether LAUNCHPROF_RECORD_FD named a usable descriptor.
int lp_harness_connected(void);

/// Sends `state` (e.g. "READY=1") as one datagram to $NOTIFY_SOCKET. Abstract
/// addresses ("@name") are supported. Returns 0 when sent, 1 when there is no
/// NOTIFY_SOCKET, -1 with errno on failure.
int lp_sd_notify(const char *state);

/// Whether the trace should be written at exit (LAUNCHPROF_TRACE is set).
const char *lp_trace_path(void);

/// Whether the trace should also be written at launch complete, with
/// LAUNCHPROF_TRACE: 1 for LAUNCHPROF_TRACE_AT=ready (before the harness is
/// told: how `launchprof run --profile` and `launchprof profile --ready` get
/// the launch's samples from a program that stays up and is stopped with
/// SIGTERM), 2 for `after-ready` (after it is told, so time to ready does not
/// include the write: `launchprof run --trace-runs`), 0 otherwise.
int lp_trace_at_ready(void);

/// Claims the one final trace write of this process: returns 1 to the first
/// caller (a terminating Lifecycle, or the atexit hook), 0 after, so the
/// trace is written once.
int lp_trace_claim_final_write(void);

/// Formats `value` in decimal into `buf` (at least 21 bytes), returns length.
size_t lp_format_u64(char *buf, uint64_t value);

#ifdef __cplusplus
}
#endif

#endif
