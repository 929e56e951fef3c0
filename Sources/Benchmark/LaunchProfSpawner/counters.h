// Hardware and software counters of one run, opened by the spawner on
// itself with inherit and enable_on_exec (docs/counts.md).
#ifndef LP_SPAWNER_COUNTERS_H
#define LP_SPAWNER_COUNTERS_H

#include "launchprof_spawn.h"

/// Opens every counter for the spawn that follows, disabled: the child
/// inherits them and its exec enables them. Counters the kernel refuses
/// keep their errno for the reply.
void lp_counters_open(void);

/// Reads the counters once (`when`: 1 at ready, 2 at the launched process's
/// exit); later calls do nothing. Does nothing when none were opened.
void lp_counters_read(uint32_t when);

/// Copies the reading into `out` (zeroed when nothing was counted) and
/// closes the counters.
void lp_counters_finish(struct lp_spawn_counters *out);

#endif
