// preload.c — liblaunchprof-preload.so: the launch sampler for programs that
// do not link LaunchProf, loaded with LD_PRELOAD.
//
// It compiles the sampler's own sources (one implementation, one trace
// format), records process entry, samples from its constructor until exit
// and writes a whole trace file to LAUNCHPROF_TRACE from an atexit handler.
// In a program that links LaunchProf (its ELF note is in the main program)
// it does nothing: LaunchProf samples and writes the trace itself. Linking
// libunwind here also loads it at start-up, so its thread-local data is
// static TLS, safe to touch from the handler on every thread.
#define LP_PRELOAD 1
#define _GNU_SOURCE

#include "../CLaunchProfSupport/sampler.c"
#include "../CLaunchProfSupport/sampler_threads.c"
#include "../CLaunchProfSupport/sampler_modules.c"
#include "../CLaunchProfSupport/sampler_loader.c"
#include "../CLaunchProfSupport/sampler_encode.c"
#include "../CLaunchProfSupport/sampler_env.h"

static uint64_t preload_entry_ns;
static int preload_hook_threads;  // sampling was asked for, here or by LaunchProf
static uint64_t preload_spawn_ns;
static const char *preload_trace_path;

static int note_search(struct dl_phdr_info *info, size_t size, void *found) {
    (void)size;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *phdr = &info->dlpi_phdr[i];
        if (phdr->p_type != PT_NOTE) continue;
        const uint8_t *at = (const uint8_t *)(info->dlpi_addr + phdr->p_vaddr);
        const uint8_t *end = at + phdr->p_memsz;
        while (at + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *note = (const ElfW(Nhdr) *)at;
            const uint8_t *name = at + sizeof *note;
            size_t name_size = (note->n_namesz + 3) & ~(size_t)3;
            size_t desc_size = (note->n_descsz + 3) & ~(size_t)3;
            if (note->n_type == 0x4c50 && note->n_namesz == 11 && name + 11 <= end &&
                memcmp(name, "LaunchProf", 11) == 0) {
                *(int *)found = 1;
            }
            at = name + name_size + desc_size;
        }
    }
    return 1;  // the main program is listed first: look no further
}

// MARK: - Thread creation

typedef int (*pthread_create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

typedef struct {
    void *(*start)(void *);
    void *arg;
} preload_start_t;

static void preload_thread_exit(void *slot) {
    if (slot != NULL) lp_sampler_disarm(slot);
}

/// Every new thread starts here: libunwind is warmed on it outside signal
/// context (its caches and thread-local data), then its timer is armed at
/// once — threads too short-lived for the helper's scan are sampled too —
/// and deleted when the thread ends.
static void *preload_thread_start(void *boxed) {
    preload_start_t start = *(preload_start_t *)boxed;
    free(boxed);
    void *warm[LP_HANDLER_FRAMES];
    unw_backtrace(warm, LP_HANDLER_FRAMES);
    lp_sampled_thread_t *slot = NULL;
    if (__atomic_load_n(&lp_sampler_state.active, __ATOMIC_ACQUIRE)) {
        slot = lp_sampler_thread((int32_t)lp_sampler_gettid());
        if (slot != NULL) {
            lp_sampler_read_comm((uint32_t)slot->tid, slot->name);
            lp_sampler_arm(slot);
        }
    }
    void *result;
    pthread_cleanup_push(preload_thread_exit, slot);
    result = start.start(start.arg);
    pthread_cleanup_pop(1);
    return result;
}

/// Interposes the program's (and its libraries') pthread_create while
/// sampling was asked for; otherwise a plain call through.
int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *), void *arg) {
    static pthread_create_fn real;
    pthread_create_fn next = __atomic_load_n(&real, __ATOMIC_ACQUIRE);
    if (next == NULL) {
        next = (pthread_create_fn)dlsym(RTLD_NEXT, "pthread_create");
        if (next == NULL) return EAGAIN;
        __atomic_store_n(&real, next, __ATOMIC_RELEASE);
    }
    if (!preload_hook_threads || start == helper_main) return next(thread, attr, start, arg);
    preload_start_t *boxed = malloc(sizeof *boxed);
    if (boxed == NULL) return next(thread, attr, start, arg);
    boxed->start = start;
    boxed->arg = arg;
    int result = next(thread, attr, preload_thread_start, boxed);
    if (result != 0) free(boxed);
    return result;
}

// MARK: - Process entry and exit

static void preload_at_exit(void) {
    if (lp_sampler_state.forked_child || preload_trace_path == NULL) return;
    lp_sampler_stop();
    if (lp_sampler_write_trace(preload_trace_path, preload_spawn_ns, preload_entry_ns) != 0) {
        char message[4400];
        int n = snprintf(message, sizeof message, "launchprof: cannot write the trace '%s': %s\n",
                         preload_trace_path, strerror(errno));
        if (n > 0) {
            ssize_t ignored = write(2, message, (size_t)n < sizeof message ? (size_t)n : sizeof message - 1);
            (void)ignored;
        }
    }
}

__attribute__((constructor(101))) static void launchprof_preload_entry(void) {
    preload_entry_ns = lp_sampler_now();
    uint32_t hz, depth;
    if (!lp_sampler_requested(&hz, &depth)) return;
    preload_hook_threads = 1;
    int linked = 0;
    dl_iterate_phdr(note_search, &linked);
    if (linked) return;  // LaunchProf is in the program: it samples (threads are still warmed here)
    const char *spawn = getenv("LAUNCHPROF_SPAWN_NS");
    if (spawn != NULL) preload_spawn_ns = strtoull(spawn, NULL, 10);
    const char *path = getenv("LAUNCHPROF_TRACE");
    if (path != NULL && *path != '\0') preload_trace_path = path;
    if (lp_sampler_start(hz, depth) != 0) {
        char message[256];
        int n = snprintf(message, sizeof message, "launchprof: not sampling: %s\n", lp_sampler_error());
        ssize_t ignored = write(2, message, (size_t)n);
        (void)ignored;
        return;
    }
    atexit(preload_at_exit);
}
