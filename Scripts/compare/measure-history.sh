#!/usr/bin/env bash
# The time and peak memory of `launchprof history` over FILES results files
# (default 2,000: 20 series of 100 runs, made by
# Scripts/checks/history_series.py from one real run of lp-hello-c), as
# /usr/bin/time -v reports them: elapsed (wall clock) time and maximum
# resident set size.
#
#   Scripts/compare/measure-history.sh [SERIES (default 20)] [POINTS PER SERIES (default 100)]
#
# Needs a build (swift build, or -c release with LAUNCHPROF_BIN).
set -euo pipefail
cd "$(dirname "$0")/../.."
series=${1:-20}
points=${2:-100}
bin=${LAUNCHPROF_BIN:-$(swift build --show-bin-path)}
[ -x "$bin/launchprof" ] || { echo "measure-history: build first (swift build): no $bin/launchprof" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "measure-history: needs GNU time (apt-get install time)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin/launchprof" run --runs 20 --warmup 1 --mode warm --export-json "$work/template.json" -- "$bin/lp-hello-c" >/dev/null
python3 Scripts/checks/history_series.py "$work/template.json" "$work/results" --series "$series" \
    --segments $((points / 10)) --length 10 --seed 3
echo "one results file: $(stat -c %s "$work/results/series-000-00000.json") bytes; all: $(du -sh "$work/results" | cut -f1)"
cat "$work/results"/*.json >/dev/null  # in the page cache, as CI artifacts just unpacked are
status=0
/usr/bin/time -v "$bin/launchprof" history "$work/results" --export-json "$work/history.json" \
    >"$work/out.txt" 2>"$work/time.txt" || status=$?
[ "$status" -le 1 ] || { cat "$work/time.txt"; exit 2; }
head -1 "$work/out.txt"
grep -E "Elapsed \(wall clock\)|Maximum resident set size|User time|System time" "$work/time.txt"
