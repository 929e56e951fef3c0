// sched_getaffinity(2) and sched_setaffinity(2) for Swift: glibc declares
// them only under _GNU_SOURCE, which Swift's Glibc module does not define.
#define _GNU_SOURCE
#include <sched.h>

#include "launchprof_spawn.h"

int lp_sched_getaffinity(size_t size, void *mask) { return sched_getaffinity(0, size, (cpu_set_t *)mask); }

int lp_sched_setaffinity(size_t size, const void *mask) { return sched_setaffinity(0, size, (const cpu_set_t *)mask); }
