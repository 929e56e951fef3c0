// tracer_before.c — the block claim as it was at c92f6b1 (see tracer_before.h).
#define _GNU_SOURCE
#include "tracer_before.h"

#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

__thread lpb_cursor_t lpb_tls_cursor;
lpb_ring_t *lpb_global_ring;
int lpb_enabled;
static uint64_t next_generation = 1;

void lpb_configure(uint64_t capacity, uint32_t policy) {
    if (__atomic_load_n(&lpb_global_ring, __ATOMIC_ACQUIRE) != NULL || capacity == 0 ||
        capacity > (UINT64_C(1) << 32)) {
        return;
    }
    capacity = (capacity + LPB_BLOCK_EVENTS - 1) / LPB_BLOCK_EVENTS * LPB_BLOCK_EVENTS;
    lpb_ring_t *ring = calloc(1, sizeof *ring);
    if (ring == NULL) return;
    ring->slots = calloc(capacity, sizeof(lpb_event_t));
    if (ring->slots == NULL) {
        free(ring);
        return;
    }
    ring->capacity = capacity;
    ring->policy = policy == LPB_POLICY_OVERWRITE_OLDEST ? LPB_POLICY_OVERWRITE_OLDEST : LPB_POLICY_DROP_NEWEST;
    ring->generation = __atomic_fetch_add(&next_generation, 1, __ATOMIC_RELAXED);
    lpb_ring_t *expected = NULL;
    if (!__atomic_compare_exchange_n(&lpb_global_ring, &expected, ring, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        free(ring->slots);
        free(ring);
    }
}

void lpb_set_enabled(int enabled) { __atomic_store_n(&lpb_enabled, enabled ? 1 : 0, __ATOMIC_RELAXED); }

lpb_event_t *lpb_ring_claim_slow(lpb_ring_t *ring, lpb_cursor_t *cursor) {
    if (ring == NULL) return NULL;
    if (cursor->tid == 0) cursor->tid = (uint32_t)syscall(SYS_gettid);
    if (cursor->generation != ring->generation) {
        cursor->generation = ring->generation;
        cursor->next = cursor->end = NULL;
        cursor->full = 0;
    }
    if (cursor->full) {
        __atomic_fetch_add(&ring->dropped, 1, __ATOMIC_RELAXED);
        return NULL;
    }
    uint64_t start = __atomic_fetch_add(&ring->claimed, LPB_BLOCK_EVENTS, __ATOMIC_RELAXED);
    uint64_t offset;
    if (ring->policy == LPB_POLICY_DROP_NEWEST) {
        if (start >= ring->capacity) {
            cursor->full = 1;
            __atomic_fetch_add(&ring->dropped, 1, __ATOMIC_RELAXED);
            return NULL;
        }
        offset = start;
    } else {
        offset = start % ring->capacity;
        uint64_t replaced = 0;
        for (uint64_t i = 0; i < LPB_BLOCK_EVENTS; i++) {
            lpb_event_t *slot = &ring->slots[offset + i];
            if (__atomic_load_n(&slot->seq, __ATOMIC_ACQUIRE) != 0) {
                replaced++;
                __atomic_store_n(&slot->seq, 0, __ATOMIC_RELEASE);
            }
        }
        if (replaced) __atomic_fetch_add(&ring->overwritten, replaced, __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_RELEASE);
    }
    lpb_event_t *slot = &ring->slots[offset];
    cursor->next = slot + 1;
    cursor->end = slot + LPB_BLOCK_EVENTS;
    cursor->seq = start + 1;
    return slot;
}
