// sampler_entry.c — starting the sampler at process entry in programs that
// link LaunchProf, and the ELF note that tells the preload library so.
#define _GNU_SOURCE
#include "sampler_internal.h"
#include "sampler_env.h"

/// An ELF note (type 0x4c50 "LP", name "LaunchProf") in every program that
/// links LaunchProf: liblaunchprof-preload.so finds it in the main program's
/// PT_NOTE segments and stands down, so a process is never sampled twice.
__attribute__((used, retain, section(".note.launchprof"), aligned(4)))
static const struct {
    uint32_t namesz, descsz, type;
    char name[12];
    uint32_t version;
} launchprof_note = {11, 4, 0x4c50, "LaunchProf", 1};

/// After launchprof_support.c's constructor (101). Without
/// LAUNCHPROF_SAMPLE_HZ this is one getenv and nothing else.
__attribute__((constructor(102))) static void launchprof_sampler_entry(void) {
    uint32_t hz, depth;
    if (!lp_sampler_requested(&hz, &depth)) return;
    lp_sampler_start(hz, depth);
}
