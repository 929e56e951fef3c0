// launchprof_preload.h — liblaunchprof-preload.so has no API: load it with
// LD_PRELOAD and set LAUNCHPROF_SAMPLE_HZ and LAUNCHPROF_TRACE
// (docs/sampling.md). `launchprof profile` does this for you.
#ifndef LAUNCHPROF_PRELOAD_H
#define LAUNCHPROF_PRELOAD_H
#endif
