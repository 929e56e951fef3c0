// sampler_encode.c — the samples and modules sections, and a whole trace
// file for programs without LaunchProf. One encoder for both writers: the
// Swift trace writer appends what lp_sampler_encode_sections produces, the
// preload library wraps it in a minimal trace of its own. The layout is in
// docs/trace-format.md.
#define _GNU_SOURCE
#include "sampler_internal.h"
#include <sys/random.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


typedef struct {
    uint8_t *at;   ///< NULL while measuring.
    size_t size;
    size_t capacity;
    int overflow;  ///< a write would have passed `capacity`: the output is void
} sink_t;

static void put(sink_t *sink, const void *bytes, size_t count) {
    if (sink->at != NULL) {
        if (sink->overflow || count > sink->capacity - sink->size) {
            sink->overflow = 1;
            return;
        }
        memcpy(sink->at + sink->size, bytes, count);
    }
    sink->size += count;
}
// Little-endian hosts only (x86_64, aarch64): the file is little-endian.
static void put_u16(sink_t *sink, uint16_t v) { put(sink, &v, 2); }
static void put_u32(sink_t *sink, uint32_t v) { put(sink, &v, 4); }
static void put_u64(sink_t *sink, uint64_t v) { put(sink, &v, 8); }

/// What is encoded, fixed once: handlers may still append samples (before
/// stop, or in the microseconds stop waits for them) and threads may still be
/// armed, but both passes of the encoder see the same records and threads.
typedef struct {
    uint64_t end;    ///< bytes of committed records, from the buffer's start
    uint64_t count;  ///< records in them
    uint32_t thread_count;
    lp_sampler_thread_name_t *threads;
} snapshot_t;

/// Committed records, in buffer order; stops at one still being written.
static uint64_t walk_end(uint64_t *count) {
    uint64_t used = __atomic_load_n(&lp_sampler_state.used, __ATOMIC_ACQUIRE);
    uint64_t limit = used < lp_sampler_state.capacity ? used : lp_sampler_state.capacity;
    uint64_t offset = 0, n = 0;
    while (offset + sizeof(lp_sample_record_t) <= limit) {
        const lp_sample_record_t *record = (const lp_sample_record_t *)(lp_sampler_state.buffer + offset);
        if (!__atomic_load_n(&record->committed, __ATOMIC_ACQUIRE)) break;
        // A record is committed whole; its size was checked against the
        // capacity before it was written.
        if (record->size < sizeof(lp_sample_record_t) || record->size > limit - offset) break;
        offset += record->size;
        n++;
    }
    *count = n;
    return offset;
}

static int take_snapshot(snapshot_t *snapshot) {
    snapshot->end = walk_end(&snapshot->count);
    snapshot->threads = calloc(LP_SAMPLER_MAX_THREADS, sizeof *snapshot->threads);
    if (snapshot->threads == NULL) return -1;
    snapshot->thread_count = 0;
    for (uint32_t i = 0; i < LP_SAMPLER_MAX_THREADS; i++) {
        int32_t tid = __atomic_load_n(&lp_sampler_state.threads[i].tid, __ATOMIC_ACQUIRE);
        if (tid == 0) continue;
        snapshot->threads[snapshot->thread_count].tid = (uint32_t)tid;
        // Threads often name themselves after they start: a thread still
        // running is named as it is now (read here, not when sampling
        // stopped: that was on the launch's way to ready); one that ended
        // keeps the name it had then.
        char now[16];
        lp_sampler_read_comm((uint32_t)tid, now);
        memcpy(snapshot->threads[snapshot->thread_count].name, now[0] ? now : lp_sampler_state.threads[i].name, 16);
        snapshot->thread_count++;
    }
    return 0;
}

static void section_header(sink_t *sink, uint32_t tag, uint64_t length) {
    put_u32(sink, tag);
    put_u32(sink, 0);
    put_u64(sink, length);
}

static void samples_payload(sink_t *sink, const lp_sampler_sections_t *in) {
    put_u32(sink, in->hz);
    put_u32(sink, in->max_depth);
    put_u32(sink, in->timer_mode);
    put_u32(sink, in->flags);
    put_u64(sink, in->start_ns);
    put_u64(sink, in->stop_ns);
    put_u64(sink, in->record_count);
    put_u64(sink, in->lost);
    put_u64(sink, in->failed);
    put_u32(sink, in->thread_count);
    // The CPU time the perf events counted while they sampled (µs,
    // saturating; 0 under POSIX timers): what the samples stand for.
    put_u32(sink, in->cpu_us > UINT32_MAX ? UINT32_MAX : (uint32_t)in->cpu_us);
    for (uint32_t i = 0; i < in->thread_count; i++) {
        put_u32(sink, in->threads[i].tid);
        put(sink, in->threads[i].name, 16);
    }
    for (uint64_t offset = 0; offset < in->records_end;) {
        lp_sample_record_t record;
        memcpy(&record, in->records + offset, sizeof record);
        put_u64(sink, record.ts);
        put_u32(sink, record.tid);
        put_u16(sink, record.depth);
        put_u16(sink, record.flags);
        put_u32(sink, record.cost_ns);
        put_u32(sink, record.weight);
        put(sink, in->records + offset + sizeof record, (size_t)record.depth * 8);
        offset += record.size;
    }
}

