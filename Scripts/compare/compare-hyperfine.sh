#!/usr/bin/env bash
# Measures the same commands with `launchprof run` and `hyperfine -N`,
# interleaved finely so a shared machine's drift hits both alike: each round
# is BLOCKS blocks of BLOCK runs per tool, the order swapped block by block
# (launchprof then hyperfine, hyperfine then launchprof, …). Each round's
# runs are pooled per tool; prints each round's medians, spreads (MAD) and
# ratio, then the median ratio over the rounds and the spreads side by side.
#
#   Scripts/compare/compare-hyperfine.sh [ROUNDS] [BLOCKS] [BLOCK]    (default 3 rounds of 10 blocks of 20 runs)
#   CONFIG=debug to measure debug builds (default: release)
#
# Target: launchprof's median within ±2% of hyperfine's in every round, and
# its run-to-run spread (MAD) no larger. Coarse blocks (100–300 runs) swing
# 0.95–1.09x on a shared 2-core machine: the drift between blocks, not the
# tools.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
blocks=${2:-10}
block=${3:-20}
config=${CONFIG:-release}
command -v hyperfine >/dev/null || Scripts/install-deps.sh
for product in launchprof lp-spawn lp-hello-c lp-sample-app; do swift build -c "$config" --product "$product" >&2; done
bin=$(swift build -c "$config" --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

commands=(/bin/true "$bin/lp-hello-c" "$bin/lp-sample-app --words 2000")
launchprof_block() {  # launchprof_block OUT COMMAND
    "$bin/launchprof" run --mode warm --warmup 5 --runs "$block" --no-calibrate --export-json "$1" "$2" >/dev/null
}
hyperfine_block() {  # hyperfine_block OUT COMMAND
    hyperfine -N --warmup 5 --runs "$block" --style none --export-json "$1" "$2" >/dev/null 2>&1
}
for round in $(seq "$rounds"); do
    for i in "${!commands[@]}"; do
        for b in $(seq "$blocks"); do
            if [ $((b % 2)) -eq 1 ]; then
                launchprof_block "$work/lp-$round-$i-$b.json" "${commands[$i]}"
                hyperfine_block "$work/hf-$round-$i-$b.json" "${commands[$i]}"
            else
                hyperfine_block "$work/hf-$round-$i-$b.json" "${commands[$i]}"
                launchprof_block "$work/lp-$round-$i-$b.json" "${commands[$i]}"
            fi
        done
    done
done

python3 - "$work" "$rounds" "$blocks" "${commands[@]}" <<'PY'
import json, statistics, sys
work, rounds, blocks, commands = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
def mad(xs):
    m = statistics.median(xs)
    return statistics.median(abs(x - m) for x in xs)
print(f"{'command':28} {'round':>5} {'launchprof (median ± MAD)':>26} {'hyperfine -N (median ± MAD)':>28} {'ratio':>7}")
for i, command in enumerate(commands):
    ratios, lp_mads, hf_mads = [], [], []
    for r in range(1, rounds + 1):
        lp_times, hf_times = [], []
        for b in range(1, blocks + 1):
            lp = json.load(open(f"{work}/lp-{r}-{i}-{b}.json"))["results"][0]
            lp_times += [run["wallToExit"] / 1e6 for run in lp["runs"] if run.get("wallToExit") is not None]
            hf_times += [t * 1e3 for t in json.load(open(f"{work}/hf-{r}-{i}-{b}.json"))["results"][0]["times"]]
        lm, hm = statistics.median(lp_times), statistics.median(hf_times)
        ratios.append(lm / hm)
        lp_mads.append(mad(lp_times) / lm)
        hf_mads.append(mad(hf_times) / hm)
        print(f"{command[-28:]:28} {r:>5} {lm:12.3f} ± {mad(lp_times):7.3f} ms {hm:14.3f} ± {mad(hf_times):7.3f} ms {lm / hm:7.3f}")
    print(
        f"{command[-28:]:28} {'all':>5} median ratio {statistics.median(ratios):.3f} "
        f"(rounds {min(ratios):.3f}-{max(ratios):.3f}); spread (MAD/median) launchprof "
        f"{statistics.median(lp_mads) * 100:.1f}%, hyperfine {statistics.median(hf_mads) * 100:.1f}%")
PY
