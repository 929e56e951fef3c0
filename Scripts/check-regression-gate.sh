#!/usr/bin/env bash
# How often the regression gate is wrong, on real launches of the sample app
# (release build), at the default settings (5% threshold, Mann–Whitney
# p < 0.01, statistic p50):
#   1. false positives: the same binary as baseline and as candidate, TRIES
#      times: how many tries flag a regression (target: none);
#   2. detection: a 10% slowdown (LP_SAMPLE_EXTRA_MS set to a tenth of the
#      app's median launch, measured first) against a fresh baseline, TRIES
#      times: how many tries flag it (target: at least 9 of 10).
# Every launchprof run measures RUNS runs after 3 warm-ups.
#   Scripts/check-regression-gate.sh [TRIES] [RUNS]      (default 10 30)
set -euo pipefail
cd "$(dirname "$0")/.."
tries=${1:-10}
runs=${2:-30}
swift build -c release --product launchprof >&2
swift build -c release --product lp-sample-app >&2
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

run() {  # run NAME-OF-BASELINE-FLAG... ; prints the exit status (0 pass, 1 regression)
    local status=0
    "$bin/launchprof" run -r "$runs" -w 3 -n app "$@" -- "$bin/lp-sample-app" >"$work/last.txt" 2>&1 || status=$?
    if [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then
        cat "$work/last.txt" >&2
        echo "check-regression-gate: launchprof exited with $status" >&2
        exit 2
    fi
    echo "$status"
}

change() { grep -o 'wall_to_ready p50 .*' "$work/last.txt" | sed 's/wall_to_ready p50 *//'; }

"$bin/launchprof" run -r "$runs" -w 3 -n app --export-json calibrate.json -- "$bin/lp-sample-app" >/dev/null
median_ms=$(python3 -c 'import json,sys; d=json.load(open("calibrate.json")); print(d["results"][0]["summaries"]["wall_to_ready"]["median"]/1e6)')
extra=$(python3 -c "print(max(1, round($median_ms * 0.10)))")
echo "lp-sample-app (release): median launch ${median_ms} ms; the slowdown adds ${extra} ms of work (10%)"

echo "== false positives: the same binary as baseline and candidate, $tries tries of $runs runs"
flagged=0
for try in $(seq 1 "$tries"); do
    run --save-baseline same >/dev/null
    status=$(run --baseline same)
    [ "$status" -eq 1 ] && flagged=$((flagged + 1))
    echo "  try $try: $([ "$status" -eq 1 ] && echo FLAGGED || echo ok)  $(change)"
done
echo "false positives: $flagged of $tries (target: 0)"

echo "== detection: +${extra} ms (10%) against a fresh baseline, $tries tries of $runs runs"
detected=0
for try in $(seq 1 "$tries"); do
    run --save-baseline base >/dev/null
    status=$(LP_SAMPLE_EXTRA_MS=$extra run --baseline base)
    [ "$status" -eq 1 ] && detected=$((detected + 1))
    echo "  try $try: $([ "$status" -eq 1 ] && echo detected || echo MISSED)  $(change)"
done
echo "detected: $detected of $tries (target: at least $(( (tries * 9 + 9) / 10 )))"
