#!/usr/bin/env bash
# The power and error rates of `launchprof gate` on real launches: a program
# against itself (unchanged) and against itself with more CPU work injected
# before main (a preloaded constructor spinning LP_INJECT_ROUNDS rounds; both
# sides preload it, the base with 0 rounds). For each slowdown, TRIES gates;
# prints how many said regressed, improved, unchanged and inconclusive, the
# median and largest time to a verdict, and the gate's own median estimate.
#   Scripts/checks/gate-power.sh [TRIES] [THRESHOLD]        (default 20 2)
#
# TARGET=c (default: a C program whose main spins LP_SPIN=ROUNDS rounds, 3–5
#   ms), hummingbird (HB_BIN, the Hummingbird integration's sample, ready
#   when it is accepting: --ready tracer), async (lp-sample-async-server,
#   --ready tracer) or app (lp-sample-app, the Swift sample app, --ready
#   tracer: its launch complete).
# SLOWDOWNS="0 1 2 3 5": slowdowns in percent of the launch; or
# SLOWDOWN_US="0 500": absolute microseconds of CPU work instead.
# INJECT=rounds (default: the constructor spins a number of rounds, CPU work
#   whose cost moves with the load, as a real regression's does) or wall (it
#   spins until LP_INJECT_NS nanoseconds of CLOCK_MONOTONIC have passed: a
#   known wall time even under load, though not a known cost to the launch;
#   see "Sizing").
# LOAD=quiet (default), busy (one busy loop for the whole run: one core of two
#   kept busy), half (a busy loop during the first half of each gate's
#   budget) or alternate (a busy loop on for PERIOD seconds, default 10, then
#   off for PERIOD, and so on from each gate's start: a core busy about half
#   of any session longer than a period, whenever it decides, and the load
#   switching on and off while it measures).
# MAXTIME the budget (default 120 s, the gate's own default: the target is a
#   median of 60 s to a verdict, not a verdict within 60 s; the tables of
#   docs/gate.md before 2026-11-28 14:00 used MAXTIME=60); AFFINITY passes
#   --affinity (a CPU list; auto, the gate's default since 2026-11-29, or
#   none: unpinned, the default of every row of docs/gate.md measured
#   before); CALPIN=CPUS pins the sizing runs (below: "of gate");
#   INTERVAL passes --interval; SLICE_NS=N runs launchprof with
#   a scheduler slice request (below).
# CONFIG=debug|release (default debug); NO_BUILD=1 uses the binaries as
# built; BIN=DIR takes launchprof and lp-spawn from DIR (a copy, so that a
# build meanwhile does not swap them); VERBOSE=1 prints every try;
# KEEP=DIR keeps each gate's --export-json there (3pct-1.json, 500us-1.json: every run).
# CALCHECK=N only measures how precisely the tries are sized (see below).
#
# Sizing: a slowdown must be its nominal size relative to the launch *as
# measured in the same conditions*, or the table measures the sizing, not the
# gate (a size calibrated once, minutes before, drifted by a third under
# load). So before each try the script measures the launch with K calibration
# rounds injected against the launch without, interleaved, same-CPU pairs:
# r = median ln(with/without) gives what K rounds are worth relative to the
# launch now (K rounds add e^r − 1 of it), and a slowdown s gets
# s·K/(e^r − 1) rounds (rounds are CPU work, linear in their number). The
# column "sized" is what was injected, relative to the launch as calibrated;
# the last, "of gate", is the same work relative to the gate's own base
# median. The two differ when the gate runs the launch otherwise than the
# calibration did: the calibration runs unpinned (with AFFINITY=auto each
# gate's pilot chooses, after the sizing), and a launch that its pilot pins
# can be shorter (the async-main program with a core busy: 18.3 ms unpinned,
# 14–17 ms pinned, so a "+3%" was 3.1–4.0% of the launch the gate judged).
# Under load the rounds' worth moves from minute to minute, not only with
# calibration noise: with a core busy, ten calibrations in a row of the
# async-main program (CALRUNS=30 CALCHECK=10) gave e^r − 1 from 0.27 to
# 0.39, ±18%, and ten of 200 pairs each with about five times the rounds
# still moved ±15% (1.10–1.47): the spin runs on the busy CPU or beside it. So
# a nominal 3% was 2.5–3.5% of the session that followed. INJECT=wall
# spins until a wall time instead: the same nanoseconds in every run, sized
# from the launch's median alone. That fixes what is injected, not what it
# costs: with a core busy, the async-main program measured its +3% as
# +3.22% (median of 20 gates), but the Hummingbird server measured a 600 µs
# spin (3% of its launch) as +0.4% to +1.6% (gate medians of 18.00 against
# 18.18 ms), as it does rounds: under load its launch moves in 4 ms steps,
# the kernel's tick (docs/gate.md, "A multi-threaded launch under load
# moves in steps").
set -euo pipefail
cd "$(dirname "$0")/../.."
tries=${1:-20}
threshold=${2:-2}
load=${LOAD:-quiet}
case "$load" in
quiet | busy | half | alternate) ;;
*) echo "gate-power: LOAD must be quiet, busy, half or alternate, not '$load'" >&2; exit 2 ;;
esac
target=${TARGET:-c}
maxtime=${MAXTIME:-120}
period=${PERIOD:-10}
case "${CALCHECK:-0}" in *[!0-9]*) echo "gate-power: CALCHECK must be a count, not '$CALCHECK'" >&2; exit 2 ;; esac
case "$maxtime$period" in
*[!0-9]* | '') echo "gate-power: MAXTIME and PERIOD must be whole seconds, not '$maxtime' and '$period'" >&2; exit 2 ;;
esac
config=${CONFIG:-debug}
calruns=${CALRUNS:-60}
if [ -z "${NO_BUILD:-}" ]; then
    swift build -c "$config" --product launchprof >&2
    swift build -c "$config" --product lp-spawn >&2
