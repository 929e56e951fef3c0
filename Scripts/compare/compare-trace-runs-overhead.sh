#!/usr/bin/env bash
# Whether tracing the measured runs (--trace-runs) changes time to ready:
# the sample app, untraced and traced (LAUNCHPROF_TRACE with
# LAUNCHPROF_TRACE_AT=after-ready, exactly what --trace-runs sets),
# interleaved run by run in one `launchprof run`, both through /usr/bin/env
# so they start alike. Prints both medians and the ratio with launchprof's
# confidence interval; the trace is written after ready, so the ratio should
# be 1 within noise.
#
# Usage: Scripts/compare/compare-trace-runs-overhead.sh   RUNS=200 WARMUP=10
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-200}
WARMUP=${WARMUP:-10}
swift build -c release --product launchprof >&2
swift build -c release --product lp-spawn >&2
swift build -c release --product lp-sample-app >&2
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$bin/launchprof" run --ready tracer --runs "$RUNS" --warmup "$WARMUP" --reference untraced -n untraced -n traced \
    --export-json "$work/results.json" \
    "/usr/bin/env $bin/lp-sample-app" \
    "/usr/bin/env LAUNCHPROF_TRACE=$work/run.lptrace LAUNCHPROF_TRACE_AT=after-ready $bin/lp-sample-app"

python3 - "$work/results.json" <<'PY'
import json, statistics, sys
runs = {r["target"]["name"]: [x["wallToReady"] / 1e6 for x in r["runs"] if x.get("wallToReady")] for r in json.load(open(sys.argv[1]))["results"]}
median = {name: statistics.median(times) for name, times in runs.items()}
for name in ("untraced", "traced"):
    print(f"{name:9} median time to ready {median[name]:.3f} ms over {len(runs[name])} runs")
print(f"traced / untraced: {median['traced'] / median['untraced']:.4f} (medians)")
PY