static void modules_payload(sink_t *sink, const lp_sampler_sections_t *in) {
    put_u32(sink, in->module_count);
    for (uint32_t i = 0; i < in->module_count; i++) {
        const lp_module_t *module = &in->modules[i];
        uint32_t path_length = (uint32_t)strlen(module->path);
        uint16_t id_length = module->build_id_length <= sizeof module->build_id ? module->build_id_length : 0;
        put_u64(sink, module->bias);
        put_u64(sink, module->start);
        put_u64(sink, module->end);
        put_u32(sink, path_length);
        put_u32(sink, id_length);
        put(sink, module->path, path_length);
        put(sink, module->build_id, id_length);
    }
}

static void encode(sink_t *sink, const lp_sampler_sections_t *in) {
    sink_t measure = {NULL, 0, 0, 0};
    samples_payload(&measure, in);
    section_header(sink, LP_TRACE_SECTION_SAMPLES, measure.size);
    samples_payload(sink, in);
    measure.size = 0;
    modules_payload(&measure, in);
    section_header(sink, LP_TRACE_SECTION_MODULES, measure.size);
    modules_payload(sink, in);
}

/// Whether the records fill `records_end` exactly as `record_count` whole
/// records, each holding its `depth` frames.
static int records_whole(const lp_sampler_sections_t *in) {
    uint64_t offset = 0, n = 0;
    while (offset < in->records_end) {
        lp_sample_record_t record;
        if (in->records_end - offset < sizeof record) return 0;
        memcpy(&record, in->records + offset, sizeof record);
        if (record.size < sizeof record + (uint64_t)record.depth * 8 || record.size > in->records_end - offset) return 0;
        offset += record.size;
        n++;
    }
    return n == in->record_count;
}

uint8_t *lp_sampler_encode(const lp_sampler_sections_t *sections, size_t *size) {
    *size = 0;
    if (!records_whole(sections)) return NULL;
    sink_t measure = {NULL, 0, 0, 0};
    encode(&measure, sections);
    uint8_t *bytes = malloc(measure.size);
    if (bytes == NULL) return NULL;
    sink_t sink = {bytes, 0, measure.size, 0};
    encode(&sink, sections);
    if (sink.overflow || sink.size != measure.size) {
        free(bytes);
        return NULL;
    }
    *size = sink.size;
    return bytes;
}

uint8_t *lp_sampler_encode_sections(size_t *size) {
    *size = 0;
    if (!__atomic_load_n(&lp_sampler_state.started, __ATOMIC_ACQUIRE) || lp_sampler_state.buffer == NULL) return NULL;
    // One writer at a time, and never while stop() replaces the module map.
    lp_sampler_lock();
    // The module map is taken here, in the writer, not when sampling stops
    // (that is on the launch's way to ready): once while sampling still runs
    // (Tracer.flush, a terminating Lifecycle), and once more after it
    // stopped, which covers every sample.
    if (lp_sampler_state.modules == NULL || (!lp_sampler_state.modules_final &&
                                             __atomic_load_n(&lp_sampler_state.stopped, __ATOMIC_ACQUIRE))) {
        lp_sampler_snapshot_modules();
    }
    snapshot_t snapshot;
    uint8_t *bytes = NULL;
    if (take_snapshot(&snapshot) == 0) {
        lp_sampler_sections_t sections = {
            .hz = lp_sampler_state.hz,
            .max_depth = lp_sampler_state.max_depth,
            .timer_mode = lp_sampler_state.timer_mode,
            .flags = lp_sampler_state.flags,
            .start_ns = lp_sampler_state.start_ns,
            .stop_ns = lp_sampler_state.stop_ns,
            .records = lp_sampler_state.buffer,
            .records_end = snapshot.end,
            .record_count = snapshot.count,
            .lost = __atomic_load_n(&lp_sampler_state.lost, __ATOMIC_ACQUIRE),
            .failed = __atomic_load_n(&lp_sampler_state.failed, __ATOMIC_ACQUIRE),
            .threads = snapshot.threads,
            .thread_count = snapshot.thread_count,
            .cpu_us = __atomic_load_n(&lp_sampler_state.sampled_cpu_ns, __ATOMIC_ACQUIRE) / 1000,
            .modules = lp_sampler_state.modules,
            .module_count = lp_sampler_state.module_count,
        };
        bytes = lp_sampler_encode(&sections, size);
        free(snapshot.threads);
    }
    lp_sampler_unlock();
    return bytes;
}

// MARK: - A whole trace file (preload library)

