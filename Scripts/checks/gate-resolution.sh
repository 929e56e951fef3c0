#!/usr/bin/env bash
# What each choice of `launchprof gate` buys: how precisely a session of
# SECONDS resolves the change between a program and itself, unpinned
# (paired by the CPU each run ran on) and pinned to each CPU (--affinity),
# and with each interval (sign, signed-rank, both intersected) computed on
# the same pairs. The settings alternate try by try, so the machine's drift
# falls on all of them alike.
#   Scripts/checks/gate-resolution.sh [TRIES] [SECONDS]       (default 5 10)
# SETTINGS="none 0 1": "none" is unpinned, a number an --affinity; LOAD=quiet
# (default) or busy (one busy loop: one core of two kept busy); ROUNDS: the
# C program's launch work (default 1000000, 3–5 ms); TARGET=c (default), app
# (lp-sample-app, the Swift sample app, to its launch complete) or async
# (lp-sample-async-server, an async-main program, to its launch complete;
# both --ready tracer); NO_BUILD=1 uses the binaries as built; BIN=DIR
# takes launchprof, lp-spawn and the sample from DIR; CONFIG=debug|release
# (default debug).
# Prints, per setting, the median over tries of: same-CPU pairs, runs left
# unpaired, and the 95% half-width of each interval (one fixed confidence,
# so the widths compare; a gate's looks use their spent confidence).
set -euo pipefail
cd "$(dirname "$0")/../.."
tries=${1:-5}
seconds=${2:-10}
settings=${SETTINGS:-"none 0 1"}
target=${TARGET:-c}
config=${CONFIG:-debug}
# The sample the target names (none for the C program, built below).
case "$target" in
c) sample= ;;
app) sample=lp-sample-app ;;
async) sample=lp-sample-async-server ;;
*) echo "gate-resolution: TARGET must be c, app or async, not '$target'" >&2; exit 2 ;;
esac
if [ -z "${NO_BUILD:-}" ]; then
    swift build -c "$config" --product launchprof >&2
    swift build -c "$config" --product lp-spawn >&2
    [ -z "$sample" ] || swift build -c "$config" --product "$sample" >&2
fi
bin=${BIN:-$(swift build -c "$config" --show-bin-path)}
work=$(mktemp -d)
. Scripts/checks/busy-loops.sh
cleanup() { stop_busy; rm -rf "$work"; }
trap cleanup EXIT INT TERM
# The words as one --base-command string, each single-quoted (launchprof
# splits it with shell quoting rules): a path with a space stays one word.
quoted() { local word out=(); for word; do out+=("'${word//\'/\'\\\'\'}'"); done; echo "${out[*]}"; }
if [ -z "$sample" ]; then
    cc -O1 -o "$work/spin" Scripts/checks/gate_spin.c
    program=(env "LP_SPIN=${ROUNDS:-1000000}" "$work/spin")
    ready=()
else
    program=("$bin/$sample")
    ready=(--ready tracer)
fi
[ "${LOAD:-quiet}" = busy ] && start_busy
echo "target $target, load ${LOAD:-quiet} ($(cut -d' ' -f1-3 /proc/loadavg) load average at the start), $tries tries of ${seconds}s" >&2
for try in $(seq "$tries"); do
    for setting in $settings; do
        # "none" is --affinity none: unpinned (the gate's default is auto).
        pin=(--affinity "$setting")
        "$bin/launchprof" gate "${pin[@]}" "${ready[@]}" --why-runs 0 --threshold 0.1 --max-time "$seconds" \
            --export-json "$work/$setting-$try.json" --base-command "$(quoted "${program[@]}")" -- "${program[@]}" \
            >/dev/null 2>&1 || true
    done
done
python3 - "$work" "$tries" $settings <<'PY'
import json, math, statistics, sys
from statistics import NormalDist
work, tries, settings = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
z = NormalDist().inv_cdf
def pairs(runs, window=3):
    # As GatePairing: the nearest earlier unpaired run of the other side on the same CPU, at most 3 back.
    waiting, out, unpaired = [], [], 0
    for r in runs:
        unpaired += sum(1 for w in waiting if r["position"] - w["position"] > window)
        waiting = [w for w in waiting if r["position"] - w["position"] <= window]
        match = [i for i, w in enumerate(waiting) if w["side"] != r["side"] and w.get("cpu") == r.get("cpu")]
        if match:
            w = waiting.pop(match[-1])
            base, head = (w, r) if r["side"] == "head" else (r, w)
            out.append(math.log(head["value"] / base["value"]))
        else:
            waiting.append(r)
    return sorted(out), unpaired
def sign(d, conf):
    n = len(d); h = z(1 - (1 - conf) / 2) * math.sqrt(n) / 2
    return d[max(1, int(n / 2 - h)) - 1], d[min(n, math.ceil(1 + n / 2 + h)) - 1]
def walsh(d, k):
    lo, hi = d[0], d[-1]
    def count(v):
        total, j = 0, len(d) - 1
        for i in range(len(d)):
            while j >= i and d[i] + d[j] > 2 * v: j -= 1
            if j < i: break
            total += j - i + 1
        return total
    for _ in range(50):
        mid = (lo + hi) / 2
        if count(mid) >= k: hi = mid
        else: lo = mid
    return hi
def signed_rank(d, conf):
    n = len(d); N = n * (n + 1) // 2
    k = max(1, int(N / 2 - z(1 - (1 - conf) / 2) * math.sqrt(n * (n + 1) * (2 * n + 1) / 24) + 0.5))
    return walsh(d, k), walsh(d, N - k + 1)
def both(d, conf):
    a, b = sign(d, 1 - (1 - conf) / 2), signed_rank(d, 1 - (1 - conf) / 2)
    lo, hi = max(a[0], b[0]), min(a[1], b[1])
    return (lo, hi) if lo <= hi else (min(a[0], b[0]), max(a[1], b[1]))
half = lambda iv: (math.expm1(iv[1]) - math.expm1(iv[0])) / 2 * 100
print(f"{'setting':<8} {'pairs':>6} {'unpaired':>9} {'sign ±%':>8} {'s-rank ±%':>10} {'both ±%':>8} {'robust σ %':>11}")
for setting in settings:
    rows = []
    for t in range(1, tries + 1):
        try:
            doc = json.load(open(f"{work}/{setting}-{t}.json"))
        except (OSError, ValueError):
            continue
        d, unpaired = pairs(doc["runs"])
        if len(d) < 20: continue
        m = statistics.median(d)
        rows.append((len(d), unpaired, half(sign(d, .95)), half(signed_rank(d, .95)), half(both(d, .95)),
                     1.4826 * statistics.median(abs(x - m) for x in d) * 100))
    if not rows:
        print(f"{setting:<8} no session"); continue
    med = [statistics.median(r[i] for r in rows) for i in range(6)]
    print(f"{setting:<8} {med[0]:>6.0f} {med[1]:>9.0f} {med[2]:>8.2f} {med[3]:>10.2f} {med[4]:>8.2f} {med[5]:>11.2f}")
PY
