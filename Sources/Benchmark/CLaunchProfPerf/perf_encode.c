// perf_encode.c — lp_perf_encode_sections: the sink's records replayed in
// time order (mappings, execs, forks and names change as they did during the
// run, and each sample is walked against its process's mappings at its
// time), then the samples and modules sections written by the in-process
// sampler's own encoder (lp_sampler_encode), with timer mode
// LP_SAMPLER_TIMER_KERNEL.
#define _GNU_SOURCE
#include "perf_internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

typedef struct {
    uint8_t *bytes;
    uint64_t size, capacity, count;
} records_t;

static int append(records_t *records, const lp_sample_record_t *header, const uint64_t *frames) {
    uint64_t frames_size = (uint64_t)header->depth * 8;
    while (records->capacity - records->size < header->size) {
        uint64_t capacity = records->capacity ? records->capacity * 2 : 1u << 20;
        uint8_t *grown = realloc(records->bytes, capacity);
        if (grown == NULL) return -1;
        records->bytes = grown;
        records->capacity = capacity;
    }
    memcpy(records->bytes + records->size, header, sizeof *header);
    memcpy(records->bytes + records->size + sizeof *header, frames, frames_size);
    records->size += header->size;
    records->count++;
    return 0;
}

static int compare_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/// The thread table: every tid with a kept sample, named as it was last
/// named before the window's end (COMM), or as its creator was when it was
/// created (FORK).
static lp_sampler_thread_name_t *thread_table(const lp_perf_state_t *state, const records_t *records, uint32_t *count) {
    *count = 0;
    uint32_t *tids = malloc((records->count ? records->count : 1) * sizeof *tids);
    if (tids == NULL) return NULL;
    uint64_t n = 0;
    for (uint64_t offset = 0; offset < records->size; n++) {
        lp_sample_record_t record;
        memcpy(&record, records->bytes + offset, sizeof record);
        tids[n] = record.tid;
        offset += record.size;
    }
    qsort(tids, n, sizeof *tids, compare_u32);
    lp_sampler_thread_name_t *table = calloc(n ? n : 1, sizeof *table);
    if (table != NULL) {
        for (uint64_t i = 0; i < n; i++) {
            if (i > 0 && tids[i] == tids[i - 1]) continue;
            lp_sampler_thread_name_t *entry = &table[(*count)++];
            entry->tid = tids[i];
            const lp_perf_thread_t *thread = lp_perf_find_thread(state, tids[i]);
            if (thread != NULL) memcpy(entry->name, thread->name, sizeof entry->name);
        }
    }
    free(tids);
    return table;
}

/// Whether `text` is UTF-8 (no overlong forms, surrogates or values past
/// U+10FFFF), as the trace reader insists of module paths.
static int is_utf8(const char *text) {
    const unsigned char *at = (const unsigned char *)text;
    while (*at) {
        unsigned char c = *at;
        int more = c < 0x80 ? 0 : (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xe ? 2 : (c >> 3) == 0x1e ? 3 : -1;
        if (more < 0) return 0;
        uint32_t value = more == 0 ? c : c & (0x3f >> more);
        for (int i = 1; i <= more; i++) {
            if ((at[i] & 0xc0) != 0x80) return 0;
            value = value << 6 | (at[i] & 0x3f);
        }
        static const uint32_t least[] = {0, 0x80, 0x800, 0x10000};
        if (value < least[more] || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) return 0;
        at += 1 + more;
    }
    return 1;
}

static int overlaps(const lp_module_t *chosen, uint32_t count, const lp_perf_module_t *m) {
    for (uint32_t i = 0; i < count; i++)
        if (m->start < chosen[i].end && chosen[i].start < m->end) return 1;
    return 0;
}

/// The modules section: the launched process's last image whole (the
/// program the launch ran, after any exec of a wrapper), then the modules of
/// other images (an earlier image of it, its children) that a kept sample
/// ran in, unless their range overlaps a module already chosen: the section
/// maps addresses to modules with no process, so of two modules at one
/// address only the launched program's can be named. Those samples keep
/// their addresses; a child that execs another program is named only where
/// its code does not sit where the launched program's does. A path that is
/// not UTF-8 (file names are bytes) would make the reader refuse the whole
/// trace: such a module is left out too.
static lp_module_t *module_table(lp_perf_state_t *state, uint32_t root, uint32_t *count) {
    *count = 0;
    lp_module_t *chosen = calloc(state->module_count ? state->module_count : 1, sizeof *chosen);
    if (chosen == NULL) return NULL;
    const lp_perf_process_t *launched = lp_perf_process(state, root, 0);
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < state->module_count; i++) {
            const lp_perf_module_t *m = &state->modules[i];
            int preferred = launched != NULL && m->image == launched->image;
            if (pass == 0 ? !preferred : (preferred || !m->used)) continue;
            if (m->end <= m->start || !is_utf8(m->path) || overlaps(chosen, *count, m)) continue;
            lp_module_t *out = &chosen[(*count)++];
            out->bias = m->bias;
            out->start = m->start;
            out->end = m->end;
            out->path = (char *)m->path;
            memcpy(out->build_id, m->build_id, m->build_id_length);
            out->build_id_length = m->build_id_length;
        }
    }
    return chosen;
}

