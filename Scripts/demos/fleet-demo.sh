#!/usr/bin/env bash
# Makes the fleet report shown in docs/fleet.md (docs/fleet-report.png) from
# real runs, as CI artifacts from four commits on two runners would be:
# docs/fleet-demo.yml run once per commit and runner with GitHub Actions'
# variables set (GITHUB_SHA, GITHUB_REF_NAME, RUNNER_NAME), each compared
# with its runner's first run; the third commit gives the sample app 25 ms
# of extra start-up work (LP_SAMPLE_EXTRA_MS), a real regression that also
# fails the budget. Then `launchprof report` over the artifact directory,
# and a headless Chromium screenshot (apt-get install chromium).
# Output in .launchprof/fleet-demo/; pass --no-screenshot to skip it.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release >&2
bin=.build/release
out=.launchprof/fleet-demo
rm -rf "$out"
mkdir -p "$out/artifacts"

first=""
for commit in 5f1c2e9a0b 8d04b7c3e1 c93a6f2d47 e27b9d1f08; do
    extra=0
    [ "$commit" = c93a6f2d47 ] && extra=25
    for runner in ci-runner-1 ci-runner-2; do
        baseline=()
        [ -n "$first" ] && baseline=(--baseline "$out/artifacts/$first-$runner/launch.json")
        mkdir -p "$out/artifacts/$commit-$runner"
        # Exit status 1 (the budget, the regression) is part of the demo, not an error.
        GITHUB_SHA=$commit GITHUB_REF_NAME=main RUNNER_NAME=$runner LP_SAMPLE_EXTRA_MS=$extra \
            "$bin/launchprof" run --config docs/fleet-demo.yml "${baseline[@]}" \
            --export-json "$out/artifacts/$commit-$runner/launch.json" >/dev/null || [ $? -eq 1 ]
    done
    [ -z "$first" ] && first=$commit
done
"$bin/launchprof" report "$out/artifacts" -o "$out/fleet.html" --svg-dir "$out/charts"

if [ "${1:-}" != "--no-screenshot" ]; then
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1240,1000 \
        --screenshot=docs/fleet-report.png "file://$PWD/$out/fleet.html" 2>/dev/null
    echo "wrote docs/fleet-report.png"
fi
echo "report: $out/fleet.html, charts: $out/charts/"
