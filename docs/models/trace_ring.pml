/* trace_ring.pml — the trace ring's claim / commit / release / snapshot
 * protocol (Sources/Embedded/CLaunchProfSupport/launchprof_support.c), for spin.
 *
 * NW writers record E events each into a ring of B blocks of S slots, while a
 * reader takes a snapshot. Every step that touches shared memory is one
 * Promela statement, so spin explores every interleaving of them. Checked:
 *   - a writer stores into a slot only while it owns the slot's block
 *     (ghost `owner`, asserted before every field store): a lapped, preempted
 *     or resuming writer never writes into storage another thread took;
 *   - every event the reader keeps (its marker belongs to its block's epoch,
 *     which did not change across the copy) is exactly the event committed
 *     under that marker (ghost gw/ge), never a mix of two: no torn event;
 *   - when the writers are done, events present + dropped + overwritten ==
 *     events recorded: the counts are exact;
 *   - no deadlock (every process ends).
 * Not checked: the C11 memory model. Spin's interleavings are sequentially
 * consistent; the release/acquire stores and the two fences that give the
 * same guarantees on real hardware are argued in docs/tracer.md and run
 * under ThreadSanitizer (Scripts/checks/tsan.sh).
 *
 * Scripts/checks/check-ring-model.sh runs it for both policies.
 */

#ifndef NW
#define NW 2
#endif
#ifndef E
#define E 3
#endif
#define B 2
#define S 2
#define NSLOT 4          /* B * S */
#define MAXSEQ 64
#define FREE 0
#define OWNED 1
#define RELEASED 2
#define NONE 255
#ifndef OVERWRITE
#define OVERWRITE 1
#endif

byte state[B];           /* lp_block_t.state */
byte count[B];           /* lp_block_t.count */
byte epoch[B];           /* lp_block_t.epoch: its owner's claim number */
byte claimed;            /* lp_ring_t.claimed (block claims) */
byte dropped;
byte overwritten;
byte seq[NSLOT];         /* commit markers */
byte fw[NSLOT];          /* an event's fields: its writer ... */
byte fe[NSLOT];          /* ... and its sequence number, stored one by one */
byte owner[B];           /* ghost: the thread that owns each block */
byte gw[MAXSEQ];         /* ghost: what was committed under each marker */
byte ge[MAXSEQ];
byte done;

/* Gives the writer's block back: its count, then its state (release). */
inline release(blk, next) {
    if
    :: blk != NONE ->
        count[blk] = next;
        owner[blk] = NONE;
        state[blk] = RELEASED;
        blk = NONE
    :: else -> skip
    fi
}

proctype writer(byte w) {
    byte blk = NONE, next = 0, base = 0, e = 0;
    byte n, idx, old, attempt, slot, i;
    bool ringfull = false, got;
    do
    :: e < E ->
        got = (blk != NONE && next < S);
        if
        :: !got ->  /* slow path */
            release(blk, next);
#if OVERWRITE
            attempt = 0;
            do
            :: attempt < B && !got ->
                d_step { n = claimed; claimed++ }       /* fetch_add */
                idx = n % B;
                atomic {                                /* compare_exchange */
                    if
                    :: state[idx] != OWNED ->
                        old = state[idx]; state[idx] = OWNED; owner[idx] = w; got = true
                    :: else -> skip
                    fi
                }
                if
                :: got ->
                    if
                    :: old == RELEASED -> d_step { overwritten = overwritten + count[idx] }
                    :: else -> skip
                    fi;
                    epoch[idx] = n;  /* then the release fence */
                    blk = idx; next = 0; base = n * S + 1
                :: else -> skip
                fi;
                attempt++
            :: else -> break
            od
#else
            if
            :: !ringfull ->
                d_step { n = claimed; claimed++ }
                if
                :: n < B -> epoch[n] = n; state[n] = OWNED; owner[n] = w; got = true; blk = n; next = 0; base = n * S + 1
                :: else -> ringfull = true
                fi
            :: else -> skip
            fi
#endif
        :: else -> skip
        fi;
        if
        :: got ->  /* the hot path: fields, then the marker */
            slot = blk * S + next;
            assert(owner[blk] == w); fw[slot] = w;
            assert(owner[blk] == w); fe[slot] = e;
            assert(owner[blk] == w);
            d_step { gw[base + next] = w; ge[base + next] = e; seq[slot] = base + next }
            next++
        :: else -> d_step { dropped++ }
        fi;
        e++
    :: else -> break
    od;
    release(blk, next);  /* thread exit */
    d_step { done++ }
}

/* lp_ring_snapshot: blocks up to `claimed` that are not FREE; per block its
 * epoch, then per slot the marker (it must belong to the epoch), the fields
 * and the epoch again. */
proctype reader() {
    byte blk, i, e1, e2, s1, a, b, limit;
    limit = (claimed < B -> claimed : B);
    blk = 0;
    do
    :: blk < limit ->
        if
        :: state[blk] != FREE ->
            e1 = epoch[blk];
            i = blk * S;
            do
            :: i < blk * S + S ->
                s1 = seq[i];
                if
                :: s1 != 0 && (s1 - 1) / S == e1 ->
                    a = fw[i]; b = fe[i];
                    e2 = epoch[blk];
                    if
                    :: e1 == e2 -> assert(gw[s1] == a && ge[s1] == b)
                    :: else -> skip
                    fi
                :: else -> skip
                fi;
                i++
            :: else -> break
            od
        :: else -> skip
        fi;
        blk++
    :: else -> break
    od
}

/* Once every writer is done: present + dropped + overwritten == recorded,
 * where present is what a snapshot keeps: markers of the block's epoch. */
proctype auditor() {
    byte i, present;
    done == NW;
    i = 0;
    do
    :: i < NSLOT ->
        if
        :: state[i / S] != FREE && seq[i] != 0 && (seq[i] - 1) / S == epoch[i / S] -> present++
        :: else -> skip
        fi;
        i++
    :: else -> break
    od;
    assert(present + dropped + overwritten == NW * E)
}

init {
    byte w;
    atomic {
        owner[0] = NONE;
        owner[1] = NONE;
        w = 0;
        do
        :: w < NW -> run writer(w); w++
        :: else -> break
        od;
        run reader();
        run auditor()
    }
}