/// The replay; the sections from it. NULL with the error set.
/// What the kept samples stand for: the caller's figure, else the CPU time
/// the spawner's events counted until sampling stopped, less one period for
/// each sample of the tree taken after the window's end (launch complete,
/// or ready, a little before the spawner stopped sampling); 0, unknown,
/// when the spawner wrote no total or the window ends long before it
/// stopped (more samples after it than in it: the estimate would be most
/// of the figure).
static uint64_t sampled_cpu_ns(const lp_perf_sink_t *sink, const lp_perf_options_t *options, uint64_t kept,
                               uint64_t after) {
    if (options->cpu_ns != 0) return options->cpu_ns;
    if (sink->stopped_ns == 0 || after > kept) return 0;
    uint64_t late = after * sink->header.period_ns;
    return late < sink->task_clock_ns ? sink->task_clock_ns - late : 0;
}

static uint8_t *encode(const lp_perf_sink_t *sink, lp_perf_state_t *state, const lp_perf_options_t *options,
                       size_t *size, lp_perf_summary_t *summary, lp_perf_error_t *error) {
    uint32_t max_depth = options->max_depth ? options->max_depth : LP_SAMPLER_DEFAULT_DEPTH;
    uint64_t from = options->from_ns, to = options->to_ns ? options->to_ns : UINT64_MAX;
    records_t records = {NULL, 0, 0, 0};
    lp_perf_unwinder_t *unwinder = NULL;
    uint64_t *frames = malloc(max_depth * sizeof *frames);
    uint64_t first = 0, last = 0, failed = 0, after = 0;
    uint32_t root = options->pid;
    uint8_t *bytes = NULL;
    if (frames == NULL) {
        lp_perf_fail(error, "no memory to walk stacks of %u frames", max_depth);
        goto done;
    }
    for (size_t i = 0; i < sink->count; i++) {
        const lp_perf_item_t *item = &sink->items[i];
        int status = 0;
        switch (item->type) {
        case LP_PERF_RECORD_MMAP:
        case LP_PERF_RECORD_MMAP2: status = lp_perf_apply_mmap(state, item); break;
        case LP_PERF_RECORD_COMM:
            if (item->misc & LP_PERF_MISC_COMM_EXEC) status = lp_perf_apply_exec(state, item->pid);
            if (status == 0 && item->time <= to) status = lp_perf_name_thread(state, item->tid, item->pid, item->name, 0);
            break;
        case LP_PERF_RECORD_FORK:
            status = lp_perf_apply_fork(state, item->pid, (uint32_t)item->addr);
            if (status == 0) status = lp_perf_name_thread(state, item->tid, item->pid, NULL, (uint32_t)item->length);
            break;
        case LP_PERF_RECORD_SAMPLE: {
            if (options->pid != 0 && !lp_perf_in_tree(state, item->pid, options->pid)) break;
            if (item->time > to) after++;
            if (item->time < from || item->time > to) break;
            if (root == 0) root = item->pid;  // no pid given: the first sampled process's modules first
            lp_perf_process_t *process = lp_perf_process(state, item->pid, 1);
            if (process == NULL) {
                status = -1;
                break;
            }
            if (unwinder == NULL && item->regs != NULL && item->stack_size > 0 &&
                (unwinder = lp_perf_unwinder_new(state, sink, error)) == NULL)
                goto done;
            uint16_t flags = 0;
            int walk_failed = 0;
            uint32_t depth = 1;
            frames[0] = item->ip;
            if (unwinder != NULL) {
                uint64_t began = now_ns();
                depth = lp_perf_unwind(unwinder, process, item, frames, max_depth, &flags, &walk_failed);
                summary->unwind_ns += now_ns() - began;
            } else if (item->bad_stack) {
                walk_failed = 1;
                flags = LP_SAMPLE_UNWIND_FAILED;
            }
            for (uint32_t f = 0; f < depth; f++) {
                const lp_perf_map_t *map = lp_perf_find_map(process, frames[f]);
                if (map != NULL && map->module < state->module_count) state->modules[map->module].used = 1;
            }
            if (item->in_kernel) flags |= LP_SAMPLE_IN_KERNEL;
            summary->unwind_failures += walk_failed;
            summary->truncated += (flags & LP_SAMPLE_TRUNCATED) != 0;
            failed += (flags & LP_SAMPLE_UNWIND_FAILED) != 0;
            if (records.count == 0) first = item->time;
            last = item->time;
            lp_sample_record_t header = {
                .size = (uint32_t)(sizeof header + depth * 8), .committed = 1, .ts = item->time, .tid = item->tid,
                .depth = (uint16_t)depth, .flags = flags, .cost_ns = 0, .weight = 1,
            };
            status = append(&records, &header, frames);
            break;
        }
        default: break;
        }
        if (status != 0) {
            lp_perf_fail(error, "no memory while replaying the sample sink");
            goto done;
        }
    }
    summary->kept = records.count;
    uint32_t thread_count = 0, module_count = 0;
    lp_sampler_thread_name_t *threads = thread_table(state, &records, &thread_count);
    lp_module_t *modules = module_table(state, root, &module_count);
    if (threads != NULL && modules != NULL) {
        lp_sampler_sections_t sections = {
            .hz = sink->header.hz,
            .max_depth = max_depth,
            .timer_mode = LP_SAMPLER_TIMER_KERNEL,
            .flags = (sink->header.flags & LP_PERF_SINK_USER_ONLY) ? LP_SAMPLER_FLAG_KERNEL_UNSAMPLED : 0,
            .start_ns = from ? from : first,
            .stop_ns = to != UINT64_MAX ? to : last,
            .records = records.bytes,
            .records_end = records.size,
            .record_count = records.count,
            // What the sink refused (a full disk) is lost as surely as
            // what a full ring was: one count, saturating on a hostile header.
            .lost = sink->lost_samples + sink->header.unwritten_samples >= sink->lost_samples
                        ? sink->lost_samples + sink->header.unwritten_samples
                        : UINT64_MAX,
            .failed = failed,
            .threads = threads,
            .thread_count = thread_count,
            .cpu_us = sampled_cpu_ns(sink, options, records.count, after) / 1000,
            .modules = modules,
            .module_count = module_count,
        };
        bytes = lp_sampler_encode(&sections, size);
    }
    if (bytes == NULL) lp_perf_fail(error, "no memory to encode %llu samples", (unsigned long long)records.count);
    free(threads);
    free(modules);
done:
    lp_perf_unwinder_free(unwinder);
    free(frames);
    free(records.bytes);
    return bytes;
}

