#!/usr/bin/env bash
# Which ratio budgets hold under load: the sample app's time to ready and its
# CPU time (user + system), each over hello-plain's, measured interleaved by
# `launchprof run` as launchprof.yml's budgets are, with 0, 1 and 2 busy
# loops beside it (launchprof.yml's comment and docs/ci.md quote the
# figures). A ratio that moves with the load is one a budget cannot hold.
#   Scripts/compare/budget-ratios-under-load.sh [SESSIONS]      (default 3)
# CONFIG=debug|release (default debug, as launchprof.yml's targets);
# NO_BUILD=1 uses the binaries as built. Prints one line per session.
set -euo pipefail
cd "$(dirname "$0")/../.."
sessions=${1:-3}
config=${CONFIG:-debug}
if [ -z "${NO_BUILD:-}" ]; then
    swift build -c "$config" --product launchprof >&2
    swift build -c "$config" --product lp-spawn >&2
    swift build -c "$config" --product lp-hello-plain >&2
    swift build -c "$config" --product lp-sample-app >&2
fi
bin=$(swift build -c "$config" --show-bin-path)
work=$(mktemp -d)
. Scripts/checks/busy-loops.sh
cleanup() { stop_busy; rm -rf "$work"; }
trap cleanup EXIT INT TERM

# launchprof.yml's two targets, with budgets far above any ratio: the
# budget lines report each ratio, none fails.
cat >"$work/launchprof.yml" <<YAML
version: 1
reference: hello-plain
defaults: {runs: 30, warmup: 3, modes: [warm], timeout: 30s}
targets:
  - name: hello-plain
    command: ['$bin/lp-hello-plain']
  - name: sample-app
    command: ['$bin/lp-sample-app']
    ready: tracer
    budgets:
      - {metric: wall_to_ready, statistic: p50, limit: 1000x hello-plain}
      - {metric: cpu, statistic: p50, limit: 1000x hello-plain cpu}
YAML

echo "$(nproc) CPUs, $(cut -d' ' -f1-3 /proc/loadavg) load average at the start, $sessions sessions per load" >&2
printf '%-10s %-8s %-22s %-22s\n' "busy loops" session "time to ready ratio" "CPU time ratio"
for loops in 0 1 2; do
    for _ in $(seq "$loops"); do start_busy; done
    for session in $(seq "$sessions"); do
        output=$("$bin/launchprof" run --config "$work/launchprof.yml" 2>&1) || {
            echo "$output" >&2
            echo "budget-ratios-under-load: launchprof run failed" >&2
            exit 1
        }
        # "... 136 ms = 31.85x hello-plain (4.27 ms) <= 1000.0x": the first
        # "= Nx" is the ratio, the "<= 1000.0x" after it the limit.
        ratio() { echo "$output" | grep -E "sample-app \(warm\) $1 p50" | grep -oE ' = [0-9.]+x' | head -1 | tr -d '= '; }
        printf '%-10s %-8s %-22s %-22s\n' "$loops" "$session" "$(ratio wall_to_ready)" "$(ratio cpu)"
    done
    stop_busy
done
