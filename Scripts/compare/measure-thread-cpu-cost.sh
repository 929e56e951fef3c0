#!/usr/bin/env bash
# What recording the thread's CPU time at an interval's begin and end costs
# (issue 27): an interval (begin + end) with and without the two
# CLOCK_THREAD_CPUTIME_ID reads, beside a CLOCK_MONOTONIC read measured in the
# same process, ROUNDS times. Prints the median of each figure in ns (the
# thread's own CPU time per operation) and the ratios to the clock read of
# the same round, and the same interval after launch complete (when the
# reads stop). The figures are in docs/tracer.md.
#
# Usage: Scripts/compare/measure-thread-cpu-cost.sh        ROUNDS=7 COUNT=1048576
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-7}
COUNT=${COUNT:-1048576}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
clang -std=gnu11 -O2 -pthread -I Sources/Embedded/CLaunchProfSupport/include -I Sources/Shared/LaunchProfFormat/include \
    Scripts/compare/thread-cpu-cost/thread_cpu_cost.c Sources/Embedded/CLaunchProfSupport/launchprof_support.c \
    Sources/Embedded/CLaunchProfSupport/launchprof_env.c -o "$work/cost"
for round in $(seq "$ROUNDS"); do "$work/cost" "$COUNT" | sed "s/^/$round /" >>"$work/results"; done
python3 - "$work/results" "$ROUNDS" "$COUNT" <<'PY'
import statistics, sys
path, rounds, count = sys.argv[1:]
runs = {}
for line in open(path):
    r, case, ns = line.split()
    runs.setdefault(r, {})[case] = float(ns)
def median(f): return statistics.median(f(v) for v in runs.values())
print(f"{rounds} rounds of {count} operations each; medians of the thread's CPU time per operation")
print("| case | ns | ÷ clock_gettime(MONOTONIC), same round |")
print("|---|---|---|")
for case, label in [("clock", "clock_gettime(CLOCK_MONOTONIC)"), ("thread-clock", "clock_gettime(CLOCK_THREAD_CPUTIME_ID)"),
                    ("interval", "interval begin + end, no CPU read"), ("interval-cpu", "interval begin + end, with the two CPU reads (before launch complete)"),
                    ("interval-late", "interval begin + end after launch complete (no CPU read)")]:
    print(f"| {label} | {median(lambda v: v[case]):.1f} | {median(lambda v: v[case] / v['clock']):.2f} |")
print(f"interval with ÷ without the CPU reads: {median(lambda v: v['interval-cpu'] / v['interval']):.2f}; "
      f"added per interval: {median(lambda v: v['interval-cpu'] - v['interval']):.0f} ns")
PY
