import LaunchAnalysis

/// A traced run's intervals, as the attribution of a change needs them:
/// by name and thread role (the main thread, or any other), added up, each
/// cut at ready and only if it began before.
enum RunIntervals {
    /// The intervals of `trace` cut at `readyAt` (CLOCK_MONOTONIC, the
    /// clock of the trace's timestamps and of the run loop's).
    static func times(in trace: Trace, readyAt: UInt64) -> [IntervalTime] {
        let paired = trace.pairIntervals()
        var totals: [String: IntervalTime] = [:]
        var order: [String] = []
        for interval in (paired.slices + paired.asyncIntervals).sorted(by: { $0.startTimestamp < $1.startTimestamp }) {
            guard interval.startTimestamp < readyAt else { continue }
            let end = min(interval.endTimestamp, readyAt)
            let thread = interval.beginThreadID == trace.header.pid ? "main" : "other"
            let key = "\(thread)/\(interval.name)"
            if totals[key] == nil {
                totals[key] = IntervalTime(name: interval.name, thread: thread, nanoseconds: 0, count: 0)
                order.append(key)
            }
            totals[key]!.nanoseconds += end > interval.startTimestamp ? end - interval.startTimestamp : 0
            totals[key]!.count += 1
        }
        return order.compactMap { totals[$0] }
    }
}
