#!/usr/bin/env bash
# lp-spawn and launchprof's spawn client (Sources/Benchmark/CLaunchProfSpawn) under
# AddressSanitizer and UndefinedBehaviorSanitizer: both built with clang,
# then driven by Scripts/checks/spawner_driver.c through failed spawns (a
# script without #!, a missing interpreter, with 256 KiB of environment),
# arguments up to the system's limits (MAX_ARG_STRLEN, ARG_MAX) and past
# them, every reply kind, pinned spawns (LP_SPAWN_FLAG_AFFINITY) and every
# protocol error. Fails on a wrong reply
# or any sanitizer report.
#
#   Scripts/checks/sanitize-spawner.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

command -v clang >/dev/null || { echo "sanitize-spawner.sh: clang is needed (it ships with the Swift toolchain)" >&2; exit 2; }
out=.build-sanitize/spawner
rm -rf "$out"
mkdir -p "$out/scratch"
flags=(-std=gnu11 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
    -Wall -Wextra -Werror -Wno-unused-parameter -I Sources/Benchmark/CLaunchProfSpawn/include)
# The linker's "Cannot export local symbol '__asan_…'" warnings are noise.
build() { clang "${flags[@]}" "$@" 2>&1 | { grep -v 'Cannot export local symbol' || true; }; test "${PIPESTATUS[0]}" -eq 0; }
build Sources/Benchmark/LaunchProfSpawner/*.c Sources/Benchmark/CLaunchProfSpawn/perf_sampling.c -o "$out/lp-spawn"
build Scripts/checks/spawner_driver.c Sources/Benchmark/CLaunchProfSpawn/spawn_client.c -o "$out/spawner_driver"

# Leak checking needs ptrace, which some containers forbid: it is on where
# it works.
leaks=1
if ASAN_OPTIONS=detect_leaks=1 "$out/spawner_driver" 2>&1 | grep -q 'LeakSanitizer has encountered a fatal error'; then
    leaks=0
    echo "sanitize-spawner.sh: LeakSanitizer cannot run here (no ptrace): leaks are not checked" >&2
fi
# A sanitizer report ends the process with one of these statuses, which the
# driver (for lp-spawn) and this script (for the driver) see.
export ASAN_OPTIONS="detect_leaks=$leaks:exitcode=66:abort_on_error=0:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=67"
"$out/spawner_driver" "$PWD/$out/lp-spawn" "$PWD/$out/scratch"
