#!/usr/bin/env bash
# The concurrency tests under ThreadSanitizer: the trace ring, the deferred
# initializer and prewarm registry, the lifecycle and StateStore, built with
# -sanitize=thread in a build folder of their own (.build-tsan).
#
#   Scripts/checks/tsan.sh [extra swift test arguments]
#
# Fails when a test fails or ThreadSanitizer reports a race (it makes the
# test process exit non-zero; halt_on_error stops at the first report).
#
# The ring's stress test (TraceRingStressTests: 8 writers x 10^6 events on 64-,
# 1024- and 65,536-slot rings, that is 64- and 256-event blocks, both policies,
# snapshots taken all the while) takes about 7 minutes here on a busy 2-core
# machine, most of it in ThreadSanitizer's own locks; LAUNCHPROF_RING_STRESS=N Scripts/checks/tsan.sh runs
# its bigger variant (16 writers, N rounds).
set -euo pipefail
cd "$(dirname "$0")/../.."
Scripts/install-deps.sh
# Static products are linked dynamically in a sanitizer build (Package.swift).
export LAUNCHPROF_SANITIZER_BUILD=1
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
# crashMidSave is left out: it SIGKILLs a sample in the middle of a 64 MiB
# save, a window the instrumented (several times slower) test process
# misses; it is a timing test, not a concurrency one, and runs in Scripts/test.sh.
swift test --sanitize=thread --scratch-path .build-tsan \
    --filter 'TraceRing|Ring|Deferred|Prewarm|Lifecycle|StateStore|StateRestoration' --skip crashMidSave "$@"
