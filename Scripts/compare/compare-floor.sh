#!/usr/bin/env bash
# How close launchprof comes to the floor: a C loop that does nothing but
# posix_spawn the program and waitpid for it (Scripts/compare/spawn-floor.c),
# against `launchprof run` (exit probe), `hyperfine -N`, and lp-spawn driven
# straight from C as launchprof drives it (its share of launchprof's figure).
# The tools are interleaved in blocks of BLOCK runs (5 warm-ups each), the
# order rotated block by block; each round pools RUNS runs per tool; prints
# each round's medians and each tool's ratio over the floor's median.
#
#   Scripts/compare/compare-floor.sh [ROUNDS] [RUNS] [BLOCK]   (default 3 rounds of 200 runs, blocks of 20)
#   BEFORE=DIR   also measure the launchprof and lp-spawn in DIR (another
#                build, e.g. today's main's .build/release), side by side
#   EXTRA=1      also lp-sample-app --words 2000 (exit probe), and a ready
#                probe run (--ready tracer) of it, after against BEFORE
#   CONFIG=debug to measure debug builds (default: release)
#
# Target (issue 40): launchprof at most 1.02x the floor on /bin/true and
# lp-hello-c, and closer to it than hyperfine -N. The machine is shared:
# compare the ratios of a round, not milliseconds across runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
runs=${2:-200}
block=${3:-20}
config=${CONFIG:-release}
before=${BEFORE:-}
extra=${EXTRA:-0}
if [ $((runs % block)) -ne 0 ] || [ "$block" -lt 1 ]; then
    echo "compare-floor.sh: RUNS ($runs) must be a multiple of BLOCK ($block)" >&2
    exit 2
fi
if [ -n "$before" ] && [ ! -x "$before/launchprof" ]; then
    echo "compare-floor.sh: BEFORE=$before holds no launchprof" >&2
    exit 2
fi
command -v hyperfine >/dev/null || Scripts/install-deps.sh
for product in launchprof lp-spawn lp-hello-c lp-sample-app; do swift build -c "$config" --product "$product" >&2; done
bin=$(swift build -c "$config" --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -Wall -Werror -I Sources/Benchmark/CLaunchProfSpawn/include -o "$work/spawn-floor" \
    Scripts/compare/spawn-floor.c Sources/Benchmark/CLaunchProfSpawn/spawn_client.c

# Each tool writes a block's times (nanoseconds, one a line) to $1.
floor_block() { "$work/spawn-floor" floor "$1" "$block" 5 $2 </dev/null >/dev/null; }
spawner_block() { "$work/spawn-floor" spawner "$bin/lp-spawn" "$1" "$block" 5 $2 </dev/null >/dev/null; }
spawner_before_block() { "$work/spawn-floor" spawner "$before/lp-spawn" "$1" "$block" 5 $2 </dev/null >/dev/null; }
launchprof_json() {  # launchprof_json BIN OUT COMMAND [FLAGS...]
    local launchprof=$1 out=$2 command=$3
    shift 3
    "$launchprof" run --mode warm --warmup 5 --runs "$block" --no-calibrate "$@" --export-json "$out.json" "$command" \
        </dev/null >/dev/null
    python3 - "$out.json" "$out" "${1:-exit}" <<'PY'
import json, sys
field = "wallToReady" if sys.argv[3] == "--ready" else "wallToExit"
runs = json.load(open(sys.argv[1]))["results"][0]["runs"]
open(sys.argv[2], "w").write("".join(f"{run[field]}\n" for run in runs if run.get(field) is not None))
PY
}
launchprof_block() { launchprof_json "$bin/launchprof" "$1" "$2"; }
launchprof_before_block() { launchprof_json "$before/launchprof" "$1" "$2"; }
ready_block() { launchprof_json "$bin/launchprof" "$1" "$2" --ready tracer; }
ready_before_block() { launchprof_json "$before/launchprof" "$1" "$2" --ready tracer; }
hyperfine_block() {
    hyperfine -N --warmup 5 --runs "$block" --style none --export-json "$1.json" "$2" </dev/null >/dev/null 2>&1
    python3 -c 'import json, sys; open(sys.argv[2], "w").write("".join(f"{round(t * 1e9)}\n" for t in json.load(open(sys.argv[1]))["results"][0]["times"]))' "$1.json" "$1"
}

# name|command|tools (the first is what the ratios are over)
exit_tools="floor launchprof hyperfine spawner"
[ -n "$before" ] && exit_tools="$exit_tools launchprof_before spawner_before"
cases=("/bin/true|/bin/true|$exit_tools" "lp-hello-c|$bin/lp-hello-c|$exit_tools")
if [ "$extra" = 1 ]; then
    cases+=("lp-sample-app|$bin/lp-sample-app --words 2000|$exit_tools")
    if [ -n "$before" ]; then
        cases+=("lp-sample-app ready (tracer)|$bin/lp-sample-app --words 2000|ready_before ready")
    fi
fi

blocks=$((runs / block))
for round in $(seq "$rounds"); do
    for c in "${!cases[@]}"; do
        IFS='|' read -r _ command tools <<<"${cases[$c]}"
        read -r -a list <<<"$tools"
        for b in $(seq "$blocks"); do
            # Rotate the order block by block, so no tool always follows another.
            for k in "${!list[@]}"; do
                tool=${list[$(((k + b) % ${#list[@]}))]}
                "${tool}_block" "$work/$tool-$round-$c-$b" "$command"
            done
        done
    done
done

python3 - "$work" "$rounds" "$blocks" "${cases[@]}" <<'PY'
import statistics, sys
work, rounds, blocks, cases = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
names = {"floor": "floor (posix_spawn + waitpid)", "launchprof": "launchprof run", "hyperfine": "hyperfine -N",
         "spawner": "lp-spawn alone (C client)", "launchprof_before": "launchprof run (BEFORE)",
         "spawner_before": "lp-spawn alone (BEFORE)", "ready": "launchprof --ready tracer",
         "ready_before": "launchprof --ready tracer (BEFORE)"}
for c, case in enumerate(cases):
    name, _, tools = case.split("|")
    tools = tools.split()
    print(f"\n{name}: median µs per round (MAD/median), ratio over {names[tools[0]]}")
    ratios = {tool: [] for tool in tools}
    for r in range(1, rounds + 1):
        medians = {}
        cells = []
        for tool in tools:
            times = []
            for b in range(1, blocks + 1):
                times += [int(line) / 1e3 for line in open(f"{work}/{tool}-{r}-{c}-{b}")]
            median = statistics.median(times)
            spread = statistics.median(abs(t - median) for t in times) / median
            medians[tool] = median
            cells.append((tool, median, spread))
        for tool, median, spread in cells:
            ratio = median / medians[tools[0]]
            ratios[tool].append(ratio)
            print(f"  round {r}  {names[tool]:36} {median:9.1f} µs ({spread * 100:4.1f}%)  {ratio:6.3f}x")
    for tool in tools[1:]:
        rs = ratios[tool]
        print(f"  {names[tool]:45} ratio per round: {' '.join(f'{x:.3f}' for x in rs)}  (median {statistics.median(rs):.3f})")
    for now, then in (("launchprof", "launchprof_before"), ("spawner", "spawner_before")):
        if now in ratios and then in ratios:
            rs = [a / b for a, b in zip(ratios[now], ratios[then])]
            print(f"  {names[now] + ' / BEFORE':45} ratio per round: {' '.join(f'{x:.3f}' for x in rs)}  (median {statistics.median(rs):.3f})")
PY
