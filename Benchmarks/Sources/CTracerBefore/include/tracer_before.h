// tracer_before.h — the trace ring's hot path as it was at c92f6b1, before
// blocks were owned (issue 26), renamed lpb_*, so that one benchmark run can
// measure it beside the current one. Only what an event runs is kept: the
// enabled flag, the process-wide ring, the thread's cursor, the record and
// its block claim (64 slots, one fetch-and-add on the shared counter, and in
// overwrite-oldest 64 markers cleared). A frozen copy: not for use.
#ifndef TRACER_BEFORE_H
#define TRACER_BEFORE_H

#include <stdint.h>
#include <time.h>

#define LPB_BLOCK_EVENTS 64
#define LPB_POLICY_DROP_NEWEST 0
#define LPB_POLICY_OVERWRITE_OLDEST 1
#define LPB_KIND_EVENT 3

typedef struct lpb_event {
    uint64_t seq;
    uint64_t ts;
    uint64_t name;
    uint64_t id;
    int64_t arg;
    uint32_t tid;
    uint8_t kind;
    uint8_t flags;
    uint16_t category;
} lpb_event_t;

typedef struct lpb_ring {
    lpb_event_t *slots;
    uint64_t capacity;
    uint64_t generation;
    uint32_t policy;
    uint32_t reserved;
    uint64_t claimed;
    uint64_t dropped;
    uint64_t overwritten;
} lpb_ring_t;

typedef struct lpb_cursor {
    lpb_event_t *next;
    lpb_event_t *end;
    uint64_t seq;
    uint64_t generation;
    uint64_t ids;
    uint32_t tid;
    uint32_t full;
} lpb_cursor_t;

extern __thread lpb_cursor_t lpb_tls_cursor;
extern lpb_ring_t *lpb_global_ring;
extern int lpb_enabled;

/// Creates the process-wide "before" ring (once) and sets its enabled flag.
void lpb_configure(uint64_t capacity, uint32_t policy);
void lpb_set_enabled(int enabled);

lpb_event_t *lpb_ring_claim_slow(lpb_ring_t *ring, lpb_cursor_t *cursor);

static inline uint64_t lpb_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

static inline void lpb_ring_record_at(lpb_ring_t *ring, uint64_t now, uint8_t kind, uint64_t name, uint64_t id,
                                      int64_t arg, uint8_t flags, uint16_t category) {
    lpb_cursor_t *cursor = &lpb_tls_cursor;
    lpb_event_t *slot;
    if (__builtin_expect(ring != NULL && cursor->generation == ring->generation && cursor->next != cursor->end, 1)) {
        slot = cursor->next;
        cursor->next = slot + 1;
    } else {
        slot = lpb_ring_claim_slow(ring, cursor);
        if (slot == NULL) return;
    }
    slot->ts = now;
    slot->name = name;
    slot->id = id;
    slot->arg = arg;
    slot->tid = cursor->tid;
    slot->kind = kind;
    slot->flags = flags;
    slot->category = category;
    __atomic_store_n(&slot->seq, cursor->seq++, __ATOMIC_RELEASE);
}

/// What Signposter.emitEvent inlined to at c92f6b1 (lp_record).
static inline void lpb_record(uint8_t kind, uint64_t name, uint64_t id, int64_t arg, uint8_t flags,
                              uint16_t category) {
    if (!__atomic_load_n(&lpb_enabled, __ATOMIC_RELAXED)) return;
    lpb_ring_record_at(__atomic_load_n(&lpb_global_ring, __ATOMIC_ACQUIRE), lpb_now_ns(), kind, name, id, arg,
                       flags, category);
}

#endif
