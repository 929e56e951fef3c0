#!/usr/bin/env bash
# Max RSS as launchprof reports it against GNU time's (`/usr/bin/time -f %M`,
# wait4 of its own child) on the same programs, one after the other: a C
# hello-world, a C program that touches 64 MiB, /bin/true, the Swift sample
# app. launchprof's figure is the program's own because its spawner's peak
# is tiny (docs/spawner.md).
#
#   Scripts/compare/compare-max-rss.sh [RUNS]      (default 10 runs each)
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-10}
Scripts/install-deps.sh
swift build -c release >&2
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat > "$work/touch.c" <<'C'
#include <stdlib.h>
int main(int argc, char **argv) {
    size_t size = (size_t)atol(argv[1]) << 20;
    volatile char *memory = malloc(size);
    for (size_t i = 0; i < size; i += 4096) memory[i] = 1;
    return memory[0] == 1 ? 0 : 2;
}
C
cc -O1 -o "$work/touch" "$work/touch.c"

commands=(/bin/true "$bin/lp-hello-c" "$work/touch 64" "$bin/lp-sample-app --words 2000")
printf '%-40s %16s %16s %8s\n' command launchprof "time -f %M" ratio
for i in "${!commands[@]}"; do
    command=${commands[$i]}
    # shellcheck disable=SC2086
    "$bin/launchprof" run --runs "$runs" --warmup 2 --export-json "$work/lp-$i.json" -- $command >/dev/null
    for _ in $(seq "$runs"); do
        # shellcheck disable=SC2086
        /usr/bin/time -f %M -a -o "$work/time-$i.txt" $command >/dev/null
    done
    python3 - "$work/lp-$i.json" "$work/time-$i.txt" "$command" <<'PY'
import json, statistics, sys
runs = json.load(open(sys.argv[1]))["results"][0]["runs"]
lp = statistics.median(r["maxRSSBytes"] / 1024 for r in runs)
gnu = statistics.median(float(line) for line in open(sys.argv[2]) if line.strip())
print(f"{sys.argv[3][-40:]:40} {lp / 1024:12.2f} MiB {gnu / 1024:12.2f} MiB {lp / gnu:8.3f}")
PY
done
