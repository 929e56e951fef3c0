#!/usr/bin/env python3
"""What other centres make of a gate's own runs.

    Scripts/checks/gate_replay.py [--any-cpu] [--steps] [--pairing] GATE.json...

Reads gates' --export-json (gate-power.sh KEEP=DIR keeps one per try),
pairs the runs as the gate does (GatePairing: each run with the nearest
earlier unpaired run of the other side on the same CPU, at most 3 positions
back) and judges the paired log-ratios at the confidence of the look that
ended the session by two centres:

- the median, with the sign test's interval (normal approximation of the
  binomial ranks; the gate's own interval intersects it with the
  signed-rank one, so its bounds differ a little);
- the 20%-trimmed mean, with Yuen's interval (winsorized variance, normal
  quantile: the sessions here have hundreds of pairs or more).

A change that moves a few runs a whole step (a launch quantized by the
kernel's tick under load) moves the median of the pairs less than their
mean: docs/gate.md, "A multi-threaded launch under load moves in steps".
The last column is the gate's verdict with an "unchanged" kept only when
the trimmed mean's interval also lies within the threshold. The summary
also gives the pairs' plain mean. --any-cpu pairs each ABBA block's
neighbours whatever their CPU instead (is the same-CPU pairing the cause?);
--steps prints each session's base runs per 0.5 ms (the humps).
--pairing prints, per session and as the median over them, the
information each pairing gives, pairs / spread² (spread: 1.4826 × the
median absolute deviation of the log-ratios), neighbours over same CPU:
docs/gate.md, "Pairs when the launch spans CPUs".
"""
import json
import math
import statistics
import sys
from statistics import NormalDist

WINDOW = 3
TRIM = 0.2


def pairs(runs, any_cpu=False):
    """ln(head / base) of the gate's same-CPU pairs, in the order formed (a run
    of unknown CPU pairs with another of unknown CPU, as in the gate); with
    any_cpu, of each ABBA block's neighbours (positions 4k, 4k+1 and 4k+3, 4k+2)."""
    if any_cpu:
        at = {run["position"]: run for run in runs}
        ratios = []
        for first, second in ((p, p + 1) for k in range(0, max(at, default=0) + 1, 4) for p in (k, k + 2)):
            if first in at and second in at and at[first]["side"] != at[second]["side"]:
                base, head = sorted((at[first], at[second]), key=lambda run: run["side"] != "base")
                ratios.append(math.log(head["value"] / base["value"]))
        return ratios
    waiting, ratios = [], []
    for run in runs:
        waiting = [w for w in waiting if run["position"] - w["position"] <= WINDOW]
        match = [i for i, w in enumerate(waiting) if w["side"] != run["side"] and w.get("cpu") == run.get("cpu")]
        if not match:
            waiting.append(run)
            continue
        partner = waiting.pop(match[-1])
        base, head = (partner, run) if run["side"] == "head" else (run, partner)
        ratios.append(math.log(head["value"] / base["value"]))
    return ratios


def sign_interval(values, confidence):
    v = sorted(values)
    n = len(v)
    z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    low = max(0, math.floor(n / 2 - z * math.sqrt(n) / 2))
    high = min(n - 1, math.ceil(n / 2 + z * math.sqrt(n) / 2))
    return statistics.median(v), v[low], v[high]


def yuen_interval(values, confidence):
    v = sorted(values)
    n = len(v)
    g = int(TRIM * n)
    kept = v[g:n - g]
    centre = sum(kept) / len(kept)
    winsorized = [min(max(x, v[g]), v[n - g - 1]) for x in v]
    spread = statistics.stdev(winsorized)
    z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    half = z * spread / ((1 - 2 * TRIM) * math.sqrt(n))
    return centre, centre - half, centre + half


def verdict(low, high, threshold):
    """As the gate decides (SequentialDecisionRule.decide): bounds and threshold as fractions."""
    low, high = math.expm1(low), math.expm1(high)
    if low > threshold:
        return "regressed"
    if high < -threshold:
        return "improved"
    if -threshold < low and high < threshold:
        return "unchanged"
    return "inconclusive"


