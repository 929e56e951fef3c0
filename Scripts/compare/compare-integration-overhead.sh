#!/usr/bin/env bash
# What LaunchProfTracing and LaunchProfMetrics cost a launch: they must cost
# nothing before launch complete (their work starts after it, off the main
# thread).
#
# Builds launch-tracing-sample (Integrations/, release) and runs it with
# `launchprof run --ready tracer` twice over, interleaved run by run: with
# both exporters registered (bootstrapped into in-memory backends), and with
# --no-export, the reference. Prints the median time to ready of each, the
# ratio with its 95% interval as launchprof reports it, and the verdict.
#
# Usage: Scripts/compare/compare-integration-overhead.sh
#   RUNS=200 WARMUP=10 LIMIT=1.03 STRICT=1 (exit 1 when the ratio's median is over LIMIT)
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-200}
WARMUP=${WARMUP:-10}
LIMIT=${LIMIT:-1.03}
STRICT=${STRICT:-0}

swift build -c release --product launchprof >&2
swift build -c release --product lp-spawn >&2
bin=$(swift build -c release --show-bin-path)
(cd Integrations && swift build -c release --product launch-tracing-sample >&2)
sample="$(cd Integrations && swift build -c release --show-bin-path)/launch-tracing-sample"
results=$(mktemp)
trap 'rm -f "$results"' EXIT

"$bin/launchprof" run --ready tracer --runs "$RUNS" --warmup "$WARMUP" --reference plain -n plain -n exported \
    "$sample --no-export" "$sample" --export-json "$results"

python3 - "$results" "$LIMIT" "$STRICT" <<'PY'
import json, statistics, sys
path, limit, strict = sys.argv[1], float(sys.argv[2]), sys.argv[3] == "1"
runs = {r["target"]["name"]: [x["wallToReady"] / 1e6 for x in r["runs"]] for r in json.load(open(path))["results"]}
median = {name: statistics.median(times) for name, times in runs.items()}
for name in ("plain", "exported"):
    print(f"{name:9} median time to ready {median[name]:.3f} ms over {len(runs[name])} runs")
ratio = median["exported"] / median["plain"]
verdict = "within" if ratio <= limit else "OVER"
print(f"exported / plain: {ratio:.4f} (medians), {verdict} the {limit} limit")
sys.exit(1 if strict and ratio > limit else 0)
PY
