// Sampling the launched tree's stacks in the kernel, as `perf record -- prog`
// does (docs/sampling.md): one task-clock sampling event per CPU, opened by
// the spawner on itself with inherit and enable_on_exec, whose ring buffers
// it copies to the sample sink (launchprof_spawn.h, LP_SPAWN_FLAG_SAMPLE).
#ifndef LP_SPAWNER_SAMPLING_H
#define LP_SPAWNER_SAMPLING_H

#include "launchprof_spawn.h"

#include <poll.h>

/// Opens the events for the spawn that follows, disabled (the child inherits
/// them and its exec enables them), maps their rings and writes the sink's
/// header to `sink` (which sampling owns from now on). An event the kernel
/// refuses leaves its errno in the header; the spawn goes on either way.
void lp_sampling_open(int sink, uint32_t hz, uint32_t stack_bytes, int maps_at_ready);

/// The events' descriptors, for poll (POLLIN once a ring is half full).
/// Returns how many were stored, at most `capacity`.
int lp_sampling_poll_fds(struct pollfd *fds, int capacity);

/// Copies every complete record the rings hold to the sink.
void lp_sampling_drain(void);

/// Disables the events in every process of the tree (ready, or the
/// launched process's exit) and drains the rings; later calls do nothing.
/// With `maps_at_ready`, the mappings of the `count` processes `tree`
/// (alive: ready) are written then (LP_SPAWN_FLAG_SAMPLE_MAPS_AT_READY).
void lp_sampling_stop(const pid_t *tree, size_t count);

/// Stops, drains, and closes the events and the sink.
void lp_sampling_finish(void);

#endif