/// Header, and the four tables a version-1 reader requires, all but empty:
/// the category table holds LaunchTracker's `launchprof/launch`.
static void trace_prefix(sink_t *sink, uint32_t pid, uint64_t spawn_ns, uint64_t entry_ns, uint64_t written_ns) {
    put(sink, LP_TRACE_MAGIC, LP_TRACE_MAGIC_SIZE);  // with its NUL
    put_u32(sink, LP_TRACE_VERSION);
    put_u32(sink, LP_TRACE_HEADER_SIZE);
    put_u32(sink, pid);
    put_u32(sink, LP_POLICY_DROP_NEWEST);
    put_u64(sink, spawn_ns);
    put_u64(sink, entry_ns);
    put_u64(sink, 0);   // main: not recorded
    put_u64(sink, 0);   // launch complete: not recorded
    put_u64(sink, written_ns);
    put_u64(sink, 0);   // ring capacity: no ring
    put_u64(sink, 0);   // events
    put_u64(sink, 0);   // lost events
    put_u64(sink, 0);   // reserved
    section_header(sink, LP_TRACE_SECTION_STRINGS, 4 + 4 + 10 + 4 + 6);
    put_u32(sink, 2);
    put_u32(sink, 10);
    put(sink, "launchprof", 10);
    put_u32(sink, 6);
    put(sink, "launch", 6);
    section_header(sink, LP_TRACE_SECTION_CATEGORIES, 12);
    put_u32(sink, 1);
    put_u32(sink, 0);
    put_u32(sink, 1);
    section_header(sink, LP_TRACE_SECTION_THREADS, 4);
    put_u32(sink, 0);
    section_header(sink, LP_TRACE_SECTION_EVENTS, 8);
    put_u64(sink, 0);
}

uint8_t *lp_sampler_trace_bytes(uint32_t pid, uint64_t spawn_ns, uint64_t entry_ns, const uint8_t *sections,
                                size_t sections_size, size_t *size) {
    *size = 0;
    uint64_t written_ns = lp_sampler_now();
    sink_t measure = {NULL, 0, 0, 0};
    trace_prefix(&measure, pid, spawn_ns, entry_ns, written_ns);
    if (sections == NULL) sections_size = 0;
    if (sections_size > SIZE_MAX - measure.size - 24) {
        errno = EOVERFLOW;
        return NULL;
    }
    size_t total = measure.size + sections_size + 16 + 8;
    uint8_t *bytes = malloc(total);
    if (bytes == NULL) return NULL;
    sink_t sink = {bytes, 0, total, 0};
    trace_prefix(&sink, pid, spawn_ns, entry_ns, written_ns);
    if (sections_size > 0) put(&sink, sections, sections_size);
    uint64_t sum = lp_trace_checksum(bytes, sink.size);
    section_header(&sink, LP_TRACE_SECTION_CHECKSUM, 8);
    put_u64(&sink, sum);
    if (sink.overflow) {
        free(bytes);
        errno = EOVERFLOW;
        return NULL;
    }
    *size = sink.size;
    return bytes;
}

int lp_sampler_write_trace(const char *path, uint64_t spawn_ns, uint64_t entry_ns) {
    size_t sections = 0;
    uint8_t *encoded = lp_sampler_encode_sections(&sections);
    int result = lp_sampler_write_trace_sections(path, (uint32_t)getpid(), spawn_ns, entry_ns, encoded, sections);
    int saved = errno;
    free(encoded);
    errno = saved;
    return result;
}

int lp_sampler_write_trace_sections(const char *path, uint32_t pid, uint64_t spawn_ns, uint64_t entry_ns,
                                    const uint8_t *sections, size_t sections_size) {
    size_t size = 0;
    uint8_t *bytes = lp_sampler_trace_bytes(pid, spawn_ns, entry_ns, sections, sections_size, &size);
    if (bytes == NULL) return -1;

    // A name no one can predict, created only if it does not exist (never
    // through a symlink someone put there), so concurrent writers and other
    // users cannot make us write into their file.
    char temporary[4200];
    int fd = -1;
    for (int attempt = 0; attempt < 16 && fd < 0; attempt++) {
        uint64_t random = 0;
        if (getrandom(&random, sizeof random, GRND_NONBLOCK) != (ssize_t)sizeof random)
            random = lp_sampler_now() ^ ((uint64_t)getpid() << 32) ^ (uint64_t)attempt;
        if (snprintf(temporary, sizeof temporary, "%s.tmp.%d.%016llx", path, (int)getpid(),
                     (unsigned long long)random) >= (int)sizeof temporary) {
            free(bytes);
            errno = ENAMETOOLONG;
            return -1;
        }
        fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0 && errno != EEXIST) break;
    }
    int result = fd < 0 ? -1 : 0;
    for (size_t done = 0; result == 0 && done < size;) {
        ssize_t n = write(fd, bytes + done, size - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) result = -1;
        else done += (size_t)n;
    }
    int saved = errno;
    if (fd >= 0) close(fd);
    free(bytes);
    if (result == 0 && rename(temporary, path) != 0) { saved = errno; result = -1; }
    if (result != 0 && fd >= 0) unlink(temporary);
    errno = saved;
    return result;
}
