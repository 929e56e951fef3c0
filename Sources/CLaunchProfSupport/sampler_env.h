// sampler_env.h — reading LAUNCHPROF_SAMPLE_HZ / LAUNCHPROF_SAMPLE_DEPTH and
// claiming the process, shared by the program's and the preload library's
// constructors.
#ifndef LAUNCHPROF_SAMPLER_ENV_H
#define LAUNCHPROF_SAMPLER_ENV_H

#include "launchprof_sampler.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// LaunchProf reads the variables it captured at process entry (and removed
// from the environment); the preload library, in a program that is not
// LaunchProf's, reads the environment (secure_getenv: not in a setuid
// program) and leaves it alone, so an exec keeps sampling the launch.
#ifdef LP_PRELOAD
#define LP_ENV(name) secure_getenv(name)
#else
#include "launchprof_support.h"
#define LP_ENV(name) lp_env(name)
#endif

/// A positive decimal below `limit`, or 0.
static inline uint32_t lp_sampler_parse(const char *text, uint32_t limit) {
    if (text == NULL || *text == '\0') return 0;
    uint64_t value = 0;
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9') return 0;
        value = value * 10 + (uint64_t)(*p - '0');
        if (value > limit) return 0;
    }
    return (uint32_t)value;
}

/// Whether this process should be sampled, and how. LAUNCHPROF_SAMPLE_HZ is
/// the rate ("" or "default" for 1000). The first process that samples
/// records its pid in LAUNCHPROF_SAMPLE_PID: its children inherit the
/// environment but are not the launch being profiled (an exec keeps the pid
/// and so keeps sampling).
static inline int lp_sampler_requested(uint32_t *hz, uint32_t *depth) {
    const char *rate = LP_ENV("LAUNCHPROF_SAMPLE_HZ");
    if (rate == NULL) return 0;
    *hz = (*rate == '\0' || strcmp(rate, "default") == 0) ? LP_SAMPLER_DEFAULT_HZ
                                                          : lp_sampler_parse(rate, 100000);
    *depth = lp_sampler_parse(LP_ENV("LAUNCHPROF_SAMPLE_DEPTH"), LP_SAMPLER_MAX_DEPTH);
    if (*depth == 0) *depth = LP_SAMPLER_DEFAULT_DEPTH;
    char pid[24];
    snprintf(pid, sizeof pid, "%d", (int)getpid());
    const char *owner = LP_ENV("LAUNCHPROF_SAMPLE_PID");
    if (owner != NULL && strcmp(owner, pid) != 0) return 0;
#ifdef LP_PRELOAD
    setenv("LAUNCHPROF_SAMPLE_PID", pid, 1);
#endif
    if (*hz == 0) {
        static const char message[] =
            "launchprof: LAUNCHPROF_SAMPLE_HZ must be a whole number from 1 to 100000; not sampling\n";
        ssize_t ignored = write(2, message, sizeof message - 1);
        (void)ignored;
        return 0;
    }
    return 1;
}

#endif
