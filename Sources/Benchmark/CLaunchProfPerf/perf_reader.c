// perf_reader.c — the sample sink, read whole and checked: its header, then
// every record (struct perf_event_header and its body) parsed in the
// kernel's field order for the header's sample_type. Every size is checked
// against the record and the file before anything is read; a malformed
// file is an error that names the record's byte offset.
#define _GNU_SOURCE
#include "perf_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

// PERF_SAMPLE_* bits (linux/perf_event.h), spelled here so that an older
// kernel header does not matter.
enum {
    S_IP = 1u << 0, S_TID = 1u << 1, S_TIME = 1u << 2, S_ADDR = 1u << 3, S_READ = 1u << 4,
    S_CALLCHAIN = 1u << 5, S_ID = 1u << 6, S_CPU = 1u << 7, S_PERIOD = 1u << 8, S_STREAM_ID = 1u << 9,
    S_RAW = 1u << 10, S_BRANCH_STACK = 1u << 11, S_REGS_USER = 1u << 12, S_STACK_USER = 1u << 13,
    S_IDENTIFIER = 1u << 16, S_REGS_INTR = 1u << 18,
};
/// Every bit up to WEIGHT_STRUCT (1 << 24) is known; the fields after the
/// user stack are never read, so any of them may be set.
#define S_KNOWN ((1ull << 25) - 1)
/// Known, but their layout depends on attributes the sink does not record.
#define S_UNREADABLE ((uint64_t)(S_READ | S_BRANCH_STACK | S_REGS_INTR))

int lp_perf_fail(lp_perf_error_t *error, const char *format, ...) {
    if (error->set || error->text == NULL || error->capacity == 0) return -1;
    error->set = 1;
    int n = snprintf(error->text, error->capacity, "%s: ", error->path);
    if (n >= 0 && (size_t)n < error->capacity) {
        va_list arguments;
        va_start(arguments, format);
        vsnprintf(error->text + n, error->capacity - (size_t)n, format, arguments);
        va_end(arguments);
    }
    return -1;
}

static uint64_t u64_at(const uint8_t *at) {
    uint64_t v;
    memcpy(&v, at, 8);
    return v;
}
static uint32_t u32_at(const uint8_t *at) {
    uint32_t v;
    memcpy(&v, at, 4);
    return v;
}

/// A bounded reader of one record's body.
typedef struct {
    const uint8_t *at, *end;
} cursor_t;

static int take(cursor_t *c, size_t count, const uint8_t **out) {
    if ((size_t)(c->end - c->at) < count) return -1;
    *out = c->at;
    c->at += count;
    return 0;
}
static int take_u64(cursor_t *c, uint64_t *out) {
    const uint8_t *at;
    if (take(c, 8, &at) != 0) return -1;
    *out = u64_at(at);
    return 0;
}

/// The sink's bytes, read from its start with pread: the descriptor may be
/// the one the spawner wrote through, its offset at the end.
static int read_descriptor(int fd, lp_perf_sink_t *sink, lp_perf_error_t *error) {
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return lp_perf_fail(error, "the sample sink is not a regular file");
    size_t capacity = (size_t)st.st_size, size = 0;
    sink->bytes = malloc(capacity ? capacity : 1);
    if (sink->bytes == NULL) return lp_perf_fail(error, "no memory for the sample sink's %zu bytes", capacity);
    // The file's size when it was opened: bytes appended later are not read.
    while (size < capacity) {
        ssize_t n = pread(fd, sink->bytes + size, capacity - size, (off_t)size);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return lp_perf_fail(error, "cannot read the sample sink: %s", strerror(errno));
        if (n == 0) break;
        size += (size_t)n;
    }
    sink->size = size;
    return 0;
}

int lp_perf_open_sink(const char *path, lp_perf_error_t *error) {
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) return lp_perf_fail(error, "cannot open the sample sink: %s", strerror(errno));
    return fd;
}

