#!/usr/bin/env bash
# launchprof run --ready window against an independent timer: a small xcb
# program (Scripts/compare/window-reference/first-map.c: exec to the first
# top-level MapNotify, no launchprof code) on the same private Xvfb,
# interleaved in blocks with order swapped block by block.
#
# Usage: Scripts/compare/compare-window-reference.sh [PROGRAM ARGS...]   (default: xclock)
# Env: BLOCKS (default 6), RUNS per block (default 10), CONFIG (release or
# debug: which build of launchprof; default release).
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v Xvfb >/dev/null || { echo "compare-window-reference: Xvfb is missing (Scripts/install-deps.sh installs it)" >&2; exit 1; }
program=("$@")
[ ${#program[@]} -eq 0 ] && program=(xclock)
blocks=${BLOCKS:-6}
runs=${RUNS:-10}
config=${CONFIG:-release}
bin=$(swift build -c "$config" --show-bin-path)
swift build -c "$config" >/dev/null
work=$(mktemp -d)
display=""
cleanup() {
    [ -n "${xvfb:-}" ] && kill "$xvfb" 2>/dev/null && wait "$xvfb" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
cc -O2 -o "$work/first-map" Scripts/compare/window-reference/first-map.c -lxcb
exec 3> "$work/displayfd"
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -noreset >/dev/null 2>&1 &
xvfb=$!
exec 3>&-
for _ in $(seq 100); do display=$(head -1 "$work/displayfd" 2>/dev/null || true); [ -n "$display" ] && break; sleep 0.05; done
[ -n "$display" ] || { echo "compare-window-reference: Xvfb did not start" >&2; exit 1; }
export DISPLAY=":$display"

launchprof_block() {
    "$bin/launchprof" run --display "$DISPLAY" --ready window -r "$runs" -w 1 --export-json "$work/l.json" -- "${program[@]}" >/dev/null
    python3 -c 'import json,sys; [print(r["wallToReady"]) for r in json.load(open(sys.argv[1]))["results"][0]["runs"] if r.get("wallToReady")]' "$work/l.json" >> "$work/launchprof.txt"
}
reference_block() {
    "$work/first-map" "${program[@]}" >/dev/null || true  # a warm-up, as launchprof's -w 1
    for _ in $(seq "$runs"); do "$work/first-map" "${program[@]}" >> "$work/reference.txt"; done
}
for block in $(seq "$blocks"); do
    if [ $((block % 2)) -eq 1 ]; then launchprof_block; reference_block; else reference_block; launchprof_block; fi
done
python3 - "$work/launchprof.txt" "$work/reference.txt" "${program[*]}" <<'PY'
import statistics, sys
l = [int(x) for x in open(sys.argv[1])]
r = [int(x) for x in open(sys.argv[2])]
ml, mr = statistics.median(l), statistics.median(r)
print(f"{sys.argv[3]}: launchprof --ready window median {ml/1e6:.2f} ms ({len(l)} runs), "
      f"reference (first MapNotify) {mr/1e6:.2f} ms ({len(r)} runs): ratio {ml/mr:.3f}")
PY
