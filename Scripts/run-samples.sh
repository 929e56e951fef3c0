#!/usr/bin/env bash
# The main job: installs what the machine lacks, builds launchprof and the
# bundled samples (release), and runs `launchprof run` on them:
#   1. cold and warm launch to exit: the C hello-world (reference) and the
#      instrumented Swift sample app, interleaved;
#   2. the sample app to ready (launch complete from its tracer), with its
#      per-milestone times, then 10 more launches sampled (--profile) for a
#      flame graph of where its launch spends CPU, all in one HTML report;
#   3. the sample server to ready on sd_notify READY=1 (it stays up; launchprof
#      stops it and still reports its resources).
# Results go to .launchprof/samples/ (JSON and Markdown; ready.html, the
# report with the flame graph; the profile in .launchprof/samples/profiles/:
# sample-app.svg, .speedscope.json, .folded). Extra arguments are passed to
# every `launchprof run` (e.g. --runs 50).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-deps.sh
swift build -c release >&2
bin=$(swift build -c release --show-bin-path)
out=.launchprof/samples
mkdir -p "$out"

echo "== 1. cold and warm launch to exit, relative to a C hello-world"
"$bin/launchprof" run --mode cold --mode warm --runs 20 --reference hello-c \
    -n hello-c -n sample-app "$bin/lp-hello-c" "$bin/lp-sample-app" \
    --export-json "$out/exit.json" --export-markdown "$out/exit.md" "$@"

echo
echo "== 2. the traced sample app to launch complete, with its milestones, and a profile of its launch"
"$bin/launchprof" run --mode warm --runs 20 --ready tracer -n sample-app \
    --profile --profile-dir "$out/profiles" --report "$out/ready.html" \
    --export-json "$out/ready.json" --export-markdown "$out/ready.md" "$@" -- "$bin/lp-sample-app"

echo
echo "== 3. a server that stays up, to sd_notify READY=1"
"$bin/launchprof" run --mode warm --runs 20 --ready notify -n sample-server \
    --export-json "$out/server.json" --export-markdown "$out/server.md" "$@" -- "$bin/lp-sample-server" --port 0

echo
echo "results: $out/"
