#!/usr/bin/env bash
# Whether the regression gate on instruction counts (`--counts callgrind`)
# catches a 1% regression every time and never flags an unchanged binary:
#   1. a small dynamically linked C program (libc loading and a work loop)
#      is built twice: as is, and with 1% more instructions (the loop runs
#      longer by 1% of the whole launch's instructions, measured first);
#   2. a baseline of the unchanged build is saved (RUNS counted runs);
#   3. TRIES times, the unchanged build and the 1% variant, each copied to
#      the same path as a CI build would be, are measured (RUNS runs each)
#      and compared with the baseline: how often is the instructions check
#      (0.5% threshold, Mann–Whitney p < 0.01) flagged "regressed"?
# Target: the variant in TRIES of TRIES, the unchanged build in 0 of TRIES.
# Also prints each side's instruction spread (how far a count moves) and the
# time one counted run costs against an uncounted one.
#   Scripts/checks/check-counts-gate.sh [TRIES] [RUNS]      (default 10 5)
# CONFIG=release to use a release build of launchprof (default: debug).
set -euo pipefail
cd "$(dirname "$0")/../.."
tries=${1:-10}
runs=${2:-5}
config=${CONFIG:-debug}
command -v valgrind >/dev/null || { echo "valgrind is needed (apt-get install -y valgrind)" >&2; exit 2; }
swift build -c "$config" --product launchprof >&2
swift build -c "$config" --product lp-spawn >&2
bin=$(swift build -c "$config" --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

cat >work.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
// A launch in small: the loader maps libc, the program touches some memory
// and computes; ITERATIONS sets how much work it does.
int main(void) {
    volatile unsigned long sum = 0;
    char *buffer = malloc(1 << 20);
    memset(buffer, 1, 1 << 20);
    for (unsigned long i = 0; i < ITERATIONS; i++) sum += i * 2654435761u ^ (sum >> 3);
    printf("%lu %d\n", sum, buffer[4096]);
    return 0;
}
C
instructions() {  # instructions BINARY: Ir of one run under callgrind
    valgrind -q --tool=callgrind --callgrind-out-file="$work/probe.out" "./$1" >/dev/null
    awk '/^summary:/ {print $2}' "$work/probe.out"
}
cc -O1 -DITERATIONS=200000 -o base work.c
cc -O1 -DITERATIONS=0 -o empty work.c
cc -O1 -DITERATIONS=400000 -o double work.c
total=$(instructions base)
per_iteration=$(python3 -c "print(($(instructions double) - $(instructions base)) / 200000)")
extra=$(python3 -c "print(round(0.01 * $total / $per_iteration))")
cc -O1 -DITERATIONS=$((200000 + extra)) -o variant work.c
variant_total=$(instructions variant)
echo "base: $total instructions; variant: $variant_total (+$(python3 -c "print(f'{($variant_total / $total - 1) * 100:.2f}')")%)"

cat >launchprof.yml <<YML
version: 1
counts: callgrind
defaults: {runs: $runs, warmup: 0, modes: [warm]}
targets:
  - name: app
    command: [$work/app]
YML
measure() {  # measure JSON [FLAGS...]
    local out=$1
    shift
    "$bin/launchprof" run --config launchprof.yml --export-json "$out" "$@" >"$work/last.txt" 2>&1 || true
}
verdict() {  # verdict JSON: the instructions check's verdict
    python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
changes = [c for c in (d.get("comparison") or {}).get("changes", []) if c["metric"] == "instructions"]
print(changes[0]["verdict"] if changes else "not-compared")
PY
}
spread() {  # spread JSON: min, max and the relative range of instructions
    python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
v = [x["counts"]["instructions"] for x in r["runs"] if x.get("counts", {}).get("instructions")]
print(f"{min(v)}..{max(v)} ({(max(v) - min(v)) / min(v) * 100:.4f}%)")
PY
}

cp base app
start=$(date +%s.%N)
measure baseline.json --save-baseline counts
counted=$(python3 -c "print(f'{($(date +%s.%N) - $start) / $runs:.3f}')")
echo "baseline: instructions $(spread baseline.json)"
start=$(date +%s.%N)
"$bin/launchprof" run --runs "$runs" --warmup 0 "$work/app" >/dev/null 2>&1 || true
plain=$(python3 -c "print(f'{($(date +%s.%N) - $start) / $runs:.3f}')")
echo "cost: ${counted} s per counted run against ${plain} s per uncounted run (launchprof's whole run, divided by the runs)"

same=0
flagged=0
for try in $(seq 1 "$tries"); do
    cp base app
    measure same.json --baseline counts
    a=$(verdict same.json)
    cp variant app
    measure variant.json --baseline counts
    b=$(verdict variant.json)
    [ "$a" = regressed ] && same=$((same + 1))
    [ "$b" = regressed ] && flagged=$((flagged + 1))
    echo "try $try: same binary $a ($(spread same.json)); 1% variant $b ($(spread variant.json))"
done
echo "same binary flagged: $same of $tries; 1% variant flagged: $flagged of $tries"
