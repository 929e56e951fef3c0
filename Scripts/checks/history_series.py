#!/usr/bin/env python3
"""Generated histories for `launchprof history`: series of medians with known
shifts, written as launchprof results files (copies of a real one with the
median time to ready, labels and date replaced), one runner per series, and
the truth beside them.

  history_series.py TEMPLATE.json OUT_DIR --series S --segments K --length L
      [--shift-min 0.05 --shift-max 0.10 --noise-min 0.01 --noise-max 0.03 --seed N]

Each series is K segments of L points; each segment's level moves from the
one before by a random 5-10% (up or down, either equally likely); each point
is the level times (1 + noise * N(0, 1)), the noise drawn per series from
1-3%. OUT_DIR.truth.json (beside the directory, so that launchprof does not
read it) holds every series' values and true change indices.
Standard library only (random.Random, seeded), so the numbers are the same
everywhere.
"""
import argparse
import json
import os
import random


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("template")
    parser.add_argument("out")
    parser.add_argument("--series", type=int, default=20)
    parser.add_argument("--segments", type=int, default=10)
    parser.add_argument("--length", type=int, default=10)
    parser.add_argument("--shift-min", type=float, default=0.05)
    parser.add_argument("--shift-max", type=float, default=0.10)
    parser.add_argument("--noise-min", type=float, default=0.01)
    parser.add_argument("--noise-max", type=float, default=0.03)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    with open(args.template) as file:
        template = json.load(file)
    summary = template["results"][0]["summaries"]["wall_to_ready"]
    base = summary["median"]
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    truth = []
    points = args.segments * args.length
    for series in range(args.series):
        noise = rng.uniform(args.noise_min, args.noise_max)
        level, values, changes = base, [], []
        for segment in range(args.segments):
            if segment > 0:
                level *= 1 + rng.choice([-1, 1]) * rng.uniform(args.shift_min, args.shift_max)
                changes.append(segment * args.length)
            values += [level * (1 + noise * rng.gauss(0, 1)) for _ in range(args.length)]
        runner = f"series-{series:03d}"
        truth.append({"runner": runner, "noise": noise, "changes": changes, "values": values})
        for index, value in enumerate(values):
            summary["median"] = max(value, 0.0)
            template["labels"] = {"commit": f"{series:04x}{index:06x}" + "0" * 30, "branch": "main", "runner": runner}
            day, minute = divmod(index, 24 * 60)
            template["date"] = f"2026-{1 + day // 28:02d}-{1 + day % 28:02d}T{minute // 60:02d}:{minute % 60:02d}:00Z"
            with open(os.path.join(args.out, f"{runner}-{index:05d}.json"), "w") as file:
                json.dump(template, file)
    with open(args.out.rstrip("/") + ".truth.json", "w") as file:
        json.dump(truth, file)
    print(f"history_series: {args.series} series of {points} points, {args.series * points} results files in {args.out}")


if __name__ == "__main__":
    main()