def load(path):
    """The runs, the threshold (a fraction), the closing confidence and the verdict."""
    try:
        with open(path, encoding="utf-8") as file:
            doc = json.load(file)
        runs = doc["runs"]
        for run in runs:
            if not (isinstance(run["value"], (int, float)) and run["value"] > 0 and run["side"] in ("base", "head")
                    and isinstance(run["position"], int)):
                raise ValueError(f"a run at position {run.get('position')} has no positive value, side or position")
        threshold = float(doc["threshold"])
        confidence = float(doc["looks"][-1]["confidence"]) if doc["looks"] else 0.95
        return runs, threshold, confidence, doc.get("verdict") or "none"
    except (OSError, ValueError, KeyError, TypeError, IndexError) as error:
        sys.exit(f"gate_replay: {path}: not a gate's --export-json ({type(error).__name__}: {error})")


def spread(values):
    """1.4826 × the median absolute deviation (Hampel 1974)."""
    centre = statistics.median(values)
    return 1.4826 * statistics.median(abs(value - centre) for value in values)


def information(ratios):
    """pairs / spread², the precision the pairs give their centre."""
    width = spread(ratios)
    return len(ratios) / width ** 2 if width > 0 else math.inf


def steps(runs):
    """Base runs per 0.5 ms bin, the bins with at least 1% of them."""
    values = [run["value"] / 1e6 for run in runs if run["side"] == "base"]
    bins = {}
    for value in values:
        bins[math.floor(value * 2) / 2] = bins.get(math.floor(value * 2) / 2, 0) + 1
    return " ".join(f"{start:.1f}:{count}" for start, count in sorted(bins.items()) if count >= len(values) / 100)


def main(arguments):
    flags = {"--any-cpu", "--steps", "--pairing"}
    paths = [a for a in arguments if a not in flags]
    if not paths or any(a.startswith("--") for a in paths):
        sys.exit(__doc__.split("\n\n")[1])
    centres = {"median": [], "trimmed mean": [], "mean": []}
    tally = {}
    gains = []
    for path in paths:
        runs, threshold, confidence, gate = load(path)
        if "--steps" in arguments:
            print(f"{path}: base runs per 0.5 ms: {steps(runs)}")
        if "--pairing" in arguments:
            same, any_cpu = pairs(runs), pairs(runs, any_cpu=True)
            if len(same) >= 10 and len(any_cpu) >= 10:
                gains.append(information(any_cpu) / information(same))
                print(f"{path}: same CPU {len(same)} pairs, spread {100 * spread(same):.1f}%; neighbours "
                      f"{len(any_cpu)} pairs, spread {100 * spread(any_cpu):.1f}%; information neighbours / same CPU "
                      f"{gains[-1]:.2f}")
        ratios = pairs(runs, any_cpu="--any-cpu" in arguments)
        if len(ratios) < 10:
            print(f"{path}: {len(ratios)} pairs, too few to judge")
            continue
        words = []
        verdicts = {}
        for name, interval in (("median", sign_interval), ("trimmed mean", yuen_interval)):
            centre, low, high = interval(ratios, confidence)
            centres[name].append(centre)
            verdicts[name] = verdict(low, high, threshold)
            words.append(f"{name} {100 * math.expm1(centre):+.2f}% [{100 * math.expm1(low):+.2f}%, "
                         f"{100 * math.expm1(high):+.2f}%] {verdicts[name]}")
        centres["mean"].append(statistics.mean(ratios))
        guarded = "inconclusive" if gate == "unchanged" and verdicts["trimmed mean"] != "unchanged" else gate
        for key in (("gate", gate), ("trimmed mean", verdicts["trimmed mean"]), ("gate, unchanged guarded", guarded)):
            tally[key] = tally.get(key, 0) + 1
        print(f"{path}: {len(ratios)} pairs at {100 * confidence:.1f}%; gate {gate}; " + "; ".join(words)
              + f"; guarded {guarded}")
    for name, values in centres.items():
        if values:
            print(f"{name} of the pairs, over {len(values)} sessions: median {100 * math.expm1(statistics.median(values)):+.2f}%, "
                  f"from {100 * math.expm1(min(values)):+.2f}% to {100 * math.expm1(max(values)):+.2f}%")
    for (measure, word), count in sorted(tally.items()):
        print(f"{measure}: {word} {count}")
    if gains:
        print(f"information, neighbours / same CPU, over {len(gains)} sessions: median {statistics.median(gains):.2f}, "
              f"from {min(gains):.2f} to {max(gains):.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
