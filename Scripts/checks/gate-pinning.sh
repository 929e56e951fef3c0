#!/usr/bin/env bash
# What pinning changes about what `launchprof gate` measures: a launch whose
# threads run at once is measured on one CPU when pinned. Two changes of a C
# program (gate_parallel.c), gated unpinned and with --affinity 0:
#   split:  10 ms of work on one thread → 5 ms on each of two threads at once
#           (faster where two CPUs are free, the same on one);
#   beside: 10 ms on one thread → the same, and a second thread doing 10 ms
#           at once, joined before exit (little slower where two CPUs are
#           free, twice as slow on one).
#   Scripts/checks/gate-pinning.sh [TRIES]        (default 3)
# Meant for a quiet machine with two or more CPUs (on a busy one the second
# CPU is not free unpinned either). NO_BUILD=1 uses the binaries as built;
# BIN=DIR takes launchprof and lp-spawn from DIR; CONFIG=debug|release.
# Prints each try's verdict line.
set -euo pipefail
cd "$(dirname "$0")/../.."
tries=${1:-3}
config=${CONFIG:-debug}
if [ -z "${NO_BUILD:-}" ]; then
    swift build -c "$config" --product launchprof >&2
    swift build -c "$config" --product lp-spawn >&2
fi
bin=${BIN:-$(swift build -c "$config" --show-bin-path)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
cc -O1 -pthread -o "$work/parallel" Scripts/checks/gate_parallel.c
echo "$(nproc) CPUs, $(cut -d' ' -f1-3 /proc/loadavg) load average at the start, $tries tries" >&2
for try in $(seq "$tries"); do
    for change in split beside; do
        case "$change" in
        split) base=(LP_THREADS=1 LP_WORK_MS=10) head=(LP_THREADS=2 LP_WORK_MS=5) ;;
        beside) base=(LP_THREADS=1 LP_WORK_MS=10) head=(LP_THREADS=2 LP_WORK_MS=10) ;;
        esac
        for pin in unpinned 0; do
            options=(--affinity "$([ "$pin" = unpinned ] && echo none || echo "$pin")")
            # 0 unchanged or improved, 1 regressed, 4 inconclusive: all are answers here.
            line=$("$bin/launchprof" gate "${options[@]}" --why-runs 0 --threshold 2 --max-time 30 \
                --base-command "env ${base[*]} '$work/parallel'" -- env "${head[@]}" "$work/parallel" 2>&1 | head -1) || true
            printf '%-7s %-9s try %s: %s\n' "$change" "$pin" "$try" "$line"
        done
    done
done
