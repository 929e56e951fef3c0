#!/usr/bin/env bash
# What linking LaunchProf adds to a launch (the target: a hello-world
# that links it and records one milestone launches within 0.2 ms, median, of
# one that does not).
#
# Builds lp-hello-traced and lp-hello-plain the same way (release) and runs
# both with `launchprof run`, interleaved run by run (plain traced plain …), so
# slow drift of a shared machine hits both alike. Prints both medians, the
# difference, and callgrind's instruction counts when valgrind is installed
# (those repeat exactly, whatever else the machine is doing).
#
# Usage: Scripts/compare/compare-launch-overhead.sh
#   RUNS=500 WARMUP=30 LIMIT_MS=0.2 STRICT=1 (exit 1 when over the limit)
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-500}
WARMUP=${WARMUP:-30}
LIMIT_MS=${LIMIT_MS:-0.2}
STRICT=${STRICT:-0}

swift build -c release >&2
bin=$(swift build -c release --show-bin-path)
results=$(mktemp)
trap 'rm -f "$results"' EXIT

"$bin/launchprof" run --runs "$RUNS" --warmup "$WARMUP" --reference plain -n plain -n traced \
    "$bin/lp-hello-plain" "$bin/lp-hello-traced" --export-json "$results" >/dev/null

if command -v valgrind >/dev/null; then
    for program in lp-hello-plain lp-hello-traced; do
        # A copy without debug info: valgrind 3.19's DWARF reader gives up on
        # some of clang 21's, and instruction counts do not depend on it.
        stripped="$results.$program"
        strip --strip-debug -o "$stripped" "$bin/$program"
        count=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$stripped" 2>&1 >/dev/null |
            sed -n 's/.*Collected : //p')
        rm -f "$stripped"
        echo "$program: $count instructions (callgrind)"
    done
fi

python3 - "$results" "$LIMIT_MS" "$STRICT" <<'PY'
import json, statistics, sys
path, limit, strict = sys.argv[1], float(sys.argv[2]), sys.argv[3] == "1"
runs = {r["target"]["name"]: [x["wallToExit"] / 1e6 for x in r["runs"]] for r in json.load(open(path))["results"]}
median = {name: statistics.median(times) for name, times in runs.items()}
for name in ("plain", "traced"):
    print(f"{name:7} median {median[name]:.3f} ms over {len(runs[name])} runs")
diff = median["traced"] - median["plain"]
verdict = "within" if diff <= limit else "OVER"
print(f"traced - plain: {diff:+.3f} ms (median), {verdict} the {limit} ms target")
sys.exit(1 if strict and diff > limit else 0)
PY
