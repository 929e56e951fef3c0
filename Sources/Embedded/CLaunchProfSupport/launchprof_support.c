// launchprof_support.c — constructor, ring slow paths, harness protocol.
#define _GNU_SOURCE
#include "launchprof_support.h"
#include <dirent.h>

#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

_Static_assert(sizeof(lp_block_t) == 64, "a block header is one cache line");
_Static_assert(sizeof(lp_ring_t) == 128, "the ring's read-only line and its counters' line");

__thread lp_cursor_t lp_tls_cursor;
lp_ring_t *lp_global_ring;
int lp_enabled;

static uint64_t entry_ns;
static pthread_t main_thread;  // the thread the process-entry constructor ran on
static uint64_t spawn_ns;
static int record_fd = -1;
static const char *trace_path;
static int trace_at_ready;  // LAUNCHPROF_TRACE_AT: 1 = ready (before telling the harness), 2 = after-ready
static uint64_t next_generation = 1;

// MARK: - Environment parsing (no allocation, no locale)

/// Parses a decimal u64; returns 0 and leaves *out alone on any malformed input.
static int parse_u64(const char *text, uint64_t *out) {
    if (text == NULL || *text == '\0') return 0;
    uint64_t value = 0;
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9') return 0;
        uint64_t digit = (uint64_t)(*p - '0');
        if (value > (UINT64_MAX - digit) / 10) return 0;  // overflow
        value = value * 10 + digit;
    }
    *out = value;
    return 1;
}

size_t lp_format_u64(char *buf, uint64_t value) {
    char tmp[21];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + value % 10);
        value /= 10;
    } while (value != 0);
    for (size_t i = 0; i < n; i++) buf[i] = tmp[n - 1 - i];
    return n;
}

// MARK: - Process entry

/// Weak hook defined by the Swift library: writes the trace file at exit.
extern void launchprof_write_trace_at_exit(void) __attribute__((weak));

static int final_trace_claimed;  // atomic

int lp_trace_claim_final_write(void) {
    return __atomic_exchange_n(&final_trace_claimed, 1, __ATOMIC_ACQ_REL) == 0;
}

static void at_exit(void) {
    // A terminating Lifecycle may have written the final trace already.
    if (launchprof_write_trace_at_exit && lp_trace_claim_final_write()) launchprof_write_trace_at_exit();
}

/// Runs before main (and before the constructors of later-initialised code in
/// this image). One clock read; the rest only reads the environment, and acts
/// only when the environment asks: no threads, no sockets, no sleeps.
__attribute__((constructor(101))) static void launchprof_process_entry(void) {
    entry_ns = lp_now_ns();
    main_thread = pthread_self();
    lp_env_capture();

    const char *spawn = lp_env("LAUNCHPROF_SPAWN_NS");
    if (!parse_u64(spawn, &spawn_ns)) spawn_ns = 0;

    // The record descriptor; LAUNCHPROF_READY_FD is its name in harnesses
    // from before records other than "ready" existed, still read.
    uint64_t fd = 0;
    const char *record_fd_text = lp_env(LP_RECORD_FD_VARIABLE);
    if (record_fd_text == NULL) record_fd_text = lp_env("LAUNCHPROF_READY_FD");
    if (parse_u64(record_fd_text, &fd) && fd <= 0x7fffffff &&
        fcntl((int)fd, F_GETFD) != -1) {
        record_fd = (int)fd;
        // Our own children must not hold the harness's record socket.
        fcntl(record_fd, F_SETFD, FD_CLOEXEC);
    }

    const char *path = lp_env("LAUNCHPROF_TRACE");
    if (path != NULL && *path != '\0') {
        trace_path = path;
        atexit(at_exit);
        const char *when = lp_env("LAUNCHPROF_TRACE_AT");
        trace_at_ready = when == NULL ? 0 : strcmp(when, "ready") == 0 ? 1 : strcmp(when, "after-ready") == 0 ? 2 : 0;
    }

    const char *enable = lp_env("LAUNCHPROF_ENABLE");
    int enabled = trace_path != NULL || record_fd >= 0;
    if (enable != NULL && *enable != '\0') enabled = strcmp(enable, "0") != 0;
    lp_enabled = enabled;

    if (record_fd >= 0) {
        // "LP1 entry <ns> <pid>": the harness learns pre-main time even if
        // the program never calls into the library.
        char pid[24];
        lp_harness_record(LP_RECORD_ENTRY, entry_ns, pid, lp_format_u64(pid, (uint64_t)getpid()));
    }
}

