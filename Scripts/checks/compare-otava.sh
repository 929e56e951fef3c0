#!/usr/bin/env bash
# `launchprof history` against Apache Otava (PyPI apache-otava, installed
# here if missing) on the same generated series: shifts of 5-10% (up or
# down) under 1-3% noise, segments of 10 points (Scripts/checks/history_series.py,
# seeded). Otava runs its own `compute_change_points` with the defaults of
# its `analyze` (window 50, p-value 0.001), launchprof its defaults. For
# both it prints the change points missed and the false ones: a change
# point counts as found when within TOLERANCE points (default 1) of a true
# shift, each true shift matched once.
#
#   Scripts/checks/compare-otava.sh [SERIES (default 30)] [SEED (default 1)]
#
# Needs a build (swift build); LAUNCHPROF_BIN names another bin directory,
# HISTORY_ARGS adds options to launchprof history (--noise-multiple 1.5).
set -euo pipefail
cd "$(dirname "$0")/../.."
series=${1:-30}
seed=${2:-1}
tolerance=${TOLERANCE:-1}
bin=${LAUNCHPROF_BIN:-$(swift build --show-bin-path)}
[ -x "$bin/launchprof" ] && [ -x "$bin/lp-hello-c" ] || { echo "compare-otava: build first (swift build): no $bin/launchprof" >&2; exit 2; }

if ! python3 -c "import otava.analysis" 2>/dev/null; then
    echo "compare-otava: installing apache-otava from PyPI" >&2
    python3 -m pip install -q apache-otava >&2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin/launchprof" run --runs 5 --warmup 1 --mode warm --export-json "$work/template.json" -- "$bin/lp-hello-c" >/dev/null
python3 Scripts/checks/history_series.py "$work/template.json" "$work/results" --series "$series" --segments 10 --length 10 --seed "$seed"
status=0
"$bin/launchprof" history "$work/results" --metric wall_to_ready ${HISTORY_ARGS:-} --export-json "$work/history.json" >"$work/history.txt" || status=$?
[ "$status" -le 1 ] || { cat "$work/history.txt"; echo "compare-otava: launchprof history exited $status" >&2; exit 2; }

python3 - "$work/results.truth.json" "$work/history.json" "$tolerance" <<'PY'
import json, sys, time
from otava.analysis import compute_change_points

truth = json.load(open(sys.argv[1]))
history = json.load(open(sys.argv[2]))
tolerance = int(sys.argv[3])
found = {s["key"]["machine"]: [c["index"] for c in s["changes"]] for s in history["series"]}

def score(true, detected):
    """(missed, false): each true shift matched by at most one detection within the tolerance."""
    unmatched = list(detected)
    missed = 0
    for t in true:
        near = [d for d in unmatched if abs(d - t) <= tolerance]
        if near:
            unmatched.remove(min(near, key=lambda d: abs(d - t)))
        else:
            missed += 1
    return missed, len(unmatched)

totals = {"launchprof": [0, 0, 0], "otava": [0, 0, 0]}
started = time.monotonic()
otava_found = {}
for s in truth:
    points, _ = compute_change_points(s["values"], window_len=50, max_pvalue=0.001)
    otava_found[s["runner"]] = [int(p.index) for p in points]
otava_seconds = time.monotonic() - started
true_total = sum(len(s["changes"]) for s in truth)
print(f"{len(truth)} series of {len(truth[0]['values'])} points, {true_total} true shifts of 5-10% under 1-3% noise, "
      f"segments of 10; found = within {tolerance} point(s)")
print(f"{'series':<12} {'noise':>6} {'launchprof missed/false':>24} {'otava missed/false':>20}")
for s in truth:
    row = []
    for name, detections in (("launchprof", found.get(s["runner"], [])), ("otava", otava_found[s["runner"]])):
        missed, false = score(s["changes"], detections)
        totals[name][0] += missed
        totals[name][1] += false
        totals[name][2] += len(detections)
        row.append(f"{missed}/{false}")
    print(f"{s['runner']:<12} {s['noise']*100:5.1f}% {row[0]:>24} {row[1]:>20}")
for name, (missed, false, detected) in totals.items():
    print(f"{name:<11} missed {missed:3d} of {true_total} ({missed / true_total:.1%}), "
          f"false {false:3d} of {detected} reported")
print(f"(otava's compute_change_points took {otava_seconds:.2f} s in all)")
PY
