#!/usr/bin/env bash
# What liblaunchprof-audit.so costs a launch (`launchprof explain --loader`,
# `run --loader`; docs/sampling.md): the same binaries launched, interleaved
# run by run with `launchprof run`, to exit:
#   plain      nothing added;
#   audited    LD_AUDIT=liblaunchprof-audit.so alone: the loader calls the
#              library at every object, the library measures nothing (no
#              LAUNCHPROF_AUDIT_SOCKET);
#   measuring  as launchprof's audited launches run: LD_AUDIT, LD_DEBUG=files
#              (its output to /dev/null while mapping, to the channel while
#              constructors run), LAUNCHPROF_AUDIT_SOCKET naming a socket a
#              helper here drains.
# for lp-sample-app and a hello-world that imports Foundation (dynamically
# linked: ICU, FoundationEssentials and twenty libraries). Prints each median
# and the ratios to plain, measured in the same run, in both orders.
#
# Usage: Scripts/compare/compare-loader-audit-overhead.sh     RUNS=100 WARMUP=10 CONFIG=release
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-100}
WARMUP=${WARMUP:-10}
CONFIG=${CONFIG:-release}

swift build -c "$CONFIG" --product launchprof >&2
swift build -c "$CONFIG" --product lp-spawn >&2
swift build -c "$CONFIG" --product lp-sample-app >&2
bin=$(swift build -c "$CONFIG" --show-bin-path)
audit=$bin/launchprof_launchprof.resources/liblaunchprof-audit.so
work=$(mktemp -d)
drain=""
trap '[ -n "$drain" ] && kill "$drain" 2>/dev/null; rm -rf "$work"' EXIT

printf 'import Foundation\nprint(Date().timeIntervalSince1970 > 0, URL(fileURLWithPath: "/tmp").path)\n' >"$work/main.swift"
swiftc -O "$work/main.swift" -o "$work/hello-foundation" >&2

# The socket the measuring launches hand their channel to: received and closed.
python3 - "$work/audit.sock" <<'PY' &
import array, os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
while True:
    _, ancillary, _, _ = s.recvmsg(64, socket.CMSG_SPACE(4 * 8))
    for level, kind, data in ancillary:
        fds = array.array("i")
        fds.frombytes(data[: len(data) - len(data) % 4])
        for fd in fds:
            os.close(fd)
PY
drain=$!
sleep 0.5

# One `launchprof run` per program and order: consecutive launches are of the
# same binary (a launch right after another program's pays for caches that
# one evicted), and each order is run forwards and backwards, so that the
# place in the round cancels out of the mean of the two ratios.
for program in "$bin/lp-sample-app" "$work/hello-foundation"; do
  name=$(basename "$program")
  plain="  - name: plain
    command: [$program]
"
  audited="  - name: audited
    command: [$program]
    environment: {LD_AUDIT: $audit}
"
  measuring="  - name: measuring
    command: [$program]
    environment: {LD_AUDIT: $audit, LD_DEBUG: files, LD_DEBUG_OUTPUT: $work/ld, LAUNCHPROF_AUDIT_SOCKET: $work/audit.sock}
"
  for order in forwards backwards; do
    if [ "$order" = forwards ]; then targets="$plain$audited$measuring"; else targets="$measuring$audited$plain"; fi
    cat >"$work/launchprof.yml" <<YML
version: 1
defaults:
  runs: $RUNS
  warmup: $WARMUP
  ready: exit
targets:
$targets
YML
    "$bin/launchprof" run --config "$work/launchprof.yml" --mode warm --export-json "$work/$name-$order.json" >/dev/null
    rm -f "$work"/ld.*
  done
done

python3 - "$work" <<'PY'
import json, statistics, sys
for program in ("lp-sample-app", "hello-foundation"):
    ratios = {"audited": [], "measuring": []}
    for order in ("forwards", "backwards"):
        results = json.load(open(f"{sys.argv[1]}/{program}-{order}.json"))["results"]
        runs = {r["target"]["name"]: [x["wallToExit"] / 1e6 for x in r["runs"] if x.get("wallToExit")] for r in results}
        plain = statistics.median(runs["plain"])
        line = f"{program} ({order}): plain {plain:.3f} ms"
        for kind in ratios:
            median = statistics.median(runs[kind])
            ratios[kind].append(median / plain)
            line += f", {kind} {median:.3f} ms ({median / plain:.3f})"
        print(line + f"  [medians of {len(runs['plain'])}]")
    print(f"{program}: mean ratio to plain: audited {statistics.mean(ratios['audited']):.3f}, measuring {statistics.mean(ratios['measuring']):.3f}")
PY
