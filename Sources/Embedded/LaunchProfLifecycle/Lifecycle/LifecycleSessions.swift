import LaunchProf

/// The seed's session bookkeeping: how long each active session lasted, how
/// long each stint in background (suspended stops included) lasted, and
/// whether a return to active came after a long background.
package struct LifecycleSessions: Sendable, Equatable {
    /// When the process last became active, and entered background (CLOCK_MONOTONIC ns).
    private var activeSince: UInt64?
    private var backgroundSince: UInt64?
    /// The background stint that ended last, until the return to active reports it.
    private var lastBackground: UInt64?
    /// A return to active after at least this long in background is reported.
    package var longBackgroundThreshold: Duration = .seconds(300)

    package init(longBackgroundThreshold: Duration = .seconds(300)) {
        self.longBackgroundThreshold = longBackgroundThreshold
    }

    /// Fills in `transition`'s active session and time in background, and
    /// returns the background stint when it is a return to active after a
    /// long one.
    package mutating func record(_ transition: inout LifecycleTransition) -> Duration? {
        let now = transition.nanoseconds
        if transition.from == .active, let since = activeSince {
            transition.activeSession = .nanoseconds(Int64(clamping: now &- since))
            activeSince = nil
        }
        if transition.from == .background, transition.to == .inactive, let since = backgroundSince {
            transition.timeInBackground = .nanoseconds(Int64(clamping: now &- since))
            lastBackground = now &- since
            backgroundSince = nil
        }
        // Suspended is part of background: the stint goes on through a stop.
        if transition.to == .background, transition.from != .suspended { backgroundSince = now }
        guard transition.to == .active else { return nil }
        activeSince = now
        defer { lastBackground = nil }
        guard let stint = lastBackground else { return nil }
        let duration = Duration.nanoseconds(Int64(clamping: stint))
        return duration >= longBackgroundThreshold ? duration : nil
    }
}