fi
bin=${BIN:-$(swift build -c "$config" --show-bin-path)}
work=$(mktemp -d)
. Scripts/checks/busy-loops.sh
cleanup() { stop_busy; rm -rf "$work"; }
trap cleanup EXIT INT TERM

cat >"$work/inject.c" <<'C'
#include <stdlib.h>
#include <time.h>
static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}
/* CPU work before main: LP_INJECT_ROUNDS rounds of a multiply-add, or a spin
   until LP_INJECT_NS nanoseconds of wall time have passed. */
__attribute__((constructor)) static void lp_inject(void) {
    const char *text = getenv("LP_INJECT_ROUNDS");
    long rounds = text ? atol(text) : 0;
    volatile unsigned long sum = 0;
    for (long i = 0; i < rounds; i++) sum += (unsigned long)i * 2654435761u;
    const char *wall = getenv("LP_INJECT_NS");
    long long ns = wall ? atoll(wall) : 0;
    if (ns > 0) {
        long long end = now_ns() + ns;
        while (now_ns() < end) sum += 1;
    }
}
C
cc -O1 -shared -fPIC -o "$work/inject.so" "$work/inject.c"

# SLICE_NS=N: launchprof, and so lp-spawn and every launch, runs with a
# scheduler slice request of N ns (sched_setattr(2)'s sched_runtime for
# SCHED_OTHER, taken by the EEVDF scheduler since Linux 6.12, which clamps it
# to 0.1–100 ms): a thread with a shorter slice than the busy loop's may
# preempt it when it wakes instead of waiting for the tick. An experiment on
# the steps of docs/gate.md ("A multi-threaded launch under load moves in
# steps"); refused where the kernel does not take the request.
launchprof=("$bin/launchprof")
if [ -n "${SLICE_NS:-}" ]; then
    [[ $SLICE_NS =~ ^[0-9]{1,12}$ ]] || { echo "gate-power: SLICE_NS must be a whole number of nanoseconds, not '$SLICE_NS'" >&2; exit 2; }
    cat >"$work/slice.c" <<'C'
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
/* struct sched_attr, SCHED_ATTR_SIZE_VER0: glibc 2.36 declares none of it. */
struct attr { uint32_t size, policy; uint64_t flags; int32_t nice; uint32_t priority; uint64_t runtime, deadline, period; };
int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: slice NS COMMAND...\n"); return 2; }
    struct attr want = {.size = sizeof want, .policy = 0, .runtime = strtoull(argv[1], 0, 10)}, got = {0};
    if (syscall(SYS_sched_setattr, 0, &want, 0) != 0 || syscall(SYS_sched_getattr, 0, &got, sizeof got, 0) != 0) {
        fprintf(stderr, "gate-power: sched_setattr/sched_getattr: %s\n", strerror(errno));
        return 2;
    }
    if (got.runtime != want.runtime) {
        fprintf(stderr, "gate-power: the kernel did not take a %llu ns slice (it reads back %llu: Linux 6.12 or later takes 100000 to 100000000)\n",
                (unsigned long long)want.runtime, (unsigned long long)got.runtime);
        return 2;
    }
    execvp(argv[2], argv + 2);
    fprintf(stderr, "gate-power: %s: %s\n", argv[2], strerror(errno));
    return 127;
}
C
    cc -O1 -o "$work/slice" "$work/slice.c"
    # Tried once here: the sizing runs discard launchprof's stderr, and with
    # it the wrapper's reason.
    "$work/slice" "$SLICE_NS" true || exit 2
    launchprof=("$work/slice" "$SLICE_NS" "$bin/launchprof")
