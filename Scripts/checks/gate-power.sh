#!/usr/bin/env bash
# The power and error rates of `launchprof gate` on real launches: a C
# program that spins ROUNDS of CPU work at launch (LP_SPIN), against itself
# (unchanged) and against itself with 1%, 2%, 3% and 5% more launch time
# (extra rounds sized from a first measurement of the launch and of one
# round's cost). For each, TRIES gates; prints how many said regressed,
# improved, unchanged and inconclusive, and the median and largest time to
# a verdict.
#   Scripts/checks/gate-power.sh [TRIES] [THRESHOLD]        (default 20 2)
# LOAD=quiet (default), busy (one busy loop for the whole run: one core of
# two kept busy) or half (a busy loop during the first 15 s of each gate).
# SLOWDOWNS="0 1 2 3 5" chooses the slowdowns (percent); MAXTIME the budget
# (default 120 s). CONFIG=debug uses the debug build (default: whatever
# `swift build` last built, debug).
set -euo pipefail
cd "$(dirname "$0")/../.."
tries=${1:-20}
threshold=${2:-2}
load=${LOAD:-quiet}
slowdowns=${SLOWDOWNS:-"0 1 2 3 5"}
maxtime=${MAXTIME:-120}
config=${CONFIG:-debug}
swift build -c "$config" --product launchprof >&2
swift build -c "$config" --product lp-spawn >&2
bin=$(swift build -c "$config" --show-bin-path)
work=$(mktemp -d)
busy=()
stop_busy() {
    for pid in "${busy[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    busy=()
}
cleanup() { stop_busy; rm -rf "$work"; }
trap cleanup EXIT INT TERM

cat >"$work/spin.c" <<'C'
#include <stdlib.h>
int main(void) {
    const char *text = getenv("LP_SPIN");
    long rounds = text ? atol(text) : 0;
    volatile unsigned long sum = 0;
    for (long i = 0; i < rounds; i++) sum += (unsigned long)i * 2654435761u;
    return sum == 42 ? 1 : 0;
}
C
cc -O1 -o "$work/spin" "$work/spin.c"
rounds=${ROUNDS:-1000000}

# The launch's median and one round's cost, from interleaved runs of the
# program and of it with ten times more rounds: the difference (~8 ms) is
# far above the noise, where a difference of one times was not (a busy
# moment once made it 0.3 ns per round instead of 0.8, and every slowdown
# four times too large).
"$bin/launchprof" run --runs 60 --export-json "$work/size.json" \
    "env LP_SPIN=$rounds $work/spin" "env LP_SPIN=$((rounds * 11)) $work/spin" >/dev/null 2>&1
read -r launch per_round < <(python3 - "$work/size.json" "$rounds" <<'PY'
import json, statistics, sys
doc = json.load(open(sys.argv[1])); rounds = int(sys.argv[2])
med = [statistics.median(r["wallToReady"] for r in res["runs"]) for res in doc["results"]]
print(med[0], (med[1] - med[0]) / (10 * rounds))
PY
)
echo "launch median $(python3 -c "print(round($launch/1e6, 3))") ms with $rounds rounds; $(python3 -c "print(round($per_round, 3))") ns per round; threshold $threshold%, load $load, $tries tries" >&2

start_load() {
    case "$load" in
    busy) sh -c 'while :; do :; done' & busy+=($!) ;;
    half) sh -c 'end=$(( $(date +%s) + 15 )); while [ "$(date +%s)" -lt "$end" ]; do :; done' & busy+=($!) ;;
    esac
}

printf '%-10s %9s %9s %9s %12s %12s %12s %12s\n' slowdown regressed improved unchanged inconclusive "median s" "max s" "measured"
for slowdown in $slowdowns; do
    extra=$(python3 -c "print(int(round($launch * $slowdown / 100 / $per_round)))")
    counts_regressed=0 counts_improved=0 counts_unchanged=0 counts_inconclusive=0
    times=()
    changes=()
    for try in $(seq "$tries"); do
        [ "$load" = busy ] && [ "${#busy[@]}" -eq 0 ] && start_load
        [ "$load" = half ] && start_load
        status=0
        "$bin/launchprof" gate --base-command "env LP_SPIN=$rounds $work/spin" --threshold "$threshold" \
            --max-time "$maxtime" --export-json "$work/gate.json" -- env "LP_SPIN=$((rounds + extra))" "$work/spin" \
            >"$work/out.txt" 2>/dev/null || status=$?
        [ "$load" = half ] && stop_busy
        verdict=$(python3 -c "import json; print(json.load(open('$work/gate.json'))['verdict'] or 'none')" 2>/dev/null || echo none)
        elapsed=$(python3 -c "import json; print(json.load(open('$work/gate.json'))['elapsed'])" 2>/dev/null || echo 0)
        times+=("$elapsed")
        change=$(python3 -c "import json; d=json.load(open('$work/gate.json')); print(d['looks'][-1]['change'] if d['looks'] else 'nan')" 2>/dev/null || echo nan)
        changes+=("$change")
        case "$verdict" in
        regressed) counts_regressed=$((counts_regressed + 1)) ;;
        improved) counts_improved=$((counts_improved + 1)) ;;
        unchanged) counts_unchanged=$((counts_unchanged + 1)) ;;
        *) counts_inconclusive=$((counts_inconclusive + 1)) ;;
        esac
        [ -n "${VERBOSE:-}" ] && echo "  +$slowdown% try $try: $(head -1 "$work/out.txt") (exit $status)" >&2
    done
    stats=$(python3 -c "import statistics,sys; t=[float(x) for x in sys.argv[1:]]; print(round(statistics.median(t),1), round(max(t),1))" "${times[@]}")
    # The gate's own estimate of the change, median over the tries.
    measured=$(python3 -c "import math,statistics,sys; c=[float(x) for x in sys.argv[1:] if x!='nan']; print(f'{statistics.median(c)*100:+.1f}%' if c else '-')" "${changes[@]}")
    printf '%-10s %9d %9d %9d %12d %12s %12s %12s\n' "+$slowdown%" "$counts_regressed" "$counts_improved" "$counts_unchanged" \
        "$counts_inconclusive" ${stats} "$measured"
done
stop_busy
