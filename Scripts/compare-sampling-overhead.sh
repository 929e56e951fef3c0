#!/usr/bin/env bash
# What the launch sampler costs (issue 7's targets: at most 3% added to the
# launch at 1 kHz; at most 5 µs median handler time per sample at depth 30).
#
# 1. Launch time: lp-sample-app (release) to launch complete, measured with
#    `launchprof run` from a temporary launchprof.yml with three targets of
#    the same binary, interleaved run by run (plain sampled profiled …):
#      plain     no sampling;
#      sampled   LAUNCHPROF_SAMPLE_HZ=1000 (LaunchProf samples its main thread);
#      profiled  as `launchprof profile` runs it: also LD_PRELOAD of
#                liblaunchprof-preload.so (libunwind at start-up, every thread).
#    Prints each median and the ratios to plain, measured in the same run.
# 2. Handler cost: a C program whose hot function sits 30 frames deep,
#    profiled at 1 kHz through the preload library; the sampler times each
#    unwind (two clock reads around unw_backtrace, stored per sample) and
#    `launchprof profile` prints the median.
#
# Usage: Scripts/compare-sampling-overhead.sh     RUNS=200 WARMUP=20
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-200}
WARMUP=${WARMUP:-20}

swift build -c release >&2
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

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
  - name: sampled
    command: [$bin/lp-sample-app]
    environment: {LAUNCHPROF_SAMPLE_HZ: "1000"}
  - name: profiled
    command: [$bin/lp-sample-app]
    environment: {LAUNCHPROF_SAMPLE_HZ: "1000", LD_PRELOAD: $bin/liblaunchprof-preload.so}
YML
"$bin/launchprof" run --config "$work/launchprof.yml" --export-json "$work/results.json" >/dev/null

python3 - "$work/results.json" <<'PY'
import json, statistics, sys
results = json.load(open(sys.argv[1]))["results"]
runs = {r["target"]["name"]: [x["wallToReady"] / 1e6 for x in r["runs"] if x.get("wallToReady")] for r in results}
median = {name: statistics.median(times) for name, times in runs.items()}
for name in ("plain", "sampled", "profiled"):
    ratio = median[name] / median["plain"]
    print(f"{name:9} launch (to launch complete) median {median[name]:.3f} ms over {len(runs[name])} runs, "
          f"{(ratio - 1) * 100:+.1f}% vs plain")
PY

cat > "$work/deep.c" <<'C'
#include <stdio.h>
__attribute__((noinline)) double hot_leaf(long n) { double x = 0; for (long i = 0; i < n; i++) x += i * 1e-9; return x; }
/* 26 frames of recursion + hot_leaf + main + libc's two + _start = 31 */
__attribute__((noinline)) double descend(int depth, long n) { return depth == 0 ? hot_leaf(n) : descend(depth - 1, n) + 1.0; }
int main(void) { double x = 0; for (int i = 0; i < 40; i++) x += descend(25, 10000000); printf("%f\n", x); return 0; }
C
cc -O1 -g -o "$work/deep" "$work/deep.c"
"$bin/launchprof" profile --quiet --hz 1000 --output-dir "$work" -- "$work/deep" 2>&1 | grep -E "samples|handler"