fi

ready=()
inject=${INJECT:-rounds}
case "$inject" in
rounds | wall) ;;
*) echo "gate-power: INJECT must be rounds or wall, not '$inject'" >&2; exit 2 ;;
esac
case "$target" in
c)
    cc -O1 -o "$work/spin" Scripts/checks/gate_spin.c
    program=("LP_SPIN=${ROUNDS:-1000000}" "$work/spin")
    ;;
hummingbird)
    hb=${HB_BIN:-Integrations/LaunchProfHummingbird/.build/$config/hummingbird-launch-sample}
    [ -x "$hb" ] || { echo "gate-power: no Hummingbird sample at $hb (build Integrations/LaunchProfHummingbird or set HB_BIN)" >&2; exit 2; }
    program=("$hb")
    ready=(--ready tracer)
    ;;
async)
    [ -n "${NO_BUILD:-}" ] || swift build -c "$config" --product lp-sample-async-server >&2
    program=("$bin/lp-sample-async-server")
    ready=(--ready tracer)
    ;;
app)
    [ -n "${NO_BUILD:-}" ] || swift build -c "$config" --product lp-sample-app >&2
    program=("$bin/lp-sample-app")
    ready=(--ready tracer)
    ;;
*) echo "gate-power: TARGET must be c, hummingbird, async or app, not '$target'" >&2; exit 2 ;;
esac
# The verdict is what is measured: no Why after a regressed one.
gate_options=("${ready[@]}" --why-runs 0)
[ -n "${AFFINITY:-}" ] && gate_options+=(--affinity "$AFFINITY")
[ -n "${INTERVAL:-}" ] && gate_options+=(--interval "$INTERVAL")

# A command line for `run` (one string) and the words for `gate`.
# One side's command as one string for launchprof, each word single-quoted
# (launchprof splits it with shell quoting rules): a path with a space in
# BIN or HB_BIN stays one word.
side_words() {
    local knob=LP_INJECT_ROUNDS
    [ "$inject" = wall ] && knob=LP_INJECT_NS
    side=(env LD_PRELOAD="$work/inject.so" "$knob=$1" "${program[@]}")
}
command_words() {
    local word quoted=() side
    side_words "$1"
    for word in "${side[@]}"; do
        quoted+=("'${word//\'/\'\\\'\'}'")
    done
    echo "${quoted[*]}"
}

# What K rounds are worth, now: prints "r launch_ns" (r = median same-CPU
# ln(with K / without), launch = the median launch without).
# With AFFINITY the sizing runs are pinned as the gate's are (a pinned launch
# can be faster than an unpinned one: 48 against 58 ms for the sample app);
# with AFFINITY unset, auto or none they are not (auto: each gate chooses),
# unless CALPIN=CPUS pins them: where the gates' pilots pin the launch, the
# slowdown is then sized against the launch the gate judges.
pin=()
case "${AFFINITY:-}" in '' | auto | none) ;; *) pin=(taskset -c "$AFFINITY") ;; esac
if [ -n "${CALPIN:-}" ]; then
    [[ $CALPIN =~ ^[0-9][0-9,-]{0,30}$ ]] || { echo "gate-power: CALPIN must be a CPU list, not '$CALPIN'" >&2; exit 2; }
    pin=(taskset -c "$CALPIN")
fi
calibrate() {
    "${pin[@]}" "${launchprof[@]}" run --runs "$calruns" "${ready[@]}" --export-json "$work/cal.json" \
        "$(command_words 0)" "$(command_words "$1")" >/dev/null 2>&1
    python3 - "$work/cal.json" <<'PY'
import json, math, statistics, sys
doc = json.load(open(sys.argv[1]))
a, b = (res["runs"] for res in doc["results"])
ratios = [math.log(y["wallToReady"] / x["wallToReady"]) for x, y in zip(a, b) if x.get("cpu") == y.get("cpu")]
print(statistics.median(ratios), statistics.median(r["wallToReady"] for r in a))
PY
}

