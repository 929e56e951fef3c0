#!/usr/bin/env bash
# Measures the same commands with `launchprof run` and `hyperfine -N`, in
# alternating rounds (launchprof, hyperfine, launchprof, …) so drift on a
# shared machine hits both alike, and prints each tool's median and spread
# and their ratio per command.
#
#   Scripts/compare/compare-hyperfine.sh [ROUNDS] [RUNS]      (default 3 rounds of 300 runs)
#
# Target: launchprof's warm median within 5% of hyperfine's, and its
# run-to-run spread (MAD) no larger.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
runs=${2:-300}
Scripts/install-deps.sh
swift build -c release >&2
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

commands=(/bin/true "$bin/lp-hello-c" "$bin/lp-sample-app --words 2000")
for round in $(seq "$rounds"); do
    for i in "${!commands[@]}"; do
        "$bin/launchprof" run --mode warm --warmup 20 --runs "$runs" \
            --export-json "$work/lp-$round-$i.json" "${commands[$i]}" >/dev/null
        hyperfine -N --warmup 20 --runs "$runs" --style none \
            --export-json "$work/hf-$round-$i.json" "${commands[$i]}" >/dev/null 2>&1
    done
done

python3 - "$work" "$rounds" "${commands[@]}" <<'PY'
import json, statistics, sys
work, rounds, commands = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def mad(xs):
    m = statistics.median(xs)
    return statistics.median(abs(x - m) for x in xs)
print(f"{'command':34} {'round':>5} {'launchprof':>18} {'hyperfine':>18} {'ratio':>7}")
for i, command in enumerate(commands):
    ratios = []
    for r in range(1, rounds + 1):
        lp = json.load(open(f"{work}/lp-{r}-{i}.json"))["results"][0]
        lp_times = [run["wallToExit"] / 1e6 for run in lp["runs"] if run.get("wallToExit") is not None]
        hf_times = [t * 1e3 for t in json.load(open(f"{work}/hf-{r}-{i}.json"))["results"][0]["times"]]
        lm, hm = statistics.median(lp_times), statistics.median(hf_times)
        ratios.append(lm / hm)
        print(f"{command[-34:]:34} {r:>5} {lm:8.3f} ±{mad(lp_times):6.3f} ms {hm:8.3f} ±{mad(hf_times):6.3f} ms {lm/hm:7.3f}")
    print(f"{command[-34:]:34} {'all':>5} {'':>18} {'':>18} {statistics.median(ratios):7.3f}  (median ratio)")
PY
