#!/usr/bin/env bash
# The test command: installs what a fresh machine lacks, then runs every test
# (unit tests and end-to-end tests that run the built samples for real).
#
# Then the Integrations package's tests (LaunchProfTracing, LaunchProfMetrics:
# a package of its own, so its dependencies are resolved only here).
#
# The regression-gate tests compare a saved baseline of real launches with a
# later run, so load from other tests running in parallel must not fall on
# one side only: they run alone, after the rest. Arguments are passed to a
# single `swift test` instead (e.g. Scripts/test.sh --filter Budget).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-deps.sh
swift build --build-tests
if [ $# -gt 0 ]; then
    exec swift test "$@"
fi
swift test --skip RegressionGateTests
swift test --filter RegressionGateTests
(cd Integrations && swift build --build-tests && swift test)
# What the two framework integrations share (HTTPDate, InheritedSocketError,
# the samples' options, their tests' support), a package of its own.
(cd Integrations/LaunchProfServerSupport && swift build --build-tests && swift test)
# The Hummingbird integration, a package of its own: its sample server is
# measured by the launchprof built above (.build/debug/launchprof).
(cd Integrations/LaunchProfHummingbird && swift build --build-tests && swift test)
# The Vapor integration, likewise (a clean debug build of Vapor is the
# longest step of the integrations: see Integrations/README.md).
(cd Integrations/LaunchProfVapor && swift build --build-tests && swift test)
