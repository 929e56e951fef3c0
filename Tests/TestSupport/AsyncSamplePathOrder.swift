import LaunchBenchmark

/// What the critical path of an `lp-sample-async-server` trace ends in, by
/// LaunchCriticalPath's rule: a thread outside its intervals is taken to
/// wait for whatever ended last, since a trace has no edge for an await.
/// "build router" follows "load config", unless a busy machine ran the
/// detached "warm cache", which nobody awaits, to its end between the two:
/// then it ended last, and the walk names it.
package struct AsyncSamplePathOrder {
    /// The step the path takes before "build router".
    package var beforeRouter: String
    /// "warm cache" ended after "build router": nothing in the trace tells
    /// it from an awaited step, and the path may end in it.
    package var isAmbiguous: Bool

    /// Nil when the trace lacks a finished "load config" or "build router".
    /// An unfinished or missing "warm cache" is on no path.
    package init?(trace: Trace) {
        let paired = trace.pairIntervals()
        let finished = (paired.slices + paired.asyncIntervals).filter { !$0.isUnfinished }
        guard let config = finished.first(where: { $0.name == "load config" }),
            let router = finished.first(where: { $0.name == "build router" })
        else { return nil }
        let cacheEnd = finished.first { $0.name == "warm cache" }?.endTimestamp ?? 0
        beforeRouter = cacheEnd > config.endTimestamp && cacheEnd <= router.startTimestamp ? "warm cache" : "load config"
        isAmbiguous = cacheEnd > router.endTimestamp
    }
}
