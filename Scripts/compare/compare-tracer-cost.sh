#!/usr/bin/env bash
# What one traced event costs before and after a change to the tracer, beside
# a clock_gettime measured in the same process: 1, 2 and 4 threads recording
# at once (per event per thread), and tracing disabled.
#
# Builds Scripts/compare/tracer-cost/tracer_cost.c twice with clang -O2: against
# CLaunchProfSupport as it is in the work tree ("after") and as it was at BASE
# ("before", from git), then runs the two binaries alternately ROUNDS times,
# so both see the same machine load. Prints the median of each figure, the
# ratio of each event to the clock read of its own run and thread count, and
# the best round's ratio (on a shared machine, the round least disturbed).
# Targets (docs/tracer.md): event <= 1.1x clock_gettime at 1, 2 and 4 threads;
# disabled <= 1 ns.
#
# Usage: Scripts/compare/compare-tracer-cost.sh [BASE]     ROUNDS=7 COUNT=4194304 RING=1048576 (events)
# BASE defaults to c92f6b1, the tree before blocks were owned (issue 26).
set -euo pipefail
cd "$(dirname "$0")/../.."
BASE=${1:-c92f6b1}
ROUNDS=${ROUNDS:-7}
COUNT=${COUNT:-4194304}
RING=${RING:-1048576}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

build() {  # name, folder holding CLaunchProfSupport, folder holding LaunchProfFormat
    clang -std=gnu11 -O2 -pthread -I "$2/CLaunchProfSupport/include" -I "$3/LaunchProfFormat/include" \
        Scripts/compare/tracer-cost/tracer_cost.c "$2/CLaunchProfSupport/launchprof_support.c" \
        "$2/CLaunchProfSupport/launchprof_env.c" -o "$work/$1"
}
mkdir -p "$work/source-before"
# Before Sources/ was grouped by product, both folders sat at its top.
if git cat-file -e "$BASE:Sources/Embedded/CLaunchProfSupport" 2>/dev/null; then
    git archive "$BASE" Sources/Embedded/CLaunchProfSupport Sources/Shared/LaunchProfFormat | tar -x -C "$work/source-before"
    build before "$work/source-before/Sources/Embedded" "$work/source-before/Sources/Shared"
else
    git archive "$BASE" Sources/CLaunchProfSupport Sources/LaunchProfFormat | tar -x -C "$work/source-before"
    build before "$work/source-before/Sources" "$work/source-before/Sources"
fi
build after Sources/Embedded Sources/Shared

for round in $(seq "$ROUNDS"); do
    for version in before after; do
         "$work/$version" "$COUNT" "$RING" | sed "s/^/$round $version /" >>"$work/results"
    done
done

python3 - "$work/results" "$BASE" "$ROUNDS" "$COUNT" "$RING" <<'PY'
import statistics, sys
path, base, rounds, count, ring = sys.argv[1:]
runs = {}  # (round, version) -> {(case, threads): (wall, cpu)}
for line in open(path):
    r, version, case, threads, wall, cpu = line.split()
    runs.setdefault((r, version), {})[(case, int(threads))] = (int(wall) / 1000, int(cpu) / 1000)
def median(version, key, field):
    return statistics.median(v[key][field] for (r, ver), v in runs.items() if ver == version)
def ratios(version, threads, field):
    return [v[("event", threads)][field] / v[("clock", threads)][field]
            for (r, ver), v in runs.items() if ver == version]
def ratio(version, threads, field):
    return statistics.median(ratios(version, threads, field))
def best(version, threads):  # the least disturbed round (cpu)
    return min(ratios(version, threads, 1))
print(f"before = {base}, after = work tree; {rounds} alternating rounds, {count} operations per thread per case, a {ring}-event overwrite-oldest ring; medians")
print("| case | threads | event ns, cpu (before / after) | clock_gettime ns, cpu, same run (before / after) "
      "| event ÷ clock, cpu (before / after) | event ÷ clock, wall (before / after) | best round, cpu (before / after) |")
print("|---|---|---|---|---|---|---|")
for threads in (1, 2, 4):
    b, a = (median(v, ("event", threads), 1) for v in ("before", "after"))
    cb, ca = (median(v, ("clock", threads), 1) for v in ("before", "after"))
    print(f"| event | {threads} | {b:.2f} / {a:.2f} | {cb:.2f} / {ca:.2f} | "
          f"{ratio('before', threads, 1):.3f} / {ratio('after', threads, 1):.3f} | "
          f"{ratio('before', threads, 0):.3f} / {ratio('after', threads, 0):.3f} | "
          f"{best('before', threads):.3f} / {best('after', threads):.3f} |")
b, a = (median(v, ("disabled", 1), 1) for v in ("before", "after"))
print(f"| disabled | 1 | {b:.3f} / {a:.3f} | | | | |")
PY