static int check_header(lp_perf_sink_t *sink, lp_perf_error_t *error) {
    struct lp_perf_sink_header *h = &sink->header;
    if (sink->size < sizeof *h)
        return lp_perf_fail(error, "the sample sink is %zu bytes, shorter than its %zu-byte header", sink->size,
                            sizeof *h);
    memcpy(h, sink->bytes, sizeof *h);
    if (memcmp(h->magic, LP_PERF_SINK_MAGIC, sizeof h->magic) != 0)
        return lp_perf_fail(error, "not a sample sink (its first 8 bytes are not \"%s\")", LP_PERF_SINK_MAGIC);
    if (h->version != LP_PERF_SINK_VERSION)
        return lp_perf_fail(error, "the sample sink is version %u (known: %u)", h->version, LP_PERF_SINK_VERSION);
    if (h->header_size < sizeof *h || h->header_size > sink->size)
        return lp_perf_fail(error, "the sample sink's header size is %u (at least %zu, within the file's %zu bytes)",
                            h->header_size, sizeof *h, sink->size);
    if (h->clock != CLOCK_MONOTONIC)
        return lp_perf_fail(error, "the sample sink's records are timed on clock %u (known: CLOCK_MONOTONIC, %d)",
                            h->clock, CLOCK_MONOTONIC);
    uint64_t type = h->sample_type;
    if (type & ~S_KNOWN)
        return lp_perf_fail(error, "the sample sink's sample_type 0x%llx has unknown bits 0x%llx", (unsigned long long)type,
                            (unsigned long long)(type & ~S_KNOWN));
    if (type & S_UNREADABLE)
        return lp_perf_fail(error, "the sample sink's sample_type 0x%llx has READ, BRANCH_STACK or REGS_INTR, whose "
                            "layout the sink does not describe", (unsigned long long)type);
    if ((type & (S_IP | S_TID | S_TIME)) != (S_IP | S_TID | S_TIME))
        return lp_perf_fail(error, "the sample sink's sample_type 0x%llx lacks IP, TID or TIME", (unsigned long long)type);
    sink->regs_count = (type & S_REGS_USER) ? (uint32_t)__builtin_popcountll(h->regs_user_mask) : 0;
    return 0;
}

/// The sample_id_all trailer of a non-sample record: its pid, tid and time.
static int trailer(const lp_perf_sink_t *sink, cursor_t *body, lp_perf_item_t *item) {
    uint64_t type = sink->header.sample_type;
    size_t fields = 2 + !!(type & S_ID) + !!(type & S_STREAM_ID) + !!(type & S_CPU) + !!(type & S_IDENTIFIER);
    if ((size_t)(body->end - body->at) < fields * 8) return -1;
    body->end -= fields * 8;  // the trailer is the record's end
    item->pid = u32_at(body->end);
    item->tid = u32_at(body->end + 4);
    item->time = u64_at(body->end + 8);
    return 0;
}

/// A NUL-terminated string from `c` to the end of its body.
static const char *string_in(cursor_t *c) {
    size_t room = (size_t)(c->end - c->at);
    if (room == 0 || memchr(c->at, '\0', room) == NULL) return NULL;
    return (const char *)c->at;
}

