#!/usr/bin/env bash
# What linking LaunchProf adds to a launch (issue 2's target: a hello-world
# that links it and records one milestone launches within 0.2 ms, median, of
# one that does not).
#
# Builds lp-hello-traced and lp-hello-plain the same way (release), then times
# both with hyperfine (-N: no shell). hyperfine runs one command's runs
# back to back, so to interleave them the runs are split into rounds that
# alternate the order (plain traced, traced plain, ...) and the raw times of
# all rounds are pooled: slow drift of a shared machine hits both alike.
#
# Usage: Scripts/compare-launch-overhead.sh
#   RUNS=300 WARMUP=20 ROUNDS=10 LIMIT_MS=0.2 STRICT=1 (exit 1 when over the limit)
set -euo pipefail

cd "$(dirname "$0")/.."
RUNS=${RUNS:-300}
WARMUP=${WARMUP:-20}
ROUNDS=${ROUNDS:-10}
LIMIT_MS=${LIMIT_MS:-0.2}
STRICT=${STRICT:-0}

command -v hyperfine >/dev/null || { echo "error: hyperfine not found (apt-get install hyperfine)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "error: python3 not found (used to pool hyperfine's JSON)" >&2; exit 2; }
(( RUNS >= ROUNDS )) || { echo "error: RUNS ($RUNS) must be at least ROUNDS ($ROUNDS)" >&2; exit 2; }

swift build -c release --product lp-hello-plain
swift build -c release --product lp-hello-traced
bin=$(swift build -c release --show-bin-path)
plain="$bin/lp-hello-plain"
traced="$bin/lp-hello-traced"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

per_round=$(( RUNS / ROUNDS ))
for round in $(seq 1 "$ROUNDS"); do
    warmup=$(( round == 1 ? WARMUP : 3 ))
    if (( round % 2 )); then order=(plain "$plain" traced "$traced"); else order=(traced "$traced" plain "$plain"); fi
    echo "round $round/$ROUNDS: ${order[0]} then ${order[2]}, $per_round runs each" >&2
    hyperfine -N --style none --warmup "$warmup" --runs "$per_round" \
        --export-json "$work/round-$round.json" \
        -n "${order[0]}" "${order[1]}" -n "${order[2]}" "${order[3]}" >/dev/null 2>"$work/round-$round.log" \
        || { cat "$work/round-$round.log" >&2; exit 1; }
    # hyperfine's per-round outlier warnings are expected on a shared machine;
    # the pooled medians below are what counts.
done

python3 - "$LIMIT_MS" "$STRICT" "$work"/round-*.json <<'PY'
import json, statistics, sys

limit_ms, strict, files = float(sys.argv[1]), sys.argv[2] == "1", sys.argv[3:]
times = {"plain": [], "traced": []}
for path in files:
    for result in json.load(open(path))["results"]:
        times[result["command"]] += result["times"]

def mad(values):
    median = statistics.median(values)
    return statistics.median(abs(v - median) for v in values)

for name in ("plain", "traced"):
    values = times[name]
    print(f"{name:7} median {statistics.median(values) * 1e3:7.3f} ms   "
          f"MAD {mad(values) * 1e3:6.3f} ms   runs {len(values)}")
difference = (statistics.median(times["traced"]) - statistics.median(times["plain"])) * 1e3
verdict = "within" if difference <= limit_ms else "OVER"
print(f"traced - plain: {difference:+.3f} ms (median), {verdict} the {limit_ms} ms target")
sys.exit(1 if strict and difference > limit_ms else 0)
PY
