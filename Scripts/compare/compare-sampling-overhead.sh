#!/usr/bin/env bash
# What the launch sampler costs (the targets: at most 3% added to the
# launch at the default rate; at most 5 µs median handler time per sample at
# depth 30).
#
# 1. Launch time: lp-sample-app (release) to launch complete, measured with
#    `launchprof run` from a temporary launchprof.yml with targets of the
#    same binary, interleaved run by run (plain sampled-1000 profiled-1000 …):
#      plain        no sampling;
#      sampled-R    LAUNCHPROF_SAMPLE_HZ=R (LaunchProf samples its main thread);
#      profiled-R   as `launchprof profile --hz R` runs it: also LD_PRELOAD of
#                   liblaunchprof-preload.so (libunwind at start-up, every thread);
#      posix-R      profiled-R with LAUNCHPROF_SAMPLE_TIMER=posix (the POSIX
#                   CPU-time timers the sampler falls back to);
#      preloaded    LD_PRELOAD alone, no sampling: what loading the library costs.
#    for each rate R of RATES. The measured runs write no trace
#    (--no-trace-runs): the table is what sampling costs the launch itself.
#    Prints, for each, the medians of the CPU the launch used (user + system,
#    rusage) and of its wall time to ready, and their ratios to plain,
#    measured in the same run.
# 2. The same for lp-hello-c (a C program, 2-3 ms): plain vs preloaded, what
#    the preload library's dependencies (libunwind, and the Swift runtime
#    swiftc links into every product) cost a program that has neither.
# 3. Handler cost: a C program whose hot function sits 30 frames deep,
#    profiled at 1 kHz through the preload library, HANDLER_RUNS times; the
#    sampler times each unwind (two clock reads around the stack walk, stored
#    per sample) and `launchprof profile` prints the median of each run.
#
# Usage: Scripts/compare/compare-sampling-overhead.sh     RUNS=200 WARMUP=20 HANDLER_RUNS=10 RATES="250 1000 4000"
set -euo pipefail
cd "$(dirname "$0")/../.."
RATES=${RATES:-250 1000 4000}
RUNS=${RUNS:-200}
WARMUP=${WARMUP:-20}
HANDLER_RUNS=${HANDLER_RUNS:-10}

swift build -c release >&2
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

preload=$bin/launchprof_launchprof.resources/liblaunchprof-preload.so
rate_targets=""
for rate in $RATES; do
  rate_targets+="  - name: sampled-$rate
    command: [$bin/lp-sample-app]
    environment: {LAUNCHPROF_SAMPLE_HZ: \"$rate\"}
  - name: profiled-$rate
    command: [$bin/lp-sample-app]
    environment: {LAUNCHPROF_SAMPLE_HZ: \"$rate\", LD_PRELOAD: $preload}
  - name: posix-$rate
    command: [$bin/lp-sample-app]
    environment: {LAUNCHPROF_SAMPLE_HZ: \"$rate\", LAUNCHPROF_SAMPLE_TIMER: posix, LD_PRELOAD: $preload}
"
done
cat > "$work/launchprof.yml" <<YML
version: 1
reference: plain
defaults:
  runs: $RUNS
  warmup: $WARMUP
  ready: tracer
targets:
  - name: plain
    command: [$bin/lp-sample-app]
$rate_targets
  - name: preloaded
    command: [$bin/lp-sample-app]
    environment: {LD_PRELOAD: $bin/launchprof_launchprof.resources/liblaunchprof-preload.so}
  - name: c-plain
    command: [$bin/lp-hello-c]
    ready: exit
  - name: c-preloaded
    command: [$bin/lp-hello-c]
    ready: exit
    environment: {LD_PRELOAD: $bin/launchprof_launchprof.resources/liblaunchprof-preload.so}
YML
"$bin/launchprof" run --no-trace-runs --config "$work/launchprof.yml" --export-json "$work/results.json" >/dev/null

python3 - "$work/results.json" <<'PY'
import json, statistics, sys
results = json.load(open(sys.argv[1]))["results"]
# Per run: wall time to ready, and the CPU the launch used (user + system, of
# the whole process until it exited: sampling ends at launch complete).
wall = {r["target"]["name"]: [x["wallToReady"] / 1e6 for x in r["runs"] if x.get("wallToReady")] for r in results}
cpu = {r["target"]["name"]: [(x["userCPU"] + x["systemCPU"]) / 1e6 for x in r["runs"] if x.get("wallToReady")] for r in results}
swift = [name for name in wall if not name.startswith("c-")]
print(f"{'target':14} {'CPU (user+sys)':>34}   {'wall to ready':>34}")
for name, reference in [(name, "plain") for name in swift] + [("c-plain", "c-plain"), ("c-preloaded", "c-plain")]:
    cells = []
    for measure in (cpu, wall):
        value, base = statistics.median(measure[name]), statistics.median(measure[reference])
        cells.append(f"{value:8.3f} ms {(value / base - 1) * 100:+6.1f}% ({(value - base) * 1000:+5.0f} µs)")
    print(f"{name:14} {cells[0]:>34}   {cells[1]:>34}   ({len(wall[name])} runs, vs {reference})")
PY

cat > "$work/deep.c" <<'C'
#include <stdio.h>
__attribute__((noinline)) double hot_leaf(long n) { double x = 0; for (long i = 0; i < n; i++) x += i * 1e-9; return x; }
/* 26 frames of recursion + hot_leaf + main + libc's two + _start = 31 */
__attribute__((noinline)) double descend(int depth, long n) { return depth == 0 ? hot_leaf(n) : descend(depth - 1, n) + 1.0; }
int main(void) { double x = 0; for (int i = 0; i < 40; i++) x += descend(25, 10000000); printf("%f\n", x); return 0; }
C
cc -O1 -g -o "$work/deep" "$work/deep.c"
for _ in $(seq "$HANDLER_RUNS"); do
  "$bin/launchprof" profile --quiet --hz 1000 --output-dir "$work" -- "$work/deep" 2>&1 | grep -E "handler"
done | python3 -c '
import re, statistics, sys
medians = sorted(float(re.search(r"median ([0-9.]+) µs", line).group(1)) for line in sys.stdin)
print(f"handler at depth 31: per-run medians {medians} µs; median of runs {statistics.median(medians):.2f} µs")'