uint64_t lp_process_entry_ns(void) { return entry_ns; }
uint64_t lp_spawn_ns(void) { return spawn_ns; }
const char *lp_trace_path(void) { return trace_path; }
int lp_trace_at_ready(void) { return trace_at_ready; }
int lp_harness_connected(void) { return record_fd >= 0; }

uint64_t lp_main_thread_cpu_ns(void) {
    clockid_t clock;
    struct timespec ts;
    if (pthread_getcpuclockid(main_thread, &clock) != 0 || clock_gettime(clock, &ts) != 0) return 0;
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

void lp_harness_main_cpu(uint64_t ns) {
    if (record_fd < 0) return;
    uint64_t cpu = lp_main_thread_cpu_ns();
    if (cpu == 0) return;
    // "LP1 maincpu <ns> <cpu-ns>": a kind older harnesses skip.
    char digits[24];
    lp_harness_record(LP_RECORD_MAIN_CPU, ns, digits, lp_format_u64(digits, cpu));
}

static uint64_t cpu_clock_ns(clockid_t clock) {
    struct timespec ts;
    if (clock_gettime(clock, &ts) != 0) return 0;
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

uint64_t lp_process_cpu_ns(void) { return cpu_clock_ns(CLOCK_PROCESS_CPUTIME_ID); }

// One thread's "/proc/self/task/TID/schedstat": "<on-CPU ns> <waiting ns> <slices>\n".
static int read_schedstat(int dir, const char *tid, uint64_t *on_cpu, uint64_t *waiting) {
    char path[64];
    size_t length = strlen(tid);
    if (length > 20) return -1;
    memcpy(path, tid, length);
    memcpy(path + length, "/schedstat", sizeof "/schedstat");
    int fd = openat(dir, path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char text[96];
    ssize_t got;
    do { got = read(fd, text, sizeof text - 1); } while (got < 0 && errno == EINTR);
    close(fd);
    if (got <= 0) return -1;
    text[got] = 0;
    uint64_t values[2] = {0, 0};
    const char *c = text;
    for (int i = 0; i < 2; i++) {
        while (*c == ' ') c++;
        if (*c < '0' || *c > '9') return -1;
        uint64_t value = 0;
        for (; *c >= '0' && *c <= '9'; c++) {
            if (value > (UINT64_MAX - 9) / 10) return -1;  // not a schedstat line
            value = value * 10 + (uint64_t)(*c - '0');
        }
        values[i] = value;
    }
    *on_cpu = values[0];
    *waiting = values[1];
    return 0;
}

int lp_process_demand_ns(uint64_t *on_cpu, uint64_t *waiting) {
    int dir = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) return -1;
    DIR *listing = fdopendir(dir);
    if (listing == NULL) {
        close(dir);
        return -1;
    }
    uint64_t cpu = 0, wait = 0;
    char self[24];
    self[lp_format_u64(self, (uint64_t)syscall(SYS_gettid))] = 0;
    struct dirent *entry;
    while ((entry = readdir(listing)) != NULL) {
        if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
        if (strcmp(entry->d_name, self) == 0) continue;  // the caller's own wake-up is not demand
        uint64_t one_cpu, one_wait;
        // A thread that ended since the listing is not counted.
        if (read_schedstat(dirfd(listing), entry->d_name, &one_cpu, &one_wait) != 0) continue;
        cpu += one_cpu;
        wait += one_wait;
    }
    closedir(listing);
    *on_cpu = cpu;
    *waiting = wait;
    return 0;
}

uint64_t lp_thread_cpu_ns(void) { return cpu_clock_ns(CLOCK_THREAD_CPUTIME_ID); }

void lp_set_tracing_enabled(int enabled) {
    __atomic_store_n(&lp_enabled, enabled ? 1 : 0, __ATOMIC_RELAXED);
}

// MARK: - Launch milestones

static uint64_t launch_times[2];
static struct { uint64_t ns, name; } milestones[LP_MAX_MILESTONES];
static uint32_t milestone_claimed;  // atomic: slots handed out
static uint32_t milestone_count;    // atomic: slots published, in order

int lp_launch_mark(int slot, uint64_t ns) {
    uint64_t expected = 0;
    return __atomic_compare_exchange_n(&launch_times[slot & 1], &expected, ns, 0,
                                       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

uint64_t lp_launch_time(int slot) { return __atomic_load_n(&launch_times[slot & 1], __ATOMIC_ACQUIRE); }

void lp_milestone_add(uint64_t ns, uint64_t name) {
    uint32_t index = __atomic_fetch_add(&milestone_claimed, 1, __ATOMIC_RELAXED);
    if (index >= LP_MAX_MILESTONES) return;
    milestones[index].ns = ns;
    milestones[index].name = name;
    // Publish in claim order, so readers never see a slot before it is filled.
    uint32_t expected = index;
    while (!__atomic_compare_exchange_n(&milestone_count, &expected, index + 1, 1,
                                        __ATOMIC_RELEASE, __ATOMIC_RELAXED)) {
        expected = index;
    }
}

size_t lp_milestones(uint64_t *ns, uint64_t *names, size_t max) {
    uint32_t count = __atomic_load_n(&milestone_count, __ATOMIC_ACQUIRE);
    size_t n = count < max ? count : max;
    for (size_t i = 0; i < n; i++) {
        ns[i] = milestones[i].ns;
        names[i] = milestones[i].name;
    }
    return n;
}

// MARK: - Thread names

#define LP_MAX_THREAD_NAMES 1024
static lp_thread_name_t thread_names[LP_MAX_THREAD_NAMES];
static uint32_t thread_name_count;  // atomic

static void remember_thread(uint32_t tid) {
    uint32_t index = __atomic_fetch_add(&thread_name_count, 1, __ATOMIC_RELAXED);
    if (index >= LP_MAX_THREAD_NAMES) return;  // table full: the name is unknown, not wrong
    lp_thread_name_t *entry = &thread_names[index];
    char name[16] = {0};
    prctl(PR_GET_NAME, name, 0, 0, 0);
    memcpy(entry->name, name, sizeof name);
    __atomic_store_n(&entry->tid, tid, __ATOMIC_RELEASE);
}

uint32_t lp_thread_id(void) {
    lp_cursor_t *cursor = &lp_tls_cursor;
    if (cursor->tid == 0) cursor->tid = (uint32_t)syscall(SYS_gettid);
    return cursor->tid;
}

/// Reads /proc/self/task/<tid>/comm into `name` (15 chars max); 0 on failure.
static int read_comm(uint32_t tid, char name[16]) {
    char path[64] = "/proc/self/task/";
    size_t n = 16;
    n += lp_format_u64(path + n, tid);
    memcpy(path + n, "/comm", 6);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char buf[32];
    ssize_t got = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (got <= 0) return 0;
    if (buf[got - 1] == '\n') got--;
    if (got > 15) got = 15;
    memset(name, 0, 16);
    memcpy(name, buf, (size_t)got);
    return 1;
}

void lp_set_thread_name(const char *name) {
    char truncated[16] = {0};
    strncpy(truncated, name, sizeof truncated - 1);
    prctl(PR_SET_NAME, truncated, 0, 0, 0);
}

size_t lp_thread_names(lp_thread_name_t *out, size_t max) {
    uint32_t count = __atomic_load_n(&thread_name_count, __ATOMIC_ACQUIRE);
    if (count > LP_MAX_THREAD_NAMES) count = LP_MAX_THREAD_NAMES;
    size_t written = 0;
    for (uint32_t i = 0; i < count && written < max; i++) {
        uint32_t tid = __atomic_load_n(&thread_names[i].tid, __ATOMIC_ACQUIRE);
        if (tid == 0) continue;  // being filled in right now
        out[written].tid = tid;
        // A live thread may have been renamed since it first recorded.
        if (!read_comm(tid, out[written].name)) {
            memcpy(out[written].name, thread_names[i].name, 16);
        }
        out[written].name[15] = '\0';
        written++;
    }
    return written;
}

// MARK: - Rings

// Live rings, so that a thread leaving a ring (for another ring, or at exit)
// gives its block back only if the ring still exists. Slow path only: a
// thread takes this lock when it moves between rings or exits, never per event.
static pthread_mutex_t live_rings_lock = PTHREAD_MUTEX_INITIALIZER;
static lp_ring_t *live_rings;

static size_t slot_bytes(uint64_t capacity) { return (size_t)capacity * sizeof(lp_slot_t); }

lp_ring_t *lp_ring_create(uint64_t capacity, uint32_t policy) {
    if (capacity == 0) capacity = LP_BLOCK_EVENTS;
    if (capacity > (UINT64_C(1) << 32)) return NULL;
    uint64_t block_events = capacity >= LP_LARGE_RING_EVENTS ? LP_BLOCK_EVENTS_LARGE : LP_BLOCK_EVENTS;
    capacity = (capacity + block_events - 1) / block_events * block_events;
    // Cache-line aligned, so the read-only line and the counters' never share one.
    lp_ring_t *ring = aligned_alloc(64, sizeof *ring);
    if (ring == NULL) return NULL;
    memset(ring, 0, sizeof *ring);
    // Zero pages, touched only when used, and page-aligned: every block
    // (48 cache lines) starts on a line of its own, so two threads filling
    // neighbouring blocks never write one line (calloc's mapping starts 16
    // bytes into a page, which made each block's last line its successor's
    // first).
    void *slots = mmap(NULL, slot_bytes(capacity), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ring->slots = slots == MAP_FAILED ? NULL : slots;
    size_t headers = capacity / block_events * sizeof(lp_block_t);  // a multiple of 64
    ring->blocks = aligned_alloc(64, headers);
    if (ring->blocks != NULL) memset(ring->blocks, 0, headers);
    if (ring->slots == NULL || ring->blocks == NULL) {
        if (ring->slots != NULL) munmap(ring->slots, slot_bytes(capacity));
        free(ring->blocks);
        free(ring);
        return NULL;
    }
    ring->capacity = capacity;
    ring->block_count = capacity / block_events;
    ring->block_events = (uint32_t)block_events;
    ring->policy = policy == LP_POLICY_OVERWRITE_OLDEST ? LP_POLICY_OVERWRITE_OLDEST
                                                        : LP_POLICY_DROP_NEWEST;
    ring->generation = __atomic_fetch_add(&next_generation, 1, __ATOMIC_RELAXED);
    pthread_mutex_lock(&live_rings_lock);
    ring->live_next = live_rings;
    live_rings = ring;
    pthread_mutex_unlock(&live_rings_lock);
    return ring;
}

void lp_ring_destroy(lp_ring_t *ring) {
    if (ring == NULL) return;
    pthread_mutex_lock(&live_rings_lock);
    for (lp_ring_t **link = &live_rings; *link != NULL; link = &(*link)->live_next) {
        if (*link == ring) {
            *link = ring->live_next;
            break;
        }
    }
    pthread_mutex_unlock(&live_rings_lock);
    munmap(ring->slots, slot_bytes(ring->capacity));
    free(ring->blocks);
    free(ring);
}

lp_ring_t *lp_global_ring_install(lp_ring_t *ring) {
    lp_ring_t *expected = NULL;
    if (__atomic_compare_exchange_n(&lp_global_ring, &expected, ring, 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        return ring;
    }
    return expected;
}

lp_ring_t *lp_global_ring_ensure(void) {
    lp_ring_t *ring = __atomic_load_n(&lp_global_ring, __ATOMIC_ACQUIRE);
    if (ring != NULL) return ring;
    uint64_t capacity = LP_DEFAULT_RING_EVENTS;
    uint64_t requested;
    if (parse_u64(lp_env("LAUNCHPROF_BUFFER_EVENTS"), &requested) && requested > 0) {
        capacity = requested;
    }
    const char *policy_text = lp_env("LAUNCHPROF_BUFFER_POLICY");
    uint32_t policy = (policy_text && strcmp(policy_text, "overwrite-oldest") == 0)
                          ? LP_POLICY_OVERWRITE_OLDEST
                          : LP_POLICY_DROP_NEWEST;
    lp_ring_t *created = lp_ring_create(capacity, policy);
    if (created == NULL) return NULL;
    lp_ring_t *installed = lp_global_ring_install(created);
    if (installed != created) lp_ring_destroy(created);  // another thread won
    return installed;
}

/// Gives the cursor's block back to its ring: the count of events committed
/// in it, then the state, with release order, so that whoever takes the block
/// next (with acquire order) sees every store of this owner before its own.
static void release_block(lp_cursor_t *cursor) {
    lp_block_t *block = cursor->block;
    if (block == NULL) return;
    // next - start events were committed.
    uint32_t count = (uint32_t)(cursor->next - cursor->start);
    __atomic_store_n(&block->count, count, __ATOMIC_RELAXED);
    __atomic_store_n(&block->state, LP_BLOCK_RELEASED, __ATOMIC_RELEASE);
    cursor->block = NULL;
    cursor->next = cursor->end = cursor->start = NULL;
}

/// Releases the cursor's block in a ring this thread no longer records into,
/// if that ring still exists (it cannot be freed while the lock is held).
static void release_abandoned_block(lp_cursor_t *cursor) {
    if (cursor->block == NULL) return;
    pthread_mutex_lock(&live_rings_lock);
    for (lp_ring_t *ring = live_rings; ring != NULL; ring = ring->live_next) {
        if (ring->generation == cursor->generation) {
            release_block(cursor);
            break;
        }
    }
    pthread_mutex_unlock(&live_rings_lock);
    cursor->block = NULL;
    cursor->next = cursor->end = cursor->start = NULL;
}

static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;
static __thread int exit_watched;

/// At thread exit, the thread's block goes back into rotation (a thread that
/// records again from a later destructor is watched again: glibc calls the
/// destructors of keys set anew, up to PTHREAD_DESTRUCTOR_ITERATIONS times).
static void release_at_exit(void *cursor) {
    exit_watched = 0;
    release_abandoned_block(cursor);
}

static void create_exit_key(void) { pthread_key_create(&exit_key, release_at_exit); }

/// Arranges for the calling thread's block to be released when it exits.
static void watch_thread_exit(lp_cursor_t *cursor) {
    if (exit_watched) return;
    exit_watched = 1;
    pthread_once(&exit_key_once, create_exit_key);
    pthread_setspecific(exit_key, cursor);
}

/// Takes a block for the cursor, or returns 0 (the event is dropped).
static int claim_block(lp_ring_t *ring, lp_cursor_t *cursor) {
    uint64_t blocks = ring->block_count;
    uint64_t block_events = ring->block_events;
    if (ring->policy == LP_POLICY_DROP_NEWEST) {
        uint64_t number = __atomic_fetch_add(&ring->claimed, 1, __ATOMIC_RELAXED);
        if (number >= blocks) {
            cursor->full = 1;
            return 0;
        }
        lp_block_t *block = &ring->blocks[number];
        // Only this thread has `number`; a reader that sees OWNED sees the epoch.
        __atomic_store_n(&block->epoch, number, __ATOMIC_RELAXED);
        __atomic_store_n(&block->state, LP_BLOCK_OWNED, __ATOMIC_RELEASE);
        cursor->block = block;
        cursor->start = cursor->next = &ring->slots[number * block_events];
        cursor->end = cursor->next + block_events;
        cursor->seq = number * block_events + 1;  // commit markers are claim numbers: never 0, never reused
        return 1;
    }
    // Overwrite oldest: the next block in claim order, unless its owner still
    // writes into it (lapped, preempted or idle): then it is skipped, and the
    // one after is tried. More owners than blocks: after a lap, the event is
    // dropped. With B blocks and T threads, at most min(B, T + 1) tries.
    for (uint64_t attempt = 0; attempt < blocks; attempt++) {
        uint64_t number = __atomic_fetch_add(&ring->claimed, 1, __ATOMIC_RELAXED);
        uint64_t index = number % blocks;
        lp_block_t *block = &ring->blocks[index];
        uint32_t state = __atomic_load_n(&block->state, __ATOMIC_RELAXED);
        if (state == LP_BLOCK_OWNED) continue;
        // Acquire: the previous owner's stores happen before ours.
        if (!__atomic_compare_exchange_n(&block->state, &state, LP_BLOCK_OWNED, 0, __ATOMIC_ACQUIRE,
                                         __ATOMIC_RELAXED)) {
            continue;  // another thread took it first
        }
        lp_slot_t *first = &ring->slots[index * block_events];
        if (state == LP_BLOCK_RELEASED) {
            // Counted on the block's own line, which the CAS just took: a
            // plain add (only the owner writes it), not a locked one on the
            // ring's shared counters.
            uint32_t replaced = __atomic_load_n(&block->count, __ATOMIC_RELAXED);
            uint64_t lost = __atomic_load_n(&block->overwritten, __ATOMIC_RELAXED);
            if (replaced) __atomic_store_n(&block->overwritten, lost + replaced, __ATOMIC_RELAXED);
        }
        // The new epoch before any new field (a seqlock's writer side): a
        // reader that copies a new field then sees an epoch other than the
        // one it started with, and the old markers no longer match the block.
        // A release store orders what comes before it, not after: a fence.
        __atomic_store_n(&block->epoch, number, __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_RELEASE);
        cursor->block = block;
        cursor->start = cursor->next = first;
        cursor->end = first + block_events;
        cursor->seq = number * block_events + 1;
        return 1;
    }
    return 0;
}

lp_slot_t *lp_ring_claim_slow(lp_ring_t *ring, lp_cursor_t *cursor) {
    if (ring == NULL) {
        ring = lp_global_ring_ensure();
        if (ring == NULL) return NULL;
    }
    if (cursor->tid == 0) cursor->tid = (uint32_t)syscall(SYS_gettid);
    if (cursor->generation != ring->generation) {
        // First event of this thread in this ring.
        if (ring == __atomic_load_n(&lp_global_ring, __ATOMIC_ACQUIRE)) {
            static __thread uint64_t named_generation;
            if (named_generation == 0) {
                named_generation = ring->generation;
                remember_thread(cursor->tid);
            }
        }
        release_abandoned_block(cursor);
        cursor->generation = ring->generation;
        cursor->full = 0;
    } else {
        release_block(cursor);  // full
    }
    watch_thread_exit(cursor);
    if (cursor->full || !claim_block(ring, cursor)) {
        __atomic_fetch_add(&ring->dropped, 1, __ATOMIC_RELAXED);
        return NULL;
    }
    lp_slot_t *slot = cursor->next;
    cursor->next = slot + 1;
    return slot;
}

lp_ring_stats_t lp_ring_stats(const lp_ring_t *ring) {
    lp_ring_stats_t stats = {0};
    if (ring == NULL) return stats;
    stats.capacity = ring->capacity;
    stats.claimed = __atomic_load_n(&ring->claimed, __ATOMIC_ACQUIRE);
    stats.dropped = __atomic_load_n(&ring->dropped, __ATOMIC_ACQUIRE);
    // Only recycled blocks have overwritten events; a block past the claims
    // so far was never claimed.
    uint64_t blocks = stats.claimed < ring->block_count ? stats.claimed : ring->block_count;
    for (uint64_t b = 0; b < blocks; b++) {
        stats.overwritten += __atomic_load_n(&ring->blocks[b].overwritten, __ATOMIC_RELAXED);
    }
    stats.policy = ring->policy;
    return stats;
}

/// Copies slot `index` of a block whose epoch was `epoch` when the copy began,
/// if it holds an event committed in that epoch that stays the same while it
/// is copied (a seqlock's reader side); returns 0 otherwise.
static int copy_event(const lp_block_t *block, uint64_t epoch, uint64_t block_events, const lp_slot_t *slot,
                      lp_event_t *out) {
    uint64_t seq = __atomic_load_n(&slot->seq, __ATOMIC_ACQUIRE);
    // 0: never written. Another claim's marker: committed before the block
    // was recycled (that event is counted as overwritten), or after the epoch
    // was read.
    if (seq == 0 || (seq - 1) / block_events != epoch) return 0;
    out->ts = __atomic_load_n(&slot->ts, __ATOMIC_RELAXED);
    out->name = __atomic_load_n(&slot->name, __ATOMIC_RELAXED);
    out->id = __atomic_load_n(&slot->id, __ATOMIC_RELAXED);
    out->arg = __atomic_load_n(&slot->arg, __ATOMIC_RELAXED);
    uint64_t meta = __atomic_load_n(&slot->meta, __ATOMIC_RELAXED);
    // The copy's loads stay before the epoch's second load (an acquire load
    // orders what comes after it, not what came before). Within one epoch a
    // slot is written once, before its marker: only a new epoch, stored
    // before any of its fields, can change what was copied, so the marker
    // needs no second look.
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (__atomic_load_n(&block->epoch, __ATOMIC_RELAXED) != epoch) return 0;  // recycled meanwhile
    out->tid = (uint32_t)meta;
    out->kind = (uint8_t)(meta >> 32);
    out->flags = (uint8_t)(meta >> 40);
    out->category = (uint16_t)(meta >> 48);
    out->seq = seq;
    return 1;
}

size_t lp_ring_snapshot(const lp_ring_t *ring, lp_event_t *out, size_t max) {
    if (ring == NULL) return 0;
    uint64_t claimed = __atomic_load_n(&ring->claimed, __ATOMIC_ACQUIRE);
    uint64_t blocks = claimed < ring->block_count ? claimed : ring->block_count;
    uint64_t block_events = ring->block_events;
    size_t written = 0;
    for (uint64_t b = 0; b < blocks && written < max; b++) {
        const lp_block_t *block = &ring->blocks[b];
        if (__atomic_load_n(&block->state, __ATOMIC_ACQUIRE) == LP_BLOCK_FREE) continue;
        uint64_t epoch = __atomic_load_n(&block->epoch, __ATOMIC_ACQUIRE);
        const lp_slot_t *slots = &ring->slots[b * block_events];
        for (uint64_t i = 0; i < block_events && written < max; i++) {
            written += (size_t)copy_event(block, epoch, block_events, &slots[i], &out[written]);
        }
    }
    return written;
}

// MARK: - Harness protocol

int lp_harness_write(const char *buf, size_t len) {
    if (record_fd < 0) return -1;
    for (;;) {
        ssize_t n = write(record_fd, buf, len);
        if (n == (ssize_t)len) return 0;
        if (n < 0 && errno == EINTR) continue;
        return -1;  // pipe closed or short write: the harness is gone
    }
}

void lp_harness_record(const char *kind, uint64_t ns, const char *name, size_t name_len) {
    if (record_fd < 0) return;
    char line[1100];
    size_t n = 0;
    memcpy(line, LP_RECORD_VERSION " ", sizeof LP_RECORD_VERSION);
    n = sizeof LP_RECORD_VERSION;
    size_t kind_len = strlen(kind);
    if (kind_len > 32) kind_len = 32;
    memcpy(line + n, kind, kind_len);
    n += kind_len;
    line[n++] = ' ';
    n += lp_format_u64(line + n, ns);
    if (name != NULL) {
        if (name_len > 1024) name_len = 1024;
        line[n++] = ' ';
        for (size_t i = 0; i < name_len; i++) {
            unsigned char c = (unsigned char)name[i];
            line[n++] = (c < 0x20 || c == 0x7f) ? ' ' : (char)c;
        }
    }
    line[n++] = '\n';
    lp_harness_write(line, n);
}

int lp_sd_notify(const char *state) {
    const char *path = getenv("NOTIFY_SOCKET");
    if (path == NULL || *path == '\0') return 1;
    size_t len = strlen(path);
    struct sockaddr_un addr;
    memset(&addr, 0, sizeof addr);
    addr.sun_family = AF_UNIX;
    if ((path[0] != '/' && path[0] != '@') || len >= sizeof addr.sun_path) {
        errno = EINVAL;
        return -1;
    }
    memcpy(addr.sun_path, path, len);
    if (path[0] == '@') addr.sun_path[0] = '\0';  // abstract namespace
    socklen_t addr_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len);
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    ssize_t sent;
    do {
        sent = sendto(fd, state, strlen(state), MSG_NOSIGNAL, (struct sockaddr *)&addr,
                      addr_len);
    } while (sent < 0 && errno == EINTR);
    int saved = errno;
    close(fd);
    errno = saved;
    return sent < 0 ? -1 : 0;
}
