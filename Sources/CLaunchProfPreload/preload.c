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
    int linked = 0;
    dl_iterate_phdr(note_search, &linked);
    if (linked) return;  // LaunchProf is in the program: it samples
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
