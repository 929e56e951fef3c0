#!/usr/bin/env bash
# End to end: the JUnit XML that `launchprof run --export-junit` writes, read
# by a real JUnit reader (python's junitparser, installed here if missing):
# a run with one budget met and one exceeded gives one suite per target, a
# test case per budget, and the exceeded one as a failure.
#
# Usage: Scripts/checks/check-junit.sh   (builds launchprof and lp-hello-c if needed)
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! python3 -c 'import junitparser' 2>/dev/null; then
    echo "check-junit: installing junitparser (PyPI)" >&2
    python3 -m pip install --quiet --disable-pip-version-check junitparser >&2
fi
swift build --product launchprof >&2
swift build --product lp-hello-c >&2
bin=$(swift build --show-bin-path)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cat >"$scratch/launchprof.yml" <<YAML
version: 1
defaults:
  runs: 5
  warmup: 1
targets:
  - name: hello-c
    command: [$bin/lp-hello-c]
    budgets:
      - metric: wall_to_exit
        statistic: p50
        limit: 10s
      - metric: wall_to_exit
        statistic: p50
        limit: 1ns
YAML
status=0
"$bin/launchprof" run --config "$scratch/launchprof.yml" --export-junit "$scratch/junit.xml" >"$scratch/out.txt" 2>&1 || status=$?
if [ "$status" -ne 1 ]; then
    cat "$scratch/out.txt" >&2
    echo "check-junit: launchprof run exited with $status; a budget exceeded is 1" >&2
    exit 1
fi
python3 - "$scratch/junit.xml" <<'PY'
import sys
import junitparser

xml = junitparser.JUnitXml.fromfile(sys.argv[1])
suites = list(xml)
cases = [case for suite in suites for case in suite]
failures = [case for case in cases if any(isinstance(r, junitparser.Failure) for r in case.result)]
for case in cases:
    assert case.name and case.classname is not None, f"a test case without a name or class: {case}"
assert sum(suite.tests for suite in suites) == len(cases), "suite counts disagree with their cases"
assert len(failures) == 1 and failures[0].name.endswith("<= 1.00 ns"), \
    f"expected the 1 ns budget to be the one failure, got {[f.name for f in failures]}"
print(f"check-junit: junitparser read {len(suites)} suite(s), {len(cases)} test case(s), {len(failures)} failure (the 1 ns budget)")
PY
