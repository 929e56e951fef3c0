# Sourced by scripts that run SwiftPM plugins (build-docs.sh, check-plugin.sh,
# Scripts/release/package.sh). Defines `swiftpm_crash_retry COMMAND...`:
# runs the command, and runs it again (up to three times in all) only when
# it was killed by SIGSEGV or SIGBUS, saying so on standard error.
#
# Why: swift-package of the 6.x toolchains on Linux now and then dies of
# SIGSEGV inside libdispatch, a fault of the toolchain, not of the package
# (reports of the kind: swiftlang/swift-package-manager#8171, intermittent
# segfaults of swift-package on Linux; moreSwift/swift-bundler#150, a crash
# in libdispatch's _dispatch_event_loop_drain). A CI run of this repository
# died that way in generate-documentation (exit 139, the faulting address in
# libdispatch.so), and the same script then built every module's docs
# cleanly three times in a row on the same sources. Any other failure, a
# warning made an error included, is returned at once.
swiftpm_crash_retry() {
    local attempt status
    for attempt in 1 2 3; do
        status=0
        "$@" || status=$?
        case $status in
        135 | 139)
            echo "swiftpm_crash_retry: '$1 ${2:-}' was killed by signal $((status - 128)) (attempt $attempt of 3; a crash of the toolchain's swift-package, see Scripts/checks/swiftpm-crash-retry.sh)" >&2
            ;;
        *) return $status ;;
        esac
    done
    return $status
}