static const char *parse_sample(const lp_perf_sink_t *sink, cursor_t *c, lp_perf_item_t *item) {
    uint64_t type = sink->header.sample_type, skip;
    const uint8_t *at;
    if ((type & S_IDENTIFIER) && take_u64(c, &skip)) return "its identifier";
    if (take_u64(c, &item->ip)) return "its IP";
    if (take(c, 8, &at)) return "its pid and tid";
    item->pid = u32_at(at);
    item->tid = u32_at(at + 4);
    if (take_u64(c, &item->time)) return "its time";
    if ((type & S_ADDR) && take_u64(c, &skip)) return "its address";
    if ((type & S_ID) && take_u64(c, &skip)) return "its id";
    if ((type & S_STREAM_ID) && take_u64(c, &skip)) return "its stream id";
    if ((type & S_CPU) && take_u64(c, &skip)) return "its CPU";
    if ((type & S_PERIOD) && take_u64(c, &skip)) return "its period";
    if (type & S_CALLCHAIN) {
        uint64_t nr;
        if (take_u64(c, &nr) || nr > (uint64_t)(c->end - c->at) / 8 || take(c, nr * 8, &at)) return "its callchain";
    }
    if (type & S_RAW) {
        const uint8_t *size;
        if (take(c, 4, &size) || take(c, u32_at(size), &at)) return "its raw data";
    }
    if (type & S_REGS_USER) {
        uint64_t abi;
        if (take_u64(c, &abi)) return "its register ABI";
        if (abi > 2) return "a register ABI it has (known: 0 none, 1 32-bit, 2 64-bit)";
        if (abi != 0) {
            if (take(c, (size_t)sink->regs_count * 8, &item->regs)) return "its registers";
            if (abi == 1) item->bad_stack = 1;  // a 32-bit process: not walked
        }
    }
    if (type & S_STACK_USER) {
        uint64_t size, dyn_size = 0;
        const uint8_t *data;
        if (take_u64(c, &size) || size > (uint64_t)(c->end - c->at) || take(c, size, &data))
            return "its stack copy";
        if (size != 0 && take_u64(c, &dyn_size)) return "its stack copy's dynamic size";
        item->stack = data;
        item->stack_size = dyn_size <= size ? dyn_size : 0;
        if (dyn_size > size) item->bad_stack = 1;  // counted as a failed walk
    }
    // Taken in the kernel: the kernel's PC says nothing of the program (and
    // no module maps it); the user registers' PC, where the thread entered
    // the kernel, leads its stack. Without registers the PC alone is kept.
    if ((item->misc & LP_PERF_MISC_CPUMODE_MASK) == LP_PERF_MISC_KERNEL) {
        item->in_kernel = 1;
        uint64_t mask = sink->header.regs_user_mask;
        if (item->regs != NULL && LP_REGS_IP < 64 && (mask >> LP_REGS_IP) & 1) {
            size_t slot = (size_t)__builtin_popcountll(mask & ((1ull << LP_REGS_IP) - 1));
            item->ip = u64_at(item->regs + slot * 8);
        } else {
            item->bad_stack = 1;
        }
    }
    return NULL;
}

/// One record: 1 when it became an item, 0 when only counted, -1 on error.
static int parse_record(lp_perf_sink_t *sink, size_t offset, uint16_t type, uint16_t misc, cursor_t c,
                        lp_perf_item_t *item, lp_perf_error_t *error) {
    memset(item, 0, sizeof *item);
    item->type = type;
    item->misc = misc;
    const uint8_t *at;
    if (type == LP_PERF_RECORD_SAMPLE) {
        sink->samples++;
        const char *bad = parse_sample(sink, &c, item);
        if (bad != NULL) return lp_perf_fail(error, "the sample at byte %zu runs past its end in %s", offset, bad);
        return 1;
    }
    if (type == LP_PERF_RECORD_MAPS_MISSED) {
        sink->maps_missed = 1;
        return 0;
    }
    if (type == LP_PERF_RECORD_TASK_CLOCK) {
        // The spawner's own record (launchprof_spawn.h): two values, no
        // sample id.
        if (take_u64(&c, &sink->task_clock_ns) || take_u64(&c, &sink->stopped_ns))
            return lp_perf_fail(error, "the task-clock record at byte %zu is too short", offset);
        return 0;
    }
    int known = type == LP_PERF_RECORD_MMAP || type == LP_PERF_RECORD_MMAP2 || type == LP_PERF_RECORD_COMM ||
                type == LP_PERF_RECORD_FORK || type == LP_PERF_RECORD_EXIT || type == LP_PERF_RECORD_LOST ||
                type == LP_PERF_RECORD_THROTTLE || type == LP_PERF_RECORD_LOST_SAMPLES;
    if (!known) return 0;  // other records (UNTHROTTLE, ...) are not needed
    if (trailer(sink, &c, item) != 0)
        return lp_perf_fail(error, "the record of type %u at byte %zu is too short for its sample id", type, offset);
    uint64_t lost;
    switch (type) {
    case LP_PERF_RECORD_LOST:
        if (take(&c, 8, &at) || take_u64(&c, &lost)) break;
        sink->lost_records++;
        sink->lost_samples += lost;
        return 0;
    case LP_PERF_RECORD_LOST_SAMPLES:
        if (take_u64(&c, &lost)) break;
        sink->lost_samples += lost;
        return 0;
    case LP_PERF_RECORD_THROTTLE:
        if (take(&c, 24, &at)) break;
        sink->throttled++;
        return 0;
    case LP_PERF_RECORD_COMM:
        if (take(&c, 8, &at) || (item->name = string_in(&c)) == NULL) break;
        item->pid = u32_at(at);
        item->tid = u32_at(at + 4);
        return 1;
    case LP_PERF_RECORD_FORK:
    case LP_PERF_RECORD_EXIT:
        if (take(&c, 24, &at)) break;
        item->pid = u32_at(at);
        item->addr = u32_at(at + 4);  // ppid
        item->tid = u32_at(at + 8);
        item->length = u32_at(at + 12);  // ptid
        return 1;
    default:  // MMAP, MMAP2
        if (take(&c, 32, &at)) break;
        item->pid = u32_at(at);
        item->tid = u32_at(at + 4);
        item->addr = u64_at(at + 8);
        item->length = u64_at(at + 16);
        item->pgoff = u64_at(at + 24);
        item->prot = 4;  // PROT_EXEC: MMAP reports executable mappings only
        if (type == LP_PERF_RECORD_MMAP2) {
            if (take(&c, 32, &at)) break;
            if ((misc & LP_PERF_MISC_MMAP_BUILD_ID) && at[0] <= 20) {
                item->build_id_size = at[0];
                item->build_id = at + 4;
            }
            item->prot = u32_at(at + 24);
        }
        if ((item->name = string_in(&c)) == NULL) break;
        if (item->addr + item->length < item->addr) break;
        return 1;
    }
    return lp_perf_fail(error, "the record of type %u at byte %zu is malformed (a field runs past its end, or its "
                        "name is not terminated)", type, offset);
}

