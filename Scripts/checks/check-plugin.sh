#!/usr/bin/env bash
# End to end: launchprof's SwiftPM command plugin (docs/swiftpm-plugin.md)
# from a package that depends on this checkout by path and has one tiny
# executable product:
#   - the package's own `swift build` compiles nothing of launchprof, and
#     launchprof's samples are no products it can build;
#   - without --allow-writing-to-package-directory and no terminal, SwiftPM
#     refuses, naming the flag and the plugin's reason, and nothing is written;
#   - `swift package --allow-writing-to-package-directory launchprof run
#     --product hello -r 3` builds hello in release, measures it and writes
#     .launchprof/results.json in the package;
#   - with a launchprof.yml and no --product: the product it runs is built
#     and its targets are run;
#   - an unknown --product names the package's executable products;
#   - other subcommands pass through (`history` over the results).
#
# It builds launchprof as the plugin's tool inside the test package, which
# costs minutes of CPU on a clean clone, so it runs from .ci/run rather
# than `swift test`. The package lives in .build-plugin/ (git-ignored) and
# keeps its .build there, so that a second run on one machine is incremental.
#
# Usage: Scripts/checks/check-plugin.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
package="$root/.build-plugin/launch-demo"
own="$root/.build-plugin/own-build"
. "$root/Scripts/checks/swiftpm-crash-retry.sh"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
fail() {
    cat "$log" >&2
    echo "check-plugin: $*" >&2
    exit 1
}

rm -rf "$package/Sources" "$package/.launchprof" "$package/launchprof.yml" "$own"
mkdir -p "$package/Sources/hello"
cat >"$package/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "launch-demo",
    products: [.executable(name: "hello", targets: ["hello"])],
    dependencies: [.package(path: "$root")],
    targets: [.executableTarget(name: "hello")]
)
SWIFT
echo 'print("hello")' >"$package/Sources/hello/main.swift"
cd "$package"

echo "check-plugin: the package's own build (a scratch path of its own)" >&2
swift build --scratch-path "$own" >"$log" 2>&1 || fail "swift build of the package failed"
# SwiftPM lays out a folder for every target of the graph; what it compiled
# are object files, and the only ones must be hello's.
compiled=$(find "$own" -name '*.o' ! -path '*/hello.build/*' ! -name 'hello.o')
[ -z "$compiled" ] || fail "the package's own build compiled launchprof's code: $(echo "$compiled" | head -5)"
find "$own" -path '*/hello.build/main.swift.o' | grep -q . || fail "the package's own build compiled no hello"
# The samples are executable targets without products: a package that
# depends on launchprof sees none of them (it could build a product).
status=0
swift build --scratch-path "$own" --product lp-sample-app >"$log" 2>&1 || status=$?
[ "$status" -ne 0 ] && grep -q "no product named 'lp-sample-app'" "$log" \
    || fail "a package that depends on launchprof sees lp-sample-app as a product"
rm -rf "$own"

echo "check-plugin: without the permission, no terminal" >&2
status=0
swiftpm_crash_retry swift package launchprof run --product hello -r 3 </dev/null >"$log" 2>&1 || status=$?
[ "$status" -ne 0 ] || fail "the plugin ran without permission to write to the package"
grep -q -- "--allow-writing-to-package-directory" "$log" || fail "the refusal does not name --allow-writing-to-package-directory"
grep -q "writes its results, baselines and profiles" "$log" || fail "the refusal does not give the plugin's reason"
[ ! -e .launchprof ] || fail "a refused plugin wrote .launchprof"

echo "check-plugin: run --product hello -r 3" >&2
start=$(date +%s)
swiftpm_crash_retry swift package --allow-writing-to-package-directory launchprof run --product hello -r 3 -w 0 </dev/null >"$log" 2>&1 \
    || fail "swift package launchprof run failed"
echo "check-plugin: the plugin's run (with launchprof built as its tool, unless up to date) took $(($(date +%s) - start)) s" >&2
grep -q "Building hello in release" "$log" || fail "the plugin did not say it built hello in release"
python3 - .launchprof/results.json <<'PY' || fail "the results file is not what run --product hello -r 3 measured"
import json, os, sys
document = json.load(open(sys.argv[1]))
results = document["results"]
assert [r["target"]["name"] for r in results] == ["hello"], results
runs = results[0]["runs"]
assert len(runs) == 3, len(runs)
program = results[0]["target"]["arguments"][0]
assert program.endswith("/release/hello"), program
assert os.path.isfile(program), program
PY

echo "check-plugin: launchprof.yml names the product" >&2
cat >launchprof.yml <<'YAML'
version: 1
defaults:
  runs: 3
  warmup: 0
targets:
  - name: hello-from-config
    command: [.build/release/hello]
YAML
rm -rf .build/release
swiftpm_crash_retry swift package --allow-writing-to-package-directory launchprof run </dev/null >"$log" 2>&1 || fail "run with launchprof.yml failed"
grep -q "Building hello in release" "$log" || fail "the plugin did not build the product launchprof.yml runs"
python3 -c '
import json, sys
results = json.load(open(".launchprof/results.json"))["results"]
assert [r["target"]["name"] for r in results] == ["hello-from-config"], results
' || fail "the results are not launchprof.yml's target"

echo "check-plugin: an unknown product" >&2
status=0
swiftpm_crash_retry swift package --allow-writing-to-package-directory launchprof run --product nosuch </dev/null >"$log" 2>&1 || status=$?
[ "$status" -ne 0 ] || fail "--product nosuch succeeded"
grep -q "no executable product of that name (its executable products: hello)" "$log" || fail "the error does not list the products"

echo "check-plugin: another subcommand passes through" >&2
swiftpm_crash_retry swift package --allow-writing-to-package-directory launchprof history .launchprof </dev/null >"$log" 2>&1 \
    || fail "history through the plugin failed"
grep -q "^1 results file" "$log" || fail "history through the plugin did not read the results file"
echo "check-plugin: ok" >&2
