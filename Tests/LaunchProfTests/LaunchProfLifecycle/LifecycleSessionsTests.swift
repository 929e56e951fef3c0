import LaunchProfLifecycle
import Testing

/// Active sessions, time in background and the return after a long
/// background, over a sequence of transitions (times in seconds).
@Suite struct LifecycleSessionsTests {
    private func step(
        _ sessions: inout LifecycleSessions, _ from: LifecycleState, _ to: LifecycleState, at seconds: UInt64
    )
        -> (LifecycleTransition, Duration?)
    {
        var transition = LifecycleTransition(from: from, to: to, cause: .continued, nanoseconds: seconds * 1_000_000_000)
        let returned = sessions.record(&transition)
        return (transition, returned)
    }

    @Test func sessionsAndBackgroundStintsAreMeasuredAndALongOneIsReported() {
        var sessions = LifecycleSessions(longBackgroundThreshold: .seconds(300))
        _ = step(&sessions, .launching, .active, at: 10)
        let (leaving, _) = step(&sessions, .active, .inactive, at: 70)
        #expect(leaving.activeSession == .seconds(60))
        _ = step(&sessions, .inactive, .background, at: 71)
        _ = step(&sessions, .background, .suspended, at: 100)
        _ = step(&sessions, .suspended, .background, at: 300)  // a stop is part of the stint
        let (back, none) = step(&sessions, .background, .inactive, at: 471)
        #expect(back.timeInBackground == .seconds(400))
        #expect(none == nil, "reported on the return to active, not on the way")
        let (active, returned) = step(&sessions, .inactive, .active, at: 472)
        #expect(active.activeSession == nil)
        #expect(returned == .seconds(400))
        // A short stint is not reported.
        _ = step(&sessions, .active, .inactive, at: 500)
        _ = step(&sessions, .inactive, .background, at: 501)
        _ = step(&sessions, .background, .inactive, at: 560)
        let (_, short) = step(&sessions, .inactive, .active, at: 561)
        #expect(short == nil)
    }

    @Test func aBackgroundLaunchCountsFromLaunchComplete() {
        var sessions = LifecycleSessions(longBackgroundThreshold: .seconds(5))
        _ = step(&sessions, .launching, .background, at: 1)
        let (transition, _) = step(&sessions, .background, .inactive, at: 11)
        #expect(transition.timeInBackground == .seconds(10))
        #expect(step(&sessions, .inactive, .active, at: 12).1 == .seconds(10))
    }
}