# K: about half the launch, from a first rough measurement: 1,000,000
# rounds, ten times more while that is under a tenth of the launch (a 20 ms
# launch hid 1,000,000 rounds in its noise: the median ratio came out at or
# below zero, K fell to its floor and every slowdown was sized from noise).
first=1000000
# With INJECT=wall only the launch is measured: 0 ns against 1 (two commands
# that differ, as `run` requires; 1 ns is one clock read).
[ "$inject" = wall ] && read -r r0 launch0 < <(calibrate 1)
while [ "$inject" = rounds ]; do
    read -r r0 launch0 < <(calibrate "$first")
    python3 -c "import sys; sys.exit(0 if $r0 >= 0.1 else 1)" && break
    if [ "$first" -ge 10000000000 ]; then
        echo "gate-power: $first rounds of injected work did not lengthen the launch measurably (ln ratio $r0)" >&2
        exit 2
    fi
    first=$((first * 10))
done
calrounds=1
[ "$inject" = rounds ] && calrounds=$(python3 -c "import math; print(max(10000, int(0.5 * $first / math.expm1($r0))))")
echo "target $target: launch median $(python3 -c "print(round($launch0/1e6, 3))") ms; $([ "$inject" = wall ] && echo "injected: wall time" || echo "calibration rounds $calrounds"); threshold $threshold%, load $load, $tries tries, budget ${maxtime}s${AFFINITY:+, affinity $AFFINITY}${INTERVAL:+, interval $INTERVAL}${SLICE_NS:+, slice request $SLICE_NS ns}" >&2

start_load() {
    case "$load" in
    busy) start_busy ;;
    half) sh -c "end=\$(( \$(date +%s) + $maxtime / 2 )); while [ \"\$(date +%s)\" -lt \"\$end\" ]; do :; done" & busy+=($!) ;;
    # bash's SECONDS, not date: the loop spins without starting processes;
    # the sleep is waited for so that a TERM stops it too, not only the loop.
    alternate) bash -c "trap 'kill \$! 2>/dev/null; exit 0' TERM; while :; do end=\$((SECONDS + $period)); while ((SECONDS < end)); do :; done; sleep $period & wait \$!; done" & busy+=($!) ;;
    esac
}

# CALCHECK=N: how precisely a try is sized. N calibrations in a row, as each
# try makes one (under the busy loop with LOAD=busy), each printed as
# e^r − 1 (what the calibration rounds add, relative to the launch); a
# slowdown's size is off by the same relative amount (with INJECT=wall, e^r − 1
# of 0 ns against 1, and the launch median, which sizes a slowdown). No gate runs.
if [ -n "${CALCHECK:-}" ]; then
    [ "$load" = busy ] && start_load
    for _ in $(seq "$CALCHECK"); do
        read -r r launch < <(calibrate "$calrounds")
        python3 -c "import math; print(f'e^r - 1 = {math.expm1($r):.4f} (launch {$launch / 1e6:.2f} ms)')"
    done
    exit 0
fi

