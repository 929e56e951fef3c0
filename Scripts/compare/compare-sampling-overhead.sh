#!/usr/bin/env bash
# What the launch sampler costs (the targets: at most 3% added to the
# launch at the default rate; at most 5 µs median handler time per sample at
# depth 30 for the in-process sampler).
#
# 1. Launch cost, kernel against in-process: Scripts/compare/sampling-cost
#    launches lp-sample-app (release, ready: tracer) RUNS times per variant,
#    interleaved run by run: plain; kernel-R (the spawner's per-CPU perf
#    events, stacks copied by the kernel: `launchprof profile`'s default);
#    in-process-R (LD_PRELOAD of liblaunchprof-preload.so and
#    LAUNCHPROF_SAMPLE_HZ: `--sampler in-process`), for each rate R of
#    RATES. Prints the medians of the tree's CPU (user + system, rusage) and
#    of the wall time to ready, and their ratios to plain, measured in the
#    same run.
# 2. The preload library's cost to lp-hello-c (a C program, 2-3 ms): plain
#    vs preloaded, with `launchprof run`.
# 3. Handler cost of the in-process sampler: a C program whose hot function
#    sits 30 frames deep, profiled at 1 kHz with --sampler in-process,
#    HANDLER_RUNS times; `launchprof profile` prints the median of each run.
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

(cd Scripts/compare/sampling-cost && swift build -c release >&2)
tool=$(cd Scripts/compare/sampling-cost && swift build -c release --show-bin-path)/sampling-cost
LAUNCHPROF_SPAWNER=$bin/lp-spawn "$tool" "$RUNS" "$WARMUP" "$RATES" "$preload" "$bin/lp-sample-app"

cat > "$work/launchprof.yml" <<YML
version: 1
reference: c-plain
defaults:
  runs: $RUNS
  warmup: $WARMUP
  ready: exit
targets:
  - name: c-plain
    command: [$bin/lp-hello-c]
  - name: c-preloaded
    command: [$bin/lp-hello-c]
    environment: {LD_PRELOAD: $preload}
YML
"$bin/launchprof" run --no-trace-runs --config "$work/launchprof.yml" --export-json "$work/results.json" >/dev/null
python3 - "$work/results.json" <<'PY'
import json, statistics, sys
results = {r["target"]["name"]: r["runs"] for r in json.load(open(sys.argv[1]))["results"]}
base = statistics.median((x["userCPU"] + x["systemCPU"]) / 1e6 for x in results["c-plain"])
for name in ("c-plain", "c-preloaded"):
    cpu = statistics.median((x["userCPU"] + x["systemCPU"]) / 1e6 for x in results[name])
    wall = statistics.median(x["wallToExit"] / 1e6 for x in results[name])
    print(f"{name:14} CPU {cpu:7.3f} ms {(cpu / base - 1) * 100:+6.1f}%   wall to exit {wall:7.3f} ms")
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
  "$bin/launchprof" profile --sampler in-process --quiet --runs 1 --hz 1000 --output-dir "$work" -- "$work/deep" 2>&1 | grep -E "handler"
done | python3 -c '
import re, statistics, sys
medians = sorted(float(re.search(r"median ([0-9.]+) µs", line).group(1)) for line in sys.stdin)
print(f"handler at depth 31: per-run medians {medians} µs; median of runs {statistics.median(medians):.2f} µs")'
