#!/usr/bin/env bash
# How often the regression gate is wrong, on real launches of the sample app
# (release build), at the default settings (5% threshold, Mann–Whitney
# p < 0.01, statistic p50), judged three ways on the same measurements:
# relative to a reference target measured in both runs (the default when the
# run has a reference: here the same sample app without extra work), relative
# to launchprof's own calibration workload (what a run without a named
# reference gets when it is compared across time: the same documents with
# the reference left out), and as measured (`--absolute`).
#   1. false positives: the same binary as baseline and as candidate, TRIES
#      times: how many tries flag a regression (target: none);
#   2. detection: a 10% slowdown (LP_SAMPLE_EXTRA_MS set to a tenth of the
#      app's median launch, measured first) against a fresh baseline, TRIES
#      times: how many tries flag it (target: at least 9 of 10).
# Every launchprof run measures RUNS runs of each target after 3 warm-ups,
# interleaved. Set LOAD=N to run N busy loops beside it (a shared machine).
#   Scripts/checks/check-regression-gate.sh [TRIES] [RUNS]      (default 10 30)
# CONFIG=debug to measure debug builds (default: release); KEEP=DIR keeps
# every try's two results documents there, to judge them again later.
set -euo pipefail
cd "$(dirname "$0")/../.."
tries=${1:-10}
runs=${2:-30}
config=${CONFIG:-release}
swift build -c "$config" --product launchprof >&2
swift build -c "$config" --product lp-spawn >&2
swift build -c "$config" --product lp-sample-app >&2
bin=$(swift build -c "$config" --show-bin-path)
work=$(mktemp -d)
loads=()
cleanup() {
    for pid in "${loads[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
cd "$work"
for _ in $(seq 1 "${LOAD:-0}"); do
    (while :; do :; done) &
    loads+=($!)
done

configure() {  # configure EXTRA_MS: ref and app run the sample app; app does EXTRA_MS more work
    cat >launchprof.yml <<EOF
reference: ref
defaults: {runs: $runs, warmup: 3}
targets:
  - name: ref
    command: [$bin/lp-sample-app]
  - name: app
    command: [$bin/lp-sample-app]
    environment: {LP_SAMPLE_EXTRA_MS: "$1"}
EOF
}

measure() {  # measure FILE: one run of both targets, results to FILE
    "$bin/launchprof" run --calibrate --export-json "$1" >"$work/last.txt" 2>&1 || {
        cat "$work/last.txt" >&2
        echo "check-regression-gate: launchprof run failed" >&2
        exit 2
    }
}

verdict() {  # verdict [--absolute]: prints app's verdict word and its change
    local status=0
    "$bin/launchprof" compare "$@" base.json candidate.json >"$work/compare.txt" 2>&1 || status=$?
    if [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then
        cat "$work/compare.txt" >&2
        echo "check-regression-gate: launchprof compare exited with $status" >&2
        exit 2
    fi
    # Only app's verdict counts: as measured, ref is gated too, and the
    # relative way never gates it.
    grep -o '[a-z]* *app (warm) wall_to_ready p50 .*' "$work/compare.txt" | sed 's/ *app (warm) wall_to_ready p50 */ /'
}

calibrated_verdict() {  # the verdict relative to the calibration: the same documents without their reference
    for name in base candidate; do
        python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["reference"] = None; d.pop("comparison", None); json.dump(d, open(sys.argv[2], "w"))' \
            "$name.json" "$name-calibrated.json"
    done
    local status=0
    "$bin/launchprof" compare base-calibrated.json candidate-calibrated.json >"$work/compare.txt" 2>&1 || status=$?
    if [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then
        cat "$work/compare.txt" >&2
        echo "check-regression-gate: launchprof compare exited with $status" >&2
        exit 2
    fi
    grep -o '[a-z]* *app (warm) wall_to_ready p50 .*' "$work/compare.txt" | sed 's/ *app (warm) wall_to_ready p50 */ /'
}

configure 0
measure calibrate.json
median_ms=$(python3 -c 'import json; d=json.load(open("calibrate.json")); print(d["results"][1]["summaries"]["wall_to_ready"]["median"]/1e6)')
extra=$(python3 -c "print(max(1, round($median_ms * 0.10)))")
echo "lp-sample-app ($config): median launch ${median_ms} ms; the slowdown adds ${extra} ms of work (10%); ${LOAD:-0} busy loops beside"

trial() {  # trial NAME EXTRA_MS: baseline, then candidate with EXTRA_MS; counts app's regressions both ways
    local name=$1 extra_ms=$2 relative=0 calibrated=0 absolute=0
    echo "== $name: $tries tries of $runs runs per target"
    for try in $(seq 1 "$tries"); do
        configure 0
        measure base.json
        configure "$extra_ms"
        measure candidate.json
        local r c a
        r=$(verdict)
        c=$(calibrated_verdict)
        a=$(verdict --absolute)
        [ "${r%% *}" = regressed ] && relative=$((relative + 1))
        [ "${c%% *}" = regressed ] && calibrated=$((calibrated + 1))
        if [ -n "${KEEP:-}" ]; then
            mkdir -p "$KEEP"
            cp base.json "$KEEP/${extra_ms}ms-$try-base.json"
            cp candidate.json "$KEEP/${extra_ms}ms-$try-candidate.json"
        fi
        [ "${a%% *}" = regressed ] && absolute=$((absolute + 1))
        printf '  try %-2s relative %-9s %s\n' "$try:" "${r%% *}" "${r#* }"
        printf '         calibrated %-7s %s\n' "${c%% *}" "${c#* }"
        printf '         absolute %-9s %s\n' "${a%% *}" "${a#* }"
    done
    echo "$name: app regressed relative to the reference in $relative of $tries, relative to the calibration in $calibrated of $tries, as measured in $absolute of $tries"
}

trial "false positives (same binary; target 0)" 0
trial "detection (+${extra} ms, 10%; target at least $(( (tries * 9 + 9) / 10 )))" "$extra"