if [ -n "${SLOWDOWN_US:-}" ]; then sizes=$SLOWDOWN_US unit=us; else sizes=${SLOWDOWNS:-"0 1 2 3 5"} unit=%; fi
# median SCALE SUFFIX VALUES...: the median of the values but "nan", times
# SCALE, signed with two decimals and SUFFIX ("-" when none is left).
median() {
    python3 -c "import statistics,sys; v=[float(x) for x in sys.argv[3:] if x!='nan']; print(f'{statistics.median(v)*float(sys.argv[1]):+.2f}{sys.argv[2]}' if v else '-')" "$@"
}
printf '%-10s %9s %9s %9s %12s %10s %8s %10s %10s %10s\n' slowdown regressed improved unchanged inconclusive "median s" "max s" measured "sized %" "of gate %"
for size in $sizes; do
    counts_regressed=0 counts_improved=0 counts_unchanged=0 counts_inconclusive=0
    times=() changes=() sized=() ofgate=()
    for try in $(seq "$tries"); do
        [ "$load" = busy ] && [ "${#busy[@]}" -eq 0 ] && start_load
        # A calibration whose rounds did not lengthen the launch (r at or
        # near 0, even negative: the load moved between its runs) would size
        # the slowdown from noise, as negative rounds (nothing injected,
        # while the "sized" column, a ratio of two negatives, still said
        # +3%): measured again, up to five times, then the script stops.
        for attempt in 1 2 3 4 5; do
            read -r r launch < <(calibrate "$calrounds")
            [ "$inject" = wall ] && break # only the launch is measured
            python3 -c "import sys; sys.exit(0 if $r >= 0.05 else 1)" && break
            echo "gate-power: $size$unit try $try: the calibration rounds measured ln ratio $r (attempt $attempt of 5), measuring again" >&2
            if [ "$attempt" = 5 ]; then
                echo "gate-power: five calibrations in a row could not size the slowdown; the machine's load moves too fast for CALRUNS=$calruns" >&2
                exit 2
            fi
        done
        # The rounds for this size, and the size they are relative to the launch.
        read -r extra percent injected_ns < <(python3 - "$size" "$unit" "$r" "$launch" "$calrounds" "$inject" <<'PY'
import math, sys
size, unit, r, launch, k = float(sys.argv[1]), sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
if sys.argv[6] == "wall":
    # Nanoseconds of wall time: s of the launch, or the microseconds asked.
    extra = size / 100 * launch if unit == "%" else size * 1000
    print(int(round(extra)), round(extra / launch * 100, 2), int(round(extra)))
    sys.exit(0)
per_round = launch * math.expm1(r) / k  # ns of one round, now
if unit == "%":
    # The launch is L + rounds·c: k rounds made it e^r times longer, so s
    # of it is s·k/(e^r − 1) rounds.
    extra = size / 100 * k / math.expm1(r)
else:
    extra = size * 1000 / per_round
print(int(round(extra)), round(extra * per_round / launch * 100, 2), int(round(extra * per_round)))
PY
        )
        sized+=("$percent")
        case "$load" in half | alternate) start_load ;; esac
        status=0
        # A gate that writes nothing must not be read as the try before it.
        rm -f "$work/gate.json"
        side_words "$extra"
        "${launchprof[@]}" gate --base-command "$(command_words 0)" --threshold "$threshold" "${gate_options[@]}" \
            --max-time "$maxtime" --export-json "$work/gate.json" -- "${side[@]}" \
            >"$work/out.txt" 2>&1 || status=$?
        case "$load" in half | alternate) stop_busy ;; esac
        if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP" && cp "$work/gate.json" "$KEEP/$size${unit/\%/pct}-$try.json" 2>/dev/null || true; fi
        read -r verdict elapsed change share medians < <(python3 - "$work/gate.json" "$injected_ns" <<'PY' 2>/dev/null || echo "none 0 nan nan -"
import json, sys
d = json.load(open(sys.argv[1]))
b, h = d.get("baseMedian"), d.get("headMedian")
medians = f"{b / 1e6:.2f}/{h / 1e6:.2f}ms" if b and h else "-"
if d.get("affinityChoice"):
    medians += f", affinity auto: {d['affinityChoice'].get('chosen') or 'unpinned'}"
# The injected work relative to the launch as this gate measured its base.
share = f"{int(sys.argv[2]) / b * 100:.2f}" if b else "nan"
print(d["verdict"] or "none", d["elapsed"], d["looks"][-1]["change"] if d["looks"] else "nan", share, medians)
PY
        )
        times+=("$elapsed")
        changes+=("$change")
        ofgate+=("$share")
        case "$verdict" in
        regressed) counts_regressed=$((counts_regressed + 1)) ;;
        improved) counts_improved=$((counts_improved + 1)) ;;
        unchanged) counts_unchanged=$((counts_unchanged + 1)) ;;
        *) counts_inconclusive=$((counts_inconclusive + 1)) ;;
        esac
        if [ -n "${VERBOSE:-}" ]; then echo "  $size$unit try $try (sized +$percent% of $(python3 -c "print(round($launch / 1e6, 2))") ms, +$share% of the gate's base; base/head medians $medians): $(head -1 "$work/out.txt") (exit $status)" >&2; fi
    done
    stats=$(python3 -c "import statistics,sys; t=[float(x) for x in sys.argv[1:]]; print(round(statistics.median(t),1), round(max(t),1))" "${times[@]}")
    measured=$(median 100 % "${changes[@]}")
    sizedmed=$(median 1 '' "${sized[@]}")
    ofgatemed=$(median 1 '' "${ofgate[@]}")
    printf '%-10s %9d %9d %9d %12d %10s %8s %10s %10s %10s\n' "+$size$unit" "$counts_regressed" "$counts_improved" "$counts_unchanged" \
        "$counts_inconclusive" ${stats} "$measured" "$sizedmed" "$ofgatemed"
done
stop_busy
