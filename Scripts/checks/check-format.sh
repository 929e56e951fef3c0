#!/usr/bin/env bash
# Fails when a Swift file of the repository is not formatted as .swift-format
# says (swift-format, which ships with the toolchain: `swift format`).
# To fix: Scripts/checks/check-format.sh --fix (formats the files in place).
set -euo pipefail
cd "$(dirname "$0")/../.."
mapfile -t files < <(git ls-files '*.swift' ':!:*/.build/*')
if [ "${1:-}" = "--fix" ]; then
    swift format format --in-place --configuration .swift-format "${files[@]}"
    exit 0
fi
if ! swift format lint --strict --configuration .swift-format "${files[@]}"; then
    echo "check-format: not formatted as .swift-format says; run Scripts/checks/check-format.sh --fix" >&2
    exit 1
fi
echo "check-format: ${#files[@]} Swift files formatted as .swift-format says"
