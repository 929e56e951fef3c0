// sampler_entry.c — starting the sampler at process entry in programs that
// link LaunchProf, and the ELF note that tells the preload library so.
#define _GNU_SOURCE
#include "launchprof_sampler.h"
#include "launchprof_support.h"

/// An ELF note (type 0x4c50 "LP", name "LaunchProf", version 2) in every
/// program that links LaunchProf: liblaunchprof-preload.so finds it in the
/// main program's PT_NOTE segments and stands down, so a process is never
/// sampled twice. Its second word is the offset from itself to this
/// program's lp_sampler_register_thread_hook, resolved by the static linker
/// (a PC-relative reloc, nothing at load time): the preload library
/// registers its pthread_create hook there, with no symbol lookup (a program
/// exports no symbols) and nothing of the preload library known here.
/// Written in assembly because C cannot state an offset between a section
/// and a function as a constant; "R" keeps it from --gc-sections.
__asm__(".pushsection .note.launchprof,\"aR\",%note\n"
        ".balign 4\n"
        ".long 11, 8, 0x4c50\n"
        ".asciz \"LaunchProf\"\n"
        ".balign 4\n"
        ".long 2\n"
        ".long lp_sampler_register_thread_hook - .\n"
        ".popsection\n");

/// After launchprof_support.c's constructor (101), which captured the
/// LAUNCHPROF_ variables. Without LAUNCHPROF_SAMPLE_HZ this is one lookup
/// and nothing else.
__attribute__((constructor(102))) static void launchprof_sampler_entry(void) {
    lp_sampler_options_t options;
    if (!lp_sampler_requested(lp_env, &options)) return;
    lp_sampler_start_with(&options);
}
