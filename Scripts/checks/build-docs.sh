#!/usr/bin/env bash
# Builds the DocC documentation of LaunchProf, LaunchProfDeferred,
# LaunchProfLifecycle and the
# launch benchmark library's modules (LaunchSupport, LaunchAnalysis,
# LaunchEngine, LaunchReports and LaunchBenchmark) with swift-docc-plugin, warnings treated as errors, and
# fails when a public symbol declared in this repository has no doc comment.
#
# The plugin is a dependency only while LAUNCHPROF_DOCS is set (Package.swift),
# so users of the libraries never resolve it; the build uses a scratch folder
# of its own (.build-docs) so that it does not disturb the main build.
#
# Output: .build-docs/site/<Module>/ (static, for any web server; open
# .../documentation/<module>/ through one, e.g. python3 -m http.server).
set -euo pipefail
cd "$(dirname "$0")/../.."
. Scripts/checks/swiftpm-crash-retry.sh
export LAUNCHPROF_DOCS=1
site=.build-docs/site
rm -rf "$site"
mkdir -p "$site"
status=0
for module in LaunchProfFiles LaunchProf LaunchProfDeferred LaunchProfLifecycle LaunchSupport LaunchAnalysis LaunchEngine LaunchReports LaunchBenchmark; do
    echo "== docs: $module" >&2
    swiftpm_crash_retry swift package --scratch-path .build-docs --allow-writing-to-directory "$site" \
        generate-documentation --target "$module" --output-path "$site/$module" \
        --warnings-as-errors --transform-for-static-hosting --hosting-base-path "$module" \
        --experimental-documentation-coverage --coverage-summary-level brief
    python3 Scripts/checks/docs-coverage.py "$site/$module/documentation-coverage.json" "$module" || status=1
done
exit $status
