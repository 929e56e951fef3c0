#!/usr/bin/env bash
# What linking costs a Swift program's launch, measured here rather than
# quoted: one hello-world built four ways and launched with `launchprof run`,
# cold and warm, interleaved run by run:
#
#   dynamic             swiftc -O (the Swift runtime as shared libraries)
#   static-stdlib       swiftc -O -static-stdlib
#   foundation          the same program importing Foundation (dynamic)
#   foundation-static   importing Foundation, -static-stdlib
#
# Prints the medians to ready (exit) and what -static-stdlib and dropping
# Foundation save against the dynamic builds. `launchprof explain` quotes the
# figures of this script as "measured on the samples".
#
# Usage: Scripts/compare/measure-linking.sh   RUNS=30
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-30}
swift build -c release --product launchprof >&2
swift build -c release --product lp-spawn >&2
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo 'print("hello, world")' > "$work/plain.swift"
printf 'import Foundation\nprint("hello, world \\(Date().timeIntervalSince1970 > 0)")\n' > "$work/foundation.swift"
swiftc -O "$work/plain.swift" -o "$work/dynamic"
swiftc -O -static-stdlib "$work/plain.swift" -o "$work/static-stdlib"
swiftc -O "$work/foundation.swift" -o "$work/foundation"
swiftc -O -static-stdlib "$work/foundation.swift" -o "$work/foundation-static"

"$bin/launchprof" run --mode cold --mode warm --runs "$RUNS" --warmup 3 \
    -n dynamic -n static-stdlib -n foundation -n foundation-static \
    --export-json "$work/results.json" \
    "$work/dynamic" "$work/static-stdlib" "$work/foundation" "$work/foundation-static" >&2

python3 - "$work/results.json" <<'PY'
import json, statistics, sys
doc = json.load(open(sys.argv[1]))
median = {}
for r in doc["results"]:
    times = [x["wallToReady"] / 1e6 for x in r["runs"] if x.get("wallToReady")]
    median[(r["target"]["name"], r["mode"])] = statistics.median(times)
for mode in ("cold", "warm"):
    m = {name: median[(name, mode)] for name in ("dynamic", "static-stdlib", "foundation", "foundation-static")}
    print(f"{mode}: " + ", ".join(f"{name} {value:.2f} ms" for name, value in m.items()))
    print(f"{mode}: -static-stdlib saves {m['dynamic'] - m['static-stdlib']:.2f} ms without Foundation, "
          f"{m['foundation'] - m['foundation-static']:.2f} ms with it; dropping Foundation saves "
          f"{m['foundation'] - m['dynamic']:.2f} ms (dynamic), {m['foundation-static'] - m['static-stdlib']:.2f} ms (static)")
PY
