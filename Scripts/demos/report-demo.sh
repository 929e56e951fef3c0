#!/usr/bin/env bash
# Makes the report shown in docs/report.md (docs/report.png) from real runs:
#   1. a baseline run of docs/report-demo.yml;
#   2. the sample app given 20 ms of extra start-up work (LP_SAMPLE_EXTRA_MS):
#      one traced launch (launchprof record), then the same run again,
#      compared with the baseline: a real regression, and its cause traced;
#   4. `launchprof report` with the baseline and the trace, HTML and SVGs;
#   5. a headless Chromium screenshot of the page (apt-get install chromium).
# Output in .launchprof/report-demo/; pass --no-screenshot to skip step 5.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release >&2
bin=.build/release
out=.launchprof/report-demo
mkdir -p "$out"

# Exit status 1 (a budget failed, or the regression) is part of the demo, not an error.
"$bin/launchprof" run --config docs/report-demo.yml --export-json "$out/before.json" >/dev/null || [ $? -eq 1 ]
export LP_SAMPLE_EXTRA_MS=20
"$bin/launchprof" record --quiet --output "$out/sample-app.lptrace" -- "$bin/lp-sample-app"
"$bin/launchprof" run --config docs/report-demo.yml --baseline "$out/before.json" \
    --export-json "$out/after.json" || [ $? -eq 1 ]
"$bin/launchprof" report "$out/after.json" --baseline "$out/before.json" \
    --trace "sample-app=$out/sample-app.lptrace" -o "$out/report.html" --svg-dir "$out/charts"

if [ "${1:-}" != "--no-screenshot" ]; then
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,3050 \
        --screenshot=docs/report.png "file://$PWD/$out/report.html" 2>/dev/null
    echo "wrote docs/report.png"
fi
echo "report: $out/report.html, charts: $out/charts/"
