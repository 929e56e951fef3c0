#!/usr/bin/env bash
# The test command: installs what a fresh machine lacks, then runs every test
# (unit tests and end-to-end tests that run the built samples for real).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-deps.sh
swift build --build-tests
swift test "$@"
