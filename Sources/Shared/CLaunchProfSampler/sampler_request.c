// sampler_request.c — reading LAUNCHPROF_SAMPLE_* and claiming the process,
// for both starters: LaunchProf's constructor (sampler_entry.c, through the
// variables it captured at process entry) and the preload library's
// (preload.c, through secure_getenv). Each passes its own reader.
#define _GNU_SOURCE
#include "sampler_internal.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/// A positive decimal below `limit`, or 0.
static uint32_t parse(const char *text, uint32_t limit) {
    if (text == NULL || *text == '\0') return 0;
    uint64_t value = 0;
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9') return 0;
        value = value * 10 + (uint64_t)(*p - '0');
        if (value > limit) return 0;
    }
    return (uint32_t)value;
}

int lp_sampler_requested(const char *(*env)(const char *name), lp_sampler_options_t *options) {
    const char *rate = env("LAUNCHPROF_SAMPLE_HZ");
    if (rate == NULL) return 0;
    memset(options, 0, sizeof *options);
    options->hz = (*rate == '\0' || strcmp(rate, "default") == 0) ? LP_SAMPLER_DEFAULT_HZ : parse(rate, 100000);
    options->max_depth = parse(env("LAUNCHPROF_SAMPLE_DEPTH"), LP_SAMPLER_MAX_DEPTH);
    if (options->max_depth == 0) options->max_depth = LP_SAMPLER_DEFAULT_DEPTH;
    options->buffer_megabytes = parse(env("LAUNCHPROF_SAMPLE_BUFFER_MB"), 1u << 20);
    const char *timer = env("LAUNCHPROF_SAMPLE_TIMER");
    options->posix_timers = timer != NULL && strcmp(timer, "posix") == 0;
    const char *clock = env("LAUNCHPROF_SAMPLE_CLOCK");
    options->wall_clock = clock != NULL && strcmp(clock, "wall") == 0;
    if (clock != NULL && !options->wall_clock && strcmp(clock, "cpu") != 0 && *clock != '\0') {
        static const char message[] = "launchprof: LAUNCHPROF_SAMPLE_CLOCK must be cpu or wall; not sampling\n";
        ssize_t ignored = write(2, message, sizeof message - 1);
        (void)ignored;
        return 0;
    }
    // The first process that samples is the launch: its children inherit the
    // environment but are not (an exec keeps the pid and keeps sampling).
    char pid[24];
    snprintf(pid, sizeof pid, "%d", (int)getpid());
    const char *owner = env("LAUNCHPROF_SAMPLE_PID");
    if (owner != NULL && strcmp(owner, pid) != 0) return 0;
    if (options->hz == 0) {
        static const char message[] =
            "launchprof: LAUNCHPROF_SAMPLE_HZ must be a whole number from 1 to 100000; not sampling\n";
        ssize_t ignored = write(2, message, sizeof message - 1);
        (void)ignored;
        return 0;
    }
    return 1;
}