static int compare_items(const void *a, const void *b) {
    const lp_perf_item_t *x = a, *y = b;
    if (x->time != y->time) return x->time < y->time ? -1 : 1;
    // At one instant, what changes the mappings goes before the samples.
    int xs = x->type == LP_PERF_RECORD_SAMPLE, ys = y->type == LP_PERF_RECORD_SAMPLE;
    if (xs != ys) return xs - ys;
    return x->order < y->order ? -1 : x->order > y->order;
}

int lp_perf_read_sink(int fd, lp_perf_sink_t *sink, lp_perf_error_t *error) {
    memset(sink, 0, sizeof *sink);
    if (read_descriptor(fd, sink, error) != 0 || check_header(sink, error) != 0) return -1;
    size_t offset = sink->header.header_size, capacity = 0;
    while (offset < sink->size) {
        if (sink->count == capacity) {
            size_t grown = capacity ? capacity * 2 : 1024;
            lp_perf_item_t *items = realloc(sink->items, grown * sizeof *items);
            if (items == NULL) return lp_perf_fail(error, "no memory for the sample sink's records");
            sink->items = items;
            capacity = grown;
        }
        if (sink->size - offset < 8)
            return lp_perf_fail(error, "the sample sink ends in the middle of a record header at byte %zu", offset);
        uint32_t type = u32_at(sink->bytes + offset);
        uint16_t misc, size;
        memcpy(&misc, sink->bytes + offset + 4, 2);
        memcpy(&size, sink->bytes + offset + 6, 2);
        if (size < 8)
            return lp_perf_fail(error, "the record at byte %zu declares %u bytes, less than its 8-byte header", offset,
                                size);
        if (size > sink->size - offset)
            return lp_perf_fail(error, "the record at byte %zu declares %u bytes but only %zu remain in the file",
                                offset, size, sink->size - offset);
        cursor_t body = {sink->bytes + offset + 8, sink->bytes + offset + size};
        lp_perf_item_t *item = &sink->items[sink->count];
        int made = type > UINT16_MAX ? 0 : parse_record(sink, offset, (uint16_t)type, misc, body, item, error);
        if (made < 0) return -1;
        if (made) item->order = (uint32_t)sink->count++;
        offset += size;
    }
    if (sink->count > 1) qsort(sink->items, sink->count, sizeof *sink->items, compare_items);
    return 0;
}

void lp_perf_free_sink(lp_perf_sink_t *sink) {
    free(sink->items);
    free(sink->bytes);
    memset(sink, 0, sizeof *sink);
}