/// The sink open at `fd`, or, when `fd` is -1, at `path` (then opened and
/// closed here); `path` names it in errors either way.
static uint8_t *encode_sink(int fd, const char *path, const lp_perf_options_t *options, size_t *size,
                            lp_perf_summary_t *summary, char *error, size_t error_capacity) {
    lp_perf_error_t failure = {error, error_capacity, path, 0};
    if (path == NULL) failure.path = "the sample sink";
    lp_perf_summary_t ignored;
    if (summary == NULL) summary = &ignored;
    memset(summary, 0, sizeof *summary);
    *size = 0;
    if (error != NULL && error_capacity > 0) error[0] = '\0';
    if (options->max_depth > LP_SAMPLER_MAX_DEPTH) {
        lp_perf_fail(&failure, "a stack depth of %u was asked for (at most %u)", options->max_depth,
                     LP_SAMPLER_MAX_DEPTH);
        return NULL;
    }
    lp_perf_sink_t sink;
    memset(&sink, 0, sizeof sink);
    uint8_t *bytes = NULL;
    int opened = -1;
    if (fd == -1 && path != NULL) fd = opened = lp_perf_open_sink(path, &failure);
    if (fd < 0) lp_perf_fail(&failure, "the sample sink is not open");
    if (fd >= 0 && lp_perf_read_sink(fd, &sink, &failure) == 0) {
        summary->samples = sink.samples;
        summary->lost_records = sink.lost_records;
        summary->lost_samples = sink.lost_samples;
        summary->throttled = sink.throttled;
        summary->cpus = sink.header.cpus;
        summary->open_error = sink.header.error;
        summary->maps_missed = sink.maps_missed;
        summary->unclosed = (sink.header.flags & LP_PERF_SINK_CLOSED) == 0;
        summary->sink_error = summary->unclosed ? 0 : sink.header.sink_error;
        summary->unwritten_samples = summary->unclosed ? 0 : sink.header.unwritten_samples;
        if (sink.header.hz == 0 || sink.header.hz > 100000) {
            lp_perf_fail(&failure, "the sample sink's rate is %u samples per second (allowed: 1-100000)",
                         sink.header.hz);
        } else {
            lp_perf_state_t state;
            memset(&state, 0, sizeof state);
            bytes = encode(&sink, &state, options, size, summary, &failure);
            lp_perf_state_free(&state);
        }
    }
    lp_perf_free_sink(&sink);
    if (opened >= 0) close(opened);
    if (bytes == NULL) *size = 0;
    return bytes;
}

uint8_t *lp_perf_encode_sections(const char *path, const lp_perf_options_t *options, size_t *size,
                                 lp_perf_summary_t *summary, char *error, size_t error_capacity) {
    return encode_sink(-1, path, options, size, summary, error, error_capacity);
}

uint8_t *lp_perf_encode_sections_fd(int fd, const char *name, const lp_perf_options_t *options, size_t *size,
                                    lp_perf_summary_t *summary, char *error, size_t error_capacity) {
    if (fd < 0) fd = -2;  // never opened by name: "not open"
    return encode_sink(fd, name, options, size, summary, error, error_capacity);
}

uint8_t *lp_perf_trace_bytes(uint32_t pid, uint64_t spawn_ns, const uint8_t *sections, size_t sections_size,
                             size_t *size) {
    return lp_sampler_trace_bytes(pid, spawn_ns, 0, sections, sections_size, size);
}
