// launchprof_env.c — the LAUNCHPROF_* variables, read once at process entry
// and removed from the environment.
//
// A program launched by the harness must not pass them on: a child it runs
// (`sh -c 'a; exec b'`, a helper it spawns) would write records into the
// harness's socket and a trace over the program's own. The process-entry
// constructor captures every one of them before anything else reads them,
// then unsets them; the library reads the captured values (lp_env). A
// program that wants to trace a child passes them on itself
// (LaunchTracker.harnessEnvironment).
//
// They are read with secure_getenv: in a setuid/setcap program (secure
// execution, AT_SECURE) the caller's environment must not choose where the
// program writes, so none of them is honoured there (and all are removed).
#define _GNU_SOURCE
#include "launchprof_support.h"

#include <stdlib.h>
#include <string.h>

static const char *const names[] = {
    "LAUNCHPROF_SPAWN_NS",      "LAUNCHPROF_READY_FD",     "LAUNCHPROF_TRACE",         "LAUNCHPROF_TRACE_AT",
    "LAUNCHPROF_ENABLE",        "LAUNCHPROF_BUFFER_EVENTS", "LAUNCHPROF_BUFFER_POLICY", "LAUNCHPROF_SAMPLE_HZ",
    "LAUNCHPROF_SAMPLE_DEPTH",  "LAUNCHPROF_SAMPLE_PID",   "LAUNCHPROF_SAMPLE_BUFFER_MB", "LAUNCHPROF_SAMPLE_TIMER",
    "LAUNCHPROF_SAMPLE_CLOCK",  "LAUNCHPROF_BACKGROUND_TASK",
    LP_RECORD_FD_VARIABLE,
};
enum { NAME_COUNT = sizeof names / sizeof names[0] };

static const char *values[NAME_COUNT];
static int captured;

void lp_env_capture(void) {
    if (captured) return;
    captured = 1;
    for (int i = 0; i < NAME_COUNT; i++) {
        // glibc never frees the strings of the initial environment (nor
        // those setenv made), so the pointers stay valid after unsetenv.
        values[i] = secure_getenv(names[i]);
    }
    for (int i = 0; i < NAME_COUNT; i++) unsetenv(names[i]);
}

const char *lp_env(const char *name) {
    lp_env_capture();
    for (int i = 0; i < NAME_COUNT; i++) {
        if (strcmp(names[i], name) == 0) return values[i];
    }
    return NULL;
}

int lp_env_count(void) { return NAME_COUNT; }

const char *lp_env_entry(int index, const char **value) {
    lp_env_capture();
    if (index < 0 || index >= NAME_COUNT) return NULL;
    *value = values[index];
    return names[index];
}

const char *lp_secure_getenv(const char *name) { return secure_getenv(name); }
